//go:build cuda

package cc

import (
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
)

func init() {
	backends.Register("cuda", func(b runtime.Backend, r request) (operator, bool) { return newCUDAOp(b, r.g, r.v, r.o) })
}

// ccCtrl mirrors struct CCCtrl in kernels/cc.cu (64 bytes).
type ccCtrl struct {
	Active uint64
	QCount uint64
	Edges  uint64
	Root   uint32
	Heavy  uint32
	Hooks  uint64
	_      [3]uint64
}

const ccBlock = 256

// The kernels write forest arcs as v<<32|u into an Edge array: Edge must be
// two uint32, U first (every target gearbox builds for is little-endian).
var _ [0]struct{} = [unsafe.Offsetof(Edge{}.V) - 4 + unsafe.Sizeof(Edge{}) - 8]struct{}{}

// gpuSkipResults makes GPU runs leave their labels and forest on the device
// (benchmarks use it to time the device work apart from the copy back).
var gpuSkipResults bool

// newCUDAOp builds the GPU operator of variant v on the cuda backend. The
// graph's CSR comes from the backend's cache; device memory for it and the
// run's state is checked before anything is allocated (a
// *runtime.MemoryError reported by Start when it does not fit).
func newCUDAOp(b runtime.Backend, g *graph.Graph, v Variant, o options) (operator, bool) {
	c, ok := b.(*runtime.CUDA)
	if !ok {
		return nil, false
	}
	base := gpuBase{c: c, g: g, n: g.NumVertices(), m: g.NumEdges(), directed: g.Directed(), forest: o.forest,
		host: make([]ccCtrl, 1)}
	var op interface {
		operator
		setup(d *runtime.Dev) error
		base() *gpuBase
	}
	switch v {
	case SV:
		s := &svGPU{gpuBase: base, edges: base.m}
		if !s.directed {
			s.edges = (s.edges + 1) / 2
		}
		s.active = s.edges
		op = s
	case Afforest:
		op = &affGPU{vertexGPU: vertexGPU{gpuBase: base}, rounds: o.rounds, seed: o.seed}
	case UnionFind:
		op = &ufGPU{vertexGPU: vertexGPU{gpuBase: base}}
	default:
		return nil, false
	}
	bb := op.base()
	bb.initErr = c.Do(op.setup)
	return op, true
}

// gpuBase is the device state every GPU variant shares: the parent array,
// the hooking arcs of a spanning forest (one Edge per vertex; the kernels
// store v<<32|u, which is Edge{u, v} in little-endian memory) and the
// control block. The control block is read into Go memory: page-locked
// memory would save about 1.5µs a read but costs a pinning per run.
type gpuBase struct {
	c        *runtime.CUDA
	g        *graph.Graph
	n        int
	m        int64
	directed bool
	forest   bool

	dg     *runtime.DeviceGraph
	pinned bool
	p      runtime.DeviceSlice[uint32]
	hook   runtime.DeviceSlice[Edge]
	ctrl   runtime.DeviceSlice[ccCtrl]
	host   []ccCtrl // one element, its own allocation: cgo refuses a pointer into memory holding Go pointers

	initErr error
	done    bool
	closed  bool
	labels  []uint32
	out     func() []uint32 // the labels' host memory, prepared during the run
	fedges  []Edge
}

func (b *gpuBase) base() *gpuBase { return b }

// acquire pins the graph with extra bytes of variant state besides the
// shared arrays, allocates those and initialises the parents.
func (b *gpuBase) acquire(d *runtime.Dev, extra int64) error {
	if int64(b.n) >= math.MaxUint32 {
		return fmt.Errorf("cc: %d vertices exceeds the GPU limit %d", b.n, uint32(math.MaxUint32)-1)
	}
	state := 4*int64(b.n) + 64 + extra
	if b.forest {
		state += 8 * int64(b.n)
	}
	dg, err := d.AcquireGraph(b.g, state)
	if err != nil {
		return err
	}
	b.dg, b.pinned = dg, true
	b.out = runtime.HostSlice[uint32](b.n)
	if b.p, err = runtime.AllocSlice[uint32](d, b.n); err != nil {
		return err
	}
	if b.forest {
		if b.hook, err = runtime.AllocSlice[Edge](d, b.n); err != nil {
			return err
		}
	}
	if b.ctrl, err = runtime.AllocSlice[ccCtrl](d, 1); err != nil {
		return err
	}
	return b.launch(d, kernels.CCInit, b.n, b.p, b.hookArg(), uint32(b.n))
}

// hookArg is the forest array, or a null pointer when no forest is wanted
// (the kernels then record nothing).
func (b *gpuBase) hookArg() any {
	if b.forest {
		return b.hook
	}
	return nil
}

func (b *gpuBase) launch(d *runtime.Dev, name string, items int, args ...any) error {
	return d.Launch(name, d.Grid(int64(items), ccBlock), ccBlock, args...)
}

func (b *gpuBase) clearCtrl(d *runtime.Dev) error { return d.Memset32(b.ctrl, 0, 0, 16) }

// readCtrl copies the control block to b.host[0] (waits for the
// launches).
func (b *gpuBase) readCtrl(d *runtime.Dev) error { return b.ctrl.Read(d, 0, b.host) }

func (b *gpuBase) compress(d *runtime.Dev) error {
	return b.launch(d, kernels.CCCompress, b.n, b.p, uint32(b.n))
}

func (b *gpuBase) Done() bool { return b.done || b.initErr != nil }

// DeviceTimes is nil: CC's GPU operators do not split their time.
func (b *gpuBase) DeviceTimes() *runtime.GPUTimes { return nil }

func (b *gpuBase) Labels() []uint32 {
	if b.labels == nil {
		return []uint32{}
	}
	return b.labels
}

func (b *gpuBase) ForestEdges() []Edge {
	if !b.forest {
		return nil
	}
	if b.fedges == nil {
		return []Edge{}
	}
	return b.fedges
}

// readResults copies the labels (the parent array, which every variant
// leaves holding them) and the forest's arcs, ordered by hooked vertex.
func (b *gpuBase) readResults(d *runtime.Dev) error {
	b.labels = b.out()
	if err := runtime.ReadStaged(d, b.p, b.labels); err != nil {
		b.labels = nil
		return err
	}
	if !b.forest {
		return nil
	}
	h := make([]Edge, b.n)
	if err := b.hook.Read(d, 0, h); err != nil {
		return err
	}
	k := 0 // compact in place: roots hold {NoVertex, NoVertex}
	for _, e := range h {
		if e.U != graph.NoVertex {
			h[k] = e
			k++
		}
	}
	b.fedges = slices.Clip(h[:k])
	return nil
}

// closeBase copies the results of a finished run and frees the device
// state; the graph stays cached in the backend.
func (b *gpuBase) closeBase(free func(d *runtime.Dev)) error {
	if b.closed {
		return nil
	}
	b.closed = true
	return b.c.Do(func(d *runtime.Dev) error {
		var err error
		if b.initErr == nil && b.done && b.p.Len() == b.n && !gpuSkipResults {
			err = b.readResults(d)
		}
		if err == nil && gpuSkipResults {
			err = d.Sync() // the timed work ends with the device's
		}
		if free != nil {
			free(d)
		}
		b.p.Free(d)
		b.hook.Free(d)
		b.ctrl.Free(d)
		if b.pinned {
			d.ReleaseGraph(b.g)
			b.pinned = false
		}
		return err
	})
}

// svGPU is SV on the GPU: per iteration one hook pass over the active
// edges (bitmap of hidden arcs, thread- or edge-mapped, or a compacted
// queue of edges), multilevel pointer jumping, and one read of the control
// block, whose active-edge count the policy decides on. When a pass finds
// no edge joining two trees, each star's smallest vertex becomes its label.
type svGPU struct {
	gpuBase
	edges  int64 // working-set universe: edges (canonical arcs)
	rep    decider.Rep
	src    runtime.DeviceSlice[uint32] // source of every arc
	hidden runtime.DeviceSlice[uint32] // bitmap over arcs, 1 = hidden
	q      [2]runtime.DeviceSlice[uint64]
	cur    int
	qlen   int64
	iter   int
	active int64
}

func (o *svGPU) words() int { return int((o.m + 31) / 32) }

func (o *svGPU) setup(d *runtime.Dev) error {
	extra := 4*o.m + 4*int64(o.words()) + 4*int64(o.n)
	if err := o.acquire(d, extra); err != nil {
		return err
	}
	var err error
	if o.src, err = runtime.AllocSlice[uint32](d, int(o.m)); err != nil {
		return err
	}
	if o.hidden, err = runtime.AllocSlice[uint32](d, max(o.words(), 1)); err != nil {
		return err
	}
	if o.m > 0 {
		return d.Launch(kernels.CCFillSrc, d.Grid((o.m+63)/64, ccBlock), ccBlock, o.dg.Off, uint32(o.n), uint64(o.m), o.src)
	}
	return nil
}

func (o *svGPU) Info() runtime.OperatorInfo {
	return runtime.OperatorInfo{Info: decider.Info{N: o.n, M: o.m, Universe: o.edges, InitialSize: o.edges}}
}

func (o *svGPU) Start(v decider.Variant) error {
	if o.initErr != nil {
		return o.initErr
	}
	return o.c.Do(func(d *runtime.Dev) error {
		o.rep = v.Rep
		if o.edges == 0 {
			return o.finish(d)
		}
		if o.rep == decider.Queue {
			return o.buildQueue(d, false)
		}
		return d.Memset32(o.hidden, 0, 0, int64(o.words()))
	})
}

// buildQueue collects the canonical arcs (not hidden, when fromBitmap)
// whose endpoints lie in different trees. Its length never exceeds the last
// active count: every arc not hidden was counted active by the last pass.
func (o *svGPU) buildQueue(d *runtime.Dev, fromBitmap bool) error {
	capacity := max(o.active, 1)
	if err := o.ensureQueues(d, capacity); err != nil {
		return err
	}
	if err := o.clearCtrl(d); err != nil {
		return err
	}
	var hidden any
	if fromBitmap {
		hidden = o.hidden
	}
	if err := d.Launch(kernels.CCSVBuildQu, d.Grid(o.m, ccBlock), ccBlock, o.src, o.dg.Adj, uint64(o.m), o.p, hidden,
		o.q[0], uint64(o.q[0].Len()), o.ctrl, runtime.Flag(o.directed)); err != nil {
		return err
	}
	if err := o.readCtrl(d); err != nil {
		return err
	}
	if n := int64(o.host[0].QCount); n > int64(o.q[0].Len()) {
		return fmt.Errorf("cc: edge queue overflow: %d edges for %d slots", n, o.q[0].Len())
	}
	o.cur, o.qlen, o.active = 0, int64(o.host[0].QCount), int64(o.host[0].QCount)
	o.rep = decider.Queue
	return nil
}

// ensureQueues makes both queue buffers hold at least n edges.
func (o *svGPU) ensureQueues(d *runtime.Dev, n int64) error {
	if int64(o.q[0].Len()) >= n {
		return nil
	}
	o.q[0].Free(d)
	o.q[1].Free(d)
	if err := d.CheckFits(16*n, fmt.Sprintf("two edge queues of %d edges", n)); err != nil {
		return err
	}
	var err error
	if o.q[0], err = runtime.AllocSlice[uint64](d, int(n)); err != nil {
		return err
	}
	o.q[1], err = runtime.AllocSlice[uint64](d, int(n))
	return err
}

func (o *svGPU) compute(v decider.Variant) (int64, error) {
	var read int64
	err := o.c.Do(func(d *runtime.Dev) error {
		if v.Rep != o.rep {
			if err := o.convert(d, v.Rep); err != nil {
				return err
			}
		}
		down := runtime.Flag(o.iter%2 == 0)
		o.iter++
		if err := o.clearCtrl(d); err != nil {
			return err
		}
		dir := runtime.Flag(o.directed)
		var err error
		switch {
		case o.rep == decider.Queue:
			read = o.qlen
			err = o.launch(d, kernels.CCSVQueue, int(o.qlen), o.q[o.cur], uint64(o.qlen), o.q[1-o.cur],
				uint64(o.q[1-o.cur].Len()), o.p, o.hookArg(), o.ctrl, down)
		case v.Mapping == decider.Block:
			read = o.m
			err = d.Launch(kernels.CCSVBitmapE, d.Grid(32*int64(o.words()), ccBlock), ccBlock, o.src, o.dg.Adj,
				uint64(o.m), o.p, o.hidden, o.hookArg(), o.ctrl, down, dir)
		default:
			read = o.m
			err = o.launch(d, kernels.CCSVBitmapT, o.n, o.dg.Off, o.dg.Adj, uint32(o.n), o.p, o.hidden,
				o.hookArg(), o.ctrl, down, dir)
		}
		if err != nil {
			return err
		}
		if err := o.compress(d); err != nil {
			return err
		}
		if err := o.readCtrl(d); err != nil {
			return err
		}
		if o.rep == decider.Queue {
			if int64(o.host[0].QCount) > int64(o.q[1-o.cur].Len()) {
				return fmt.Errorf("cc: edge queue overflow: %d edges for %d slots", o.host[0].QCount, o.q[1-o.cur].Len())
			}
			o.cur, o.qlen = 1-o.cur, int64(o.host[0].QCount)
			o.active = o.qlen
		} else {
			o.active = int64(o.host[0].Active)
		}
		if o.active == 0 {
			return o.finish(d)
		}
		return nil
	})
	return read, err
}

// finish turns the stars into labels: each vertex gets the smallest vertex
// of its star (the roots are not the smallest: hooking alternates).
func (o *svGPU) finish(d *runtime.Dev) error {
	o.done = true
	if o.n == 0 {
		return nil
	}
	low, err := runtime.AllocSlice[uint32](d, o.n)
	if err != nil {
		return err
	}
	defer low.Free(d)
	if err := d.Memset32(low, 0, math.MaxUint32, int64(o.n)); err != nil {
		return err
	}
	if err := o.launch(d, kernels.CCLowMin, o.n, o.p, uint32(o.n), low); err != nil {
		return err
	}
	if err := o.launch(d, kernels.CCLowApply, o.n, o.p, uint32(o.n), low); err != nil {
		return err
	}
	return d.Sync()
}

func (o *svGPU) convert(d *runtime.Dev, r decider.Rep) error {
	if r == o.rep {
		return nil
	}
	if r == decider.Queue {
		return o.buildQueue(d, true)
	}
	if err := d.Memset32(o.hidden, 0, math.MaxUint32, int64(o.words())); err != nil {
		return err
	}
	if o.qlen > 0 {
		if err := o.launch(d, kernels.CCSVQuToBm, int(o.qlen), o.q[o.cur], uint64(o.qlen), o.dg.Off, o.dg.Adj, o.hidden); err != nil {
			return err
		}
	}
	o.rep = decider.Bitmap
	return nil
}

func (o *svGPU) Convert(r decider.Rep) error {
	if o.Done() {
		return nil
	}
	return o.c.Do(func(d *runtime.Dev) error { return o.convert(d, r) })
}

// Step runs one hook pass and reports the active-edge count it (or the
// queue's compaction) produced: on the GPU the inspector costs nothing
// extra.
func (o *svGPU) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	e, err := o.compute(req.Variant)
	return runtime.StepResult{Edges: e, Size: o.active, Degree: -1}, err
}

func (o *svGPU) Inspect(bool) (int64, int64) { return o.active, -1 }

func (o *svGPU) Close() error {
	return o.closeBase(func(d *runtime.Dev) {
		o.src.Free(d)
		o.hidden.Free(d)
		o.q[0].Free(d)
		o.q[1].Free(d)
	})
}

// affGPU is Afforest on the GPU: one iteration per neighbour round (link,
// compress), then one linking the remaining arcs of the vertices outside
// the most frequent sampled tree (every vertex for directed graphs: no
// in-edges at hand).
type affGPU struct {
	vertexGPU
	rounds int
	seed   uint64
	phase  int
	last   int64
}

func (o *affGPU) Inspect(bool) (int64, int64) { return o.last, -1 }

// Step runs one phase; its working-set size is the vertices it linked.
func (o *affGPU) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	e, err := o.compute(req.Variant)
	return runtime.StepResult{Edges: e, Size: o.last, Degree: -1}, err
}

func (o *affGPU) compute(decider.Variant) (int64, error) {
	var edges int64
	err := o.c.Do(func(d *runtime.Dev) error {
		if err := o.clearCtrl(d); err != nil {
			return err
		}
		if o.phase < o.rounds {
			r := o.phase
			var err error
			if r == 0 && o.rounds >= 2 {
				err = o.launch(d, kernels.CCAffRound0, o.n, o.dg.Off, o.dg.Adj, uint32(o.n), o.p, o.hookArg(), o.ctrl)
			} else {
				err = o.launch(d, kernels.CCAffRound, o.n, o.dg.Off, o.dg.Adj, uint32(o.n), o.p, o.hookArg(), o.ctrl,
					uint32(r), runtime.Flag(r == 1))
			}
			if err != nil {
				return err
			}
			if err := o.compress(d); err != nil {
				return err
			}
			if err := o.readCtrl(d); err != nil {
				return err
			}
			o.last = int64(o.host[0].Active)
			edges = o.last
			o.phase++
			if o.last == 0 { // no vertex has that many neighbours
				o.phase = o.rounds
			}
			return nil
		}
		skip := !o.directed
		if skip {
			if err := d.Launch(kernels.CCAffMode, 1, 1024, o.p, uint32(o.n), o.seed, o.ctrl); err != nil {
				return err
			}
		}
		if err := linkAll(d, &o.gpuBase, o.heavy, kernels.CCModeLink, skip, uint32(o.phase)); err != nil {
			return err
		}
		o.last, edges = int64(o.host[0].Active), int64(o.host[0].Edges)
		o.done = true
		return nil
	})
	return edges, err
}

// linkAll runs the thread-per-vertex pass (queuing heavy vertices), the
// block-per-heavy-vertex pass and the final compression, then reads the
// control block.
func linkAll(d *runtime.Dev, b *gpuBase, heavy runtime.DeviceSlice[uint32], mode uint32, skip bool, start uint32) error {
	dir := runtime.Flag(b.directed)
	if err := b.launch(d, kernels.CCLinkT, b.n, b.dg.Off, b.dg.Adj, uint32(b.n), b.p, b.hookArg(), heavy, b.ctrl,
		mode, dir, runtime.Flag(skip), start); err != nil {
		return err
	}
	if err := d.Launch(kernels.CCLinkB, d.BlockGrid(int64(b.n), ccBlock), ccBlock, b.dg.Off, b.dg.Adj, heavy, b.p,
		b.hookArg(), b.ctrl, mode, dir, start); err != nil {
		return err
	}
	if err := b.compress(d); err != nil {
		return err
	}
	return b.readCtrl(d)
}

// ufGPU is ECL-CC-style union-find on the GPU in two iterations: every
// vertex points at its smallest neighbour below it, then every edge is
// united (thread per vertex, a block per vertex of many arcs) with
// intermediate pointer jumping, and all paths are compressed.
type ufGPU struct {
	vertexGPU
	phase int
}

func (o *ufGPU) Inspect(bool) (int64, int64) { return int64(o.n), -1 }

// Step runs one pass; its working set is every vertex.
func (o *ufGPU) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	e, err := o.compute(req.Variant)
	return runtime.StepResult{Edges: e, Size: int64(o.n), Degree: -1}, err
}

func (o *ufGPU) compute(decider.Variant) (int64, error) {
	var edges int64
	err := o.c.Do(func(d *runtime.Dev) error {
		if err := o.clearCtrl(d); err != nil {
			return err
		}
		if o.phase == 0 {
			o.phase++
			edges = int64(o.n)
			return o.launch(d, kernels.CCAffRound0, o.n, o.dg.Off, o.dg.Adj, uint32(o.n), o.p, o.hookArg(), o.ctrl)
		}
		if err := linkAll(d, &o.gpuBase, o.heavy, kernels.CCModeUF, false, 0); err != nil {
			return err
		}
		edges = int64(o.host[0].Edges)
		o.done = true
		return nil
	})
	return edges, err
}

// vertexGPU is the state Afforest and union-find share: their working
// set is every vertex (no conversions), and a list of the vertices too
// heavy for one thread.
type vertexGPU struct {
	gpuBase
	heavy runtime.DeviceSlice[uint32]
}

func (o *vertexGPU) setup(d *runtime.Dev) error {
	if err := o.acquire(d, 4*int64(o.n)); err != nil {
		return err
	}
	var err error
	o.heavy, err = runtime.AllocSlice[uint32](d, o.n)
	return err
}

func (o *vertexGPU) Info() runtime.OperatorInfo {
	return runtime.OperatorInfo{Info: decider.Info{N: o.n, M: o.m, Universe: int64(o.n), InitialSize: int64(o.n)}}
}

func (o *vertexGPU) Start(decider.Variant) error {
	if o.initErr != nil {
		return o.initErr
	}
	o.done = o.n == 0
	return nil
}

func (o *vertexGPU) Convert(decider.Rep) error { return nil }

func (o *vertexGPU) Close() error {
	return o.closeBase(func(d *runtime.Dev) { o.heavy.Free(d) })
}
