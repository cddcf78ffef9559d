package bfs

import (
	"errors"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/internal/search"
	"github.com/gearbox-graph/gearbox/graph"
)

// ErrMismatch is wrapped by Verify's errors.
var ErrMismatch = errors.New("bfs result is wrong")

// Reference computes BFS depths serially with a FIFO queue: -1 for
// unreached vertices.
func Reference(g *graph.Graph, src uint32) ([]int64, error) {
	if g == nil {
		return nil, fmt.Errorf("bfs: reference: %w: nil graph", graph.ErrNil)
	}
	n := g.NumVertices()
	if n == 0 {
		return nil, nil
	}
	if int64(src) >= int64(n) {
		return nil, fmt.Errorf("bfs: %w: source %d, graph has %d vertices (0..%d)", ErrSource, src, n, n-1)
	}
	d := make([]int64, n)
	for i := range d {
		d[i] = -1
	}
	d[src] = 0
	q := []uint32{src}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, v := range g.Neighbors(u) {
			if d[v] < 0 {
				d[v] = d[u] + 1
				q = append(q, v)
			}
		}
	}
	return d, nil
}

// Verify checks r against g: the BFS properties (depth[src] = 0; every arc
// u->v from a reached u reaches v with depth[v] <= depth[u]+1; every reached
// v != src has an in-arc from depth[v]-1) and equality with Reference.
func Verify(g *graph.Graph, r *Result) error {
	if g == nil || r == nil {
		return fmt.Errorf("bfs: verify: %w: nil graph or result", graph.ErrNil)
	}
	if err := search.CheckValues(g, &r.Result, false, ErrMismatch, "depth"); err != nil {
		return err
	}
	ref, err := Reference(g, r.Source())
	if err != nil {
		return err
	}
	for v, want := range ref {
		got, ok := r.Depth(uint32(v))
		if (want < 0) == ok || (ok && int64(got) != want) {
			return fmt.Errorf("%w: vertex %d: depth %d (reached %v), reference %d", ErrMismatch, v, got, ok, want)
		}
	}
	return nil
}
