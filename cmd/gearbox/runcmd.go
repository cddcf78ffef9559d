package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/algorithms/cc"
	"github.com/gearbox-graph/gearbox/algorithms/msf"
	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/tuning"
)

// runSourceHook, when set (tests), is called after each source's run.
var runSourceHook func()

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
	cpuprofile string
}

func (f *runFlags) register(fs *flag.FlagSet) {
	f.in.register(fs)
	fs.StringVar(&f.source, "source", "", "source vertex `ID` in the input file's ids (default: a seeded random vertex with out-edges)")
	fs.IntVar(&f.sources, "sources", 1, "benchmark mode: run from `K` seeded random sources and report medians")
	fs.StringVar(&f.variant, "variant", "auto", "auto (adaptive policy) or a static variant; bfs: "+strings.Join(decider.ValidNames(), ", ")+"; sssp: "+strings.Join(pushVariantNames(), ", ")+" (pull is BFS only); cc, forest: "+strings.Join(ccVariantNames(), ", "))
	fs.Uint64Var(&f.delta, "delta", 0, "SSSP bucket width for ordered variants (0 = from the thresholds)")
	fs.StringVar(&f.thresholds, "thresholds", "", "thresholds `FILE` (default: built-in defaults, as in thresholds.toml)")
	fs.StringVar(&f.trace, "trace", "", "write the run's statistics with a per-iteration trace as JSON to `FILE`")
	fs.StringVar(&f.out, "out", "", "write one 'id value' line per vertex to `FILE` ('-' for stdout; unreachable = inf)")
	fs.BoolVar(&f.verify, "verify", false, "check the result against a serial reference")
	fs.StringVar(&f.device, "device", "cpu", "backend: cpu, cuda or auto (cuda when a GPU is usable, else cpu)")
	fs.IntVar(&f.workers, "workers", 0, "CPU worker count (0 = GOMAXPROCS; at most 4096)")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a Go CPU profile of the runs (not the graph's loading) to `FILE`, for go tool pprof")
}

// outcome is one algorithm run as `gearbox run` reports it.
type outcome struct {
	stats   runtime.Stats
	edges   int64  // edges the run had to examine: the numerator of MTEPS
	summary string // one line of results
	verify  func() error
	write   func(w io.Writer) error // the --out file
	// release gives the result's memory back for the next source's run.
	release func()
}

// runner runs one prepared algorithm from a source (ignored by algorithms
// without one).
type runner func(ctx context.Context, g *graph.Graph, src uint32) (*outcome, error)

// algorithm describes one `gearbox run` algorithm. prepare checks the
// algorithm-specific flags before the graph is loaded.
type algorithm struct {
	sourced  bool
	variants []string
	prepare  func(variant string, delta uint64, ropts []runtime.Option) (runner, error)
}

var algorithms = map[string]algorithm{
	"bfs":    {sourced: true, variants: decider.ValidNames(), prepare: prepareBFS},
	"sssp":   {sourced: true, variants: pushVariantNames(), prepare: prepareSSSP}, // pull is BFS only
	"cc":     {variants: ccVariantNames(), prepare: prepareCC(false)},
	"forest": {variants: ccVariantNames(), prepare: prepareCC(true)},
	"mst":    {variants: msfVariantNames(), prepare: prepareMST},
}

// traversalOptions turns --variant and --delta into runtime options.
func traversalOptions(variant string, delta uint64, ropts []runtime.Option) ([]runtime.Option, error) {
	if variant != "auto" {
		v, err := decider.ParseVariant(variant)
		if err != nil {
			return nil, fmt.Errorf("%w: --variant: %v", errUsage, err)
		}
		ropts = append(ropts, runtime.WithVariant(v))
	}
	if delta > 0 {
		ropts = append(ropts, runtime.WithDelta(delta))
	}
	return ropts, nil
}

func prepareBFS(variant string, delta uint64, ropts []runtime.Option) (runner, error) {
	if delta > 0 {
		return nil, fmt.Errorf("%w: --delta applies to sssp, not bfs", errUsage)
	}
	opts, err := traversalOptions(variant, 0, ropts)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, g *graph.Graph, src uint32) (*outcome, error) {
		r, err := bfs.Run(ctx, g, src, opts...)
		if err != nil {
			return nil, err
		}
		value := func(v uint32) (uint64, bool) {
			d, ok := r.Depth(v)
			return uint64(d), ok
		}
		return &outcome{stats: r.Stats(), edges: reachedArcs(g, value),
			summary: fmt.Sprintf("source %d: reached %d vertices, max depth %d", g.IDs().External(src), r.NumReached(), r.MaxDepth()),
			verify:  func() error { return bfs.Verify(g, r) },
			write:   func(w io.Writer) error { return writeValues(w, g, value) },
			release: r.Release,
		}, nil
	}, nil
}

func prepareSSSP(variant string, delta uint64, ropts []runtime.Option) (runner, error) {
	opts, err := traversalOptions(variant, delta, ropts)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, g *graph.Graph, src uint32) (*outcome, error) {
		r, err := sssp.Run(ctx, g, src, opts...)
		if err != nil {
			return nil, err
		}
		max, _ := r.MaxDistance()
		return &outcome{stats: r.Stats(), edges: reachedArcs(g, r.Distance),
			summary: fmt.Sprintf("source %d: reached %d vertices, max distance %d, delta %d", g.IDs().External(src), r.NumReached(), max, r.Delta()),
			verify:  func() error { return sssp.Verify(g, r) },
			write:   func(w io.Writer) error { return writeValues(w, g, r.Distance) },
			release: r.Release,
		}, nil
	}, nil
}

// pushVariantNames lists the eight push variants: SSSP has no pull
// direction, and refusing pull at flag parsing spares loading the graph.
func pushVariantNames() []string {
	var names []string
	for _, v := range decider.PushVariants() {
		names = append(names, v.String())
	}
	return names
}

func ccVariantNames() []string {
	var names []string
	for _, v := range cc.Variants() {
		names = append(names, v.String())
	}
	return names
}

// prepareCC runs connected components, or a spanning forest when forest is
// set. Labels are written in the file's ids: each vertex gets the id of the
// smallest-id vertex of its component.
func prepareCC(forest bool) func(string, uint64, []runtime.Option) (runner, error) {
	return func(variant string, delta uint64, ropts []runtime.Option) (runner, error) {
		if delta > 0 {
			return nil, fmt.Errorf("%w: --delta applies to sssp, not cc", errUsage)
		}
		opts := []cc.Option{cc.WithRuntime(ropts...)}
		if variant != "auto" {
			v, err := cc.ParseVariant(variant)
			if err != nil {
				return nil, fmt.Errorf("%w: --variant: %v", errUsage, err)
			}
			opts = append(opts, cc.WithVariant(v))
		}
		return func(ctx context.Context, g *graph.Graph, _ uint32) (*outcome, error) {
			var r *cc.Result
			var edges []cc.Edge
			if forest {
				f, err := cc.Forest(ctx, g, opts...)
				if err != nil {
					return nil, err
				}
				r, edges = &f.Result, f.Edges()
			} else {
				var err error
				if r, err = cc.Run(ctx, g, opts...); err != nil {
					return nil, err
				}
			}
			o := &outcome{stats: r.Stats(), edges: max(g.NumEdges(), 1),
				summary: fmt.Sprintf("%d components, largest %d vertices (variant %s: %s)", r.NumComponents(), r.LargestSize(), r.Variant(), r.Reason()),
				verify:  func() error { return cc.Verify(g, r.Labels()) },
				release: r.Release,
			}
			ids := g.IDs()
			if forest {
				o.summary += fmt.Sprintf(", forest of %d edges", len(edges))
				o.verify = func() error { return cc.VerifyForest(g, r.Labels(), edges) }
				o.write = func(w io.Writer) error { return writeForest(w, g, edges) }
			} else {
				o.write = func(w io.Writer) error {
					return writeValues(w, g, func(v uint32) (uint64, bool) { return ids.External(r.Label(v)), true })
				}
			}
			return o, nil
		}, nil
	}
}

func msfVariantNames() []string {
	var names []string
	for _, v := range msf.Variants() {
		names = append(names, v.String())
	}
	return names
}

// prepareMST runs the minimum spanning forest (cmdRun has given an
// unweighted graph its derived weights).
func prepareMST(variant string, delta uint64, ropts []runtime.Option) (runner, error) {
	if delta > 0 {
		return nil, fmt.Errorf("%w: --delta applies to sssp, not mst", errUsage)
	}
	opts := []msf.Option{msf.WithRuntime(ropts...)}
	if variant != "auto" {
		v, err := msf.ParseVariant(variant)
		if err != nil {
			return nil, fmt.Errorf("%w: --variant: %v", errUsage, err)
		}
		opts = append(opts, msf.WithVariant(v))
	}
	return func(ctx context.Context, g *graph.Graph, _ uint32) (*outcome, error) {
		r, err := msf.Run(ctx, g, opts...)
		if err != nil {
			return nil, err
		}
		w := strconv.FormatInt(r.TotalWeight(), 10)
		if r.WeightKind() == graph.RealWeights {
			w = strconv.FormatFloat(r.TotalWeightFloat(), 'g', -1, 64)
		}
		note := ""
		if r.Directed() {
			note = " (directed input read as undirected)"
		}
		return &outcome{stats: r.Stats(), edges: max(g.NumEdges(), 1),
			summary: fmt.Sprintf("forest weight %s, %d edges, %d components%s (variant %s: %s)", w, len(r.Edges()), r.NumComponents(), note, r.Variant(), r.Reason()),
			verify:  func() error { return msf.Verify(g, r.Edges(), msf.DefaultSeed) },
			write:   func(w io.Writer) error { return writeMSF(w, g, r) },
		}, nil
	}, nil
}

// writeMSF writes one "u v w" line per forest edge, in the file's ids.
func writeMSF(w io.Writer, g *graph.Graph, r *msf.Result) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var buf []byte
	ids := g.IDs()
	real := r.WeightKind() == graph.RealWeights
	for _, e := range r.Edges() {
		buf = strconv.AppendUint(buf[:0], ids.External(e.U), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendUint(buf, ids.External(e.V), 10)
		buf = append(buf, ' ')
		if real {
			buf = strconv.AppendFloat(buf, r.WeightOf(e), 'g', -1, 32)
		} else {
			buf = strconv.AppendUint(buf, uint64(e.Weight), 10)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func algorithmNames() string {
	names := make([]string, 0, len(algorithms))
	for n := range algorithms {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func cmdRun(ctx context.Context, e *env, args []string) (err error) {
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
	if err := checkSources(f.sources); err != nil {
		return err
	}
	if err := checkWorkers(f.workers); err != nil {
		return err
	}
	if f.cpuprofile == "-" {
		return fmt.Errorf("%w: --cpuprofile needs a file name, not -", errUsage)
	}
	if f.sources > 1 && (f.source != "" || f.out != "") {
		return fmt.Errorf("%w: --sources K picks its own sources; it cannot be combined with --source or --out", errUsage)
	}
	if !alg.sourced && (f.source != "" || f.sources > 1) {
		return fmt.Errorf("%w: %s has no source; --source and --sources apply to bfs and sssp", errUsage, pos[0])
	}
	if f.variant != "auto" && !slices.Contains(alg.variants, f.variant) {
		return fmt.Errorf("%w: --variant %q is not a variant of %s (valid: auto, %s)", errUsage, f.variant, pos[0], strings.Join(alg.variants, ", "))
	}
	// Check everything cheap before loading a large graph: a result or
	// trace that could not be written would be lost after the run.
	for _, o := range []struct{ flag, path string }{{"--out", f.out}, {"--trace", f.trace}, {"--cpuprofile", f.cpuprofile}} {
		if err := checkOutput(o.path); err != nil {
			return fmt.Errorf("%s: %w", o.flag, err)
		}
	}
	backend, closeBackend, err := openBackend(e, f.device, f.workers)
	if err != nil {
		return err
	}
	defer func() { closeBackend() }()
	ropts := []runtime.Option{runtime.WithLogger(e.log), runtime.WithTrace(f.trace != "")}
	if f.thresholds != "" {
		set, err := decider.LoadThresholds(f.thresholds)
		if err != nil {
			return err
		}
		// The whole set: the algorithm's own section of the device's applies
		// where the file has one.
		ropts = append(ropts, runtime.WithThresholdSet(set))
		if _, ok := set.Lookup(backend.Device()); !ok {
			e.log.Info().Str("device", backend.Device()).Str("file", f.thresholds).
				Msg("the thresholds file has no section for this GPU; using the device's defaults")
		}
	}
	prepare := func(b runtime.Backend) (runner, error) {
		return alg.prepare(f.variant, f.delta, append(slices.Clip(ropts), runtime.WithBackend(b)))
	}
	runAlg, err := prepare(backend)
	if err != nil {
		return err
	}

	// With --out - the values go to stdout, so the summary goes to stderr
	// rather than mix into them.
	sum := e.stdout
	if f.out == "-" {
		sum = e.stderr
	}
	g, err := f.in.load(ctx, e)
	if err != nil {
		return err
	}
	if (pos[0] == "sssp" || pos[0] == "mst") && g.WeightKind() == graph.Unweighted {
		g = g.WithDerivedWeights(f.in.seed)
		fmt.Fprintf(sum, "note: the graph is unweighted; %s uses weights in [1,255] derived from seed %d\n", strings.ToUpper(pos[0]), f.in.seed)
	}
	srcs := []uint32{0} // ignored by algorithms without a source
	if alg.sourced && g.NumVertices() == 0 {
		// The empty graph is valid input with an empty result.
		fmt.Fprintf(sum, "%s on %s: the graph has no vertices, so there is nothing to traverse\n", pos[0], f.in.name())
		if f.out != "" {
			_, closeOut, err := create(e, f.out)
			if err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			return closeOut()
		}
		return nil
	}
	if alg.sourced {
		if srcs, err = pickSources(e, g, f.source, f.sources, f.in.seed); err != nil {
			return err
		}
	}

	if f.cpuprofile != "" {
		stop, perr := startCPUProfile(f.cpuprofile)
		if perr != nil {
			return fmt.Errorf("--cpuprofile: %w", perr)
		}
		defer func() { // err: cmdRun's result
			if perr := stop(); perr != nil && err == nil {
				err = fmt.Errorf("--cpuprofile: %w", perr)
			}
		}()
	}
	var times, mteps, kernels, transfers, setups, inspect, convert []float64
	var last *outcome
	var interrupted error // the interruption after some sources finished
	for i, src := range srcs {
		if last != nil && last.release != nil {
			last.release() // done with it: this run reuses its memory
		}
		t, err := runAlg(ctx, g, src)
		if errors.Is(err, runtime.ErrInsufficientMemory) && f.device == "auto" {
			// The graph does not fit on the GPU: auto means "the best that works".
			e.log.Info().Err(err).Msg("--device auto: the graph does not fit on the GPU; running on the CPU")
			closeBackend()
			backend, closeBackend = runtime.NewCPU(f.workers), func() {}
			if runAlg, err = prepare(backend); err != nil {
				return err
			}
			t, err = runAlg(ctx, g, src)
		}
		if err != nil {
			// Interrupted (Ctrl-C) after some sources finished: their
			// medians are results, reported before the error.
			if ctx.Err() != nil && len(times) > 0 {
				interrupted = fmt.Errorf("run stopped after %d of %d sources: %w", len(times), len(srcs), err)
				break
			}
			return err
		}
		wall := t.stats.Wall.Seconds()
		times = append(times, wall)
		if wall > 0 {
			inspect = append(inspect, 100*t.stats.Inspection.Seconds()/wall)
			convert = append(convert, 100*t.stats.Conversion.Seconds()/wall)
		}
		if g := t.stats.GPU; g != nil {
			kernels = append(kernels, g.Kernels.Seconds())
			transfers = append(transfers, g.Transfers.Seconds())
			setups = append(setups, g.Setup.Seconds())
		}
		mteps = append(mteps, float64(t.edges)/wall/1e6)
		if f.verify {
			vs := time.Now()
			if err := t.verify(); err != nil {
				return fmt.Errorf("verification failed for source %d: %w", g.IDs().External(src), err)
			}
			e.log.Debug().Dur("verify", time.Since(vs)).Msg("verified")
		}
		if len(srcs) > 1 {
			fmt.Fprintf(sum, "source %-10d %9.3f ms  %9.1f MTEPS  %d iterations  %s\n",
				g.IDs().External(src), wall*1e3, mteps[i], t.stats.Iterations, variantSummary(t.stats))
		}
		last = t
		if runSourceHook != nil {
			runSourceHook()
		}
	}
	st := last.stats
	fmt.Fprintf(sum, "%s on %s (%d vertices, %d arcs, %s) with %s, policy %s\n",
		pos[0], f.in.name(), g.NumVertices(), g.NumEdges(), directedness(g), st.Backend, st.Policy)
	if len(srcs) == 1 {
		fmt.Fprintln(sum, last.summary)
		fmt.Fprintf(sum, "time %.3f ms  %.1f MTEPS  %d iterations  %d switches\n", times[0]*1e3, mteps[0], st.Iterations, st.Switches)
		fmt.Fprintf(sum, "variants: %s\n", variantSummary(st))
		if g := st.GPU; g != nil {
			width := ""
			if g.ResultBits > 0 {
				behind := ""
				if g.ResultBehindLaunch {
					behind = ", behind the last launch"
				}
				width = fmt.Sprintf(" (result copied as %d-bit values%s)", g.ResultBits, behind)
			}
			pulled := ""
			if st.Counters["pull_levels"] > 0 {
				pulled = fmt.Sprintf(", %d pulled", st.Counters["pull_levels"])
			}
			fmt.Fprintf(sum, "gpu: kernels %.3f ms  transfers %.3f ms%s  (setup %.3f ms, graph upload %.3f ms: one-time, not in the time)  %d launches, %d device-side levels (%d in one block%s)\n",
				ms(g.Kernels), ms(g.Transfers), width, ms(g.Setup), ms(g.Upload), g.Launches, g.Levels, g.LocalLevels, pulled)
		}
		if st.Wall > 0 {
			fmt.Fprintf(sum, "inspection %.3f ms (%.2f%%)  conversion %.3f ms (%.2f%%)\n",
				st.Inspection.Seconds()*1e3, 100*st.Inspection.Seconds()/st.Wall.Seconds(),
				st.Conversion.Seconds()*1e3, 100*st.Conversion.Seconds()/st.Wall.Seconds())
		}
	} else {
		over := fmt.Sprintf("%d sources", len(times))
		if interrupted != nil {
			over = fmt.Sprintf("the %d of %d sources finished", len(times), len(srcs))
		}
		fmt.Fprintf(sum, "median over %s: %.3f ms  %.1f MTEPS\n", over, median(times)*1e3, median(mteps))
		if len(kernels) == len(times) {
			fmt.Fprintf(sum, "gpu medians: kernels %.3f ms  transfers %.3f ms  setup %.3f ms (not in the time)\n", median(kernels)*1e3, median(transfers)*1e3, median(setups)*1e3)
		}
		if len(convert) > 0 {
			fmt.Fprintf(sum, "overhead medians: inspection %.2f%%  conversion %.2f%% (max %.2f%%)\n", median(inspect), median(convert), slices.Max(convert))
		}
	}
	if f.verify {
		fmt.Fprintf(sum, "verified: %d of %d runs match the serial reference\n", len(times), len(times))
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
		if err := last.write(w); err != nil {
			closeOut()
			return fmt.Errorf("--out: %w", err)
		}
		if err := closeOut(); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	return interrupted
}

func ms(d time.Duration) float64 { return d.Seconds() * 1e3 }

func directedness(g *graph.Graph) string {
	if g.Directed() {
		return "directed"
	}
	return "undirected"
}

// reachedArcs counts the out-arcs of reached vertices: the edges a traversal
// of the reached part must examine, the numerator of TEPS as in Graph500.
func reachedArcs(g *graph.Graph, value func(uint32) (uint64, bool)) int64 {
	var m int64
	for v := 0; v < g.NumVertices(); v++ {
		if _, ok := value(uint32(v)); ok {
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
// with out-edges (tuning.PickSources, as bench and tune do), so repeated
// runs are comparable; it says on stderr when the graph has fewer.
func pickSources(e *env, g *graph.Graph, source string, k int, seed uint64) ([]uint32, error) {
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
	srcs, _ := tuning.PickSources(g, k, seed)
	noteFewerSources(e, "the graph", g, k, srcs)
	return srcs, nil
}

// noteFewerSources says on stderr when --sources asked for more sources
// than graph g (called name) has vertices with out-edges, rather than run
// fewer silently (tuning.PickSources then returns them all).
func noteFewerSources(e *env, name string, g *graph.Graph, k int, srcs []uint32) {
	switch {
	case len(srcs) >= k:
	case g.NumEdges() == 0:
		fmt.Fprintf(e.stderr, "note: --sources %d: %s has no vertex with out-edges; running from vertex %d alone\n", k, name, g.IDs().External(srcs[0]))
	default:
		fmt.Fprintf(e.stderr, "note: --sources %d: %s has only %d vertices with out-edges; running from those %d\n", k, name, len(srcs), len(srcs))
	}
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

func writeValues(w io.Writer, g *graph.Graph, value func(uint32) (uint64, bool)) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var buf []byte
	ids := g.IDs()
	for v := 0; v < g.NumVertices(); v++ {
		buf = strconv.AppendUint(buf[:0], ids.External(uint32(v)), 10)
		buf = append(buf, ' ')
		if x, ok := value(uint32(v)); ok {
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

// writeForest writes one "u v" line per forest edge, in the file's ids.
func writeForest(w io.Writer, g *graph.Graph, edges []cc.Edge) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var buf []byte
	ids := g.IDs()
	for _, e := range edges {
		buf = strconv.AppendUint(buf[:0], ids.External(e.U), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendUint(buf, ids.External(e.V), 10)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// startCPUProfile starts Go's CPU profiler writing to path; stop ends the
// profile, closes the file and reports the first write error.
func startCPUProfile(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	// pprof drops its writes' errors (a full disk, /dev/full): without
	// this the profile would be lost while the command exits 0.
	w := &firstErrWriter{w: f}
	if err := pprof.StartCPUProfile(w); err != nil {
		f.Close()
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile() // waits for the profile's last write
		cerr := f.Close()
		if w.err != nil {
			return fmt.Errorf("writing %s: %w", path, w.err)
		}
		return cerr
	}, nil
}

// firstErrWriter passes writes on to w and keeps the first error.
type firstErrWriter struct {
	w   io.Writer
	err error
}

func (e *firstErrWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
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
