package decider_test

import (
	"errors"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/inspector"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

func TestVariantNamesRoundTrip(t *testing.T) {
	want := []string{"O_T_BM", "O_T_QU", "O_B_BM", "O_B_QU", "U_T_BM", "U_T_QU", "U_B_BM", "U_B_QU", "pull"}
	if got := decider.ValidNames(); !reflect.DeepEqual(got, want) {
		t.Fatalf("names %v, want %v", got, want)
	}
	for _, v := range decider.AllVariants() {
		p, err := decider.ParseVariant(strings.ToLower(v.String()))
		if err != nil || p != v {
			t.Errorf("%v: parsed %v, %v", v, p, err)
		}
		b, _ := v.MarshalText()
		var q decider.Variant
		if err := q.UnmarshalText(b); err != nil || q != v {
			t.Errorf("%v: text round trip gave %v, %v", v, q, err)
		}
	}
}

func TestParseVariantErrorListsNames(t *testing.T) {
	_, err := decider.ParseVariant("O_X_BM")
	if !errors.Is(err, decider.ErrUnknownVariant) {
		t.Fatalf("got %v", err)
	}
	for _, n := range decider.ValidNames() {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not list %s", err, n)
		}
	}
}

func TestThresholdsFileAtRootMatchesDefaults(t *testing.T) {
	s, err := decider.LoadThresholds("../thresholds.toml")
	if err != nil {
		t.Fatal(err)
	}
	if s.CPU != decider.DefaultThresholds() {
		t.Errorf("thresholds.toml [cpu] = %+v, built-in defaults %+v: keep them in step", s.CPU, decider.DefaultThresholds())
	}
}

func TestParseThresholds(t *testing.T) {
	good := `
[cpu]
T1 = 10.5
T2 = 100
sample_every = 3

[gpu."NVIDIA H100 80GB HBM3"]
T3 = 0.1
delta = 8
launch_delta_factor = 2.5
`
	s, err := decider.ParseThresholds(good)
	if err != nil {
		t.Fatal(err)
	}
	want := decider.DefaultThresholds()
	want.T1, want.T2, want.SampleEvery = 10.5, 100, 3
	if s.CPU != want {
		t.Errorf("cpu %+v, want %+v", s.CPU, want)
	}
	gpu := want
	gpu.T3 = 0.1
	// Keys the decider does not own are kept, as written, for their owners
	// (algorithms.ParseThresholds checks that each has one).
	if k := s.Knobs[`[gpu."NVIDIA H100 80GB HBM3"]`]; len(k) != 2 || k["delta"] != int64(8) || k["launch_delta_factor"] != 2.5 {
		t.Errorf("knobs %v, want delta 8 and launch_delta_factor 2.5", s.Knobs)
	}
	if got := s.For("NVIDIA H100 80GB HBM3"); got != gpu {
		t.Errorf("gpu %+v, want %+v", got, gpu)
	}
	if got := s.For("other"); got != want {
		t.Errorf("unknown device should fall back to cpu, got %+v", got)
	}
	bad := map[string]string{
		"unknown sec": "[cpux]\nT2 = 5\n",
		"type":        "[cpu]\nT2 = \"many\"\n",
		"range T3":    "[cpu]\nT3 = 1.5\n",
		"range every": "[cpu]\nsample_every = 0\n",
		"syntax":      "[cpu\nT2 = 5\n",
		"string knob": "[cpu]\ndelta = \"8\"\n",
		"pull min":    "[cpu]\npull_min_edges = -1\n",
		"bitmap min":  "[cpu]\nbitmap_min_vertices = -1\n",
		"T1 inf":      "[cpu]\nT1 = inf\n",
		"alpha inf":   "[gpu.\"x\"]\nalpha = +inf\n",
		"beta inf":    "[cpu.bfs]\nbeta = inf\n",
		"beta nan":    "[cpu]\nbeta = nan\n",
	}
	// Unknown keys and the algorithms' values are checked by their
	// owners: algorithms/all's TestThresholdsBadValues.
	names := map[string]string{"unknown sec": "cpux", "type": "T2", "range T3": "T3",
		"range every": "sample_every", "pull min": "pull_min_edges", "bitmap min": "bitmap_min_vertices",
		"T1 inf": "T1 = +Inf, want a finite value > 0", "alpha inf": "alpha = +Inf", "beta inf": "beta = +Inf", "beta nan": "beta = NaN",
		"string knob": "delta = 8, want a number"}
	for name, text := range bad {
		_, err := decider.ParseThresholds(text)
		if !errors.Is(err, decider.ErrThresholds) {
			t.Errorf("%s: got %v, want ErrThresholds", name, err)
			continue
		}
		if k := names[name]; k != "" && !strings.Contains(err.Error(), k) {
			t.Errorf("%s: error %q does not name %s", name, err, k)
		}
	}
	if _, err := decider.LoadThresholds("testdata/does-not-exist.toml"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestParseAlgSections: a per-algorithm section overrides some keys of its
// device section, which gives the rest.
func TestParseAlgSections(t *testing.T) {
	text := `
[cpu]
T2 = 100

[cpu.bfs]
alpha = 30.0

[gpu."G"]
T1 = 8.0
delta = 64

# comment between sections
[gpu."G".bfs]
T1 = 16.0
sample_every = 2

[gpu."G".sssp]
delta = 128
`
	s, err := decider.ParseThresholds(text)
	if err != nil {
		t.Fatal(err)
	}
	cpu := decider.DefaultThresholds()
	cpu.T2 = 100
	cpuBFS := cpu
	cpuBFS.Alpha = 30
	gpu := cpu
	gpu.T1 = 8
	gpuBFS := gpu
	gpuBFS.T1, gpuBFS.SampleEvery = 16, 2
	gpuSSSP := gpu
	tests := []struct {
		device, alg string
		want        decider.Thresholds
		ok          bool
	}{
		{"", "bfs", cpuBFS, true},
		{"cpu", "bfs", cpuBFS, true},
		{"", "sssp", cpu, true}, // no [cpu.sssp]: [cpu]
		{"", "", cpu, true},
		{"G", "bfs", gpuBFS, true},
		{"G", "sssp", gpuSSSP, true},
		{"G", "cc", gpu, true},                        // no [gpu."G".cc]: the device section
		{"G", "cc-sv", gpu, true},                     // not an algorithm's section
		{"other", "bfs", decider.Thresholds{}, false}, // [cpu.bfs] is not a GPU's
	}
	for _, tc := range tests {
		got, ok := s.LookupFor(tc.device, tc.alg)
		if ok != tc.ok || got != tc.want {
			t.Errorf("LookupFor(%q, %q) = %+v, %v; want %+v, %v", tc.device, tc.alg, got, ok, tc.want, tc.ok)
		}
	}
	// ForAlgorithm falls back to the CPU's like For.
	if got := s.ForAlgorithm("other", "bfs"); got != cpuBFS {
		t.Errorf("ForAlgorithm(other, bfs) = %+v, want [cpu.bfs] %+v", got, cpuBFS)
	}
	if got := s.ForAlgorithm("G", "sssp"); got != gpuSSSP {
		t.Errorf("ForAlgorithm(G, sssp) = %+v, want %+v", got, gpuSSSP)
	}
	// The device sections are unchanged by their subsections.
	if got, _ := s.Lookup("G"); got != gpu || s.For("G") != gpu || s.CPU != cpu {
		t.Errorf("device sections %+v, %+v; want %+v, %+v", got, s.CPU, gpu, cpu)
	}
	// [cpu.sssp] alone builds on the built-in defaults, as [cpu] does.
	s2, err := decider.ParseThresholds("[cpu.sssp]\ndelta = 8\n")
	if want := decider.DefaultThresholds(); err != nil || s2.CPUAlg["sssp"] != want || s2.CPU != want {
		t.Errorf("[cpu.sssp] alone: %+v, %v", s2, err)
	}
	// The keys the decider does not own come in layers: [cpu],
	// [cpu.<alg>], then on a GPU [gpu."G"], [gpu."G".<alg>]; a GPU without
	// a section has none (its owners' device-derived defaults apply).
	for _, tc := range []struct {
		device, alg string
		cpu, gpu    []int64 // delta of each layer
		onGPU, ok   bool
	}{
		{"", "sssp", nil, nil, false, true},
		{"G", "sssp", nil, []int64{64, 128}, true, true},
		{"G", "bfs", nil, []int64{64}, true, true},
		{"G", "", nil, []int64{64}, true, true},
		{"other", "sssp", nil, nil, true, false},
	} {
		l, ok := s.KnobsFor(tc.device, tc.alg)
		var cpu, gpu []int64
		for _, k := range l.CPU {
			cpu = append(cpu, k["delta"].(int64))
		}
		for _, k := range l.GPU {
			gpu = append(gpu, k["delta"].(int64))
		}
		if ok != tc.ok || l.OnGPU != tc.onGPU || !slices.Equal(cpu, tc.cpu) || !slices.Equal(gpu, tc.gpu) {
			t.Errorf("KnobsFor(%q, %q) = %v %v (gpu %v, ok %v), want %v %v (%v, %v)", tc.device, tc.alg, cpu, gpu, l.OnGPU, ok, tc.cpu, tc.gpu, tc.onGPU, tc.ok)
		}
	}
	s2, err = decider.ParseThresholds("[cpu]\ndelta = 1\n[cpu.sssp]\ndelta = 2\n[gpu.\"G\"]\nT2 = 4\n")
	if err != nil {
		t.Fatal(err)
	}
	if l, ok := s2.KnobsFor("G", "sssp"); !ok || len(l.CPU) != 2 || l.CPU[1]["delta"] != int64(2) || len(l.GPU) != 0 || len(l.All()) != 2 {
		t.Errorf("KnobsFor(G, sssp) = %+v, %v: want [cpu] and [cpu.sssp] under the GPU's", l, ok)
	}
	// An explicit, empty device section is one (its values are [cpu]'s,
	// the bucket keys aside).
	if _, err := decider.ParseThresholds("[gpu.\"G\"]\n[gpu.\"G\".cc]\nT2 = 4\n"); err != nil {
		t.Errorf("empty device section: %v", err)
	}
}

func TestParseAlgSectionErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // in the error
	}{
		// Names are checked against the registry by algorithms.ParseThresholds.
		{"not a name", "[cpu.BFS]\nT2 = 5\n", []string{"[cpu.BFS]", `"BFS" is not an algorithm's name`}},
		{"not a gpu name", "[gpu.\"G\"]\nT2 = 5\n[gpu.\"G\".\"page rank\"]\nT2 = 5\n", []string{`[gpu."G".page rank]`, "not an algorithm's name"}},
		{"no device section", "[gpu.\"G\".bfs]\nT1 = 8.0\n", []string{`[gpu."G".bfs] needs a [gpu."G"] section`}},
		{"no device section, another has one", "[gpu.\"A\"]\nT1 = 8.0\n[gpu.\"B\".sssp]\ndelta = 8\n", []string{`[gpu."B".sssp] needs a [gpu."B"] section`}},
		{"invalid value", "[gpu.\"G\"]\nT3 = 0.1\n[gpu.\"G\".sssp]\nT3 = 1.5\n", []string{`[gpu."G".sssp]`, "T3"}},
		{"invalid cpu value", "[cpu.bfs]\nalpha = -1.0\n", []string{"[cpu.bfs]", "alpha"}},
		{"wrong type", "[cpu.cc]\nT2 = \"many\"\n", []string{"[cpu.cc]", "T2"}},
		{"nested", "[cpu.bfs.more]\nT2 = 5\n", []string{"cpu.bfs.more"}},
	}
	for _, tc := range tests {
		_, err := decider.ParseThresholds(tc.text)
		testgraphs.ErrorMentions(t, tc.name, err, decider.ErrThresholds, tc.want...)
	}
}

func info(n int, m int64) decider.Info {
	return decider.Info{N: n, M: m, Universe: int64(n), InitialSize: 1, CanPull: true}
}

func TestAdaptiveFig11(t *testing.T) {
	th := decider.DefaultThresholds()
	th.T1, th.T2, th.T3, th.SampleEvery = 10, 100, 0.1, 1
	cases := []struct {
		name   string
		avgDeg int64
		size   int64
		want   string
	}{
		{"small", 2, 50, "O_B_QU"},
		{"medium low degree", 2, 500, "O_T_QU"},
		{"medium high degree", 20, 500, "O_B_QU"},
		{"large low degree", 2, 5000, "O_T_BM"},
		{"large high degree", 20, 5000, "O_B_BM"},
		// A graph below bitmap_min_vertices keeps queues.
		{"large, small graph", 2, 5000, "O_T_QU"},
	}
	for _, c := range cases {
		in := info(10000, 10000*c.avgDeg)
		in.CanPull = false
		th := th
		if c.name == "large, small graph" {
			th.BitmapMinVertices = 10001
		}
		d := decider.Adaptive(th, decider.Ordered).Begin(in)
		if got := d.Initial().String(); got != "O_B_QU" {
			t.Errorf("initial %s, want O_B_QU", got)
		}
		got := d.Next(decider.Observation{Iteration: 0, Size: c.size, Degree: -1, Sampled: true,
			Sample: inspector.Sample{Size: c.size}})
		if got.String() != c.want {
			t.Errorf("%s: %v, want %s", c.name, got, c.want)
		}
	}
}

func TestAdaptiveChangesStructureOnlyWhenSampled(t *testing.T) {
	th := decider.DefaultThresholds()
	th.T2, th.T3, th.JumpFactor = 100, 0.1, 0
	d := decider.Adaptive(th, decider.Unordered).Begin(decider.Info{N: 10000, M: 20000, Universe: 10000, InitialSize: 1})
	v := d.Next(decider.Observation{Iteration: 1, Size: 5000, Degree: -1})
	if v.String() != "U_B_QU" {
		t.Errorf("unsampled iteration changed the variant to %v", v)
	}
	v = d.Next(decider.Observation{Iteration: 6, Size: 5000, Degree: -1, Sampled: true, Sample: inspector.Sample{Size: 5000}})
	if v.String() != "U_T_BM" {
		t.Errorf("sampled: %v, want U_T_BM", v)
	}
}

// TestAdaptiveJumpFactor: with jump_factor set, a working set that grew or
// shrank by that factor since the structure was chosen re-chooses it
// without waiting for a sample; smaller changes wait.
func TestAdaptiveJumpFactor(t *testing.T) {
	th := decider.DefaultThresholds()
	th.T2, th.T3, th.JumpFactor = 100, 0.1, 16
	d := decider.Adaptive(th, decider.Unordered).Begin(decider.Info{N: 10000, M: 20000, Universe: 10000, InitialSize: 1})
	steps := []struct {
		size int64
		want string
	}{
		{15, "U_B_QU"},   // under 16x the one vertex it was chosen for
		{5000, "U_T_BM"}, // a jump: re-chosen now
		{400, "U_T_BM"},  // 12.5x smaller: waits
		{300, "U_T_QU"},  // 16.7x smaller: re-chosen
		{-1, "U_T_QU"},   // unknown size: no change
	}
	for i, s := range steps {
		if v := d.Next(decider.Observation{Iteration: i + 1, Size: s.size, Degree: -1}); v.String() != s.want {
			t.Errorf("step %d (size %d): %v, want %s", i, s.size, v, s.want)
		}
	}
	for _, bad := range []string{"[cpu]\njump_factor = 1.0\n", "[cpu]\njump_factor = -4.0\n", "[cpu]\njump_factor = inf\n"} {
		if _, err := decider.ParseThresholds(bad); !errors.Is(err, decider.ErrThresholds) || !strings.Contains(err.Error(), "jump_factor") {
			t.Errorf("%q: err = %v, want one naming jump_factor", bad, err)
		}
	}
	if s, err := decider.ParseThresholds("[cpu]\njump_factor = 8.0\n"); err != nil || s.CPU.JumpFactor != 8 {
		t.Errorf("jump_factor = 8: %+v, %v", s, err)
	}
}

func TestAdaptiveDirection(t *testing.T) {
	th := decider.DefaultThresholds() // alpha 15, beta 18
	d := decider.Adaptive(th, decider.Ordered).Begin(info(1800, 18000))
	// Frontier out-degree 100 < 18000/15: stay push.
	if v := d.Next(decider.Observation{Iteration: 0, Size: 10, Degree: 100}); v.Direction != decider.Push {
		t.Fatalf("switched to pull too early: %v", v)
	}
	// 5000 > (18000-100)/15: pull.
	if v := d.Next(decider.Observation{Iteration: 1, Size: 400, Degree: 5000}); v != decider.PullVariant {
		t.Fatalf("want pull, got %v", v)
	}
	// Growing frontier stays pull.
	if v := d.Next(decider.Observation{Iteration: 2, Size: 900, Degree: -1}); v != decider.PullVariant {
		t.Fatalf("want pull while growing, got %v", v)
	}
	// Shrinking below n/beta = 100: back to push.
	if v := d.Next(decider.Observation{Iteration: 3, Size: 50, Degree: -1}); v.Direction != decider.Push {
		t.Fatalf("want push, got %v", v)
	}
	// The same frontiers with pull_min_edges above their out-degree: push
	// throughout; a frontier that reaches it pulls.
	th.PullMinEdges = 6000
	m := decider.Adaptive(th, decider.Ordered).Begin(info(1800, 18000))
	if v := m.Next(decider.Observation{Iteration: 0, Size: 400, Degree: 5000}); v.Direction != decider.Push {
		t.Fatalf("pulled below pull_min_edges: %v", v)
	}
	if v := m.Next(decider.Observation{Iteration: 1, Size: 500, Degree: 6000}); v != decider.PullVariant {
		t.Fatalf("want pull at pull_min_edges, got %v", v)
	}
	th.PullMinEdges = 0
	// Frontiers expanded inside an iteration (a persistent launch) count
	// as explored: out-degree 1100 < 18000/15 pushes, but after 2000
	// hidden edges 1100 > 16000/15 pulls.
	for hidden, want := range map[int64]decider.Direction{0: decider.Push, 2000: decider.Pull} {
		h := decider.Adaptive(th, decider.Ordered).Begin(info(1800, 18000))
		if v := h.Next(decider.Observation{Size: 400, Degree: 1100, HiddenDegree: hidden}); v.Direction != want {
			t.Errorf("hidden degree %d: %v, want direction %v", hidden, v, want)
		}
	}
	// Unordered adaptive never pulls.
	u := decider.Adaptive(th, decider.Unordered).Begin(info(1800, 18000))
	if v := u.Next(decider.Observation{Size: 400, Degree: 17000}); v.Direction != decider.Push {
		t.Errorf("unordered pulled: %v", v)
	}
}

// TestAdaptivePullLoss: a pull step that examined more than PullLossFactor
// times its frontier's out-edges goes back to push, and the run pulls again
// only for a frontier of more than twice those out-edges; a pull within
// the factor goes on pulling.
func TestAdaptivePullLoss(t *testing.T) {
	th := decider.DefaultThresholds() // alpha 15, beta 18
	pull := decider.PullVariant
	for _, tc := range []struct {
		edges int64
		want  decider.Direction
	}{{decider.PullLossFactor * 13000, decider.Pull}, {decider.PullLossFactor*13000 + 1, decider.Push}} {
		d := decider.Adaptive(th, decider.Ordered).Begin(info(1800, 180000))
		// 13000 > 180000/15: pull.
		if v := d.Next(decider.Observation{Iteration: 0, Size: 400, Degree: 13000}); v != pull {
			t.Fatalf("want pull, got %v", v)
		}
		// The pull expanded that frontier (13000 out-edges).
		v := d.Next(decider.Observation{Iteration: 1, Current: pull, Size: 900, Degree: 20000, Edges: tc.edges})
		if v.Direction != tc.want {
			t.Fatalf("pull of %d arcs for 13000 out-edges: %v, want %v", tc.edges, v, tc.want)
		}
	}
	d := decider.Adaptive(th, decider.Ordered).Begin(info(1800, 180000))
	d.Next(decider.Observation{Iteration: 0, Size: 400, Degree: 13000})
	if v := d.Next(decider.Observation{Iteration: 1, Current: pull, Size: 900, Degree: 20000, Edges: 60000}); v.Direction != decider.Push {
		t.Fatalf("a pull of 60000 arcs for 13000 out-edges went on: %v", v)
	}
	// Beamer's test alone would pull for 20000 and 26000 out-edges; the
	// lost pull raised the bar to 2 x 13000.
	if v := d.Next(decider.Observation{Iteration: 2, Current: decider.Variant{}, Size: 1000, Degree: 26000}); v.Direction != decider.Push {
		t.Fatalf("pulled again at 26000 out-edges: %v", v)
	}
	if v := d.Next(decider.Observation{Iteration: 3, Size: 1200, Degree: 26001}); v != pull {
		t.Fatalf("want pull above twice the lost frontier's out-edges, got %v", v)
	}
}

func TestStatic(t *testing.T) {
	v, _ := decider.ParseVariant("U_T_BM")
	p := decider.Static(v)
	d := p.Begin(info(10, 10))
	if d.Initial() != v || d.Next(decider.Observation{Sampled: true, Sample: inspector.Sample{Size: 1 << 30}}) != v {
		t.Error("static policy changed variant")
	}
	if got, ok := decider.StaticVariant(p); !ok || got != v {
		t.Error("StaticVariant")
	}
	if !strings.Contains(p.String(), "U_T_BM") {
		t.Errorf("String %q", p)
	}
}

func TestDualFrom(t *testing.T) {
	gpu := decider.DefaultThresholds()
	gpu.BitmapMinVertices, gpu.PullMinEdges, gpu.JumpFactor = 1<<17, 1<<19, 0
	jump := gpu
	jump.JumpFactor = 16
	small := decider.Info{N: 4000, M: 90000, Universe: 4000, CanPull: true, MaxDegree: 100}
	bigN := decider.Info{N: 1 << 17, M: 1000, Universe: 1 << 17, CanPull: true, MaxDegree: 10}
	bigM := decider.Info{N: 4000, M: 1 << 19, Universe: 4000, CanPull: true, MaxDegree: 1000}
	noMax := bigM
	noMax.MaxDegree = 0
	noPull := bigM
	noPull.CanPull = false
	never := int64(math.MaxInt64)
	for _, tc := range []struct {
		name    string
		p       decider.Policy
		info    decider.Info
		sampled bool
		want    int64
	}{
		{"static", decider.Static(decider.Variant{Rep: decider.Bitmap}), bigN, true, never},
		// T3 x n = 20; pull: n/beta = 222.2 out-edges, over degree 100.
		{"cpu thresholds", decider.Adaptive(decider.DefaultThresholds(), decider.Ordered), small, true, 3},
		{"small graph", decider.Adaptive(gpu, decider.Ordered), small, true, never},
		{"bitmap allowed", decider.Adaptive(gpu, decider.Ordered), bigN, true, 656}, // ceil(0.005 x 2^17)
		{"bitmap allowed, not sampled", decider.Adaptive(gpu, decider.Ordered), bigN, false, never},
		{"bitmap allowed, jumps", decider.Adaptive(jump, decider.Ordered), bigN, false, 656},
		{"pull possible", decider.Adaptive(gpu, decider.Ordered), bigM, false, 525}, // ceil(2^19 / 1000)
		{"pull, largest degree unknown", decider.Adaptive(gpu, decider.Ordered), noMax, false, 1},
		{"pull but unordered", decider.Adaptive(gpu, decider.Unordered), bigM, true, never},
		{"no pull step", decider.Adaptive(gpu, decider.Ordered), noPull, true, never},
	} {
		if got := decider.DualFrom(tc.p, tc.info, tc.sampled); got != tc.want {
			t.Errorf("%s: DualFrom = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// circulant returns the in-degree profile of a directed graph of n
// vertices, each with arcs to its next k: every in-degree is k.
func circulant(t *testing.T, n, k int) *graph.DegreeProfile {
	t.Helper()
	el := &graph.EdgeList{NumVertices: n}
	for v := range n {
		for j := 1; j <= k; j++ {
			el.Src, el.Dst = append(el.Src, uint32(v)), append(el.Dst, uint32((v+j)%n))
		}
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return g.InDegreeProfile()
}

func TestPullScan(t *testing.T) {
	// In-degrees 1 (a star's 10 leaves) and 4 (5 vertices, each with arcs
	// from the 4 others).
	el := &graph.EdgeList{NumVertices: 16}
	for v := 1; v <= 10; v++ {
		el.Src, el.Dst = append(el.Src, 0), append(el.Dst, uint32(v))
	}
	for v := 11; v < 16; v++ {
		for j := 1; j <= 4; j++ {
			el.Src, el.Dst = append(el.Src, uint32(11+(v-11+j)%5)), append(el.Dst, uint32(v))
		}
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	prof := g.InDegreeProfile()
	brute := func(p float64) float64 {
		var s float64
		for i := range prof.Len() {
			d, c := prof.At(i)
			if p <= 0 {
				s += float64(d * c)
				continue
			}
			s += float64(c) * (1 - math.Pow(1-p, float64(d))) / p
		}
		return s
	}
	if got := decider.PullScan(prof, 0); got != 30 {
		t.Errorf("p = 0: %g arcs, want every in-arc (30)", got)
	}
	if got := decider.PullScan(prof, 1); got != 15 {
		t.Errorf("p = 1: %g arcs, want one per vertex with in-arcs (15)", got)
	}
	prev := math.Inf(1)
	for _, p := range []float64{1e-6, 0.01, 0.1, 0.25, 0.5, 0.9, 0.999} {
		got := decider.PullScan(prof, p)
		if math.Abs(got-brute(p)) > 1e-6*brute(p) {
			t.Errorf("p = %g: %g arcs, want %g", p, got, brute(p))
		}
		if got > prev {
			t.Errorf("p = %g: %g arcs, more than at a smaller p (%g)", p, got, prev)
		}
		prev = got
	}
	// Large degrees take the closed form 1/p per vertex.
	hub := circulant(t, 300, 250)
	if got, want := decider.PullScan(hub, 0.5), 300*2.0; math.Abs(got-want) > 1e-6 {
		t.Errorf("in-degree 250, p = 0.5: %g arcs, want %g", got, want)
	}
}

// TestAdaptivePullPredictedLoss: Beamer's rule proposes a pull, and the
// in-degree profile decides whether it would cost more than push. Many
// in-arcs per vertex let a pull stop early; few do not.
func TestAdaptivePullPredictedLoss(t *testing.T) {
	th := decider.DefaultThresholds() // alpha 15, beta 18
	for _, tc := range []struct {
		name string
		n, k int
		want decider.Direction
	}{
		// 166000 arcs into unreached vertices, p = 13000/166000: 1800
		// vertices of 100 in-arcs scan about 12.8 each; 100 + 21.2K/4
		// < 13000.
		{"in-degree 100", 1800, 100, decider.Pull},
		// 18000 vertices of 10 in-arcs scan about 7.1 each; 1000 +
		// 118K/4 > 13000.
		{"in-degree 10", 18000, 10, decider.Push},
	} {
		prof := circulant(t, tc.n, tc.k)
		calls := 0
		in := info(tc.n, int64(tc.n*tc.k))
		in.InDegrees = func() *graph.DegreeProfile { calls++; return prof }
		d := decider.Adaptive(th, decider.Ordered).Begin(in)
		// Beamer's rule keeps push for 1000 out-edges: no prediction.
		if v := d.Next(decider.Observation{Iteration: 0, Size: 100, Degree: 1000}); v.Direction != decider.Push || calls != 0 {
			t.Fatalf("%s: %v after a small frontier, %d profile calls", tc.name, v, calls)
		}
		if v := d.Next(decider.Observation{Iteration: 1, Size: 900, Degree: 13000}); v.Direction != tc.want {
			t.Errorf("%s: frontier of 13000 out-edges: %v, want %v", tc.name, v, tc.want)
		}
		if tc.want == decider.Push {
			// A frontier of 60000 out-edges, 106000 arcs into
			// unreached vertices: p = 0.57, about 1.8 arcs a vertex;
			// pull.
			if v := d.Next(decider.Observation{Iteration: 2, Size: 5000, Degree: 60000}); v != decider.PullVariant {
				t.Errorf("%s: frontier of 60000 out-edges: %v, want pull", tc.name, v)
			}
		}
		if calls != 1 {
			t.Errorf("%s: the profile was asked for %d times, want once", tc.name, calls)
		}
		// Without a profile, Beamer's rule alone pulls.
		d = decider.Adaptive(th, decider.Ordered).Begin(info(tc.n, int64(tc.n*tc.k)))
		d.Next(decider.Observation{Iteration: 0, Size: 100, Degree: 1000})
		if v := d.Next(decider.Observation{Iteration: 1, Size: 900, Degree: 13000}); v != decider.PullVariant {
			t.Errorf("%s without a profile: %v, want pull", tc.name, v)
		}
	}
}

// TestSampleEvery: a policy's own period wins (Static: never), else the
// fallback.
func TestSampleEvery(t *testing.T) {
	th := decider.DefaultThresholds()
	th.SampleEvery = 9
	v, _ := decider.ParseVariant("O_T_QU")
	for _, tc := range []struct {
		name string
		p    decider.Policy
		want int
	}{
		{"static", decider.Static(v), 0},
		{"adaptive", decider.Adaptive(th, decider.Ordered), 9},
		{"no method", plainPolicy{}, 5},
	} {
		if got := decider.SampleEvery(tc.p, 5); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// plainPolicy has no SampleEvery method.
type plainPolicy struct{}

func (plainPolicy) Begin(decider.Info) decider.Decider {
	return decider.Static(decider.Variant{}).Begin(decider.Info{})
}
func (plainPolicy) String() string { return "plain" }
