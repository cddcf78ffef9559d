//go:build cuda

package edgeset

// The GPU half of the edge-set kit: the state every edge-centric GPU
// operator over a spanning forest shares (CUDAForest: the parent array,
// the hooking arcs, the control block, the pinned graph) and the
// active-edge working set with its bitmap and queue forms (CUDAEdges).
// CC's operators (algorithms/cc) and a minimum-spanning-forest operator
// build on them; the hooking kernels' orchestration stays with each
// algorithm. Names carry CUDA to keep them apart from the CPU half.

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
)

// CUDACtrl is the control block, struct CCCtrl in kernels/cc.cu (the
// generated mirror kernels.CCCtrl, 64 bytes).
type CUDACtrl = kernels.CCCtrl

// CUDABlock is the block size of the edge-set kernels.
const CUDABlock = 256

// Arc is the constraint on a forest's arc type: two uint32, U first (the
// kernels store v<<32|u, which is {u, v} in little-endian memory; every
// target gearbox builds for is little-endian).
type Arc interface {
	~struct{ U, V uint32 }
}

// CUDAForest is the device state every edge-centric GPU operator over a
// spanning forest shares: the parent array, the hooking arcs of the
// forest (one E per vertex, when Forest) and the control block. The
// control block is read into Go memory: page-locked memory would save
// about 1.5µs a read but costs a pinning per run.
type CUDAForest[E Arc] struct {
	C        *gpu.CUDA
	G        *graph.Graph
	N        int
	M        int64
	Directed bool
	Forest   bool
	// SkipResults leaves the labels and forest on the device (benchmarks
	// time the device work apart from the copy back).
	SkipResults bool

	DG     *gpu.DeviceGraph
	pinned bool
	P      gpu.DeviceSlice[uint32] // parents
	Hook   gpu.DeviceSlice[E]
	Ctrl   gpu.DeviceSlice[CUDACtrl]
	Host   []CUDACtrl // one element, its own allocation: cgo refuses a pointer into memory holding Go pointers

	InitErr error
	// Times splits the run's device time (the operators' DeviceTimes):
	// Setup is creating the state, Kernels the passes (each ends with the
	// control block's read, which waits for its kernels), Transfers the
	// copy of the labels and forest.
	Times runtime.GPUTimes
	// Finished is set when the run's last pass is done.
	Finished bool
	closed   bool
	labels   []uint32
	out      func() []uint32 // the labels' host memory, prepared during the run
	fedges   []E
}

// NewCUDAForest returns the shared state for g (nothing allocated yet:
// Acquire, inside Do).
func NewCUDAForest[E Arc](c *gpu.CUDA, g *graph.Graph, forest bool) CUDAForest[E] {
	return CUDAForest[E]{C: c, G: g, N: g.NumVertices(), M: g.NumEdges(), Directed: g.Directed(), Forest: forest,
		Host: make([]CUDACtrl, 1)}
}

// Acquire pins the graph with extra bytes of variant state besides the
// shared arrays, allocates those and initialises the parents.
func (b *CUDAForest[E]) Acquire(d *gpu.Dev, extra int64) error {
	if int64(b.N) >= math.MaxUint32 {
		return fmt.Errorf("cc: %d vertices exceeds the GPU limit %d", b.N, uint32(math.MaxUint32)-1)
	}
	state := 4*int64(b.N) + 64 + extra
	if b.Forest {
		state += 8 * int64(b.N)
	}
	dg, err := d.AcquireGraph(b.G, state)
	if err != nil {
		return err
	}
	b.DG, b.pinned = dg, true
	if !b.SkipResults {
		b.out = hostmem.Slice[uint32](b.N)
	}
	if b.P, err = gpu.AllocSlice[uint32](d, b.N); err != nil {
		return err
	}
	if b.Forest {
		if b.Hook, err = gpu.AllocSlice[E](d, b.N); err != nil {
			return err
		}
	}
	if b.Ctrl, err = gpu.AllocSlice[CUDACtrl](d, 1); err != nil {
		return err
	}
	return kernels.LaunchCCInit(d, b.Grid(d, b.N), CUDABlock, b.P.Ptr(), b.HookArg(), uint32(b.N))
}

// HookArg is the forest array (its arcs as the kernels store them,
// v<<32|u), or a null pointer when no forest is wanted (the kernels then
// record nothing).
func (b *CUDAForest[E]) HookArg() kernels.DevPtr[uint64] {
	if b.Forest {
		return kernels.PtrAt[uint64](b.Hook.DevicePtr())
	}
	return kernels.DevPtr[uint64]{}
}

// Grid is the grid of a launch over items in blocks of CUDABlock threads.
func (b *CUDAForest[E]) Grid(d *gpu.Dev, items int) int { return d.Grid(int64(items), CUDABlock) }

// ClearCtrl zeroes the control block.
func (b *CUDAForest[E]) ClearCtrl(d *gpu.Dev) error { return d.Memset32(b.Ctrl, 0, 0, 16) }

// ReadCtrl copies the control block to b.Host[0] (waits for the
// launches).
func (b *CUDAForest[E]) ReadCtrl(d *gpu.Dev) error { return b.Ctrl.Read(d, 0, b.Host) }

// Compress runs full pointer jumping over the parents.
func (b *CUDAForest[E]) Compress(d *gpu.Dev) error {
	return kernels.LaunchCCCompress(d, b.Grid(d, b.N), CUDABlock, b.P.Ptr(), uint32(b.N))
}

// Setup runs f, the operator's allocation and initialisation, on the
// device and records its time and any error in InitErr.
func (b *CUDAForest[E]) Setup(f func(d *gpu.Dev) error) {
	t := time.Now()
	b.InitErr = b.C.Do(f)
	b.Times.Setup += time.Since(t)
}

// Do runs one pass f on the device, counted as kernel time.
func (b *CUDAForest[E]) Do(f func(d *gpu.Dev) error) error {
	t := time.Now()
	err := b.C.Do(f)
	b.Times.Kernels += time.Since(t)
	return err
}

// DeviceTimes implements runtime.Operator.
func (b *CUDAForest[E]) DeviceTimes() *runtime.GPUTimes { return &b.Times }

// Done implements runtime.Operator.
func (b *CUDAForest[E]) Done() bool { return b.Finished || b.InitErr != nil }

// Labels returns the labels read back (Close).
func (b *CUDAForest[E]) Labels() []uint32 {
	if b.labels == nil {
		return []uint32{}
	}
	return b.labels
}

// ForestEdges returns the forest's arcs read back, ordered by hooked
// vertex (nil when no forest was asked for).
func (b *CUDAForest[E]) ForestEdges() []E {
	if !b.Forest {
		return nil
	}
	if b.fedges == nil {
		return []E{}
	}
	return b.fedges
}

// readResults copies the labels (the parent array, which every variant
// leaves holding them) and the forest's arcs, ordered by hooked vertex.
func (b *CUDAForest[E]) readResults(d *gpu.Dev) error {
	t := time.Now()
	defer func() { b.Times.Transfers += time.Since(t) }()
	b.labels = b.out()
	if err := gpu.ReadStaged(d, b.P, b.labels); err != nil {
		b.labels = nil
		return err
	}
	if !b.Forest {
		return nil
	}
	h := make([]E, b.N)
	if err := b.Hook.Read(d, 0, h); err != nil {
		return err
	}
	k := 0 // compact in place: roots hold {NoVertex, NoVertex}
	for _, e := range h {
		if struct{ U, V uint32 }(e).U != graph.NoVertex {
			h[k] = e
			k++
		}
	}
	b.fedges = slices.Clip(h[:k])
	return nil
}

// CloseForest copies the results of a finished run and frees the device
// state (free frees the operator's own); the graph stays cached in the
// backend.
func (b *CUDAForest[E]) CloseForest(free func(d *gpu.Dev)) error {
	if b.closed {
		return nil
	}
	b.closed = true
	return b.C.Do(func(d *gpu.Dev) error {
		var err error
		if b.InitErr == nil && b.Finished && b.P.Len() == b.N && !b.SkipResults {
			err = b.readResults(d)
		}
		if err == nil && b.SkipResults {
			err = d.Sync() // the timed work ends with the device's
		}
		if free != nil {
			free(d)
		}
		b.P.Free(d)
		b.Hook.Free(d)
		b.Ctrl.Free(d)
		if b.pinned {
			d.ReleaseGraph(b.G)
			b.pinned = false
		}
		return err
	})
}
