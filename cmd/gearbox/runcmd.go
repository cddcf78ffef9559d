package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// runFlags are the flags of `gearbox run`.
type runFlags struct {
	in         inputFlags
	source     string
	sources    int
	variant    string
	delta      uint64
	thresholds string
	trace      string
	out        string
	verify     bool
	device     string
	workers    int
}

func (f *runFlags) register(fs *flag.FlagSet) {
	f.in.register(fs)
	fs.StringVar(&f.source, "source", "", "source vertex `ID` in the input file's ids (default: a seeded random vertex with out-edges)")
	fs.IntVar(&f.sources, "sources", 1, "benchmark mode: run from `K` seeded random sources and report medians")
	fs.StringVar(&f.variant, "variant", "auto", "auto (adaptive policy) or a static variant: "+strings.Join(decider.ValidNames(), ", "))
	fs.Uint64Var(&f.delta, "delta", 0, "SSSP bucket width for ordered variants (0 = from the thresholds)")
	fs.StringVar(&f.thresholds, "thresholds", "", "thresholds `FILE` (default: built-in defaults, as in thresholds.toml)")
	fs.StringVar(&f.trace, "trace", "", "write the run's statistics with a per-iteration trace as JSON to `FILE`")
	fs.StringVar(&f.out, "out", "", "write one 'id value' line per vertex to `FILE` ('-' for stdout; unreachable = inf)")
	fs.BoolVar(&f.verify, "verify", false, "check the result against a serial reference")
	fs.StringVar(&f.device, "device", "cpu", "backend: cpu, cuda or auto (cuda when a GPU is usable, else cpu)")
	fs.IntVar(&f.workers, "workers", 0, "CPU worker count (0 = GOMAXPROCS)")
}

// traversal is one algorithm's run as `gearbox run` sees it.
type traversal struct {
	stats    runtime.Stats
	reached  int
	value    func(v uint32) (uint64, bool)
	verify   func() error
	describe string
}

var algorithms = map[string]func(ctx context.Context, g *graph.Graph, src uint32, opts []runtime.Option) (*traversal, error){
	"bfs": func(ctx context.Context, g *graph.Graph, src uint32, opts []runtime.Option) (*traversal, error) {
		r, err := bfs.Run(ctx, g, src, opts...)
		if err != nil {
			return nil, err
		}
		return &traversal{stats: r.Stats(), reached: r.NumReached(),
			value: func(v uint32) (uint64, bool) {
				d, ok := r.Depth(v)
				return uint64(d), ok
			},
			verify:   func() error { return bfs.Verify(g, r) },
			describe: fmt.Sprintf("max depth %d", r.MaxDepth()),
		}, nil
	},
	"sssp": func(ctx context.Context, g *graph.Graph, src uint32, opts []runtime.Option) (*traversal, error) {
		r, err := sssp.Run(ctx, g, src, opts...)
		if err != nil {
			return nil, err
		}
		max, _ := r.MaxDistance()
		return &traversal{stats: r.Stats(), reached: r.NumReached(), value: r.Distance,
			verify:   func() error { return sssp.Verify(g, r) },
			describe: fmt.Sprintf("max distance %d, delta %d", max, r.Delta()),
		}, nil
	},
}

func algorithmNames() string {
	names := make([]string, 0, len(algorithms))
	for n := range algorithms {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func cmdRun(ctx context.Context, e *env, args []string) error {
	var f runFlags
	fs := newFlagSet(e, "run", "ALGORITHM")
	f.register(fs)
	pos, help, err := parseFlags(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: run needs one algorithm (%s), got %q", errUsage, algorithmNames(), pos)
	}
	alg, ok := algorithms[pos[0]]
	if !ok {
		return fmt.Errorf("%w: unknown algorithm %q (algorithms: %s)", errUsage, pos[0], algorithmNames())
	}
	if f.sources < 1 {
		return fmt.Errorf("%w: --sources %d must be at least 1", errUsage, f.sources)
	}
	if f.sources > 1 && (f.source != "" || f.out != "") {
		return fmt.Errorf("%w: --sources K picks its own sources; it cannot be combined with --source or --out", errUsage)
	}
	// Check everything cheap before loading a large graph.
	var opts []runtime.Option
	opts = append(opts, runtime.WithLogger(e.log), runtime.WithTrace(f.trace != ""))
	if f.variant != "auto" {
		v, err := decider.ParseVariant(f.variant)
		if err != nil {
			return fmt.Errorf("%w: --variant: %v", errUsage, err)
		}
		opts = append(opts, runtime.WithVariant(v))
	}
	if f.delta > 0 {
		opts = append(opts, runtime.WithDelta(f.delta))
	}
	backend, closeBackend, err := openBackend(e, f.device, f.workers)
	if err != nil {
		return err
	}
	defer func() { closeBackend() }()
	opts = append(opts, runtime.WithBackend(backend))
	if f.thresholds != "" {
		set, err := decider.LoadThresholds(f.thresholds)
		if err != nil {
			return err
		}
		opts = append(opts, runtime.WithThresholds(set.For(backend.Device())))
	}

	g, err := f.in.load(ctx, e)
	if err != nil {
		return err
	}
	if pos[0] == "sssp" && g.WeightKind() == graph.Unweighted {
		g = g.WithDerivedWeights(f.in.seed)
		fmt.Fprintf(e.stdout, "note: the graph is unweighted; SSSP uses weights in [1,255] derived from seed %d\n", f.in.seed)
	}
	srcs, err := pickSources(g, f.source, f.sources, f.in.seed)
	if err != nil {
		return err
	}

	var times, mteps []float64
	var last *traversal
	for i, src := range srcs {
		t, err := alg(ctx, g, src, opts)
		if errors.Is(err, runtime.ErrInsufficientMemory) && f.device == "auto" {
			// The graph does not fit on the GPU: auto means "the best that works".
			e.log.Info().Err(err).Msg("--device auto: the graph does not fit on the GPU; running on the CPU")
			closeBackend()
			backend, closeBackend = runtime.NewCPU(f.workers), func() {}
			opts = append(opts, runtime.WithBackend(backend))
			t, err = alg(ctx, g, src, opts)
		}
		if err != nil {
			return err
		}
		edges := reachedArcs(g, t)
		wall := t.stats.Wall.Seconds()
		times = append(times, wall)
		mteps = append(mteps, float64(edges)/wall/1e6)
		if f.verify {
			vs := time.Now()
			if err := t.verify(); err != nil {
				return fmt.Errorf("verification failed for source %d: %w", g.IDs().External(src), err)
			}
			e.log.Debug().Dur("verify", time.Since(vs)).Msg("verified")
		}
		if len(srcs) > 1 {
			fmt.Fprintf(e.stdout, "source %-10d %9.3f ms  %9.1f MTEPS  %d iterations  %s\n",
				g.IDs().External(src), wall*1e3, mteps[i], t.stats.Iterations, variantSummary(t.stats))
		}
		last = t
	}
	st := last.stats
	fmt.Fprintf(e.stdout, "%s on %s (%d vertices, %d arcs, %s) with %s, policy %s\n",
		pos[0], f.in.name(), g.NumVertices(), g.NumEdges(), directedness(g), st.Backend, st.Policy)
	if len(srcs) == 1 {
		fmt.Fprintf(e.stdout, "source %d: reached %d vertices, %s\n", g.IDs().External(srcs[0]), last.reached, last.describe)
		fmt.Fprintf(e.stdout, "time %.3f ms  %.1f MTEPS  %d iterations  %d switches\n", times[0]*1e3, mteps[0], st.Iterations, st.Switches)
		fmt.Fprintf(e.stdout, "variants: %s\n", variantSummary(st))
		if st.Wall > 0 {
			fmt.Fprintf(e.stdout, "inspection %.3f ms (%.2f%%)  conversion %.3f ms (%.2f%%)\n",
				st.Inspection.Seconds()*1e3, 100*st.Inspection.Seconds()/st.Wall.Seconds(),
				st.Conversion.Seconds()*1e3, 100*st.Conversion.Seconds()/st.Wall.Seconds())
		}
	} else {
		fmt.Fprintf(e.stdout, "median over %d sources: %.3f ms  %.1f MTEPS\n", len(srcs), median(times)*1e3, median(mteps))
	}
	if f.verify {
		fmt.Fprintf(e.stdout, "verified: %d of %d runs match the serial reference\n", len(srcs), len(srcs))
	}
	if f.trace != "" {
		if err := writeFile(f.trace, func(w io.Writer) error { return st.WriteJSON(w) }); err != nil {
			return fmt.Errorf("--trace: %w", err)
		}
	}
	if f.out != "" {
		w, closeOut, err := create(e, f.out)
		if err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		if err := writeValues(w, g, last); err != nil {
			closeOut()
			return fmt.Errorf("--out: %w", err)
		}
		if err := closeOut(); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	return nil
}

func directedness(g *graph.Graph) string {
	if g.Directed() {
		return "directed"
	}
	return "undirected"
}

// reachedArcs counts the out-arcs of reached vertices: the edges a traversal
// of the reached part must examine, the numerator of TEPS as in Graph500.
func reachedArcs(g *graph.Graph, t *traversal) int64 {
	var m int64
	for v := 0; v < g.NumVertices(); v++ {
		if _, ok := t.value(uint32(v)); ok {
			m += g.Degree(uint32(v))
		}
	}
	return max(m, 1)
}

func variantSummary(st runtime.Stats) string {
	names := make([]string, 0, len(st.Variants))
	for n := range st.Variants {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s x%d", n, st.Variants[n])
	}
	return b.String()
}

// pickSources resolves --source, or draws k distinct seeded random vertices
// with out-edges (as the GAP suite does), so repeated runs are comparable.
func pickSources(g *graph.Graph, source string, k int, seed uint64) ([]uint32, error) {
	n := g.NumVertices()
	if source != "" {
		x, err := strconv.ParseUint(source, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: --source %q is not a vertex id", errUsage, source)
		}
		v, ok := g.IDs().Internal(x)
		if !ok {
			return nil, fmt.Errorf("--source %d is not a vertex of the graph (%d vertices, %s)", x, n, idRange(g))
		}
		return []uint32{v}, nil
	}
	if n == 0 {
		return nil, errors.New("the graph has no vertices, so there is no source to run from")
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	var out []uint32
	seen := map[uint32]bool{}
	for tries := 0; len(out) < k && tries < 64*k+1024; tries++ {
		v := uint32(rng.IntN(n))
		if g.Degree(v) > 0 && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		out = append(out, 0) // a graph without edges: any vertex will do
	}
	return out, nil
}

func idRange(g *graph.Graph) string {
	n := g.NumVertices()
	if n == 0 {
		return "no ids"
	}
	return fmt.Sprintf("ids %d..%d", g.IDs().External(0), g.IDs().External(uint32(n-1)))
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func writeValues(w io.Writer, g *graph.Graph, t *traversal) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var buf []byte
	ids := g.IDs()
	for v := 0; v < g.NumVertices(); v++ {
		buf = strconv.AppendUint(buf[:0], ids.External(uint32(v)), 10)
		buf = append(buf, ' ')
		if x, ok := t.value(uint32(v)); ok {
			buf = strconv.AppendUint(buf, x, 10)
		} else {
			buf = append(buf, "inf"...)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func writeFile(path string, fn func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
