//go:build cuda

package frontier

// The GPU half of the vertex-frontier kit: CUDATraversal holds what the
// GPU BFS and SSSP operators share (the pinned device graph, the
// workset.CUDA working set, persistent multi-level launches and the
// result copied behind the launch that finishes a traversal,
// speculate_cuda.go). Its CUDA-specific names keep it apart from the CPU
// half.

import (
	"fmt"
	"time"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/workset"
)

// CUDATraversal is what the vertex-centric GPU operators (BFS, SSSP) share:
// the pinned device graph, the working set, the persistent-launch state,
// the time split, and the operator methods that do not depend on the
// algorithm. An operator embeds it and adds its per-vertex arrays,
// Info, Start, Step (Prepare, its kernels, Result) and its result.
type CUDATraversal struct {
	C  *gpu.CUDA
	G  *graph.Graph
	DG *gpu.DeviceGraph
	WS *workset.CUDA
	PS gpu.DeviceSlice[uint32] // persistent launches' state (struct Persist, PersistBytes)
	// Block is the block size of block-mapped kernels (gpu.BlockSize).
	Block int
	// Times holds the operator's own share of the split (set-up, upload,
	// the result copy); the working set's is added by GPUTimes.
	Times runtime.GPUTimes
	// Iter counts steps; FuseAfter is the first iteration at which
	// a persistent launch may be tried again after one declined.
	Iter, FuseAfter int
	// InitErr is the set-up's error, returned by Start.
	InitErr error
	// Finished is set by a step when the working set became empty.
	Finished bool

	exact, pinned, closed bool
	// What the persistent launch of iteration fusedIter ran (Result).
	fusedIter int
	fused     cudaFusion
	// The result copied behind persistent launches (SpeculateOn): what,
	// into which host memory, and the copy behind the last launch, kept
	// while that launch finished the traversal.
	specSrc gpu.DeviceSlice[uint32]
	specOut func() hostmem.Values
	spec    *specRead
}

// NewCUDATraversal sets up the shared state as device work (Do): the
// graph (uploaded on first use and pinned), the working set and the
// persistent-launch state, after checking that they and state more bytes
// fit; then alloc allocates the operator's own arrays (t is the traversal
// being built). A failure is kept in InitErr (Start returns it).
func NewCUDATraversal(c *gpu.CUDA, g *graph.Graph, state int64, alloc func(d *gpu.Dev, t *CUDATraversal) error) *CUDATraversal {
	t := &CUDATraversal{C: c, G: g, Block: gpu.BlockSize(g.NumVertices(), g.NumEdges())}
	t0 := time.Now()
	t.InitErr = c.Do(func(d *gpu.Dev) error {
		n, m := g.NumVertices(), g.NumEdges()
		u0 := d.UploadTime()
		dg, err := d.AcquireGraph(g, state+workset.CUDABytes(n, m)+PersistBytes)
		t.Times.Upload += d.UploadTime() - u0
		if err != nil {
			return err
		}
		t.DG, t.pinned = dg, true
		if t.PS, err = gpu.AllocSlice[uint32](d, PersistBytes/4); err != nil {
			return err
		}
		if t.WS, err = workset.NewCUDA(d, n, m); err != nil {
			return err
		}
		t.WS.SetExact(t.exact)
		return alloc(d, t)
	})
	t.Times.Setup = time.Since(t0) - t.Times.Upload
	return t
}

// fusion is what an iteration of several levels ran.
type cudaFusion struct {
	// levels is the levels it ran (0 or 1: one).
	levels int
	// hidden is the summed out-degree of the working sets those levels
	// generated and consumed inside it, which the policy never saw.
	hidden int64
	// pulled is how many of the levels pulled (BFS's pull launches, which
	// go back to push inside them).
	pulled int
}

// Prepare applies a step's request before its device work: exact timing
// (StepRequest.ExactTiming) and dual generation (StepRequest.DualFrom).
func (t *CUDATraversal) Prepare(req runtime.StepRequest) {
	t.exact = req.ExactTiming
	if t.WS != nil {
		t.WS.SetExact(req.ExactTiming)
		t.WS.SetDualFrom(req.DualFrom)
	}
}

// DeviceTimes implements Operator: the operator's own share of the split plus
// the working set's.
func (t *CUDATraversal) DeviceTimes() *runtime.GPUTimes {
	r := t.Times
	if t.WS != nil {
		w := t.WS.Times
		r.Kernels += w.Kernels
		r.Transfers += w.Transfers
		r.Launches += w.Launches
		r.Levels += w.Levels
		r.LocalLevels += w.LocalLevels
	}
	return &r
}

// Done implements Operator.
func (t *CUDATraversal) Done() bool { return t.Finished || t.InitErr != nil }

// StartSingle makes {src} the working set in representation rep after
// write has set the source's value (timed as a transfer). src is checked
// first: write may set it with an unchecked memset.
func (t *CUDATraversal) StartSingle(src uint32, rep decider.Rep, write func(d *gpu.Dev) error) error {
	if t.InitErr != nil {
		return t.InitErr
	}
	if n := t.G.NumVertices(); int64(src) >= int64(n) {
		return fmt.Errorf("cuda: start vertex %d of %d", src, n)
	}
	return t.C.Do(func(d *gpu.Dev) error {
		return t.WS.Transfer(func() error {
			if err := write(d); err != nil {
				return err
			}
			return t.WS.StartSingle(d, src, t.G.Degree(src), rep)
		})
	})
}

// Result finishes a step that relaxed edges and generated the next
// working set: it converts that set to r where the step left it in the
// other representation (a persistent launch ends in a queue), and
// returns the counts and the levels the step's persistent launch ran.
func (t *CUDATraversal) Result(edges int64, r decider.Rep) (runtime.StepResult, error) {
	if r != t.WS.Rep() && !t.Finished {
		if err := t.Convert(r); err != nil {
			return runtime.StepResult{}, err
		}
	}
	res := runtime.StepResult{Edges: edges, Size: t.WS.Size(), Degree: t.WS.Degree()}
	if t.fusedIter == t.Iter && t.fused.levels > 1 {
		res.Levels, res.HiddenDegree = t.fused.levels, t.fused.hidden
	}
	return res, nil
}

// FusedPulled returns the levels the last step's persistent launch
// pulled (BFS's pull launches).
func (t *CUDATraversal) FusedPulled() int {
	if t.fusedIter != t.Iter {
		return 0
	}
	return t.fused.pulled
}

// Inspect implements Operator with the counts the generation kernel
// produced: on the GPU the inspector costs nothing extra.
func (t *CUDATraversal) Inspect(bool) (int64, int64) { return t.WS.Size(), t.WS.Degree() }

// Convert implements Operator.
func (t *CUDATraversal) Convert(r decider.Rep) error {
	// A swap needs no device work.
	if t.WS != nil && t.WS.Swap(r) {
		return nil
	}
	return t.C.Do(func(d *gpu.Dev) error { return t.WS.Convert(d, r) })
}

// CanFuse reports whether this iteration may run as a persistent
// multi-level launch: enabled, a queue, no recent launch that declined,
// and a frontier small enough. Launches may start at the first iteration:
// the engine samples the working set after a launch of several levels,
// and the policy counts the levels' out-edges as explored
// (StepResult.HiddenDegree), so the policy still decides the large levels that
// end a launch. (Before it did, fusing the first small levels of kron:22
// and urand:22 made their adaptive BFS slower on the H100, 11.4 and 17.3
// ms against 6.4 and 5.5: the policy chose variants for the large levels
// from stale samples.)
//
// Hubs do not stop a launch: the whole grid expands a frontier's
// vertices of more than kernels.PersistMaxDeg out-edges.
func (t *CUDATraversal) CanFuse(rep decider.Rep) bool {
	lim := int64(t.C.FusedLevels())
	return lim > 0 && rep == decider.Queue && t.Iter >= t.FuseAfter && t.WS.Size() <= lim &&
		t.WS.Degree() <= t.C.PersistEdgeLimit()
}

// PersistBytes is the device memory of a persistent launch's state
// (struct Persist in kernels/common.cuh).
const PersistBytes = kernels.PersistBytes

// MaxFusedLevels bounds one persistent launch so that cancellation stays
// responsive (on the H100 a 2048x2048 grid's ~3000 BFS levels took ~26 ms).
const MaxFusedLevels = 1 << 12

// PersistArgs is what Persist hands its launch callback: the grid and
// block size and the arguments every persistent kernel shares, after its
// own leading ones (graph and per-vertex arrays): (current queue QA,
// scratch queue QB, ctrl, parity), then the kernel's own middle ones,
// then (max levels, frontier cap, edge cap, local edge limit, state PS).
type PersistArgs struct {
	Grid, Block int
	QA, QB      kernels.DevPtr[uint32]
	Ctrl        kernels.DevPtr[kernels.Ctrl]
	Par         uint32
	MaxLevels   uint32
	Cap         uint32
	EdgeCap     uint64
	LocalE      uint32
	PS          kernels.DevPtr[kernels.Persist]
}

// Persist runs a persistent multi-level launch of kernel (its name sizes
// the grid: gpu.Dev.PersistGrid), which launch issues with PersistArgs'
// arguments. It returns the levels run; 0 means the launch declined at
// once, and the next few iterations are left to the ordinary kernels.
func (t *CUDATraversal) Persist(d *gpu.Dev, kernel string, launch func(PersistArgs) error) (int, error) {
	ws := t.WS
	if err := d.Memset32(t.PS, 0, 0, int64(t.PS.Len())); err != nil {
		return 0, err
	}
	deg0 := ws.Degree()
	if err := launch(PersistArgs{Grid: d.PersistGrid(kernel), Block: kernels.PersistThreads,
		QA: ws.Current().Ptr(), QB: ws.Scratch().Ptr(), Ctrl: ws.Ctrl(), Par: ws.Parity(),
		MaxLevels: uint32(MaxFusedLevels), Cap: uint32(t.C.FusedLevels()), EdgeCap: uint64(t.C.PersistEdgeLimit()),
		LocalE: uint32(t.C.LocalEdges()), PS: kernels.PtrAt[kernels.Persist](t.PS.DevicePtr())}); err != nil {
		return 0, err
	}
	// A launch's copy is dropped before the next launch (below), so at most
	// one is kept: the finishing launch's.
	if n := t.specSrc.Len(); t.specOut != nil && speculable(d, n) {
		// Prepared at 32 bits, as ReadValues reads results under NarrowMin.
		if out := t.specOut(); out.Bits() == 32 && out.Len() == n {
			var err error
			if t.spec, err = speculate(d, t.specSrc, out); err != nil {
				return 0, err
			}
		}
	}
	levels, err := ws.AfterFused(d)
	if err != nil {
		return 0, err
	}
	if t.spec != nil && (levels == 0 || ws.Size() > 0) { // the traversal goes on
		t.spec.drop(d)
		t.spec = nil
	}
	t.fusedIter = t.Iter
	t.fused = cudaFusion{levels: levels, hidden: max(ws.EdgesOut()-deg0, 0), pulled: ws.Pulled()}
	if levels == 0 {
		t.FuseAfter = t.Iter + 4
		ws.Begin(d)
	}
	return levels, nil
}

// SpeculateOn makes each persistent launch copy src (a result of at most
// SpecMaxBytes and under NarrowMin values, so read at 32 bits) into out's
// memory behind it (specRead), so that a launch that finishes the
// traversal leaves the result on the host when its control block arrives.
// Call it from Start; TakeResult then returns that copy.
func (t *CUDATraversal) SpeculateOn(src gpu.DeviceSlice[uint32], out func() hostmem.Values) {
	t.specSrc, t.specOut = src, out
	t.spec = nil
}

// TakeResult returns the result a persistent launch copied behind itself
// when that launch finished the traversal (SpeculateOn), and false where
// the result must be read.
func (t *CUDATraversal) TakeResult(d *gpu.Dev) (hostmem.Values, bool) {
	if t.spec == nil || !t.Finished {
		return hostmem.Values{}, false
	}
	v := t.spec.finish(d)
	t.spec = nil
	t.Times.ResultBehindLaunch = true
	return v, true
}

// Close copies the result with read (unless the set-up failed), then
// frees the working set, the persistent state and the operator's arrays
// (free) and unpins the graph. The copy is timed as a transfer.
func (t *CUDATraversal) Close(read func(d *gpu.Dev) error, free func(d *gpu.Dev)) error {
	if t.closed {
		return nil
	}
	t.closed = true
	return t.C.Do(func(d *gpu.Dev) error {
		var err error
		if t.InitErr == nil {
			t0 := time.Now()
			err = read(d)
			t.Times.Transfers += time.Since(t0)
		}
		if t.spec != nil { // not taken: a failed or cancelled run
			t.spec.drop(d)
			t.spec = nil
		}
		free(d)
		t.PS.Free(d)
		if t.WS != nil {
			t.WS.Free(d)
		}
		if t.pinned {
			d.ReleaseGraph(t.G)
		}
		return err
	})
}
