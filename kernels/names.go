package kernels

// Kernel names (extern "C" in the .cu files). The helpers below build the
// name of a point of the decision space: the ...Of ones the typed name a
// family's generated launch function takes (wrappers_gen.go), the others
// the string the cuda backend's untyped Dev.Launch takes, until its call
// sites launch through the wrappers.

// BFSPushOf returns bfs_push_{o,u}_{t,b}_{bm,qu}, for LaunchBFSPush.
func BFSPushOf(ordered, block, bitmap bool) BFSPushKernel {
	return BFSPushKernel("bfs_push_" + pick(ordered, "o", "u") + "_" + pick(block, "b", "t") + "_" + pick(bitmap, "bm", "qu"))
}

// BFSPush is BFSPushOf's string.
func BFSPush(ordered, block, bitmap bool) string { return string(BFSPushOf(ordered, block, bitmap)) }

// SSSPPushU64Of returns sssp_d64_{t,b}_{bm,qu} (uint64 distances), for
// LaunchSSSPPushU64.
func SSSPPushU64Of(block, bitmap bool) SSSPPushU64Kernel {
	return SSSPPushU64Kernel(SSSP(false, block, bitmap))
}

// SSSPPushU32Of returns sssp_d32_{t,b}_{bm,qu} (uint32 distances), for
// LaunchSSSPPushU32.
func SSSPPushU32Of(block, bitmap bool) SSSPPushU32Kernel {
	return SSSPPushU32Kernel(SSSP(true, block, bitmap))
}

// SSSP returns sssp_{d64,d32}_{t,b}_{bm,qu}: d32 for uint32 distances.
func SSSP(d32, block, bitmap bool) string {
	return "sssp_" + dist(d32) + "_" + pick(block, "b", "t") + "_" + pick(bitmap, "bm", "qu")
}

// BFSPiecesOf returns bfs_pieces_{o,u}, the heavy-vertex pieces of a push
// kernel (expand.cuh), for LaunchBFSPieces.
func BFSPiecesOf(ordered bool) BFSPiecesKernel {
	return BFSPiecesKernel("bfs_pieces_" + pick(ordered, "o", "u"))
}

// BFSPieces is BFSPiecesOf's string.
func BFSPieces(ordered bool) string { return string(BFSPiecesOf(ordered)) }

// SSSPPieces returns sssp_pieces_{d64,d32}.
func SSSPPieces(d32 bool) string { return "sssp_pieces_" + dist(d32) }

// SSSPPersist returns sssp_persist_qu_{d64,d32}, unordered levels.
func SSSPPersist(d32 bool) string { return "sssp_persist_qu_" + dist(d32) }

// SSSPPersistBuckets returns sssp_persist_nf_{d64,d32}, near-far
// delta-stepping buckets; its arguments add (n uint32, delta uint64)
// after the parity.
func SSSPPersistBuckets(d32 bool) string { return "sssp_persist_nf_" + dist(d32) }

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
	// SelectBucket is the adaptive policy's work-targeted bucket: Bucket
	// sets the bound after FindMin, and the SelectMin kernels select up to
	// it (there is no ws_gen_*_bucket kernel).
	SelectBucket = "bucket"
)

// BucketBins is the number of bins of Bucket's degree histogram
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
	return WSGenKernel(Gen(out, sel, d32))
}

// GenDualOf returns ws_gen_dual_<sel>[_d64|_d32], for LaunchWSGenDual.
func GenDualOf(sel string, d32 bool) WSGenDualKernel {
	return WSGenDualKernel(Gen(OutDual, sel, d32))
}

// Gen returns ws_gen_<out>_<sel>[_d64|_d32] (d32: uint32 distances).
func Gen(out, sel string, d32 bool) string {
	n := "ws_gen_" + out + "_" + sel
	if sel != SelectAll {
		n += "_" + dist(d32)
	}
	return n
}

// FindMin returns sssp_findmin_u32 or sssp_findmin_u64.
func FindMin(d32 bool) string { return pick(d32, "sssp_findmin_u32", "sssp_findmin_u64") }

// Bucket returns sssp_bucket_u32 or sssp_bucket_u64.
func Bucket(d32 bool) string { return pick(d32, "sssp_bucket_u32", "sssp_bucket_u64") }

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
	// Narrow8 and Narrow16 narrow it for its copy to the host (narrow.cu):
	// (in, n uint32, out *uint32) and (in, out, n uint32).
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
				n = append(n, BFSPush(o, b, bm))
			}
		}
		n = append(n, BFSPieces(o))
	}
	for _, d32 := range []bool{false, true} {
		for _, b := range []bool{false, true} {
			for _, bm := range []bool{true, false} {
				n = append(n, SSSP(d32, b, bm))
			}
		}
		n = append(n, FindMin(d32), Bucket(d32), SSSPPieces(d32), SSSPPersist(d32), SSSPPersistBuckets(d32))
	}
	for _, out := range []string{OutBitmap, OutQueueAtomic, OutQueueWarp, OutDual} {
		n = append(n, Gen(out, SelectAll, false))
		for _, sel := range []string{SelectMin, SelectDelta} {
			n = append(n, Gen(out, sel, false), Gen(out, sel, true))
		}
	}
	return append(n, BFSPull, BFSPersist, BFSPullPersist, BitmapToQu, QueueToBm, MaxBelow, Narrow8, Narrow16)
}()
