package decider

import (
	"os"
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
