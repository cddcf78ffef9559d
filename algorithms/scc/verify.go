package scc

import (
	"fmt"

	"github.com/gearbox-graph/gearbox/graph"
)

// Reference labels the SCCs of g serially by Tarjan's algorithm (1972),
// with explicit stacks instead of recursion (a path of millions of
// vertices would overflow a goroutine's stack), each SCC labelled with its
// smallest vertex: the independent answer the parallel variants are
// checked against.
func Reference(g *graph.Graph) []uint32 {
	n := g.NumVertices()
	off, adj := g.Offsets(), g.Adj()
	order := make([]uint32, n) // discovery order from 1; 0: not yet
	low := make([]uint32, n)
	next := make([]int64, n) // the next arc to look at
	labels := make([]uint32, n)
	for v := range labels {
		labels[v] = none // none: unvisited or still on the stack
	}
	var stack, calls []uint32
	var seen uint32
	visit := func(v uint32) {
		seen++
		order[v], low[v], next[v] = seen, seen, off[v]
		stack = append(stack, v)
		calls = append(calls, v)
	}
	for s := range uint32(n) {
		if order[s] != 0 {
			continue
		}
		visit(s)
		for len(calls) > 0 {
			v := calls[len(calls)-1]
			if next[v] < off[v+1] {
				w := adj[next[v]]
				next[v]++
				if order[w] == 0 {
					visit(w)
				} else if labels[w] == none { // on the stack
					low[v] = min(low[v], order[w])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				u := calls[len(calls)-1]
				low[u] = min(low[u], low[v])
			}
			if low[v] != order[v] {
				continue
			}
			// v roots an SCC: the stack from v up.
			i := len(stack) - 1
			for stack[i] != v {
				i--
			}
			members := stack[i:]
			least := v
			for _, x := range members {
				least = min(least, x)
			}
			for _, x := range members {
				labels[x] = least
			}
			stack = stack[:i]
		}
	}
	return labels
}

// Verify checks labels against g: one label per vertex, each the smallest
// vertex of its SCC (a vertex labelled l is at least l, and l is labelled
// l), and the partition Tarjan's algorithm finds.
func Verify(g *graph.Graph, labels []uint32) error {
	switch {
	case g == nil:
		return fmt.Errorf("scc: verify: %w: nil graph", graph.ErrNil)
	case len(labels) != g.NumVertices():
		return fmt.Errorf("%w: %d labels for %d vertices", ErrVerify, len(labels), g.NumVertices())
	}
	n, ref := len(labels), Reference(g)
	for v, l := range labels {
		var why string
		switch {
		case int64(l) >= int64(n):
			why = fmt.Sprintf("not a vertex of the %d", n)
		case labels[l] != l || l > uint32(v):
			why = fmt.Sprintf("not the smallest vertex of an SCC (labelled %d)", labels[l])
		case ref[v] != l:
			why = fmt.Sprintf("but Tarjan's SCC has smallest vertex %d", ref[v])
		default:
			continue
		}
		return fmt.Errorf("%w: vertex %d has label %d, %s", ErrVerify, v, l, why)
	}
	return nil
}
