package sssp_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestParamsKeysAreSpecParams: Params' keys are exactly the Spec's Params,
// the registry's list of the keys SSSP owns.
func TestParamsKeysAreSpecParams(t *testing.T) {
	var spec []string
	for _, p := range sssp.Spec.Params {
		spec = append(spec, p.Key)
	}
	keys := decider.KnobKeys(sssp.Params{})
	slices.Sort(spec)
	slices.Sort(keys)
	if !slices.Equal(spec, keys) {
		t.Errorf("Params keys %v, Spec.Params %v", keys, spec)
	}
}

// TestParamsFrom: SSSP's keys layer [cpu], [cpu.sssp], then on a GPU its
// sections; a GPU does not inherit the CPU's work-targeted buckets
// (GPUBase), and a GPU without a section takes DeviceParams.
func TestParamsFrom(t *testing.T) {
	set, err := algorithms.ParseThresholds("[cpu]\ndelta = 8\n[cpu.sssp]\nbucket_edges = 512\ndelta_factor = 0.0\n[gpu.\"G\"]\nT2 = 4\n[gpu.\"G\".sssp]\ndelta = 16\n[gpu.\"H\"]\nbucket_edges = 65536\nordered_min_vertices = 2097152\nordered_min_degree = 8.0\nordered_min_vertices_skewed = 4194304\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		device        string
		delta         uint64
		bucket, order int64
	}{{"", 8, 512, 0}, {"G", 16, 0, 0}, {"H", 8, 65536, 1 << 21}, {"none", 256, 0, 1 << 18}} {
		p, err := sssp.ParamsFrom(set.KnobsFor(c.device, "sssp"))
		if err != nil {
			t.Fatal(err)
		}
		if p.Delta != c.delta || p.BucketEdges != c.bucket || p.OrderedMinVertices != c.order || p.DeltaFactor != 0 {
			t.Errorf("%s: %+v, want delta %d, bucket_edges %d, ordered_min_vertices %d", c.device, p, c.delta, c.bucket, c.order)
		}
	}
	if p, _ := sssp.ParamsFrom(set.KnobsFor("H", "sssp")); p.OrderedMinDegree != 8 || p.OrderedMinVerticesSkewed != 1<<22 {
		t.Errorf("order rule: %+v", p)
	}
	if p, _ := sssp.ParamsFrom(decider.KnobLayers{}, true); p != sssp.DefaultParams() {
		t.Errorf("no layers: %+v, want the defaults", p)
	}
	if _, err := sssp.ParamsFrom(decider.KnobLayers{CPU: []decider.Knobs{{"ordered_min_degree": "8"}}}, true); err == nil || !strings.Contains(err.Error(), "ordered_min_degree") {
		t.Errorf("a string: %v", err)
	}
	// A run reads them through its configuration; WithParams replaces them.
	if p, err := sssp.ParamsFor(runtime.WithThresholdSet(set)); err != nil || p.Delta != 8 || p.BucketEdges != 512 {
		t.Errorf("ParamsFor with the set: %+v, %v", p, err)
	}
	if p, err := sssp.ParamsFor(runtime.WithKnobs(decider.Knobs{"delta": int64(3)})); err != nil || p.Delta != 3 {
		t.Errorf("ParamsFor with knobs: %+v, %v", p, err)
	}
	if _, err := sssp.ParamsFor(sssp.WithParams(sssp.Params{})); !errors.Is(err, decider.ErrThresholds) {
		t.Errorf("WithParams of delta 0: %v, want ErrThresholds", err)
	}
}

func TestLaunchDelta(t *testing.T) {
	for _, tc := range []struct {
		f     float64
		delta uint64
		deg   float64
		want  uint64
	}{
		{0, 256, 4, 256},
		{16, 1024, 4, 4096},  // grid: x4
		{16, 1024, 32, 1024}, // urand: x0.5, so none
		{16, 1024, 16, 1024}, // x1
		{16, 1024, 0, 16384}, // no arcs: degree taken as 1
		{12, 1024, 4, 4096},  // 3072: 2^11.58
		{10, 1024, 4, 2048},  // 2560: 2^11.32
		{16, 1000, 4, 4000},  // not a power of two
		{16, 0, 4, 0},
		{1e30, 2, 4, 1 << 40},
		{16, 1 << 40, 4, 1 << 40},
	} {
		if got := (sssp.Params{LaunchDeltaFactor: tc.f}).LaunchDelta(tc.delta, tc.deg); got != tc.want {
			t.Errorf("LaunchDelta(%d, %g) with factor %g = %d, want %d", tc.delta, tc.deg, tc.f, got, tc.want)
		}
	}
}

// TestDeltaFor: a fixed delta unless delta_factor is set; then factor x
// mean weight / mean degree, rounded to a power of two, within [1, 2^40].
func TestDeltaFor(t *testing.T) {
	fixed := sssp.Params{Delta: 32}
	factor := sssp.Params{Delta: 32, DeltaFactor: 8}
	tests := []struct {
		name string
		p    sssp.Params
		w, d float64
		want uint64
	}{
		{"fixed ignores the graph", fixed, 532, 2.6, 32},
		{"kron-like", factor, 128, 32, 32},
		{"kron:18", factor, 128, 29.03, 32}, // 35.3
		{"grid-like", factor, 128, 4, 256},
		{"road, metres", factor, 532.3, 2.64, 2048}, // 1613: 2^10.66
		{"rounds down", factor, 10, 3, 32},          // 26.7: 2^4.74
		{"rounds up", factor, 10, 1.5, 64},          // 53.3: 2^5.74
		{"at least 1", factor, 1, 100, 1},
		{"zero weight", factor, 0, 5, 1},
		{"no arcs: degree taken as 1", factor, 128, 0, 1024},
		{"NaN weight", factor, math.NaN(), 4, 1},
		{"huge", factor, 1e15, 1, 1 << 40},
	}
	for _, tc := range tests {
		if got := tc.p.DeltaFor(tc.w, tc.d); got != tc.want {
			t.Errorf("%s: DeltaFor(%v, %v) = %d, want %d", tc.name, tc.w, tc.d, got, tc.want)
		}
	}
}
