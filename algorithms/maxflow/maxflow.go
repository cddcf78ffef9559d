package maxflow

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

var (
	// ErrTerminal reports a source or sink outside the graph, or a source
	// equal to the sink (a flow from a vertex to itself is not a max-flow
	// problem: refused rather than answered 0 or infinity).
	ErrTerminal = errors.New("bad terminal")
	// ErrCapacity reports capacities whose sums do not fit 64 bits; it is
	// graph.ErrCapacity.
	ErrCapacity = graph.ErrCapacity
)

// Algorithm picks the push-relabel solver.
type Algorithm uint8

const (
	// Auto picks HighestLabel: on the 2-core development machine Sync
	// took more CPU time than it on every family measured (vision 400x400:
	// 1.8 s against 0.75 s), so it is opt-in until measured on a host with
	// more cores.
	Auto Algorithm = iota
	// HighestLabel is serial: highest-label selection, gap heuristic and
	// global relabels (the design of Cherkassky & Goldberg's hi_pr).
	HighestLabel
	// FIFO is serial: first-in first-out selection with global relabels.
	FIFO
	// Sync is the parallel synchronous pass on the runtime's engine: the
	// active vertices are its working set, whose mapping and
	// representation the decider picks.
	Sync
)

var algNames = []string{"auto", "hl", "fifo", "sync"}

func (a Algorithm) String() string {
	if int(a) < len(algNames) {
		return algNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", uint8(a))
}

// ParseAlgorithm reads auto, hl, fifo or sync.
func ParseAlgorithm(s string) (Algorithm, error) {
	if i := slices.Index(algNames, s); i >= 0 {
		return Algorithm(i), nil
	}
	return 0, fmt.Errorf("maxflow: unknown algorithm %q (valid: auto, hl, fifo, sync)", s)
}

// Knobs are push-relabel's tuning parameters.
type Knobs struct {
	// GlobalFreq: a global relabel runs once the relabel work since the
	// last one (each relabel costs 12 plus the vertex's arcs) times
	// GlobalFreq exceeds 6n + m (hi_pr's rule; its default is 0.5, so a
	// global relabel per 2(6n+m) of work). Larger: more frequent.
	GlobalFreq float64
	// SerialBelow: when a pass of the Sync solver leaves at most this many
	// active vertices, the serial highest-label solver finishes the phase
	// on the same state (0: never). Small active sets cannot feed the
	// workers, and a pass costs a barrier however little it does.
	SerialBelow int
	// HostAfter: on a GPU, once HostAfter passes in a row have left at most
	// SerialBelow active vertices, the state is copied to the host and the
	// serial highest-label solver finishes phase 1 (0: never). A device
	// pass costs a few launches and a read whatever its size, and
	// push-relabel's tail can last millions of passes (AK's path).
	HostAfter int
}

// DefaultKnobs are the knobs Run uses unless told otherwise.
func DefaultKnobs() Knobs { return Knobs{GlobalFreq: 0.5, SerialBelow: 64, HostAfter: 3} }

const relabelCost = 12

func (k Knobs) trigger(n int, m int64) int64 {
	f := k.GlobalFreq
	if !(f > 0) {
		f = DefaultKnobs().GlobalFreq
	}
	t := float64(6*int64(n)+m) / f
	if t >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(t)
}

type settings struct {
	alg   Algorithm
	knobs Knobs
	rt    []runtime.Option
}

// Option configures Run.
type Option func(*settings)

// WithAlgorithm picks the solver.
func WithAlgorithm(a Algorithm) Option { return func(s *settings) { s.alg = a } }

// WithKnobs sets the tuning parameters.
func WithKnobs(k Knobs) Option { return func(s *settings) { s.knobs = k } }

// WithRuntime passes options to the runtime (backend, workers, policy,
// logger) for the Sync solver.
func WithRuntime(opts ...runtime.Option) Option {
	return func(s *settings) { s.rt = append(s.rt, opts...) }
}

// flow is the state the solvers share.
type flow struct {
	r    *graph.Residual
	n    int
	s, t uint32
	res  []int64 // residual capacities
	exc  []int64
	d    []uint32

	pushes, relabels, globals, gaps, passes int64
}

// Result is a maximum flow and a minimum cut.
type Result struct {
	where  string
	r      *graph.Residual
	s, t   uint32
	value  int64
	res    []int64
	side   []bool
	alg    Algorithm
	stats  runtime.Stats
	Counts Counts
}

// Counts are the solver's operation counts.
type Counts struct {
	Pushes, Relabels, GlobalRelabels, Gaps, Passes int64
}

// Value returns the flow value.
func (r *Result) Value() int64 { return r.value }

// Algorithm returns the solver that ran.
func (r *Result) Algorithm() Algorithm { return r.alg }

// Placement says where the phases ran: "host" for the CPU backend; on a
// device, its passes, whether the host finished phase 1, and phase 2 on
// the host.
func (r *Result) Placement() string { return r.where }

// Stats returns the engine's statistics (Sync and device runs only).
func (r *Result) Stats() runtime.Stats { return r.stats }

// Residual returns the network the flow is on.
func (r *Result) Residual() *graph.Residual { return r.r }

// Flow returns the flow on residual arc e: what its capacity lost, 0 for
// an arc whose pair carries flow the other way.
func (r *Result) Flow(e int64) int64 { return max(0, r.r.Cap[e]-r.res[e]) }

// Flows returns the flow on every residual arc.
func (r *Result) Flows() []int64 {
	f := make([]int64, len(r.res))
	for e := range f {
		f[e] = r.Flow(int64(e))
	}
	return f
}

// InSourceSide reports whether v is reachable from the source in the final
// residual network: the source side of the minimum cut closest to the
// source (the same for every maximum flow).
func (r *Result) InSourceSide(v uint32) bool { return r.side[v] }

// SourceSide returns the source side's vertices in increasing order.
func (r *Result) SourceSide() []uint32 {
	var l []uint32
	for v, in := range r.side {
		if in {
			l = append(l, uint32(v))
		}
	}
	return l
}

// CutCapacity returns the capacity of the arcs leaving the source side.
func (r *Result) CutCapacity() int64 { return cutCapacity(r.r, r.side) }

func cutCapacity(g *graph.Residual, side []bool) int64 {
	var c uint64
	for u := range side {
		if !side[u] {
			continue
		}
		for e := g.Off[u]; e < g.Off[u+1]; e++ {
			if !side[g.Head[e]] {
				var carry uint64
				c, carry = bits.Add64(c, uint64(g.Cap[e]), 0)
				if carry != 0 || c > math.MaxInt64 {
					return -1
				}
			}
		}
	}
	return int64(c)
}

// Run computes a maximum flow from s to t over r's capacities and a
// minimum cut. The flow is a valid flow (phase 2 returns the excess a
// preflow strands to the source), identical for every worker count.
func Run(ctx context.Context, r *graph.Residual, s, t uint32, opts ...Option) (*Result, error) {
	if ctx == nil || r == nil {
		return nil, fmt.Errorf("maxflow: %w: nil context or residual graph", runtime.ErrBadArgument)
	}
	st := settings{knobs: DefaultKnobs()}
	for _, o := range opts {
		if o != nil {
			o(&st)
		}
	}
	if r == nil {
		return nil, errors.New("maxflow: nil network")
	}
	n := r.NumVertices()
	if int64(s) >= int64(n) || int64(t) >= int64(n) {
		return nil, fmt.Errorf("maxflow: %w: source %d, sink %d, network has %d vertices (0..%d)", ErrTerminal, s, t, n, n-1)
	}
	if s == t {
		return nil, fmt.Errorf("maxflow: %w: source and sink are the same vertex %d", ErrTerminal, s)
	}
	f := &flow{r: r, n: n, s: s, t: t, res: slices.Clone(r.Cap), exc: make([]int64, n), d: make([]uint32, n)}
	// Every excess is at most what leaves s at the start.
	var out uint64
	for e := r.Off[s]; e < r.Off[s+1]; e++ {
		var carry uint64
		out, carry = bits.Add64(out, uint64(r.Cap[e]), 0)
		if carry != 0 || out > math.MaxInt64 {
			return nil, fmt.Errorf("maxflow: %w: the capacities leaving the source sum to over %d", ErrCapacity, int64(math.MaxInt64))
		}
	}
	for e := r.Off[s]; e < r.Off[s+1]; e++ {
		c := f.res[e]
		f.res[e] = 0
		f.res[r.Rev[e]] += c
		f.exc[r.Head[e]] += c
	}
	cfg := runtime.NewConfigFor("maxflow", st.rt...)
	cpu, isCPU := cfg.Backend().(*runtime.CPU)
	alg := st.alg
	if alg == Auto && isCPU {
		alg = HighestLabel
	} else if alg == Auto {
		alg = Sync
	}
	res := &Result{r: r, s: s, t: t, alg: alg, where: "host"}
	switch {
	case alg == HighestLabel || alg == FIFO:
		// Serial: on the host whatever the backend.
		q := newSeq(f, alg == FIFO, st.knobs)
		if err := q.run(ctx, t, s); err != nil {
			return nil, err
		}
		// Phase 2: what could not reach t goes back to s.
		if err := q.run(ctx, s, t); err != nil {
			return nil, err
		}
	case alg != Sync:
		return nil, fmt.Errorf("maxflow: unknown algorithm %v", alg)
	case isCPU:
		op := newSyncOp(f, cpu.NewPool(), st.knobs)
		op.ctx = ctx
		stats, err := runtime.Run(ctx, "maxflow", op, cfg)
		if err != nil {
			return nil, err
		}
		res.stats = stats
	default:
		b := cfg.Backend()
		op, ok := backends.New(b, request{f: f, k: st.knobs, ctx: ctx})
		if !ok {
			return nil, fmt.Errorf("maxflow: backend %s: %w", b.Name(), runtime.ErrUnsupported)
		}
		stats, err := runtime.Run(ctx, "maxflow", op, cfg)
		if err != nil {
			return nil, err
		}
		// Phase 2 on the host from the device's maximum preflow.
		if err := newSeq(f, false, st.knobs).run(ctx, s, t); err != nil {
			return nil, err
		}
		res.stats, res.where = stats, op.placement()+"; phase 2 on the host"
	}
	for v := 0; v < n; v++ {
		if f.exc[v] != 0 && uint32(v) != s && uint32(v) != t {
			return nil, fmt.Errorf("maxflow: internal error: vertex %d keeps excess %d after phase 2", v, f.exc[v])
		}
	}
	res.value, res.res = f.exc[t], f.res
	res.side = reachable(r, f.res, s)
	res.Counts = Counts{Pushes: f.pushes, Relabels: f.relabels, GlobalRelabels: f.globals, Gaps: f.gaps, Passes: f.passes}
	return res, nil
}

// deviceOp is the phase-1 operator of a backend other than the CPU: when
// the engine has run it, f holds a maximum preflow (residual capacities
// and excesses) on the host.
type deviceOp interface {
	runtime.Operator
	// placement says where phase 1 ran.
	placement() string
}

// request is what a device backend's constructor gets: the state after
// the source's arcs were saturated, the knobs, and the run's context (for
// a tail finished on the host).
type request struct {
	f   *flow
	k   Knobs
	ctx context.Context
}

// backends builds the phase-1 operators of backends other than the CPU
// (the cuda build registers "cuda"); a constructor reports false for a
// backend not of its kind.
var backends algorithms.Backends[request, deviceOp]

// reachable marks the vertices reachable from s over arcs with residual
// capacity.
func reachable(r *graph.Residual, res []int64, s uint32) []bool {
	return reach(r, s, func(_ uint32, e int64) bool { return res[e] > 0 })
}

// reach marks the vertices reachable from s (a depth-first search) over the
// arcs e out of u for which open(u, e) holds; it asks only about arcs to
// vertices not yet marked.
func reach(r *graph.Residual, s uint32, open func(u uint32, e int64) bool) []bool {
	seen := make([]bool, r.NumVertices())
	seen[s] = true
	q := []uint32{s}
	for len(q) > 0 {
		u := q[len(q)-1]
		q = q[:len(q)-1]
		for e := r.Off[u]; e < r.Off[u+1]; e++ {
			if w := r.Head[e]; !seen[w] && open(u, e) {
				seen[w] = true
				q = append(q, w)
			}
		}
	}
	return seen
}

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }
