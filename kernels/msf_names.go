package kernels

// Minimum-spanning-forest kernels (msf.cu).
const (
	MSFMinBitmapT = "msf_min_bm_t" // bitmap of hidden arcs, thread per vertex
	MSFMinBitmapE = "msf_min_bm_e" // bitmap of hidden arcs, warp per bitmap word
	MSFMinQueue   = "msf_min_qu"   // queue of u<<32|arc, compacted in the pass
	MSFHook       = "msf_hook"
	MSFBuildQu    = "msf_build_qu"
	MSFQuToBm     = "msf_qu_to_bm"
	MSFListCount  = "msf_list_count" // the forest's listing: chosen arcs per tile, their offsets
	MSFListWrite  = "msf_list_write" // the edges in arc order
)

// MSFListBlock is the block size msf_list_count and msf_list_write must be
// launched with (MSF_LIST_BLOCK in msf.cu), MSFListTile the bitmap words a
// block lists at a time (MSF_LIST_TILE).
const (
	MSFListBlock = 256
	MSFListTile  = 4 * MSFListBlock
)

// MSFNames lists the msf kernels; they are part of Names.
var MSFNames = []string{MSFMinBitmapT, MSFMinBitmapE, MSFMinQueue, MSFHook, MSFBuildQu, MSFQuToBm, MSFListCount, MSFListWrite}

func init() { Names = append(Names, MSFNames...) }
