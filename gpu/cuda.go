//go:build cuda

package gpu

// The cuda backend. A CUDA context is current per OS thread, so every
// driver call runs on one goroutine locked to its thread; other goroutines
// hand it closures (Do) and wait. The driver binding panics with cu.Result;
// Do recovers those and returns typed errors (Error, MemoryError and
// the sentinels in common.go).

import (
	"errors"
	"fmt"
	"math"
	"os"
	goruntime "runtime"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/mumax/3/cuda/cu"
	"github.com/rs/zerolog"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/kernels"
)

// CUDA is the GPU backend. It owns one CUDA context on one device, the
// loaded kernels and a cache of graphs uploaded to the device (reused across
// runs and sources until Evict or Close). Its methods are safe for
// concurrent use; device work is serialised.
//
// Device work runs on the calling goroutine, its OS thread locked and the
// context made current on it for the call (Do). An earlier design ran it on
// one goroutine that owned the context, at the price of two goroutine
// handoffs per call: 3 µs while both sides busy-waited, and ~0.2 ms for
// the first call after a few idle milliseconds on the lent H100's VM, when
// the owner's thread had gone to sleep (results/h100-2026-11-23-s13).
type CUDA struct {
	cfg      config
	mu       sync.RWMutex // closed; held for reading until exec is taken
	closed   bool
	exec     sync.Mutex // held while device work runs
	name     string
	device   string
	total    int64
	sms      int
	driver   string
	major    int
	minor    int
	kernFrom string

	d Dev // used only under exec
}

// Dev is the device-side handle passed to functions run by CUDA.Do. It is
// valid only inside that function.
type Dev struct {
	c     *CUDA
	ctx   cu.Context
	mod   cu.Module
	funcs map[string]cu.Function
	// persistBlocks: the blocks per multiprocessor of the kernels in
	// kernels.PersistBlocksPerSM that fit (residentBlocks).
	persistBlocks map[string]int
	// fault is the first error that poisoned the context (a kernel fault:
	// the driver then fails every call in it but its destruction).
	fault  *Error
	allocs map[cu.DevicePtr]int64
	live   int64
	pool   map[int64][]cu.DevicePtr // freed allocations kept for reuse, by size
	pooled int64
	// hostAllocs maps page-locked host buffers to their sizes; hostPool
	// keeps the freed ones by size for reuse, because cuMemAllocHost costs
	// about a millisecond (measured on the H100), more than a small graph's
	// whole run, and every run needs a control-block buffer.
	hostAllocs map[unsafe.Pointer]int64
	hostPool   map[int64][]unsafe.Pointer
	graphs     map[*graph.Graph]*graphEntry
	lastKernel string
	syncEach   bool
	launches   int64         // kernel launches so far
	uploadTime time.Duration // time spent uploading graphs so far
	args       []uint64
	params     []unsafe.Pointer
	streams    [2]cu.Stream         // ReadStaged's copy streams, created on first use
	regs       map[uintptr]*hostReg // Go memory registered for direct copies, by address
	tpb        int                  // thread-mapped block size (SetThreadsPerBlock; 0: default)
}

// Built reports whether this build includes the cuda backend.
func Built() bool { return true }

// New opens the GPU (WithDevice, default 0), creates a context,
// loads the kernels and prepares the host side of the first traversal's
// copies (Dev.warm). Errors match ErrNoDriver, ErrNoDevice or ErrKernels.
func New(opts ...Option) (*CUDA, error) {
	cfg := defaultConfig()
	// The persistent launches' limits: the environment sets their
	// defaults, options override them, and both must lie in range.
	limits := []struct {
		env, what string
		v         *int
		max       int
	}{
		{EnvFusedLevels, "persistent-launch frontier limit", &cfg.fusedLimit, MaxFusedLimit}, // a count is 32 bits on the device
		{EnvLocalEdges, "local-level edge limit", &cfg.localEdges, kernels.PersistLocalMaxEdges},
	}
	for _, l := range limits {
		if v := os.Getenv(l.env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("cuda: %s=%q: want a non-negative integer", l.env, v)
			}
			*l.v = n
		}
	}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	for _, l := range limits {
		if *l.v < 0 || *l.v > l.max {
			return nil, fmt.Errorf("cuda: %s %d: want 0 to %d", l.what, *l.v, l.max)
		}
	}
	if cfg.stageBytes < 64 {
		return nil, fmt.Errorf("cuda: staging buffer of %d bytes: want at least 64", cfg.stageBytes)
	}
	if os.Getenv("GEARBOX_CUDA_SYNC") == "1" {
		cfg.syncEach = true
	}

	c := &CUDA{cfg: cfg}
	c.d = Dev{c: c, funcs: map[string]cu.Function{}, allocs: map[cu.DevicePtr]int64{},
		pool: map[int64][]cu.DevicePtr{}, hostAllocs: map[unsafe.Pointer]int64{}, hostPool: map[int64][]unsafe.Pointer{},
		regs:   map[uintptr]*hostReg{},
		graphs: map[*graph.Graph]*graphEntry{}, syncEach: cfg.syncEach}
	// The context is created current on this thread; Do makes it current
	// on whichever thread runs device work later.
	goruntime.LockOSThread()
	err := c.start()
	goruntime.UnlockOSThread()
	if err != nil {
		return nil, err
	}
	cfg.logger.Info().Str("device", c.device).Int("sms", c.sms).Str("cc", fmt.Sprintf("%d.%d", c.major, c.minor)).
		Str("memory", fmtBytes(c.total)).Str("kernels", c.kernFrom).Int("pull_launch_blocks_per_sm", c.d.persistBlocks[kernels.BFSPullPersist]).
		Msg("cuda backend ready")
	return c, nil
}

// Name returns "cuda:<device name>".
func (c *CUDA) Name() string { return "cuda:" + c.device }

// Device returns the GPU's name (the thresholds' [gpu."<name>"] section).
func (c *CUDA) Device() string { return c.device }

// Multiprocessors returns the GPU's streaming multiprocessor count.
func (c *CUDA) Multiprocessors() int { return c.sms }

// Driver describes the driver for reports (bench and tune record it).
func (c *CUDA) Driver() string { return c.driver }

// driverVersion returns the driver's CUDA API version, "" when the driver
// cannot say (a report then shows n/a; it is no reason to fail).
func driverVersion() (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	v := cu.Version()
	return fmt.Sprintf("CUDA driver API %d.%d", v/1000, v%1000/10)
}

// ComputeCapability returns the GPU's compute capability.
func (c *CUDA) ComputeCapability() (major, minor int) { return c.major, c.minor }

// TotalMemory returns the GPU's memory in bytes.
func (c *CUDA) TotalMemory() int64 { return c.total }

// FusedLevels returns WithFusedLevels' limit (0: off).
func (c *CUDA) FusedLevels() int { return c.cfg.fusedLimit }

// LocalEdges returns WithLocalLevels' edge limit (0: off).
func (c *CUDA) LocalEdges() int { return c.cfg.localEdges }

// PersistEdgeLimit is the most out-edges a persistent launch expands in one
// level: PersistEdges, or 16 per vertex of a frontier limit above the
// default, at most 2^31-1 (the kernels list a level's hubs with a 32-bit
// scan of their degrees, and clamp it so).
func (c *CUDA) PersistEdgeLimit() int64 {
	return min(max(PersistEdges, int64(c.cfg.fusedLimit)*(PersistEdges/DefaultFusedLevels)), math.MaxInt32)
}

// Headroom returns the bytes left free when checking that work fits.
func (c *CUDA) Headroom() int64 { return c.cfg.headroom }

// Logger returns the backend's logger.
func (c *CUDA) Logger() zerolog.Logger { return c.cfg.logger }

func (c *CUDA) start() (err error) {
	d := &c.d
	defer d.recoverTo(&err, "initialise")
	func() {
		defer func() {
			if r := recover(); r != nil {
				if res, ok := r.(cu.Result); ok {
					ce := d.cudaError("cuInit", res)
					if errors.Is(ce, ErrNoDevice) || errors.Is(ce, ErrNoDriver) {
						err = ce
					} else {
						err = fmt.Errorf("%w: %w", ErrNoDriver, ce)
					}
					return
				}
				panic(r)
			}
		}()
		cu.Init(0)
	}()
	if err != nil {
		return err
	}
	n := cu.DeviceGetCount()
	if n == 0 {
		return fmt.Errorf("%w: the driver found no GPU", ErrNoDevice)
	}
	if c.cfg.device < 0 || c.cfg.device >= n {
		return fmt.Errorf("%w: device %d requested, %d present (0..%d)", ErrNoDevice, c.cfg.device, n, n-1)
	}
	dev := cu.DeviceGet(c.cfg.device)
	d.ctx = cu.CtxCreate(cu.CTX_SCHED_AUTO, dev)
	c.device = dev.Name()
	c.total = dev.TotalMem()
	c.sms = dev.Attribute(cu.MULTIPROCESSOR_COUNT)
	c.major, c.minor = dev.ComputeCapability()
	c.driver = driverVersion()

	var image []byte
	if c.cfg.kernels != "" {
		image, err = os.ReadFile(c.cfg.kernels)
		c.kernFrom = c.cfg.kernels
	} else {
		image, c.kernFrom, err = kernels.Image()
	}
	if err == nil && len(image) == 0 {
		err = errors.New("empty image")
	}
	if err != nil {
		d.destroy()
		return fmt.Errorf("%w: %v", ErrKernels, err)
	}
	if err := d.guard("cuModuleLoadData", func() { d.mod = cu.ModuleLoadData(string(image)) }); err != nil {
		d.destroy()
		return fmt.Errorf("%w: loading %s on %s (compute capability %d.%d): %w", ErrKernels, c.kernFrom, c.device, c.major, c.minor, err)
	}
	for _, name := range kernels.Names {
		var f cu.Function
		if err := d.guard("cuModuleGetFunction", func() { f = d.mod.GetFunction(name) }); err != nil {
			d.destroy()
			return fmt.Errorf("%w: kernel %s missing from %s (stale fatbin? run go generate ./kernels): %w", ErrKernels, name, c.kernFrom, err)
		}
		d.funcs[name] = f
	}
	d.persistBlocks = map[string]int{}
	for name, want := range kernels.PersistBlocksPerSM {
		if err := d.guard("cuFuncGetAttribute", func() { d.persistBlocks[name] = residentBlocks(dev, d.funcs[name], want) }); err != nil {
			d.destroy()
			return fmt.Errorf("%w: kernel %s: %w", ErrKernels, name, err)
		}
	}
	if err := d.warm(c.cfg.stageBytes, c.cfg.stageBytes, kernels.CtrlBytes); err != nil {
		d.destroy()
		return err
	}
	return nil
}

// warm creates the copy streams and puts page-locked buffers of the given
// sizes into the host pool: those every traversal uses, the two staging
// buffers of a result read (or one for a copy behind a launch) and a
// working set's control-block mirror.
// On the H100 the first traversal of a process otherwise paid their
// cuMemAllocHost, 3-5 ms, against 0.1 ms for the traversal itself
// (results/h100-2026-11-23-s15/). Trim releases them; the next traversal
// allocates them again.
func (d *Dev) warm(sizes ...int64) error {
	if err := d.copyStreams(); err != nil {
		return err
	}
	var ps []unsafe.Pointer
	defer func() {
		for _, p := range ps {
			d.FreeHost(p)
		}
	}()
	for _, b := range sizes {
		p, err := d.AllocHost(b)
		if err != nil {
			return err
		}
		ps = append(ps, p)
	}
	return nil
}

// residentBlocks returns how many blocks of kernels.PersistThreads threads
// of f fit on one multiprocessor of dev at once, at most want and at least
// one (a persistent kernel's __launch_bounds__ guarantee one): by its
// registers (allocated per warp in units of 256), its static shared
// memory (plus the 1 KB the driver reserves per block) and the threads.
func residentBlocks(dev cu.Device, f cu.Function, want int) int {
	const (
		maxRegsPerSM   = cu.DeviceAttribute(82) // CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR
		maxSharedPerSM = cu.DeviceAttribute(81) // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR
	)
	threads := kernels.PersistThreads
	warps := threads / 32
	regsPerWarp := (f.GetAttribute(cu.FUNC_A_NUM_REGS)*32 + 255) &^ 255
	b := min(want, dev.Attribute(cu.MAX_THREADS_PER_MULTIPROCESSOR)/threads)
	if regsPerWarp > 0 {
		b = min(b, dev.Attribute(maxRegsPerSM)/(regsPerWarp*warps))
	}
	b = min(b, dev.Attribute(maxSharedPerSM)/(f.GetAttribute(cu.FUNC_A_SHARED_SIZE_BYTES)+1024))
	return max(b, 1)
}

// Do runs f as device work and waits for it: on the calling goroutine, its
// OS thread locked and the context current for the call, one call at a
// time. A CUDA failure inside f (the binding panics) becomes an *Error;
// other panics go on up the caller's stack. f must not call Do.
func (c *CUDA) Do(f func(d *Dev) error) error {
	c.mu.RLock()
	if c.closed {
		c.mu.RUnlock()
		return ErrClosed
	}
	c.exec.Lock()
	c.mu.RUnlock()
	defer c.exec.Unlock()
	return c.run("driver call", f)
}

// run runs f with c's context current on the locked thread (exec held).
func (c *CUDA) run(op string, f func(d *Dev) error) (err error) {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	defer c.d.recoverTo(&err, op)
	cu.CtxSetCurrent(c.d.ctx)
	return f(&c.d)
}

// Close frees every device allocation (cached graphs included) and
// destroys the context, after the device work in flight. After a kernel
// fault, which the call that met it reported, the context's destruction
// alone releases them. Later calls return ErrClosed; Close itself is
// idempotent.
func (c *CUDA) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()
	// Every Do that got past the check holds exec or waits for it.
	c.exec.Lock()
	defer c.exec.Unlock()
	return c.run("close", func(d *Dev) error { return d.destroy() })
}

// MemInfo returns the device's free and total memory.
func (c *CUDA) MemInfo() (free, total int64, err error) {
	err = c.Do(func(d *Dev) error {
		free, total = cu.MemGetInfo()
		return nil
	})
	return
}

// LiveBytes returns the bytes of device memory gearbox holds: cached
// graphs, running operators and freed blocks kept for reuse (see Trim).
func (c *CUDA) LiveBytes() (n int64, err error) {
	err = c.Do(func(d *Dev) error { n = d.live; return nil })
	return
}

// Trim returns the blocks kept for reuse to the driver. Runs free their
// state into a pool so that the next run on a graph of the same size
// allocates nothing; the pool is trimmed automatically when memory runs
// short.
func (c *CUDA) Trim() error {
	return c.Do(func(d *Dev) error { return d.trim() })
}

func (d *Dev) trim() error {
	var first error
	for _, ps := range d.hostPool {
		for _, p := range ps {
			if err := d.guard("cuMemFreeHost", func() { cu.MemFreeHost(p) }); err != nil && first == nil {
				first = err
			}
			delete(d.hostAllocs, p)
		}
	}
	clear(d.hostPool)
	for b, ps := range d.pool {
		for _, p := range ps {
			if err := d.guard("cuMemFree", func() { cu.MemFree(p) }); err != nil && first == nil {
				first = err
			}
			delete(d.allocs, p)
			d.live -= b
		}
		delete(d.pool, b)
	}
	d.pooled = 0
	return first
}

// Evict drops g's cached device copy (and its transpose) unless a run is
// using it.
func (c *CUDA) Evict(g *graph.Graph) error {
	return c.Do(func(d *Dev) error {
		if e := d.graphs[g]; e != nil && e.refs == 0 {
			d.dropGraph(g, e)
		}
		return nil
	})
}

// destroy frees everything and destroys the context (under exec).
func (d *Dev) destroy() error {
	var first error
	// After a fault every free would fail with the fault's code; the
	// context's destruction releases its memory and streams instead (the
	// call that met the fault reported it).
	free := d.fault == nil
	for g, e := range d.graphs {
		e.refs = 0
		d.dropGraph(g, e)
	}
	for p := range d.allocs {
		if free {
			if err := d.guard("cuMemFree", func() { cu.MemFree(p) }); err != nil && first == nil {
				first = err
			}
		}
		d.live -= d.allocs[p]
		delete(d.allocs, p)
	}
	clear(d.pool)
	d.pooled = 0
	for p := range d.hostAllocs {
		if free {
			if err := d.guard("cuMemFreeHost", func() { cu.MemFreeHost(p) }); err != nil && first == nil {
				first = err
			}
		}
		delete(d.hostAllocs, p)
	}
	clear(d.hostPool)
	d.unregisterAll()
	for i := range d.streams {
		if d.streams[i] != 0 && free {
			if err := d.guard("cuStreamDestroy", d.streams[i].Destroy); err != nil && first == nil {
				first = err
			}
		}
	}
	if d.ctx != 0 {
		if err := d.guard("cuCtxDestroy", func() { cu.CtxDestroy(&d.ctx) }); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// cudaError converts a driver result, naming the last kernel launched, and
// notes a result that poisons the context (Dev.fault).
func (d *Dev) cudaError(op string, r cu.Result) *Error {
	e := &Error{Op: op, Kernel: d.lastKernel, Code: int(r), Name: cuResultName(int(r), r.String())}
	if stickyResults[int(r)] && d.fault == nil {
		d.fault = e
	}
	return e
}

// stickyResults are the driver results after which a context fails every
// call: a kernel's illegal address, misaligned address, illegal
// instruction, failed assertion, hardware stack error, invalid program
// counter or address space, launch failure or timeout.
var stickyResults = map[int]bool{700: true, 702: true, 710: true, 714: true, 715: true, 716: true, 717: true, 718: true, 719: true}

// guard runs f, turning a CUDA panic into an error.
func (d *Dev) guard(op string, f func()) (err error) {
	defer d.recoverTo(&err, op)
	f()
	return nil
}

func (d *Dev) recoverTo(err *error, op string) {
	if r := recover(); r != nil {
		res, ok := r.(cu.Result)
		if !ok {
			panic(r)
		}
		*err = d.cudaError(op, res)
	}
}

// Multiprocessors returns the GPU's streaming multiprocessor count.
func (d *Dev) Multiprocessors() int { return d.c.sms }

// MemInfo returns the device's free and total memory.
func (d *Dev) MemInfo() (free, total int64, err error) {
	err = d.guard("cuMemGetInfo", func() { free, total = cu.MemGetInfo() })
	return
}

// CheckFits returns a *MemoryError (matching ErrInsufficientMemory) when
// need bytes plus the headroom exceed the free device memory.
func (d *Dev) CheckFits(need int64, what string) error {
	free, total, err := d.MemInfo()
	if err != nil {
		return err
	}
	if need+d.c.cfg.headroom > free {
		return &MemoryError{What: what, Need: need, Free: free, Total: total}
	}
	return nil
}

// Sync waits for all launched work; an asynchronous kernel failure is
// returned naming the last kernel launched.
func (d *Dev) Sync() error { return d.guard("cuCtxSynchronize", cu.CtxSynchronize) }

// LaunchKernel runs kernel name on a 1-D grid (it makes *Dev a
// kernels.Launcher: launch through the typed kernels.LaunchXxx wrappers).
// args holds one 8-byte parameter slot per kernel parameter, as the
// wrappers build them.
func (d *Dev) LaunchKernel(name string, grid, block int, args []uint64) error {
	f, ok := d.funcs[name]
	if !ok {
		return fmt.Errorf("%w: kernel %s not loaded", ErrKernels, name)
	}
	if grid < 1 {
		grid = 1
	}
	if grid > math.MaxInt32 {
		grid = math.MaxInt32
	}
	d.args = append(d.args[:0], args...)
	d.params = d.params[:0]
	for i := range d.args {
		d.params = append(d.params, unsafe.Pointer(&d.args[i]))
	}
	d.lastKernel = name
	d.launches++
	if err := d.guard("launch", func() { cu.LaunchKernel(f, grid, 1, 1, block, 1, 1, 0, 0, d.params) }); err != nil {
		return err
	}
	if d.syncEach {
		return d.Sync()
	}
	return nil
}

var _ kernels.Launcher = (*Dev)(nil)

// Memset32 sets n 32-bit words from byte offset off of p to v.
func (d *Dev) Memset32(p DevicePointer, off int64, v uint32, n int64) error {
	if n == 0 {
		return nil
	}
	return d.guard("cuMemsetD32", func() { cu.MemsetD32Async(cu.DevicePtr(p.DevicePtr()+uintptr(off)), v, n, 0) })
}

// Memset8 sets n bytes from byte offset off of p to v.
func (d *Dev) Memset8(p DevicePointer, off int64, v uint8, n int64) error {
	if n == 0 {
		return nil
	}
	return d.guard("cuMemsetD8", func() { cu.MemsetD8Async(cu.DevicePtr(p.DevicePtr()+uintptr(off)), v, n, 0) })
}

// DevicePointer is anything holding a device address (DeviceSlice).
type DevicePointer interface{ DevicePtr() uintptr }

// DeviceSlice is n elements of T in device memory. The zero value is an
// empty slice with a null pointer.
type DeviceSlice[T any] struct {
	ptr uintptr
	n   int
}

// DevicePtr returns the device address of element 0.
func (s DeviceSlice[T]) DevicePtr() uintptr { return s.ptr }

// Ptr returns the device address of element 0 as a typed kernel argument
// (a null pointer for the zero value).
func (s DeviceSlice[T]) Ptr() kernels.DevPtr[T] { return kernels.PtrAt[T](s.ptr) }

// Len returns the number of elements.
func (s DeviceSlice[T]) Len() int { return s.n }

// Bytes returns the size in bytes.
func (s DeviceSlice[T]) Bytes() int64 { return int64(s.n) * elemSize[T]() }

// Head returns a view of the first n elements (clamped to [0, Len]), for
// copies of the part a kernel filled; never Free a view.
func (s DeviceSlice[T]) Head(n int) DeviceSlice[T] {
	return DeviceSlice[T]{ptr: s.ptr, n: min(max(n, 0), s.n)}
}

func elemSize[T any]() int64 {
	var z T
	return int64(unsafe.Sizeof(z))
}

// AllocSlice allocates n elements of T (contents undefined). The memory
// is tracked: Close frees whatever is left.
func AllocSlice[T any](d *Dev, n int) (DeviceSlice[T], error) {
	if n < 0 {
		return DeviceSlice[T]{}, fmt.Errorf("cuda: negative length %d", n)
	}
	bytes := int64(n) * elemSize[T]()
	if bytes == 0 {
		bytes = elemSize[T]() // a valid pointer even for an empty array
		if bytes == 0 {
			bytes = 1
		}
	}
	if ps := d.pool[bytes]; len(ps) > 0 {
		p := ps[len(ps)-1]
		d.pool[bytes] = ps[:len(ps)-1]
		d.pooled -= bytes
		return DeviceSlice[T]{ptr: uintptr(p), n: n}, nil
	}
	var p cu.DevicePtr
	err := d.guard("cuMemAlloc", func() { p = cu.MemAlloc(bytes) })
	if errors.Is(err, ErrOutOfMemory) && d.pooled > 0 {
		if err = d.trim(); err == nil {
			err = d.guard("cuMemAlloc", func() { p = cu.MemAlloc(bytes) })
		}
	}
	if err != nil {
		return DeviceSlice[T]{}, err
	}
	d.allocs[p] = bytes
	d.live += bytes
	return DeviceSlice[T]{ptr: uintptr(p), n: n}, nil
}

// UploadSlice allocates a device copy of host.
func UploadSlice[T any](d *Dev, host []T) (DeviceSlice[T], error) {
	s, err := AllocSlice[T](d, len(host))
	if err != nil {
		return s, err
	}
	if err := s.Write(d, 0, host); err != nil {
		s.Free(d)
		return DeviceSlice[T]{}, err
	}
	return s, nil
}

// Free releases the slice (a zero slice is ignored). Blocks go to a reuse
// pool of up to an eighth of the device's memory; the rest to the driver.
func (s *DeviceSlice[T]) Free(d *Dev) {
	p := cu.DevicePtr(s.ptr)
	if p == 0 {
		return
	}
	if b, ok := d.allocs[p]; ok {
		if d.pooled+b <= d.c.total/8 {
			d.pool[b] = append(d.pool[b], p)
			d.pooled += b
		} else {
			_ = d.guard("cuMemFree", func() { cu.MemFree(p) })
			d.live -= b
			delete(d.allocs, p)
		}
	}
	*s = DeviceSlice[T]{}
}

// AllocHost allocates page-locked host memory (fast device-to-host copies
// of small control blocks). Close frees what is left.
func (d *Dev) AllocHost(bytes int64) (p unsafe.Pointer, err error) {
	if free := d.hostPool[bytes]; len(free) > 0 {
		p = free[len(free)-1]
		d.hostPool[bytes] = free[:len(free)-1]
		return p, nil
	}
	err = d.guard("cuMemAllocHost", func() { p = cu.MemAllocHost(bytes) })
	if err == nil {
		d.hostAllocs[p] = bytes
	}
	return p, err
}

// FreeHost returns memory from AllocHost to the reuse pool (Trim and Close
// release it).
func (d *Dev) FreeHost(p unsafe.Pointer) {
	if bytes, ok := d.hostAllocs[p]; ok && p != nil {
		d.hostPool[bytes] = append(d.hostPool[bytes], p)
	}
}

// ReadRaw copies bytes from device address src to host memory dst (which
// must not hold Go pointers): a synchronous copy.
func (d *Dev) ReadRaw(dst unsafe.Pointer, src DevicePointer, bytes int64) error {
	return d.guard("cuMemcpyDtoH", func() { cu.MemcpyDtoH(dst, cu.DevicePtr(src.DevicePtr()), bytes) })
}

// Write copies host into the slice from element off (synchronous).
func (s DeviceSlice[T]) Write(d *Dev, off int, host []T) error {
	at, bytes, err := s.span("write of", "into", off, len(host))
	if err != nil || bytes == 0 {
		return err
	}
	return d.guard("cuMemcpyHtoD", func() { cu.MemcpyHtoD(at, unsafe.Pointer(&host[0]), bytes) })
}

// Read copies elements from off into host (synchronous: it also waits for
// every kernel launched before and reports their failures).
func (s DeviceSlice[T]) Read(d *Dev, off int, host []T) error {
	at, bytes, err := s.span("read of", "from", off, len(host))
	if err != nil || bytes == 0 {
		return err
	}
	return d.guard("cuMemcpyDtoH", func() { cu.MemcpyDtoH(unsafe.Pointer(&host[0]), at, bytes) })
}

// span returns the device address of element off and the bytes of n
// elements from there, or an error (the copy named op, prep the slice's
// side) when they do not lie in the slice; nothing to copy for n == 0.
func (s DeviceSlice[T]) span(op, prep string, off, n int) (cu.DevicePtr, int64, error) {
	if n == 0 {
		return 0, 0, nil
	}
	if off < 0 || off+n > s.n {
		return 0, 0, fmt.Errorf("cuda: %s %d elements at %d %s a slice of %d", op, n, off, prep, s.n)
	}
	es := elemSize[T]()
	return cu.DevicePtr(s.ptr + uintptr(int64(off)*es)), int64(n) * es, nil
}

// DeviceGraph is a graph's CSR on the device.
type DeviceGraph struct {
	N       int
	M       int64
	Off     DeviceSlice[int64]
	Adj     DeviceSlice[uint32]
	W       DeviceSlice[uint32] // empty (null) for unweighted graphs
	Weights graph.WeightKind
	// MaxWeight is the largest arc weight (1 for unweighted graphs): SSSP
	// uses 32-bit distances when (N-1)*MaxWeight stays below 2^32-1.
	MaxWeight uint32
}

// Bytes returns the device memory the CSR takes.
func (g *DeviceGraph) Bytes() int64 { return g.Off.Bytes() + g.Adj.Bytes() + g.W.Bytes() }

type graphEntry struct {
	g, t *DeviceGraph        // t: transpose, uploaded on demand (nil when undirected: g serves)
	src  DeviceSlice[uint32] // the arcs' sources (AcquireSources), made on demand
	refs int
	used time.Time
	// bits is the width of the last result per operator (ResultBits).
	bits map[string]int
}

// ResultBits returns the width (hostmem.Values) of the last result that
// the operator named key copied for g while g stayed on the device, or 0.
// Operators prepare the next run's host memory at that width: runs on one
// graph, from several sources, mostly need the same.
func (d *Dev) ResultBits(g *graph.Graph, key string) int {
	if e := d.graphs[g]; e != nil {
		return e.bits[key]
	}
	return 0
}

// NoteResultBits records the width of a result for ResultBits.
func (d *Dev) NoteResultBits(g *graph.Graph, key string, bits int) {
	if e := d.graphs[g]; e != nil {
		if e.bits == nil {
			e.bits = map[string]int{}
		}
		e.bits[key] = bits
	}
}

// GraphBytes returns the device memory a graph's CSR takes.
func GraphBytes(g *graph.Graph) int64 {
	b := 8 * int64(g.NumVertices()+1)
	b += 4 * g.NumEdges()
	if g.Weights() != nil {
		b += 4 * g.NumEdges()
	}
	return b
}

// AcquireGraph returns g's device CSR, uploading it on first use, and pins
// it until ReleaseGraph. extra is the memory the caller will allocate
// besides the graph: when graph and extra do not fit, unpinned cached
// graphs are evicted, and if that is not enough a *MemoryError reports the
// numbers before anything is allocated.
func (d *Dev) AcquireGraph(g *graph.Graph, extra int64) (*DeviceGraph, error) {
	e := d.graphs[g]
	need := extra
	if e == nil {
		need += GraphBytes(g)
	}
	if err := d.makeRoom(need, g, fmt.Sprintf("a graph of %d vertices and %d arcs (%s) plus %s of working state", g.NumVertices(), g.NumEdges(), fmtBytes(GraphBytes(g)), fmtBytes(extra))); err != nil {
		return nil, err
	}
	if e == nil {
		dg, err := d.upload(g)
		if err != nil {
			return nil, err
		}
		e = &graphEntry{g: dg}
		d.graphs[g] = e
	}
	e.refs++
	e.used = time.Now()
	return e.g, nil
}

// AcquireTranspose returns the device CSR of g's in-edges (g itself when
// undirected), uploading it on first use; g must be acquired.
func (d *Dev) AcquireTranspose(g *graph.Graph) (*DeviceGraph, error) {
	e := d.graphs[g]
	if e == nil {
		return nil, errors.New("cuda: transpose of a graph not acquired")
	}
	if !g.Directed() {
		return e.g, nil
	}
	if e.t == nil {
		t := g.Transpose()
		if err := d.makeRoom(GraphBytes(t), g, "the transposed graph for pull"); err != nil {
			return nil, err
		}
		dt, err := d.upload(t)
		if err != nil {
			return nil, err
		}
		e.t = dt
	}
	return e.t, nil
}

// AcquireSources returns the source vertex of every arc of g (the COO row
// array edge-centric kernels read beside the CSR), made on the device on
// first use and kept with the graph, so repeated runs do not rebuild it;
// g must be acquired. Never Free it: it goes with the graph.
func (d *Dev) AcquireSources(g *graph.Graph) (DeviceSlice[uint32], error) {
	e := d.graphs[g]
	if e == nil {
		return DeviceSlice[uint32]{}, errors.New("cuda: sources of a graph not acquired")
	}
	if e.src.ptr == 0 {
		m := g.NumEdges()
		if err := d.makeRoom(4*m, g, "the arcs' sources"); err != nil {
			return DeviceSlice[uint32]{}, err
		}
		s, err := AllocSlice[uint32](d, int(m))
		if err != nil {
			return DeviceSlice[uint32]{}, err
		}
		if m > 0 {
			const block = 256
			if err := kernels.LaunchCCFillSrc(d, d.Grid((m+63)/64, block), block, e.g.Off.Ptr(), uint32(g.NumVertices()), uint64(m), s.Ptr()); err != nil {
				s.Free(d)
				return DeviceSlice[uint32]{}, err
			}
		}
		e.src = s
	}
	return e.src, nil
}

// TransposeBytes returns what AcquireTranspose would allocate now.
func (d *Dev) TransposeBytes(g *graph.Graph) int64 {
	if !g.Directed() {
		return 0
	}
	if e := d.graphs[g]; e != nil && e.t != nil {
		return 0
	}
	return 8*int64(g.NumVertices()+1) + 4*g.NumEdges()
}

// ReleaseGraph unpins a graph; it stays cached.
func (d *Dev) ReleaseGraph(g *graph.Graph) {
	if e := d.graphs[g]; e != nil && e.refs > 0 {
		e.refs--
	}
}

func (d *Dev) makeRoom(need int64, keep *graph.Graph, what string) error {
	err := d.CheckFits(need, what)
	if err == nil || !errors.Is(err, ErrInsufficientMemory) {
		return err
	}
	if err := d.trim(); err != nil {
		return err
	}
	if err := d.CheckFits(need, what); err == nil {
		return nil
	}
	for g, e := range d.graphs {
		if g != keep && e.refs == 0 {
			d.dropGraph(g, e)
		}
	}
	return d.CheckFits(need, what)
}

func (d *Dev) dropGraph(g *graph.Graph, e *graphEntry) {
	e.src.Free(d)
	for _, dg := range []*DeviceGraph{e.g, e.t} {
		if dg != nil {
			dg.Off.Free(d)
			dg.Adj.Free(d)
			dg.W.Free(d)
		}
	}
	delete(d.graphs, g)
}

// Launches returns the number of kernels launched on the device so far.
func (d *Dev) Launches() int64 { return d.launches }

// UploadTime returns the time spent uploading graphs so far (operators
// report the difference across their set-up as runtime.GPUTimes.Upload).
func (d *Dev) UploadTime() time.Duration { return d.uploadTime }

func (d *Dev) upload(g *graph.Graph) (*DeviceGraph, error) {
	t0 := time.Now()
	defer func() { d.uploadTime += time.Since(t0) }()
	dg := &DeviceGraph{N: g.NumVertices(), M: g.NumEdges(), Weights: g.WeightKind(), MaxWeight: g.MaxWeight()}
	var err error
	if dg.Off, err = UploadSlice(d, g.Offsets()); err != nil {
		return nil, err
	}
	if dg.Adj, err = UploadSlice(d, g.Adj()); err != nil {
		dg.Off.Free(d)
		return nil, err
	}
	if w := g.Weights(); w != nil {
		if dg.W, err = UploadSlice(d, w); err != nil {
			dg.Off.Free(d)
			dg.Adj.Free(d)
			return nil, err
		}
	}
	return dg, nil
}
