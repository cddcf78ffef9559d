//go:build cuda

package bfs

import (
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

// cudaOp is the BFS operator on the cuda backend. Each iteration is one
// CUDA.Do: the computation kernel (plus the pieces
// of heavy vertices), the generation kernel and one read of the control
// block (size and degree of the next frontier, which the inspector and
// decider use). BFS working sets always hold exactly one level (every
// vertex a level discovers gets the same depth), so ordered push,
// unordered push and pull can alternate freely.
type cudaOp struct {
	*frontier.CUDATraversal
	src     uint32
	level   gpu.DeviceSlice[uint32]
	canPull bool
	// pushBelow is how a pull launch goes back to push (pullLaunch): below
	// a frontier of that many vertices, as the adaptive policy does.
	pushBelow  uint32
	pullLaunch bool
	cur        uint32 // depth of the current frontier
	// out is the host memory for the depths, prepared while the GPU runs
	// at the width of the last result on this graph, else bytes when the
	// result is large enough to narrow (ReadValues picks the width).
	out   func() hostmem.Values
	bits  int // the last result's width on this graph (0: none yet)
	depth hostmem.Values
	// tree is WithParents' pass, run before the depths are read.
	tree frontier.CUDAParents
}

// newCUDAOp builds the operator of request r on b, a cuda backend (false
// for another).
func newCUDAOp(b runtime.Backend, r request) (operator, bool) {
	c, ok := b.(*gpu.CUDA)
	if !ok {
		return nil, false
	}
	g, n := r.g, r.g.NumVertices()
	o := &cudaOp{src: r.src}
	o.pushBelow, o.pullLaunch = pullRule(r.cfg, n)
	state := 4*int64(n) + o.tree.Want(r.parents, n)
	o.CUDATraversal = frontier.NewCUDATraversal(c, g, state, func(d *gpu.Dev, _ *frontier.CUDATraversal) error {
		// Pull needs the in-edges; offer it only when they fit as well.
		o.canPull = d.CheckFits(d.TransposeBytes(g), "pull") == nil
		o.bits = d.ResultBits(g, "bfs")
		var err error
		if o.level, err = gpu.AllocSlice[uint32](d, n); err != nil {
			return err
		}
		if err = o.tree.Alloc(d, n); err != nil {
			return err
		}
		return d.Memset32(o.level, 0, math.MaxUint32, int64(n))
	})
	return o, true
}

// launchFits reports whether a pull iteration runs as a launch
// (kernels.BFSPullPersist): under the adaptive policy, with persistent
// launches on and the pull levels' two frontier bitmaps in the spare
// buffer (a graph of one vertex has no room for them).
func (o *cudaOp) launchFits() bool {
	n := o.G.NumVertices()
	return o.pullLaunch && o.C.FusedLevels() > 0 && o.WS.Spare().Len() >= 2*((n+31)/32)
}

// pullRule returns how a pull launch goes back to push: the built-in
// adaptive policy's way (a frontier below n / Beta vertices, or a lost
// pull: kernels.BFSPullPersist). Other policies decide each level
// themselves, so their pulls are single levels (ok false); so does the
// static pull variant, which pulls every level: its levels pulled faster
// in the ordinary kernel than in a launch (kron:18 on the H100, 2.6
// against 5.3 ms), where half the threads are resident.
func pullRule(cfg *runtime.Config, n int) (pushBelow uint32, ok bool) {
	if !cfg.Adaptive() {
		return 0, false
	}
	// At least 1: under an infinite Beta, push again once the frontier
	// shrinks (Validate keeps Beta > 0).
	below := max(math.Ceil(float64(n)/cfg.Thresholds().Beta), 1)
	return uint32(min(below, math.MaxUint32)), true
}

func (o *cudaOp) Info() runtime.OperatorInfo {
	n := o.G.NumVertices()
	return runtime.OperatorInfo{Info: decider.Info{N: n, M: o.G.NumEdges(), Universe: int64(n), InitialSize: 1, CanPull: o.canPull, MaxDegree: o.G.MaxDegree(),
		InDegrees: o.G.InDegreeProfile}, DualGeneration: true, PullConverts: o.WS != nil && o.launchFits()}
}

func (o *cudaOp) Start(v decider.Variant) error {
	rep := v.Rep
	if v.Direction == decider.Pull {
		rep = decider.Bitmap
	}
	if o.InitErr == nil {
		o.out = o.C.PrepareResult(o.G.NumVertices(), o.bits, 8)
		o.SpeculateOn(o.level, o.out)
		o.tree.Prepare(o.G.NumVertices())
	}
	// An asynchronous memset, not a synchronous copy, sets the source's
	// level.
	return o.StartSingle(o.src, rep, func(d *gpu.Dev) error { return d.Memset32(o.level, 4*int64(o.src), 0, 1) })
}

func (o *cudaOp) Depths() hostmem.Values { return o.depth }

// Parents implements frontier.DeviceParents.
func (o *cudaOp) Parents() ([]uint32, time.Duration) { return o.tree.Parents() }

// Step runs one iteration (or, with WithFusedLevels, up to
// frontier.MaxFusedLevels levels in one launch) and generates the next
// working set in the variant's representation. Where pull launches fit
// (launchFits), the operator declares PullConverts: a pull launch sets a
// queue into its first bitmap itself (two grid barriers), so the engine
// leaves the working set as it is before a pull step. The levels its
// launches pulled are the step's "pull_levels" count.
func (o *cudaOp) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	o.Prepare(req)
	e, err := o.compute(req.Variant)
	if err != nil {
		return runtime.StepResult{}, err
	}
	r, err := o.Result(e, req.Variant.Rep)
	if p := o.FusedPulled(); p > 0 {
		r.Counts = map[string]int64{"pull_levels": int64(p)}
	}
	return r, err
}

func (o *cudaOp) compute(v decider.Variant) (int64, error) {
	var edges int64
	err := o.C.Do(func(d *gpu.Dev) error {
		ws := o.WS
		rep := v.Rep
		pull := v.Direction == decider.Pull
		var dt *gpu.DeviceGraph
		if pull {
			rep = decider.Bitmap
			u0 := d.UploadTime()
			var err error
			dt, err = d.AcquireTranspose(o.G)
			o.Times.Upload += d.UploadTime() - u0
			if err != nil {
				return err
			}
		}
		n := uint32(o.G.NumVertices())
		// Pull levels, then push levels, in one launch. The launch takes
		// a queue as it is (fromQueue: PullConverts), unless a dual
		// generation left the bitmap too.
		launch := pull && o.launchFits()
		fromQueue := launch && !ws.Swap(rep)
		ws.Begin(d)
		if !fromQueue {
			if err := ws.Convert(d, rep); err != nil {
				return err
			}
		}
		o.Iter++
		switch {
		case launch:
			levels, err := o.Persist(d, kernels.BFSPullPersist, func(a frontier.PersistArgs) error {
				return kernels.LaunchBFSPullPersist(d, a.Grid, a.Block, o.DG.Off.Ptr(), o.DG.Adj.Ptr(), dt.Off.Ptr(), dt.Adj.Ptr(),
					o.level.Ptr(), a.QA, a.QB, a.Ctrl, a.Par, n, o.cur, o.pushBelow, ws.Spare().Ptr(), (n+31)/32,
					gpu.Flag(fromQueue), a.MaxLevels, a.Cap, a.EdgeCap, a.LocalE, a.PS)
			})
			if err != nil {
				return err
			}
			edges = ws.EdgesOut()
			o.cur += uint32(levels)
		case pull:
			if err := kernels.LaunchBFSPullT(d, d.Grid(int64(n), 256), 256,
				dt.Off.Ptr(), dt.Adj.Ptr(), o.level.Ptr(), ws.Update().Ptr(), ws.Current().Ptr(), n, o.cur, ws.Ctrl(), ws.Parity()); err != nil {
				return err
			}
			if err := ws.Generate(d, o.DG.Off.Ptr(), rep, workset.Select{Mode: kernels.SelectAll}); err != nil {
				return err
			}
			edges = ws.EdgesOut()
			o.cur++
		case v.Direction == decider.Push && o.CanFuse(rep):
			edges = ws.Degree()
			levels, err := o.Persist(d, kernels.BFSPersist, func(a frontier.PersistArgs) error {
				return kernels.LaunchBFSPersistQu(d, a.Grid, a.Block, o.DG.Off.Ptr(), o.DG.Adj.Ptr(), o.level.Ptr(),
					a.QA, a.QB, a.Ctrl, a.Par, o.cur, a.MaxLevels, a.Cap, a.EdgeCap, a.LocalE, a.PS)
			})
			if err != nil {
				return err
			}
			if levels > 0 {
				edges = ws.EdgesOut()
				o.cur += uint32(levels)
				break
			}
			if err := o.push(d, v); err != nil {
				return err
			}
		default:
			edges = ws.Degree()
			if err := o.push(d, v); err != nil {
				return err
			}
		}
		o.Finished = ws.Size() == 0
		return nil
	})
	return edges, err
}

// push runs one push level with variant v over the working set and
// generates the next in the same representation.
func (o *cudaOp) push(d *gpu.Dev, v decider.Variant) error {
	ws := o.WS
	ordered := v.Order == decider.Ordered
	block := v.Mapping == decider.Block
	off, adj, level, upd := o.DG.Off.Ptr(), o.DG.Adj.Ptr(), o.level.Ptr(), ws.Update().Ptr()
	push := kernels.BFSPushOf(ordered, block, ws.Rep() == decider.Bitmap)
	if err := ws.Push(d, block, o.Block, func(a workset.PushArgs) error {
		return kernels.LaunchBFSPush(d, push, a.Grid, a.Block, off, adj, level, upd, a.WS, a.N, a.Ctrl, a.Par, a.Pieces)
	}, func(a workset.PushArgs) error {
		return kernels.LaunchBFSPieces(d, kernels.BFSPiecesOf(ordered), a.Grid, a.Block, off, adj, level, upd, a.Pieces, a.Ctrl)
	}); err != nil {
		return err
	}
	if err := ws.Generate(d, off, ws.Rep(), workset.Select{Mode: kernels.SelectAll}); err != nil {
		return err
	}
	o.cur++
	return nil
}

// Close copies the depths to the host and releases the device state (the
// graph stays cached in the backend).
func (o *cudaOp) Close() error {
	return o.CUDATraversal.Close(func(d *gpu.Dev) error {
		if o.out == nil {
			return nil // never started
		}
		n := uint32(o.G.NumVertices())
		if err := o.tree.Run(d, o.CUDATraversal, func(in *gpu.DeviceGraph, parent kernels.DevPtr[uint32], grid, block int) error {
			return kernels.LaunchBFSParents(d, grid, block, in.Off.Ptr(), in.Adj.Ptr(), o.level.Ptr(), parent, n)
		}); err != nil {
			return err
		}
		return o.readDepths(d)
	}, func(d *gpu.Dev) {
		o.level.Free(d)
		o.tree.Free(d)
	})
}

// readDepths copies the depths to the host at the fewest bits that hold
// them, with no kernel to find the largest (gpu.ReadValuesUpTo): each
// level run set depths of at most o.cur, the depth of the frontier it
// generated, and a finished run's last level generated nothing, so its
// depths stop at o.cur-1 (254 levels' depths are bytes).
func (o *cudaOp) readDepths(d *gpu.Dev) (err error) {
	bound := o.cur
	if o.Finished && bound > 0 {
		bound--
	}
	if v, ok := o.TakeResult(d); ok { // copied behind the last launch
		o.depth = v
	} else {
		o.depth, err = gpu.ReadValuesUpTo(d, o.level, o.WS.Scratch(), o.out(), bound)
	}
	o.Times.ResultBits = o.depth.Bits()
	d.NoteResultBits(o.G, "bfs", o.depth.Bits())
	return err
}
