package kernels

// The apsp kernels (apsp.cu).
const (
	// APSPFW32 and APSPFW16 run one round of the fused blocked
	// Floyd-Warshall schedule on a matrix of 32-bit or packed 16-bit
	// distances (LaunchApspFwS32, LaunchApspFwS16).
	APSPFW32 = "apsp_fw_s32"
	APSPFW16 = "apsp_fw_s16"
	// APSPInit writes the diagonal and the arcs into a matrix pre-filled
	// with "no path" (LaunchApspInit).
	APSPInit = "apsp_init"
)

// APSPTile is APSP_T in apsp.cu: the tile side in vertices; the matrix is
// padded to a multiple of it.
const APSPTile = 64

// APSPThreads32 and APSPThreads16 are the block sizes of apsp_fw_s32 and
// apsp_fw_s16 (their __launch_bounds__; the kernels index by them).
const (
	APSPThreads32 = 256
	APSPThreads16 = 128
)

// APSPNames lists the apsp kernels; they are part of Names.
var APSPNames = []string{APSPFW32, APSPFW16, APSPInit}

func init() { Names = append(Names, APSPNames...) }
