package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms"
	_ "github.com/gearbox-graph/gearbox/algorithms/all" // the algorithms gearbox run, bench and tune know
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/tuning"
)

// runSourceHook, when set (tests), is called after each source's run.
var runSourceHook func()

// runFlags are the flags of `gearbox run`.
type runFlags struct {
	runCommon
	source  string
	sources int
	target  string
	parents bool
	pairs   string
	repeat  int
	variant string
	// params holds the algorithms' knob flags (--delta) by key; 0 keeps
	// the thresholds' value.
	params     map[string]uint64
	thresholds string
	trace      string
	json       bool
	cpuprofile string
	cold       bool
}

func (f *runFlags) register(fs *flag.FlagSet) {
	f.runCommon.register(fs, "backend: cpu, cuda or auto (cuda when a GPU is usable and the cost model expects it faster on this graph, else cpu; the output says why)")
	fs.StringVar(&f.source, "source", "", "source vertex `ID` in the input file's ids (default: a seeded random vertex with out-edges)")
	fs.StringVar(&f.target, "target", "", "target vertex `ID` in the input file's ids: bfs and sssp print a shortest path to it, stcon searches for it")
	fs.BoolVar(&f.parents, "parents", false, "record a parent per vertex (bfs, sssp); --out gains a third column, the parent's id ('-' for the source and unreached vertices)")
	fs.StringVar(&f.pairs, "pairs", "", "answer the stcon queries of `FILE` (one 's t' a line in the file's ids; # comments) in one process; one line per query to stdout or --out: 's t hops v0 .. vk', or 's t none'")
	fs.IntVar(&f.sources, "sources", 1, "benchmark mode: run from `K` seeded random sources and report medians")
	fs.IntVar(&f.repeat, "repeat", 1, "benchmark mode: run each source (or, without a source, the algorithm) `R` times and report medians")
	fs.StringVar(&f.variant, "variant", "auto", variantHelp())
	f.params = map[string]uint64{}
	for _, p := range runFlagParams() {
		fs.Var(uintFlag{f.params, p.Key}, p.FlagName(), p.Doc+": a whole number `N` (0 = from the thresholds; "+strings.Join(flagOwners(p.Key), ", ")+" only)")
	}
	fs.StringVar(&f.thresholds, "thresholds", "", "thresholds `FILE` (default: built-in defaults, as in thresholds.toml)")
	fs.StringVar(&f.trace, "trace", "", "write the run's statistics with a per-iteration trace as JSON to `FILE` ('-' for stdout)")
	fs.StringVar(&f.out, "out", "", "write one 'id value' line per vertex to `FILE` ('-' for stdout; unreachable = inf)")
	fs.BoolVar(&f.verify, "verify", false, "check the result against a serial reference")
	fs.BoolVar(&f.json, "json", false, "print one JSON object (graph, algorithm, sources, times, variants, result summary) on stdout instead of the text summary")
	fs.BoolVar(&f.cold, "cold", false, "benchmark mode (--sources K, --repeat R): no untimed warm-up run before the timed ones")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a Go CPU profile of the runs (not the graph's loading) to `FILE` ('-' for stdout), for go tool pprof")
}

// uintFlag is a whole-number knob flag stored in a map by key.
type uintFlag struct {
	m   map[string]uint64
	key string
}

func (u uintFlag) String() string {
	if u.m == nil {
		return "0"
	}
	return strconv.FormatUint(u.m[u.key], 10)
}

func (u uintFlag) Set(s string) error {
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return errors.New("parse error")
	}
	u.m[u.key] = v
	return nil
}

// runFlagParams are the algorithm knobs gearbox run takes as flags
// (algorithms.Param.Flag), each once however many algorithms declare it.
func runFlagParams() []algorithms.Param {
	var out []algorithms.Param
	seen := map[string]bool{}
	for _, s := range algorithms.All() {
		for _, p := range s.Params {
			if p.Flag && !seen[p.Key] {
				seen[p.Key] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// flagOwners lists the algorithms that declare knob key as a flag.
func flagOwners(key string) []string {
	var names []string
	for _, s := range algorithms.All() {
		if p, ok := s.Param(key); ok && p.Flag {
			names = append(names, s.Name)
		}
	}
	return names
}

// variantHelp is --variant's help: each algorithm's static variants.
func variantHelp() string {
	var b strings.Builder
	b.WriteString("auto (adaptive policy) or a static variant")
	groups := map[string][]string{} // variant list -> algorithms
	var order []string
	for _, s := range algorithms.All() {
		k := strings.Join(s.Variants, ", ")
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], s.Name)
	}
	// Traversals without pull say who has it: refusing pull at flag
	// parsing spares loading the graph, and the help should say why.
	var pullers []string
	pulling := map[string]bool{} // the pullers' variants
	for _, s := range algorithms.All() {
		if slices.Contains(s.Variants, "pull") {
			pullers = append(pullers, strings.ToUpper(s.Name))
			for _, v := range s.Variants {
				pulling[v] = true
			}
		}
	}
	for _, k := range order {
		fmt.Fprintf(&b, "; %s: %s", strings.Join(groups[k], ", "), k)
		vs := strings.Split(k, ", ")
		if !slices.Contains(vs, "pull") && slices.ContainsFunc(vs, func(v string) bool { return pulling[v] }) {
			fmt.Fprintf(&b, " (pull is %s only)", strings.Join(pullers, ", "))
		}
	}
	return b.String()
}

func algorithmNames() string { return strings.Join(algorithms.Names(), ", ") }

// sourcedNames lists the algorithms that run from a source.
func sourcedNames() string {
	var names []string
	for _, s := range algorithms.All() {
		if s.Sourced {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, " and ")
}

func cmdRun(ctx context.Context, e *env, args []string) (err error) {
	if len(args) > 0 {
		if s, ok := algorithms.Lookup(args[0]); ok && s.OwnFlags {
			cmd, ok := ownFlagCommands[s.Name]
			if !ok {
				return fmt.Errorf("gearbox run %s: no command for its own flags", s.Name)
			}
			return cmd(ctx, e, args[1:])
		}
	}
	var f runFlags
	fs := newFlagSet(e, "run", "ALGORITHM")
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: gearbox run ALGORITHM [flags]\n\nalgorithms:\n")
		for _, s := range algorithms.All() {
			fmt.Fprintf(e.stderr, "  %-8s %s\n", s.Name, s.Doc)
		}
		fmt.Fprintf(e.stderr, "\nflags:\n")
		fs.PrintDefaults()
	}
	f.register(fs)
	pos, help, err := parseFlags(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: run needs one algorithm (%s), got %q", errUsage, algorithmNames(), pos)
	}
	alg, ok := algorithms.Lookup(pos[0])
	if !ok {
		return fmt.Errorf("%w: unknown algorithm %q (algorithms: %s)", errUsage, pos[0], algorithmNames())
	}
	if err := checkSources(f.sources); err != nil {
		return err
	}
	if err := checkWorkers(f.workers); err != nil {
		return err
	}
	if err := checkCount("repeat", f.repeat, 1, maxSources, ""); err != nil {
		return err
	}
	if f.sources > 1 && (f.source != "" || f.out != "") {
		return fmt.Errorf("%w: --sources K picks its own sources; it cannot be combined with --source or --out", errUsage)
	}
	if err := checkTargetFlags(alg, &f); err != nil {
		return err
	}
	if !alg.Sourced && (f.source != "" || f.sources > 1) {
		return fmt.Errorf("%w: %s has no source; --source and --sources apply to %s", errUsage, pos[0], sourcedNames())
	}
	if f.variant != "auto" && !slices.Contains(alg.Variants, f.variant) {
		return fmt.Errorf("%w: --variant %q is not a variant of %s (valid: auto, %s)", errUsage, f.variant, pos[0], strings.Join(alg.Variants, ", "))
	}
	for key, v := range f.params {
		if _, own := alg.Param(key); !own && v > 0 {
			return fmt.Errorf("%w: --%s applies to %s, not %s", errUsage, strings.ReplaceAll(key, "_", "-"), strings.Join(flagOwners(key), ", "), pos[0])
		}
	}
	algOpts, err := alg.Options(f.variant, f.params)
	if err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	// Check everything cheap before loading a large graph: a result or
	// trace that could not be written would be lost after the run.
	if err := checkOutputs(f.inputFiles(), output{"--out", f.out}, output{"--trace", f.trace}, output{"--cpuprofile", f.cpuprofile}); err != nil {
		return err
	}
	backend, closeBackend, err := openBackend(e, f.device, f.workers)
	if err != nil {
		return err
	}
	defer func() { closeBackend() }()
	ropts := []runtime.Option{runtime.WithLogger(e.log), runtime.WithTrace(f.trace != "")}
	if f.thresholds != "" {
		set, err := algorithms.LoadThresholds(f.thresholds)
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
	ropts = append(ropts, algOpts...)
	if alg.Parents != nil && (f.parents || f.target != "") {
		ropts = append(ropts, alg.Parents())
	}
	runAlg := func(ctx context.Context, g *graph.Graph, src uint32, more ...runtime.Option) (*algorithms.Outcome, error) {
		return alg.Run(ctx, g, src, append(append(slices.Clip(ropts), runtime.WithBackend(backend)), more...)...)
	}

	// With --out - the values go to stdout, so the summary goes to stderr
	// rather than mix into them.
	sum := e.stdout
	if f.out == "-" || f.trace == "-" || f.cpuprofile == "-" {
		if f.json {
			return fmt.Errorf("%w: --json prints on stdout; write --out, --trace and --cpuprofile to files", errUsage)
		}
		sum = e.stderr
	}
	var notes []string
	if f.json {
		sum = &noteWriter{notes: &notes}
	}
	g, err := f.in.load(ctx, e)
	if err != nil {
		return err
	}
	if alg.Weighted && g.WeightKind() == graph.Unweighted {
		g = g.WithDerivedWeights(f.in.seed)
		fmt.Fprintf(sum, "note: the graph is unweighted; %s uses weights in [1,255] derived from seed %d\n", strings.ToUpper(pos[0]), f.in.seed)
	}
	if f.device == "auto" {
		var why string
		backend, closeBackend, why = autoDevice(backend, closeBackend, g, alg.Sourced, max(f.sources, 1)*f.repeat, f.workers)
		if why != "" {
			fmt.Fprintln(sum, why)
		}
	}
	if g.Directed() && (alg.InArcs || (alg.Parents != nil && (f.parents || f.target != ""))) {
		// Built here, not inside the first run, whose time it would
		// otherwise dominate.
		ts := time.Now()
		g.Transpose()
		e.log.Info().Float64("transpose_ms", ms(time.Since(ts))).Msg("in-arcs ready (not in the runs' times)")
	}
	srcs := []uint32{0} // ignored by algorithms without a source
	if alg.Sourced && g.NumVertices() == 0 {
		// The empty graph is valid input with an empty result.
		fmt.Fprintf(sum, "%s on %s: the graph has no vertices, so there is nothing to traverse\n", pos[0], f.in.name())
		if f.out != "" {
			if err := writeOutput(e, f.out, func(io.Writer) error { return nil }); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
		}
		return nil
	}
	if f.pairs != "" {
		return runPairs(ctx, e, alg, g, f.pairs, f.out, func(ctx context.Context, s, t uint32) (*algorithms.Outcome, error) {
			return runAlg(ctx, g, s, algorithms.WithTarget(t))
		})
	}
	var target uint32
	if f.target != "" {
		if target, err = parseVertex(g, "--target", f.target); err != nil {
			return err
		}
		ropts = append(ropts, algorithms.WithTarget(target))
	}
	if alg.Sourced {
		if srcs, err = pickSources(e, g, f.source, f.sources, f.in.seed); err != nil {
			return err
		}
	}
	if f.repeat > 1 {
		// Each source's runs are consecutive, so the later ones are warm
		// (the graph and buffers already where the first put them).
		rep := make([]uint32, 0, len(srcs)*f.repeat)
		for _, s := range srcs {
			for range f.repeat {
				rep = append(rep, s)
			}
		}
		srcs = rep
	}

	if f.cpuprofile != "" {
		stop, perr := startCPUProfile(e, f.cpuprofile)
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
	var last *algorithms.Outcome
	var interrupted error // the interruption after some sources finished
	runOne := func(src uint32) (*algorithms.Outcome, error) {
		t, err := runAlg(ctx, g, src)
		if errors.Is(err, gpu.ErrInsufficientMemory) && f.device == "auto" && backend.Device() != "" {
			// The graph does not fit on the GPU: auto means "the best that works".
			e.log.Info().Err(err).Msg("--device auto: the graph does not fit on the GPU; running on the CPU")
			closeBackend()
			backend, closeBackend = runtime.NewCPU(f.workers), func() {}
			t, err = runAlg(ctx, g, src)
		}
		return t, err
	}
	if len(srcs) > 1 && !f.cold {
		// Benchmark mode: a first run pays one-time costs (memory, the
		// GPU's graph upload, caches) that the medians should not hide
		// behind and a single run should not headline; it is reported apart.
		w, err := runOne(srcs[0])
		if err != nil {
			return fmt.Errorf("warm-up run: %w", err)
		}
		fmt.Fprintf(sum, "warm-up run (not in the medians): %.3f ms\n", ms(w.Stats.Wall))
		last = w
	}
	for i, src := range srcs {
		if last != nil && last.Release != nil {
			last.Release() // done with it: this run reuses its memory
		}
		t, err := runOne(src)
		if err != nil {
			// Interrupted (Ctrl-C) after some sources finished: their
			// medians are results, reported before the error.
			if ctx.Err() != nil && len(times) > 0 {
				interrupted = fmt.Errorf("run stopped after %d of %d sources: %w", len(times), len(srcs), err)
				break
			}
			return err
		}
		wall := t.Stats.Wall.Seconds()
		times = append(times, wall)
		if wall > 0 {
			inspect = append(inspect, 100*t.Stats.Inspection.Seconds()/wall)
			convert = append(convert, 100*t.Stats.Conversion.Seconds()/wall)
		}
		if g := t.Stats.GPU; g != nil {
			kernels = append(kernels, g.Kernels.Seconds())
			transfers = append(transfers, g.Transfers.Seconds())
			setups = append(setups, g.Setup.Seconds())
		}
		mteps = append(mteps, float64(t.Edges())/wall/1e6)
		if f.verify {
			vs := time.Now()
			if err := t.Verify(); err != nil {
				return fmt.Errorf("verification failed for source %d: %w", g.IDs().External(src), err)
			}
			e.log.Debug().Dur("verify_ms", time.Since(vs)).Msg("verified")
		}
		if len(srcs) > 1 {
			fmt.Fprintf(sum, "source %-10d %9.3f ms  %9.1f MTEPS  %d iterations  %s\n",
				g.IDs().External(src), wall*1e3, mteps[i], t.Stats.Iterations, variantSummary(t.Stats))
		}
		last = t
		if runSourceHook != nil {
			runSourceHook()
		}
	}
	st := last.Stats
	st.Graph = f.in.name()
	if alg.Sourced {
		x := g.IDs().External(srcs[len(times)-1])
		st.Source = &x
	}
	if f.json {
		if err := writeRunJSON(e.stdout, pos[0], f.in.name(), g, srcs[:len(times)], times, mteps, last, st, notes); err != nil {
			return err
		}
	}
	fmt.Fprintf(sum, "%s on %s (%d vertices, %d arcs, %s) with %s, policy %s\n",
		pos[0], f.in.name(), g.NumVertices(), g.NumEdges(), directedness(g), st.Backend, st.Policy)
	if len(srcs) == 1 {
		fmt.Fprintln(sum, last.Summary())
		if f.target != "" {
			fmt.Fprintln(sum, pathLine(g, alg.Weighted, srcs[0], target, last))
		}
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
			launches := "" // counted by the vertex-frontier operators only
			if g.Launches > 0 {
				launches = fmt.Sprintf("  %d launches, %d device-side levels (%d in one block%s)", g.Launches, g.Levels, g.LocalLevels, pulled)
			}
			fmt.Fprintf(sum, "gpu: kernels %.3f ms  transfers %.3f ms%s  (setup %.3f ms, graph upload %.3f ms: one-time, not in the time)%s\n",
				ms(g.Kernels), ms(g.Transfers), width, ms(g.Setup), ms(g.Upload), launches)
		}
		if st.Wall > 0 {
			fmt.Fprintf(sum, "inspection %.3f ms (%.2f%%)  conversion %.3f ms (%.2f%%)\n",
				st.Inspection.Seconds()*1e3, 100*st.Inspection.Seconds()/st.Wall.Seconds(),
				st.Conversion.Seconds()*1e3, 100*st.Conversion.Seconds()/st.Wall.Seconds())
		}
	} else {
		over := fmt.Sprintf("%d sources", len(times))
		switch {
		case interrupted != nil && f.repeat == 1:
			over = fmt.Sprintf("the %d of %d sources finished", len(times), len(srcs))
		case interrupted != nil:
			over = fmt.Sprintf("the %d of %d runs finished", len(times), len(srcs))
		case f.repeat > 1 && alg.Sourced:
			over = fmt.Sprintf("%d runs (%d sources x %d repeats)", len(times), len(times)/f.repeat, f.repeat)
		case f.repeat > 1:
			over = fmt.Sprintf("%d runs", len(times))
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
		if err := writeOutput(e, f.trace, func(w io.Writer) error { return st.WriteJSON(w) }); err != nil {
			return fmt.Errorf("--trace: %w", err)
		}
	}
	if f.out != "" {
		if err := writeOutput(e, f.out, last.Write); err != nil {
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

// checkTargetFlags checks --target, --parents and --pairs against the
// algorithm and the other flags, before anything is loaded.
func checkTargetFlags(alg *algorithms.Spec, f *runFlags) error {
	name := alg.Name
	switch {
	case f.target != "" && !alg.Targeted && alg.Parents == nil:
		return fmt.Errorf("%w: --target applies to %s, not %s", errUsage, pathNames(), name)
	case f.parents && alg.Parents == nil:
		return fmt.Errorf("%w: --parents applies to %s, not %s", errUsage, parentNames(), name)
	case f.pairs != "" && !alg.Targeted:
		return fmt.Errorf("%w: --pairs applies to %s, not %s", errUsage, targetedNames(), name)
	case f.pairs != "" && (f.source != "" || f.target != "" || f.sources > 1 || f.trace != "" || f.verify):
		return fmt.Errorf("%w: --pairs FILE gives the sources and targets; it cannot be combined with --source, --target, --sources, --trace or --verify", errUsage)
	case alg.Targeted && f.target == "" && f.pairs == "":
		return fmt.Errorf("%w: %s needs --target ID (and --source ID), or --pairs FILE", errUsage, name)
	case f.sources > 1 && (f.target != "" || f.parents):
		return fmt.Errorf("%w: --sources K is a benchmark mode; it cannot be combined with --target or --parents", errUsage)
	}
	return nil
}

func pathNames() string {
	var names []string
	for _, s := range algorithms.All() {
		if (s.Targeted || s.Parents != nil) && !s.OwnFlags {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ", ")
}

func parentNames() string {
	var names []string
	for _, s := range algorithms.All() {
		if s.Parents != nil {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ", ")
}

func targetedNames() string {
	var names []string
	for _, s := range algorithms.All() {
		if s.Targeted && !s.OwnFlags {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ", ")
}

// parseVertex resolves a vertex id of the input file (flag names it for
// the error).
func parseVertex(g *graph.Graph, flag, id string) (uint32, error) {
	x, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %s %q is not a vertex id", errUsage, flag, id)
	}
	v, ok := g.IDs().Internal(x)
	if !ok {
		return 0, fmt.Errorf("%s %d is not a vertex of the graph (%d vertices, %s)", flag, x, g.NumVertices(), idRange(g))
	}
	return v, nil
}

// pathLine says the run's shortest path from s to t in the file's ids:
// its arcs and, for a weighted algorithm, its length (each step's lightest
// parallel arc, the one a shortest path takes).
func pathLine(g *graph.Graph, weighted bool, s, t uint32, o *algorithms.Outcome) string {
	ids := g.IDs()
	if o.Path == nil {
		return "no path: the run recorded none"
	}
	p, ok := o.Path(t)
	if !ok {
		return fmt.Sprintf("no path from %d to %d", ids.External(s), ids.External(t))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "path %d -> %d: %d arcs", ids.External(p[0]), ids.External(t), len(p)-1)
	if weighted && g.WeightKind() == graph.IntWeights {
		var sum uint64
		for i := 0; i+1 < len(p); i++ {
			w, first := uint32(0), true
			ws := g.EdgeWeights(p[i])
			for j, x := range g.Neighbors(p[i]) {
				if x == p[i+1] && (first || ws[j] < w) {
					w, first = ws[j], false
				}
			}
			sum += uint64(w)
		}
		fmt.Fprintf(&b, ", length %d", sum)
	}
	b.WriteString(":")
	for _, v := range p {
		fmt.Fprintf(&b, " %d", ids.External(v))
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

// startCPUProfile starts Go's CPU profiler writing to path; stop ends the
// profile, closes the file and reports the first write error.
func startCPUProfile(e *env, path string) (stop func() error, err error) {
	f, commit, abort, err := createOutput(e, path)
	if err != nil {
		return nil, err
	}
	// pprof drops its writes' errors (a full disk, /dev/full): without
	// this the profile would be lost while the command exits 0.
	w := &firstErrWriter{w: f}
	if err := pprof.StartCPUProfile(w); err != nil {
		abort()
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile() // waits for the profile's last write
		if w.err != nil {
			abort()
			return fmt.Errorf("writing %s: %w", path, w.err)
		}
		return commit()
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

// noteWriter keeps the lines written to it (the notes of a --json run,
// which go into its object instead of the text summary).
type noteWriter struct{ notes *[]string }

func (w *noteWriter) Write(p []byte) (int, error) {
	for _, l := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		if strings.HasPrefix(l, "note: ") {
			*w.notes = append(*w.notes, strings.TrimPrefix(l, "note: "))
		}
	}
	return len(p), nil
}

// runJSON is the object gearbox run --json prints.
type runJSON struct {
	Graph     graphJSON      `json:"graph"`
	Algorithm string         `json:"algorithm"`
	Backend   string         `json:"backend"`
	Policy    string         `json:"policy"`
	Sources   []uint64       `json:"sources,omitempty"`
	TimesMS   []float64      `json:"times_ms"`
	MedianMS  float64        `json:"median_ms"`
	MTEPS     float64        `json:"median_mteps"`
	Variants  map[string]int `json:"variants"`
	// Result is the last run's result summary (its algorithm's
	// encoding/json form), or its one-line summary.
	Result any      `json:"result"`
	Notes  []string `json:"notes,omitempty"`
}

// graphJSON describes a graph in gearbox run and info --json.
type graphJSON struct {
	Name     string `json:"name"`
	Vertices int    `json:"vertices"`
	Arcs     int64  `json:"arcs"`
	Directed bool   `json:"directed"`
	Weights  string `json:"weights"`
}

func describeGraph(name string, g *graph.Graph) graphJSON {
	return graphJSON{Name: name, Vertices: g.NumVertices(), Arcs: g.NumEdges(), Directed: g.Directed(), Weights: g.WeightKind().String()}
}

func writeRunJSON(w io.Writer, alg, name string, g *graph.Graph, srcs []uint32, times, mteps []float64, last *algorithms.Outcome, st runtime.Stats, notes []string) error {
	o := runJSON{Graph: describeGraph(name, g), Algorithm: alg, Backend: st.Backend, Policy: st.Policy,
		MedianMS: median(times) * 1e3, MTEPS: median(mteps), Variants: st.Variants, Result: last.Result, Notes: notes}
	if spec, _ := algorithms.Lookup(alg); spec != nil && spec.Sourced {
		for _, s := range srcs {
			o.Sources = append(o.Sources, g.IDs().External(s))
		}
	}
	for _, t := range times {
		o.TimesMS = append(o.TimesMS, t*1e3)
	}
	if o.Result == nil {
		o.Result = last.Summary()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(o)
}
