package cc

import "github.com/gearbox-graph/gearbox/graph"

// GraphStats are the graph statistics the policy decides on.
type GraphStats struct {
	Vertices int
	Arcs     int64
	Directed bool
}

func graphStats(g *graph.Graph) GraphStats {
	return GraphStats{Vertices: g.NumVertices(), Arcs: g.NumEdges(), Directed: g.Directed()}
}

// Policy holds the thresholds of the variant and working-set decisions.
type Policy struct {
	// QueueFraction: SV compacts its active edges from the bitmap into a
	// queue once fewer than this fraction of the graph's edges are active.
	QueueFraction float64
}

// DefaultPolicy returns the thresholds measured on the CPU backend.
func DefaultPolicy() Policy { return Policy{QueueFraction: 0.05} }

// ChooseVariant picks a variant for a graph and says why.
func (p Policy) ChooseVariant(st GraphStats) (Variant, string) {
	if st.Arcs == 0 {
		return UnionFind, "no edges"
	}
	return Afforest, "default on the CPU"
}

// UseQueue reports whether SV should switch from a bitmap to a queue with
// active of edges edges still active.
func (p Policy) UseQueue(active, edges int64) bool {
	return float64(active) < p.QueueFraction*float64(edges)
}
