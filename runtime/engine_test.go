package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// fake is an operator whose working set shrinks by one per iteration.
type fake struct {
	left     int
	rep      decider.Rep
	converts []decider.Rep
	computed []decider.Variant
	requests []runtime.StepRequest
	closed   bool
	cancel   func()
}

func (f *fake) Info() runtime.OperatorInfo {
	return runtime.OperatorInfo{Info: decider.Info{N: 100, M: 1000, Universe: 100, InitialSize: 1}}
}
func (f *fake) Start(v decider.Variant) error { f.rep = v.Rep; return nil }
func (f *fake) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	edges, err := f.compute(req.Variant)
	if err != nil {
		return runtime.StepResult{}, err
	}
	f.requests = append(f.requests, req)
	f.left--
	return runtime.StepResult{Edges: edges, Size: int64(f.left), Degree: -1}, nil
}
func (f *fake) compute(v decider.Variant) (int64, error) {
	if v.Rep != f.rep {
		return 0, errors.New("computed on the wrong representation")
	}
	f.computed = append(f.computed, v)
	if f.cancel != nil && len(f.computed) == 2 {
		f.cancel()
	}
	return 10, nil
}
func (f *fake) DeviceTimes() *runtime.GPUTimes { return nil }
func (f *fake) Inspect(bool) (int64, int64)    { return int64(f.left), 0 }
func (f *fake) Convert(r decider.Rep) error {
	f.converts = append(f.converts, r)
	f.rep = r
	return nil
}
func (f *fake) Done() bool   { return f.left <= 0 }
func (f *fake) Close() error { f.closed = true; return nil }

func TestEngineConvertsOnlyOnRepChange(t *testing.T) {
	obm, _ := decider.ParseVariant("O_T_BM")
	ubm, _ := decider.ParseVariant("U_B_BM")
	oqu, _ := decider.ParseVariant("O_T_QU")
	f := &fake{left: 6}
	var logbuf bytes.Buffer
	l := zerolog.New(&logbuf).Level(zerolog.DebugLevel)
	st, err := runtime.Run(context.Background(), "fake", f,
		runtime.NewConfig(runtime.WithPolicy(testgraphs.Cycle(obm, ubm, oqu)), runtime.WithTrace(true), runtime.WithLogger(l)))
	if err != nil {
		t.Fatal(err)
	}
	// Variants: BM BM QU BM BM QU; conversions BM->QU, QU->BM, BM->QU
	// (none after the last iteration: the run is done).
	want := []decider.Rep{decider.Queue, decider.Bitmap, decider.Queue}
	if len(f.converts) != len(want) {
		t.Fatalf("converts %v, want %v", f.converts, want)
	}
	if !f.closed {
		t.Error("operator not closed")
	}
	if st.Iterations != 6 || st.EdgesRelaxed != 60 || len(st.Trace) != 6 || st.Switches != 5 {
		t.Errorf("stats %+v", st)
	}
	if st.Variants["O_T_BM"] != 2 || st.Variants["U_B_BM"] != 2 || st.Variants["O_T_QU"] != 2 {
		t.Errorf("variant counts %v", st.Variants)
	}
	if strings.Count(logbuf.String(), `"message":"iteration"`) != 6 {
		t.Errorf("want 6 debug lines, got %q", logbuf.String())
	}
	var js bytes.Buffer
	if err := st.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back runtime.Stats
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Trace[1].Variant != ubm || back.Iterations != 6 {
		t.Errorf("JSON round trip: %+v", back)
	}
}

// deferring takes a queue into its pull iterations as it is.
type deferring struct{ fake }

func (f *deferring) Info() runtime.OperatorInfo {
	i := f.fake.Info()
	i.CanPull, i.PullConverts = true, true
	return i
}

// Convert to the present representation is free, as on the GPU.
func (f *deferring) Convert(r decider.Rep) error {
	if r == f.rep {
		return nil
	}
	return f.fake.Convert(r)
}

func (f *deferring) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	v := req.Variant
	if v.Direction == decider.Pull && f.rep == decider.Queue {
		f.computed = append(f.computed, v)
		f.rep = decider.Queue // the iteration leaves a queue behind
		f.left--
		return runtime.StepResult{Edges: 10, Size: int64(f.left), Degree: -1}, nil
	}
	// A pull iteration leaves a queue whatever its variant's
	// representation: Step converts, as the GPU BFS's does.
	if err := f.Convert(v.Rep); err != nil {
		return runtime.StepResult{}, err
	}
	return f.fake.Step(req)
}

// TestEngineDefersConversion: an operator that takes a queue into a pull
// iteration (OperatorInfo.PullConverts) is not converted before it; after
// it, the working set is the operator's queue, so the push over a queue
// that follows needs no conversion either, and a bitmap push does.
func TestEngineDefersConversion(t *testing.T) {
	oqu, _ := decider.ParseVariant("O_T_QU")
	obm, _ := decider.ParseVariant("O_T_BM")
	f := &deferring{fake{left: 6}}
	st, err := runtime.Run(context.Background(), "fake", f,
		runtime.NewConfig(runtime.WithPolicy(testgraphs.Cycle(oqu, decider.PullVariant, oqu, decider.PullVariant, obm))))
	if err != nil {
		t.Fatal(err)
	}
	// QU, pull (deferred), QU (the pull left a queue: nothing to do),
	// pull (deferred), BM (its Step converts the queue the pull left),
	// QU (the engine converts back).
	want := []decider.Rep{decider.Bitmap, decider.Queue}
	if fmt.Sprint(f.converts) != fmt.Sprint(want) || st.Iterations != 6 {
		t.Errorf("converts %v over %d iterations, want %v over 6", f.converts, st.Iterations, want)
	}
}

func TestEngineCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &fake{left: 100, cancel: cancel}
	_, err := runtime.Run(ctx, "fake", f, runtime.NewConfig())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if len(f.computed) != 2 || !f.closed {
		t.Errorf("computed %d iterations after cancel (want 2), closed %v", len(f.computed), f.closed)
	}
}

func TestEngineRejectsPullWithoutSupport(t *testing.T) {
	f := &fake{left: 3}
	_, err := runtime.Run(context.Background(), "fake", f, runtime.NewConfig(runtime.WithVariant(decider.PullVariant)))
	if !errors.Is(err, runtime.ErrUnsupported) {
		t.Fatalf("got %v", err)
	}
}

func TestConfigDefaults(t *testing.T) {
	c := runtime.NewConfig()
	if c.Thresholds().T1 != decider.DefaultThresholds().T1 || !strings.HasPrefix(c.Policy().String(), "adaptive") {
		t.Errorf("defaults: T1 %v policy %s", c.Thresholds().T1, c.Policy())
	}
	type key struct{}
	if _, ok := c.Value(key{}); ok {
		t.Error("a value no option set")
	}
	c = runtime.NewConfig(runtime.WithValue(key{}, 8), runtime.WithValue(key{}, 9), runtime.WithWorkers(3))
	if v, ok := c.Value(key{}); !ok || v != 9 || c.Backend().(*runtime.CPU).Workers() != 3 {
		t.Errorf("options not applied: value %v %v", v, ok)
	}
}

// TestKey: typed keys are distinct even of one type and name, the last
// option wins, and Into leaves the default where no option set the key.
func TestKey(t *testing.T) {
	a, b := runtime.NewKey[int]("k"), runtime.NewKey[int]("k")
	c := runtime.NewConfig(a.Option(1), a.Option(2), b.Option(3))
	x, y := -1, -1
	a.Into(c, &x)
	b.Into(c, &y)
	if x != 2 || y != 3 {
		t.Errorf("got %d and %d, want 2 and 3", x, y)
	}
	z := -1
	runtime.NewKey[int]("unset").Into(c, &z)
	if z != -1 {
		t.Errorf("an unset key changed the default to %d", z)
	}
}

func TestThresholdSetPicksDeviceSection(t *testing.T) {
	set, err := decider.ParseThresholds("[cpu]\nT1 = 5.0\n[gpu.\"X\"]\nT1 = 7.0\n")
	if err != nil {
		t.Fatal(err)
	}
	if d := runtime.NewConfig(runtime.WithThresholdSet(set)).Thresholds().T1; d != 5 {
		t.Errorf("cpu backend T1 %v, want 5 from [cpu]", d)
	}
	th := decider.DefaultThresholds()
	th.T1 = 9
	if d := runtime.NewConfig(runtime.WithThresholdSet(set), runtime.WithThresholds(th)).Thresholds().T1; d != 9 {
		t.Errorf("WithThresholds should win, got %v", d)
	}
}

// TestThresholdsPerAlgorithm: a config for an algorithm takes its own
// section of the set, WithThresholds still wins, and a device without a
// section in the set falls back to the backend's defaults.
func TestThresholdsPerAlgorithm(t *testing.T) {
	set, err := decider.ParseThresholds("[cpu]\nT1 = 5.0\n[cpu.bfs]\nT1 = 6.0\n[gpu.\"X\"]\nT1 = 7.0\n[gpu.\"X\".sssp]\nT1 = 8.0\n")
	if err != nil {
		t.Fatal(err)
	}
	noX, err := decider.ParseThresholds("[cpu.sssp]\nT1 = 9.0\n")
	if err != nil {
		t.Fatal(err)
	}
	explicit := decider.DefaultThresholds()
	explicit.T1 = 11
	shipped := runtime.DefaultThresholds(runtime.NewCPU(1)).T1
	cpu, gpu := runtime.WithWorkers(1), runtime.WithBackend(&tpbBackend{}) // gpu: device "X", no derived defaults
	tests := []struct {
		name string
		alg  string
		opts []runtime.Option
		want float64
	}{
		{"cpu bfs: [cpu.bfs]", "bfs", []runtime.Option{cpu, runtime.WithThresholdSet(set)}, 6},
		{"cpu sssp: [cpu]", "sssp", []runtime.Option{cpu, runtime.WithThresholdSet(set)}, 5},
		{"no algorithm: [cpu]", "", []runtime.Option{cpu, runtime.WithThresholdSet(set)}, 5},
		{"gpu bfs: the device section", "bfs", []runtime.Option{gpu, runtime.WithThresholdSet(set)}, 7},
		{"gpu sssp: its own section", "sssp", []runtime.Option{gpu, runtime.WithThresholdSet(set)}, 8},
		{"gpu cc: the device section", "cc", []runtime.Option{gpu, runtime.WithThresholdSet(set)}, 7},
		{"WithThresholds wins", "sssp", []runtime.Option{gpu, runtime.WithThresholdSet(set), runtime.WithThresholds(explicit)}, 11},
		{"WithThresholds wins on the cpu", "bfs", []runtime.Option{cpu, runtime.WithThresholds(explicit), runtime.WithThresholdSet(set)}, 11},
		{"no set: shipped", "bfs", []runtime.Option{cpu}, shipped},
		{"set without the device: backend defaults, not [cpu.sssp]", "sssp", []runtime.Option{gpu, runtime.WithThresholdSet(noX)}, shipped},
		{"set's [cpu.sssp] on the cpu", "sssp", []runtime.Option{cpu, runtime.WithThresholdSet(noX)}, 9},
	}
	for _, tc := range tests {
		if got := runtime.NewConfigFor(tc.alg, tc.opts...).Thresholds().T1; got != tc.want {
			t.Errorf("%s: T1 %v, want %v", tc.name, got, tc.want)
		}
	}
	if got, want := runtime.DefaultThresholdsFor(runtime.NewCPU(1), "bfs"), decider.DefaultThresholdSet().ForAlgorithm("", "bfs"); got != want {
		t.Errorf("DefaultThresholdsFor(cpu, bfs) = %+v, want the shipped %+v", got, want)
	}
}

func TestStaticPolicyNeverInspects(t *testing.T) {
	v, _ := decider.ParseVariant("O_T_BM")
	f := &fake{left: 20}
	st, err := runtime.Run(context.Background(), "fake", f, runtime.NewConfig(runtime.WithVariant(v)))
	if err != nil {
		t.Fatal(err)
	}
	if st.Samples != 0 {
		t.Errorf("static policy took %d samples", st.Samples)
	}
	f = &fake{left: 20}
	st, _ = runtime.Run(context.Background(), "fake", f, runtime.NewConfig())
	if st.Samples != 4 { // iterations 0, 6, 12, 18
		t.Errorf("adaptive took %d samples, want 4", st.Samples)
	}
}

// fused is a fake operator whose second iteration runs three levels at
// once, as a persistent GPU launch does.
type fused struct{ fake }

func (f *fused) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	r, err := f.fake.Step(req)
	if len(f.computed) == 2 {
		r.Levels, r.HiddenDegree, r.Counts = 3, 500, map[string]int64{"pulled": 2}
	} else {
		r.HiddenDegree = 7 // ignored: one level hides nothing
	}
	return r, err
}

// TestEngineSamplesAfterFusedLevels: an iteration of several levels is
// sampled at once under the adaptive policy (its period no longer fits),
// never under a static one, and the trace records its levels.
func TestEngineSamplesAfterFusedLevels(t *testing.T) {
	f := &fused{fake{left: 20}}
	st, err := runtime.Run(context.Background(), "fake", f, runtime.NewConfig(runtime.WithTrace(true)))
	if err != nil {
		t.Fatal(err)
	}
	if st.Samples != 5 { // iterations 0, 1 (three levels), 6, 12, 18
		t.Errorf("adaptive took %d samples, want 5", st.Samples)
	}
	for _, r := range st.Trace {
		if want := map[bool]int{true: 3, false: 1}[r.Iteration == 1]; r.Levels != want || r.Sampled != (r.Iteration%6 == 0 || r.Iteration == 1) {
			t.Errorf("iteration %d: %d levels, sampled %v", r.Iteration, r.Levels, r.Sampled)
		}
		if want := map[bool]int64{true: 2, false: 0}[r.Iteration == 1]; r.Counts["pulled"] != want {
			t.Errorf("iteration %d: %d levels pulled, want %d", r.Iteration, r.Counts["pulled"], want)
		}
	}
	if st.Counters["pulled"] != 2 || len(st.Counters) != 1 {
		t.Errorf("counters %v, want pulled: 2", st.Counters)
	}
	v, _ := decider.ParseVariant("O_T_QU")
	f = &fused{fake{left: 20}}
	if st, _ = runtime.Run(context.Background(), "fake", f, runtime.NewConfig(runtime.WithVariant(v))); st.Samples != 0 {
		t.Errorf("static policy took %d samples", st.Samples)
	}
	// The policy sees the hidden out-degree of the fused iteration only.
	rec := &recorder{}
	if _, err := runtime.Run(context.Background(), "fake", &fused{fake{left: 5}}, runtime.NewConfig(runtime.WithPolicy(rec))); err != nil {
		t.Fatal(err)
	}
	for _, o := range rec.obs {
		if want := map[bool]int64{true: 500, false: 0}[o.Iteration == 1]; o.HiddenDegree != want {
			t.Errorf("iteration %d: hidden degree %d, want %d", o.Iteration, o.HiddenDegree, want)
		}
	}
	if len(rec.obs) != 5 {
		t.Errorf("%d observations, want 5", len(rec.obs))
	}
}

// recorder is a policy that keeps its observations (variant O_T_BM).
type recorder struct{ obs []decider.Observation }

func (r *recorder) Begin(decider.Info) decider.Decider { return r }
func (r *recorder) String() string                     { return "recorder" }
func (r *recorder) Initial() decider.Variant           { return decider.Variant{} }
func (r *recorder) Next(o decider.Observation) decider.Variant {
	r.obs = append(r.obs, o)
	return decider.Variant{}
}

func TestInvalidThresholdsAreAnError(t *testing.T) {
	th := decider.DefaultThresholds()
	th.T3 = 0
	f := &fake{left: 3}
	_, err := runtime.Run(context.Background(), "fake", f, runtime.NewConfig(runtime.WithThresholds(th)))
	if !errors.Is(err, decider.ErrThresholds) || !strings.Contains(err.Error(), "T3") {
		t.Fatalf("got %v, want an ErrThresholds naming T3", err)
	}
	if !f.closed {
		t.Error("operator not closed")
	}
}

// tpbBackend records the block size of the knobs Run configures a
// GPU-like backend with (the top layer of the run's knobs, 0 = none).
type tpbBackend struct{ got []int }

func (*tpbBackend) Name() string   { return "tpb" }
func (*tpbBackend) Device() string { return "X" }
func (b *tpbBackend) Configure(l decider.KnobLayers) error {
	n := 0
	for _, k := range l.All() {
		if v, ok := k["threads_per_block"].(int64); ok {
			n = int(v)
		}
	}
	b.got = append(b.got, n)
	return nil
}

func TestRunAppliesThreadsPerBlock(t *testing.T) {
	b := &tpbBackend{}
	if _, err := runtime.Run(context.Background(), "fake", &fake{left: 3}, runtime.NewConfig(runtime.WithBackend(b), runtime.WithKnobs(decider.Knobs{"threads_per_block": int64(64)}))); err != nil {
		t.Fatal(err)
	}
	// Device "X" has no section in the shipped file: the backend's default.
	if _, err := runtime.Run(context.Background(), "fake", &fake{left: 3}, runtime.NewConfig(runtime.WithBackend(b))); err != nil {
		t.Fatal(err)
	}
	if len(b.got) != 2 || b.got[0] != 64 || b.got[1] != 0 {
		t.Fatalf("Configure calls with block sizes %v, want [64 0]", b.got)
	}
}

// badBackend refuses every configuration.
type badBackend struct{ tpbBackend }

func (*badBackend) Configure(decider.KnobLayers) error { return errors.New("no such block size") }

func TestRunReturnsConfigureError(t *testing.T) {
	f := &fake{left: 3}
	_, err := runtime.Run(context.Background(), "fake", f, runtime.NewConfig(runtime.WithBackend(&badBackend{})))
	if err == nil || !strings.Contains(err.Error(), "no such block size") || len(f.computed) != 0 || !f.closed {
		t.Fatalf("got %v after %d steps (closed %v), want the backend's error before any step", err, len(f.computed), f.closed)
	}
}

// dual declares dual generation and reports device times.
type dual struct {
	fake
	times runtime.GPUTimes
}

func (f *dual) Info() runtime.OperatorInfo {
	i := f.fake.Info()
	i.N, i.Universe, i.DualGeneration = 1<<20, 1<<20, true // large enough for a bitmap
	return i
}

func (f *dual) DeviceTimes() *runtime.GPUTimes {
	g := f.times
	return &g
}

func (f *dual) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	f.times.Upload += time.Hour // a transpose uploaded during the run
	f.times.Launches++
	return f.fake.Step(req)
}

// TestStepRequests: the engine asks a dual-generating operator for dual
// generation where decider.DualFrom says (never under a static policy),
// others never; it asks for exact timing when tracing; a device
// operator's times become Stats.GPU, and the graph uploaded during the
// run is not the run's time.
func TestStepRequests(t *testing.T) {
	v, _ := decider.ParseVariant("O_T_QU")
	for _, tc := range []struct {
		name  string
		op    interface{ reqs() []runtime.StepRequest }
		opts  []runtime.Option
		from  int64
		exact bool
	}{
		{"dual adaptive", &dual{fake: fake{left: 4}, times: runtime.GPUTimes{Upload: time.Hour}}, []runtime.Option{runtime.WithTrace(true)}, 0, true},
		{"dual static", &dual{fake: fake{left: 4}, times: runtime.GPUTimes{Upload: time.Hour}}, []runtime.Option{runtime.WithVariant(v)}, math.MaxInt64, false},
		{"plain adaptive", &fake{left: 4}, nil, math.MaxInt64, false},
	} {
		op := tc.op.(runtime.Operator)
		st, err := runtime.Run(context.Background(), "fake", op, runtime.NewConfig(tc.opts...))
		if err != nil {
			t.Fatal(err)
		}
		info := op.Info().Info
		if tc.name == "dual adaptive" && decider.DualFrom(runtime.NewConfig().Policy(), info, true) == math.MaxInt64 {
			t.Fatalf("%s: the test's graph never needs a dual generation", tc.name)
		}
		for i, r := range tc.op.reqs() {
			want := tc.from
			if tc.name == "dual adaptive" {
				want = decider.DualFrom(runtime.NewConfig().Policy(), info, i%decider.DefaultThresholds().SampleEvery == 0)
			}
			if r.DualFrom != want || r.ExactTiming != tc.exact {
				t.Errorf("%s: step %d: dual from %d, exact %v; want %d, %v", tc.name, i, r.DualFrom, r.ExactTiming, want, tc.exact)
			}
		}
		if _, ok := op.(*dual); ok {
			// Wall = the real time (far below a minute) - the 4 hours
			// uploaded during the run, not the hour before it.
			if st.GPU == nil || st.GPU.Launches != 4 || st.GPU.Upload != 5*time.Hour || st.Wall < -4*time.Hour || st.Wall > -4*time.Hour+time.Minute {
				t.Errorf("%s: gpu times %+v, wall %v; want 4 launches and the run's uploads out of the wall time", tc.name, st.GPU, st.Wall)
			}
		} else if st.GPU != nil {
			t.Errorf("%s: host operator with gpu times %+v", tc.name, st.GPU)
		}
	}
}

func (f *fake) reqs() []runtime.StepRequest { return f.requests }

// TestConfigKnobs: a run's knobs are the layers of its set's lookup for its
// device and algorithm (the shipped file's where the set has no section for
// the device, none on a GPU neither has), with WithKnobs on top.
func TestConfigKnobs(t *testing.T) {
	set, err := decider.ParseThresholds("[cpu]\ndelta = 1\n[cpu.sssp]\ndelta = 2\n[gpu.\"X\"]\ndelta = 3\n[gpu.\"X\".sssp]\ndelta = 4\n")
	if err != nil {
		t.Fatal(err)
	}
	deltas := func(l decider.KnobLayers) []int64 {
		var out []int64
		for _, k := range l.All() {
			if d, ok := k["delta"].(int64); ok {
				out = append(out, d)
			}
		}
		return out
	}
	top := runtime.WithKnobs(decider.Knobs{"delta": int64(9)})
	for _, tc := range []struct {
		name   string
		alg    string
		opts   []runtime.Option
		want   []int64
		onGPU  bool
		found  bool
		layers int
	}{
		{"cpu sssp", "sssp", []runtime.Option{runtime.WithWorkers(1), runtime.WithThresholdSet(set)}, []int64{1, 2}, false, true, 2},
		{"cpu bfs", "bfs", []runtime.Option{runtime.WithWorkers(1), runtime.WithThresholdSet(set)}, []int64{1}, false, true, 1},
		{"gpu sssp", "sssp", []runtime.Option{runtime.WithBackend(&tpbBackend{}), runtime.WithThresholdSet(set)}, []int64{1, 2, 3, 4}, true, true, 4},
		{"WithKnobs on top", "sssp", []runtime.Option{runtime.WithBackend(&tpbBackend{}), runtime.WithThresholdSet(set), top}, []int64{1, 2, 3, 4, 9}, true, true, 5},
		{"gpu without a section", "sssp", []runtime.Option{runtime.WithBackend(&tpbBackend{}), top}, []int64{9}, true, false, 1},
	} {
		l, found := runtime.NewConfigFor(tc.alg, tc.opts...).Knobs()
		if got := deltas(l); !slices.Equal(got, tc.want) || l.OnGPU != tc.onGPU || found != tc.found || len(l.All()) != tc.layers {
			t.Errorf("%s: deltas %v (gpu %v, found %v, %d layers), want %v (%v, %v, %d)", tc.name, got, l.OnGPU, found, len(l.All()), tc.want, tc.onGPU, tc.found, tc.layers)
		}
	}
}
