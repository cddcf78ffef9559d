//go:build cuda

package sssp

import (
	"math"
	"time"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
)

func init() { cudaOperator = newCUDAOp }

// cudaOp is the SSSP operator on the cuda backend: uint64 distances (no
// overflow: a path of fewer than 2^32 arcs of weight below 2^32), relaxed
// with atomicMin. Ordered iterations select the updated vertices of the
// minimum's delta bucket (findmin, then generation with that bound; the
// rest stay in the update vector), unordered ones every updated vertex.
// Each iteration is one handoff to the device goroutine and one read of
// the control block.
type cudaOp struct {
	c     *runtime.CUDA
	g     *graph.Graph
	src   uint32
	delta uint64
	dg    *runtime.DeviceGraph
	dist  runtime.DeviceSlice[uint64]
	ws    *runtime.CUDAWorkset
	ps    runtime.DeviceSlice[uint32] // persistent launches' state
	block int

	times     runtime.GPUTimes
	exact     bool
	fuseAfter int // iteration from which persistent launches are tried again
	iter      int
	pending   bool // an ordered generation may have left vertices in the update vector

	pinned  bool
	initErr error
	done    bool
	out     []uint64
	closed  bool
}

func newCUDAOp(b runtime.Backend, g *graph.Graph, src uint32, delta uint64) (operator, bool) {
	c, ok := b.(*runtime.CUDA)
	if !ok {
		return nil, false
	}
	o := &cudaOp{c: c, g: g, src: src, delta: max(delta, 1), block: runtime.BlockSize(g.NumVertices(), g.NumEdges())}
	t0 := time.Now()
	o.initErr = c.Do(o.setup)
	o.times.Setup = time.Since(t0) - o.times.Upload
	return o, true
}

func (o *cudaOp) setup(d *runtime.Dev) error {
	n := o.g.NumVertices()
	state := 8*int64(n) + runtime.CUDAWorksetBytes(n) + runtime.PersistBytes
	u0 := d.UploadTime()
	dg, err := d.AcquireGraph(o.g, state)
	o.times.Upload += d.UploadTime() - u0
	if err != nil {
		return err
	}
	o.dg, o.pinned = dg, true
	if o.dist, err = runtime.AllocSlice[uint64](d, n); err != nil {
		return err
	}
	// 0xFFFFFFFF in both halves: math.MaxUint64, the unreached distance.
	if err := d.Memset32(o.dist, 0, math.MaxUint32, 2*int64(n)); err != nil {
		return err
	}
	if o.ps, err = runtime.AllocSlice[uint32](d, runtime.PersistBytes/4); err != nil {
		return err
	}
	o.ws, err = runtime.NewCUDAWorkset(d, n)
	if err == nil {
		o.ws.SetExact(o.exact)
	}
	return err
}

// SetExactTiming implements runtime.GPUTimer.
func (o *cudaOp) SetExactTiming(on bool) {
	o.exact = on
	if o.ws != nil {
		o.ws.SetExact(on)
	}
}

// GPUTimes implements runtime.GPUTimer.
func (o *cudaOp) GPUTimes() runtime.GPUTimes {
	t := o.times
	if o.ws != nil {
		w := o.ws.Times
		t.Kernels += w.Kernels
		t.Transfers += w.Transfers
		t.Launches += w.Launches
		t.Levels += w.Levels
	}
	return t
}

func (o *cudaOp) Info() decider.Info {
	n := o.g.NumVertices()
	return decider.Info{N: n, M: o.g.NumEdges(), Universe: int64(n), InitialSize: 1}
}

func (o *cudaOp) Start(v decider.Variant) error {
	if o.initErr != nil {
		return o.initErr
	}
	return o.c.Do(func(d *runtime.Dev) error {
		return o.ws.Transfer(func() error {
			if err := o.dist.Write(d, int(o.src), []uint64{0}); err != nil {
				return err
			}
			return o.ws.StartSingle(d, o.src, int64(o.g.Degree(o.src)), v.Rep)
		})
	})
}

func (o *cudaOp) Done() bool { return o.done || o.initErr != nil }

func (o *cudaOp) Distances() []uint64 { return o.out }

// Compute relaxes the working set's out-edges and generates the next
// working set in v's representation; Generate then only reports it.
func (o *cudaOp) Compute(v decider.Variant) (int64, error) {
	var edges int64
	err := o.c.Do(func(d *runtime.Dev) error {
		ws := o.ws
		ws.Begin(d)
		if err := ws.Convert(d, v.Rep); err != nil {
			return err
		}
		o.iter++
		var wt any // nil: unit weights
		if o.dg.W.Len() > 0 {
			wt = o.dg.W
		}
		if o.fuse(v) {
			if err := d.Memset32(o.ps, 0, 0, int64(o.ps.Len())); err != nil {
				return err
			}
			if err := d.Launch(kernels.SSSPPersist, d.PersistGrid(), kernels.PersistThreads, o.dg.Off, o.dg.Adj, wt,
				o.dist, ws.Update(), ws.Current(), ws.Scratch(), ws.Ctrl(), ws.Parity(), uint32(maxFusedLevels),
				uint32(o.c.FusedLevels()), uint64(runtime.PersistEdges), o.ps); err != nil {
				return err
			}
			levels, err := ws.AfterFused(d)
			if err != nil {
				return err
			}
			edges = ws.EdgesOut()
			o.done = ws.Size() == 0
			if levels > 0 {
				return nil
			}
			// Declined at once (a vertex of too many out-edges): leave the
			// next few iterations to the ordinary kernels.
			o.fuseAfter = o.iter + 4
			ws.Begin(d)
		}
		edges = ws.Degree()
		n := uint32(o.g.NumVertices())
		block := v.Mapping == decider.Block
		bitmap := v.Rep == decider.Bitmap
		var grid, bs int
		switch {
		case block:
			items := ws.Size()
			if bitmap {
				items = int64((n + 31) / 32)
			}
			bs, grid = o.block, d.BlockGrid(items, o.block)
		case bitmap:
			bs, grid = 256, d.Grid(int64(n), 256)
		default:
			bs, grid = 256, d.Grid(ws.Size(), 256)
		}
		if err := d.Launch(kernels.SSSP(false, block, bitmap), grid, bs, o.dg.Off, o.dg.Adj, wt, o.dist,
			ws.Update(), ws.Current(), n, ws.Ctrl(), ws.Parity()); err != nil {
			return err
		}
		sel := runtime.CUDASelect{Mode: kernels.SelectAll}
		o.pending = v.Order == decider.Ordered
		if v.Order == decider.Ordered {
			sel = runtime.CUDASelect{Mode: kernels.SelectDelta, Dist: o.dist, Delta: o.delta}
			if o.delta == 1 {
				sel.Mode = kernels.SelectMin
			}
		}
		if err := ws.Generate(d, o.dg.Off, v.Rep, sel); err != nil {
			return err
		}
		o.done = ws.Size() == 0
		return nil
	})
	return edges, err
}

// maxFusedLevels bounds one persistent launch so cancellation stays
// responsive.
const maxFusedLevels = 1 << 12

// fuseFrom is the first iteration that may run as a persistent launch
// (see the bfs package: low-diameter graphs keep every iteration visible
// to the policy).
const fuseFrom = 8

// fuse reports whether this iteration runs as a persistent multi-level
// launch: enabled, an unordered push over a queue (ordered iterations keep
// vertices pending in the update vector, which the launch cannot see), a
// small frontier, and no recent launch that declined.
func (o *cudaOp) fuse(v decider.Variant) bool {
	lim := int64(o.c.FusedLevels())
	return lim > 0 && v.Order == decider.Unordered && v.Rep == decider.Queue && o.iter > fuseFrom && o.iter >= o.fuseAfter && !o.pending &&
		o.ws.Size() <= lim && o.ws.Degree() <= runtime.PersistEdges
}

func (o *cudaOp) Generate(r decider.Rep) (int64, int64, error) {
	if r != o.ws.Rep() && !o.done {
		if err := o.c.Do(func(d *runtime.Dev) error { return o.ws.Convert(d, r) }); err != nil {
			return 0, 0, err
		}
	}
	return o.ws.Size(), o.ws.Degree(), nil
}

// Inspect returns the counts the generation kernel produced.
func (o *cudaOp) Inspect(bool) (int64, int64) { return o.ws.Size(), o.ws.Degree() }

func (o *cudaOp) Convert(r decider.Rep) error {
	return o.c.Do(func(d *runtime.Dev) error { return o.ws.Convert(d, r) })
}

// Close copies the distances to the host and releases the device state.
func (o *cudaOp) Close() error {
	if o.closed {
		return nil
	}
	o.closed = true
	return o.c.Do(func(d *runtime.Dev) error {
		var err error
		if o.dist.Len() == o.g.NumVertices() && o.initErr == nil {
			o.out = make([]uint64, o.dist.Len())
			t := time.Now()
			err = o.dist.Read(d, 0, o.out)
			o.times.Transfers += time.Since(t)
		}
		o.dist.Free(d)
		o.ps.Free(d)
		if o.ws != nil {
			o.ws.Free(d)
		}
		if o.pinned {
			d.ReleaseGraph(o.g)
		}
		return err
	})
}
