//go:build cuda

package workset

import (
	"fmt"
	"github.com/gearbox-graph/gearbox/gpu"
	"math"
	"time"
	"unsafe"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/kernels"
)

// cudaCtrl is the control block, struct Ctrl in kernels/common.cuh
// (the generated mirror kernels.Ctrl, kernels.CtrlBytes long).
type cudaCtrl = kernels.Ctrl

// The control block is kernels.CtrlBytes long: gpu.New pools a
// page-locked buffer of that size for its mirror.
var _ [0]struct{} = [unsafe.Sizeof(cudaCtrl{}) - kernels.CtrlBytes]struct{}{}

// Select says which updated vertices a generation keeps. Select{Mode:
// kernels.SelectAll} keeps them all (BFS); an operator that orders its
// work (SSSP) supplies its own rule: the kernels that bound the selection
// before the generation kernel runs (Prepare), and the generation
// kernel's selection variant and arguments.
type Select struct {
	// Mode is the generation kernel's selection (kernels.GenOf):
	// kernels.SelectAll, SelectMin or SelectDelta.
	Mode string
	// D32 says Dist holds uint32 values (else uint64).
	D32 bool
	// Dist is the per-vertex array the selection compares, of uint32
	// values when D32, else uint64 (null for SelectAll).
	Dist kernels.VoidPtr
	// Delta is SelectDelta's bucket width (> 0).
	Delta uint64
	// Prepare, when set, launches the kernels that leave the selection's
	// bound in the control block before the generation kernel (SSSP:
	// the smallest pending distance, the end of a work-targeted bucket).
	// It gets the generation's grid and block, the update vector, the
	// vertex count, the graph's offsets and the control block.
	Prepare func(d *gpu.Dev, grid, block int, upd kernels.DevPtr[uint8], n uint32, off kernels.DevPtr[int64], ctrl kernels.DevPtr[kernels.Ctrl]) error
}

// CUDA is the device state every vertex-centric GPU operator shares:
// the update vector, three working-set buffers (current, next and the
// current set's other representation, each large enough for a queue of n
// ids or a bitmap of n bits) and the control block
// through which kernels report the working set's size and degree, and the
// piece list of push expansions (kernels/expand.cuh). Methods run inside
// gpu.CUDA.Do.
type CUDA struct {
	n      int
	rep    decider.Rep
	upd    gpu.DeviceSlice[uint8]
	ws     [3]gpu.DeviceSlice[uint32]
	pieces gpu.DeviceSlice[uint64]
	// maxDeg is the current working set's largest out-degree
	// (math.MaxInt64 when unknown).
	maxDeg int64
	// cur, scr and alt index ws: the current working set, the next one's
	// buffer, and the current set in the other representation, valid when
	// altOK (a dual generation wrote it).
	cur, scr, alt int
	altOK         bool
	dualFrom      int64 // see SetDualFrom
	par           uint32
	ctrl          gpu.DeviceSlice[cudaCtrl]
	host          [1]cudaCtrl
	pin           unsafe.Pointer // page-locked mirror of ctrl for the per-iteration read

	size, degree int64
	edgesOut     int64
	// Times accumulates the working set's share of the run's time and
	// counts (operators add them to runtime.GPUTimes).
	Times CUDATimes
	exact bool
	// pulled is the levels the last persistent launch pulled.
	pulled int
	t0     time.Time // start of the current iteration (Begin)
	l0     int64     // launches at Begin
	// QueueOut is the queue generation kernel: kernels.OutQueueWarp
	// (default) or OutQueueAtomic.
	QueueOut string
}

// CUDATimes is what a CUDA working set measured and counted: the host
// clock's kernel and transfer time, kernel launches, and the levels run
// inside persistent launches (and those of them one block ran alone).
type CUDATimes struct {
	Kernels, Transfers  time.Duration
	Launches            int64
	Levels, LocalLevels int64
}

// CUDABytes returns the device memory NewCUDA allocates.
func CUDABytes(n int, m int64) int64 {
	return int64(updBytes(n)) + 3*4*int64(max(n, 1)) + 64 + 8*maxPieces(m)
}

// maxPieces bounds the piece list of one push step over a graph of m arcs:
// a working set holds a vertex at most once, and a vertex of d >
// kernels.HeavyThread out-edges makes ceil(d/PieceEdges) <= d/PieceEdges +
// d/HeavyThread pieces.
func maxPieces(m int64) int64 {
	return m/kernels.PieceEdges + m/kernels.HeavyThread + 1
}

// updBytes is the update vector's size: n flags padded with zeros to a
// multiple of 16 bytes (the kernels read four flags per 32-bit load).
func updBytes(n int) int { return (n + 15) &^ 15 }

// NewCUDA allocates the state for n vertices and m arcs with an empty
// update vector.
func NewCUDA(d *gpu.Dev, n int, m int64) (*CUDA, error) {
	if int64(n) > math.MaxUint32 {
		return nil, fmt.Errorf("cuda: %d vertices exceeds the limit %d", n, uint32(math.MaxUint32))
	}
	w := &CUDA{n: n, QueueOut: kernels.OutQueueWarp, maxDeg: math.MaxInt64, scr: 1, alt: 2, dualFrom: math.MaxInt64}
	var err error
	if w.upd, err = gpu.AllocSlice[uint8](d, max(updBytes(n), 16)); err == nil {
		for i := range w.ws {
			if w.ws[i], err = gpu.AllocSlice[uint32](d, max(n, 1)); err != nil {
				break
			}
		}
		if err == nil {
			if w.pieces, err = gpu.AllocSlice[uint64](d, int(maxPieces(m))); err == nil {
				w.ctrl, err = gpu.AllocSlice[cudaCtrl](d, 1)
			}
		}
	}
	if err == nil {
		err = d.Memset8(w.upd, 0, 0, int64(w.upd.Len()))
	}
	if err == nil && !d.PageableReadback() {
		w.pin, err = d.AllocHost(int64(unsafe.Sizeof(cudaCtrl{})))
	}
	if err != nil {
		w.Free(d)
		return nil, err
	}
	return w, nil
}

// Free releases the device memory.
func (w *CUDA) Free(d *gpu.Dev) {
	w.upd.Free(d)
	for i := range w.ws {
		w.ws[i].Free(d)
	}
	w.pieces.Free(d)
	w.ctrl.Free(d)
	d.FreeHost(w.pin)
	w.pin = nil
}

// SetExact makes every control-block read synchronise first, so that
// Times.Kernels and Times.Transfers are measured apart (one extra
// synchronisation per iteration; Run asks for it when tracing).
func (w *CUDA) SetExact(on bool) { w.exact = on }

// SetDualFrom makes generations write the working set in both
// representations (kernels.OutDual), so that a later Convert only swaps
// buffers: a bitmap's generations (its queue kept up to DualQueueCap(n)
// elements), and a queue's where the current working set's summed
// out-degree is at least degree (decider.DualFrom). math.MaxInt64: never.
func (w *CUDA) SetDualFrom(degree int64) { w.dualFrom = degree }

// DualQueueCap is the largest working set whose queue a dual generation
// in bitmap form keeps: n/4 covers the sizes at which the adaptive policy
// leaves a bitmap (T3 x n and n / beta: T3 <= 0.25, beta >= 4), while the
// queue's stores stay within a quarter of the update vector's reads.
func DualQueueCap(n int) uint32 { return uint32(max(n/4, 1)) }

// Begin marks the start of an iteration's device work: the time until the
// next control-block read counts as kernel time.
func (w *CUDA) Begin(d *gpu.Dev) { w.t0, w.l0 = time.Now(), d.Launches() }

// Transfer runs a host<->device copy, timed under Times.Transfers.
func (w *CUDA) Transfer(f func() error) error {
	t := time.Now()
	err := f()
	w.Times.Transfers += time.Since(t)
	return err
}

// readCtrl copies the control block to w.host, closing the iteration's
// kernel time (see Begin and SetExact).
func (w *CUDA) readCtrl(d *gpu.Dev) error {
	if w.t0.IsZero() {
		return w.readCtrlRaw(d)
	}
	t0 := w.t0
	w.t0 = time.Time{}
	w.Times.Launches += d.Launches() - w.l0
	if !w.exact {
		// The read waits for the kernels: all of it counts as kernel time.
		err := w.readCtrlRaw(d)
		w.Times.Kernels += time.Since(t0)
		return err
	}
	if err := d.Sync(); err != nil {
		return err
	}
	t := time.Now()
	w.Times.Kernels += t.Sub(t0)
	err := w.readCtrlRaw(d)
	w.Times.Transfers += time.Since(t)
	return err
}

func (w *CUDA) readCtrlRaw(d *gpu.Dev) error {
	if w.pin == nil {
		return w.ctrl.Read(d, 0, w.host[:])
	}
	if err := d.ReadRaw(w.pin, w.ctrl, int64(unsafe.Sizeof(cudaCtrl{}))); err != nil {
		return err
	}
	w.host[0] = *(*cudaCtrl)(w.pin)
	return nil
}

// Rep returns the current working set's representation.
func (w *CUDA) Rep() decider.Rep { return w.rep }

// Size returns the current working set's size.
func (w *CUDA) Size() int64 { return w.size }

// Degree returns the current working set's summed out-degree.
func (w *CUDA) Degree() int64 { return w.degree }

// EdgesOut returns the edge count the last step reported (pull steps and
// fused launches count the edges they examine).
func (w *CUDA) EdgesOut() int64 { return w.edgesOut }

// Update returns the update vector (one byte per vertex).
func (w *CUDA) Update() gpu.DeviceSlice[uint8] { return w.upd }

// Current returns the buffer holding the current working set.
func (w *CUDA) Current() gpu.DeviceSlice[uint32] { return w.ws[w.cur] }

// Scratch returns the buffer the next working set is built in.
func (w *CUDA) Scratch() gpu.DeviceSlice[uint32] { return w.ws[w.scr] }

// Spare returns the buffer that holds the current working set's other
// representation after a dual generation, for a persistent launch's own
// use (AfterFused drops that representation).
func (w *CUDA) Spare() gpu.DeviceSlice[uint32] { return w.ws[w.alt] }

// swap makes the scratch buffer current (and the current one scratch).
func (w *CUDA) swap() { w.cur, w.scr = w.scr, w.cur }

// Ctrl returns the control block to pass to kernels.
func (w *CUDA) Ctrl() kernels.DevPtr[kernels.Ctrl] { return w.ctrl.Ptr() }

// Parity returns the control block slot of the current working set.
func (w *CUDA) Parity() uint32 { return w.par }

func (w *CUDA) words() int { return (w.n + 31) / 32 }

// StartSingle makes {v} (out-degree deg) the working set, in representation
// rep.
func (w *CUDA) StartSingle(d *gpu.Dev, v uint32, deg int64, rep decider.Rep) error {
	w.cur, w.scr, w.alt, w.par, w.rep, w.altOK = 0, 1, 2, 0, rep, false
	if int64(v) >= int64(w.n) { // the memsets below are not bounds-checked
		return fmt.Errorf("cuda: start vertex %d of %d", v, w.n)
	}
	// Single words are set with asynchronous memsets and the control block
	// is sent from page-locked memory: no host synchronisation. Three
	// synchronous copies from Go memory cost ~15 us of a 0.25 ms call
	// (wiki-Vote BFS on the H100: transfers 30 against 16 us).
	if rep == decider.Queue {
		if err := d.Memset32(w.ws[0], 0, v, 1); err != nil {
			return err
		}
	} else {
		if err := d.Memset32(w.ws[0], 0, 0, int64(w.words())); err != nil {
			return err
		}
		if err := d.Memset32(w.ws[0], 4*int64(v/32), 1<<(v%32), 1); err != nil {
			return err
		}
	}
	w.host[0] = cudaCtrl{MinV: math.MaxUint64}
	w.host[0].Count[0] = 1
	w.host[0].Deg[0] = uint64(deg)
	w.size, w.degree, w.edgesOut, w.maxDeg = 1, deg, 0, deg
	if w.pin == nil {
		return w.ctrl.Write(d, 0, w.host[:])
	}
	// The control-block reads that follow use the same page-locked buffer;
	// they run on the same stream, after this copy has read it.
	*(*cudaCtrl)(w.pin) = w.host[0]
	return d.WriteRawAsync(w.ctrl, w.pin, int64(unsafe.Sizeof(cudaCtrl{})))
}

const genBlock = 256

// Generate builds the next working set in representation rep from the
// update vector, keeping the vertices sel selects (after the iteration's computation kernel was launched),
// reads the control block back (the iteration's one host round trip) and
// makes the new working set current. off is the graph's offsets, for the
// degree sum.
func (w *CUDA) Generate(d *gpu.Dev, off kernels.DevPtr[int64], rep decider.Rep, sel Select) error {
	n := uint32(w.n)
	grid := d.Grid(int64(w.n), genBlock)
	mode := sel.Mode
	var dist kernels.VoidPtr
	if mode != kernels.SelectAll {
		dist = sel.Dist
		if mode == kernels.SelectDelta && sel.Delta == 0 {
			return fmt.Errorf("cuda: delta-stepping with delta 0")
		}
	}
	if sel.Prepare != nil {
		if err := sel.Prepare(d, grid, genBlock, w.upd.Ptr(), n, off, w.ctrl.Ptr()); err != nil {
			return err
		}
	}
	out := kernels.OutBitmap
	if rep == decider.Queue {
		out = w.QueueOut
	}
	dual := w.dualFrom < math.MaxInt64 && (rep == decider.Bitmap || w.degree >= w.dualFrom)
	var qcap uint32 // dual: the queue's capacity
	var err error
	if dual {
		// The bitmap goes to out, the queue (below cap) to alt.
		bm, qu := w.ws[w.scr], w.ws[w.alt]
		qcap = DualQueueCap(w.n)
		if rep == decider.Queue {
			bm, qu, qcap = w.ws[w.alt], w.ws[w.scr], n
		}
		err = kernels.LaunchWSGenDual(d, kernels.GenDualOf(mode, sel.D32), grid, genBlock,
			w.upd.Ptr(), n, dist, off, sel.Delta, bm.Ptr(), w.ctrl.Ptr(), w.par, qu.Ptr(), qcap)
	} else {
		err = kernels.LaunchWSGen(d, kernels.GenOf(out, mode, sel.D32), grid, genBlock,
			w.upd.Ptr(), n, dist, off, sel.Delta, w.ws[w.scr].Ptr(), w.ctrl.Ptr(), w.par)
	}
	if err != nil {
		return err
	}
	w.swap()
	w.par, w.rep = w.par^1, rep
	if err := w.readBack(d); err != nil {
		return err
	}
	w.altOK = dual && (rep == decider.Queue || w.size <= int64(qcap))
	return nil
}

func (w *CUDA) readBack(d *gpu.Dev) error {
	if err := w.readCtrl(d); err != nil {
		return err
	}
	h := &w.host[0]
	w.size, w.degree, w.edgesOut = int64(h.Count[w.par]), int64(h.Deg[w.par]), int64(h.EdgesOut)
	w.setMaxDeg(h.MaxDeg)
	return nil
}

// setMaxDeg records a kernel's report of the largest out-degree
// (math.MaxUint32: unknown or at least that).
func (w *CUDA) setMaxDeg(md uint32) {
	w.maxDeg = int64(md)
	if md == math.MaxUint32 {
		w.maxDeg = math.MaxInt64
	}
}

// AfterFused adopts the frontier a persistent multi-level launch left (it
// reads the control block back) and returns the number of levels it ran.
func (w *CUDA) AfterFused(d *gpu.Dev) (levels int, err error) {
	if err := w.readCtrl(d); err != nil {
		return 0, err
	}
	h := &w.host[0]
	if h.FusedSwap == 1 {
		w.swap()
	}
	w.par ^= 1
	w.altOK = false
	w.size, w.degree, w.edgesOut = int64(h.Count[w.par]), int64(h.Deg[w.par]), int64(h.EdgesOut)
	w.setMaxDeg(h.MaxDeg)
	w.Times.Levels += int64(h.FusedLevels)
	w.Times.LocalLevels += int64(h.LocalLevels)
	w.pulled = int(h.PullLevels)
	w.rep = decider.Queue // the frontier a launch leaves is a queue
	return int(h.FusedLevels), nil
}

// Pulled returns the levels the last persistent launch pulled
// (AfterFused).
func (w *CUDA) Pulled() int { return w.pulled }

// Has reports whether rep is current or a swap away (Swap).
func (w *CUDA) Has(rep decider.Rep) bool { return rep == w.rep || w.altOK }

// Swap makes rep current without a kernel where a dual generation left the
// working set in both representations, and reports whether it did. It
// touches no device state, so it may run outside CUDA.Do while
// no device work of this workset is in flight.
func (w *CUDA) Swap(rep decider.Rep) bool {
	if rep == w.rep || !w.altOK {
		return rep == w.rep
	}
	w.cur, w.alt, w.rep = w.alt, w.cur, rep
	return true
}

// Convert changes the current working set's representation.
func (w *CUDA) Convert(d *gpu.Dev, rep decider.Rep) error {
	if rep == w.rep {
		return nil
	}
	if w.Swap(rep) {
		return nil
	}
	dst := w.ws[w.scr]
	if rep == decider.Queue {
		// The kernel recounts into count[par]: the same size.
		if err := d.Memset32(w.ctrl, int64(4*w.par), 0, 1); err != nil {
			return err
		}
		words := w.words()
		if err := kernels.LaunchWSBmToQu(d, d.Grid(int64(words), genBlock), genBlock, w.ws[w.cur].Ptr(), uint32(words), dst.Ptr(), w.ctrl.Ptr(), w.par); err != nil {
			return err
		}
	} else {
		if err := d.Memset32(dst, 0, 0, int64(w.words())); err != nil {
			return err
		}
		if err := kernels.LaunchWSQuToBm(d, d.Grid(w.size, genBlock), genBlock, w.ws[w.cur].Ptr(), w.ctrl.Ptr(), w.par, dst.Ptr()); err != nil {
			return err
		}
	}
	w.swap()
	w.rep = rep
	if w.exact {
		// Timed apart, the conversion's kernels count as conversion, not
		// as the next iteration's kernels.
		return d.Sync()
	}
	return nil
}

// PushArgs is what Push hands its launch callbacks: the grid and block
// size, and the trailing arguments of a push kernel (the working set, n,
// the control block, its parity and the piece list) or of a pieces kernel
// (the piece list and the control block; WS, N and Par are unset).
type PushArgs struct {
	Grid, Block int
	WS          kernels.DevPtr[uint32]
	N           uint32
	Ctrl        kernels.DevPtr[kernels.Ctrl]
	Par         uint32
	Pieces      kernels.DevPtr[uint64]
}

// Push launches a push computation kernel over the current working set
// (thread mapping, or block mapping with blocks of block threads), then,
// unless the working set's largest out-degree is known to be below the
// mapping's threshold, the pieces kernel that expands its heavy vertices
// (kernels/expand.cuh). push and pieces launch them with the operator's
// leading arguments (graph and per-vertex arrays) followed by PushArgs':
// the push kernel takes (working set, n, ctrl, parity, pieces), the pieces
// kernel (pieces, ctrl).
func (w *CUDA) Push(d *gpu.Dev, blockMapped bool, block int, push, pieces func(PushArgs) error) error {
	n := uint32(w.n)
	bitmap := w.rep == decider.Bitmap
	var grid, bs int
	heavy := int64(kernels.HeavyThread)
	switch {
	case blockMapped:
		items := w.size
		if bitmap {
			items = int64(w.words())
		}
		bs, grid, heavy = block, d.BlockGrid(items, block), kernels.HeavyBlock
	case bitmap:
		bs = d.ThreadsPerBlock()
		grid = d.Grid(int64(n), bs)
	default:
		bs = d.ThreadsPerBlock()
		grid = d.Grid(w.size, bs)
	}
	if err := push(PushArgs{Grid: grid, Block: bs, WS: w.ws[w.cur].Ptr(), N: n, Ctrl: w.ctrl.Ptr(), Par: w.par,
		Pieces: w.pieces.Ptr()}); err != nil {
		return err
	}
	if w.maxDeg <= heavy {
		return nil
	}
	// At most degree/HeavyThread heavy vertices, each of at most
	// degree/PieceEdges+1 pieces; one warp per piece.
	warps := min(w.degree/kernels.PieceEdges+w.degree/heavy+1, int64(w.pieces.Len()))
	return pieces(PushArgs{Grid: d.Grid(32*warps, 256), Block: 256, Ctrl: w.ctrl.Ptr(), Pieces: w.pieces.Ptr()})
}
