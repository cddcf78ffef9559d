//go:build cuda

package msf

import (
	"fmt"
	"math"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/internal/edgeset"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
)

func init() {
	backends.Register("cuda", func(b runtime.Backend, r request) (operator, bool) { return newCUDAOp(b, r.in, r.v) })
}

// arc is the edge-set kit's forest arc type (the kit's hooking arcs are
// not used: the forest is a bitmap over arcs here).
type arc struct{ U, V uint32 }

// edgeMappedDegree is the average degree from which every bitmap pass is
// edge-mapped (a warp per word of arcs) whatever the mapping asked: a
// thread per vertex walks a hub's arcs alone, and on the H200 the
// vertex-mapped passes took 175 ms on kron:22 against 12 ms edge-mapped
// (27 against 21 ms on urand:22, whose degrees are even).
const edgeMappedDegree = 8

// msfBlock is the block size of the msf kernels.
const msfBlock = edgeset.CUDABlock

// cudaOp is Borůvka on the GPU (kernels/msf.cu), every variant but Kruskal:
// EA and AL run the same edge-centric rounds (on the device the CSR plus a
// COO source array is the edge array), ECL adds the light-edge filter. A
// round is a minimum pass over the active edges (the kit's bitmap of hidden
// arcs, thread- or warp-mapped, or a queue compacted during the pass) and a
// hook launch, then one read of the control block.
type cudaOp struct {
	edgeset.CUDAForest[arc]
	edgeset.CUDAEdges[arc]
	in     *input
	thresh uint64 // keys admitted this phase (noKey: all)
	best   gpu.DeviceSlice[uint64]
	chosen gpu.DeviceSlice[uint32]
	times  runtime.GPUTimes
	edges  []Edge
	l0     int64
}

func newCUDAOp(b runtime.Backend, in *input, v Variant) (operator, bool) {
	c, ok := b.(*gpu.CUDA)
	if !ok || v == Kruskal {
		return nil, false
	}
	o := &cudaOp{in: in, thresh: noKey}
	o.CUDAForest = edgeset.NewCUDAForest[arc](c, in.g, false)
	o.SkipResults = true // the labels are not wanted; Close reads the forest
	o.CUDAEdges = edgeset.NewCUDAEdges(&o.CUDAForest)
	o.Universe = in.edges
	o.Active = in.edges
	if v == ECL {
		o.thresh = lightThreshold(in)
	}
	t0 := time.Now()
	o.InitErr = c.Do(o.setup)
	o.times.Setup = time.Since(t0)
	return o, true
}

func (o *cudaOp) setup(d *gpu.Dev) error {
	up := d.UploadTime()
	o.l0 = d.Launches()
	words := max(o.Words(), 1)
	err := o.Acquire(d, o.CUDAEdges.Bytes()+8*int64(o.N)+4*int64(words))
	o.times.Upload = d.UploadTime() - up
	if err != nil {
		return err
	}
	if o.M > math.MaxUint32 {
		return fmt.Errorf("%w: %d arcs, limit %d (32-bit edge ids)", ErrTooLarge, o.M, int64(math.MaxUint32))
	}
	if err := o.CUDAEdges.Alloc(d); err != nil {
		return err
	}
	if o.best, err = gpu.AllocSlice[uint64](d, max(o.N, 1)); err != nil {
		return err
	}
	if o.chosen, err = gpu.AllocSlice[uint32](d, words); err != nil {
		return err
	}
	if err := d.Memset32(o.best, 0, math.MaxUint32, 2*int64(o.N)); err != nil {
		return err
	}
	if err := d.Memset32(o.chosen, 0, 0, int64(words)); err != nil {
		return err
	}
	// The hidden bitmap always holds arcs known dead (a queue build reads
	// it whatever the representation).
	return d.Memset32(o.Hidden, 0, 0, int64(words))
}

// cnt is the control block as the kernels' counters: active, queued,
// examined.
func (o *cudaOp) cnt() kernels.DevPtr[uint64] { return kernels.PtrAt[uint64](o.Ctrl.DevicePtr()) }

func (o *cudaOp) w() kernels.DevPtr[uint32] { return o.DG.W.Ptr() }

// Info gives the light phase's expected size (about lightFactor*n edges)
// as the initial working set, so the policy can start it as a queue.
func (o *cudaOp) Info() runtime.OperatorInfo {
	initial := o.Active
	if o.thresh != noKey {
		initial = min(initial, lightFactor*int64(o.N))
	}
	return runtime.OperatorInfo{Info: decider.Info{N: o.N, M: o.M, Universe: o.Universe, InitialSize: initial}}
}

func (o *cudaOp) DeviceTimes() *runtime.GPUTimes {
	t := o.times
	return &t
}

func (o *cudaOp) Start(v decider.Variant) error {
	if o.InitErr != nil {
		return o.InitErr
	}
	if o.Universe == 0 {
		o.Finished = true
		return nil
	}
	t0 := time.Now()
	defer func() { o.times.Kernels += time.Since(t0) }()
	return o.C.Do(func(d *gpu.Dev) error {
		o.Rep = v.Rep
		if v.Rep == decider.Queue {
			return o.buildQueue(d, o.Universe)
		}
		return nil
	})
}

// buildQueue makes the queue the phase's crossing edges not hidden
// (capacity: an upper bound of their number).
func (o *cudaOp) buildQueue(d *gpu.Dev, capacity int64) error {
	if err := o.EnsureQueues(d, max(capacity, 1)); err != nil {
		return err
	}
	if err := o.ClearCtrl(d); err != nil {
		return err
	}
	if err := kernels.LaunchMsfBuildQu(d, d.Grid(o.M, msfBlock), msfBlock, o.Src.Ptr(), o.DG.Adj.Ptr(), o.w(), uint64(o.M), o.P.Ptr(),
		o.Hidden.Ptr(), o.Q[0].Ptr(), uint64(o.Q[0].Len()), o.thresh, o.cnt(), gpu.Flag(o.Directed)); err != nil {
		return err
	}
	if err := o.ReadCtrl(d); err != nil {
		return err
	}
	if n := int64(o.Host[0].QCount); n > int64(o.Q[0].Len()) {
		return fmt.Errorf("msf: edge queue overflow: %d edges for %d slots", n, o.Q[0].Len())
	}
	o.Cur, o.QLen, o.Active = 0, int64(o.Host[0].QCount), int64(o.Host[0].QCount)
	o.Rep = decider.Queue
	return nil
}

// toRep converts the working set; a bitmap made from a queue hides every
// arc not queued (the phase's heavy arcs too: the next phase starts from
// an empty bitmap).
func (o *cudaOp) toRep(d *gpu.Dev, r decider.Rep) error {
	if r == o.Rep {
		return nil
	}
	if r == decider.Queue {
		return o.buildQueue(d, o.Active)
	}
	if err := d.Memset32(o.Hidden, 0, math.MaxUint32, int64(o.Words())); err != nil {
		return err
	}
	if o.QLen > 0 {
		if err := kernels.LaunchMsfQuToBm(d, o.Grid(d, int(o.QLen)), msfBlock, o.Q[o.Cur].Ptr(), uint64(o.QLen), o.Hidden.Ptr()); err != nil {
			return err
		}
	}
	o.Rep = decider.Bitmap
	return nil
}

func (o *cudaOp) Convert(r decider.Rep) error {
	if o.Done() {
		return nil
	}
	return o.C.Do(func(d *gpu.Dev) error { return o.toRep(d, r) })
}

func (o *cudaOp) Inspect(bool) (int64, int64) { return o.Active, -1 }

// Step runs one round and reports the active edges its pass found (an
// upper bound for a bitmap until the next pass; exact for a queue).
func (o *cudaOp) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	t0 := time.Now()
	e, err := o.round(req.Variant)
	o.times.Kernels += time.Since(t0)
	return runtime.StepResult{Edges: e, Size: o.Active, Degree: -1}, err
}

func (o *cudaOp) round(v decider.Variant) (int64, error) {
	var read int64
	err := o.C.Do(func(d *gpu.Dev) error {
		if err := o.toRep(d, v.Rep); err != nil {
			return err
		}
		if err := o.ClearCtrl(d); err != nil {
			return err
		}
		dir := gpu.Flag(o.Directed)
		var err error
		switch {
		case o.Rep == decider.Queue:
			read = o.QLen
			err = kernels.LaunchMsfMinQu(d, o.Grid(d, int(o.QLen)), msfBlock, o.Q[o.Cur].Ptr(), uint64(o.QLen), o.Q[1-o.Cur].Ptr(),
				uint64(o.Q[1-o.Cur].Len()), o.DG.Adj.Ptr(), o.w(), o.P.Ptr(), o.best.Ptr(), o.cnt())
		case v.Mapping == decider.Block || o.M >= edgeMappedDegree*int64(o.N):
			err = kernels.LaunchMsfMinBmE(d, d.Grid(o.M, msfBlock), msfBlock, o.Src.Ptr(), o.DG.Adj.Ptr(), o.w(), uint64(o.M),
				o.P.Ptr(), o.Hidden.Ptr(), o.best.Ptr(), o.thresh, o.cnt(), dir)
		default:
			err = kernels.LaunchMsfMinBmT(d, o.Grid(d, o.N), msfBlock, o.DG.Off.Ptr(), o.DG.Adj.Ptr(), o.w(), uint32(o.N),
				o.P.Ptr(), o.Hidden.Ptr(), o.best.Ptr(), o.thresh, o.cnt(), dir)
		}
		if err != nil {
			return err
		}
		// With no crossing edge every best is empty and the hook does
		// nothing: launching it before the read saves a round trip.
		if err := kernels.LaunchMsfHook(d, o.Grid(d, o.N), msfBlock, o.best.Ptr(), uint32(o.N), o.Src.Ptr(), o.DG.Adj.Ptr(),
			o.P.Ptr(), o.chosen.Ptr()); err != nil {
			return err
		}
		if err := o.ReadCtrl(d); err != nil {
			return err
		}
		if o.Rep == decider.Bitmap {
			read = int64(o.Host[0].Edges)
		}
		if err := o.AfterPass(); err != nil {
			return err
		}
		if o.Active > 0 {
			return nil
		}
		if o.thresh == noKey {
			o.Finished = true
			return nil
		}
		// The light edges are exhausted: every edge joins, the light ones
		// all inside trees by now (hidden by the next pass).
		o.thresh = noKey
		if err := d.Memset32(o.Hidden, 0, 0, int64(o.Words())); err != nil {
			return err
		}
		if o.Rep == decider.Queue {
			return o.buildQueue(d, o.Universe)
		}
		o.Active = o.Universe
		return nil
	})
	return read, err
}

// Close reads the forest back (a bitmap over arcs) and frees the device
// state.
func (o *cudaOp) Close() error {
	var rerr error
	if o.InitErr == nil && o.Finished && o.edges == nil {
		t0 := time.Now()
		rerr = o.C.Do(o.readForest)
		o.times.Transfers += time.Since(t0)
	}
	err := o.CloseForest(func(d *gpu.Dev) {
		o.times.Launches = d.Launches() - o.l0
		o.best.Free(d)
		o.chosen.Free(d)
		o.CUDAEdges.Free(d)
	})
	if rerr != nil {
		return rerr
	}
	return err
}

// readForest lists the chosen arcs in id order as edges.
func (o *cudaOp) readForest(d *gpu.Dev) error {
	if o.Universe == 0 {
		o.edges = []Edge{}
		return nil
	}
	h := make([]uint32, o.chosen.Len())
	if err := o.chosen.Read(d, 0, h); err != nil {
		return err
	}
	o.edges = listChosen(h, o.in.g.Offsets(), o.in.g.Adj(), o.in.g.Weights())
	return nil
}

func (o *cudaOp) forest() []Edge {
	if o.edges == nil {
		return []Edge{}
	}
	return o.edges
}

var _ operator = (*cudaOp)(nil)
