package kernels

// Minimum-spanning-forest kernels (msf.cu).
const (
	MSFMinBitmapT = "msf_min_bm_t" // bitmap of hidden arcs, thread per vertex
	MSFMinBitmapE = "msf_min_bm_e" // bitmap of hidden arcs, warp per bitmap word
	MSFMinQueue   = "msf_min_qu"   // queue of u<<32|arc, compacted in the pass
	MSFHook       = "msf_hook"
	MSFBuildQu    = "msf_build_qu"
	MSFQuToBm     = "msf_qu_to_bm"
)

// MSFNames lists the msf kernels; they are part of Names.
var MSFNames = []string{MSFMinBitmapT, MSFMinBitmapE, MSFMinQueue, MSFHook, MSFBuildQu, MSFQuToBm}

func init() { Names = append(Names, MSFNames...) }
