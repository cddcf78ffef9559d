//go:build cuda

package msf

import (
	"fmt"
	"math"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/internal/edgeset"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
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
// hook launch, then one read of the control block. The last round lists
// the forest on the device (msf_list_*: its edges in id order and their
// weight), and Close copies only those n - c edges into host memory
// prepared during the run: a bitmap over every arc listed on the host took
// longer than all the rounds on the 4M-vertex graphs.
type cudaOp struct {
	edgeset.CUDAForest[arc]
	edgeset.CUDAEdges[arc]
	in     *input
	thresh uint64 // keys admitted this phase (noKey: all)
	best   gpu.DeviceSlice[uint64]
	chosen gpu.DeviceSlice[uint32]
	list   gpu.DeviceSlice[Edge]   // the forest as listed on the device
	tiles  gpu.DeviceSlice[uint32] // the listing's per-tile counts, then offsets
	times  runtime.GPUTimes
	host   func() []Edge // n edges of host memory (hostmem.Slice), for the forest
	buf    []Edge        // that memory, once taken
	listed int           // the forest's edges
	weight int64         // their summed weight (integer weights), from the device
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
	o.Build = func(d *gpu.Dev, hidden kernels.DevPtr[uint32], out kernels.DevPtr[uint64], capacity uint64) error {
		return kernels.LaunchMsfBuildQu(d, d.Grid(o.M, msfBlock), msfBlock, o.Src.Ptr(), o.DG.Adj.Ptr(), o.w(), uint64(o.M), o.P.Ptr(),
			hidden, out, capacity, o.thresh, o.cnt(), gpu.Flag(o.Directed))
	}
	o.Unhide = func(d *gpu.Dev, q kernels.DevPtr[uint64], count uint64) error {
		return kernels.LaunchMsfQuToBm(d, o.Grid(d, int(count)), msfBlock, q, count, o.Hidden.Ptr())
	}
	if v == ECL {
		o.thresh = lightThreshold(in)
	}
	t0 := time.Now()
	o.InitErr = c.Do(o.setup)
	o.times.Setup = time.Since(t0)
	if o.InitErr == nil {
		// The forest's host memory is prepared (its pages touched) while
		// the GPU runs, or reused from a released result of the same size.
		o.host = hostmem.Slice[Edge](o.N)
	}
	return o, true
}

// tileCount is the number of tiles msf_list_* split the chosen bitmap in.
func (o *cudaOp) tileCount() int {
	return (max(o.Words(), 1) + kernels.MSFListTile - 1) / kernels.MSFListTile
}

func (o *cudaOp) setup(d *gpu.Dev) error {
	up := d.UploadTime()
	o.l0 = d.Launches()
	words := max(o.Words(), 1)
	listing := 12*int64(max(o.N, 1)) + 4*int64(o.tileCount())
	err := o.Acquire(d, o.CUDAEdges.Bytes()+8*int64(o.N)+4*int64(words)+listing)
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
	if o.list, err = gpu.AllocSlice[Edge](d, max(o.N, 1)); err != nil {
		return err
	}
	if o.tiles, err = gpu.AllocSlice[uint32](d, o.tileCount()); err != nil {
		return err
	}
	if err := d.Memset32(o.best, 0, math.MaxUint32, 2*int64(o.N)); err != nil {
		return err
	}
	return d.Memset32(o.chosen, 0, 0, int64(words))
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

// Start makes every edge active: the hidden bitmap clear (it always holds
// only arcs known dead), or the queue of the phase's crossing edges.
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
	return o.C.Do(func(d *gpu.Dev) error { return o.CUDAEdges.Start(d, v.Rep) })
}

func (o *cudaOp) Convert(r decider.Rep) error {
	if o.Done() {
		return nil
	}
	return o.C.Do(func(d *gpu.Dev) error { return o.ToRep(d, r) })
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
		dir := gpu.Flag(o.Directed)
		var err error
		read, err = o.Pass(d, v.Rep, v.Mapping == decider.Block || o.M >= edgeMappedDegree*int64(o.N), edgeset.Passes{
			Queue: func(in kernels.DevPtr[uint64], count uint64, out kernels.DevPtr[uint64], capacity uint64) error {
				return kernels.LaunchMsfMinQu(d, o.Grid(d, int(count)), msfBlock, in, count, out, capacity, o.DG.Adj.Ptr(), o.w(),
					o.P.Ptr(), o.best.Ptr(), o.cnt())
			},
			Edge: func() error {
				return kernels.LaunchMsfMinBmE(d, d.Grid(o.M, msfBlock), msfBlock, o.Src.Ptr(), o.DG.Adj.Ptr(), o.w(), uint64(o.M),
					o.P.Ptr(), o.Hidden.Ptr(), o.best.Ptr(), o.thresh, o.cnt(), dir)
			},
			Thread: func() error {
				return kernels.LaunchMsfMinBmT(d, o.Grid(d, o.N), msfBlock, o.DG.Off.Ptr(), o.DG.Adj.Ptr(), o.w(), uint32(o.N),
					o.P.Ptr(), o.Hidden.Ptr(), o.best.Ptr(), o.thresh, o.cnt(), dir)
			},
		})
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
			return o.listForest(d)
		}
		// The light edges are exhausted: every edge joins, the light ones
		// all inside trees by now (hidden by the next pass).
		o.thresh = noKey
		o.Active = o.Universe
		return o.CUDAEdges.Start(d, o.Rep)
	})
	return read, err
}

// listForest lists the chosen arcs on the device, in id order, as edges
// (msf_list_*), and reads their number and summed weight. The round's
// pass cleared the control block, as msf_list_count needs.
func (o *cudaOp) listForest(d *gpu.Dev) error {
	words := uint64(o.chosen.Len())
	const block = kernels.MSFListBlock
	grid := d.Grid(int64(o.tileCount())*block, block)
	if err := kernels.LaunchMsfListCount(d, grid, block, o.chosen.Ptr(), words, o.tiles.Ptr(), o.cnt()); err != nil {
		return err
	}
	if err := kernels.LaunchMsfListWrite(d, grid, block, kernels.PtrAt[uint32](o.list.DevicePtr()), o.cnt(), o.Src.Ptr(), o.DG.Adj.Ptr(), o.w(),
		o.chosen.Ptr(), words, o.tiles.Ptr()); err != nil {
		return err
	}
	if err := o.ReadCtrl(d); err != nil {
		return err
	}
	h := o.Host[0]
	if h.Listed > uint64(o.list.Len()) {
		return fmt.Errorf("msf: %d forest edges listed for %d vertices", h.Listed, o.N)
	}
	o.listed, o.weight = int(h.Listed), int64(h.Weight)
	return nil
}

// Close copies the listed forest into its host memory and frees the
// device state.
func (o *cudaOp) Close() error {
	var rerr error
	if o.InitErr == nil && o.Finished && o.edges == nil {
		t0 := time.Now()
		o.buf = o.host()
		o.edges = o.buf[:o.listed]
		rerr = o.C.Do(func(d *gpu.Dev) error { return gpu.ReadStaged(d, o.list.Head(o.listed), o.edges) })
		o.times.Transfers += time.Since(t0)
	}
	err := o.CloseForest(func(d *gpu.Dev) {
		o.times.Launches = d.Launches() - o.l0
		o.best.Free(d)
		o.chosen.Free(d)
		o.list.Free(d)
		o.tiles.Free(d)
		o.CUDAEdges.Free(d)
	})
	if rerr != nil {
		o.edges = nil
		return rerr
	}
	return err
}

func (o *cudaOp) forest() []Edge {
	if o.edges == nil {
		return []Edge{}
	}
	return o.edges
}

// recycled is the host memory the forest lies in (the result's Release
// gives it back) and the weights' sum the device made.
func (o *cudaOp) recycled() (buf []Edge, weight int64) { return o.buf, o.weight }

var _ operator = (*cudaOp)(nil)
var _ summedForest = (*cudaOp)(nil)
