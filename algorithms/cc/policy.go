package cc

import (
	"fmt"
	"math"

	"github.com/gearbox-graph/gearbox/algorithms/internal/edgeset"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
)

// GraphStats are the graph statistics the variant choice uses (all cached
// by the graph after the first run).
type GraphStats struct {
	Vertices  int
	Arcs      int64
	Directed  bool
	MaxDegree int64
}

// AvgDegree returns arcs per vertex (0 for the empty graph).
func (s GraphStats) AvgDegree() float64 {
	if s.Vertices == 0 {
		return 0
	}
	return float64(s.Arcs) / float64(s.Vertices)
}

// Skew returns the largest degree over the average (0 without arcs).
func (s GraphStats) Skew() float64 {
	if a := s.AvgDegree(); a > 0 {
		return float64(s.MaxDegree) / a
	}
	return 0
}

// StatsOf returns g's statistics.
func StatsOf(g *graph.Graph) GraphStats {
	return GraphStats{Vertices: g.NumVertices(), Arcs: g.NumEdges(), Directed: g.Directed(), MaxDegree: g.MaxDegree()}
}

// VariantPolicy chooses the algorithm from graph statistics. Its fields
// are CC's own keys of a thresholds file ([cpu.cc], [gpu."<device>".cc]; a
// device section's keys apply too, under the algorithm's).
type VariantPolicy struct {
	// MinAfforestDegree is the average degree (arcs per vertex) below which
	// union-find is chosen over Afforest: with about as few arcs per vertex
	// as sampling rounds, sampling saves nothing.
	MinAfforestDegree float64 `toml:"afforest_min_degree"`
	// MinAfforestArcs is the number of arcs below which union-find is
	// chosen: Afforest's sampling, compression and largest-component
	// passes cost a fixed number of launches that a small graph does not
	// pay back (0: no floor).
	MinAfforestArcs int64 `toml:"afforest_min_arcs"`
	// MinAfforestSkew is the degree skew (largest over average degree)
	// below which union-find is chosen: without hubs, union-find's hooks
	// converge about as fast as sampling finds the giant component
	// (0: no floor).
	MinAfforestSkew float64 `toml:"afforest_min_skew"`
}

// VariantPolicyFrom decodes the policy from the layers of a thresholds
// lookup (afforest_min_degree, afforest_min_arcs and afforest_min_skew;
// decider.ThresholdSet.KnobsFor, runtime.Config.Knobs): DefaultVariantPolicy
// under the layers, or DeviceVariantPolicy under the GPU layers where the
// set has no section for the GPU (found false). Errors name the key.
func VariantPolicyFrom(layers decider.KnobLayers, found bool) (VariantPolicy, error) {
	p := DefaultVariantPolicy()
	if layers.OnGPU && !found {
		p = DeviceVariantPolicy()
		layers.CPU = nil
	}
	if err := decider.DecodeKnobs(&p, layers.All()...); err != nil {
		return p, err
	}
	return p, p.Validate()
}

// DefaultVariantPolicy returns the built-in CPU policy (the shipped
// thresholds.toml's [cpu.cc]): Afforest on every undirected graph with at
// least two arcs per vertex.
func DefaultVariantPolicy() VariantPolicy { return VariantPolicy{MinAfforestDegree: 2} }

// DeviceVariantPolicy returns the policy of a GPU without a thresholds
// section: Afforest's sampling, compression and largest-component passes
// cost launches that graphs under 2^22 arcs do not pay back, and without
// hubs (skew under 64) union-find converges about as fast. On the H100
// Afforest won only on the Kronecker graphs (thresholds.toml,
// results/h100-2026-11-22-interleaved).
func DeviceVariantPolicy() VariantPolicy {
	return VariantPolicy{MinAfforestDegree: 2, MinAfforestArcs: 1 << 22, MinAfforestSkew: 64}
}

// Validate checks the floors; the error names the key. Finite, as the
// renderer writes floats in a form TOML reads back; a large value already
// means never Afforest.
func (p VariantPolicy) Validate() error {
	switch {
	case !(p.MinAfforestDegree >= 0 && !math.IsInf(p.MinAfforestDegree, 1)):
		return fmt.Errorf("%w: afforest_min_degree = %v, want a finite value >= 0", decider.ErrThresholds, p.MinAfforestDegree)
	case p.MinAfforestArcs < 0:
		return fmt.Errorf("%w: afforest_min_arcs = %d, want >= 0", decider.ErrThresholds, p.MinAfforestArcs)
	case !(p.MinAfforestSkew >= 0 && !math.IsInf(p.MinAfforestSkew, 1)):
		return fmt.Errorf("%w: afforest_min_skew = %v, want a finite value >= 0", decider.ErrThresholds, p.MinAfforestSkew)
	}
	return nil
}

// Choose picks a variant for a graph and says why.
func (p VariantPolicy) Choose(st GraphStats) (Variant, string) {
	if st.Arcs == 0 {
		return UnionFind, "no edges"
	}
	if st.Directed {
		// Afforest's final pass may skip the largest component only when
		// every edge leaving it is seen from outside, which needs in-edges.
		return UnionFind, "directed: Afforest could not skip the largest component without in-edges"
	}
	if d := st.AvgDegree(); d < p.MinAfforestDegree {
		return UnionFind, fmt.Sprintf("average degree %.2f below %.2f: sampling saves nothing", d, p.MinAfforestDegree)
	}
	if st.Arcs < p.MinAfforestArcs {
		return UnionFind, fmt.Sprintf("%d arcs below %d: Afforest's extra passes cost more than sampling saves", st.Arcs, p.MinAfforestArcs)
	}
	if k := st.Skew(); k < p.MinAfforestSkew {
		return UnionFind, fmt.Sprintf("degree skew %.1f below %.1f: no hubs for sampling to find", k, p.MinAfforestSkew)
	}
	return Afforest, fmt.Sprintf("average degree %.2f, degree skew %.1f: sample neighbours, skip the largest component", st.AvgDegree(), st.Skew())
}

// EdgePolicy is CC's default working-set policy (a decider.Policy): the
// edge-set kit's rule (Li & Becchi's, on the active edges, re-decided after
// every iteration from the exact active-edge count the hook pass produces).
//
//   - fewer than T3 x edges active: a queue of edges (each element is one
//     edge, so mapping does not matter there);
//   - otherwise a bitmap over arcs, with block mapping when the average
//     degree is at least T1 (long adjacency lists are split), else thread
//     mapping.
func EdgePolicy(t decider.Thresholds) decider.Policy { return edgeset.Policy("cc-edges", t) }
