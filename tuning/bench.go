package tuning

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/runtime"
)

// BenchConfig configures Bench.
type BenchConfig struct {
	Inputs     []*Input
	Algorithms []Algorithm
	// Deltas are the bucket widths the ordered SSSP variants run with
	// (default: the thresholds' delta).
	Deltas []uint64
	// Thresholds parameterise the adaptive policy (its delta included);
	// zero means the shipped set's for the backend's device, per
	// algorithm (decider.ThresholdSet.ForAlgorithm).
	Thresholds decider.Thresholds
	// PerAlgorithm, when it has an algorithm, gives that algorithm's
	// thresholds instead of Thresholds (a per-algorithm section).
	PerAlgorithm map[Algorithm]decider.Thresholds
	// Set, when given, is the thresholds file Thresholds came from: the
	// adaptive runs take the algorithms' own keys (SSSP's delta) from it
	// rather than from the shipped set.
	Set *decider.ThresholdSet
	// Defaults, when set, adds the adaptive policy under these thresholds
	// (the device-derived defaults) as a row named AdaptiveDefaults, to
	// measure what tuning gained; DefaultKnobs are the algorithms' and
	// backend's values it runs with (runtime.WithKnobs; nil: the shipped
	// set's).
	Defaults     *decider.Thresholds
	DefaultKnobs decider.Knobs
	Backend      runtime.Backend
	Logger       zerolog.Logger
	// Verify checks each configuration's warm-up run against the serial
	// reference.
	Verify bool
	// Repeats is the runs per source, the fastest counting (default 1).
	Repeats int
	// Confirm re-times, per graph, the adaptive policy and the best
	// static configuration (by wall time, and on a GPU by device time) in
	// a round of their own after the choice (rows named Confirm+variant).
	// The best static is the fastest of many noisy medians, which favours
	// it; in the confirmation round it is measured as the adaptive is.
	Confirm bool
	// CSV, when set, receives a header and one row per measurement,
	// flushed as each graph completes.
	CSV io.Writer
	// Progress, when set, is called as runs finish with the runs done and
	// the total (a run longer than a second is not repeated: its skipped
	// repeats count as done when its graph is).
	Progress func(done, total int)
	OnRow    func(BenchRow)
}

// Names of the non-variant rows of a benchmark.
const (
	Serial           = "serial"
	Adaptive         = "adaptive"
	AdaptiveDefaults = "adaptive_defaults"
	// Confirm prefixes the variant of a row re-timed in the confirmation
	// round (BenchConfig.Confirm): "confirm:adaptive", "confirm:U_B_QU".
	Confirm = "confirm:"
)

// isStatic reports whether a row's variant is a static configuration.
func isStatic(variant string) bool {
	return variant != Serial && variant != Adaptive && variant != AdaptiveDefaults && !strings.HasPrefix(variant, Confirm)
}

// BenchRow is one configuration measured on one graph.
type BenchRow struct {
	Algorithm Algorithm
	Graph     string
	// Variant is Serial (bfs.Reference / sssp.Reference), a static
	// variant's name or Adaptive.
	Variant string
	// Delta is the bucket width of ordered SSSP statics, and the one the
	// adaptive rows ran SSSP with (0 otherwise).
	Delta uint64
	Measurement
	// Speedup is the serial median over this median.
	Speedup float64
}

// Label names the configuration: the variant, with "/d=DELTA" for ordered
// SSSP variants.
func (r BenchRow) Label() string {
	if r.Delta > 0 && isStatic(r.Variant) {
		return r.Variant + "/d=" + strconv.FormatUint(r.Delta, 10)
	}
	return r.Variant
}

// Summary compares the adaptive policy with the static variants on one
// graph (the paper's Fig. 15).
type Summary struct {
	Algorithm Algorithm
	Graph     string
	Serial    BenchRow
	Adaptive  BenchRow
	// Defaults is the adaptive policy under the device-derived default
	// thresholds (Runs 0 when not measured).
	Defaults BenchRow
	// Best and Worst are the fastest and slowest static configurations by
	// wall time; BestDevice and WorstDevice by device time (GPU runs).
	Best, Worst             BenchRow
	BestDevice, WorstDevice BenchRow
	// Same is the static configuration whose variant the adaptive policy
	// ran on every iteration of its counted runs (for ordered SSSP, the
	// one at the adaptive row's delta), if any: the two ran the same
	// kernel sequence, so their ratio is the policy's overhead plus noise.
	Same BenchRow
	// Confirmed are the rows of the confirmation round (variant
	// Confirm+name), if it ran.
	Confirmed []BenchRow
}

// confirmed returns the confirmation round's row of the configuration of
// r (its variant and delta).
func (s Summary) confirmed(r BenchRow) (BenchRow, bool) {
	for _, c := range s.Confirmed {
		if c.Variant == Confirm+r.Variant && c.Delta == r.Delta {
			return c, true
		}
	}
	return BenchRow{}, false
}

// BenchResult holds every row and the per-graph summaries, in run order.
type BenchResult struct {
	Rows      []BenchRow
	Summaries []Summary
	Complete  bool
	// Interleaved says the rows were measured here with the
	// configurations interleaved (false for rows read back from a CSV,
	// which does not say how it was measured).
	Interleaved bool
}

// Kept returns how many rows the sweep finished and whether it ran to
// its end (false: interrupted).
func (r *BenchResult) Kept() (rows int, complete bool) { return len(r.Rows), r.Complete }

type benchConfigRun struct {
	variant string
	delta   uint64
	opts    []runtime.Option
}

// configs lists what Bench runs for alg on in: its Spec's statics (for
// BFS the eight push variants and pull; for SSSP the ordered ones once per
// delta, and once more at the delta the adaptive policy derives for the
// graph, so that it is compared with statics at its own width too; for CC
// its algorithms and SV's working sets), then adaptive.
func (cfg *BenchConfig) configs(alg Algorithm, in *Input) ([]benchConfigRun, error) {
	spec := alg.Spec()
	if spec == nil {
		return nil, fmt.Errorf("%w %q", ErrUnknownAlgorithm, alg)
	}
	statics, err := spec.BenchStatics()
	if err != nil {
		return nil, err
	}
	perDelta := slices.ContainsFunc(statics, func(s algorithms.Static) bool { return s.PerValue == string(Delta) })
	deltas := cfg.Deltas
	var adaptiveDelta, defaultsDelta uint64
	if perDelta {
		g := in.graphFor(alg)
		if spec.ValueFor == nil {
			return nil, fmt.Errorf("%s: statics run per %s, and the spec gives no ValueFor", alg, Delta)
		}
		if adaptiveDelta, err = spec.ValueFor(string(Delta), g, cfg.adaptiveOptions(alg)...); err != nil {
			return nil, err
		}
		if cfg.Defaults != nil {
			if defaultsDelta, err = spec.ValueFor(string(Delta), g, cfg.defaultsOptions()...); err != nil {
				return nil, err
			}
		}
		if !slices.Contains(deltas, adaptiveDelta) {
			deltas = append(slices.Clip(deltas), adaptiveDelta)
		}
	}
	var out []benchConfigRun
	for _, st := range statics {
		switch st.PerValue {
		case "":
			out = append(out, benchConfigRun{variant: st.Name, opts: st.Options})
		case string(Delta):
			for _, d := range deltas {
				opts, err := spec.Options("auto", map[string]uint64{st.PerValue: d})
				if err != nil {
					return nil, err
				}
				out = append(out, benchConfigRun{variant: st.Name, delta: d, opts: append(slices.Clip(st.Options), opts...)})
			}
		default:
			return nil, fmt.Errorf("%s: static %s runs per %s, which bench has no list of", alg, st.Name, st.PerValue)
		}
	}
	out = append(out, benchConfigRun{variant: Adaptive, delta: adaptiveDelta, opts: cfg.adaptiveOptions(alg)})
	return cfg.withDefaults(out, defaultsDelta), nil
}

// runsPerDelta reports whether some of alg's statics run once per delta
// (SSSP's ordered variants).
func runsPerDelta(alg Algorithm) bool {
	s := alg.Spec()
	return s != nil && slices.ContainsFunc(s.Statics, func(st algorithms.Static) bool { return st.PerValue == string(Delta) })
}

// ThresholdsFor returns the thresholds alg's adaptive policy runs with:
// PerAlgorithm's for alg, else Thresholds.
func (cfg *BenchConfig) ThresholdsFor(alg Algorithm) decider.Thresholds {
	if t, ok := cfg.PerAlgorithm[alg]; ok {
		return t
	}
	return cfg.Thresholds
}

// adaptiveOptions are the options of alg's adaptive runs (the backend
// aside).
func (cfg *BenchConfig) adaptiveOptions(alg Algorithm) []runtime.Option {
	opts := []runtime.Option{runtime.WithThresholds(cfg.ThresholdsFor(alg)), runtime.WithBackend(cfg.Backend)}
	if cfg.Set != nil {
		opts = append(opts, runtime.WithThresholdSet(cfg.Set))
	}
	return opts
}

// defaultsOptions are the options of the AdaptiveDefaults runs.
func (cfg *BenchConfig) defaultsOptions() []runtime.Option {
	return []runtime.Option{runtime.WithThresholds(*cfg.Defaults), runtime.WithKnobs(cfg.DefaultKnobs), runtime.WithBackend(cfg.Backend)}
}

// withDefaults appends the adaptive policy under the default thresholds
// (delta: the width it runs SSSP with, 0 otherwise).
func (cfg *BenchConfig) withDefaults(out []benchConfigRun, delta uint64) []benchConfigRun {
	if cfg.Defaults == nil {
		return out
	}
	return append(out, benchConfigRun{variant: AdaptiveDefaults, delta: delta, opts: cfg.defaultsOptions()})
}

// Bench measures, per algorithm and graph, the serial reference, every
// static variant and the adaptive policy: each warmed up once, then, in
// rounds, one run per source and configuration in turn (interleaved, see
// timeInterleaved); per source the fastest of the repeats counts, and
// the median over sources is reported. On cancellation it returns the
// rows of the graphs finished with Complete false and the context's
// error.
func Bench(ctx context.Context, cfg BenchConfig) (*BenchResult, error) {
	if cfg.Backend == nil {
		cfg.Backend = runtime.NewCPU(0)
	}
	if cfg.Thresholds == (decider.Thresholds{}) {
		set := decider.DefaultThresholdSet()
		cfg.Thresholds = set.For(cfg.Backend.Device())
		per := map[Algorithm]decider.Thresholds{}
		for _, a := range cfg.Algorithms {
			if t := set.ForAlgorithm(cfg.Backend.Device(), string(a)); t != cfg.Thresholds {
				per[a] = t
			}
		}
		maps.Copy(per, cfg.PerAlgorithm) // the caller's win
		cfg.PerAlgorithm = per
	}
	if err := cfg.Thresholds.Validate(); err != nil {
		return nil, err
	}
	for a, t := range cfg.PerAlgorithm {
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("%s thresholds: %w", a, err)
		}
	}
	if cfg.Defaults != nil {
		if err := cfg.Defaults.Validate(); err != nil {
			return nil, fmt.Errorf("default thresholds: %w", err)
		}
	}
	if len(cfg.Deltas) == 0 {
		set := cfg.Set
		if set == nil {
			set = decider.DefaultThresholdSet()
		}
		for _, a := range cfg.Algorithms {
			if runsPerDelta(a) {
				k, err := algorithms.Values(set, cfg.Backend.Device(), a.Spec().SectionName())
				if err != nil {
					return nil, err
				}
				if d, ok := k[string(Delta)].(int64); ok {
					cfg.Deltas = []uint64{uint64(d)}
				}
				break
			}
		}
	}
	for _, d := range cfg.Deltas {
		if d < 1 {
			return nil, fmt.Errorf("%w: delta %d, want >= 1", ErrRange, d)
		}
	}
	if err := CheckInputs(cfg.Inputs, cfg.Algorithms); err != nil {
		return nil, err
	}
	repeats := max(cfg.Repeats, 1)
	// Progress counts runs: per configuration a warm-up and a run per
	// source and repeat.
	runsOf := func(in *Input) int { return 1 + len(in.Sources)*repeats }
	confirmed := 0 // configurations of a confirmation round, at most
	if cfg.Confirm {
		confirmed = 3
	}
	total := 0
	configs := map[Algorithm]map[*Input][]benchConfigRun{}
	for _, a := range cfg.Algorithms {
		configs[a] = map[*Input][]benchConfigRun{}
		for _, in := range cfg.Inputs {
			c, err := cfg.configs(a, in)
			if err != nil {
				return nil, err
			}
			configs[a][in] = c
			total += (1 + len(c) + confirmed) * runsOf(in)
		}
	}
	var cw *csv.Writer
	if cfg.CSV != nil {
		cw = csv.NewWriter(cfg.CSV)
		if err := writeCSV(cw, benchHeader); err != nil {
			return nil, err
		}
	}
	r := &runner{backend: cfg.Backend, log: cfg.Logger, verify: cfg.Verify, repeats: repeats}
	res := &BenchResult{Interleaved: true}
	done := 0
	tick := func(to int) {
		done = to
		if cfg.Progress != nil {
			cfg.Progress(done, total)
		}
	}
	emit := func(row BenchRow) error {
		res.Rows = append(res.Rows, row)
		if cw != nil {
			if err := writeCSV(cw, row.record()); err != nil {
				return err
			}
		}
		if cfg.OnRow != nil {
			cfg.OnRow(row)
		}
		return nil
	}
	for _, alg := range cfg.Algorithms {
		for _, in := range cfg.Inputs {
			configs := configs[alg][in]
			groupEnd := done + (1+len(configs)+confirmed)*runsOf(in)
			m, err := measureSerial(ctx, alg, in, repeats)
			if err != nil {
				if ctx.Err() != nil {
					return res, ctx.Err()
				}
				return res, fmt.Errorf("%s serial reference: %w", alg, err)
			}
			serial := BenchRow{Algorithm: alg, Graph: in.Name, Variant: Serial, Measurement: m, Speedup: 1}
			if err := emit(serial); err != nil {
				return res, err
			}
			tick(done + runsOf(in))
			// The configurations are timed interleaved (timeInterleaved),
			// so their rows come when the graph is done.
			runs := make([]func(uint32, bool) (sample, error), len(configs))
			for i, c := range configs {
				runs[i] = func(src uint32, warm bool) (sample, error) {
					t, err := r.once(ctx, alg, in.graphFor(alg), src, c.opts, warm && r.verify)
					if err != nil {
						return t, fmt.Errorf("%s %s: %w", alg, c.variant, err)
					}
					tick(done + 1)
					return t, nil
				}
			}
			// round times the configurations pick interleaved and emits
			// a row for each, its variant prefixed with prefix.
			round := func(pick []int, prefix string) ([]Measurement, error) {
				sub := make([]func(uint32, bool) (sample, error), len(pick))
				for j, i := range pick {
					sub[j] = runs[i]
				}
				ms, err := timeInterleaved(ctx, in, repeats, sub)
				if err != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					return nil, err
				}
				for j, i := range pick {
					c := configs[i]
					row := BenchRow{Algorithm: alg, Graph: in.Name, Variant: prefix + c.variant, Delta: c.delta,
						Measurement: ms[j], Speedup: speedup(serial.Median, ms[j].Median)}
					if err := emit(row); err != nil {
						return nil, err
					}
				}
				return ms, nil
			}
			all := make([]int, len(configs))
			for i := range all {
				all[i] = i
			}
			ms, err := round(all, "")
			if err != nil {
				return res, err
			}
			if cfg.Confirm {
				if _, err := round(confirmPicks(configs, ms), Confirm); err != nil {
					return res, err
				}
			}
			tick(groupEnd) // runs over noRepeat skipped their repeats
		}
	}
	res.Summaries = summaries(res.Rows)
	res.Complete = true
	return res, nil
}

// confirmPicks returns the indices of the configurations a confirmation
// round re-times: the adaptive policy, the fastest static by wall time and,
// where device times exist, the fastest by device time.
func confirmPicks(configs []benchConfigRun, ms []Measurement) []int {
	adaptive, wall, dev := -1, -1, -1
	for i, c := range configs {
		switch {
		case c.variant == Adaptive:
			adaptive = i
		case !isStatic(c.variant):
		default:
			if wall < 0 || ms[i].Median < ms[wall].Median {
				wall = i
			}
			if ms[i].Device > 0 && (dev < 0 || ms[i].Device < ms[dev].Device) {
				dev = i
			}
		}
	}
	var out []int
	for _, i := range []int{adaptive, wall, dev} {
		if i >= 0 && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

func speedup(base, t time.Duration) float64 {
	if t <= 0 {
		return 0
	}
	return float64(base) / float64(t)
}

// benchHeader names the CSV's columns. The last three hold a row's
// per-source wall and device times (ms, ';'-separated, in source order)
// and its iterations per variant ("name:count;..."), for paired
// comparisons and the adaptive policy's choices when a report is redrawn.
var benchHeader = []string{"algorithm", "graph", "variant", "delta", "sources", "median_ms", "min_ms", "max_ms", "speedup_vs_serial", "repeats", "device_ms",
	"per_source_ms", "per_source_device_ms", "variants"}

func (r BenchRow) record() []string {
	d := ""
	if r.Delta > 0 {
		d = strconv.FormatUint(r.Delta, 10)
	}
	return []string{string(r.Algorithm), r.Graph, r.Variant, d, itoa(r.Runs),
		ms(r.Median), ms(r.Min), ms(r.Max), strconv.FormatFloat(r.Speedup, 'f', 3, 64), itoa(r.Repeats), ms(r.Device),
		joinMs(r.PerSource), joinMs(r.PerSourceDevice), formatVariants(r.Variants)}
}

func joinMs(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = ms(d)
	}
	return strings.Join(parts, ";")
}

// byUse returns the variants of m, the most used first (ties by name).
func byUse(m map[string]int) []string {
	names := slices.Collect(maps.Keys(m))
	slices.SortFunc(names, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	return names
}

// formatVariants writes iterations per variant as "name:count;...", the
// most used first.
func formatVariants(m map[string]int) string {
	names := byUse(m)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ":" + itoa(m[n])
	}
	return strings.Join(parts, ";")
}

func parseVariants(s string) (map[string]int, error) {
	if s == "" {
		return nil, nil
	}
	m := map[string]int{}
	for _, f := range strings.Split(s, ";") {
		name, count, ok := strings.Cut(f, ":")
		k, err := strconv.Atoi(count)
		if !ok || name == "" || err != nil || k < 0 {
			return nil, fmt.Errorf("variants %q: want name:count", f)
		}
		m[name] += k
	}
	return m, nil
}

// WriteMarkdown writes the report: the environment, per algorithm a table
// of speedups over the serial reference (rows: graphs; columns: every
// configuration; the paper's Tables 2 and 3), and a table of the adaptive
// policy against the best and worst static configuration per graph (the
// paper's Fig. 15).
func (res *BenchResult) WriteMarkdown(w io.Writer, env Env) error {
	var b strings.Builder
	b.WriteString("# gearbox bench\n\n")
	for _, kv := range env.Lines() {
		fmt.Fprintf(&b, "- %s: %s\n", kv[0], kv[1])
	}
	repeats := 1
	if len(res.Rows) > 0 {
		repeats = res.Rows[0].Repeats
	}
	how := ""
	if res.Interleaved {
		how = "; a graph's configurations interleaved, round by round, the turn rotated per source and round"
	}
	fmt.Fprintf(&b, "\nTimes are medians over the sources (one warm-up run first; per source the fastest of %d runs, or one run when it takes over a second%s), "+
		"wall time around the whole call (each result released before the next run, so its host memory is reused). Speedup = serial reference time / time.\n", repeats, how)
	for _, alg := range res.algorithms() {
		// One column per variant; ordered SSSP variants show their best
		// delta (every delta is in the CSV).
		var labels, graphs []string
		seen := map[string]bool{}
		cell := map[[2]string]BenchRow{}
		for _, r := range res.Rows {
			if r.Algorithm != alg || strings.HasPrefix(r.Variant, Confirm) {
				continue
			}
			if !seen[r.Variant] {
				seen[r.Variant] = true
				if r.Variant != Serial {
					labels = append(labels, r.Variant)
				}
			}
			if !seen["graph:"+r.Graph] {
				seen["graph:"+r.Graph] = true
				graphs = append(graphs, r.Graph)
			}
			k := [2]string{r.Graph, r.Variant}
			if c, ok := cell[k]; !ok || r.Median < c.Median {
				cell[k] = r
			}
		}
		fmt.Fprintf(&b, "\n## %s: speedup over the serial reference\n\n", strings.ToUpper(string(alg)))
		if runsPerDelta(alg) {
			b.WriteString("Ordered variants: the best bucket width (d) of those run.\n\n")
		}
		b.WriteString("| graph | serial ms |")
		for _, l := range labels {
			b.WriteString(" " + l + " |")
		}
		b.WriteString("\n|---|---:|" + strings.Repeat("---:|", len(labels)) + "\n")
		for _, g := range graphs {
			s := cell[[2]string{g, Serial}]
			fmt.Fprintf(&b, "| %s | %s |", g, fmtMs(s.Median))
			for _, l := range labels {
				c, ok := cell[[2]string{g, l}]
				switch {
				case !ok:
					b.WriteString(" |")
				case c.Delta > 0:
					fmt.Fprintf(&b, " %.2f (d=%d) |", c.Speedup, c.Delta)
				default:
					fmt.Fprintf(&b, " %.2f |", c.Speedup)
				}
			}
			b.WriteString("\n")
		}
		res.compareTable(&b, alg, false)
		res.compareTable(&b, alg, true)
		res.choicesTable(&b, alg)
		res.defaultsTable(&b, alg)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// compareTable writes the adaptive policy against the best and worst
// static configuration per graph (the paper's Fig. 15), on wall time or,
// with device set, on device time (GPU runs only): the traversal on the GPU
// without the per-run set-up and the result copy, which are the same for
// every variant and, for sub-millisecond traversals, most of the wall time.
func (res *BenchResult) compareTable(b *strings.Builder, alg Algorithm, device bool) {
	header := false
	for _, s := range res.Summaries {
		a, best, worst := s.Adaptive.Median, s.Best, s.Worst
		val := func(r BenchRow) time.Duration { return r.Median }
		per := func(r BenchRow) []time.Duration { return r.PerSource }
		if device {
			a, best, worst = s.Adaptive.Device, s.BestDevice, s.WorstDevice
			val = func(r BenchRow) time.Duration { return r.Device }
			per = func(r BenchRow) []time.Duration { return r.PerSourceDevice }
		}
		if s.Algorithm != alg || s.Adaptive.Runs == 0 || a == 0 || best.Variant == "" {
			continue
		}
		if !header {
			header = true
			if device {
				fmt.Fprintf(b, "\n## %s on the device: adaptive vs best and worst static\n\n", strings.ToUpper(string(alg)))
				b.WriteString("Device time: the iterations' kernels and control-block reads (set-up, source write and result copy excluded), median over the sources.\n\n")
			} else {
				fmt.Fprintf(b, "\n## %s: adaptive vs best and worst static\n\n", strings.ToUpper(string(alg)))
			}
			b.WriteString("adaptive / best per source: the range over the sources of the ratio of their times (each source's fastest run). " +
				"Confirmed: the adaptive policy and that best static re-timed in a round of their own after the choice, " +
				"as the ratio of medians (per-source range), where the bench ran one: the best static is the fastest of many noisy medians, which favours it.\n\n")
			b.WriteString("| graph | adaptive ms | best static | best ms | worst static | worst ms | adaptive / best | worst / adaptive | adaptive / best per source | confirmed |\n")
			b.WriteString("|---|---:|---|---:|---|---:|---:|---:|---:|---:|\n")
		}
		conf := "-"
		ca, okA := s.confirmed(s.Adaptive)
		cb, okB := s.confirmed(best)
		if okA && okB && val(ca) > 0 && val(cb) > 0 {
			conf = fmt.Sprintf("%.2f (%s)", ratio(val(ca), val(cb)), fmtPaired(per(ca), per(cb)))
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %.2f | %.2f | %s | %s |\n", s.Graph, fmtMs(a),
			best.Label(), fmtMs(val(best)), worst.Label(), fmtMs(val(worst)), ratio(a, val(best)), ratio(val(worst), a),
			fmtPaired(per(s.Adaptive), per(best)), conf)
	}
}

// choicesTable writes what the adaptive policy ran per graph (its
// iterations' variants) and, where it ran one static variant throughout,
// its time against that static configuration's: the same kernels, so the
// ratio is the policy's own cost (inspection, decisions) plus noise. The
// best static is the fastest of many noisy medians, which biases it low;
// the same static is one configuration, measured as the adaptive was.
func (res *BenchResult) choicesTable(b *strings.Builder, alg Algorithm) {
	header := false
	device := false // a device column where any adaptive row has device times
	for _, s := range res.Summaries {
		device = device || (s.Algorithm == alg && s.Adaptive.Device > 0)
	}
	for _, s := range res.Summaries {
		if s.Algorithm != alg || s.Adaptive.Runs == 0 || len(s.Adaptive.Variants) == 0 {
			continue
		}
		if !header {
			header = true
			fmt.Fprintf(b, "\n## %s: what the adaptive policy ran\n\n", strings.ToUpper(string(alg)))
			b.WriteString("Variants: shares of the counted runs' iterations (a persistent GPU launch of several levels is one). " +
				"Same static: the static configuration of the one variant the policy ran throughout, if it did " +
				"(the same kernels; an ordered SSSP's buckets may still differ in width).\n\n")
			b.WriteString("| graph | variants | same static | adaptive / same | per source |")
			if device {
				b.WriteString(" device time: adaptive / same |\n|---|---|---|---:|---:|---:|\n")
			} else {
				b.WriteString("\n|---|---|---|---:|---:|\n")
			}
		}
		same, wall, paired, dev := "-", "-", "-", "-"
		if r := s.Same; r.Variant != "" {
			same = r.Label()
			wall = fmt.Sprintf("%.2f", ratio(s.Adaptive.Median, r.Median))
			paired = fmtPaired(s.Adaptive.PerSource, r.PerSource)
			if s.Adaptive.Device > 0 && r.Device > 0 {
				dev = fmt.Sprintf("%.2f", ratio(s.Adaptive.Device, r.Device))
			}
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |", s.Graph, fmtShares(s.Adaptive.Variants), same, wall, paired)
		if device {
			fmt.Fprintf(b, " %s |", dev)
		}
		b.WriteString("\n")
	}
}

// defaultsTable compares the tuned thresholds with the device-derived
// defaults, when both were measured.
func (res *BenchResult) defaultsTable(b *strings.Builder, alg Algorithm) {
	header := false
	for _, s := range res.Summaries {
		if s.Algorithm != alg || s.Adaptive.Runs == 0 || s.Defaults.Runs == 0 {
			continue
		}
		if !header {
			header = true
			fmt.Fprintf(b, "\n## %s: tuned thresholds vs device-derived defaults\n\n", strings.ToUpper(string(alg)))
			b.WriteString("| graph | tuned ms | defaults ms | defaults / tuned | tuned device ms | defaults device ms |\n")
			b.WriteString("|---|---:|---:|---:|---:|---:|\n")
		}
		fmt.Fprintf(b, "| %s | %s | %s | %.2f | %s | %s |\n", s.Graph, fmtMs(s.Adaptive.Median), fmtMs(s.Defaults.Median),
			ratio(s.Defaults.Median, s.Adaptive.Median), fmtDevice(s.Adaptive.Device), fmtDevice(s.Defaults.Device))
	}
}

func (res *BenchResult) algorithms() []Algorithm {
	var out []Algorithm
	for _, r := range res.Rows {
		if len(out) == 0 || out[len(out)-1] != r.Algorithm {
			out = append(out, r.Algorithm)
		}
	}
	return out
}

// fmtDevice formats a device time, "-" where none was measured (the CPU,
// operators that do not split their GPU time).
func fmtDevice(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmtMs(d)
}

func fmtMs(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 3, 64) }

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// ReadBenchCSV reads rows written by Bench and rebuilds the summaries (for
// redrawing a saved benchmark's report and plots).
func ReadBenchCSV(rd io.Reader) (*BenchResult, error) {
	recs, err := csv.NewReader(rd).ReadAll()
	if err != nil {
		return nil, err
	}
	// Older files lack the trailing columns from repeats on.
	if len(recs) == 0 || len(recs[0]) < 9 || recs[0][0] != benchHeader[0] {
		return nil, errors.New("not a gearbox bench CSV (header missing)")
	}
	res := &BenchResult{Complete: true}
	for i, rec := range recs[1:] {
		if len(rec) < 10 {
			rec = append(rec, "1") // written before the repeats column
		}
		for len(rec) < len(benchHeader) {
			rec = append(rec, "") // written before device_ms and the per-source columns
		}
		c := csvCells{line: i + 2, header: benchHeader, rec: rec}
		r := BenchRow{Algorithm: c.algorithm(0), Graph: c.text(1), Variant: c.text(2), Delta: uint64(c.integer(3, 0, true))}
		r.Runs = int(c.integer(4, 1, false))
		r.Median, r.Min, r.Max = c.ms(5, false), c.ms(6, false), c.ms(7, false)
		r.Speedup = c.nonNeg(8, false)
		r.Repeats = int(c.integer(9, 1, false))
		r.Device = c.ms(10, true)
		r.PerSource, r.PerSourceDevice = c.msList(11), c.msList(12)
		var err error
		if r.Variants, err = parseVariants(rec[13]); err != nil {
			c.fail(13, "name:count;... ("+err.Error()+")")
		}
		if c.err != nil {
			return nil, c.err
		}
		res.Rows = append(res.Rows, r)
	}
	res.Summaries = summaries(res.Rows)
	return res, nil
}

// summaries groups rows by algorithm and graph, in order of appearance.
func summaries(rows []BenchRow) []Summary {
	var out []Summary
	idx := map[[2]string]int{}
	for _, r := range rows {
		k := [2]string{string(r.Algorithm), r.Graph}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, Summary{Algorithm: r.Algorithm, Graph: r.Graph})
		}
		s := &out[i]
		switch {
		case strings.HasPrefix(r.Variant, Confirm):
			s.Confirmed = append(s.Confirmed, r)
		case r.Variant == Serial:
			s.Serial = r
		case r.Variant == Adaptive:
			s.Adaptive = r
		case r.Variant == AdaptiveDefaults:
			s.Defaults = r
		default:
			extremes(&s.Best, &s.Worst, r, func(x BenchRow) time.Duration { return x.Median })
			if r.Device > 0 {
				extremes(&s.BestDevice, &s.WorstDevice, r, func(x BenchRow) time.Duration { return x.Device })
			}
		}
	}
	for i := range out {
		s := &out[i]
		v, ok := only(s.Adaptive.Variants)
		if !ok {
			continue
		}
		for _, r := range rows {
			if r.Algorithm == s.Algorithm && r.Graph == s.Graph && r.Variant == v && (r.Delta == 0 || r.Delta == s.Adaptive.Delta) {
				s.Same = r
			}
		}
	}
	return out
}

// only returns the variant of a row's iterations when they all ran one.
func only(variants map[string]int) (string, bool) {
	if len(variants) != 1 {
		return "", false
	}
	for v := range variants {
		return v, true
	}
	return "", false
}

// pairedRange returns the smallest and largest ratio a[s]/b[s] over the
// sources both were timed from; ok is false when either lacks per-source
// times or they differ in number (rows of different source lists).
func pairedRange(a, b []time.Duration) (lo, hi float64, ok bool) {
	if len(a) == 0 || len(a) != len(b) {
		return 0, 0, false
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range a {
		if a[i] <= 0 || b[i] <= 0 {
			return 0, 0, false
		}
		r := float64(a[i]) / float64(b[i])
		lo, hi = min(lo, r), max(hi, r)
	}
	return lo, hi, true
}

// fmtPaired formats pairedRange as "lo-hi", "-" when unknown.
func fmtPaired(a, b []time.Duration) string {
	lo, hi, ok := pairedRange(a, b)
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f-%.2f", lo, hi)
}

// fmtShares formats iterations per variant as shares, the most used
// first.
func fmtShares(m map[string]int) string {
	total := 0
	for _, k := range m {
		total += k
	}
	if total == 0 {
		return "-"
	}
	var parts []string
	for _, name := range byUse(m) {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", name, 100*float64(m[name])/float64(total)))
	}
	return strings.Join(parts, ", ")
}

// extremes widens best..worst to take in r, comparing the times t gives.
func extremes(best, worst *BenchRow, r BenchRow, t func(BenchRow) time.Duration) {
	switch {
	case best.Variant == "":
		*best, *worst = r, r
	case t(r) < t(*best):
		*best = r
	case t(r) > t(*worst):
		*worst = r
	}
}
