package stcon

import (
	"errors"
	"fmt"

	"github.com/gearbox-graph/gearbox/graph"
)

// ErrMismatch is wrapped by Verify's errors.
var ErrMismatch = errors.New("stcon result is wrong")

// Verify checks r against a serial BFS from s: reachability and hop count
// agree, and the path starts at s, ends at t, has Hops arcs and uses only
// arcs of g.
func Verify(g *graph.Graph, r *Result) error {
	d := Reference(g, r.Source())
	t := r.Target()
	want, reach := d[t], d[t] != ^uint32(0)
	h, ok := r.Hops()
	if ok != reach || ok && uint32(h) != want {
		return fmt.Errorf("%w: %d -> %d: got reachable %v hops %d, the serial BFS says reachable %v hops %d", ErrMismatch, r.Source(), t, ok, h, reach, want)
	}
	if !ok {
		return nil
	}
	return CheckPath(g, r.Source(), t, h, func() []uint32 { p, _ := r.Path(); return p }())
}

// CheckPath checks that p is a path of g from s to t of hops arcs.
func CheckPath(g *graph.Graph, s, t uint32, hops int, p []uint32) error {
	if len(p) != hops+1 || p[0] != s || p[len(p)-1] != t {
		return fmt.Errorf("%w: path %v is not %d arcs from %d to %d", ErrMismatch, p, hops, s, t)
	}
	for i := 0; i+1 < len(p); i++ {
		found := false
		for _, x := range g.Neighbors(p[i]) {
			if x == p[i+1] {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("%w: path step %d: no arc %d -> %d", ErrMismatch, i, p[i], p[i+1])
		}
	}
	return nil
}

// Reference returns every vertex's hop distance from s by a serial BFS
// (^uint32(0): unreachable).
func Reference(g *graph.Graph, s uint32) []uint32 {
	n := g.NumVertices()
	d := make([]uint32, n)
	for i := range d {
		d[i] = ^uint32(0)
	}
	d[s] = 0
	q := []uint32{s}
	for h := 0; h < len(q); h++ {
		u := q[h]
		for _, x := range g.Neighbors(u) {
			if d[x] == ^uint32(0) {
				d[x] = d[u] + 1
				q = append(q, x)
			}
		}
	}
	return d
}
