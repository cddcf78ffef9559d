package apsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/rs/zerolog"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Unreachable is the distance of a pair with no path.
const Unreachable = math.MaxUint32

// MaxDistance bounds every finite distance: FW adds two of them in 32 bits,
// so the sum of two finite values must not reach inf.
const MaxDistance = inf - 1

// inf is the internal "no path" of the matrix: twice it still fits a
// uint32 (and an int32, for the GPU's signed add-min instructions).
const inf = 0x3FFFFFFF

// Method is one way of computing all pairs.
type Method string

// The methods.
const (
	Auto    Method = "auto"
	FW      Method = "fw"
	Sources Method = "sources"
)

// Methods lists the methods a caller can force.
func Methods() []Method { return []Method{Auto, FW, Sources} }

// ParseMethod checks a method name.
func ParseMethod(s string) (Method, error) {
	for _, m := range Methods() {
		if Method(s) == m {
			return m, nil
		}
	}
	return "", fmt.Errorf("%w: %q (valid: auto, fw, sources)", ErrMethod, s)
}

// Errors wrapped by Run.
var (
	ErrMethod      = errors.New("unknown apsp method")
	ErrRealWeights = errors.New("apsp needs integer weights")
	ErrTooLarge    = errors.New("apsp result does not fit")
	ErrOverflow    = errors.New("apsp distances may exceed 32 bits")
)

// RowFunc receives the distances from src to every vertex (internal ids),
// Unreachable where there is no path. dist is reused after the call
// returns: copy what you keep. Rows arrive in increasing src order. An
// error stops the run and is returned by Run.
type RowFunc func(src uint32, dist []uint32) error

// Option configures a run.
type Option func(*config)

type config struct {
	method  Method
	backend runtime.Backend
	logger  zerolog.Logger
	limit   int64 // bytes the FW matrix may take (0: DefaultMemoryLimit)
	// limitSet: the caller set the limit; on the GPU the device's memory
	// is the bound otherwise.
	limitSet bool
	block    int
	// oneByOne and batched force the unweighted sources method's rows
	// (default: batchPays decides).
	oneByOne, batched bool
}

// gpuRun runs apsp on a GPU backend (apsp_cuda.go, build tag cuda); ok is
// false when the backend is not one it knows.
var gpuRun func(ctx context.Context, g *graph.Graph, rows RowFunc, c *config) (res *Result, ok bool, err error)

// WithOneByOne makes the sources method run one search per source on
// unweighted graphs too, instead of batches of 64 sources per traversal
// (bfs.RunBatch): for comparisons.
func WithOneByOne() Option { return func(c *config) { c.oneByOne, c.batched = true, false } }

// WithBatched makes the sources method run batches of 64 sources per
// traversal on unweighted graphs whatever their diameter: for
// comparisons.
func WithBatched() Option { return func(c *config) { c.oneByOne, c.batched = false, true } }

// WithMethod forces a method (default Auto).
func WithMethod(m Method) Option { return func(c *config) { c.method = m } }

// WithBackend sets the backend (default: the CPU with GOMAXPROCS workers).
func WithBackend(b runtime.Backend) Option { return func(c *config) { c.backend = b } }

// WithWorkers is shorthand for WithBackend(runtime.NewCPU(n)).
func WithWorkers(n int) Option { return WithBackend(runtime.NewCPU(n)) }

// WithLogger sets the logger (default zerolog.Nop()).
func WithLogger(l zerolog.Logger) Option { return func(c *config) { c.logger = l } }

// WithMemoryLimit bounds the bytes FW's in-memory matrix may take; Auto
// falls back to Sources above it and a forced FW is refused. On the GPU
// the device's memory bounds the matrix, and this limit as well when set.
func WithMemoryLimit(bytes int64) Option { return func(c *config) { c.limit = bytes } }

// DefaultMemoryLimit is the FW matrix bound without WithMemoryLimit.
const DefaultMemoryLimit = 4 << 30

// Result describes a finished run (the distances went to the RowFunc).
type Result struct {
	Method Method
	// Reason says why Auto chose Method (or that it was forced).
	Reason string
	// Vertices is n; the run produced n rows of n distances.
	Vertices int
	// HopCounts is set when the graph was unweighted (unit weights).
	HopCounts bool
	// Wall is the run's time, rows' callbacks included.
	Wall time.Duration
	// Backend names where it ran.
	Backend string
	// The GPU's share of Wall (zero on the CPU): Kernel is the
	// Floyd-Warshall rounds alone (launch to synchronisation, the number
	// to set beside other implementations' compute times), Setup the
	// device matrix's allocation and initialisation (and the graph's upload
	// when it was not on the device yet), Transfer the copies of the rows
	// to the host.
	Kernel, Setup, Transfer time.Duration
	// Rounds is the number of FW launches on the GPU (tiles a side + 1).
	Rounds int
	// Bits is the width of a distance in the GPU's matrix: 16 when every
	// distance is below MaxDistance16 (half the memory and instructions),
	// else 32; 0 on the CPU.
	Bits int
}

// Run computes every pair's distance and hands the rows to rows. The
// graph must be unweighted (hop counts) or have integer weights.
func Run(ctx context.Context, g *graph.Graph, rows RowFunc, opts ...Option) (*Result, error) {
	if err := runtime.CheckArgs("apsp", ctx, g); err != nil {
		return nil, err
	}
	if rows == nil {
		return nil, errors.New("apsp: nil RowFunc")
	}
	c := &config{method: Auto, logger: zerolog.Nop(), block: 64}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.backend == nil {
		c.backend = runtime.NewCPU(0)
	}
	c.limitSet = c.limit > 0
	if c.limit <= 0 {
		c.limit = DefaultMemoryLimit
	}
	if _, err := ParseMethod(string(c.method)); err != nil {
		return nil, fmt.Errorf("apsp: %w", err)
	}
	cpu, ok := c.backend.(*runtime.CPU)
	if !ok {
		if gpuRun != nil {
			if res, ok, err := gpuRun(ctx, g, rows, c); ok {
				return res, err
			}
		}
		return nil, fmt.Errorf("apsp: backend %s: %w", c.backend.Name(), runtime.ErrUnsupported)
	}
	if err := checkWeights(g); err != nil {
		return nil, err
	}
	n := g.NumVertices()
	res := &Result{Vertices: n, HopCounts: g.WeightKind() == graph.Unweighted, Backend: cpu.Name()}
	m, why, err := choose(g, c.method, c.limit, cpu.Workers())
	if err != nil {
		return nil, err
	}
	res.Method, res.Reason = m, why
	t0 := time.Now()
	if n > 0 {
		switch m {
		case FW:
			err = runFW(ctx, g, cpu, c.block, rows)
		default:
			batch := false
			if g.WeightKind() != graph.IntWeights && !c.oneByOne {
				var why string
				batch, why = batchPays(g)
				if c.batched {
					batch, why = true, "rows by batched BFS (forced)"
				}
				res.Reason += "; " + why
			}
			if batch {
				err = runBatched(ctx, g, cpu, rows)
			} else {
				err = runSources(ctx, g, cpu, rows)
			}
		}
	}
	res.Wall = time.Since(t0)
	if err != nil {
		return nil, err
	}
	c.logger.Debug().Str("method", string(m)).Str("why", why).Dur("wall_ms", res.Wall).Msg("apsp")
	return res, nil
}

// checkWeights refuses real weights and graphs whose longest possible
// shortest path, (n-1) times the largest weight, could reach the internal
// infinity.
func checkWeights(g *graph.Graph) error {
	if g.WeightKind() == graph.RealWeights {
		return fmt.Errorf("apsp: %w: load the graph with graph.LoadOptions.WeightScale (gearbox: --weight-scale) to scale and round its real weights", ErrRealWeights)
	}
	n := int64(g.NumVertices())
	w := int64(1)
	if g.WeightKind() == graph.IntWeights {
		w = int64(g.MaxWeight())
	}
	if n > 1 && w > 0 && (n-1) > MaxDistance/w {
		return fmt.Errorf("apsp: %w: %d vertices x largest weight %d could reach %d, above the limit %d", ErrOverflow, n, w, (n-1)*w, MaxDistance)
	}
	return nil
}

// MatrixBytes is the memory FW's matrix takes for n vertices.
func MatrixBytes(n int) int64 {
	p := int64(padded(n, 64))
	return p * p * 4
}

func padded(n, b int) int { return (n + b - 1) / b * b }

// Per-step costs of the model, in nanoseconds on one worker: a min-plus
// step of FW's inner loop, and an arc relaxation (plus a heap operation
// per vertex, counted as log2(n) relaxations) of a single-source search.
// They are rough; the model only has to tell orders of magnitude apart.
const (
	fwStepNS  = 0.35
	arcStepNS = 4.0
)

// choose picks the method: forced, or the cheaper by the model when FW's
// matrix fits the limit.
func choose(g *graph.Graph, m Method, limit int64, workers int) (Method, string, error) {
	n := g.NumVertices()
	bytes := MatrixBytes(n)
	if m == FW {
		if bytes > limit {
			return "", "", fmt.Errorf("apsp: %w: FW's matrix for %d vertices takes %d bytes, above the limit %d (use the sources method, which streams rows)", ErrTooLarge, n, bytes, limit)
		}
		return FW, "forced", nil
	}
	if m == Sources {
		return Sources, "forced", nil
	}
	fw, src := costs(g)
	_ = workers // both methods scale alike over workers
	if bytes > limit {
		return Sources, fmt.Sprintf("FW's matrix (%d bytes) exceeds the memory limit (%d)", bytes, limit), nil
	}
	if fw <= src {
		return FW, fmt.Sprintf("FW's n^3 (est. %.3g s) is cheaper than n searches (est. %.3g s) on a graph of density %.3g", fw, src, density(g)), nil
	}
	return Sources, fmt.Sprintf("n searches (est. %.3g s) are cheaper than FW's n^3 (est. %.3g s) on a graph of density %.3g", src, fw, density(g)), nil
}

// costs returns the model's one-worker seconds for FW and for n searches.
func costs(g *graph.Graph) (fw, src float64) {
	n := float64(g.NumVertices())
	m := float64(g.NumEdges())
	fw = n * n * n * fwStepNS * 1e-9
	lg := math.Max(1, math.Log2(n))
	src = n * (m + n*lg) * arcStepNS * 1e-9
	return
}

func density(g *graph.Graph) float64 {
	n := float64(g.NumVertices())
	if n == 0 {
		return 0
	}
	return float64(g.NumEdges()) / (n * n)
}
