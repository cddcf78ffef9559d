package kernels

// Kernel names (extern "C" in the .cu files). The helpers below build the
// name of a point of the decision space.

// BFSPush returns bfs_push_{o,u}_{t,b}_{bm,qu}.
func BFSPush(ordered, block, bitmap bool) string {
	return "bfs_push_" + pick(ordered, "o", "u") + "_" + pick(block, "b", "t") + "_" + pick(bitmap, "bm", "qu")
}

// SSSP returns sssp_{i,f}_{t,b}_{bm,qu}.
func SSSP(float, block, bitmap bool) string {
	return "sssp_" + pick(float, "f", "i") + "_" + pick(block, "b", "t") + "_" + pick(bitmap, "bm", "qu")
}

// Selection modes of the generation kernels.
const (
	SelectAll   = "all"   // every updated vertex
	SelectMin   = "min"   // updated vertices at the minimum distance
	SelectDelta = "delta" // updated vertices in the minimum's delta bucket
)

// Output forms of the generation kernels.
const (
	OutBitmap      = "bm" // bitmap, size by popcount
	OutQueueAtomic = "qa" // queue, one atomic per element
	OutQueueWarp   = "qw" // queue, one atomic per warp
)

// Gen returns ws_gen_<out>_<sel>[_i|_f].
func Gen(out, sel string, float bool) string {
	n := "ws_gen_" + out + "_" + sel
	if sel != SelectAll {
		n += pick(float, "_f", "_i")
	}
	return n
}

// FindMin returns sssp_findmin_u32 (float32 bits) or sssp_findmin_u64.
func FindMin(float bool) string { return pick(float, "sssp_findmin_u32", "sssp_findmin_u64") }

// Persistent multi-level launches (bfs_persist_qu, sssp_persist_qu;
// PERSIST_* in common.cuh): threads per block (one block per
// multiprocessor) and the largest out-degree of a frontier vertex they
// expand.
const (
	PersistThreads = 512
	PersistMaxDeg  = 512
)

// Single kernels.
const (
	BFSPull     = "bfs_pull_t"
	BFSPersist  = "bfs_persist_qu"
	SSSPPersist = "sssp_persist_qu"
	BitmapToQu  = "ws_bm_to_qu"
	QueueToBm   = "ws_qu_to_bm"
)

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// Names lists every kernel in the fatbin; the cuda backend resolves them
// all when it loads the module, so a stale fatbin fails at start-up.
var Names = func() []string {
	var n []string
	for _, o := range []bool{true, false} {
		for _, b := range []bool{false, true} {
			for _, bm := range []bool{true, false} {
				n = append(n, BFSPush(o, b, bm))
			}
		}
	}
	for _, f := range []bool{false, true} {
		for _, b := range []bool{false, true} {
			for _, bm := range []bool{true, false} {
				n = append(n, SSSP(f, b, bm))
			}
		}
		n = append(n, FindMin(f))
	}
	for _, out := range []string{OutBitmap, OutQueueAtomic, OutQueueWarp} {
		n = append(n, Gen(out, SelectAll, false))
		for _, sel := range []string{SelectMin, SelectDelta} {
			n = append(n, Gen(out, sel, false), Gen(out, sel, true))
		}
	}
	return append(n, BFSPull, BFSPersist, SSSPPersist, BitmapToQu, QueueToBm)
}()
