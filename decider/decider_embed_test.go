package decider

import (
	"os"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox"
)

// TestEmbeddedThresholds: the shipped thresholds.toml parses strictly, and the
// embedded copy is the file at the repository root.
func TestEmbeddedThresholds(t *testing.T) {
	if _, err := ParseThresholds(gearbox.ThresholdsTOML); err != nil {
		t.Fatalf("thresholds.toml: %v", err)
	}
	b, err := os.ReadFile("../thresholds.toml")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != gearbox.ThresholdsTOML {
		t.Fatal("embedded thresholds differ from ../thresholds.toml")
	}
	set := DefaultThresholdSet()
	if set.CPU != DefaultThresholds() {
		t.Errorf("[cpu] of thresholds.toml = %+v, built-in DefaultThresholds() = %+v: keep them equal", set.CPU, DefaultThresholds())
	}
	if _, ok := set.Lookup("no such GPU"); ok {
		t.Error("Lookup found a section for an unknown device")
	}
	if got, ok := set.Lookup(""); !ok || got != set.CPU {
		t.Error(`Lookup("") should be the CPU section`)
	}
}

func TestOrderRuleKeys(t *testing.T) {
	s, err := ParseThresholds("[gpu.\"X\"]\nordered_min_vertices = 2097152\nordered_min_degree = 8.0\nordered_min_vertices_skewed = 4194304\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.GPU["X"]; got.OrderedMinVertices != 1<<21 || got.OrderedMinDegree != 8 || got.OrderedMinVerticesSkewed != 1<<22 {
		t.Fatalf("section X = %+v", got)
	}
	s, err = ParseThresholds("[gpu.\"X\"]\nthreads_per_block = 64\n")
	if err != nil || s.GPU["X"].ThreadsPerBlock != 64 || s.CPU.ThreadsPerBlock != 0 {
		t.Fatalf("threads_per_block: %+v, %v", s, err)
	}
	for _, bad := range []string{"[cpu]\nordered_min_vertices = -1\n", "[cpu]\nordered_min_degree = -0.5\n", "[cpu]\nordered_min_degree = \"8\"\n",
		"[cpu]\nordered_min_vertices_skewed = -1\n"} {
		if _, err := ParseThresholds(bad); err == nil || !strings.Contains(err.Error(), "ordered_min_") {
			t.Errorf("%q: err = %v, want one naming the key", bad, err)
		}
	}
}

// TestAfforestKeys: CC's variant floors parse, default to the CPU's (2, 0,
// 0) where a section leaves them out, and a [gpu."X".cc] section overrides
// its device section's for CC only.
func TestAfforestKeys(t *testing.T) {
	s, err := ParseThresholds(`
[gpu."X"]
afforest_min_degree = 3.0
afforest_min_arcs = 4194304
afforest_min_skew = 64.0

[gpu."X".cc]
afforest_min_arcs = 100

[gpu."Y"]
T1 = 8.0
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, device, alg string
		degree            float64
		arcs              int64
		skew              float64
	}{
		{"cpu", "", "cc", 2, 0, 0},
		{"device section", "X", "", 3, 1 << 22, 64},
		{"other algorithm", "X", "bfs", 3, 1 << 22, 64},
		{"cc override", "X", "cc", 3, 100, 64},
		{"left out: [cpu]'s", "Y", "cc", 2, 0, 0},
	} {
		got, ok := s.LookupFor(tc.device, tc.alg)
		if !ok || got.AfforestMinDegree != tc.degree || got.AfforestMinArcs != tc.arcs || got.AfforestMinSkew != tc.skew {
			t.Errorf("%s: %+v (found %v), want afforest (%v, %d, %v)", tc.name, got, ok, tc.degree, tc.arcs, tc.skew)
		}
	}
	// Every other key keeps the device section's value under [gpu."X".cc].
	want := s.GPU["X"]
	want.AfforestMinArcs = 100
	if got := s.GPUAlg["X"]["cc"]; got != want {
		t.Errorf("[gpu.\"X\".cc] = %+v, want %+v", got, want)
	}
}

// TestAnyAlgorithmSection: the decider keeps a section of any algorithm's
// name (the registry, not the decider, knows the algorithms), over its
// device section's values.
func TestAnyAlgorithmSection(t *testing.T) {
	s, err := ParseThresholds("[cpu.mst]\nT2 = 4\n[gpu.\"X\"]\nT2 = 8\n[gpu.\"X\".max_flow]\nT1 = 3.0\n")
	if err != nil {
		t.Fatal(err)
	}
	if s.CPUAlg["mst"].T2 != 4 || s.GPUAlg["X"]["max_flow"].T1 != 3 || s.GPUAlg["X"]["max_flow"].T2 != 8 {
		t.Errorf("sections %+v %+v", s.CPUAlg, s.GPUAlg)
	}
}

// TestCloneCopiesAlgSections: DefaultThresholdSet hands out clones of
// the embedded set, so a caller changing its set leaves the next
// caller's alone, per-algorithm sections included.
func TestCloneCopiesAlgSections(t *testing.T) {
	s, err := ParseThresholds("[cpu.bfs]\nT2 = 4\n[gpu.\"X\"]\nT2 = 8\n[gpu.\"X\".sssp]\nT2 = 16\n")
	if err != nil {
		t.Fatal(err)
	}
	c := s.clone()
	c.CPUAlg["bfs"] = Thresholds{T1: 1}
	c.GPUAlg["X"]["sssp"] = Thresholds{T1: 1}
	c.GPU["X"] = Thresholds{T1: 1}
	if s.CPUAlg["bfs"].T2 != 4 || s.GPUAlg["X"]["sssp"].T2 != 16 || s.GPU["X"].T2 != 8 {
		t.Errorf("changing a clone changed the original: %+v", s)
	}
}
