package cc

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/par"
)

// state is shared by the variants: the parent array of the hooking forest
// and, when a spanning forest is wanted, the edge that hooked each vertex.
type state struct {
	g       *graph.Graph
	cfg     config
	n       int
	offsets []int64
	adj     []uint32
	parent  []uint32
	// hookU[v], hookV[v]: the arc whose hook made v a non-root (each vertex
	// is hooked at most once: a hook is a CAS of parent[v] from v).
	hookU, hookV []uint32
	labels       []uint32
	parts        []int // edge-balanced vertex ranges
	stats        Stats
}

func newState(g *graph.Graph, c config) *state {
	s := &state{g: g, cfg: c, n: g.NumVertices(), offsets: g.Offsets(), adj: g.Adj()}
	s.parent = make([]uint32, s.n)
	par.For(s.n, 1<<14, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			s.parent[v] = uint32(v)
		}
	})
	if c.forest {
		s.hookU = make([]uint32, s.n)
		s.hookV = make([]uint32, s.n)
	}
	s.parts = edgeParts(s.offsets, 32*par.Workers())
	return s
}

// record notes that arc u->v hooked root r.
func (s *state) record(r, u, v uint32) {
	if s.hookU != nil {
		s.hookU[r], s.hookV[r] = u, v
	}
}

func (s *state) step(st Step, t0 time.Time) {
	st.Iteration = len(s.stats.Trace)
	st.Elapsed = time.Since(t0)
	s.stats.Trace = append(s.stats.Trace, st)
	s.stats.Iterations = len(s.stats.Trace)
	s.stats.Hooks += st.Hooks
	s.cfg.log.Debug().Int("iter", st.Iteration).Str("phase", st.Phase).Str("workset", st.Workset.String()).
		Int64("active", st.Active).Int64("hooks", st.Hooks).Dur("elapsed", st.Elapsed).Msg("cc step")
}

// edgeParts splits 0..n into about k ranges of roughly equal arc counts
// (and at least a few vertices each), so one huge adjacency list does not
// hold up a whole pass.
func edgeParts(offsets []int64, k int) []int {
	n := len(offsets) - 1
	if n <= 0 {
		return []int{0, 0}
	}
	m := offsets[n]
	bounds := []int{0}
	for p := 1; p < k; p++ {
		// Weigh vertices too, so graphs with few edges still split.
		target := (m + int64(n)) * int64(p) / int64(k)
		lo, hi := bounds[len(bounds)-1], n
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if offsets[mid]+int64(mid) < target {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo > bounds[len(bounds)-1] && lo < n {
			bounds = append(bounds, lo)
		}
	}
	return append(bounds, n)
}

// forParts runs fn over the ranges parts[i]..parts[i+1], handing them out
// dynamically to par.Workers() goroutines; fn gets the worker index.
func forParts(parts []int, fn func(worker, lo, hi int)) {
	k := len(parts) - 1
	w := min(par.Workers(), k)
	if w <= 1 {
		for i := 0; i < k; i++ {
			fn(0, parts[i], parts[i+1])
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for t := 0; t < w; t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= k {
					return
				}
				fn(t, parts[i], parts[i+1])
			}
		}()
	}
	wg.Wait()
}

// forRange is forParts over an even split of 0..n.
func forRange(n, grain int, fn func(worker, lo, hi int)) {
	k := min(max(1, n/grain), 32*par.Workers())
	parts := make([]int, k+1)
	for i := range parts {
		parts[i] = int(int64(n) * int64(i) / int64(k))
	}
	forParts(parts, fn)
}

// compress makes every tree a star: each vertex points at its root.
func (s *state) compress() {
	p := s.parent
	forRange(s.n, 1<<14, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			x := atomic.LoadUint32(&p[v])
			y := atomic.LoadUint32(&p[x])
			if x == y {
				continue
			}
			for {
				z := atomic.LoadUint32(&p[y])
				if z == y {
					break
				}
				y = z
			}
			atomic.StoreUint32(&p[v], y)
		}
	})
}

// minLabels turns a star forest with arbitrary roots into labels naming each
// component's smallest vertex.
func (s *state) minLabels() {
	p := s.parent
	low := make([]uint32, s.n)
	par.For(s.n, 1<<14, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			low[v] = graph.NoVertex
		}
	})
	forRange(s.n, 1<<14, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			r := p[v]
			for {
				cur := atomic.LoadUint32(&low[r])
				if uint32(v) >= cur || atomic.CompareAndSwapUint32(&low[r], cur, uint32(v)) {
					break
				}
			}
		}
	})
	forRange(s.n, 1<<14, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			if r := p[v]; r != uint32(v) { // roots already hold their minimum
				low[v] = low[r]
			}
		}
	})
	s.labels = low
}

// forestEdges lists the hooking arcs of every non-root vertex.
func (s *state) forestEdges() []Edge {
	if s.hookU == nil {
		return nil
	}
	var edges []Edge
	for v := 0; v < s.n; v++ {
		if s.parent[v] != uint32(v) {
			edges = append(edges, Edge{s.hookU[v], s.hookV[v]})
		}
	}
	return slices.Clip(edges)
}

// summarise counts components and finds the largest; done lazily so runs
// that only need labels do not pay for it.
func (r *Result) summarise() {
	r.once.Do(func() {
		n := len(r.labels)
		r.bigLbl = graph.NoVertex
		if n == 0 {
			return
		}
		sizes := make([]uint32, n)
		var roots atomic.Int64
		// Most labels hit one giant component; count the label of the
		// previous vertex locally to keep atomic traffic low.
		forRange(n, 1<<14, func(t, lo, hi int) {
			var cur uint32 = graph.NoVertex
			var cnt uint32
			nr := 0
			for v := lo; v < hi; v++ {
				l := r.labels[v]
				if l == uint32(v) {
					nr++
				}
				if l != cur {
					if cnt > 0 {
						atomic.AddUint32(&sizes[cur], cnt)
					}
					cur, cnt = l, 0
				}
				cnt++
			}
			if cnt > 0 {
				atomic.AddUint32(&sizes[cur], cnt)
			}
			roots.Add(int64(nr))
		})
		r.ncomp = int(roots.Load())
		for v, sz := range sizes {
			if int(sz) > r.largest {
				r.largest, r.bigLbl = int(sz), uint32(v)
			}
		}
	})
}
