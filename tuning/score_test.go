package tuning

import (
	"bytes"
	"encoding/csv"
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/runtime"
)

// namedGPU is a backend with a device name, as the CUDA backend has; it
// runs nothing (only Check looks at it).
type namedGPU struct{}

func (namedGPU) Name() string   { return "cuda:Fake GPU" }
func (namedGPU) Device() string { return "Fake GPU" }

func (namedGPU) Configure(decider.KnobLayers) error { return nil }

func TestScoreCheck(t *testing.T) {
	cpu := runtime.NewCPU(1)
	tests := []struct {
		name    string
		score   Score
		backend runtime.Backend
		wantErr error
		want    []string // in the message
	}{
		{"zero value is wall", "", cpu, nil, nil},
		{"wall on the cpu", ScoreWall, cpu, nil, nil},
		{"wall on a gpu", ScoreWall, namedGPU{}, nil, nil},
		{"device on a gpu", ScoreDevice, namedGPU{}, nil, nil},
		{"device on the cpu", ScoreDevice, cpu, ErrNoDeviceTime, []string{"--score device", "cpu(", "not a GPU", "--device cuda"}},
		{"unknown", "fast", cpu, ErrUnknownScore, []string{"--score", `"fast"`, "valid: wall, device"}},
		{"unknown on a gpu", "kernel", namedGPU{}, ErrUnknownScore, []string{"valid: wall, device"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.score.Check(tc.backend)
			if !errors.Is(err, tc.wantErr) || (err == nil) != (tc.wantErr == nil) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestParseScore(t *testing.T) {
	for _, s := range Scores() {
		if got, err := ParseScore(string(s)); err != nil || got != s {
			t.Errorf("ParseScore(%q) = %q, %v", s, got, err)
		}
	}
	for _, bad := range []string{"", "Wall", "gpu"} {
		if _, err := ParseScore(bad); !errors.Is(err, ErrUnknownScore) {
			t.Errorf("ParseScore(%q): err = %v, want ErrUnknownScore", bad, err)
		}
	}
}

// TestTuneRefusesDeviceScoreOnCPU: the check comes before any run.
func TestTuneRefusesDeviceScoreOnCPU(t *testing.T) {
	for _, s := range []Score{ScoreDevice, "fast"} {
		var buf bytes.Buffer
		rows := 0
		t3, _ := NewSweep(T3, "0.01,0.1")
		_, err := Tune(t.Context(), TuneConfig{
			Inputs: []*Input{{Name: "none"}}, Algorithms: []Algorithm{BFS}, Score: s,
			Start: Setting{Thresholds: decider.DefaultThresholds()}, Sweeps: []Sweep{t3}, CSV: &buf,
			OnRow: func(TuneRow) { rows++ },
		})
		if !errors.Is(err, ErrNoDeviceTime) && !errors.Is(err, ErrUnknownScore) || rows > 0 || buf.Len() > 0 {
			t.Errorf("score %q: err %v, %d rows, CSV %q: want a score error before anything", s, err, rows, buf.String())
		}
	}
}

// TestTallyScoresByDevice: with synthetic measurements on which wall and
// device time disagree, each score ranks by its own time, and choose keeps
// the value that score prefers.
func TestTallyScoresByDevice(t *testing.T) {
	ms := func(wall, dev float64) Measurement {
		m := Measurement{Median: fromMs(wall), Device: fromMs(dev)}
		for j := range 8 { // sources of different reach, alike for both values
			m.PerSource = append(m.PerSource, fromMs(wall*float64(1+j)))
			m.PerSourceDevice = append(m.PerSourceDevice, fromMs(dev*float64(1+j)))
		}
		return m
	}
	// Two pairs, two values: value 10 is faster in wall time (its set-up
	// happened to be quicker), value 20 on the device.
	pairs := [][]Measurement{
		{ms(1.0, 0.50), ms(1.2, 0.25)},
		{ms(4.0, 2.00), ms(4.4, 1.00)},
	}
	step := func(s Score) Step {
		tl := newTally(s, 2)
		for _, p := range pairs {
			for i, m := range p {
				if err := tl.add(i, m); err != nil {
					t.Fatal(err)
				}
			}
		}
		st := Step{Values: []float64{10, 20}, Current: 10, Scores: tl.scores()}
		st.Best, st.P = choose(st, tl.paired)
		return st
	}
	tests := []struct {
		score Score
		want  []float64 // scores, seconds: geometric means
		best  float64
	}{
		{"", []float64{2e-3, 2.2978e-3}, 10},
		{ScoreWall, []float64{2e-3, 2.2978e-3}, 10},
		{ScoreDevice, []float64{1e-3, 0.5e-3}, 20},
	}
	for _, tc := range tests {
		st := step(tc.score)
		for i, w := range tc.want {
			if d := st.Scores[i] - w; d > 1e-7 || d < -1e-7 {
				t.Errorf("score %q: value %v scored %v, want %v", tc.score, st.Values[i], st.Scores[i], w)
			}
		}
		if got := st.Best; got != tc.best {
			t.Errorf("score %q: chose %v, want %v", tc.score, got, tc.best)
		}
	}
	// A 0 device time is refused, not ranked fastest; wall ignores it.
	tl := newTally(ScoreDevice, 1)
	if err := tl.add(0, ms(1, 0)); !errors.Is(err, ErrNoDeviceTime) || !strings.Contains(err.Error(), "--score wall") {
		t.Errorf("device 0: err = %v, want ErrNoDeviceTime naming --score wall", err)
	}
	if err := newTally(ScoreWall, 1).add(0, ms(1, 0)); err != nil {
		t.Errorf("wall score with device 0: %v", err)
	}
	rows := []TuneRow{
		{Pass: 1, Param: Delta, Value: 10, Algorithm: SSSP, Graph: "g", Measurement: pairs[0][0]},
		{Pass: 1, Param: Delta, Value: 20, Algorithm: SSSP, Graph: "g", Measurement: pairs[0][1]},
	}
	if b := BestPerGraph(rows, 1, Delta, ScoreWall); len(b) != 1 || b[0].Value != 10 || b[0].Median != fromMs(1) {
		t.Errorf("BestPerGraph by wall: %+v", b)
	}
	if b := BestPerGraph(rows, 1, Delta, ScoreDevice); len(b) != 1 || b[0].Value != 20 || b[0].Median != fromMs(0.25) {
		t.Errorf("BestPerGraph by device: %+v", b)
	}
}

// TestTuneCSVDeviceColumn writes rows with device times, bucket targets
// and an order rule, reads them back, and reads the same file without the
// trailing bucket_delta_min_skew, order rule, delta factor, bucket_edges
// and device_ms columns (older files).
func TestTuneCSVDeviceColumn(t *testing.T) {
	set := DefaultSetting().With(Param("bucket_edges"), 0) // row 0: fixed buckets
	rows := []TuneRow{
		{Pass: 1, Param: T3, Value: 0.01, Algorithm: BFS, Graph: "kron:7", Setting: set.With(T3, 0.01),
			Measurement: Measurement{Median: fromMs(1.25), Min: fromMs(1), Max: fromMs(2), Device: fromMs(0.3125), Runs: 2, Repeats: 3}},
		{Pass: 1, Param: T3, Value: 0.05, Algorithm: BFS, Graph: "kron:7", Setting: set.With(T3, 0.05).With(Param("bucket_edges"), 1<<20).With(Param("bucket_delta_factor"), 8).With(Param("launch_delta_factor"), 16).
			With(Param("ordered_min_vertices"), 1<<18).With(Param("ordered_min_degree"), 4).With(Param("ordered_min_vertices_skewed"), 1<<21).With(Param("bucket_delta_min_skew"), 16),
			Measurement: Measurement{Median: fromMs(1.5), Min: fromMs(1), Max: fromMs(2), Runs: 2, Repeats: 3}},
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	for _, rec := range append([][]string{tuneHeader}, rows[0].record(), rows[1].record()) {
		if err := writeCSV(w, rec); err != nil {
			t.Fatal(err)
		}
	}
	if h := tuneHeader[len(tuneHeader)-8:]; h[0] != "device_ms" || h[1] != "bucket_edges" || h[2] != "bucket_delta_factor" || h[3] != "launch_delta_factor" ||
		h[4] != "ordered_min_vertices" || h[5] != "ordered_min_degree" || h[6] != "ordered_min_vertices_skewed" || h[7] != "bucket_delta_min_skew" {
		t.Fatalf("last columns %q, want device_ms, bucket_edges, bucket_delta_factor, launch_delta_factor, ordered_min_vertices, ordered_min_degree, ordered_min_vertices_skewed, bucket_delta_min_skew", h)
	}
	full := buf.String()
	// strip drops the last k columns of every line.
	strip := func(k int) string {
		var b strings.Builder
		for _, line := range strings.SplitAfter(full, "\n") {
			for range k {
				if i := strings.LastIndexByte(line, ','); i >= 0 {
					line = line[:i] + "\n"
				}
			}
			b.WriteString(line)
		}
		return b.String()
	}
	tests := []struct {
		name   string
		csv    string
		device []time.Duration
		bucket []int64
		factor bool // the bucket and launch delta factors are in the file
		order  bool // the order rule is
		skew   bool // bucket_delta_min_skew is
	}{
		{"whole", full, []time.Duration{fromMs(0.3125), 0}, []int64{0, 1 << 20}, true, true, true},
		{"without bucket_delta_min_skew", strip(1), []time.Duration{fromMs(0.3125), 0}, []int64{0, 1 << 20}, true, true, false},
		{"without the order rule", strip(4), []time.Duration{fromMs(0.3125), 0}, []int64{0, 1 << 20}, true, false, false},
		{"without the delta factors", strip(6), []time.Duration{fromMs(0.3125), 0}, []int64{0, 1 << 20}, false, false, false},
		{"without bucket_edges", strip(7), []time.Duration{fromMs(0.3125), 0}, []int64{0, 0}, false, false, false},
		{"without device_ms", strip(8), []time.Duration{0, 0}, []int64{0, 0}, false, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			back, err := ReadTuneCSV(strings.NewReader(tc.csv))
			if err != nil {
				t.Fatal(err)
			}
			if len(back) != len(rows) {
				t.Fatalf("%d rows, want %d", len(back), len(rows))
			}
			for i, g := range back {
				want := rows[i]
				want.Device = tc.device[i]
				want.Setting = want.Setting.With("bucket_edges", float64(tc.bucket[i]))
				if !tc.factor {
					want.Setting = want.Setting.With("bucket_delta_factor", 0).With("launch_delta_factor", 0)
				}
				if !tc.order {
					want.Setting = want.Setting.With("ordered_min_vertices", 0).With("ordered_min_degree", 0).With("ordered_min_vertices_skewed", 0)
				}
				if !tc.skew {
					want.Setting = want.Setting.With("bucket_delta_min_skew", 0)
				}
				// The CSV holds the knobs tune sweeps (Params), not the others.
				want.Setting.Knobs = maps.Clone(want.Setting.Knobs)
				for k := range want.Setting.Knobs {
					if !slices.Contains(tuneHeader, k) {
						delete(want.Setting.Knobs, k)
					}
				}
				if !reflect.DeepEqual(g, want) {
					t.Errorf("row %d read back as %+v, want %+v", i, g, want)
				}
			}
			// A device plot needs every row's device time.
			dir := t.TempDir()
			err = PlotSweep(back, T3, BFS, ScoreDevice, filepath.Join(dir, "d.png"))
			if !errors.Is(err, ErrNoDeviceTime) {
				t.Errorf("device plot with a 0 device time: err = %v, want ErrNoDeviceTime", err)
			}
			if err := PlotSweep(back, T3, BFS, ScoreWall, filepath.Join(dir, "w.png")); err != nil {
				t.Errorf("wall plot: %v", err)
			}
		})
	}
	// Every row with a device time plots by it.
	rows[1].Device = fromMs(0.5)
	if err := PlotSweep(rows, T3, BFS, ScoreDevice, filepath.Join(t.TempDir(), "d.png")); err != nil {
		t.Errorf("device plot: %v", err)
	}
}

// choose keeps the current value when the others differ from it by noise
// alone, whatever their scores, and moves when one is faster on most
// sources by more than the margin.
func TestChooseNeedsSignificance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	base := make([]float64, 16) // 2 graphs x 8 sources of different reach
	for k := range base {
		base[k] = 1e-3 * float64(1+k%8)
	}
	noisy := func(scale float64) []float64 {
		out := make([]float64, len(base))
		for k, b := range base {
			out[k] = scale * b * (0.85 + 0.3*rng.Float64()) // +-15% noise
		}
		return out
	}
	geo := func(xs []float64) float64 {
		l := 0.0
		for _, x := range xs {
			l += math.Log(x)
		}
		return math.Exp(l / float64(len(xs)))
	}
	// On noise alone a move is a false positive, at most keepAlpha of the
	// time (the seed fixes which trials).
	const trials = 400
	moved := 0
	for range trials {
		paired := [][]float64{noisy(1), noisy(1), noisy(1), noisy(1)}
		st := Step{Values: []float64{1, 2, 3, 4}, Current: 2}
		for _, p := range paired {
			st.Scores = append(st.Scores, geo(p))
		}
		if best, _ := choose(st, paired); best != 2 {
			moved++
		}
	}
	if moved > trials*keepAlpha*2 {
		t.Errorf("moved on noise alone in %d of %d trials, want about %v of them at most", moved, trials, keepAlpha)
	}
	// Value 3 is 20% faster on every source: significant, and kept.
	paired := [][]float64{noisy(1), noisy(1), noisy(1), noisy(1)}
	for k := range paired[2] {
		paired[2][k] = 0.8 * paired[1][k]
	}
	st := Step{Values: []float64{1, 2, 3, 4}, Current: 2}
	for _, p := range paired {
		st.Scores = append(st.Scores, geo(p))
	}
	best, p := choose(st, paired)
	if best != 3 || p[2] > 1e-4 || p[1] != 1 {
		t.Errorf("chose %v with p %v, want 3 (p < 1e-4) and p 1 for the current value", best, p)
	}
	// Faster on every source but by less than keepMargin: kept as is.
	for k := range paired[2] {
		paired[2][k] = 0.999 * paired[1][k]
	}
	st.Scores[2] = geo(paired[2])
	if best, _ := choose(st, paired); best != 2 {
		t.Errorf("moved to %v for a 0.1%% gain", best)
	}
}

func TestMedianCI(t *testing.T) {
	xs := []float64{8, 1, 7, 2, 6, 3, 5, 4}
	// n = 8 at 95%: the 2nd and 7th order statistics (P(X <= 0) = 1/256).
	if lo, hi := medianCI(xs, 0.95); lo != 2 || hi != 7 {
		t.Errorf("CI = [%v, %v], want [2, 7]", lo, hi)
	}
	// Too few values for the level: the range.
	if lo, hi := medianCI([]float64{3, 1, 2}, 0.95); lo != 1 || hi != 3 {
		t.Errorf("CI of 3 values = [%v, %v], want the range [1, 3]", lo, hi)
	}
	if lo, hi := medianCI(nil, 0.95); lo != 0 || hi != 0 {
		t.Errorf("CI of none = [%v, %v]", lo, hi)
	}
}

func TestWithValue(t *testing.T) {
	if got := withValue([]float64{1, 4, 16}, 8); !slices.Equal(got, []float64{1, 4, 8, 16}) {
		t.Errorf("withValue = %v", got)
	}
	in := []float64{1, 4}
	if got := withValue(in, 4); !slices.Equal(got, in) {
		t.Errorf("withValue of a present value = %v", got)
	}
	if got := withValue(in, math.NaN()); !slices.Equal(got, in) {
		t.Errorf("withValue of NaN = %v", got)
	}
}
