package kernels

// Kernel names (extern "C" in the .cu files). Kernels launch through the
// typed functions of wrappers_gen.go; the builders below return the typed
// name of a family's member for a point of the decision space, and the
// string constants name single kernels where the name itself matters (a
// persistent launch's grid: PersistBlocksPerSM; error reports).

// BFSPushOf returns bfs_push_{o,u}_{t,b}_{bm,qu}, for LaunchBFSPush.
func BFSPushOf(ordered, block, bitmap bool) BFSPushKernel {
	return BFSPushKernel("bfs_push_" + pick(ordered, "o", "u") + "_" + pick(block, "b", "t") + "_" + pick(bitmap, "bm", "qu"))
}

// SSSPPushU64Of returns sssp_d64_{t,b}_{bm,qu} (uint64 distances), for
// LaunchSSSPPushU64.
func SSSPPushU64Of(block, bitmap bool) SSSPPushU64Kernel {
	return SSSPPushU64Kernel(ssspPush(false, block, bitmap))
}

// SSSPPushU32Of returns sssp_d32_{t,b}_{bm,qu} (uint32 distances), for
// LaunchSSSPPushU32.
func SSSPPushU32Of(block, bitmap bool) SSSPPushU32Kernel {
	return SSSPPushU32Kernel(ssspPush(true, block, bitmap))
}

func ssspPush(d32, block, bitmap bool) string {
	return "sssp_" + dist(d32) + "_" + pick(block, "b", "t") + "_" + pick(bitmap, "bm", "qu")
}

// BFSPiecesOf returns bfs_pieces_{o,u}, the heavy-vertex pieces of a push
// kernel (expand.cuh), for LaunchBFSPieces.
func BFSPiecesOf(ordered bool) BFSPiecesKernel {
	return BFSPiecesKernel("bfs_pieces_" + pick(ordered, "o", "u"))
}

// SSSP's single kernels of each distance width (LaunchSSSP...D32/U32 and
// ...D64/U64): the pieces of a push kernel, findmin and the work-targeted
// bucket, and the persistent launches of unordered levels (qu) and of
// near-far delta-stepping buckets (nf).
const (
	SSSPPiecesD64    = "sssp_pieces_d64"
	SSSPPiecesD32    = "sssp_pieces_d32"
	SSSPFindminU64   = "sssp_findmin_u64"
	SSSPFindminU32   = "sssp_findmin_u32"
	SSSPBucketU64    = "sssp_bucket_u64"
	SSSPBucketU32    = "sssp_bucket_u32"
	SSSPPersistQuD64 = "sssp_persist_qu_d64"
	SSSPPersistQuD32 = "sssp_persist_qu_d32"
	SSSPPersistNfD64 = "sssp_persist_nf_d64"
	SSSPPersistNfD32 = "sssp_persist_nf_d32"
)

func dist(d32 bool) string { return pick(d32, "d32", "d64") }

// Push expansion (expand.cuh): a working-set vertex of more out-edges than
// HeavyThread (thread mapping) or HeavyBlock (block mapping) is split into
// pieces of PieceEdges edges, expanded by a second launch.
const (
	PieceEdges  = 256
	HeavyThread = 64
	HeavyBlock  = 1024
)

// Selection modes of the generation kernels.
const (
	SelectAll   = "all"   // every updated vertex
	SelectMin   = "min"   // updated vertices at the minimum distance
	SelectDelta = "delta" // updated vertices in the minimum's delta bucket
	// SelectBucket is the adaptive policy's work-targeted bucket:
	// sssp_bucket sets the bound after sssp_findmin, and the SelectMin
	// kernels select up to it (there is no ws_gen_*_bucket kernel).
	SelectBucket = "bucket"
)

// BucketBins is the number of bins of sssp_bucket's degree histogram
// (BUCKET_BINS in common.cuh): the widest bucket is BucketBins-1 bins.
const BucketBins = 64

// Output forms of the generation kernels.
const (
	OutBitmap      = "bm" // bitmap, size by popcount
	OutQueueAtomic = "qa" // queue, one atomic per element
	OutQueueWarp   = "qw" // queue, one atomic per warp
	// OutDual writes both: the bitmap to its out argument and, as
	// OutQueueWarp, the queue to two extra arguments (alt *u32, cap u32),
	// storing only the entries below cap.
	OutDual = "dual"
)

// GenOf returns ws_gen_<out>_<sel>[_d64|_d32] for LaunchWSGen; out is
// OutBitmap, OutQueueAtomic or OutQueueWarp (OutDual's kernels take two
// more arguments: GenDualOf). Another out or sel gives a name that is not
// a member, which LaunchWSGen refuses.
func GenOf(out, sel string, d32 bool) WSGenKernel {
	if out == OutDual {
		return ""
	}
	return WSGenKernel(gen(out, sel, d32))
}

// GenDualOf returns ws_gen_dual_<sel>[_d64|_d32], for LaunchWSGenDual.
func GenDualOf(sel string, d32 bool) WSGenDualKernel {
	return WSGenDualKernel(gen(OutDual, sel, d32))
}

// gen returns ws_gen_<out>_<sel>[_d64|_d32] (d32: uint32 distances).
func gen(out, sel string, d32 bool) string {
	n := "ws_gen_" + out + "_" + sel
	if sel != SelectAll {
		n += "_" + dist(d32)
	}
	return n
}

// Persistent multi-level launches (bfs_persist_qu, sssp_persist_qu;
// PERSIST_* in common.cuh): threads per block (one block per
// multiprocessor), the largest out-degree of a frontier vertex that a group
// of lanes expands (its block takes larger ones), the largest a block
// expands (the whole grid takes larger ones, up to PersistHubs a level;
// further ones go to their block).
const (
	PersistThreads     = 512
	PersistGroupMaxDeg = 64
	PersistMaxDeg      = 8192
	PersistHubs        = 256
	// PersistBytes is the size of a launch's state (struct Persist).
	PersistBytes = 1160
	// CtrlBytes is the size of a working set's control block (struct
	// Ctrl in common.cuh), mirrored by workset's Go type.
	CtrlBytes = 72
	// A frontier of at most PersistLocalVertices vertices and the launch's
	// local edge limit (at most PersistLocalMaxEdges, the block queue's
	// length) out-edges is expanded by one block alone.
	PersistLocalVertices = 512
	PersistLocalMaxEdges = 2048
)

// PersistBlocksPerSM lists the persistent kernels launched with more than
// one block per multiprocessor (their __launch_bounds__' minimum), where
// that many fit (the cuda backend checks the registers and shared memory
// the kernel was built with); the rest run one.
var PersistBlocksPerSM = map[string]int{BFSPullPersist: 2}

// Single kernels.
const (
	BFSPull    = "bfs_pull_t"
	BFSPersist = "bfs_persist_qu"
	// BFSPullPersist runs pull levels, then push levels, in one
	// persistent launch (bfs.cu).
	BFSPullPersist = "bfs_pull_persist"
	BitmapToQu     = "ws_bm_to_qu"
	QueueToBm      = "ws_qu_to_bm"
	// MaxBelow finds a uint32 array's largest value below MaxUint32, and
	// Narrow8 and Narrow16 narrow it for its copy to the host (narrow.cu).
	MaxBelow = "max_below_u32"
	Narrow8  = "narrow_u8"
	Narrow16 = "narrow_u16"
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
				n = append(n, string(BFSPushOf(o, b, bm)))
			}
		}
		n = append(n, string(BFSPiecesOf(o)))
	}
	for _, b := range []bool{false, true} {
		for _, bm := range []bool{true, false} {
			n = append(n, string(SSSPPushU64Of(b, bm)), string(SSSPPushU32Of(b, bm)))
		}
	}
	n = append(n, SSSPPiecesD64, SSSPPiecesD32, SSSPFindminU64, SSSPFindminU32, SSSPBucketU64, SSSPBucketU32,
		SSSPPersistQuD64, SSSPPersistQuD32, SSSPPersistNfD64, SSSPPersistNfD32)
	for _, sel := range []string{SelectAll, SelectMin, SelectDelta} {
		for _, d32 := range []bool{false, true} {
			if sel == SelectAll && d32 {
				continue // one kernel for both widths
			}
			for _, out := range []string{OutBitmap, OutQueueAtomic, OutQueueWarp} {
				n = append(n, string(GenOf(out, sel, d32)))
			}
			n = append(n, string(GenDualOf(sel, d32)))
		}
	}
	return append(n, BFSPull, BFSPersist, BFSPullPersist, BitmapToQu, QueueToBm, MaxBelow, Narrow8, Narrow16)
}()
