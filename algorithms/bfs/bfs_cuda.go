//go:build cuda

package bfs

import (
	"math"
	"time"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
)

func init() { cudaOperator = newCUDAOp }

// maxFusedLevels bounds one persistent launch so cancellation stays
// responsive (on the H100 a 2048x2048 grid's ~3000 levels took ~26 ms).
const maxFusedLevels = 1 << 12

// fuseFrom is the first iteration that may run as a persistent launch:
// low-diameter graphs (Kronecker, uniform random: under ten levels) never
// do, so the adaptive policy sees every one of their levels (on the H100,
// fusing their first small levels made kron:22 and urand:22 slower, 11.4
// and 17.3 ms against 6.4 and 5.5, by changing the policy's samples), while
// high-diameter graphs pay the ordinary cost for only this many levels.
const fuseFrom = 8

// cudaOp is the BFS operator on the cuda backend. Each iteration is one
// handoff to the device goroutine: the computation kernel, the generation
// kernel and one read of the control block (size and degree of the next
// frontier, which the inspector and decider use). BFS working sets always
// hold exactly one level (every vertex a level discovers gets the same
// depth), so ordered push, unordered push and pull can alternate freely.
type cudaOp struct {
	c     *runtime.CUDA
	g     *graph.Graph
	src   uint32
	dg    *runtime.DeviceGraph
	level runtime.DeviceSlice[uint32]
	ws    *runtime.CUDAWorkset
	ps    runtime.DeviceSlice[uint32] // persistent launches' state
	block int

	times     runtime.GPUTimes
	exact     bool
	fuseAfter int // iteration from which persistent launches are tried again
	iter      int

	pinned  bool
	canPull bool
	initErr error
	cur     uint32 // depth of the current frontier
	done    bool
	depth   []uint32
	closed  bool
}

func newCUDAOp(b runtime.Backend, g *graph.Graph, src uint32) (operator, bool) {
	c, ok := b.(*runtime.CUDA)
	if !ok {
		return nil, false
	}
	o := &cudaOp{c: c, g: g, src: src, block: runtime.BlockSize(g.NumVertices(), g.NumEdges())}
	t0 := time.Now()
	o.initErr = c.Do(o.setup)
	o.times.Setup = time.Since(t0) - o.times.Upload
	return o, true
}

// setup pins the graph and allocates the state; the memory both need is
// checked first (a *runtime.MemoryError when it does not fit).
func (o *cudaOp) setup(d *runtime.Dev) error {
	n := o.g.NumVertices()
	state := 4*int64(n) + runtime.CUDAWorksetBytes(n) + runtime.PersistBytes
	u0 := d.UploadTime()
	dg, err := d.AcquireGraph(o.g, state)
	o.times.Upload += d.UploadTime() - u0
	if err != nil {
		return err
	}
	o.dg, o.pinned = dg, true
	// Pull needs the in-edges; offer it only when they fit as well.
	o.canPull = d.CheckFits(state+d.TransposeBytes(o.g), "pull") == nil
	if o.level, err = runtime.AllocSlice[uint32](d, n); err != nil {
		return err
	}
	if err := d.Memset32(o.level, 0, math.MaxUint32, int64(n)); err != nil {
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
	return decider.Info{N: n, M: o.g.NumEdges(), Universe: int64(n), InitialSize: 1, CanPull: o.canPull}
}

func (o *cudaOp) Start(v decider.Variant) error {
	if o.initErr != nil {
		return o.initErr
	}
	rep := v.Rep
	if v.Direction == decider.Pull {
		rep = decider.Bitmap
	}
	return o.c.Do(func(d *runtime.Dev) error {
		return o.ws.Transfer(func() error {
			if err := o.level.Write(d, int(o.src), []uint32{0}); err != nil {
				return err
			}
			return o.ws.StartSingle(d, o.src, int64(o.g.Degree(o.src)), rep)
		})
	})
}

func (o *cudaOp) Done() bool { return o.done || o.initErr != nil }

func (o *cudaOp) Depths() []uint32 { return o.depth }

// Compute runs one iteration (or, with WithFusedLevels, up to
// maxFusedLevels levels in one launch) and generates the next working set
// in v's representation; Generate then only reports it.
func (o *cudaOp) Compute(v decider.Variant) (int64, error) {
	var edges int64
	err := o.c.Do(func(d *runtime.Dev) error {
		ws := o.ws
		rep := v.Rep
		pull := v.Direction == decider.Pull
		var dt *runtime.DeviceGraph
		if pull {
			rep = decider.Bitmap
			u0 := d.UploadTime()
			var err error
			dt, err = d.AcquireTranspose(o.g)
			o.times.Upload += d.UploadTime() - u0
			if err != nil {
				return err
			}
		}
		ws.Begin(d)
		if err := ws.Convert(d, rep); err != nil {
			return err
		}
		n := uint32(o.g.NumVertices())
		all := runtime.CUDASelect{Mode: kernels.SelectAll}
		o.iter++
		switch {
		case pull:
			if err := d.Launch(kernels.BFSPull, d.Grid(int64(n), 256), 256,
				dt.Off, dt.Adj, o.level, ws.Update(), ws.Current(), n, o.cur, ws.Ctrl(), ws.Parity()); err != nil {
				return err
			}
			if err := ws.Generate(d, o.dg.Off, rep, all); err != nil {
				return err
			}
			edges = ws.EdgesOut()
			o.cur++
		case o.fuse(v):
			edges = ws.Degree()
			if err := d.Memset32(o.ps, 0, 0, int64(o.ps.Len())); err != nil {
				return err
			}
			if err := d.Launch(kernels.BFSPersist, d.PersistGrid(), kernels.PersistThreads, o.dg.Off, o.dg.Adj, o.level,
				ws.Current(), ws.Scratch(), ws.Ctrl(), ws.Parity(), o.cur, uint32(maxFusedLevels),
				uint32(o.c.FusedLevels()), uint64(runtime.PersistEdges), o.ps); err != nil {
				return err
			}
			levels, err := ws.AfterFused(d)
			if err != nil {
				return err
			}
			if levels > 0 {
				edges = ws.EdgesOut()
				o.cur += uint32(levels)
				break
			}
			// The launch declined at once (a vertex of too many
			// out-edges): leave the next few levels to the ordinary
			// kernels.
			o.fuseAfter = o.iter + 4
			ws.Begin(d)
			if err := o.push(d, v, rep); err != nil {
				return err
			}
		default:
			edges = ws.Degree()
			if err := o.push(d, v, rep); err != nil {
				return err
			}
		}
		o.done = ws.Size() == 0
		return nil
	})
	return edges, err
}

// push runs one push level with variant v over the working set in rep and
// generates the next.
func (o *cudaOp) push(d *runtime.Dev, v decider.Variant, rep decider.Rep) error {
	ws := o.ws
	n := uint32(o.g.NumVertices())
	block := v.Mapping == decider.Block
	bitmap := rep == decider.Bitmap
	name := kernels.BFSPush(v.Order == decider.Ordered, block, bitmap)
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
	if err := d.Launch(name, grid, bs, o.dg.Off, o.dg.Adj, o.level, ws.Update(), ws.Current(), n,
		ws.Ctrl(), ws.Parity()); err != nil {
		return err
	}
	if err := ws.Generate(d, o.dg.Off, rep, runtime.CUDASelect{Mode: kernels.SelectAll}); err != nil {
		return err
	}
	o.cur++
	return nil
}

// fuse reports whether this iteration runs as a persistent multi-level
// launch: enabled, a push variant over a queue, a small frontier, and no
// recent launch that declined.
func (o *cudaOp) fuse(v decider.Variant) bool {
	lim := int64(o.c.FusedLevels())
	return lim > 0 && v.Direction == decider.Push && v.Rep == decider.Queue && o.iter > fuseFrom && o.iter >= o.fuseAfter &&
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

// Inspect returns the counts the generation kernel produced: on the GPU
// the inspector costs nothing extra.
func (o *cudaOp) Inspect(bool) (int64, int64) { return o.ws.Size(), o.ws.Degree() }

func (o *cudaOp) Convert(r decider.Rep) error {
	return o.c.Do(func(d *runtime.Dev) error { return o.ws.Convert(d, r) })
}

// Close copies the depths to the host and releases the device state (the
// graph stays cached in the backend).
func (o *cudaOp) Close() error {
	if o.closed {
		return nil
	}
	o.closed = true
	return o.c.Do(func(d *runtime.Dev) error {
		var err error
		if o.level.Len() == o.g.NumVertices() && o.initErr == nil {
			o.depth = make([]uint32, o.level.Len())
			t := time.Now()
			err = o.level.Read(d, 0, o.depth)
			o.times.Transfers += time.Since(t)
		}
		o.level.Free(d)
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
