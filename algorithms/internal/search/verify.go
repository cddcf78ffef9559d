package search

import (
	"fmt"

	"github.com/gearbox-graph/gearbox/graph"
)

// CheckValues checks the properties of r's values (what names them:
// "depth", "distance") on g, the graph searched from r's source: r has one
// per vertex, the source's is 0, every arc u->v from a reached u reaches v
// with value(v) <= value(u) + w(u,v), and every other reached vertex has
// a tight in-arc (value(v) == value(u) + w(u,v)). Arcs weigh their weight
// where weighted, else 1 (BFS's hops). Its errors wrap errMismatch.
func CheckValues(g *graph.Graph, r *Result, weighted bool, errMismatch error, what string) error {
	n := g.NumVertices()
	if r.NumVertices() != n {
		return fmt.Errorf("%w: %d %ss for %d vertices", errMismatch, r.NumVertices(), what, n)
	}
	if n == 0 {
		return nil
	}
	src := r.Source()
	if d, ok := r.Value(src); !ok || d != 0 {
		return fmt.Errorf("%w: source %d has %s %d (reached %v), want 0", errMismatch, src, what, d, ok)
	}
	tight := make([]bool, n)
	for u := range uint32(n) {
		du, ok := r.Value(u)
		if !ok {
			continue
		}
		var ws []uint32
		if weighted {
			ws = g.EdgeWeights(u)
		}
		for i, v := range g.Neighbors(u) {
			w := uint64(1)
			if weighted {
				w = uint64(ws[i])
			}
			dv, ok := r.Value(v)
			if !ok || dv > du+w {
				return fmt.Errorf("%w: arc %d->%d (weight %d): %s %d but target %d (reached %v)", errMismatch, u, v, w, what, du, dv, ok)
			}
			if dv == du+w {
				tight[v] = true
			}
		}
	}
	for v := range uint32(n) {
		if d, ok := r.Value(v); ok && v != src && !tight[v] {
			return fmt.Errorf("%w: vertex %d at %s %d has no tight in-arc", errMismatch, v, what, d)
		}
	}
	return nil
}
