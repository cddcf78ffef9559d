package msf

import "fmt"

// GraphStats are the statistics the variant choice uses.
type GraphStats struct {
	Vertices int
	Edges    int64 // canonical (undirected) edges
}

// AvgDegree returns the average degree 2m/n of the undirected reading.
func (s GraphStats) AvgDegree() float64 {
	if s.Vertices == 0 {
		return 0
	}
	return 2 * float64(s.Edges) / float64(s.Vertices)
}

func statsOf(in *input) GraphStats {
	return GraphStats{Vertices: in.g.NumVertices(), Edges: in.edges}
}

// VariantPolicy chooses the algorithm from graph statistics.
type VariantPolicy struct {
	// MinFilterDegree is the average degree from which ECL's light-edge
	// filter is used (ECL-MST's rule: 4): below it, about 3n light edges
	// are nearly all the edges and the filter's extra pass saves nothing.
	MinFilterDegree float64
}

// DefaultVariantPolicy returns the built-in policy.
func DefaultVariantPolicy() VariantPolicy { return VariantPolicy{MinFilterDegree: 4} }

// Choose picks a variant for a graph and says why.
func (p VariantPolicy) Choose(st GraphStats) (Variant, string) {
	if st.Edges == 0 {
		return EA, "no edges"
	}
	d := st.AvgDegree()
	if d >= p.MinFilterDegree && st.Edges > lightFactor*int64(st.Vertices) {
		return ECL, fmt.Sprintf("average degree %.2f >= %.2f: first the ~%dn lightest edges, then the rest", d, p.MinFilterDegree, lightFactor)
	}
	return EA, fmt.Sprintf("average degree %.2f: too few edges to filter, edge array with filtering", d)
}
