package apsp

import (
	"context"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
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

// batchMaxLevels is the most BFS levels (from sampled sources) at which
// batches pay: a batch expands a vertex once per distinct distance from
// its sources, so on a high-diameter mesh the 64 searches rarely share a
// level and the batch costs more than one search per source (a 64x64 grid,
// eccentricities 64-126: 1.7-3x slower on 2 cores), while on a
// small-world graph they share almost all (email-Eu-core, 7 levels: 2.5-4x
// faster).
const batchMaxLevels = 32

// batchPays reports whether the batched BFS should run the unweighted
// sources method: the levels of BFS from a few sampled sources stay
// within batchMaxLevels. It says why.
func batchPays(g *graph.Graph) (bool, string) {
	n := g.NumVertices()
	s := newSearcher(g)
	dist := make([]uint32, n)
	levels := uint32(0)
	for _, src := range []int{0, n / 2, n - 1} {
		s.run(uint32(src), dist)
		for _, d := range dist {
			if d != Unreachable {
				levels = max(levels, d)
			}
		}
	}
	if levels <= batchMaxLevels {
		return true, fmt.Sprintf("rows by batched BFS, 64 sources a traversal (sampled eccentricity %d <= %d)", levels, batchMaxLevels)
	}
	return false, fmt.Sprintf("rows by one BFS per source (sampled eccentricity %d > %d: batches would share few levels)", levels, batchMaxLevels)
}

// runBatched is runSources for unweighted graphs: the sources in batches
// of bfs.BatchWidth consecutive ids, each batch one multi-source traversal
// over all the workers (bfs.RunBatch), its rows handed over in source
// order.
func runBatched(ctx context.Context, g *graph.Graph, cpu *runtime.CPU, rows RowFunc) error {
	n := g.NumVertices()
	b := bfs.NewBatcher(cpu, g)
	defer b.Close()
	srcs := make([]uint32, 0, bfs.BatchWidth)
	for s0 := 0; s0 < n; s0 += bfs.BatchWidth {
		srcs = srcs[:0]
		for s := s0; s < min(n, s0+bfs.BatchWidth); s++ {
			srcs = append(srcs, uint32(s))
		}
		err := b.Run(ctx, srcs, func(i int, depth []uint32) error {
			return rows(srcs[i], depth) // bfs.BatchUnreached == Unreachable
		})
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("apsp: cancelled after %d of %d sources: %w", s0, n, err)
			}
			return err
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

// The batch's unreached depth is the row's Unreachable.
var _ = [1]struct{}{}[bfs.BatchUnreached-Unreachable]
