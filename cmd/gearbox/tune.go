package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/gearbox-graph/gearbox/internal/atomicfile"
	"github.com/gearbox-graph/gearbox/internal/smallfile"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/tuning"
)

// sweepFlags are the flags tune and bench share: what to run, where, and
// where the reports go.
type sweepFlags struct {
	graphs      string
	format      string
	algorithms  string
	sources     int
	seed        uint64
	undirected  bool
	weightScale float64
	device      string
	workers     int
	outDir      string
	thresholds  string
	verify      bool
	repeats     int
}

func (f *sweepFlags) register(fs *flag.FlagSet, outDir string) {
	fs.StringVar(&f.graphs, "graphs", "kron:14,urand:14,grid:128:128", "comma-separated `LIST` of graphs: each a --gen spec (kron:S[:EF], urand:S[:EF], grid:W:H) or a graph file")
	fs.StringVar(&f.format, "format", "", "input format of every graph file in --graphs (default: each by its extension): "+formatNames())
	fs.StringVar(&f.algorithms, "algorithms", "bfs,sssp", "comma-separated `LIST` of algorithms: "+strings.Join(tuning.AlgorithmNames(), ", "))
	fs.IntVar(&f.sources, "sources", 8, "run every configuration from `K` seeded random sources (after one warm-up run) and report medians")
	fs.Uint64Var(&f.seed, "seed", 0, "seed for generators, sources and derived SSSP weights (0 = default)")
	fs.BoolVar(&f.undirected, "undirected", false, "symmetrize graph files (treat every arc as an undirected edge)")
	fs.Float64Var(&f.weightScale, "weight-scale", 0, "multiply real-valued weights of graph files by `S` and round them (SSSP needs integers)")
	fs.StringVar(&f.device, "device", "cpu", "backend: cpu, cuda or auto")
	registerWorkers(fs, &f.workers)
	fs.StringVar(&f.outDir, "out-dir", outDir, "write the CSV, markdown and PNG reports into `DIR` (created if needed)")
	fs.IntVar(&f.repeats, "repeats", 1, "time each source `R` times and keep the fastest (filters out other processes' interference on a shared machine)")
	fs.BoolVar(&f.verify, "verify", true, "check each configuration's warm-up run against the serial reference")
}

// graphItem is one entry of --graphs.
type graphItem struct {
	in   inputFlags
	name string
}

// parseGraphs splits --graphs and checks every item before anything is
// loaded: generator specs must parse, files must exist (all missing files
// are reported at once), and no graph may be listed twice, as the reports
// key their rows by graph and would keep only one of the two.
func (f *sweepFlags) parseGraphs() ([]graphItem, error) {
	var items []graphItem
	var missing []string
	if f.format != "" {
		if _, err := graph.ParseFormat(f.format); err != nil {
			return nil, fmt.Errorf("%w: --format: %v", errUsage, err)
		}
	}
	specs := map[string]string{} // canonical spec -> item
	type file struct {
		item string
		st   os.FileInfo
	}
	var files []file
	for _, it := range strings.Split(f.graphs, ",") {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		in := inputFlags{undirected: f.undirected, weightScale: f.weightScale, seed: f.seed}
		kind, _, _ := strings.Cut(it, ":")
		if _, err := os.Stat(it); err != nil && (kind == "kron" || kind == "urand" || kind == "grid") {
			spec, err := graph.ParseGenSpec(it)
			if err != nil {
				return nil, fmt.Errorf("%w: --graphs item %q: %v", errUsage, it, err)
			}
			// kron:5 and kron:5:16 are one graph.
			if prev, ok := specs[spec.String()]; ok {
				return nil, fmt.Errorf("%w: --graphs lists the graph %s twice (%q and %q)", errUsage, spec, prev, it)
			}
			specs[spec.String()] = it
			in.gen = it
			items = append(items, graphItem{in: in, name: it})
			continue
		}
		st, err := os.Stat(it)
		switch {
		case err != nil:
			missing = append(missing, fmt.Sprintf("%s (%v)", it, errors.Unwrap(err)))
			continue
		case st.IsDir():
			return nil, fmt.Errorf("--graphs item %q is a directory, not a graph file", it)
		}
		// Also through another spelling of the path or a link.
		for _, p := range files {
			if os.SameFile(p.st, st) {
				return nil, fmt.Errorf("%w: --graphs lists the file %s twice (%q and %q)", errUsage, filepath.Clean(it), p.item, it)
			}
		}
		// Without --format each file's extension must say its format: a
		// file that does not would otherwise fail after the graphs before
		// it were loaded.
		if f.format == "" {
			if _, err := graph.DetectFormat(it); err != nil {
				return nil, fmt.Errorf("%w: --graphs item %q: %v", errUsage, it, err)
			}
		}
		files = append(files, file{it, st})
		in.path, in.format = it, f.format
		items = append(items, graphItem{in: in})
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("--graphs: cannot read %s", strings.Join(missing, "; "))
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("%w: --graphs is empty", errUsage)
	}
	if err := checkWeightScale(f.weightScale); err != nil {
		return nil, err
	}
	nameFiles(items)
	return items, nil
}

// nameFiles names each graph file in the reports by its base name, or, where
// files of equal base names (a/fb.txt, b/fb.txt) or a generator spec would
// share it, by as many trailing directories as tell them apart, so that no
// graph's rows are merged into another's.
func nameFiles(items []graphItem) {
	depth := make([]int, len(items)) // trailing path elements named; 0: a generator
	parts := make([][]string, len(items))
	for i, it := range items {
		if it.in.path != "" {
			parts[i] = strings.Split(filepath.ToSlash(filepath.Clean(it.in.path)), "/")
			depth[i] = 1
		}
	}
	name := func(i int) string {
		if depth[i] == 0 {
			return items[i].name
		}
		p := parts[i]
		return strings.Join(p[len(p)-min(depth[i], len(p)):], "/")
	}
	for {
		byName := map[string][]int{}
		for i := range items {
			byName[name(i)] = append(byName[name(i)], i)
		}
		grown := false
		for _, same := range byName {
			if len(same) < 2 {
				continue
			}
			for _, i := range same {
				if depth[i] > 0 && depth[i] < len(parts[i]) {
					depth[i]++
					grown = true
				}
			}
		}
		if !grown {
			break
		}
	}
	// Distinct now: files are distinct paths, and a generator's spec
	// names no file (parseGraphs takes an existing file over a spec).
	for i := range items {
		items[i].name = name(i)
	}
}

// checkCommon checks the flags both commands share and parses the
// algorithms and graph list.
func (f *sweepFlags) checkCommon() ([]tuning.Algorithm, []graphItem, error) {
	algs, err := tuning.ParseAlgorithms(f.algorithms)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: --algorithms: %v", errUsage, err)
	}
	if err := checkSources(f.sources); err != nil {
		return nil, nil, err
	}
	if err := checkWorkers(f.workers); err != nil {
		return nil, nil, err
	}
	if f.repeats < 1 {
		return nil, nil, fmt.Errorf("%w: --repeats %d must be at least 1", errUsage, f.repeats)
	}
	if f.outDir == "" {
		return nil, nil, fmt.Errorf("%w: --out-dir is empty", errUsage)
	}
	items, err := f.parseGraphs()
	if err != nil {
		return nil, nil, err
	}
	return algs, items, nil
}

// loadInputs loads or generates every graph and picks its sources.
func (f *sweepFlags) loadInputs(ctx context.Context, e *env, items []graphItem, algs []tuning.Algorithm) ([]*tuning.Input, error) {
	var inputs []*tuning.Input
	for _, it := range items {
		g, err := it.in.load(ctx, e)
		if err != nil {
			return nil, err
		}
		in, err := tuning.NewInput(it.name, g, f.sources, f.seed)
		if err != nil {
			return nil, err
		}
		noteFewerSources(e, it.name, g, f.sources, in.Sources)
		inputs = append(inputs, in)
	}
	if err := tuning.CheckInputs(inputs, algs); err != nil {
		return nil, err
	}
	return inputs, nil
}

// sourcesDesc describes the sources per graph for the reports: k, and
// the graphs that had fewer vertices with out-edges and ran from fewer.
func sourcesDesc(inputs []*tuning.Input, k int) string {
	var fewer []string
	for _, in := range inputs {
		if len(in.Sources) < k {
			fewer = append(fewer, fmt.Sprintf("%s: %d", in.Name, len(in.Sources)))
		}
	}
	if len(fewer) == 0 {
		return strconv.Itoa(k)
	}
	return fmt.Sprintf("%d (%s; all their vertices with out-edges)", k, strings.Join(fewer, ", "))
}

// startThresholds returns the thresholds algorithm alg ("": none in
// particular) runs with on the backend: from the backend's section of
// --thresholds (alg's own section of it if any), or without it by default
// (the shipped section for its device, likewise, else the device-derived
// defaults).
func (f *sweepFlags) startThresholds(b runtime.Backend, alg string) (tuning.Setting, error) {
	if f.thresholds == "" {
		k, err := algorithms.Values(decider.DefaultThresholdSet(), b.Device(), alg)
		if err != nil {
			return tuning.Setting{}, err
		}
		return tuning.Setting{Thresholds: runtime.DefaultThresholdsFor(b, alg), Knobs: k}, nil
	}
	return tuning.LoadSectionFor(f.thresholds, b.Device(), alg)
}

// progress returns a progress callback drawing a bar on stderr when it is
// a terminal, and a function finishing it.
// readSaved reads the CSV (what, for messages) that --plot-only redraws,
// with read, and creates outDir. A CSV without rows (a sweep interrupted
// before its first) is refused: it would give an empty report and exit 0.
func readSaved[T any](csvPath, what, outDir string, read func(io.Reader) (T, error), rows func(T) int) (T, error) {
	var none T
	b, err := smallfile.ReadFile(csvPath, smallfile.Report, what)
	if err != nil {
		return none, fmt.Errorf("--plot-only: %w", err)
	}
	res, err := read(bytes.NewReader(b))
	if err != nil {
		return none, fmt.Errorf("%s: %w", csvPath, err)
	}
	if rows(res) == 0 {
		return none, fmt.Errorf("%s: no rows after the header: nothing to redraw", csvPath)
	}
	if err := makeOutDir(outDir); err != nil {
		return none, err
	}
	return res, nil
}

// makeOutDir creates --out-dir (and its parents) if needed.
func makeOutDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out-dir: %w", err)
	}
	return nil
}

// sweepResult is what a bench or tune sweep returns.
type sweepResult interface {
	comparable
	Kept() (rows int, complete bool)
}

// runSweep runs the sweep of command cmd, which writes its rows to the CSV
// file csvPath. The file is committed also when the sweep is interrupted,
// so the finished rows are kept; rest names what is then not written.
func runSweep[R sweepResult](e *env, cmd, csvPath, rest string, sweep func(csv io.Writer, bar func(done, total int)) (R, error)) (R, error) {
	var none R
	csvFile, err := atomicfile.Create(csvPath)
	if err != nil {
		return none, fmt.Errorf("--out-dir: %w", err)
	}
	defer csvFile.Abort()
	bar, finish := progress(e, cmd)
	res, err := sweep(csvFile, bar)
	finish()
	if cerr := csvFile.Commit(); cerr != nil && err == nil {
		err = fmt.Errorf("%s: %w", csvPath, cerr)
	}
	if err != nil && res != none {
		if rows, complete := res.Kept(); !complete {
			fmt.Fprintf(e.stdout, "interrupted: kept %d finished rows in %s; %s not written\n", rows, csvPath, rest)
			return res, fmt.Errorf("%s stopped after %d rows: %w", cmd, rows, err)
		}
	}
	return res, err
}

func progress(e *env, what string) (func(done, total int), func()) {
	if !e.interactive {
		return nil, func() {}
	}
	var bar *progressbar.ProgressBar
	return func(done, total int) {
			if bar == nil {
				bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(e.stderr),
					progressbar.OptionSetDescription(what), progressbar.OptionShowCount(),
					progressbar.OptionSetWidth(30), progressbar.OptionThrottle(100*time.Millisecond),
					progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
			}
			bar.Set(done)
		}, func() {
			if bar != nil {
				bar.Finish()
			}
		}
}

// tuneFlags are the flags of `gearbox tune`.
type tuneFlags struct {
	sweepFlags
	ranges        map[tuning.Param]*string
	passes        int
	thresholdsOut string
	section       string
	plotCSV       string
	score         string
}

// tuneRowHook, when set (tests), is called after each finished row.
var tuneRowHook func(tuning.TuneRow)

func cmdTune(ctx context.Context, e *env, args []string) error {
	f := tuneFlags{ranges: map[tuning.Param]*string{}}
	fs := newFlagSet(e, "tune", "")
	fs.Usage = func() {
		fmt.Fprint(e.stderr, `usage: gearbox tune [flags]

Tunes the adaptive policy's thresholds by coordinate descent: each knob in
turn (T3, sample_every, T2, T1, alpha, beta, delta_factor, delta, threads per
block) is swept over its RANGE with the others at the best setting so far, on
every graph and algorithm it affects, from --sources sources each (one warm-up
run per value, then the values interleaved, medians); the value with the
lowest geometric-mean time (wall time, or the GPU's time with --score
device) replaces the current value only if it is significantly faster (a
sign test over the runs paired by graph and source, p < 0.01 shared by the
values) and over 1% faster; every sweep measures the current value too. A full
cartesian product would take hours; the descent measures each knob's values
once per pass. Writes tune.csv (rows
flushed as they finish), tune-<knob>-<algorithm>.png, tune.md and the best setting as the
backend's section of --thresholds-out. Threads per block only affects GPU
backends; on the CPU it is recorded, not swept.

With --section ALG (--algorithms must be ALG alone) the descent starts from,
and writes, ALG's own section ([cpu.ALG], [gpu."<device>".ALG]), whose keys
override the device section's for ALG only; on a GPU, --thresholds-out must
already have the device section.

flags:
`)
		fs.PrintDefaults()
	}
	f.register(fs, "tune-out")
	fs.StringVar(&f.thresholds, "thresholds", "", "start from the backend's section of thresholds `FILE` (with --section, ALG's own section of it if any; default: built-in defaults)")
	fs.StringVar(&f.thresholdsOut, "thresholds-out", "", "merge the best setting into thresholds `FILE` as the backend's section, or ALG's with --section (default: OUT-DIR/thresholds.toml)")
	fs.StringVar(&f.section, "section", "", "tune and write algorithm `ALG`'s own section ("+strings.Join(algorithms.Sections(), ", ")+"; --algorithms must be ALG alone) instead of the device section")
	fs.IntVar(&f.passes, "passes", 1, "rounds of coordinate descent over the knobs")
	fs.StringVar(&f.plotCSV, "plot-only", "", "run nothing: redraw the plots of a saved sweep `CSV` (a tune.csv) into --out-dir")
	fs.StringVar(&f.score, "score", string(tuning.ScoreWall), "rank each knob's values by `TIME`: wall (the whole call) or device (the GPU's time: the iterations' kernels and control-block reads, "+
		"excluding the set-up and the result copy, which no threshold changes and which add noise; needs --device cuda)")
	for _, p := range tuning.Params() {
		s := new(string)
		f.ranges[p] = s
		fs.StringVar(s, p.Flag(), p.DefaultRange(), p.Doc()+": `RANGE` a,b,c | lo:hi | lo:hi:step | lo:hi:xFACTOR ('' = keep the start value)")
	}
	pos, helped, err := parseFlags(fs, args)
	if helped || err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: tune takes no positional arguments, got %q", errUsage, pos)
	}
	score, err := tuning.ParseScore(f.score)
	if err != nil {
		return fmt.Errorf("%w: --score: %w", errUsage, err)
	}
	if f.plotCSV != "" {
		return replot(e, f.plotCSV, f.outDir, score)
	}
	// Check every input before any long run: flags, ranges, graph files,
	// the backend and the thresholds file.
	if f.passes < 1 {
		return fmt.Errorf("%w: --passes %d must be at least 1", errUsage, f.passes)
	}
	algs, items, err := f.checkCommon()
	if err != nil {
		return err
	}
	if f.section != "" {
		if !slices.Contains(algorithms.Sections(), f.section) {
			return fmt.Errorf("%w: --section %q: not an algorithm (valid: %s)", errUsage, f.section, strings.Join(algorithms.Sections(), ", "))
		}
		// A section is tuned on its algorithm alone: a score over others
		// would not be its optimum.
		if len(algs) != 1 || string(algs[0]) != f.section {
			return fmt.Errorf("%w: --section %s tunes %s alone; it needs --algorithms %s, got %q", errUsage, f.section, f.section, f.section, f.algorithms)
		}
	}
	var sweeps []tuning.Sweep
	for _, p := range tuning.Params() {
		if strings.TrimSpace(*f.ranges[p]) == "" {
			continue
		}
		sw, err := tuning.NewSweep(p, *f.ranges[p])
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		if affectsAny(p, algs) {
			sweeps = append(sweeps, sw)
		}
	}
	if len(sweeps) == 0 {
		return fmt.Errorf("%w: nothing to sweep: every range is empty", errUsage)
	}
	backend, closeBackend, err := openBackend(e, f.device, f.workers)
	if err != nil {
		return err
	}
	defer closeBackend()
	// Device time needs a GPU (--device auto may have fallen back to the
	// CPU): refuse before any graph is loaded.
	if err := score.Check(backend); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	start, err := f.startThresholds(backend, f.section)
	if err != nil {
		return err
	}
	device := tuning.DeviceName(backend)
	if f.thresholdsOut == "" {
		f.thresholdsOut = filepath.Join(f.outDir, "thresholds.toml")
	}
	if err := tuning.CheckSectionTarget(f.thresholdsOut, device, f.section); err != nil {
		return fmt.Errorf("--thresholds-out: %w", err)
	}
	if f.thresholds == "" {
		if err := noteReplacedKeys(e, f.thresholdsOut, device, f.section, start, sweeps); err != nil {
			return err
		}
	}
	if err := makeOutDir(f.outDir); err != nil {
		return err
	}
	if st, err := os.Stat(filepath.Dir(f.thresholdsOut)); err != nil || !st.IsDir() {
		return fmt.Errorf("--thresholds-out %s: its directory does not exist", f.thresholdsOut)
	}
	csvPath := filepath.Join(f.outDir, "tune.csv")
	// --thresholds-out may be --thresholds: tune merges its result into it.
	if err := checkOutputs(f.inputFiles(items, false), output{"--out-dir", csvPath}, output{"--out-dir", filepath.Join(f.outDir, "tune.md")}, output{"--thresholds-out", f.thresholdsOut}); err != nil {
		return err
	}
	inputs, err := f.loadInputs(ctx, e, items, algs)
	if err != nil {
		return err
	}
	_, canTPB := backend.(tuning.ThreadsPerBlockSetter)
	if !canTPB && *f.ranges[tuning.ThreadsPerBlock] != "" {
		fmt.Fprintf(e.stdout, "note: threads_per_block (%s) has no effect on the %s backend: recorded, not swept\n",
			*f.ranges[tuning.ThreadsPerBlock], backend.Name())
	}

	res, err := runSweep(e, "tune", csvPath, "thresholds and plots", func(csv io.Writer, bar func(done, total int)) (*tuning.TuneResult, error) {
		return tuning.Tune(ctx, tuning.TuneConfig{
			Inputs: inputs, Algorithms: algs, Start: start, Sweeps: sweeps,
			Passes: f.passes, Score: score, Backend: backend, Logger: e.log, Verify: f.verify, Repeats: f.repeats, CSV: csv,
			Progress: bar, OnRow: tuneRowHook,
		})
	})
	if err != nil {
		return err
	}

	env := tuning.DetectEnv(backend) // after the run: its load average covers it
	var report strings.Builder
	fmt.Fprintf(&report, "tune on %s (%s): %d graphs x %s sources (fastest of %d runs each), %s, %d pass(es) of coordinate descent, scored by %s time\n",
		env.Device, backend.Name(), len(inputs), sourcesDesc(inputs, f.sources), f.repeats, f.algorithms, f.passes, res.Score)
	writeSteps(&report, res)
	best := res.Best
	fmt.Fprintf(&report, "\nbest setting (%s):\n%s", tuning.SectionNameFor(device, f.section), tuning.RenderSettingFor(device, f.section, best))
	io.WriteString(e.stdout, report.String())

	comments := []string{fmt.Sprintf("tuned by gearbox tune on %s, %s, commit %s, %s", env.Device, env.Date, env.Commit, env.Backend),
		fmt.Sprintf("graphs %s; algorithms %s; %s sources; scored by %s time", f.graphs, f.algorithms, sourcesDesc(inputs, f.sources), res.Score)}
	if err := tuning.WriteSectionFor(f.thresholdsOut, device, f.section, best, comments...); err != nil {
		return err
	}
	written := []string{csvPath, f.thresholdsOut}
	swept := map[tuning.Param]bool{} // skipped knobs have no rows to plot
	for _, st := range res.Steps {
		swept[st.Param] = swept[st.Param] || !st.Skipped
	}
	for _, sw := range sweeps {
		if !swept[sw.Param] {
			continue
		}
		for _, a := range algs {
			if !sw.Param.Affects(a) {
				continue
			}
			p := filepath.Join(f.outDir, "tune-"+string(sw.Param)+"-"+string(a)+".png")
			if err := tuning.PlotSweep(res.Rows, sw.Param, a, res.Score, p); err != nil {
				return err
			}
			written = append(written, p)
		}
	}
	md := filepath.Join(f.outDir, "tune.md")
	if err := writeOutput(e, md, func(w io.Writer) error {
		fmt.Fprintf(w, "# gearbox tune\n\n")
		for _, kv := range env.Lines() {
			fmt.Fprintf(w, "- %s: %s\n", kv[0], kv[1])
		}
		fmt.Fprintf(w, "- graphs: %s\n- algorithms: %s\n- sources: %s\n- score: %s\n\n```\n%s```\n", f.graphs, f.algorithms, sourcesDesc(inputs, f.sources), res.Score, report.String())
		return nil
	}); err != nil {
		return err
	}
	written = append(written, md)
	fmt.Fprintf(e.stdout, "\nwrote %s\n", strings.Join(written, ", "))
	return nil
}

// noteReplacedKeys says on stderr which keys of the section of
// --thresholds-out that tune will replace change without being swept:
// without --thresholds they are written from the start, the thresholds
// the adaptive policy uses by default (the shipped section), not kept
// from the file, which an earlier tune may have written (T1 = 32 became
// 64 without a word).
func noteReplacedKeys(e *env, out, device, section string, start tuning.Setting, sweeps []tuning.Sweep) error {
	old, ok, err := tuning.ExistingSection(out, device, section)
	if err != nil {
		return fmt.Errorf("--thresholds-out: %w", err)
	}
	if !ok {
		return nil
	}
	var swept []tuning.Param
	for _, sw := range sweeps {
		swept = append(swept, sw.Param)
	}
	if changed := tuning.ChangedKeys(old, start, swept); len(changed) > 0 {
		fmt.Fprintf(e.stderr, "note: --thresholds-out %s has %s; tune replaces it, taking the keys it does not sweep from the built-in thresholds, not from the file: %s (pass --thresholds %s to start from the file's values and keep them)\n",
			out, tuning.SectionNameFor(device, section), strings.Join(changed, ", "), out)
	}
	return nil
}

// writeSteps prints each knob's sweep: the score of every value and the
// value kept.
func writeSteps(w io.Writer, res *tuning.TuneResult) {
	fmt.Fprintf(w, "score = geometric mean over graphs and algorithms of the %s (ms); * = kept; p = sign test against the current value\n", res.Score.Describe())
	for _, st := range res.Steps {
		if st.Skipped {
			why := "no effect on this backend"
			if st.Param == tuning.Delta {
				why = "delta_factor > 0 derives it per graph"
			}
			fmt.Fprintf(w, "pass %d %-17s not swept (%s)\n", st.Pass, st.Param, why)
			continue
		}
		fmt.Fprintf(w, "pass %d %-17s", st.Pass, st.Param)
		for i, v := range st.Values {
			mark := ""
			if v == st.Best {
				mark = "*"
			}
			p := ""
			if i < len(st.P) && v != st.Current {
				p = fmt.Sprintf(" (p %.2g)", st.P[i])
			}
			fmt.Fprintf(w, " %s=%.3f%s%s", fmtParam(st.Param, v), st.Scores[i]*1e3, mark, p)
		}
		if st.Best == st.Current {
			fmt.Fprintf(w, "\n       kept the current %s: no value significantly faster", fmtParam(st.Param, st.Current))
		}
		fmt.Fprintf(w, "\n       fastest per graph:")
		for _, b := range tuning.BestPerGraph(res.Rows, st.Pass, st.Param, res.Score) {
			fmt.Fprintf(w, " %s/%s=%s", b.Algorithm, b.Graph, fmtParam(st.Param, b.Value))
		}
		fmt.Fprintf(w, "\n")
	}
}

func fmtParam(p tuning.Param, v float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.4f", v), "0"), ".")
}

func affectsAny(p tuning.Param, algs []tuning.Algorithm) bool {
	for _, a := range algs {
		if p.Affects(a) {
			return true
		}
	}
	return false
}

// replot redraws the plots of a saved tune.csv, by score (the CSV does not
// record the one its sweep used).
func replot(e *env, csvPath, outDir string, score tuning.Score) error {
	rows, err := readSaved(csvPath, "a tune CSV", outDir, tuning.ReadTuneCSV, func(rows []tuning.TuneRow) int { return len(rows) })
	if err != nil {
		return err
	}
	type key struct {
		p tuning.Param
		a tuning.Algorithm
	}
	seen := map[key]bool{}
	var written []string
	for _, r := range rows {
		k := key{r.Param, r.Algorithm}
		if seen[k] {
			continue
		}
		seen[k] = true
		p := filepath.Join(outDir, "tune-"+string(r.Param)+"-"+string(r.Algorithm)+".png")
		if err := tuning.PlotSweep(rows, r.Param, r.Algorithm, score, p); err != nil {
			return err
		}
		written = append(written, p)
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", strings.Join(written, ", "))
	return nil
}
