package sssp

import (
	"container/heap"
	"errors"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/internal/search"
	"github.com/gearbox-graph/gearbox/graph"
)

// ErrMismatch is wrapped by Verify's errors.
var ErrMismatch = errors.New("sssp result is wrong")

type item struct {
	d uint64
	v uint32
}

type minHeap []item

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i].d < h[j].d }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(item)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Reference computes exact distances with a binary-heap Dijkstra: the
// distances and a reached flag per vertex.
func Reference(g *graph.Graph, src uint32) ([]uint64, []bool, error) {
	if err := CheckGraph(g); err != nil {
		return nil, nil, err
	}
	n := g.NumVertices()
	if n == 0 {
		return nil, nil, nil
	}
	if int64(src) >= int64(n) {
		return nil, nil, fmt.Errorf("sssp: %w: source %d, graph has %d vertices (0..%d)", ErrSource, src, n, n-1)
	}
	dist := make([]uint64, n)
	reached := make([]bool, n)
	done := make([]bool, n)
	reached[src] = true
	h := &minHeap{{0, src}}
	for h.Len() > 0 {
		it := heap.Pop(h).(item)
		if done[it.v] {
			continue
		}
		done[it.v] = true
		ws := g.EdgeWeights(it.v)
		for i, x := range g.Neighbors(it.v) {
			nd := it.d + uint64(ws[i])
			if !reached[x] || nd < dist[x] {
				reached[x], dist[x] = true, nd
				heap.Push(h, item{nd, x})
			}
		}
	}
	return dist, reached, nil
}

// Verify checks r against g: d[src] = 0; every arc u->v from a reached u
// reaches v with d[v] <= d[u]+w; every reached v != src has a tight in-arc
// (d[v] = d[u]+w); and equality with Reference.
func Verify(g *graph.Graph, r *Result) error {
	if g == nil || r == nil {
		return fmt.Errorf("sssp: verify: %w: nil graph or result", graph.ErrNil)
	}
	if err := search.CheckValues(g, &r.Result, true, ErrMismatch, "distance"); err != nil {
		return err
	}
	ref, reached, err := Reference(g, r.Source())
	if err != nil {
		return err
	}
	for v := range ref {
		got, ok := r.Distance(uint32(v))
		if ok != reached[v] || (ok && got != ref[v]) {
			return fmt.Errorf("%w: vertex %d: distance %d (reached %v), reference %d (reached %v)", ErrMismatch, v, got, ok, ref[v], reached[v])
		}
	}
	return nil
}
