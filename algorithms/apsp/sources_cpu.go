package apsp

import (
	"context"
	"fmt"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// runSources runs one search per source, a block of sources at a time
// spread over the workers, and hands each block's rows over in source
// order before starting the next, so memory holds one block of rows.
func runSources(ctx context.Context, g *graph.Graph, cpu *runtime.CPU, rows RowFunc) error {
	n := g.NumVertices()
	pool := cpu.NewPool()
	defer pool.Release()
	w := pool.Workers()
	blk := 4 * w
	if blk > n {
		blk = n
	}
	out := make([]uint32, blk*n)
	scratch := make([]searcher, w)
	for i := range scratch {
		scratch[i] = newSearcher(g)
	}
	for s0 := 0; s0 < n; s0 += blk {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("apsp: cancelled after %d of %d sources: %w", s0, n, err)
		}
		k := min(blk, n-s0)
		pool.Thread(k, 1, func(worker, lo, hi int) {
			for i := lo; i < hi; i++ {
				scratch[worker].run(uint32(s0+i), out[i*n:(i+1)*n])
			}
		})
		for i := 0; i < k; i++ {
			if err := rows(uint32(s0+i), out[i*n:(i+1)*n]); err != nil {
				return err
			}
		}
	}
	return nil
}

// searcher is one worker's single-source search: BFS on unweighted
// graphs, Dijkstra with a binary heap of (distance<<32 | vertex) keys
// otherwise.
type searcher struct {
	g    *graph.Graph
	q    []uint32
	heap []uint64
}

func newSearcher(g *graph.Graph) searcher { return searcher{g: g} }

func (s *searcher) run(src uint32, dist []uint32) {
	for i := range dist {
		dist[i] = Unreachable
	}
	dist[src] = 0
	if s.g.WeightKind() != graph.IntWeights {
		s.bfs(src, dist)
		return
	}
	s.dijkstra(src, dist)
}

func (s *searcher) bfs(src uint32, dist []uint32) {
	off, adj := s.g.Offsets(), s.g.Adj()
	q := append(s.q[:0], src)
	for h := 0; h < len(q); h++ {
		u := q[h]
		du := dist[u] + 1
		for _, v := range adj[off[u]:off[u+1]] {
			if dist[v] == Unreachable {
				dist[v] = du
				q = append(q, v)
			}
		}
	}
	s.q = q
}

func (s *searcher) dijkstra(src uint32, dist []uint32) {
	off, adj, wt := s.g.Offsets(), s.g.Adj(), s.g.Weights()
	h := append(s.heap[:0], uint64(src))
	for len(h) > 0 {
		top := h[0]
		last := len(h) - 1
		h[0] = h[last]
		h = h[:last]
		siftDown(h, 0)
		u, du := uint32(top), uint32(top>>32)
		if du != dist[u] {
			continue // stale
		}
		for e := off[u]; e < off[u+1]; e++ {
			v := adj[e]
			if nd := du + wt[e]; nd < dist[v] {
				dist[v] = nd
				h = append(h, uint64(nd)<<32|uint64(v))
				siftUp(h, len(h)-1)
			}
		}
	}
	s.heap = h
}

func siftUp(h []uint64, i int) {
	x := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if h[p] <= x {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = x
}

func siftDown(h []uint64, i int) {
	n := len(h)
	if n == 0 {
		return
	}
	x := h[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1] < h[c] {
			c++
		}
		if x <= h[c] {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = x
}
