//go:build cuda

package sssp

import (
	"fmt"
	"math"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/workset"
)

func init() {
	backends.Register("cuda", newCUDAOp)
}

// cudaOp is the SSSP operator on the cuda backend, relaxing with
// atomicMin. Distances are uint32 when no path can reach 2^32-1 ((n-1) x
// the largest weight below it: half the bytes of the randomly accessed
// array), else uint64 (no overflow: a path of fewer than 2^32 arcs of
// weight below 2^32). Ordered iterations select the updated vertices of
// the minimum's delta bucket (findmin, then generation with that bound;
// the rest stay in the update vector), unordered ones every updated
// vertex. Each iteration is one CUDA.Do and one
// read of the control block. The adaptive policy's ordered iterations may
// widen the bucket to a target of out-edges (kernels.SelectBucket).
// Small queue frontiers run many levels in one persistent launch:
// unordered ones as they come, ordered ones bucket after bucket
// (near-far, kernels.SSSPPersistNfD64 and D32).
type cudaOp struct {
	*frontier.CUDATraversal
	src    uint32
	delta  uint64
	target int64 // bucket_edges: work-targeted buckets (0: fixed)
	// launchDelta is the bucket width inside persistent launches (the
	// adaptive policy's may be wider than delta: thresholds'
	// launch_delta_factor).
	launchDelta uint64
	hist        gpu.DeviceSlice[uint64]
	d32         bool
	dist        gpu.DeviceSlice[uint64] // d32 false
	dist32      gpu.DeviceSlice[uint32] // d32 true
	pending     bool                    // an ordered generation may have left vertices in the update vector
	// out64 or out is the host memory for the distances, prepared while
	// the GPU runs; for 32-bit distances at the width of the last result
	// on this graph, else 16 bits where the result is large enough to
	// narrow (ReadValues picks the width).
	out64 func() []uint64
	out   func() hostmem.Values
	bits  int // the last result's width on this graph (0: none yet)
	res   hostmem.Values
	// tree is WithParents' pass on positive weights (deviceParents),
	// run before the distances are read.
	tree frontier.CUDAParents
}

// newCUDAOp builds the operator of request r on b, a cuda backend (false
// for another).
func newCUDAOp(b runtime.Backend, r request) (operator, bool) {
	c, ok := b.(*gpu.CUDA)
	if !ok {
		return nil, false
	}
	g, n, target := r.g, r.g.NumVertices(), r.target
	o := &cudaOp{src: r.src, delta: max(r.delta, 1), target: target, launchDelta: max(r.launchDelta, r.delta, 1)}
	// A zero weight can make the scan's tight arcs cycle: the host then
	// builds the tree (hostTree).
	state := 8*int64(n) + 8*(kernels.BucketBins+1) + o.tree.Want(r.parents && g.MinWeight() > 0, n)
	o.CUDATraversal = frontier.NewCUDATraversal(c, g, state, func(d *gpu.Dev, t *frontier.CUDATraversal) error {
		o.d32 = fits32(n, t.DG.MaxWeight)
		o.bits = d.ResultBits(g, "sssp")
		if err := o.tree.Alloc(d, n); err != nil {
			return err
		}
		var err error
		if target > 0 {
			if o.hist, err = gpu.AllocSlice[uint64](d, kernels.BucketBins+1); err != nil {
				return err
			}
			if err = d.Memset32(o.hist, 0, 0, 2*(kernels.BucketBins+1)); err != nil {
				return err
			}
		}
		if o.d32 {
			if o.dist32, err = gpu.AllocSlice[uint32](d, n); err != nil {
				return err
			}
			return d.Memset32(o.dist32, 0, math.MaxUint32, int64(n))
		}
		if o.dist, err = gpu.AllocSlice[uint64](d, n); err != nil {
			return err
		}
		// 0xFFFFFFFF in both halves: math.MaxUint64, the unreached distance.
		return d.Memset32(o.dist, 0, math.MaxUint32, 2*int64(n))
	})
	return o, true
}

func (o *cudaOp) Info() runtime.OperatorInfo {
	n := o.G.NumVertices()
	return runtime.OperatorInfo{Info: decider.Info{N: n, M: o.G.NumEdges(), Universe: int64(n), InitialSize: 1}, DualGeneration: true}
}

func (o *cudaOp) Start(v decider.Variant) error {
	if n := o.G.NumVertices(); o.InitErr == nil && o.d32 {
		o.out = o.C.PrepareResult(n, o.bits, 16)
		o.SpeculateOn(o.dist32, o.out)
	} else if o.InitErr == nil {
		o.out64 = hostmem.Slice[uint64](n)
	}
	if o.InitErr == nil {
		o.tree.Prepare(o.G.NumVertices())
	}
	// Asynchronous memsets, not synchronous copies, set the source's
	// distance.
	return o.StartSingle(o.src, v.Rep, func(d *gpu.Dev) error {
		if o.d32 {
			return d.Memset32(o.dist32, 4*int64(o.src), 0, 1)
		}
		return d.Memset32(o.dist, 8*int64(o.src), 0, 2)
	})
}

func (o *cudaOp) Distances() hostmem.Values { return o.res }

// Parents implements frontier.DeviceParents.
func (o *cudaOp) Parents() ([]uint32, time.Duration) { return o.tree.Parents() }

// distArg returns the distance array in use, untyped (workset.Select's
// Dist).
func (o *cudaOp) distArg() kernels.VoidPtr {
	if o.d32 {
		return o.dist32.Ptr().Void()
	}
	return o.dist.Ptr().Void()
}

// Step relaxes the working set's out-edges and generates the next working
// set in the variant's representation.
func (o *cudaOp) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	o.Prepare(req)
	e, err := o.compute(req.Variant)
	if err != nil {
		return runtime.StepResult{}, err
	}
	return o.Result(e, req.Variant.Rep)
}

func (o *cudaOp) compute(v decider.Variant) (int64, error) {
	var edges int64
	err := o.C.Do(func(d *gpu.Dev) error {
		ws := o.WS
		ws.Begin(d)
		if err := ws.Convert(d, v.Rep); err != nil {
			return err
		}
		o.Iter++
		var wt kernels.DevPtr[uint32] // null: unit weights
		if o.DG.W.Len() > 0 {
			wt = o.DG.W.Ptr()
		}
		a := relaxArgs{off: o.DG.Off.Ptr(), adj: o.DG.Adj.Ptr(), wt: wt, dist: o.dist.Ptr(), dist32: o.dist32.Ptr(), upd: ws.Update().Ptr()}
		if kernel, launch, ok := o.persistent(d, v, a); ok && o.CanFuse(v.Rep) {
			levels, err := o.Persist(d, kernel, launch)
			if err != nil {
				return err
			}
			if levels > 0 {
				edges = ws.EdgesOut()
				// A bucketed launch ends with an empty frontier only when
				// nothing is pending; else it leaves flagged vertices.
				o.pending = v.Order == decider.Ordered
				o.Finished = ws.Size() == 0
				return nil
			}
		}
		edges = ws.Degree()
		block := v.Mapping == decider.Block
		if err := ws.Push(d, block, o.Block, o.pushLaunch(d, a, block, v.Rep == decider.Bitmap), o.piecesLaunch(d, a)); err != nil {
			return err
		}
		o.pending = v.Order == decider.Ordered
		sel, err := o.selection()
		if err != nil {
			return err
		}
		if err := ws.Generate(d, a.off, v.Rep, sel); err != nil {
			return err
		}
		o.Finished = ws.Size() == 0
		return nil
	})
	return edges, err
}

// selection returns which updated vertices the next working set keeps:
// all of them in unordered rounds; in ordered ones those of the bucket of
// width delta above the smallest pending distance (findmin), the smallest
// alone at delta 1, or a work-targeted bucket (bucket's bound, from the
// histogram o.hist, widened to o.target out-edges).
func (o *cudaOp) selection() (workset.Select, error) {
	if !o.pending {
		return workset.Select{Mode: kernels.SelectAll}, nil
	}
	if o.delta == 0 {
		return workset.Select{}, fmt.Errorf("cuda: delta-stepping with delta 0")
	}
	sel := workset.Select{Mode: kernels.SelectDelta, Dist: o.distArg(), Delta: o.delta, D32: o.d32, Prepare: o.prepareMin}
	switch {
	case o.target > 0:
		if o.hist.Len() == 0 {
			return workset.Select{}, fmt.Errorf("cuda: bucket selection without a histogram")
		}
		// The generation keeps the vertices up to the bound bucket left
		// in ctrl.minv.
		sel.Mode, sel.Prepare = kernels.SelectMin, o.prepareBucket
	case o.delta == 1:
		sel.Mode = kernels.SelectMin
	}
	return sel, nil
}

// prepareMin leaves the smallest pending distance in the control block
// (workset.Select.Prepare).
func (o *cudaOp) prepareMin(d *gpu.Dev, grid, block int, upd kernels.DevPtr[uint8], n uint32, _ kernels.DevPtr[int64], ctrl kernels.DevPtr[kernels.Ctrl]) error {
	if o.d32 {
		return kernels.LaunchSSSPFindminU32(d, grid, block, o.dist32.Ptr(), upd, n, ctrl)
	}
	return kernels.LaunchSSSPFindminU64(d, grid, block, o.dist.Ptr(), upd, n, ctrl)
}

// prepareBucket leaves the end of the work-targeted bucket in the control
// block: findmin, then the bound from the histogram of the pending
// vertices' out-degrees by distance.
func (o *cudaOp) prepareBucket(d *gpu.Dev, grid, block int, upd kernels.DevPtr[uint8], n uint32, off kernels.DevPtr[int64], ctrl kernels.DevPtr[kernels.Ctrl]) error {
	if err := o.prepareMin(d, grid, block, upd, n, off, ctrl); err != nil {
		return err
	}
	if o.d32 {
		return kernels.LaunchSSSPBucketU32(d, grid, block, o.dist32.Ptr(), upd, n, off, ctrl, o.hist.Ptr(), o.delta, uint64(o.target))
	}
	return kernels.LaunchSSSPBucketU64(d, grid, block, o.dist.Ptr(), upd, n, off, ctrl, o.hist.Ptr(), o.delta, uint64(o.target))
}

// relaxArgs are the leading arguments of the relaxation kernels (push,
// pieces, persistent): the graph, the distances (dist32 when d32, else
// dist) and the update vector.
type relaxArgs struct {
	off     kernels.DevPtr[int64]
	adj, wt kernels.DevPtr[uint32]
	dist    kernels.DevPtr[uint64]
	dist32  kernels.DevPtr[uint32]
	upd     kernels.DevPtr[uint8]
}

// pushLaunch returns the launch of the push kernel of a block or thread
// mapping over a bitmap or queue (workset.CUDA.Push).
func (o *cudaOp) pushLaunch(d *gpu.Dev, r relaxArgs, block, bitmap bool) func(workset.PushArgs) error {
	if o.d32 {
		k := kernels.SSSPPushU32Of(block, bitmap)
		return func(a workset.PushArgs) error {
			return kernels.LaunchSSSPPushU32(d, k, a.Grid, a.Block, r.off, r.adj, r.wt, r.dist32, r.upd, a.WS, a.N, a.Ctrl, a.Par, a.Pieces)
		}
	}
	k := kernels.SSSPPushU64Of(block, bitmap)
	return func(a workset.PushArgs) error {
		return kernels.LaunchSSSPPushU64(d, k, a.Grid, a.Block, r.off, r.adj, r.wt, r.dist, r.upd, a.WS, a.N, a.Ctrl, a.Par, a.Pieces)
	}
}

// piecesLaunch returns the launch of the pieces kernel that expands a push
// kernel's heavy vertices (workset.CUDA.Push).
func (o *cudaOp) piecesLaunch(d *gpu.Dev, r relaxArgs) func(workset.PushArgs) error {
	if o.d32 {
		return func(a workset.PushArgs) error {
			return kernels.LaunchSSSPPiecesD32(d, a.Grid, a.Block, r.off, r.adj, r.wt, r.dist32, r.upd, a.Pieces, a.Ctrl)
		}
	}
	return func(a workset.PushArgs) error {
		return kernels.LaunchSSSPPiecesD64(d, a.Grid, a.Block, r.off, r.adj, r.wt, r.dist, r.upd, a.Pieces, a.Ctrl)
	}
}

// persistent returns the persistent kernel for v's iterations and its
// launch, or false where none applies: unordered levels need an
// update vector without pending vertices (an ordered generation's
// leftovers would block their queue flags), ordered ones fixed-width
// buckets (the work-targeted bucket is found by its own kernel).
func (o *cudaOp) persistent(d *gpu.Dev, v decider.Variant, r relaxArgs) (string, func(frontier.PersistArgs) error, bool) {
	switch {
	case v.Order == decider.Unordered && !o.pending:
		if o.d32 {
			return kernels.SSSPPersistQuD32, func(a frontier.PersistArgs) error {
				return kernels.LaunchSSSPPersistQuD32(d, a.Grid, a.Block, r.off, r.adj, r.wt, r.dist32, r.upd,
					a.QA, a.QB, a.Ctrl, a.Par, a.MaxLevels, a.Cap, a.EdgeCap, a.LocalE, a.PS)
			}, true
		}
		return kernels.SSSPPersistQuD64, func(a frontier.PersistArgs) error {
			return kernels.LaunchSSSPPersistQuD64(d, a.Grid, a.Block, r.off, r.adj, r.wt, r.dist, r.upd,
				a.QA, a.QB, a.Ctrl, a.Par, a.MaxLevels, a.Cap, a.EdgeCap, a.LocalE, a.PS)
		}, true
	case v.Order == decider.Ordered && o.target == 0:
		n := uint32(o.G.NumVertices())
		if o.d32 {
			return kernels.SSSPPersistNfD32, func(a frontier.PersistArgs) error {
				return kernels.LaunchSSSPPersistNfD32(d, a.Grid, a.Block, r.off, r.adj, r.wt, r.dist32, r.upd,
					a.QA, a.QB, a.Ctrl, a.Par, n, o.launchDelta, a.MaxLevels, a.Cap, a.EdgeCap, a.LocalE, a.PS)
			}, true
		}
		return kernels.SSSPPersistNfD64, func(a frontier.PersistArgs) error {
			return kernels.LaunchSSSPPersistNfD64(d, a.Grid, a.Block, r.off, r.adj, r.wt, r.dist, r.upd,
				a.QA, a.QB, a.Ctrl, a.Par, n, o.launchDelta, a.MaxLevels, a.Cap, a.EdgeCap, a.LocalE, a.PS)
		}, true
	}
	return "", nil, false
}

// Close copies the distances to the host and releases the device state.
func (o *cudaOp) Close() error {
	return o.CUDATraversal.Close(func(d *gpu.Dev) error {
		if o.out != nil || o.out64 != nil {
			n := uint32(o.G.NumVertices())
			if err := o.tree.Run(d, o.CUDATraversal, func(in *gpu.DeviceGraph, parent kernels.DevPtr[uint32], grid, block int) error {
				return kernels.LaunchSSSPParents(d, grid, block, in.Off.Ptr(), in.Adj.Ptr(), in.W.Ptr(), o.distArg(), gpu.Flag(o.d32), parent, n)
			}); err != nil {
				return err
			}
		}
		var err error
		switch {
		case o.out != nil:
			if v, ok := o.TakeResult(d); ok { // copied behind the last launch
				o.res = v
			} else {
				o.res, err = gpu.ReadValues(d, o.dist32, o.WS.Scratch(), o.out())
			}
			d.NoteResultBits(o.G, "sssp", o.res.Bits())
		case o.out64 != nil:
			dst := o.out64()
			o.res, err = hostmem.ValuesOf(dst), gpu.ReadStaged(d, o.dist, dst)
		default:
			return nil // never started
		}
		o.Times.ResultBits = o.res.Bits()
		return err
	}, func(d *gpu.Dev) {
		o.dist.Free(d)
		o.dist32.Free(d)
		o.hist.Free(d)
		o.tree.Free(d)
	})
}
