package cc

import (
	"fmt"

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

// VariantPolicy chooses the algorithm from graph statistics.
type VariantPolicy struct {
	// MinAfforestDegree is the average degree (arcs per vertex) below which
	// union-find is chosen over Afforest: with about as few arcs per vertex
	// as sampling rounds, sampling saves nothing.
	MinAfforestDegree float64
	// MinAfforestArcs is the number of arcs below which union-find is
	// chosen: Afforest's sampling, compression and largest-component
	// passes cost a fixed number of launches that a small graph does not
	// pay back (0: no floor).
	MinAfforestArcs int64
	// MinAfforestSkew is the degree skew (largest over average degree)
	// below which union-find is chosen: without hubs, union-find's hooks
	// converge about as fast as sampling finds the giant component
	// (0: no floor).
	MinAfforestSkew float64
}

// VariantPolicyFrom returns the policy that thresholds give
// (afforest_min_degree, afforest_min_arcs and afforest_min_skew): a run
// uses its configuration's, the backend's device section of
// thresholds.toml by default (runtime.Config.Thresholds).
func VariantPolicyFrom(t decider.Thresholds) VariantPolicy {
	return VariantPolicy{MinAfforestDegree: t.AfforestMinDegree, MinAfforestArcs: t.AfforestMinArcs, MinAfforestSkew: t.AfforestMinSkew}
}

// DefaultVariantPolicy returns the policy of the built-in CPU thresholds
// (decider.DefaultThresholds): Afforest on every undirected graph with at
// least two arcs per vertex.
func DefaultVariantPolicy() VariantPolicy { return VariantPolicyFrom(decider.DefaultThresholds()) }

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
