package tuning

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"gonum.org/v1/gonum/stat/distuv"
	"io"
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

// TuneConfig configures Tune.
type TuneConfig struct {
	Inputs     []*Input
	Algorithms []Algorithm
	// Start is the point the descent starts from (e.g. the backend's
	// section of a thresholds file).
	Start Setting
	// Sweeps are the knobs to vary, in descent order, each with its
	// values.
	Sweeps []Sweep
	// Passes is the number of rounds over Sweeps (default 1).
	Passes int
	// Score is the time values are ranked by: ScoreWall (the zero value)
	// or ScoreDevice (GPU backends only).
	Score   Score
	Backend runtime.Backend
	Logger  zerolog.Logger
	// Verify checks each configuration's warm-up run against the serial
	// reference.
	Verify bool
	// Repeats is the runs per source, the fastest counting (default 1).
	Repeats int
	// CSV, when set, receives a header and one row per measurement,
	// flushed as each completes, so an interrupted sweep keeps its rows.
	CSV io.Writer
	// Progress, when set, is called after each measurement with the
	// number done and the total.
	Progress func(done, total int)
	// OnRow, when set, is called with each row as it completes.
	OnRow func(TuneRow)
}

// TuneRow is one measurement: a setting on one algorithm and graph.
type TuneRow struct {
	Pass      int
	Param     Param
	Value     float64
	Algorithm Algorithm
	Graph     string
	Setting   Setting
	Measurement
}

// Step is one knob's sweep within a pass: the score of each value and
// the value kept.
type Step struct {
	Pass   int
	Param  Param
	Values []float64
	// Scores[i] is the geometric mean, over the algorithm-graph pairs the
	// knob affects, of the scored median time (TuneResult.Score; seconds)
	// with Values[i].
	Scores []float64
	// P[i] is the one-sided sign test's p-value of Values[i] being faster
	// than the current value, paired by graph and source (1 for the
	// current value itself).
	P []float64
	// Current is the value the step started from (always among Values).
	Current float64
	// Best is the value kept; Skipped says the knob was not swept (no
	// effect: threads per block on the CPU, delta where delta_factor > 0).
	Best    float64
	Skipped bool
}

// TuneResult is what Tune found.
type TuneResult struct {
	Best  Setting
	Rows  []TuneRow
	Steps []Step
	// Score is what the steps were scored by (never empty).
	Score Score
	// Complete is false when the sweep was interrupted: Rows holds the
	// rows finished and Best is not a tuned result.
	Complete bool
}

// Kept returns how many rows the sweep finished and whether it ran to
// its end (false: interrupted).
func (r *TuneResult) Kept() (rows int, complete bool) { return len(r.Rows), r.Complete }

// keepMargin is how much better (relative) another value's score must be
// than the current value's to replace it, on top of the significance
// test: a real but negligible gain is not worth a changed threshold.
const keepMargin = 0.01

// keepAlpha is the significance level of choose's test, shared by the
// values compared with the current one (Bonferroni): moving on noise
// would make the descent wander and write thresholds that do not hold.
const keepAlpha = 0.01

// Tune runs a coordinate descent over cfg.Sweeps: for each knob in turn it
// measures every value of its sweep, and the starting value, with the
// other knobs at the best setting so far, on every graph and algorithm the
// knob affects (alpha and beta only BFS, delta only SSSP). A value is
// scored by the geometric mean of its median times (wall or device by
// cfg.Score, so every graph counts the same however large). The current
// value stays unless another is significantly faster (choose: a sign test
// over the runs paired by graph and source) and more than 1% better on
// the score; Step.P holds each value's p-value. A full cartesian
// product of the default ranges would be about 8x12x7x5x5x11 = 185,000
// settings; the descent measures their sum, about 50 per pass.
//
// ThreadsPerBlock and LaunchDeltaFactor (GPU persistent launches) are
// swept only when the backend implements ThreadsPerBlockSetter (a GPU);
// otherwise their Steps are Skipped and every row records Start's values.
//
// On cancellation Tune returns the rows finished so far with Complete
// false and the context's error.
func Tune(ctx context.Context, cfg TuneConfig) (*TuneResult, error) {
	if cfg.Backend == nil {
		cfg.Backend = runtime.NewCPU(0)
	}
	if cfg.Passes <= 0 {
		cfg.Passes = 1
	}
	cfg.Score = cfg.Score.norm()
	if err := cfg.Score.Check(cfg.Backend); err != nil {
		return nil, err
	}
	if err := CheckInputs(cfg.Inputs, cfg.Algorithms); err != nil {
		return nil, err
	}
	if err := cfg.Start.Validate(); err != nil {
		return nil, fmt.Errorf("starting point: %w", err)
	}
	for _, s := range cfg.Sweeps {
		if len(s.Values) == 0 {
			return nil, fmt.Errorf("--%s: %w", s.Param.Flag(), ErrEmptyRange)
		}
		for _, v := range s.Values {
			if err := cfg.Start.With(s.Param, v).Validate(); err != nil {
				return nil, fmt.Errorf("--%s value %v: %w", s.Param.Flag(), v, err)
			}
		}
	}
	// Every sweep of several values measures the starting value too, so the
	// current value of every pass (the start, or a value kept since) is
	// among those compared: a sweep cannot move away from a value it did
	// not measure. A single value is an assignment, not a comparison.
	sweeps := slices.Clone(cfg.Sweeps)
	for i, s := range sweeps {
		if len(s.Values) > 1 {
			sweeps[i].Values = withValue(s.Values, cfg.Start.Get(s.Param))
		}
	}
	tpb, canTPB := cfg.Backend.(ThreadsPerBlockSetter)
	total := 0
	for _, s := range sweeps {
		if gpuOnly(s.Param) && !canTPB {
			continue
		}
		total += len(s.Values) * len(pairs(cfg, s.Param))
	}
	total *= cfg.Passes

	var cw *csv.Writer
	if cfg.CSV != nil {
		cw = csv.NewWriter(cfg.CSV)
		if err := writeCSV(cw, tuneHeader); err != nil {
			return nil, err
		}
	}
	r := &runner{backend: cfg.Backend, log: cfg.Logger, verify: cfg.Verify, repeats: cfg.Repeats}
	res := &TuneResult{Best: cfg.Start, Score: cfg.Score}
	done := 0
	for pass := 1; pass <= cfg.Passes; pass++ {
		for _, sw := range sweeps {
			cur := res.Best.Get(sw.Param)
			step := Step{Pass: pass, Param: sw.Param, Values: sw.Values, Current: cur, Best: cur}
			if gpuOnly(sw.Param) && !canTPB || sw.Param == Delta && res.Best.Get(DeltaFactor) > 0 {
				// No effect: a CPU backend has no blocks or persistent
				// launches; with a delta_factor, delta is derived per
				// graph.
				step.Skipped = true
				res.Steps = append(res.Steps, step)
				if sw.Param == Delta {
					done += len(step.Values) * len(pairs(cfg, sw.Param)) // counted in total
				}
				continue
			}
			// Per pair, the values are timed interleaved (timeInterleaved):
			// a drift of the machine falls on all of them alike.
			sets := make([]Setting, len(step.Values))
			for i, v := range step.Values {
				sets[i] = res.Best.With(sw.Param, v)
			}
			tl := newTally(cfg.Score, len(step.Values))
			for _, p := range pairs(cfg, sw.Param) {
				runs := make([]func(uint32, bool) (sample, error), len(sets))
				for i, set := range sets {
					runs[i] = func(src uint32, warm bool) (sample, error) {
						if canTPB {
							n := int(set.Get(ThreadsPerBlock))
							if err := tpb.SetThreadsPerBlock(n); err != nil {
								return sample{}, fmt.Errorf("threads per block %d: %w", n, err)
							}
						}
						t, err := r.once(ctx, p.alg, p.in.graphFor(p.alg), src, set.Options(), warm && r.verify)
						if err != nil {
							return t, fmt.Errorf("%s on %s with %s = %s: %w", p.alg, p.in.Name, sw.Param, formatValue(sw.Param, step.Values[i]), err)
						}
						return t, nil
					}
				}
				ms, err := timeInterleaved(ctx, p.in, r.repeats, runs)
				if err != nil {
					if ctx.Err() != nil {
						return res, ctx.Err()
					}
					return res, err
				}
				for i, m := range ms {
					row := TuneRow{Pass: pass, Param: sw.Param, Value: step.Values[i], Algorithm: p.alg, Graph: p.in.Name, Setting: sets[i], Measurement: m}
					res.Rows = append(res.Rows, row)
					if cw != nil {
						if err := writeCSV(cw, row.record()); err != nil {
							return res, err
						}
					}
					if cfg.OnRow != nil {
						cfg.OnRow(row)
					}
					done++
					if cfg.Progress != nil {
						cfg.Progress(done, total)
					}
					// After the row is kept: a refused device time
					// stays visible in the CSV.
					if err := tl.add(i, m); err != nil {
						return res, fmt.Errorf("%s on %s with %s = %s: %w", p.alg, p.in.Name, sw.Param, formatValue(sw.Param, step.Values[i]), err)
					}
				}
			}
			step.Scores = tl.scores()
			step.Best, step.P = choose(step, tl.paired)
			res.Best = res.Best.With(sw.Param, step.Best)
			cfg.Logger.Info().Int("pass", pass).Str("param", string(sw.Param)).
				Str("best", formatValue(sw.Param, step.Best)).Str("score", string(cfg.Score)).Msg("swept")
			res.Steps = append(res.Steps, step)
		}
	}
	res.Complete = true
	return res, nil
}

// choose returns the value to keep and each value's p-value: the current
// value, unless another beats it significantly, by a one-sided sign test
// over the paired per-source times (keepAlpha shared by the candidates)
// and by more than keepMargin on the score; of those, the lowest score.
// A sign test assumes nothing of the times' distribution, which on a busy
// machine has long tails.
func choose(s Step, paired [][]float64) (float64, []float64) {
	ci := slices.Index(s.Values, s.Current)
	p := make([]float64, len(s.Values))
	for i := range p {
		p[i] = 1
	}
	if ci < 0 { // no current value (NaN: unset): the lowest score
		best := 0
		for i, sc := range s.Scores {
			if sc < s.Scores[best] {
				best = i
			}
		}
		return s.Values[best], p
	}
	alpha := keepAlpha / float64(max(len(s.Values)-1, 1))
	best := ci
	for i := range s.Values {
		if i == ci || len(paired[i]) != len(paired[ci]) {
			continue
		}
		p[i] = signTest(paired[i], paired[ci])
		if p[i] < alpha && s.Scores[i] < s.Scores[ci]*(1-keepMargin) && s.Scores[i] < s.Scores[best] {
			best = i
		}
	}
	return s.Values[best], p
}

// signTest returns the one-sided p-value of a being faster than b, paired
// by index: the chance of at least as many wins among the untied pairs if
// either were as likely to win.
func signTest(a, b []float64) float64 {
	wins, n := 0, 0
	for k := range a {
		if a[k] != b[k] {
			n++
			if a[k] < b[k] {
				wins++
			}
		}
	}
	if wins == 0 {
		return 1
	}
	return distuv.Binomial{N: float64(n), P: 0.5}.Survival(float64(wins - 1))
}

// withValue returns values with v added in order if it is not there: a
// sweep always measures the current value, which it may keep.
func withValue(values []float64, v float64) []float64 {
	if math.IsNaN(v) || slices.Contains(values, v) {
		return values
	}
	out := append(slices.Clone(values), v)
	slices.Sort(out)
	return out
}

type pair struct {
	alg Algorithm
	in  *Input
}

// pairs lists the algorithm-graph pairs a knob affects.
func pairs(cfg TuneConfig, p Param) []pair {
	var out []pair
	for _, a := range cfg.Algorithms {
		if !p.Affects(a) {
			continue
		}
		for _, in := range cfg.Inputs {
			out = append(out, pair{a, in})
		}
	}
	return out
}

// tuneHeader is the CSV's columns: the measurement's and the setting's
// keys in the order they were added to the format (older files lack
// trailing columns), then any other knob of Params() (an algorithm's key
// registered since) at the end.
var tuneHeader = func() []string {
	h := []string{"pass", "param", "value", "algorithm", "graph",
		"T1", "T2", "T3", "sample_every", "alpha", "beta", "delta", "threads_per_block",
		"sources", "median_ms", "min_ms", "max_ms", "repeats", "pull_min_edges", "bitmap_min_vertices", "delta_factor", "jump_factor", "device_ms", "bucket_edges",
		"bucket_delta_factor", "launch_delta_factor", "ordered_min_vertices", "ordered_min_degree",
		"ordered_min_vertices_skewed", "bucket_delta_min_skew"}
	for _, p := range Params() {
		if !slices.Contains(h, string(p)) {
			h = append(h, string(p))
		}
	}
	return h
}()

// measureCells writes the columns of tuneHeader after the first five that
// are not knobs: the measurement's.
var measureCells = map[string]func(TuneRow) string{
	"sources":   func(r TuneRow) string { return itoa(r.Runs) },
	"median_ms": func(r TuneRow) string { return ms(r.Median) },
	"min_ms":    func(r TuneRow) string { return ms(r.Min) },
	"max_ms":    func(r TuneRow) string { return ms(r.Max) },
	"repeats":   func(r TuneRow) string { return itoa(r.Repeats) },
	"device_ms": func(r TuneRow) string { return ms(r.Device) },
}

func (r TuneRow) record() []string {
	out := []string{itoa(r.Pass), string(r.Param), formatValue(r.Param, r.Value), string(r.Algorithm), r.Graph}
	for _, col := range tuneHeader[len(out):] {
		if cell := measureCells[col]; cell != nil {
			out = append(out, cell(r))
			continue
		}
		v := r.Setting.Get(Param(col))
		switch {
		case math.IsNaN(v):
			out = append(out, "0")
		case Param(col).integer():
			out = append(out, strconv.FormatInt(int64(v), 10))
		default:
			out = append(out, ftoa(v))
		}
	}
	return out
}

// ReadTuneCSV reads rows written by Tune (for plotting a saved sweep).
// The CSV holds the knobs (Params) of each row's setting; the keys no
// sweep varies (afforest_min_*) read back as 0.
func ReadTuneCSV(rd io.Reader) ([]TuneRow, error) {
	recs, err := csv.NewReader(rd).ReadAll()
	if err != nil {
		return nil, err
	}
	// Older files lack trailing columns: repeats (read as 1); the floors,
	// delta_factor and jump_factor (their runs used a fixed delta and no
	// jumps: 0); device_ms (0: none recorded); bucket_edges (fixed
	// buckets: 0); bucket_delta_factor and launch_delta_factor (the
	// graph's delta: 0); ordered_min_vertices, ordered_min_degree and
	// ordered_min_vertices_skewed (not recorded: 0); bucket_delta_min_skew
	// (no floor: 0).
	const oldest = 17 // pass .. max_ms
	if len(recs) == 0 || len(recs[0]) < oldest || recs[0][0] != tuneHeader[0] {
		return nil, errors.New("not a gearbox tune CSV (header missing)")
	}
	var rows []TuneRow
	for i, rec := range recs[1:] {
		if len(rec) == oldest {
			rec = append(rec, "1")
		}
		for len(rec) < len(tuneHeader) {
			rec = append(rec, "0")
		}
		c := csvCells{line: i + 2, header: tuneHeader, rec: rec}
		var r TuneRow
		r.Pass = int(c.integer(0, 1, false))
		r.Param = Param(rec[1])
		if !slices.Contains(Params(), r.Param) {
			c.fail(1, "a knob ("+paramNames()+")")
		}
		r.Value = c.float(2)
		r.Algorithm = c.algorithm(3)
		r.Graph = c.text(4)
		r.Runs = int(c.integer(13, 1, false))
		r.Median, r.Min, r.Max = c.ms(14, false), c.ms(15, false), c.ms(16, false)
		r.Repeats = int(c.integer(17, 1, false))
		r.Device = c.ms(22, false)
		r.Setting = Setting{Knobs: decider.Knobs{}}
		for col, key := range tuneHeader {
			if col < 5 || measureCells[key] != nil {
				continue
			}
			p := Param(key)
			var v float64
			switch {
			case p.integer():
				v = float64(c.integer(col, 0, false))
			default:
				v = c.nonNeg(col, false)
			}
			r.Setting = r.Setting.With(p, v)
		}
		if c.err != nil {
			return nil, c.err
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// paramNames lists the knobs for messages.
func paramNames() string {
	var names []string
	for _, p := range Params() {
		names = append(names, string(p))
	}
	return strings.Join(names, ", ")
}

func writeCSV(w *csv.Writer, rec []string) error {
	if err := w.Write(rec); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	return nil
}

func itoa(i int) string     { return strconv.Itoa(i) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/1e6, 'f', 4, 64)
}
func fromMs(f float64) time.Duration { return time.Duration(math.Round(f * 1e6)) }

// GraphBest is the fastest value of a knob for one algorithm and graph.
type GraphBest struct {
	Algorithm Algorithm
	Graph     string
	Value     float64
	// Median is the value's scored time (wall or device by the score).
	Median time.Duration
}

// BestPerGraph returns, for the knob's sweep in the given pass, each
// algorithm-graph pair's fastest value by score s: where they disagree,
// one global value is a compromise (SSSP's delta on graphs with different
// weight scales is the usual case).
func BestPerGraph(rows []TuneRow, pass int, p Param, s Score) []GraphBest {
	var out []GraphBest
	idx := map[[2]string]int{}
	for _, r := range rows {
		if r.Pass != pass || r.Param != p {
			continue
		}
		k := [2]string{string(r.Algorithm), r.Graph}
		i, ok := idx[k]
		if !ok {
			idx[k] = len(out)
			out = append(out, GraphBest{r.Algorithm, r.Graph, r.Value, s.Time(r.Measurement)})
			continue
		}
		if t := s.Time(r.Measurement); t < out[i].Median {
			out[i].Value, out[i].Median = r.Value, t
		}
	}
	return out
}

// gpuOnly reports whether the knob only affects GPU backends: the block
// size, and the algorithms' knobs their Spec says so of.
func gpuOnly(p Param) bool {
	if p == ThreadsPerBlock {
		return true
	}
	for _, s := range algorithms.All() {
		if k, ok := s.Param(string(p)); ok && k.GPUOnly {
			return true
		}
	}
	return false
}
