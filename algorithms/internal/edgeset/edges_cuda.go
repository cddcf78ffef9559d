//go:build cuda

package edgeset

import (
	"fmt"
	"math"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/kernels"
)

// CUDAEdges is the active-edge working set of an edge-centric GPU
// operator over a forest's parent array: the source of every arc, a
// bitmap of hidden arcs (the bitmap form: an arc is active unless
// hidden) and two queues of edges (the queue form), with the active count
// the last pass or compaction left.
type CUDAEdges[E Arc] struct {
	f *CUDAForest[E]
	// Universe is the edges the working set ranges over (canonical arcs).
	Universe int64
	Rep      decider.Rep
	Src      gpu.DeviceSlice[uint32] // source of every arc (the graph's, on the device)
	Hidden   gpu.DeviceSlice[uint32] // bitmap over arcs, 1 = hidden
	Q        [2]gpu.DeviceSlice[uint64]
	// Cur indexes the current queue, QLen its length.
	Cur    int
	QLen   int64
	Active int64
	// Build and Unhide are the queue form's kernels, whose queue elements
	// are the operator's (nil: CC's, packed u<<32|v). Build queues into out
	// (cap slots) the active edges whose arcs are not hidden (hidden null:
	// every arc), counting them in the control block's QCount; Unhide
	// clears the bits of count queued edges of q.
	Build  func(d *gpu.Dev, hidden kernels.DevPtr[uint32], out kernels.DevPtr[uint64], cap uint64) error
	Unhide func(d *gpu.Dev, q kernels.DevPtr[uint64], count uint64) error
}

// NewCUDAEdges returns the working set over f's graph, every edge
// active (nothing allocated yet: Alloc).
func NewCUDAEdges[E Arc](f *CUDAForest[E]) CUDAEdges[E] {
	e := CUDAEdges[E]{f: f, Universe: f.M}
	if !f.Directed {
		e.Universe = (e.Universe + 1) / 2
	}
	e.Active = e.Universe
	return e
}

// build runs Build, or CC's queue build.
func (e *CUDAEdges[E]) build(d *gpu.Dev, hidden kernels.DevPtr[uint32], out kernels.DevPtr[uint64], cap uint64) error {
	if e.Build != nil {
		return e.Build(d, hidden, out, cap)
	}
	f := e.f
	return kernels.LaunchCCSVBuildQu(d, d.Grid(f.M, CUDABlock), CUDABlock, e.Src.Ptr(), f.DG.Adj.Ptr(), uint64(f.M), f.P.Ptr(), hidden,
		out, cap, f.Ctrl.Ptr(), gpu.Flag(f.Directed))
}

// unhide runs Unhide, or CC's.
func (e *CUDAEdges[E]) unhide(d *gpu.Dev, q kernels.DevPtr[uint64], count uint64) error {
	if e.Unhide != nil {
		return e.Unhide(d, q, count)
	}
	f := e.f
	return kernels.LaunchCCSVQuToBm(d, d.Grid(int64(count), CUDABlock), CUDABlock, q, count, f.DG.Off.Ptr(), f.DG.Adj.Ptr(), e.Hidden.Ptr())
}

// Words is the hidden bitmap's length in 32-bit words.
func (e *CUDAEdges[E]) Words() int { return int((e.f.M + 31) / 32) }

// Bytes is the device memory Alloc takes.
func (e *CUDAEdges[E]) Bytes() int64 { return 4*e.f.M + 4*int64(e.Words()) }

// Alloc takes the arcs' sources, kept with the graph on the device
// (gpu.Dev.AcquireSources: built once per graph, not per run), and
// allocates the bitmap (the forest acquired).
func (e *CUDAEdges[E]) Alloc(d *gpu.Dev) error {
	var err error
	if e.Src, err = d.AcquireSources(e.f.G); err != nil {
		return err
	}
	e.Hidden, err = gpu.AllocSlice[uint32](d, max(e.Words(), 1))
	return err
}

// Start makes every edge active in representation rep.
func (e *CUDAEdges[E]) Start(d *gpu.Dev, rep decider.Rep) error {
	e.Rep = rep
	if e.Rep == decider.Queue {
		return e.BuildQueue(d, false)
	}
	return d.Memset32(e.Hidden, 0, 0, int64(e.Words()))
}

// BuildQueue collects the active edges (those whose arcs are not hidden,
// when fromBitmap) into a queue. Its length never exceeds the active
// count, the capacity: every arc not hidden was counted active by the
// last pass.
func (e *CUDAEdges[E]) BuildQueue(d *gpu.Dev, fromBitmap bool) error {
	f := e.f
	if err := e.EnsureQueues(d, max(e.Active, 1)); err != nil {
		return err
	}
	if err := f.ClearCtrl(d); err != nil {
		return err
	}
	var hidden kernels.DevPtr[uint32] // null: every arc
	if fromBitmap {
		hidden = e.Hidden.Ptr()
	}
	if err := e.build(d, hidden, e.Q[0].Ptr(), uint64(e.Q[0].Len())); err != nil {
		return err
	}
	if err := f.ReadCtrl(d); err != nil {
		return err
	}
	if err := e.checkQueue(0); err != nil {
		return err
	}
	e.Rep = decider.Queue
	return nil
}

// checkQueue adopts the control block's QCount as the length of queue
// cur (the current one) and the active count, or reports an overflow.
func (e *CUDAEdges[E]) checkQueue(cur int) error {
	n := e.f.Host[0].QCount
	if n > uint64(e.Q[cur].Len()) {
		return fmt.Errorf("edgeset: edge queue overflow: %d edges for %d slots", n, e.Q[cur].Len())
	}
	e.Cur, e.QLen, e.Active = cur, int64(n), int64(n)
	return nil
}

// EnsureQueues makes both queue buffers hold at least n edges.
func (e *CUDAEdges[E]) EnsureQueues(d *gpu.Dev, n int64) error {
	if int64(e.Q[0].Len()) >= n {
		return nil
	}
	e.Q[0].Free(d)
	e.Q[1].Free(d)
	if err := d.CheckFits(16*n, fmt.Sprintf("two edge queues of %d edges", n)); err != nil {
		return err
	}
	var err error
	if e.Q[0], err = gpu.AllocSlice[uint64](d, int(n)); err != nil {
		return err
	}
	e.Q[1], err = gpu.AllocSlice[uint64](d, int(n))
	return err
}

// Passes are an operator's launches of one pass over the active edges, one
// per form: Queue reads the count edges at in and compacts those still
// active into out (cap slots), counting them in the control block's
// QCount; Edge is the bitmap pass with a warp per bitmap word, Thread the
// one with a thread per vertex. Each pass counts the active edges it saw
// in the control block (Active).
type Passes struct {
	Queue        func(in kernels.DevPtr[uint64], count uint64, out kernels.DevPtr[uint64], cap uint64) error
	Edge, Thread func() error
}

// Pass converts the working set to rep, clears the control block and
// launches the pass of p for the form (edgeMapped picks Edge over Thread
// for a bitmap). It returns the arcs the pass reads: the queue's length,
// else every arc.
func (e *CUDAEdges[E]) Pass(d *gpu.Dev, rep decider.Rep, edgeMapped bool, p Passes) (int64, error) {
	if err := e.ToRep(d, rep); err != nil {
		return 0, err
	}
	if err := e.f.ClearCtrl(d); err != nil {
		return 0, err
	}
	switch {
	case e.Rep == decider.Queue:
		return e.QLen, p.Queue(e.Q[e.Cur].Ptr(), uint64(e.QLen), e.Q[1-e.Cur].Ptr(), uint64(e.Q[1-e.Cur].Len()))
	case edgeMapped:
		return e.f.M, p.Edge()
	default:
		return e.f.M, p.Thread()
	}
}

// AfterPass adopts the active count a pass left in the control block
// (read): in queue form, the next queue's length (the queues swap).
func (e *CUDAEdges[E]) AfterPass() error {
	if e.Rep == decider.Queue {
		return e.checkQueue(1 - e.Cur)
	}
	e.Active = int64(e.f.Host[0].Active)
	return nil
}

// ToRep converts the working set to representation r.
func (e *CUDAEdges[E]) ToRep(d *gpu.Dev, r decider.Rep) error {
	if r == e.Rep {
		return nil
	}
	if r == decider.Queue {
		return e.BuildQueue(d, true)
	}
	if err := d.Memset32(e.Hidden, 0, math.MaxUint32, int64(e.Words())); err != nil {
		return err
	}
	if e.QLen > 0 {
		if err := e.unhide(d, e.Q[e.Cur].Ptr(), uint64(e.QLen)); err != nil {
			return err
		}
	}
	e.Rep = decider.Bitmap
	return nil
}

// Free releases the working set's device memory.
func (e *CUDAEdges[E]) Free(d *gpu.Dev) {
	e.Src = gpu.DeviceSlice[uint32]{} // the graph's: not freed
	e.Hidden.Free(d)
	e.Q[0].Free(d)
	e.Q[1].Free(d)
}
