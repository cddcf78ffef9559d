package cc

import (
	"math"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

func TestVariantPolicyChoose(t *testing.T) {
	// The CPU's policy and the GPU's floors (DeviceThresholds, and the
	// H100's section of thresholds.toml).
	cpu, gpu := DefaultVariantPolicy(), VariantPolicy{MinAfforestDegree: 2, MinAfforestArcs: 1 << 22, MinAfforestSkew: 64}
	// Statistics of graphs the H100 bench measured (kron:20, urand:22,
	// grid:2048:2048 and email-Enron symmetrised) and edge cases.
	kron20 := GraphStats{Vertices: 1 << 20, Arcs: 31403166, MaxDegree: 64757}
	urand22 := GraphStats{Vertices: 1 << 22, Arcs: 134213000, MaxDegree: 70}
	grid := GraphStats{Vertices: 1 << 22, Arcs: 16769024, MaxDegree: 4}
	enron := GraphStats{Vertices: 36692, Arcs: 367662, MaxDegree: 1383}
	for _, tc := range []struct {
		name   string
		p      VariantPolicy
		st     GraphStats
		want   Variant
		reason string
	}{
		{"no edges", gpu, GraphStats{Vertices: 5}, UnionFind, "no edges"},
		{"directed", cpu, GraphStats{Vertices: 10, Arcs: 100, MaxDegree: 50, Directed: true}, UnionFind, "directed"},
		{"sparse", cpu, GraphStats{Vertices: 100, Arcs: 150, MaxDegree: 3}, UnionFind, "average degree 1.50"},
		{"cpu kron", cpu, kron20, Afforest, "skew"},
		{"cpu urand", cpu, urand22, Afforest, "sample"},
		{"cpu small", cpu, enron, Afforest, "sample"},
		{"gpu kron", gpu, kron20, Afforest, "degree skew 2162.3"},
		{"gpu urand", gpu, urand22, UnionFind, "degree skew 2.2 below 64"},
		{"gpu grid", gpu, grid, UnionFind, "degree skew 1.0 below 64"},
		{"gpu small", gpu, enron, UnionFind, "367662 arcs below 4194304"},
	} {
		v, why := tc.p.Choose(tc.st)
		if v != tc.want || !strings.Contains(why, tc.reason) {
			t.Errorf("%s: %v (%q), want %v with %q", tc.name, v, why, tc.want, tc.reason)
		}
	}
}

func TestVariantPolicyFrom(t *testing.T) {
	layer := func(k decider.Knobs) decider.KnobLayers { return decider.KnobLayers{CPU: []decider.Knobs{k}} }
	for _, tc := range []struct {
		name   string
		layers decider.KnobLayers
		found  bool
		want   VariantPolicy
	}{
		{"cpu defaults", decider.KnobLayers{}, true, VariantPolicy{MinAfforestDegree: 2}},
		{"zero", layer(decider.Knobs{"afforest_min_degree": 0.0}), true, VariantPolicy{}},
		{"gpu floors", layer(decider.Knobs{"afforest_min_arcs": int64(1 << 22), "afforest_min_skew": int64(64)}), true,
			VariantPolicy{MinAfforestDegree: 2, MinAfforestArcs: 1 << 22, MinAfforestSkew: 64}},
		{"each key its field", layer(decider.Knobs{"delta": int64(7), "afforest_min_degree": 1.5, "afforest_min_arcs": int64(3), "afforest_min_skew": 4.5}), true,
			VariantPolicy{MinAfforestDegree: 1.5, MinAfforestArcs: 3, MinAfforestSkew: 4.5}},
		{"a GPU without a section", decider.KnobLayers{OnGPU: true}, false, DeviceVariantPolicy()},
		{"a GPU's layers over [cpu]'s", decider.KnobLayers{CPU: []decider.Knobs{{"afforest_min_degree": 3.0}}, GPU: []decider.Knobs{{"afforest_min_arcs": int64(100)}}, OnGPU: true}, true,
			VariantPolicy{MinAfforestDegree: 3, MinAfforestArcs: 100}},
	} {
		if got, err := VariantPolicyFrom(tc.layers, tc.found); err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
	for _, bad := range []decider.Knobs{{"afforest_min_degree": -1.0}, {"afforest_min_degree": math.NaN()}, {"afforest_min_arcs": int64(-1)},
		{"afforest_min_skew": -0.5}, {"afforest_min_skew": math.Inf(1)}, {"afforest_min_arcs": 1.5}} {
		if _, err := VariantPolicyFrom(layer(bad), true); err == nil || !strings.Contains(err.Error(), "afforest_min_") {
			t.Errorf("%v: err = %v, want one naming the key", bad, err)
		}
	}
	if DefaultVariantPolicy() != (VariantPolicy{MinAfforestDegree: 2}) {
		t.Errorf("DefaultVariantPolicy() = %+v, want the CPU's {2, 0, 0}", DefaultVariantPolicy())
	}
	// The shipped thresholds.toml: the H100's section keeps the floors it
	// was measured with, and the CPU's keeps DefaultVariantPolicy.
	set := decider.DefaultThresholdSet()
	for _, tc := range []struct {
		device string
		want   VariantPolicy
	}{
		{"NVIDIA H100 80GB HBM3", VariantPolicy{MinAfforestDegree: 2, MinAfforestArcs: 1 << 22, MinAfforestSkew: 64}},
		{"", DefaultVariantPolicy()},
	} {
		l, ok := set.KnobsFor(tc.device, "cc")
		if got, err := VariantPolicyFrom(l, ok); err != nil || !ok || got != tc.want {
			t.Errorf("thresholds.toml for %q: %+v (found %v, %v), want %+v", tc.device, got, ok, err, tc.want)
		}
	}
}

// TestRunChoosesByThresholds: Run's choice follows the run's thresholds
// (the [cpu] section on the CPU backend, WithThresholds, a set's [cpu.cc]),
// and WithVariantPolicy overrides them.
func TestRunChoosesByThresholds(t *testing.T) {
	// kron:12 has too few arcs for Afforest on a GPU; on the CPU backend
	// the default thresholds choose it.
	g, err := graph.Generate("kron:12", graph.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	huge := runtime.WithKnobs(decider.Knobs{"afforest_min_arcs": int64(1 << 40)})
	set := func(text string) *decider.ThresholdSet {
		s, err := decider.ParseThresholds(text)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, tc := range []struct {
		name   string
		opts   []runtime.Option
		want   Variant
		reason string
	}{
		{"cpu default", nil, Afforest, "sample"},
		{"WithKnobs", []runtime.Option{withAll(huge)}, UnionFind, "arcs below 1099511627776"},
		{"[cpu.cc]", []runtime.Option{withAll(runtime.WithThresholdSet(set("[cpu.cc]\nafforest_min_skew = 1e6\n")))}, UnionFind, "degree skew"},
		{"[cpu]", []runtime.Option{withAll(runtime.WithThresholdSet(set("[cpu]\nafforest_min_degree = 1000.0\n")))}, UnionFind, "average degree"},
		{"[cpu.bfs] is not cc's", []runtime.Option{withAll(runtime.WithThresholdSet(set("[cpu.bfs]\nafforest_min_arcs = 1099511627776\n")))}, Afforest, "sample"},
		{"a GPU's section is not the cpu's", []runtime.Option{withAll(runtime.WithThresholdSet(set("[gpu.\"X\"]\nafforest_min_arcs = 1099511627776\n")))}, Afforest, "sample"},
		{"WithVariantPolicy wins", []runtime.Option{withAll(huge), WithVariantPolicy(DefaultVariantPolicy())}, Afforest, "sample"},
		{"gpu floors on the cpu", []runtime.Option{WithVariantPolicy(VariantPolicy{MinAfforestDegree: 2, MinAfforestArcs: 1 << 22, MinAfforestSkew: 64})}, UnionFind, "arcs below 4194304"},
	} {
		r, err := Run(t.Context(), g, tc.opts...)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.Variant() != tc.want || !strings.Contains(r.Reason(), tc.reason) {
			t.Errorf("%s: %v (%s), want %v with %q", tc.name, r.Variant(), r.Reason(), tc.want, tc.reason)
		}
	}
}
