package cc

import (
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/graph"
)

func TestVariantPolicyChoose(t *testing.T) {
	cpu, gpu := DefaultVariantPolicy(), GPUVariantPolicy()
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

func TestRunChoosesByBackend(t *testing.T) {
	// kron:12 has too few arcs for Afforest on a GPU; on the CPU backend
	// the default policy chooses it.
	g, err := graph.Generate("kron:12", graph.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(t.Context(), g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Variant() != Afforest {
		t.Errorf("CPU default: %v (%s), want afforest", r.Variant(), r.Reason())
	}
	r, err = Run(t.Context(), g, WithVariantPolicy(GPUVariantPolicy()))
	if err != nil {
		t.Fatal(err)
	}
	if r.Variant() != UnionFind || !strings.Contains(r.Reason(), "arcs below") {
		t.Errorf("GPU policy on the CPU: %v (%s), want unionfind", r.Variant(), r.Reason())
	}
}
