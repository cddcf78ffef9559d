package tuning_test

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/tuning"
)

func TestParseFloats(t *testing.T) {
	good := map[string][]float64{
		"0.01:0.15:0.02": {0.01, 0.03, 0.05, 0.07, 0.09, 0.11, 0.13, 0.15},
		"1:4":            {1, 2, 3, 4},
		"16:1024:x4":     {16, 64, 256, 1024},
		"1:1000:x10":     {1, 10, 100, 1000},
		"3, 1,2,3":       {3, 1, 2},
		"0.1:0.35:0.1":   {0.1, 0.2, 0.3},
		"5:5":            {5},
	}
	for in, want := range good {
		got, err := tuning.ParseFloats(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseFloats(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	bad := map[string]error{
		"0.05:0.01": tuning.ErrEmptyRange,
		"":          tuning.ErrEmptyRange,
		"1:2:3:4":   tuning.ErrRange,
		"a:2":       tuning.ErrRange,
		"1:2:0":     tuning.ErrRange,
		"1:2:-1":    tuning.ErrRange,
		"0:8:x2":    tuning.ErrRange,
		"1:8:x1":    tuning.ErrRange,
		"1,NaN":     tuning.ErrRange,
		"1:1e9":     tuning.ErrRange,
	}
	for in, want := range bad {
		if _, err := tuning.ParseFloats(in); !errors.Is(err, want) {
			t.Errorf("ParseFloats(%q): err %v, want %v", in, err, want)
		}
	}
	if _, err := tuning.ParseInts("1:3:0.5"); !errors.Is(err, tuning.ErrRange) || !strings.Contains(err.Error(), "1.5") {
		t.Errorf("ParseInts with a fractional step: %v", err)
	}
}

// TestParamAccessors: every knob reads and writes the thresholds field
// named by its key, integer knobs truncate (the unsigned delta at 0), an
// unknown knob is NaN and changes nothing, and flags are the keys with
// dashes.
func TestParamAccessors(t *testing.T) {
	base := tuning.DefaultSetting()
	ints := map[tuning.Param]bool{tuning.T2: true, tuning.SampleEvery: true, tuning.Delta: true, tuning.ThreadsPerBlock: true,
		tuning.PullMinEdges: true, tuning.BitmapMinVertices: true, tuning.Param("bucket_edges"): true, tuning.Param("ordered_min_vertices"): true,
		tuning.Param("ordered_min_vertices_skewed"): true}
	for _, p := range tuning.Params() {
		v := 37.75
		want := v
		if ints[p] {
			want = 37
		}
		s := base.With(p, v)
		if got := s.Get(p); got != want {
			t.Errorf("%s: With(%v) then Get = %v, want %v", p, v, got, want)
		}
		// Only that field changed.
		if back := s.With(p, base.Get(p)); !back.Equal(base) {
			t.Errorf("%s: setting it back gives %+v, want %+v", p, back, base)
		}
	}
	if got := base.With(tuning.T1, 9).T1; got != 9 {
		t.Errorf("T1 field %v, want 9", got)
	}
	if got := base.With(tuning.Param("launch_delta_factor"), 16).Knobs["launch_delta_factor"]; got != 16.0 {
		t.Errorf("launch_delta_factor knob %v, want 16", got)
	}
	if err := base.With(tuning.Delta, -5).Validate(); !errors.Is(err, decider.ErrThresholds) || !strings.Contains(err.Error(), "delta = -5") {
		t.Errorf("delta -5: %v, want an error naming it", err)
	}
	if base.With(tuning.Delta, 8); base.Get(tuning.Delta) != 32 {
		t.Error("With changed its receiver's knobs")
	}
	if got := base.With(tuning.T2, 1<<20).T2; got != 1<<20 {
		t.Errorf("T2 field %d, want 2^20", got)
	}
	if !math.IsNaN(base.Get("no_such_knob")) || !base.With("no_such_knob", 3).Equal(base) {
		t.Error("an unknown knob must read NaN and change nothing")
	}
	for p, want := range map[tuning.Param]string{tuning.T3: "t3", tuning.SampleEvery: "sample-every",
		tuning.ThreadsPerBlock: "threads-per-block", tuning.Param("bucket_delta_factor"): "bucket-delta-factor"} {
		if got := p.Flag(); got != want {
			t.Errorf("%s: flag %q, want %q", p, got, want)
		}
	}
}

func TestNewSweepChecksValues(t *testing.T) {
	if _, err := tuning.NewSweep(tuning.T3, "0.5:1.5:0.5"); !errors.Is(err, decider.ErrThresholds) {
		t.Errorf("T3 above 1: %v", err)
	}
	if _, err := tuning.NewSweep(tuning.ThreadsPerBlock, "100"); err == nil {
		t.Error("threads per block 100 accepted")
	}
	if _, err := tuning.NewSweep(tuning.Delta, "0,1"); err == nil {
		t.Error("delta 0 accepted")
	}
	sw, err := tuning.NewSweep(tuning.SampleEvery, "1:12")
	if err != nil || len(sw.Values) != 12 {
		t.Errorf("sample_every 1:12: %v, %v", sw, err)
	}
}

func TestWriteSectionMerges(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "th.toml")
	gpu := tuning.DefaultSetting().With(tuning.T3, 0.11).With(tuning.Delta, 16)
	// New file.
	if err := tuning.WriteSection(path, "NVIDIA H100 80GB HBM3", gpu, "tuned by gearbox tune first"); err != nil {
		t.Fatal(err)
	}
	cpu := tuning.DefaultSetting().With(tuning.T2, 256).With(tuning.SampleEvery, 3)
	if err := tuning.WriteSection(path, "cpu", cpu, "tuned by gearbox tune cpu"); err != nil {
		t.Fatal(err)
	}
	// Replace the GPU section: once only, the other kept.
	gpu = gpu.With(tuning.T2, 1024)
	if err := tuning.WriteSection(path, "NVIDIA H100 80GB HBM3", gpu, "tuned by gearbox tune again"); err != nil {
		t.Fatal(err)
	}
	set, err := decider.LoadThresholds(path)
	if err != nil {
		t.Fatal(err)
	}
	if set.CPU != cpu.Thresholds || set.GPU["NVIDIA H100 80GB HBM3"] != gpu.Thresholds || len(set.GPU) != 1 {
		t.Errorf("got %+v", set)
	}
	text, _ := os.ReadFile(path)
	// SSSP's delta goes to SSSP's section of the device.
	if strings.Contains(string(text), "tune first") || strings.Count(string(text), "[gpu.\"NVIDIA H100 80GB HBM3\"]\n") != 1 ||
		!strings.Contains(string(text), "[gpu.\"NVIDIA H100 80GB HBM3\".sssp]\ndelta_factor = 4.0\ndelta = 16\n") {
		t.Errorf("old section or its comment kept, or delta not in the sssp section:\n%s", text)
	}
	got, err := tuning.LoadSection(path, "NVIDIA H100 80GB HBM3")
	if err != nil || !got.Equal(gpu) {
		t.Errorf("LoadSection = %+v, %v", got, err)
	}
	if _, err := tuning.LoadSection(path, "NVIDIA H200"); !errors.Is(err, tuning.ErrNoSection) || !strings.Contains(err.Error(), `[gpu."NVIDIA H100 80GB HBM3"]`) {
		t.Errorf("LoadSection for another GPU: %v", err)
	}
	// A broken existing file is not overwritten.
	if err := os.WriteFile(path, []byte("[cpu]\nT22 = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tuning.WriteSection(path, "cpu", cpu); !errors.Is(err, decider.ErrThresholds) {
		t.Errorf("merge into a broken file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "[cpu]\nT22 = 1\n" {
		t.Errorf("broken file rewritten: %q", b)
	}
}

// TestWriteSectionZeroFloors: the bitmap and pull floors and the block
// size are written even when 0, so a section reads back as written
// although [cpu]'s bitmap_min_vertices is 4096 (a tuned 0 read back as it
// once, from a sweep's 0,1000).
func TestWriteSectionZeroFloors(t *testing.T) {
	zero := tuning.DefaultSetting().With(tuning.BitmapMinVertices, 0).With(tuning.PullMinEdges, 0).With(tuning.ThreadsPerBlock, 0)
	floors := tuning.DefaultSetting().With(tuning.BitmapMinVertices, 1000).With(tuning.PullMinEdges, 5000).With(tuning.ThreadsPerBlock, 128)
	if decider.DefaultThresholds().BitmapMinVertices == 0 {
		t.Fatal("the built-in [cpu] bitmap floor is 0: this test needs one that is not")
	}
	for _, tc := range []struct {
		name     string
		cpu      tuning.Setting
		dev, alg string
	}{
		{"cpu", floors, "cpu", ""},
		{"gpu over cpu floors", floors, "G", ""},
		{"cpu.sssp over cpu floors", floors, "cpu", "sssp"},
	} {
		path := filepath.Join(t.TempDir(), "th.toml")
		if tc.dev != "cpu" || tc.alg != "" {
			if err := tuning.WriteSection(path, "cpu", tc.cpu); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		if err := tuning.WriteSectionFor(path, tc.dev, tc.alg, zero); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got, err := tuning.LoadSectionFor(path, tc.dev, tc.alg)
		if err != nil || !got.Equal(zero) {
			t.Errorf("%s: read back %+v, %v; want %+v", tc.name, got, err, zero)
		}
	}
}

// TestWriteSectionAfforestKeys: CC's variant floors are written in every
// section, zeros included, so that a section reads back as written
// whatever [cpu] holds (a key left out would take [cpu]'s value).
func TestWriteSectionAfforestKeys(t *testing.T) {
	const dev = "G"
	with := func(degree float64, arcs int64, skew float64) tuning.Setting {
		return tuning.DefaultSetting().With("afforest_min_degree", degree).With("afforest_min_arcs", float64(arcs)).With("afforest_min_skew", skew)
	}
	for _, tc := range []struct {
		name     string
		cpu      tuning.Setting
		dev, alg string
		t        tuning.Setting
	}{
		{"gpu floors over cpu defaults", tuning.DefaultSetting(), dev, "", with(2, 1<<22, 64)},
		{"zero degree over cpu's 2", tuning.DefaultSetting(), dev, "", with(0, 1<<22, 64)},
		{"zero floors over cpu's", with(1, 5, 3), dev, "", with(2, 0, 0)},
		{"cc section", tuning.DefaultSetting(), dev, "cc", with(2, 100, 64)},
		{"cpu.cc zero over cpu's", with(1, 5, 3), "cpu", "cc", with(0, 0, 0)},
	} {
		path := filepath.Join(t.TempDir(), "th.toml")
		if err := tuning.WriteSection(path, "cpu", tc.cpu); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if tc.alg != "" && tc.dev != "cpu" {
			if err := tuning.WriteSection(path, tc.dev, with(2, 1<<22, 64)); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		if err := tuning.WriteSectionFor(path, tc.dev, tc.alg, tc.t); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got, err := tuning.LoadSectionFor(path, tc.dev, tc.alg)
		if err != nil || !got.Equal(tc.t) {
			t.Errorf("%s: read back %+v, %v; want %+v", tc.name, got, err, tc.t)
		}
	}
	text := tuning.RenderSectionFor(dev, "cc", tuning.DefaultSetting())
	for _, k := range []string{"afforest_min_degree = 2.0\n", "afforest_min_arcs = 0\n", "afforest_min_skew = 0.0\n"} {
		if !strings.Contains(text, k) {
			t.Errorf("rendered section lacks %q:\n%s", k, text)
		}
	}
}

func tinyInputs(t *testing.T) []*tuning.Input {
	t.Helper()
	var ins []*tuning.Input
	for _, spec := range []string{"kron:7", "grid:6:6"} {
		g, err := graph.Generate(spec, graph.GenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		in, err := tuning.NewInput(spec, g, 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in)
	}
	return ins
}

// TestTuneGPUOnlyKnobs: on the CPU backend, which has no blocks or
// persistent launches, threads per block and launch_delta_factor are not
// swept (their steps are skipped, no rows run), while bucket_delta_factor,
// an SSSP knob of every backend, runs on SSSP alone.
func TestTuneGPUOnlyKnobs(t *testing.T) {
	ld, err := tuning.NewSweep(tuning.Param("launch_delta_factor"), "0,16")
	if err != nil {
		t.Fatal(err)
	}
	bd, err := tuning.NewSweep(tuning.Param("bucket_delta_factor"), "0,8")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tuning.NewSweep(tuning.Param("launch_delta_factor"), "-1,4"); err == nil || !strings.Contains(err.Error(), "launch_delta_factor") {
		t.Errorf("negative launch_delta_factor: %v, want an error naming the key", err)
	}
	res, err := tuning.Tune(context.Background(), tuning.TuneConfig{
		Inputs: tinyInputs(t), Algorithms: []tuning.Algorithm{tuning.BFS, tuning.SSSP},
		Start:  tuning.DefaultSetting(),
		Sweeps: []tuning.Sweep{ld, bd}, Backend: runtime.NewCPU(2),
	})
	if err != nil {
		t.Fatal(err)
	}
	if st := res.Steps[0]; st.Param != tuning.Param("launch_delta_factor") || !st.Skipped {
		t.Errorf("launch_delta_factor step %+v, want skipped on the CPU", st)
	}
	if st := res.Steps[1]; st.Param != tuning.Param("bucket_delta_factor") || st.Skipped {
		t.Errorf("bucket_delta_factor step %+v, want swept", st)
	}
	// 2 values and the current one (2) x 2 graphs, SSSP only.
	if len(res.Rows) != 6 {
		t.Fatalf("%d rows, want 6", len(res.Rows))
	}
	for _, r := range res.Rows {
		if r.Param != tuning.Param("bucket_delta_factor") || r.Algorithm != tuning.SSSP {
			t.Errorf("row %s on %s, want bucket_delta_factor on sssp", r.Param, r.Algorithm)
		}
	}
}

func TestTuneAndReadBack(t *testing.T) {
	var csvBuf bytes.Buffer
	t3, _ := tuning.NewSweep(tuning.T3, "0.01,0.1")
	delta, _ := tuning.NewSweep(tuning.Delta, "1,8")
	alpha, _ := tuning.NewSweep(tuning.Alpha, "10,20")
	tpb, _ := tuning.NewSweep(tuning.ThreadsPerBlock, "128,256")
	var progress []int
	start := tuning.DefaultSetting().With(tuning.DeltaFactor, 0) // a fixed delta, so the delta sweep runs
	res, err := tuning.Tune(context.Background(), tuning.TuneConfig{
		Inputs: tinyInputs(t), Algorithms: []tuning.Algorithm{tuning.BFS, tuning.SSSP},
		Start:  start,
		Sweeps: []tuning.Sweep{t3, delta, alpha, tpb}, Backend: runtime.NewCPU(2), Verify: true, CSV: &csvBuf,
		Progress: func(done, total int) { progress = append(progress, done, total) },
	})
	if err != nil {
		t.Fatal(err)
	}
	// Each sweep gains the current value (T3 0.005, delta 32, alpha 15).
	// T3: 3 values x 4 pairs; delta: 3 x 2 (SSSP); alpha: 3 x 2 (BFS);
	// threads per block: not swept on the CPU.
	if want := 12 + 6 + 6; len(res.Rows) != want || !res.Complete {
		t.Fatalf("%d rows (complete %v), want %d", len(res.Rows), res.Complete, want)
	}
	if res.Score != tuning.ScoreWall {
		t.Errorf("score %q, want the default wall", res.Score)
	}
	if n := len(progress); n == 0 || progress[n-2] != 24 || progress[n-1] != 24 {
		t.Errorf("progress %v, want to end at 24 of 24", progress)
	}
	if last := res.Steps[len(res.Steps)-1]; last.Param != tuning.ThreadsPerBlock || !last.Skipped {
		t.Errorf("threads per block step %+v, want skipped", last)
	}
	for _, s := range res.Rows {
		if s.Param == tuning.Delta && s.Algorithm != tuning.SSSP || s.Param == tuning.Alpha && s.Algorithm != tuning.BFS {
			t.Errorf("%s swept on %s, which it does not affect", s.Param, s.Algorithm)
		}
	}
	for _, st := range res.Steps[:3] {
		if !slices.Contains(st.Values, st.Current) || len(st.P) != len(st.Values) {
			t.Errorf("step %s: values %v without the current %v, or p-values %v", st.Param, st.Values, st.Current, st.P)
		}
	}
	if b := res.Best; !slices.Contains([]float64{0.005, 0.01, 0.1}, b.T3) || !slices.Contains([]float64{1, 8, 32}, b.Get(tuning.Delta)) || !slices.Contains([]float64{10, 15, 20}, b.Alpha) {
		t.Errorf("best %+v outside the swept values", b)
	}
	bests := tuning.BestPerGraph(res.Rows, 1, tuning.Delta, res.Score)
	if len(bests) != 2 {
		t.Fatalf("BestPerGraph for delta: %+v, want one per SSSP graph", bests)
	}
	for _, b := range bests {
		if b.Algorithm != tuning.SSSP || !slices.Contains([]float64{1, 8, 32}, b.Value) {
			t.Errorf("BestPerGraph %+v", b)
		}
		for _, r := range res.Rows {
			if r.Param == tuning.Delta && r.Graph == b.Graph && r.Median < b.Median {
				t.Errorf("%s: delta %v (%v) is faster than the best %v (%v)", b.Graph, r.Value, r.Median, b.Value, b.Median)
			}
		}
	}
	back, err := tuning.ReadTuneCSV(&csvBuf)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(res.Rows) {
		t.Fatalf("read back %d rows, want %d", len(back), len(res.Rows))
	}
	for i := range back {
		w := res.Rows[i]
		g := back[i]
		if g.Param != w.Param || g.Value != w.Value || g.Graph != w.Graph || !g.Setting.Equal(inCSV(w.Setting)) || g.Runs != w.Runs || g.Device != 0 {
			t.Errorf("row %d read back as %+v, want %+v", i, g, w)
		}
	}
	out := filepath.Join(t.TempDir(), "t3.png")
	if err := tuning.PlotSweep(back, tuning.T3, tuning.SSSP, tuning.ScoreWall, out); err != nil {
		t.Fatal(err)
	}
	if err := tuning.PlotSweep(back, tuning.Delta, tuning.BFS, tuning.ScoreWall, out); err == nil {
		t.Error("plotting a knob without rows succeeded")
	}
}

// inCSV is s as the tune CSV records it: the knobs tune sweeps (Params),
// without the others (CC's variant floors, bucket_min_skew).
func inCSV(s tuning.Setting) tuning.Setting {
	s.Knobs = maps.Clone(s.Knobs)
	for k := range s.Knobs {
		if !slices.Contains(tuning.Params(), tuning.Param(k)) {
			delete(s.Knobs, k)
		}
	}
	return s
}

func TestTuneCancelledKeepsRows(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var csvBuf bytes.Buffer
	t3, _ := tuning.NewSweep(tuning.T3, "0.01:0.15:0.02")
	n := 0
	res, err := tuning.Tune(ctx, tuning.TuneConfig{
		Inputs: tinyInputs(t), Algorithms: []tuning.Algorithm{tuning.BFS},
		Start: tuning.DefaultSetting(), Sweeps: []tuning.Sweep{t3}, CSV: &csvBuf,
		OnRow: func(tuning.TuneRow) {
			if n++; n == 2 {
				cancel()
			}
		},
	})
	// The values are timed together per graph: cancelled at the first
	// graph's second row, that graph's rows (one per value) are finished
	// and kept, the second graph's are not run.
	values := len(t3.Values) + 1 // and the current T3, 0.005
	if !errors.Is(err, context.Canceled) || res == nil || res.Complete || len(res.Rows) != values {
		t.Fatalf("err %v, result %+v: want Canceled with %d rows", err, res, values)
	}
	for _, r := range res.Rows {
		if r.Graph != res.Rows[0].Graph {
			t.Errorf("row of %s after the cancellation during %s", r.Graph, res.Rows[0].Graph)
		}
	}
	rows, err := tuning.ReadTuneCSV(&csvBuf)
	if err != nil || len(rows) != values {
		t.Errorf("CSV holds %d rows (%v), want the %d finished", len(rows), err, values)
	}
}

// fakeGPU is a backend taking a block size, as the CUDA backend will.
type fakeGPU struct {
	*runtime.CPU
	tpb []int
}

func (f *fakeGPU) Device() string { return "Fake GPU" }
func (f *fakeGPU) Driver() string { return "555.42" }
func (f *fakeGPU) SetThreadsPerBlock(n int) error {
	f.tpb = append(f.tpb, n)
	return nil
}

// TestThreadsPerBlockSweptWhereSupported checks that Tune sets the block
// size on a backend that takes one. Algorithms pick their operator by the
// backend's concrete type, so the fake backend cannot run BFS: the first
// run fails with runtime.ErrUnsupported after the first size was set.
func TestThreadsPerBlockSweptWhereSupported(t *testing.T) {
	b := &fakeGPU{CPU: runtime.NewCPU(1)}
	tpb, _ := tuning.NewSweep(tuning.ThreadsPerBlock, "128,256")
	_, err := tuning.Tune(context.Background(), tuning.TuneConfig{
		Inputs: tinyInputs(t)[:1], Algorithms: []tuning.Algorithm{tuning.BFS},
		Start: tuning.DefaultSetting(), Sweeps: []tuning.Sweep{tpb}, Backend: b,
	})
	// The sweep starts with the current value, 0: the device's default.
	if !errors.Is(err, runtime.ErrUnsupported) || !reflect.DeepEqual(b.tpb, []int{0}) {
		t.Errorf("err %v, block sizes set %v; want ErrUnsupported after setting 0", err, b.tpb)
	}
	env := tuning.DetectEnv(b)
	if env.Device != "Fake GPU" || env.Driver != "555.42" || env.GOMAXPROCS < 1 || env.Commit == "" {
		t.Errorf("env %+v", env)
	}
	if cpu := tuning.DetectEnv(runtime.NewCPU(1)); cpu.Device != "cpu" || cpu.Driver != "n/a" {
		t.Errorf("cpu env %+v", cpu)
	}
}

func TestBenchSummaries(t *testing.T) {
	var md, csvBuf bytes.Buffer
	def := decider.DefaultThresholds()
	def.T2 = 1 << 20 // a different policy: block mapping and queues throughout
	res, err := tuning.Bench(context.Background(), tuning.BenchConfig{
		Inputs: tinyInputs(t), Algorithms: []tuning.Algorithm{tuning.SSSP}, Deltas: []uint64{4, 64},
		Backend: runtime.NewCPU(2), Verify: true, Defaults: &def, CSV: &csvBuf, Confirm: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Every row keeps its per-source times; every configuration its
	// iterations per variant (a static one: its own variant only).
	for _, r := range res.Rows {
		if len(r.PerSource) != r.Runs || r.PerSourceDevice != nil || slices.Contains(r.PerSource, 0) {
			t.Errorf("%s %s: per-source times %v for %d sources", r.Graph, r.Label(), r.PerSource, r.Runs)
		}
		iters := 0
		for _, k := range r.Variants {
			iters += k
		}
		switch {
		case r.Variant == tuning.Serial && r.Variants != nil:
			t.Errorf("serial row with variants %v", r.Variants)
		case r.Variant != tuning.Serial && iters < r.Runs:
			t.Errorf("%s %s: %d iterations counted over %d runs (%v)", r.Graph, r.Label(), iters, r.Runs, r.Variants)
		case r.Variant != tuning.Serial && r.Variant != tuning.Adaptive && r.Variant != tuning.AdaptiveDefaults &&
			!strings.HasPrefix(r.Variant, tuning.Confirm) && r.Variants[r.Variant] != iters:
			t.Errorf("static %s ran %v", r.Label(), r.Variants)
		}
	}
	// The CSV keeps them (in ms to 4 decimals).
	back, err := tuning.ReadBenchCSV(&csvBuf)
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b []time.Duration) bool {
		return slices.EqualFunc(a, b, func(x, y time.Duration) bool { return (x - y).Abs() <= 50*time.Nanosecond })
	}
	for i, r := range back.Rows {
		w := res.Rows[i]
		if !near(r.PerSource, w.PerSource) || r.PerSourceDevice != nil || !maps.Equal(r.Variants, w.Variants) {
			t.Errorf("row %d read back as %v %v %v, want %v %v %v", i, r.PerSource, r.PerSourceDevice, r.Variants, w.PerSource, w.PerSourceDevice, w.Variants)
		}
	}
	// The ordered statics run at 4, 64 and the delta the adaptive row
	// derived for the graph (the CPU thresholds have a delta_factor).
	deltas := map[string]map[uint64]bool{}
	for _, r := range res.Rows {
		if deltas[r.Graph] == nil {
			deltas[r.Graph] = map[uint64]bool{}
		}
		if strings.HasPrefix(r.Variant, "O_") {
			deltas[r.Graph][r.Delta] = true
		}
	}
	want := 0
	for _, r := range res.Rows {
		if r.Variant == tuning.Adaptive {
			if d := deltas[r.Graph]; r.Delta == 0 || !d[4] || !d[64] || !d[r.Delta] {
				t.Errorf("%s: adaptive delta %d, statics' deltas %v", r.Graph, r.Delta, d)
			}
			want += 1 + 4*len(deltas[r.Graph]) + 4 + 1 + 1 + 2 // + the confirmation round: adaptive and the best static
		}
	}
	if len(res.Rows) != want || len(res.Summaries) != 2 {
		t.Fatalf("%d rows, %d summaries; want %d, 2", len(res.Rows), len(res.Summaries), want)
	}
	for _, s := range res.Summaries {
		// The confirmation round re-timed the adaptive row and the best
		// static (the CPU has no device times: no third).
		if len(s.Confirmed) != 2 || s.Confirmed[0].Variant != tuning.Confirm+tuning.Adaptive || s.Confirmed[0].Delta != s.Adaptive.Delta ||
			s.Confirmed[1].Variant != tuning.Confirm+s.Best.Variant || s.Confirmed[1].Delta != s.Best.Delta || s.Confirmed[1].Runs != s.Best.Runs {
			t.Errorf("%s: confirmation rows %+v, want adaptive and %s", s.Graph, s.Confirmed, s.Best.Label())
		}
		if s.Best.Median > s.Worst.Median || s.Best.Variant == tuning.Adaptive || s.Worst.Variant == tuning.Serial ||
			s.Adaptive.Variant != tuning.Adaptive || s.Serial.Speedup != 1 || s.Defaults.Variant != tuning.AdaptiveDefaults ||
			s.Best.Variant == tuning.AdaptiveDefaults || s.Worst.Variant == tuning.AdaptiveDefaults {
			t.Errorf("summary %+v", s)
		}
		// The CPU has no device time: no device comparison.
		if s.Adaptive.Device != 0 || s.BestDevice.Variant != "" {
			t.Errorf("CPU summary with device times: %+v", s)
		}
		for _, r := range res.Rows {
			if r.Graph == s.Graph && r.Variant != tuning.Serial && r.Variant != tuning.Adaptive && r.Variant != tuning.AdaptiveDefaults && !strings.HasPrefix(r.Variant, tuning.Confirm) &&
				(r.Median < s.Best.Median || r.Median > s.Worst.Median) {
				t.Errorf("%s %s (%v) outside best %v .. worst %v", r.Graph, r.Label(), r.Median, s.Best.Median, s.Worst.Median)
			}
		}
	}
	if err := res.WriteMarkdown(&md, tuning.DetectEnv(runtime.NewCPU(2))); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "(d=") || !strings.Contains(md.String(), "| kron:7 |") || !strings.Contains(md.String(), "interleaved, round by round") ||
		!strings.Contains(md.String(), "tuned thresholds vs device-derived defaults") || strings.Contains(md.String(), "on the device") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if err := res.PlotBench(tuning.BFS, filepath.Join(t.TempDir(), "x.png")); err == nil {
		t.Error("plotting an algorithm that was not run succeeded")
	}
}

// TestWriteSectionHeaderForms replaces sections written with other TOML
// quoting and keeps a user's comment above a replaced section.
func TestWriteSectionHeaderForms(t *testing.T) {
	path := filepath.Join(t.TempDir(), "th.toml")
	orig := "# keep me\n[ cpu ]\nT2 = 5\n\n[gpu.'A100']\nT3 = 0.2\n# about B\n[gpu.\"B\"]\ndelta = 3\n"
	if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	a := tuning.DefaultSetting().With(tuning.T3, 0.07).With(tuning.PullMinEdges, 1<<19).With(tuning.BitmapMinVertices, 1<<17)
	if err := tuning.WriteSection(path, "A100", a); err != nil {
		t.Fatal(err)
	}
	cpu := tuning.DefaultSetting().With(tuning.T2, 99)
	if err := tuning.WriteSection(path, "", cpu); err != nil {
		t.Fatal(err)
	}
	set, err := decider.LoadThresholds(path)
	if err != nil {
		t.Fatal(err)
	}
	if set.GPU["A100"] != a.Thresholds || set.CPU != cpu.Thresholds || set.Knobs[`[gpu."B"]`]["delta"] != int64(3) || len(set.GPU) != 2 {
		t.Errorf("got %+v", set)
	}
	text, _ := os.ReadFile(path)
	for _, w := range []string{"# keep me", "# about B"} {
		if !strings.Contains(string(text), w) {
			t.Errorf("lost %q:\n%s", w, text)
		}
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's 0600 kept", st.Mode().Perm())
	}
	if got := tuning.SectionName("NVIDIA \"X\""); got != `[gpu."NVIDIA \"X\""]` {
		t.Errorf("SectionName quoting: %s", got)
	}
}

// TestBenchPerAlgorithm: SSSP's adaptive policy runs with its own
// thresholds (its fixed delta: the adaptive row's, and the statics' default
// width), the others with Thresholds.
func TestBenchPerAlgorithm(t *testing.T) {
	base := decider.DefaultThresholds()
	sssp := base
	sssp.T2 = 5
	// SSSP's own keys come from the set: [cpu.sssp]'s delta over [cpu]'s.
	set, err := algorithms.ParseThresholds("[cpu]\ndelta = 3\ndelta_factor = 0.0\n[cpu.sssp]\ndelta = 5\n")
	if err != nil {
		t.Fatal(err)
	}
	cfg := tuning.BenchConfig{Thresholds: base, PerAlgorithm: map[tuning.Algorithm]decider.Thresholds{tuning.SSSP: sssp}, Set: set}
	if cfg.ThresholdsFor(tuning.SSSP) != sssp || cfg.ThresholdsFor(tuning.BFS) != base {
		t.Fatalf("ThresholdsFor: sssp %+v, bfs %+v", cfg.ThresholdsFor(tuning.SSSP), cfg.ThresholdsFor(tuning.BFS))
	}
	cfg.Inputs, cfg.Algorithms, cfg.Backend = tinyInputs(t)[:1], []tuning.Algorithm{tuning.SSSP}, runtime.NewCPU(2)
	res, err := tuning.Bench(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		if (r.Variant == tuning.Adaptive || strings.HasPrefix(r.Variant, "O_")) && r.Delta != 5 {
			t.Errorf("%s: delta %d, want SSSP's 5", r.Label(), r.Delta)
		}
	}
	bad := sssp
	bad.T3 = 2
	cfg.PerAlgorithm[tuning.SSSP] = bad
	if _, err := tuning.Bench(context.Background(), cfg); !errors.Is(err, decider.ErrThresholds) || !strings.Contains(err.Error(), "sssp") {
		t.Errorf("invalid per-algorithm thresholds: %v", err)
	}
}

// TestWriteAlgSections merges per-algorithm sections into an existing
// file: each replaces or adds only its own section (a new one after its
// device's sections), comments and other sections stay, and a device
// section written before a subsection does not swallow it.
func TestWriteAlgSections(t *testing.T) {
	const dev = "NVIDIA H100 80GB HBM3"
	orig := `# my thresholds
[cpu]
T2 = 100

# about the GPU
[gpu."NVIDIA H100 80GB HBM3"]
T1 = 8.0
delta = 64

# BFS on the GPU
[gpu."NVIDIA H100 80GB HBM3".bfs]
T1 = 16.0

[gpu."Other"]
T3 = 0.2
`
	base, err := decider.ParseThresholds(orig)
	if err != nil {
		t.Fatal(err)
	}
	cpu, gpu := base.CPU, base.GPU[dev]
	gpuBFS, _ := base.LookupFor(dev, "bfs")
	gpuSSSP := gpu
	gpuSSSP.PullMinEdges, gpuSSSP.BitmapMinVertices = 0, 0
	cpuBFS := cpu
	cpuBFS.Alpha = 30
	newGPU := gpu
	newGPU.T3 = 0.07
	gpuBFS2 := gpuBFS
	gpuBFS2.SampleEvery = 3

	type write struct {
		device, alg string
		t           decider.Thresholds
	}
	// SSSP's own keys: delta 128 in its section.
	setting := func(w write) tuning.Setting {
		s := tuning.DefaultSetting()
		s.Thresholds = w.t
		if w.alg == "sssp" {
			s = s.With(tuning.Delta, 128)
		}
		return s
	}
	tests := []struct {
		name   string
		writes []write
		// want: every section of the result; order: headers in order.
		want  map[[2]string]decider.Thresholds
		order []string
	}{
		{"add a GPU subsection after the device's", []write{{dev, "sssp", gpuSSSP}},
			map[[2]string]decider.Thresholds{{dev, "sssp"}: gpuSSSP, {dev, "bfs"}: gpuBFS, {dev, ""}: gpu, {"", ""}: cpu, {"", "bfs"}: cpu},
			[]string{"[cpu]", `[gpu."NVIDIA H100 80GB HBM3"]`, `[gpu."NVIDIA H100 80GB HBM3".bfs]`, `[gpu."NVIDIA H100 80GB HBM3".sssp]`, `[gpu."Other"]`}},
		{"add a CPU subsection after the cpu section", []write{{"cpu", "bfs", cpuBFS}},
			map[[2]string]decider.Thresholds{{"", "bfs"}: cpuBFS, {"", "sssp"}: cpu, {dev, "bfs"}: gpuBFS, {dev, ""}: gpu},
			[]string{"[cpu]", "[cpu.bfs]", `[gpu."NVIDIA H100 80GB HBM3"]`, `[gpu."NVIDIA H100 80GB HBM3".bfs]`}},
		{"replace a subsection", []write{{dev, "bfs", gpuBFS2}},
			map[[2]string]decider.Thresholds{{dev, "bfs"}: gpuBFS2, {dev, ""}: gpu, {"", ""}: cpu},
			[]string{`[gpu."NVIDIA H100 80GB HBM3"]`, `[gpu."NVIDIA H100 80GB HBM3".bfs]`, `[gpu."Other"]`}},
		{"replace the device section before its subsection", []write{{dev, "", newGPU}},
			map[[2]string]decider.Thresholds{{dev, ""}: newGPU, {dev, "bfs"}: func() decider.Thresholds { x := newGPU; x.T1 = 16; return x }()},
			[]string{`[gpu."NVIDIA H100 80GB HBM3"]`, `[gpu."NVIDIA H100 80GB HBM3".bfs]`, `[gpu."Other"]`}},
		{"twice: replaced, not duplicated", []write{{dev, "sssp", gpu}, {dev, "sssp", gpuSSSP}},
			map[[2]string]decider.Thresholds{{dev, "sssp"}: gpuSSSP},
			[]string{`[gpu."NVIDIA H100 80GB HBM3".bfs]`, `[gpu."NVIDIA H100 80GB HBM3".sssp]`, `[gpu."Other"]`}},
	}
	for _, tc := range tests {
		path := filepath.Join(t.TempDir(), "th.toml")
		if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.writes {
			if err := tuning.WriteSectionFor(path, w.device, w.alg, setting(w), "tuned by gearbox tune "+tc.name); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		set, err := decider.LoadThresholds(path)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for k, want := range tc.want {
			if got, _ := set.LookupFor(k[0], k[1]); got != want {
				t.Errorf("%s: %s = %+v, want %+v", tc.name, tuning.SectionNameFor(k[0], k[1]), got, want)
			}
		}
		b, _ := os.ReadFile(path)
		text := string(b)
		for _, c := range []string{"# my thresholds", "# about the GPU", "# BFS on the GPU"} {
			if !strings.Contains(text, c) {
				t.Errorf("%s: lost %q:\n%s", tc.name, c, text)
			}
		}
		if n := strings.Count(text, "tuned by gearbox tune"); n != 1 {
			t.Errorf("%s: %d tuned comments, want 1 (the old one goes with its section):\n%s", tc.name, n, text)
		}
		at := -1
		for _, h := range tc.order {
			i := strings.Index(text, h+"\n")
			if i <= at || strings.Count(text, h+"\n") != 1 {
				t.Errorf("%s: %s not once and after the previous header:\n%s", tc.name, h, text)
			}
			at = i
		}
		if got, err := tuning.LoadSectionFor(path, tc.writes[0].device, tc.writes[0].alg); err != nil || got.Thresholds != tc.want[[2]string{lookup(tc.writes[0].device), tc.writes[0].alg}] {
			t.Errorf("%s: LoadSectionFor = %+v, %v", tc.name, got, err)
		}
	}
}

func lookup(device string) string {
	if device == "cpu" {
		return ""
	}
	return device
}

// TestWriteAlgSectionErrors: a GPU subsection needs the device's section
// in the file, and only algorithms have sections; the file is left alone.
func TestWriteAlgSectionErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "th.toml")
	orig := "[cpu]\nT2 = 5\n[gpu.\"A\"]\nT3 = 0.2\n"
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	th := tuning.DefaultSetting()
	tests := []struct {
		name, path, device, alg string
		want                    error
	}{
		{"no device section", path, "B", "bfs", tuning.ErrNoSection},
		{"new file, GPU", filepath.Join(dir, "new.toml"), "B", "sssp", tuning.ErrNoSection},
		{"unknown algorithm", path, "A", "pagerank", decider.ErrThresholds},
	}
	for _, tc := range tests {
		if err := tuning.CheckSectionTarget(tc.path, tc.device, tc.alg); !errors.Is(err, tc.want) {
			t.Errorf("%s: CheckSectionTarget: %v, want %v", tc.name, err, tc.want)
		}
		if err := tuning.WriteSectionFor(tc.path, tc.device, tc.alg, th); !errors.Is(err, tc.want) {
			t.Errorf("%s: WriteSectionFor: %v, want %v", tc.name, err, tc.want)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != orig {
		t.Errorf("file changed:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.toml")); err == nil {
		t.Error("new.toml written")
	}
	// The CPU's needs no [cpu]: its keys default to the built-in values.
	cpuBFS := th.With(tuning.T1, 4)
	if err := tuning.WriteSectionFor(filepath.Join(dir, "cpu.toml"), "cpu", "bfs", cpuBFS); err != nil {
		t.Fatal(err)
	}
	// LoadSectionFor needs the device section, even for the CPU.
	if _, err := tuning.LoadSectionFor(filepath.Join(dir, "cpu.toml"), "cpu", "bfs"); !errors.Is(err, tuning.ErrNoSection) || !strings.Contains(err.Error(), "[cpu.bfs]") {
		t.Errorf("LoadSectionFor without [cpu]: %v", err)
	}
	if got := tuning.SectionNameFor("cpu", "bfs") + tuning.SectionNameFor("X", "cc") + tuning.SectionNameFor("", ""); got != `[cpu.bfs][gpu."X".cc][cpu]` {
		t.Errorf("SectionNameFor: %s", got)
	}
}

// TestBenchDeviceSummary reads a GPU bench CSV (with device_ms) and an
// older one without it: the device comparison picks its own best and
// worst, and appears in the report only when device times exist.
func TestBenchDeviceSummary(t *testing.T) {
	gpu := `algorithm,graph,variant,delta,sources,median_ms,min_ms,max_ms,speedup_vs_serial,repeats,device_ms,per_source_ms,per_source_device_ms,variants
bfs,g,serial,,2,100,90,110,1,1,0,90;110,,
bfs,g,U_B_QU,,2,2.0,1.9,2.1,50,3,1.50,1.9;2.1,1.4;1.6,U_B_QU:10
bfs,g,pull,,2,3.0,2.9,3.1,33.3,3,0.40,2.9;3.1,0.5;0.3,pull:10
bfs,g,U_T_BM,,2,2.5,2.4,2.6,40,3,2.00,2.4;2.6,1.9;2.1,U_T_BM:10
bfs,g,adaptive,,2,2.1,2.0,2.2,47.6,3,0.30,2.0;2.2,0.25;0.35,pull:6;U_B_QU:2
sssp,h,serial,,2,100,90,110,1,1,0,90;110,,
sssp,h,O_B_QU,16,2,2.0,1.9,2.1,50,3,1.50,1.9;2.1,1.4;1.6,O_B_QU:10
sssp,h,O_B_QU,64,2,3.0,2.9,3.1,33.3,3,2.40,2.9;3.1,2.3;2.5,O_B_QU:8
sssp,h,adaptive,64,2,3.3,3.1,3.5,30.3,3,2.52,3.1;3.5,2.5;2.54,O_B_QU:9
sssp,h,confirm:adaptive,64,2,3.0,2.9,3.1,33.3,3,1.55,2.9;3.1,1.5;1.6,O_B_QU:9
sssp,h,confirm:O_B_QU,16,2,2.9,2.8,3.0,34.5,3,1.50,2.8;3.0,1.5;1.5,O_B_QU:10
`
	res, err := tuning.ReadBenchCSV(strings.NewReader(gpu))
	if err != nil {
		t.Fatal(err)
	}
	s := res.Summaries[0]
	if s.Best.Variant != "U_B_QU" || s.Worst.Variant != "pull" || s.BestDevice.Variant != "pull" || s.WorstDevice.Variant != "U_T_BM" ||
		s.Adaptive.Device != 300*time.Microsecond {
		t.Errorf("summary %+v", s)
	}
	var md bytes.Buffer
	if err := res.WriteMarkdown(&md, tuning.Env{}); err != nil {
		t.Fatal(err)
	}
	// A CSV does not say how it was timed: the report must not claim
	// interleaving for it.
	// Per source on the device: 0.25/0.5 and 0.35/0.3. The adaptive SSSP
	// ran O_B_QU only: its same static is the one at its delta, 64.
	for _, w := range []string{
		"| g | 0.300 | pull | 0.400 | U_T_BM | 2.000 | 0.75 | 6.67 | 0.50-1.17 | - |",
		// Confirmed: 3.0/2.9 by wall (2.9/2.8, 3.1/3.0); 1.55/1.50 on the device.
		"| h | 3.300 | O_B_QU/d=16 | 2.000 | O_B_QU/d=64 | 3.000 | 1.65 | 0.91 | 1.63-1.67 | 1.03 (1.03-1.04) |",
		"| h | 2.520 | O_B_QU/d=16 | 1.500 | O_B_QU/d=64 | 2.400 | 1.68 | 0.95 | 1.59-1.79 | 1.03 (1.00-1.07) |",
		"| g | pull 75%, U_B_QU 25% | - | - | - | - |",
		"| h | O_B_QU 100% | O_B_QU/d=64 | 1.10 | 1.07-1.13 | 1.05 |",
	} {
		if !strings.Contains(md.String(), w) {
			t.Errorf("markdown lacks %q:\n%s", w, md.String())
		}
	}
	if strings.Contains(md.String(), "interleaved") {
		t.Errorf("markdown claims interleaving:\n%s", md.String())
	}
	if s := res.Summaries[1]; s.Same.Label() != "O_B_QU/d=64" || res.Summaries[0].Same.Variant != "" {
		t.Errorf("same static: %q, %q", s.Same.Label(), res.Summaries[0].Same.Label())
	}
	bad := strings.Replace(gpu, "pull:6;U_B_QU:2", "pull6", 1)
	if _, err := tuning.ReadBenchCSV(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line 6") {
		t.Errorf("bad variants column: err = %v, want line 6", err)
	}
	old := "algorithm,graph,variant,delta,sources,median_ms,min_ms,max_ms,speedup_vs_serial\nbfs,g,serial,,4,100,90,110,1\nbfs,g,pull,,4,3,2.9,3.1,33.3\nbfs,g,adaptive,,4,2,2,2,50\n"
	res, err = tuning.ReadBenchCSV(strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Rows[1]; r.Repeats != 1 || r.Device != 0 || r.Median != 3*time.Millisecond {
		t.Errorf("old row %+v", r)
	}
}

// TestTuneDeltaFactor: delta_factor is swept on SSSP only; where the best
// factor is > 0 the delta sweep is skipped (delta has no effect), and the
// CSV carries each row's factor.
func TestTuneDeltaFactor(t *testing.T) {
	var csvBuf bytes.Buffer
	factor, _ := tuning.NewSweep(tuning.DeltaFactor, "4,8")
	delta, _ := tuning.NewSweep(tuning.Delta, "1,16")
	res, err := tuning.Tune(context.Background(), tuning.TuneConfig{
		Inputs: tinyInputs(t), Algorithms: []tuning.Algorithm{tuning.BFS, tuning.SSSP},
		Start:  tuning.DefaultSetting(),
		Sweeps: []tuning.Sweep{factor, delta}, Backend: runtime.NewCPU(2), Verify: true, CSV: &csvBuf,
	})
	if err != nil {
		t.Fatal(err)
	}
	// delta_factor: 2 values x 2 graphs, SSSP only; delta: skipped.
	if len(res.Rows) != 4 {
		t.Fatalf("%d rows, want 4", len(res.Rows))
	}
	if b := res.Best.Get(tuning.DeltaFactor); b != 4 && b != 8 {
		t.Errorf("best delta_factor %v outside the swept values", b)
	}
	if st := res.Steps[1]; st.Param != tuning.Delta || !st.Skipped {
		t.Errorf("delta step %+v, want skipped", st)
	}
	back, err := tuning.ReadTuneCSV(&csvBuf)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range back {
		if r.Algorithm != tuning.SSSP || r.Setting.Get(tuning.DeltaFactor) != r.Value || !r.Setting.Equal(inCSV(res.Rows[i].Setting)) {
			t.Errorf("row %d read back as %+v, want SSSP with delta_factor = value = %v", i, r, res.Rows[i].Value)
		}
	}
	// A CSV from before the column: its runs used a fixed delta.
	old := "pass,param,value,algorithm,graph,T1,T2,T3,sample_every,alpha,beta,delta,threads_per_block,sources,median_ms,min_ms,max_ms,repeats,pull_min_edges,bitmap_min_vertices\n" +
		"1,delta,16,sssp,kron:7,64,16,0.005,6,15,18,16,0,2,0.0100,0.0090,0.0110,1,0,0\n"
	rows, err := tuning.ReadTuneCSV(strings.NewReader(old))
	if err != nil || len(rows) != 1 || rows[0].Setting.Get(tuning.DeltaFactor) != 0 || rows[0].Setting.Get(tuning.Delta) != 16 {
		t.Errorf("old CSV: %+v, %v", rows, err)
	}
}

// TestTuneOrderRule: ordered_min_vertices is swept on SSSP only, and each
// value takes effect: above the graphs' sizes the adaptive policy ran
// unordered variants only, at 0 ordered ones only.
func TestTuneOrderRule(t *testing.T) {
	sw, err := tuning.NewSweep(tuning.Param("ordered_min_vertices"), "0,1000000")
	if err != nil {
		t.Fatal(err)
	}
	start := tuning.DefaultSetting().With(tuning.Param("ordered_min_degree"), 0)
	res, err := tuning.Tune(context.Background(), tuning.TuneConfig{
		Inputs: tinyInputs(t), Algorithms: []tuning.Algorithm{tuning.BFS, tuning.SSSP},
		Start: start, Sweeps: []tuning.Sweep{sw}, Backend: runtime.NewCPU(2), Verify: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 4 { // 2 values x 2 graphs, SSSP only
		t.Fatalf("%d rows, want 4", len(res.Rows))
	}
	for _, r := range res.Rows {
		want := "O_"
		if r.Value > 0 {
			want = "U_"
		}
		if r.Algorithm != tuning.SSSP || r.Setting.Get(tuning.Param("ordered_min_vertices")) != r.Value || len(r.Variants) == 0 {
			t.Errorf("row %+v", r)
		}
		for v := range r.Variants {
			if !strings.HasPrefix(v, want) {
				t.Errorf("%s at ordered_min_vertices %v ran %v, want %s* only", r.Graph, r.Value, r.Variants, want)
			}
		}
	}
}

// TestPickSources: a k beyond the vertices with out-edges gives them all
// (quickly, whatever k), and few such vertices among many are all found
// rather than missed by the random draws.
func TestPickSources(t *testing.T) {
	const n = 1 << 16
	// Three vertices with out-edges among 65536: 1216 random draws would
	// miss them.
	g, err := graph.Build(&graph.EdgeList{NumVertices: n, Src: []uint32{5, 40000, 65000}, Dst: []uint32{6, 40001, 65001}}, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		k    int
		want int
	}{
		{"all three", 3, 3},
		{"two of three", 2, 2},
		{"more than there are", 10, 3},
		{"far more than there are", 1 << 40, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srcs, eligible := tuning.PickSources(g, tc.k, 1)
			if len(srcs) != tc.want || eligible != 3 {
				t.Fatalf("PickSources(k=%d) = %v (eligible %d), want %d sources of 3", tc.k, srcs, eligible, tc.want)
			}
			seen := map[uint32]bool{}
			for _, v := range srcs {
				if g.Degree(v) == 0 || seen[v] {
					t.Errorf("source %d: no out-edges or repeated (%v)", v, srcs)
				}
				seen[v] = true
			}
		})
	}
	in, err := tuning.NewInput("sparse", g, 8, 1)
	if err != nil || len(in.Sources) != 3 {
		t.Errorf("NewInput(k=8) = %v, %v; want the 3 vertices with out-edges", in, err)
	}
	// The draws themselves are unchanged: repeated sweeps stay comparable.
	k8, _ := graph.Generate("kron:8", graph.GenOptions{})
	a, _ := tuning.PickSources(k8, 4, 7)
	b, _ := tuning.PickSources(k8, 4, 7)
	if !slices.Equal(a, b) || len(a) != 4 {
		t.Errorf("PickSources is not deterministic: %v, %v", a, b)
	}
}
