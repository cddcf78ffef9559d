package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/tuning"
)

// benchRowHook, when set (tests), is called after each finished row.
var benchRowHook func(tuning.BenchRow)

func cmdBench(ctx context.Context, e *env, args []string) error {
	var f sweepFlags
	var deltas string
	fs := newFlagSet(e, "bench", "")
	fs.Usage = func() {
		fmt.Fprint(e.stderr, `usage: gearbox bench [flags]

Measures, per algorithm and graph, the serial reference, every static variant
(the 8 push variants, pull for BFS, the ordered SSSP variants once per
--delta and at the graph's derived delta) and the adaptive policy (thresholds
from --thresholds): one warm-up run each, then rounds in which every
configuration runs from each source in turn (interleaved), the fastest of
--repeats per source, medians; then (--confirm) the adaptive policy and the
best static re-timed in a round of their own. Writes bench.csv (a graph's rows
flushed when it finishes), bench.md (speedups over serial; adaptive vs best and
worst static per graph, per source and confirmed; what the adaptive policy ran;
with device, driver, commit, date, Go version and GOMAXPROCS) and
bench-<algorithm>.png.

flags:
`)
		fs.PrintDefaults()
	}
	f.register(fs, "bench-out")
	fs.StringVar(&f.thresholds, "thresholds", "", "run the adaptive policy with the backend's section of thresholds `FILE`, or an algorithm's own section of it where there is one (default: built-in defaults)")
	var plotCSV string
	var compareDefaults bool
	confirm := true
	fs.BoolVar(&confirm, "confirm", true, "after each graph, re-time the adaptive policy and the best static configuration (by wall and by device time) in a round of their own, so that the best static is not favoured by having been picked as the fastest of many noisy medians (rows confirm:*)")
	fs.BoolVar(&compareDefaults, "compare-defaults", false, "also run the adaptive policy with the backend's device-derived default thresholds (row adaptive_defaults), to measure what tuning gained")
	fs.StringVar(&plotCSV, "plot-only", "", "run nothing: redraw the plots and markdown report of a saved benchmark `CSV` (a bench.csv, e.g. of an interrupted run) into --out-dir")
	fs.StringVar(&deltas, "delta", "", "SSSP bucket widths for the ordered static variants: `RANGE` a,b,c | lo:hi | lo:hi:step | lo:hi:xFACTOR (default: 1,16,256 and the thresholds' delta; with a delta_factor, each graph's derived delta is added)")
	pos, helped, err := parseFlags(fs, args)
	if helped || err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: bench takes no positional arguments, got %q", errUsage, pos)
	}
	if plotCSV != "" {
		return replotBench(e, plotCSV, f.outDir)
	}
	// Check every input before any long run.
	algs, items, err := f.checkCommon()
	if err != nil {
		return err
	}
	var ds []uint64
	if deltas != "" {
		sw, err := tuning.NewSweep(tuning.Delta, deltas)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		for _, v := range sw.Values {
			ds = append(ds, uint64(v))
		}
	}
	backend, closeBackend, err := openBackend(e, f.device, f.workers)
	if err != nil {
		return err
	}
	defer closeBackend()
	// Each algorithm's adaptive policy runs with its own thresholds (its
	// per-algorithm section where there is one).
	start, err := f.startThresholds(backend, "")
	if err != nil {
		return err
	}
	th := start.Thresholds
	perAlg := map[tuning.Algorithm]decider.Thresholds{}
	for _, a := range algs {
		t, err := f.startThresholds(backend, string(a))
		if err != nil {
			return err
		}
		if t.Thresholds != th {
			perAlg[a] = t.Thresholds
		}
	}
	// The algorithms' own keys (SSSP's delta) come from --thresholds'
	// file where given, else from the shipped set (runtime's default).
	var set *decider.ThresholdSet
	if f.thresholds != "" {
		if set, err = algorithms.LoadThresholds(f.thresholds); err != nil {
			return err
		}
	}
	var defaults *decider.Thresholds
	var defaultKnobs decider.Knobs
	if compareDefaults {
		t := decider.DefaultThresholds()
		if d, ok := backend.(runtime.DeviceThresholder); ok {
			t = d.DeviceThresholds()
		}
		defaults = &t
		// The owners' device-derived defaults: a set without sections.
		if defaultKnobs, err = algorithms.Values(&decider.ThresholdSet{}, backend.Device(), ""); err != nil {
			return err
		}
	}
	if deltas == "" {
		ds = []uint64{1, 16, 256}
		if _, ok := algorithms.Lookup(string(tuning.SSSP)); ok {
			st, err := f.startThresholds(backend, string(tuning.SSSP))
			if err != nil {
				return err
			}
			d := uint64(st.Get(tuning.Delta))
			if st.Get(tuning.DeltaFactor) == 0 && !slices.Contains(ds, d) {
				ds = append(ds, d) // a derived delta is added per graph
			}
		}
	}
	slices.Sort(ds)
	if err := makeOutDir(f.outDir); err != nil {
		return err
	}
	if err := checkOutputs(f.inputFiles(items, true), output{"--out-dir", filepath.Join(f.outDir, "bench.csv")}, output{"--out-dir", filepath.Join(f.outDir, "bench.md")}); err != nil {
		return err
	}
	inputs, err := f.loadInputs(ctx, e, items, algs)
	if err != nil {
		return err
	}

	csvPath := filepath.Join(f.outDir, "bench.csv")
	res, err := runSweep(e, "bench", csvPath, "markdown and plots", func(csv io.Writer, bar func(done, total int)) (*tuning.BenchResult, error) {
		return tuning.Bench(ctx, tuning.BenchConfig{
			Inputs: inputs, Algorithms: algs, Deltas: ds, Thresholds: th, PerAlgorithm: perAlg, Set: set, Defaults: defaults, DefaultKnobs: defaultKnobs, Backend: backend,
			Logger: e.log, Verify: f.verify, Repeats: f.repeats, Confirm: confirm, CSV: csv, Progress: bar, OnRow: benchRowHook,
		})
	})
	if err != nil {
		return err
	}
	env := tuning.DetectEnv(backend) // after the run: its load average covers it
	md := filepath.Join(f.outDir, "bench.md")
	if err := writeOutput(e, md, func(w io.Writer) error {
		if err := res.WriteMarkdown(w, env); err != nil {
			return err
		}
		_, err := fmt.Fprintf(w, "\nGraphs: %s; %s sources each (seed %d); adaptive thresholds: %s; SSSP deltas of the static ordered variants: %v.\n",
			f.graphs, sourcesDesc(inputs, f.sources), f.seed, describeThresholds(th, perAlg, algs), ds)
		return err
	}); err != nil {
		return err
	}
	written := []string{csvPath, md}
	for _, a := range algs {
		p := filepath.Join(f.outDir, "bench-"+string(a)+".png")
		if err := res.PlotBench(a, p); err != nil {
			return err
		}
		written = append(written, p)
	}
	fmt.Fprintf(e.stdout, "bench on %s (%s), %s sources per graph; adaptive vs best and worst static:\n", env.Device, backend.Name(), sourcesDesc(inputs, f.sources))
	fmt.Fprintf(e.stdout, "%-5s %-24s %11s %11s %-16s %11s %-16s %9s\n", "alg", "graph", "serial ms", "adaptive ms", "best static", "ms", "worst static", "ms")
	for _, s := range res.Summaries {
		fmt.Fprintf(e.stdout, "%-5s %-24s %11.3f %11.3f %-16s %11.3f %-16s %9.3f\n", s.Algorithm, s.Graph,
			s.Serial.Median.Seconds()*1e3, s.Adaptive.Median.Seconds()*1e3, s.Best.Label(), s.Best.Median.Seconds()*1e3,
			s.Worst.Label(), s.Worst.Median.Seconds()*1e3)
	}
	fmt.Fprintf(e.stdout, "\nwrote %s\n", strings.Join(written, ", "))
	return nil
}

// describeThresholds writes the adaptive policy's thresholds: one set, or
// each algorithm's where they differ.
func describeThresholds(th decider.Thresholds, perAlg map[tuning.Algorithm]decider.Thresholds, algs []tuning.Algorithm) string {
	if len(perAlg) == 0 {
		return fmt.Sprintf("%+v", th)
	}
	parts := make([]string, len(algs))
	for i, a := range algs {
		t, ok := perAlg[a]
		if !ok {
			t = th
		}
		parts[i] = fmt.Sprintf("%s %+v", a, t)
	}
	return strings.Join(parts, "; ")
}

// replotBench redraws the plots of a saved bench.csv, and its markdown
// tables (without the environment, which the CSV does not hold).
func replotBench(e *env, csvPath, outDir string) error {
	res, err := readSaved(csvPath, "a bench CSV", outDir, tuning.ReadBenchCSV, func(r *tuning.BenchResult) int { return len(r.Rows) })
	if err != nil {
		return err
	}
	var written []string
	seen := map[tuning.Algorithm]bool{}
	for _, s := range res.Summaries {
		if seen[s.Algorithm] {
			continue
		}
		seen[s.Algorithm] = true
		p := filepath.Join(outDir, "bench-"+string(s.Algorithm)+".png")
		if err := res.PlotBench(s.Algorithm, p); err != nil {
			return err
		}
		written = append(written, p)
	}
	// The CSV holds no environment: the report says so rather than guess.
	na := "n/a (report redrawn from " + filepath.Base(csvPath) + ")"
	md := filepath.Join(outDir, "bench.md")
	if err := writeOutput(e, md, func(w io.Writer) error {
		return res.WriteMarkdown(w, tuning.Env{Backend: na, Device: na, Driver: na, Commit: na, Date: na, GoVersion: na, LoadAvg: na})
	}); err != nil {
		return err
	}
	written = append(written, md)
	fmt.Fprintf(e.stdout, "wrote %s\n", strings.Join(written, ", "))
	return nil
}
