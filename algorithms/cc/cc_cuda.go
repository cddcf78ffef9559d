//go:build cuda

package cc

import (
	"math"
	"unsafe"

	"github.com/gearbox-graph/gearbox/algorithms/internal/edgeset"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
)

func init() {
	backends.Register("cuda", func(b runtime.Backend, r request) (operator, bool) { return newCUDAOp(b, r.g, r.v, r.o) })
}

// The kernels write forest arcs as v<<32|u into an Edge array: Edge must be
// two uint32, U first (every target gearbox builds for is little-endian).
var _ [0]struct{} = [unsafe.Offsetof(Edge{}.V) - 4 + unsafe.Sizeof(Edge{}) - 8]struct{}{}

// gpuSkipResults makes GPU runs leave their labels and forest on the device
// (benchmarks use it to time the device work apart from the copy back:
// edgeset.CUDAForest.SkipResults).
var gpuSkipResults bool

// gpuBase is the device state every GPU variant shares (the edge-set
// kit's forest: parents, hooking arcs, control block).
type gpuBase = edgeset.CUDAForest[Edge]

// ccBlock is the block size of CC's kernels.
const ccBlock = edgeset.CUDABlock

// newCUDAOp builds the GPU operator of variant v on the cuda backend. The
// graph's CSR comes from the backend's cache; device memory for it and the
// run's state is checked before anything is allocated (a
// *gpu.MemoryError reported by Start when it does not fit).
func newCUDAOp(b runtime.Backend, g *graph.Graph, v Variant, o options) (operator, bool) {
	c, ok := b.(*gpu.CUDA)
	if !ok {
		return nil, false
	}
	base := edgeset.NewCUDAForest[Edge](c, g, o.forest)
	base.SkipResults = gpuSkipResults
	var op interface {
		operator
		setup(d *gpu.Dev) error
		base() *gpuBase
	}
	switch v {
	case SV:
		s := &svGPU{CUDAForest: base}
		s.CUDAEdges = edgeset.NewCUDAEdges(&s.CUDAForest)
		op = s
	case Afforest:
		op = &affGPU{vertexGPU: vertexGPU{CUDAForest: base}, rounds: o.rounds, seed: o.seed}
	case UnionFind:
		op = &ufGPU{vertexGPU: vertexGPU{CUDAForest: base}}
	default:
		return nil, false
	}
	op.base().Setup(op.setup)
	return op, true
}

// svGPU is SV on the GPU: per iteration one hook pass over the active
// edges (the edge-set kit's bitmap of hidden arcs, thread- or
// edge-mapped, or a compacted queue of edges), multilevel pointer
// jumping, and one read of the control block, whose active-edge count the
// policy decides on. When a pass finds no edge joining two trees, each
// star's smallest vertex becomes its label.
type svGPU struct {
	edgeset.CUDAForest[Edge]
	edgeset.CUDAEdges[Edge]
	iter int
}

func (o *svGPU) base() *gpuBase { return &o.CUDAForest }

func (o *svGPU) setup(d *gpu.Dev) error {
	if err := o.Acquire(d, o.CUDAEdges.Bytes()+4*int64(o.N)); err != nil {
		return err
	}
	return o.CUDAEdges.Alloc(d)
}

func (o *svGPU) Info() runtime.OperatorInfo {
	return runtime.OperatorInfo{Info: decider.Info{N: o.N, M: o.M, Universe: o.Universe, InitialSize: o.Universe}}
}

func (o *svGPU) Start(v decider.Variant) error {
	if o.InitErr != nil {
		return o.InitErr
	}
	return o.Do(func(d *gpu.Dev) error {
		o.Rep = v.Rep
		if o.Universe == 0 {
			return o.finish(d)
		}
		return o.CUDAEdges.Start(d, v.Rep)
	})
}

func (o *svGPU) compute(v decider.Variant) (int64, error) {
	var read int64
	err := o.Do(func(d *gpu.Dev) error {
		down := gpu.Flag(o.iter%2 == 0)
		o.iter++
		dir := gpu.Flag(o.Directed)
		var err error
		read, err = o.Pass(d, v.Rep, v.Mapping == decider.Block, edgeset.Passes{
			Queue: func(in kernels.DevPtr[uint64], count uint64, out kernels.DevPtr[uint64], capacity uint64) error {
				return kernels.LaunchCCSVQu(d, o.Grid(d, int(count)), ccBlock, in, count, out, capacity, o.P.Ptr(), o.HookArg(), o.Ctrl.Ptr(), down)
			},
			Edge: func() error {
				return kernels.LaunchCCSVBmE(d, d.Grid(32*int64(o.Words()), ccBlock), ccBlock, o.Src.Ptr(), o.DG.Adj.Ptr(),
					uint64(o.M), o.P.Ptr(), o.Hidden.Ptr(), o.HookArg(), o.Ctrl.Ptr(), down, dir)
			},
			Thread: func() error {
				return kernels.LaunchCCSVBmT(d, o.Grid(d, o.N), ccBlock, o.DG.Off.Ptr(), o.DG.Adj.Ptr(), uint32(o.N), o.P.Ptr(), o.Hidden.Ptr(),
					o.HookArg(), o.Ctrl.Ptr(), down, dir)
			},
		})
		if err != nil {
			return err
		}
		if err := o.Compress(d); err != nil {
			return err
		}
		if err := o.ReadCtrl(d); err != nil {
			return err
		}
		if err := o.AfterPass(); err != nil {
			return err
		}
		if o.Active == 0 {
			return o.finish(d)
		}
		return nil
	})
	return read, err
}

// finish turns the stars into labels: each vertex gets the smallest vertex
// of its star (the roots are not the smallest: hooking alternates).
func (o *svGPU) finish(d *gpu.Dev) error {
	o.Finished = true
	if o.N == 0 {
		return nil
	}
	low, err := gpu.AllocSlice[uint32](d, o.N)
	if err != nil {
		return err
	}
	defer low.Free(d)
	if err := d.Memset32(low, 0, math.MaxUint32, int64(o.N)); err != nil {
		return err
	}
	if err := kernels.LaunchCCLowMin(d, o.Grid(d, o.N), ccBlock, o.P.Ptr(), uint32(o.N), low.Ptr()); err != nil {
		return err
	}
	if err := kernels.LaunchCCLowApply(d, o.Grid(d, o.N), ccBlock, o.P.Ptr(), uint32(o.N), low.Ptr()); err != nil {
		return err
	}
	return d.Sync()
}

func (o *svGPU) Convert(r decider.Rep) error {
	if o.Done() {
		return nil
	}
	return o.Do(func(d *gpu.Dev) error { return o.ToRep(d, r) })
}

// Step runs one hook pass and reports the active-edge count it (or the
// queue's compaction) produced: on the GPU the inspector costs nothing
// extra.
func (o *svGPU) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	e, err := o.compute(req.Variant)
	return runtime.StepResult{Edges: e, Size: o.Active, Degree: -1}, err
}

func (o *svGPU) Inspect(bool) (int64, int64) { return o.Active, -1 }

func (o *svGPU) Close() error { return o.CloseForest(o.CUDAEdges.Free) }

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
	err := o.Do(func(d *gpu.Dev) error {
		if err := o.ClearCtrl(d); err != nil {
			return err
		}
		if o.phase < o.rounds {
			r := o.phase
			var err error
			if r == 0 && o.rounds >= 2 {
				err = kernels.LaunchCCAffRound0(d, o.Grid(d, o.N), ccBlock, o.DG.Off.Ptr(), o.DG.Adj.Ptr(), uint32(o.N), o.P.Ptr(), o.HookArg(), o.Ctrl.Ptr())
			} else {
				err = kernels.LaunchCCAffRound(d, o.Grid(d, o.N), ccBlock, o.DG.Off.Ptr(), o.DG.Adj.Ptr(), uint32(o.N), o.P.Ptr(), o.HookArg(), o.Ctrl.Ptr(),
					uint32(r), gpu.Flag(r == 1))
			}
			if err != nil {
				return err
			}
			if err := o.Compress(d); err != nil {
				return err
			}
			if err := o.ReadCtrl(d); err != nil {
				return err
			}
			o.last = int64(o.Host[0].Active)
			edges = o.last
			o.phase++
			if o.last == 0 { // no vertex has that many neighbours
				o.phase = o.rounds
			}
			return nil
		}
		skip := !o.Directed
		if skip {
			if err := kernels.LaunchCCAffMode(d, 1, 1024, o.P.Ptr(), uint32(o.N), o.seed, o.Ctrl.Ptr()); err != nil {
				return err
			}
		}
		if err := linkAll(d, &o.CUDAForest, o.heavy, kernels.CCModeLink, skip, uint32(o.phase)); err != nil {
			return err
		}
		o.last, edges = int64(o.Host[0].Active), int64(o.Host[0].Edges)
		o.Finished = true
		return nil
	})
	return edges, err
}

// linkAll runs the thread-per-vertex pass (queuing heavy vertices), the
// block-per-heavy-vertex pass and the final compression, then reads the
// control block.
func linkAll(d *gpu.Dev, b *gpuBase, heavy gpu.DeviceSlice[uint32], mode uint32, skip bool, start uint32) error {
	dir := gpu.Flag(b.Directed)
	if err := kernels.LaunchCCLinkT(d, b.Grid(d, b.N), ccBlock, b.DG.Off.Ptr(), b.DG.Adj.Ptr(), uint32(b.N), b.P.Ptr(), b.HookArg(), heavy.Ptr(), b.Ctrl.Ptr(),
		mode, dir, gpu.Flag(skip), start); err != nil {
		return err
	}
	if err := kernels.LaunchCCLinkB(d, d.BlockGrid(int64(b.N), ccBlock), ccBlock, b.DG.Off.Ptr(), b.DG.Adj.Ptr(), heavy.Ptr(), b.P.Ptr(),
		b.HookArg(), b.Ctrl.Ptr(), mode, dir, start); err != nil {
		return err
	}
	if err := b.Compress(d); err != nil {
		return err
	}
	return b.ReadCtrl(d)
}

// ufGPU is ECL-CC-style union-find on the GPU in two iterations: every
// vertex points at its smallest neighbour below it, then every edge is
// united (thread per vertex, a block per vertex of many arcs) with
// intermediate pointer jumping, and all paths are compressed.
type ufGPU struct {
	vertexGPU
	phase int
}

func (o *ufGPU) Inspect(bool) (int64, int64) { return int64(o.N), -1 }

// Step runs one pass; its working set is every vertex.
func (o *ufGPU) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	e, err := o.compute(req.Variant)
	return runtime.StepResult{Edges: e, Size: int64(o.N), Degree: -1}, err
}

func (o *ufGPU) compute(decider.Variant) (int64, error) {
	var edges int64
	err := o.Do(func(d *gpu.Dev) error {
		if err := o.ClearCtrl(d); err != nil {
			return err
		}
		if o.phase == 0 {
			o.phase++
			edges = int64(o.N)
			return kernels.LaunchCCAffRound0(d, o.Grid(d, o.N), ccBlock, o.DG.Off.Ptr(), o.DG.Adj.Ptr(), uint32(o.N), o.P.Ptr(), o.HookArg(), o.Ctrl.Ptr())
		}
		if err := linkAll(d, &o.CUDAForest, o.heavy, kernels.CCModeUF, false, 0); err != nil {
			return err
		}
		edges = int64(o.Host[0].Edges)
		o.Finished = true
		return nil
	})
	return edges, err
}

// vertexGPU is the state Afforest and union-find share: their working
// set is every vertex (no conversions), and a list of the vertices too
// heavy for one thread.
type vertexGPU struct {
	edgeset.CUDAForest[Edge]
	heavy gpu.DeviceSlice[uint32]
}

func (o *vertexGPU) base() *gpuBase { return &o.CUDAForest }

func (o *vertexGPU) setup(d *gpu.Dev) error {
	if err := o.Acquire(d, 4*int64(o.N)); err != nil {
		return err
	}
	var err error
	o.heavy, err = gpu.AllocSlice[uint32](d, o.N)
	return err
}

func (o *vertexGPU) Info() runtime.OperatorInfo {
	return runtime.OperatorInfo{Info: decider.Info{N: o.N, M: o.M, Universe: int64(o.N), InitialSize: int64(o.N)}}
}

func (o *vertexGPU) Start(decider.Variant) error {
	if o.InitErr != nil {
		return o.InitErr
	}
	o.Finished = o.N == 0
	return nil
}

func (o *vertexGPU) Convert(decider.Rep) error { return nil }

func (o *vertexGPU) Close() error {
	return o.CloseForest(func(d *gpu.Dev) { o.heavy.Free(d) })
}
