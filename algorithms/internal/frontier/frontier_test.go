package frontier_test

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/workset"
)

var workerCounts = []int{1, 2, 4}

// subset returns a fixed pseudo-random third of g's vertices (every
// vertex of small graphs), sorted, and their summed out-degree.
func subset(g *graph.Graph) ([]uint32, int64) {
	n := g.NumVertices()
	var vs []uint32
	var deg int64
	for v := range n {
		if n < 64 || (uint64(v)*0x9e3779b97f4a7c15)>>61 < 3 {
			vs = append(vs, uint32(v))
			deg += g.Degree(uint32(v))
		}
	}
	return vs, deg
}

// sets returns the vertices as a queue's set and a bitmap's.
func sets(g *graph.Graph, vs []uint32, deg int64) map[decider.Rep]frontier.Set {
	bm := workset.NewBitmap(g.NumVertices())
	for _, v := range vs {
		bm.Set(v)
	}
	return map[decider.Rep]frontier.Set{
		decider.Queue:  frontier.QueueSet(vs, deg),
		decider.Bitmap: frontier.BitmapSet(bm, deg),
	}
}

// TestForFrontier: under every representation and mapping, on every
// shared graph and worker count, the advance hands out each arc of the
// set's vertices exactly once, with the vertex it leaves, and no other arc.
func TestForFrontier(t *testing.T) {
	for _, c := range testgraphs.Cases() {
		g := c.G
		off := g.Offsets()
		vs, deg := subset(g)
		in := make([]bool, g.NumVertices())
		for _, v := range vs {
			in[v] = true
		}
		for _, workers := range workerCounts {
			pool := mapping.NewPool(workers)
			for rep, s := range sets(g, vs, deg) {
				for _, m := range []decider.Mapping{decider.Thread, decider.Block} {
					name := fmt.Sprintf("%s/%v/%v/%d workers", c.Name, rep, m, workers)
					adv := frontier.New(pool, off, frontier.DefaultGrains)
					seen := make([]int32, g.NumEdges())
					var bad atomic.Int64
					adv.ForFrontier(s, m, func(w int, u uint32, lo, hi int64) {
						// Thread mapping: the whole neighbourhood (maybe
						// empty); block mapping: a non-empty piece of it.
						whole := lo == off[u] && hi == off[u+1]
						if w < 0 || w >= workers || lo < off[u] || hi > off[u+1] || m == decider.Thread && !whole || m == decider.Block && lo >= hi {
							bad.Add(1)
							return
						}
						for e := lo; e < hi; e++ {
							atomic.AddInt32(&seen[e], 1)
						}
					})
					if bad.Load() > 0 {
						t.Errorf("%s: %d calls with a bad worker or arc range", name, bad.Load())
					}
					for u := range g.NumVertices() {
						want := int32(0)
						if in[u] {
							want = 1
						}
						for e := off[u]; e < off[u+1]; e++ {
							if seen[e] != want {
								t.Fatalf("%s: arc %d of vertex %d visited %d times, want %d", name, e, u, seen[e], want)
							}
						}
					}
				}
			}
			pool.Close()
		}
	}
}

// TestBitmapThreadMapping: thread mapping over a bitmap visits every set
// vertex once with its whole neighbourhood; a working set of at most
// SerialEdges out-edges runs on the caller (worker 0), a larger one in the
// graph's edge-balanced pieces on several workers.
func TestBitmapThreadMapping(t *testing.T) {
	g, err := graph.Generate("kron:12:8", graph.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := g.NumVertices()
	pool := mapping.NewPool(4)
	defer pool.Close()
	adv := frontier.New(pool, g.Offsets(), frontier.DefaultGrains)
	bm := workset.NewBitmap(n)
	for _, c := range []struct {
		name  string
		every int // set every vertex v with v%every == 0
		small bool
	}{{"few", 997, true}, {"all", 1, false}, {"half", 2, false}} {
		bm.Clear(pool)
		var deg int64
		for v := 0; v < n; v += c.every {
			bm.Set(uint32(v))
			deg += g.Degree(uint32(v))
		}
		if small := deg <= frontier.DefaultGrains.SerialEdges; small != c.small {
			t.Fatalf("%s: %d out-edges, want the case small=%v", c.name, deg, c.small)
		}
		seen := make([]int32, n)
		var others atomic.Int32
		adv.ForFrontier(frontier.BitmapSet(bm, deg), decider.Thread, func(w int, u uint32, lo, hi int64) {
			if w != 0 {
				others.Add(1)
			}
			if hi-lo != g.Degree(u) {
				t.Errorf("%s: vertex %d got %d of its %d out-arcs", c.name, u, hi-lo, g.Degree(u))
			}
			atomic.AddInt32(&seen[u], 1)
		})
		for v := range n {
			want := int32(0)
			if v%c.every == 0 {
				want = 1
			}
			if seen[v] != want {
				t.Fatalf("%s: vertex %d visited %d times, want %d", c.name, v, seen[v], want)
			}
		}
		if c.small && others.Load() != 0 {
			t.Errorf("%s: %d out-edges ran on %d other workers' calls, want the caller alone", c.name, deg, others.Load())
		}
	}
}

// TestForArcsFilter: ForArcs visits exactly the arcs its filter accepts,
// each once, with its CSR position and ends.
func TestForArcsFilter(t *testing.T) {
	g := testgraphs.RMAT(10, 8, 3)
	off, adj := g.Offsets(), g.Adj()
	vs, deg := subset(g)
	keep := func(arc int64, u, x uint32) bool { return arc%3 != 0 && u != x }
	for _, workers := range workerCounts {
		pool := mapping.NewPool(workers)
		for rep, s := range sets(g, vs, deg) {
			for _, m := range []decider.Mapping{decider.Thread, decider.Block} {
				name := fmt.Sprintf("%v/%v/%d workers", rep, m, workers)
				seen := make([]int32, len(adj))
				var bad atomic.Int64
				stopped := frontier.New(pool, off, frontier.DefaultGrains).ForArcs(s, m, adj, keep, func(w int, arc int64, u, x uint32) bool {
					if adj[arc] != x || arc < off[u] || arc >= off[u+1] {
						bad.Add(1)
					}
					atomic.AddInt32(&seen[arc], 1)
					return true
				})
				if stopped || bad.Load() > 0 {
					t.Errorf("%s: stopped %v, %d arcs with wrong ends", name, stopped, bad.Load())
				}
				for _, u := range vs {
					for e := off[u]; e < off[u+1]; e++ {
						want := int32(0)
						if keep(e, u, adj[e]) {
							want = 1
						}
						if seen[e] != want {
							t.Fatalf("%s: arc %d visited %d times, want %d", name, e, seen[e], want)
						}
					}
				}
			}
		}
		pool.Close()
	}
}

// TestForArcsEarlyExit: a visit returning false stops the advance: on one
// worker no arc after it is visited; on several, ForArcs reports the stop
// and every worker stops at its next vertex.
func TestForArcsEarlyExit(t *testing.T) {
	g := testgraphs.Grid(40, 40)
	off, adj := g.Offsets(), g.Adj()
	vs := make([]uint32, g.NumVertices())
	for i := range vs {
		vs[i] = uint32(i)
	}
	const stopAt = 100 // the 101st arc visited stops the advance
	for _, workers := range workerCounts {
		pool := mapping.NewPool(workers)
		var visited atomic.Int64
		stopped := frontier.New(pool, off, frontier.DefaultGrains).ForArcs(frontier.QueueSet(vs, g.NumEdges()), decider.Thread, adj, nil,
			func(int, int64, uint32, uint32) bool { return visited.Add(1) <= stopAt })
		if !stopped {
			t.Errorf("%d workers: not stopped", workers)
		}
		// Each worker may finish the vertex it is in: at most 4 arcs each.
		if got := visited.Load(); got < stopAt+1 || got > stopAt+int64(4*workers) || workers == 1 && got != stopAt+1 {
			t.Errorf("%d workers: %d arcs visited, want %d (one worker) or a few more", workers, got, stopAt+1)
		}
		pool.Close()
	}
}

// refBFS is a sequential BFS along out-arcs or, with in, along in-arcs
// backwards, following the arcs keep accepts (nil: all).
func refBFS(g *graph.Graph, sources []uint32, in bool, keep frontier.ArcFilter) []uint32 {
	n := g.NumVertices()
	off, adj := g.Offsets(), g.Adj()
	type arc struct {
		pos  int64
		to   uint32
		from uint32
	}
	nbrs := make([][]arc, n)
	for u := range n {
		for e := off[u]; e < off[u+1]; e++ {
			if in {
				nbrs[adj[e]] = append(nbrs[adj[e]], arc{e, uint32(u), adj[e]})
			} else {
				nbrs[u] = append(nbrs[u], arc{e, adj[e], uint32(u)})
			}
		}
	}
	lv := make([]uint32, n)
	for i := range lv {
		lv[i] = frontier.Unreached
	}
	var q []uint32
	for _, s := range sources {
		if lv[s] == frontier.Unreached {
			lv[s] = 0
			q = append(q, s)
		}
	}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, a := range nbrs[u] {
			if lv[a.to] == frontier.Unreached && (keep == nil || keep(a.pos, a.from, a.to)) {
				lv[a.to] = lv[u] + 1
				q = append(q, a.to)
			}
		}
	}
	return lv
}

// TestBFS: on every shared graph, in both directions, with and without a
// filter, under both mappings and every worker count, the levels equal a
// sequential BFS's.
func TestBFS(t *testing.T) {
	filters := map[string]frontier.ArcFilter{"all": nil, "arc%3": func(arc int64, _, _ uint32) bool { return arc%3 != 2 }}
	for _, c := range testgraphs.Cases() {
		g := c.G
		n := g.NumVertices()
		for fname, f := range filters {
			for dname, dir := range map[string]frontier.Direction{"out": frontier.Out, "in": frontier.In} {
				want := refBFS(g, c.Sources, dir == frontier.In, f)
				var wantLevels int
				var wantReached int64
				for _, l := range want {
					if l != frontier.Unreached {
						wantReached++
						wantLevels = max(wantLevels, int(l)+1)
					}
				}
				for _, workers := range workerCounts {
					pool := mapping.NewPool(workers)
					b := frontier.NewBFS(pool, g)
					for _, m := range []decider.Mapping{decider.Thread, decider.Block} {
						name := fmt.Sprintf("%s/%s/%s/%v/%d workers", c.Name, fname, dname, m, workers)
						got := make([]uint32, n)
						res, err := b.Run(c.Sources, frontier.Traversal{Dir: dir, Filter: f, Mapping: m}, got)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if !slices.Equal(got, want) {
							t.Fatalf("%s: levels differ from the sequential BFS's", name)
						}
						if res.Levels != wantLevels || res.Reached != wantReached || res.Stopped {
							t.Errorf("%s: %+v, want %d levels, %d reached, not stopped", name, res, wantLevels, wantReached)
						}
					}
					pool.Close()
				}
			}
		}
	}
}

// TestBFSUntil: a BFS told to stop at a target finishes the target's
// level, exactly, and reaches nothing beyond it, whatever the worker
// count.
func TestBFSUntil(t *testing.T) {
	g := testgraphs.Grid(30, 30)
	n := g.NumVertices()
	const target = 30*12 + 7 // level 19 from vertex 0
	want := refBFS(g, []uint32{0}, false, nil)
	tl := want[target]
	for _, workers := range workerCounts {
		pool := mapping.NewPool(workers)
		got := make([]uint32, n)
		res, err := frontier.NewBFS(pool, g).Run([]uint32{0}, frontier.Traversal{Until: func(v, _ uint32) bool { return v == target }}, got)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Stopped || res.Levels != int(tl)+1 {
			t.Errorf("%d workers: %+v, want stopped after %d levels", workers, res, tl+1)
		}
		for v := range n {
			w := want[v]
			if w > tl {
				w = frontier.Unreached
			}
			if got[v] != w {
				t.Fatalf("%d workers: vertex %d at level %d, want %d", workers, v, got[v], w)
			}
		}
		pool.Close()
	}
	// A source that is the target stops at once.
	pool := mapping.NewPool(2)
	defer pool.Close()
	got := make([]uint32, n)
	res, err := frontier.NewBFS(pool, g).Run([]uint32{5}, frontier.Traversal{Until: func(v, _ uint32) bool { return v == 5 }}, got)
	if err != nil || !res.Stopped || res.Levels != 1 || res.Reached != 1 {
		t.Errorf("source as target: %+v, %v; want stopped after one level of one vertex", res, err)
	}
}

// TestBFSResidual is max-flow's global relabel: a backward BFS from the
// sink over the arcs with residual capacity, where the capacity lives in
// an arc-indexed array.
func TestBFSResidual(t *testing.T) {
	// 0->1->3, 0->2->3, 1->2; the arc 2->3 is saturated, so 2 reaches the
	// sink only through nothing, and 0 through 1.
	g := testgraphs.MustBuild(4, false, [][2]uint32{{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}}, nil)
	off, adj := g.Offsets(), g.Adj()
	capacity := make([]int64, g.NumEdges())
	for u := range g.NumVertices() {
		for e := off[u]; e < off[u+1]; e++ {
			capacity[e] = 1
			if u == 2 && adj[e] == 3 {
				capacity[e] = 0
			}
		}
	}
	pool := mapping.NewPool(2)
	defer pool.Close()
	levels := make([]uint32, 4)
	res, err := frontier.BFSLevels(pool, g, []uint32{3}, func(arc int64, _, _ uint32) bool { return capacity[arc] > 0 }, true, levels)
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint32{2, 1, frontier.Unreached, 0}; !slices.Equal(levels, want) || res.Levels != 3 || res.Reached != 3 {
		t.Errorf("distances to the sink %v (%+v), want %v in 3 levels", levels, res, want)
	}
}

func TestBFSBadInput(t *testing.T) {
	g := testgraphs.Grid(3, 3)
	pool := mapping.NewPool(1)
	defer pool.Close()
	b := frontier.NewBFS(pool, g)
	for _, tc := range []struct {
		name    string
		sources []uint32
		levels  int
		msg     string
	}{
		{"short levels", []uint32{0}, 8, "8 levels for a graph of 9 vertices"},
		{"source out of range", []uint32{0, 9}, 9, "source 9 of a graph of 9 vertices"},
	} {
		_, err := b.Run(tc.sources, frontier.Traversal{}, make([]uint32, tc.levels))
		if !errors.Is(err, frontier.ErrBadInput) || err.Error() != "frontier: bad input: "+tc.msg {
			t.Errorf("%s: %v, want ErrBadInput: %s", tc.name, err, tc.msg)
		}
	}
}
