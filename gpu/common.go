package gpu

// Declarations of the cuda backend shared by both builds, so code that
// names them (the CLI's --device flag, errors.Is checks) compiles with and
// without the cuda build tag.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rs/zerolog"
)

var (
	// ErrNoCUDA is returned by New in a build without the cuda tag.
	ErrNoCUDA = errors.New("gearbox was built without the cuda tag; rebuild with -tags cuda (see README)")
	// ErrNoDriver means the CUDA driver could not be initialised.
	ErrNoDriver = errors.New("CUDA driver not available")
	// ErrNoDevice means the driver found no (such) CUDA device.
	ErrNoDevice = errors.New("no CUDA device")
	// ErrOutOfMemory means a device allocation failed.
	ErrOutOfMemory = errors.New("CUDA device out of memory")
	// ErrInsufficientMemory means a graph and algorithm need more device
	// memory than is free; nothing was allocated. The CLI's --device auto
	// falls back to the CPU on it.
	ErrInsufficientMemory = errors.New("insufficient GPU memory")
	// ErrKernels means the kernel image could not be loaded (no fatbin, no
	// code for this GPU, a kernel missing).
	ErrKernels = errors.New("CUDA kernels unavailable")
	// ErrClosed is returned by a closed cuda backend.
	ErrClosed = errors.New("cuda backend closed")
)

// CUDA driver result codes the errors map to sentinels (cuda.h's CUresult).
const (
	cuErrOutOfMemory       = 2
	cuErrNotInitialized    = 3
	cuErrDeinitialized     = 4
	cuErrStubLibrary       = 34
	cuErrInsufficientDrv   = 35
	cuErrNoDevice          = 100
	cuErrInvalidDevice     = 101
	cuErrNoBinaryForGPU    = 209
	cuErrSystemDrvMismatch = 803
	cuErrCompatNotSupport  = 804
)

// Error is a failed CUDA driver call. errors.Is matches it against
// ErrOutOfMemory, ErrNoDevice, ErrNoDriver and ErrKernels where the code
// says so.
type Error struct {
	// Op is the operation that failed ("cuMemAlloc", "launch", ...).
	Op string
	// Kernel names the kernel launched, or the last one launched before a
	// synchronising call reported an asynchronous failure.
	Kernel string
	// Code is the CUresult and Name its text.
	Code int
	Name string
}

func (e *Error) Error() string {
	s := fmt.Sprintf("cuda: %s failed: %s (CUresult %d)", e.Op, e.Name, e.Code)
	if e.Kernel != "" {
		if e.Op == "launch" {
			s += " for kernel " + e.Kernel
		} else {
			s += " after kernel " + e.Kernel
		}
	}
	return s
}

// Is maps driver codes to the package's sentinels.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrOutOfMemory:
		return e.Code == cuErrOutOfMemory
	case ErrNoDevice:
		return e.Code == cuErrNoDevice || e.Code == cuErrInvalidDevice
	case ErrNoDriver:
		switch e.Code {
		case cuErrNotInitialized, cuErrDeinitialized, cuErrStubLibrary, cuErrInsufficientDrv, cuErrSystemDrvMismatch, cuErrCompatNotSupport:
			return true
		}
	case ErrKernels:
		return e.Code == cuErrNoBinaryForGPU
	}
	return false
}

// MemoryError reports a graph and algorithm that do not fit in the GPU's
// free memory. It matches ErrInsufficientMemory.
type MemoryError struct {
	What        string // what was to be allocated
	Need        int64  // bytes needed
	Free, Total int64  // the device's free and total memory
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("%v: %s needs %s, the GPU has %s free of %s", ErrInsufficientMemory, e.What, fmtBytes(e.Need), fmtBytes(e.Free), fmtBytes(e.Total))
}

// Is matches ErrInsufficientMemory.
func (e *MemoryError) Is(target error) bool { return target == ErrInsufficientMemory }

func fmtBytes(b int64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := int64(unit), 0
	for n := b / unit; n >= unit; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGTPE"[exp])
}

// Option configures New.
type Option func(*config)

type config struct {
	device      int
	logger      zerolog.Logger
	kernels     string
	headroom    int64
	syncEach    bool
	fusedLimit  int
	localEdges  int
	stageBytes  int64
	registerMin int64
	narrowMin   int
	pageable    bool
}

func defaultConfig() config {
	return config{logger: zerolog.Nop(), headroom: 256 << 20, fusedLimit: DefaultFusedLevels, localEdges: DefaultLocalEdges,
		stageBytes: DefaultStageBytes, registerMin: DefaultRegisterMin, narrowMin: DefaultNarrowMin}
}

// WithDevice selects the GPU by ordinal (default 0).
func WithDevice(ordinal int) Option { return func(c *config) { c.device = ordinal } }

// WithLogger sets the backend's logger (default zerolog.Nop()).
func WithLogger(l zerolog.Logger) Option { return func(c *config) { c.logger = l } }

// DefaultStageBytes is WithStageBytes' default.
const DefaultStageBytes = 4 << 20

// WithStageBytes sets the size of each of the two page-locked buffers
// through which ReadStaged copies (default DefaultStageBytes; for
// measurements: BenchmarkCUDAReadStaged sweeps it). New refuses a size
// below 64 bytes.
func WithStageBytes(bytes int64) Option { return func(c *config) { c.stageBytes = bytes } }

// DefaultRegisterMin is WithRegisterMin's default.
const DefaultRegisterMin = 64 << 10

// WithRegisterMin sets the smallest reused result (in bytes) that a read
// registers for direct DMA (default DefaultRegisterMin).
func WithRegisterMin(bytes int64) Option { return func(c *config) { c.registerMin = bytes } }

// DefaultNarrowMin is WithNarrowMin's default.
const DefaultNarrowMin = 1 << 16

// WithNarrowMin sets the smallest result (in values) ReadValues narrows
// to fewer bits (default DefaultNarrowMin: below it the copy is a few
// microseconds either way; tests lower it to cross the narrow widths on
// small graphs).
func WithNarrowMin(values int) Option { return func(c *config) { c.narrowMin = values } }

// WithPageableReadback makes working sets read their control block into
// Go memory instead of page-locked memory (for measurements).
func WithPageableReadback(on bool) Option { return func(c *config) { c.pageable = on } }

// WithKernelsFile loads the kernels from a fatbin file instead of the
// embedded image (as does the environment variable GEARBOX_KERNELS).
func WithKernelsFile(path string) Option { return func(c *config) { c.kernels = path } }

// WithMemoryHeadroom sets the device memory (bytes) left free when
// deciding whether a graph and algorithm fit (default 256 MiB).
func WithMemoryHeadroom(bytes int64) Option {
	return func(c *config) {
		if bytes >= 0 {
			c.headroom = bytes
		}
	}
}

// WithSyncEachLaunch synchronises after every kernel launch so that an
// asynchronous failure names exactly the kernel that caused it (debugging;
// slower). The environment variable GEARBOX_CUDA_SYNC=1 does the same.
func WithSyncEachLaunch(on bool) Option { return func(c *config) { c.syncEach = on } }

// Flag converts b to 0 or 1: a kernel's u32 flag argument, or a bit to
// shift into a mask without a branch.
func Flag(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// DefaultFusedLevels is WithFusedLevels' default frontier limit.
const DefaultFusedLevels = 1 << 15

// PersistEdges bounds the out-edges of a frontier that a persistent launch
// expands in one level (kernels then take over) at frontier limits up to
// DefaultFusedLevels; above it the bound grows with the limit, 16 edges
// per vertex (CUDA.persistEdges).
const PersistEdges = 1 << 19

// MaxFusedLimit is the largest frontier limit WithFusedLevels and
// EnvFusedLevels accept.
const MaxFusedLimit = 1 << 30

// EnvFusedLevels names an environment variable overriding the default of
// WithFusedLevels (a number; 0 disables; for measurements).
const EnvFusedLevels = "GEARBOX_FUSED_LEVELS"

// WithFusedLevels lets BFS (push variants over a queue) and unordered SSSP
// (push over a queue) run consecutive levels inside one persistent launch
// while the frontier has at most limit vertices (at most MaxFusedLimit)
// and at most PersistEdges out-edges, or 16 per vertex of a larger limit
// (default DefaultFusedLevels; 0 disables; New refuses a limit out of
// range). The launch has one block per multiprocessor with grid-wide
// barriers between levels; a block expands its frontier's vertices of more
// than kernels.PersistGroupMaxDeg out-edges together, and the whole grid
// those of more than kernels.PersistMaxDeg. It saves each level's
// launches and host round trip, the cost that dominates high-diameter
// graphs (a 2048x2048 grid has about 3000 levels). Such a launch counts
// as one iteration in Stats (its trace record, Levels, covers several;
// Stats.GPU.Levels counts them);
// the policy is not consulted inside it, and the engine samples the
// working set after it (StepResult.Levels).
func WithFusedLevels(limit int) Option {
	return func(c *config) { c.fusedLimit = limit }
}

// DefaultLocalEdges is WithLocalLevels' default edge limit.
const DefaultLocalEdges = 1024

// EnvLocalEdges names an environment variable overriding the default of
// WithLocalLevels (a number; 0 disables; for measurements).
const EnvLocalEdges = "GEARBOX_LOCAL_EDGES"

// WithLocalLevels lets a persistent launch (WithFusedLevels) run the
// levels of a frontier of at most kernels.PersistLocalVertices vertices
// (and at most WithFusedLevels' limit) and at most edges out-edges in one
// block while the others wait, with block barriers between levels instead
// of grid-wide ones (default DefaultLocalEdges, at most
// kernels.PersistLocalMaxEdges; 0 disables; New refuses a limit out
// of range). A grid-wide level cost ~5 us on the H100 even for a single
// vertex: the global queue, the counters and the barrier are each a round
// trip to L2; a local one ~2.4 us. Small graphs and the first and last
// levels of most traversals run mostly in such local levels
// (Stats.GPU.LocalLevels counts them).
func WithLocalLevels(edges int) Option {
	return func(c *config) { c.localEdges = edges }
}

// cuNames names driver results the binding's table lacks (it predates them).
var cuNames = map[int]string{
	1: "CUDA_ERROR_INVALID_VALUE", 2: "CUDA_ERROR_OUT_OF_MEMORY", 3: "CUDA_ERROR_NOT_INITIALIZED",
	34: "CUDA_ERROR_STUB_LIBRARY", 35: "CUDA_ERROR_INSUFFICIENT_DRIVER", 100: "CUDA_ERROR_NO_DEVICE",
	101: "CUDA_ERROR_INVALID_DEVICE", 200: "CUDA_ERROR_INVALID_IMAGE", 209: "CUDA_ERROR_NO_BINARY_FOR_GPU",
	218: "CUDA_ERROR_INVALID_PTX", 222: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", 500: "CUDA_ERROR_NOT_FOUND",
	700: "CUDA_ERROR_ILLEGAL_ADDRESS", 701: "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", 702: "CUDA_ERROR_LAUNCH_TIMEOUT",
	716: "CUDA_ERROR_MISALIGNED_ADDRESS", 719: "CUDA_ERROR_LAUNCH_FAILED", 803: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
	804: "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
}

// cuResultName returns the driver's name for a result code, preferring ours
// where the binding only says "Unknown".
func cuResultName(code int, binding string) string {
	if n, ok := cuNames[code]; ok && (binding == "" || strings.HasPrefix(binding, "Unknown")) {
		return n
	}
	return binding
}
