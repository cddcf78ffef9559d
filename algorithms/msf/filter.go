package msf

import (
	"slices"

	"github.com/gearbox-graph/gearbox/algorithms/internal/edgeset"
)

// lightFactor is the number of light edges per vertex the ECL filter
// admits first (ECL-MST: about 3n).
const lightFactor = 3

// lightThreshold samples the canonical edges' keys at evenly spaced arcs
// and returns the key below which about lightFactor*n edges lie, or noKey
// when that would be nearly all of them (then there is nothing to filter).
func lightThreshold(in *input) uint64 {
	n := int64(in.g.NumVertices())
	if in.edges <= lightFactor*n || n == 0 {
		return noKey
	}
	off, adj, w := in.g.Offsets(), in.g.Adj(), in.g.Weights()
	const samples = 4096
	arcs := int64(len(adj))
	step := max(arcs/samples, 1)
	keys := make([]uint64, 0, samples+1)
	u := 0
	for e := int64(0); e < arcs; e += step {
		for off[u+1] <= e {
			u++
		}
		if edgeset.Canonical(uint32(u), adj[e], in.directed) {
			// The id half is unknown here (the arc is not yet numbered
			// among the canonical ones): the threshold is a weight with
			// id 0, so ties of the threshold weight all wait.
			keys = append(keys, uint64(w[e])<<32)
		}
	}
	if len(keys) == 0 {
		return noKey
	}
	slices.Sort(keys)
	i := int(float64(len(keys)) * float64(lightFactor*n) / float64(in.edges))
	if i >= len(keys) {
		return noKey
	}
	t := keys[i]
	if t == 0 {
		return noKey // the lightest weight covers the share: no filter
	}
	return t
}
