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
// hidden) and two queues of arcs (the queue form), with the active count
// the last pass or compaction left.
type CUDAEdges[E Arc] struct {
	f *CUDAForest[E]
	// Universe is the edges the working set ranges over (canonical arcs).
	Universe int64
	Rep      decider.Rep
	Src      gpu.DeviceSlice[uint32] // source of every arc
	Hidden   gpu.DeviceSlice[uint32] // bitmap over arcs, 1 = hidden
	Q        [2]gpu.DeviceSlice[uint64]
	// Cur indexes the current queue, QLen its length.
	Cur    int
	QLen   int64
	Active int64
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

// Words is the hidden bitmap's length in 32-bit words.
func (e *CUDAEdges[E]) Words() int { return int((e.f.M + 31) / 32) }

// Bytes is the device memory Alloc takes.
func (e *CUDAEdges[E]) Bytes() int64 { return 4*e.f.M + 4*int64(e.Words()) }

// Alloc allocates the arcs' sources and the bitmap (the forest acquired)
// and fills the sources.
func (e *CUDAEdges[E]) Alloc(d *gpu.Dev) error {
	f := e.f
	var err error
	if e.Src, err = gpu.AllocSlice[uint32](d, int(f.M)); err != nil {
		return err
	}
	if e.Hidden, err = gpu.AllocSlice[uint32](d, max(e.Words(), 1)); err != nil {
		return err
	}
	if f.M > 0 {
		return kernels.LaunchCCFillSrc(d, d.Grid((f.M+63)/64, CUDABlock), CUDABlock, f.DG.Off.Ptr(), uint32(f.N), uint64(f.M), e.Src.Ptr())
	}
	return nil
}

// Start makes every edge active in representation rep.
func (e *CUDAEdges[E]) Start(d *gpu.Dev, rep decider.Rep) error {
	e.Rep = rep
	if e.Rep == decider.Queue {
		return e.BuildQueue(d, false)
	}
	return d.Memset32(e.Hidden, 0, 0, int64(e.Words()))
}

// BuildQueue collects the canonical arcs (not hidden, when fromBitmap)
// whose endpoints lie in different trees. Its length never exceeds the last
// active count: every arc not hidden was counted active by the last pass.
func (e *CUDAEdges[E]) BuildQueue(d *gpu.Dev, fromBitmap bool) error {
	f := e.f
	capacity := max(e.Active, 1)
	if err := e.EnsureQueues(d, capacity); err != nil {
		return err
	}
	if err := f.ClearCtrl(d); err != nil {
		return err
	}
	var hidden kernels.DevPtr[uint32] // null: every arc
	if fromBitmap {
		hidden = e.Hidden.Ptr()
	}
	if err := kernels.LaunchCCSVBuildQu(d, d.Grid(f.M, CUDABlock), CUDABlock, e.Src.Ptr(), f.DG.Adj.Ptr(), uint64(f.M), f.P.Ptr(), hidden,
		e.Q[0].Ptr(), uint64(e.Q[0].Len()), f.Ctrl.Ptr(), gpu.Flag(f.Directed)); err != nil {
		return err
	}
	if err := f.ReadCtrl(d); err != nil {
		return err
	}
	if n := int64(f.Host[0].QCount); n > int64(e.Q[0].Len()) {
		return fmt.Errorf("cc: edge queue overflow: %d edges for %d slots", n, e.Q[0].Len())
	}
	e.Cur, e.QLen, e.Active = 0, int64(f.Host[0].QCount), int64(f.Host[0].QCount)
	e.Rep = decider.Queue
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

// AfterPass adopts the active count a pass left in the control block
// (read): in queue form, the next queue's length (the queues swap).
func (e *CUDAEdges[E]) AfterPass() error {
	h := &e.f.Host[0]
	if e.Rep == decider.Queue {
		if int64(h.QCount) > int64(e.Q[1-e.Cur].Len()) {
			return fmt.Errorf("cc: edge queue overflow: %d edges for %d slots", h.QCount, e.Q[1-e.Cur].Len())
		}
		e.Cur, e.QLen = 1-e.Cur, int64(h.QCount)
		e.Active = e.QLen
	} else {
		e.Active = int64(h.Active)
	}
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
		f := e.f
		if err := kernels.LaunchCCSVQuToBm(d, f.Grid(d, int(e.QLen)), CUDABlock, e.Q[e.Cur].Ptr(), uint64(e.QLen), f.DG.Off.Ptr(), f.DG.Adj.Ptr(), e.Hidden.Ptr()); err != nil {
			return err
		}
	}
	e.Rep = decider.Bitmap
	return nil
}

// Free releases the working set's device memory.
func (e *CUDAEdges[E]) Free(d *gpu.Dev) {
	e.Src.Free(d)
	e.Hidden.Free(d)
	e.Q[0].Free(d)
	e.Q[1].Free(d)
}
