package kernels

// Max-flow kernels (maxflow.cu): the MF_PASS family (push and relabel,
// thread or warp per vertex, bitmap or queue) and the single kernels below.
const (
	MFGenDense = "mf_gen_dense" // applies a pass over every vertex, writes a bitmap or a queue
	MFGenCand  = "mf_gen_cand"  // applies a pass over its listed candidates, writes a queue
	MFBFSInit  = "mf_bfs_init"  // global relabel: labels reset, the sink's frontier
	MFBFSLevel = "mf_bfs_level" // global relabel: one backward BFS level
)

// MfPassOf returns mf_{push,relabel}_{t,w}_{bm,qu}, for LaunchMfPass.
func MfPassOf(relabel, warp, queue bool) MfPassKernel {
	return MfPassKernel("mf_" + pick(relabel, "relabel", "push") + "_" + pick(warp, "w", "t") + "_" + pick(queue, "qu", "bm"))
}

// MFNames lists the max-flow kernels; they are part of Names.
var MFNames = []string{MFGenDense, MFGenCand, MFBFSInit, MFBFSLevel,
	"mf_push_t_bm", "mf_push_w_bm", "mf_push_t_qu", "mf_push_w_qu",
	"mf_relabel_t_bm", "mf_relabel_w_bm", "mf_relabel_t_qu", "mf_relabel_w_qu"}

func init() { Names = append(Names, MFNames...) }
