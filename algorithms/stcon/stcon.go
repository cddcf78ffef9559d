package stcon

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/workset"
)

// ErrVertex is wrapped when s or t is out of range.
var ErrVertex = errors.New("vertex out of range")

// Result is one query's answer.
type Result struct {
	s, t      uint32
	reachable bool
	hops      int
	path      []uint32
	ids       graph.IDMap
	stats     runtime.Stats
	// Visited counts the vertices the two sides labelled (both sources
	// included), Arcs the arcs they examined.
	Visited, Arcs int64
}

// Source and Target return the query's vertices.
func (r *Result) Source() uint32 { return r.s }
func (r *Result) Target() uint32 { return r.t }

// Reachable reports whether t is reachable from s.
func (r *Result) Reachable() bool { return r.reachable }

// Hops returns the arcs of a shortest path from s to t (0 when s == t)
// and false when t is unreachable.
func (r *Result) Hops() (int, bool) { return r.hops, r.reachable }

// Path returns a shortest path from s to t in internal ids, s first and t
// last (Hops arcs), and false when t is unreachable.
func (r *Result) Path() ([]uint32, bool) { return r.path, r.reachable }

// PathIDs is Path in the graph file's ids.
func (r *Result) PathIDs() ([]uint64, bool) {
	if !r.reachable {
		return nil, false
	}
	return frontier.PathIDs(r.path, r.ids), true
}

// Stats returns the query's statistics: Iterations is the levels the two
// sides expanded together, Variants counts them per side and mapping.
func (r *Result) Stats() runtime.Stats { return r.stats }

// Run answers one st-connectivity query on g: whether t is reachable from
// s, in how many hops, and by which shortest path. It searches from s
// along out-arcs and from t along in-arcs (the transpose, built and cached
// by the graph on first use; an undirected graph is its own) at once and
// stops at the level where the two searches meet. Each level expands the
// side whose frontier has fewer out-arcs (on its own graph), so a hub on
// one side waits while the other side catches up; a frontier is a queue,
// advanced under thread mapping, or block mapping when its vertices
// average more than blockDegree arcs (a hub's arcs shared among workers).
// Options: the backend and, on the CPU, WithMapping to force a mapping.
// Runs reuse the buffers of earlier runs on the same graph, touching only
// what they visited. On the GPU one persistent launch runs the whole
// search and stops when the sides meet; the graph stays on the device
// between queries (see stcon_cuda.go).
func Run(ctx context.Context, g *graph.Graph, s, t uint32, opts ...runtime.Option) (*Result, error) {
	if err := runtime.CheckArgs("stcon", ctx, g); err != nil {
		return nil, err
	}
	n := g.NumVertices()
	for _, v := range []struct {
		name string
		id   uint32
	}{{"source", s}, {"target", t}} {
		if int64(v.id) >= int64(n) {
			return nil, fmt.Errorf("stcon: %w: %s %d, graph has %d vertices", ErrVertex, v.name, v.id, n)
		}
	}
	cfg := runtime.NewConfigFor("bfs", opts...)
	cpu, ok := cfg.Backend().(*runtime.CPU)
	if !ok {
		ds, ok := devices.New(cfg.Backend(), g)
		if !ok {
			return nil, fmt.Errorf("stcon: backend %s: %w", cfg.Backend().Name(), runtime.ErrUnsupported)
		}
		return ds.query(ctx, s, t)
	}
	if err := cpu.Configure(decider.KnobLayers{}); err != nil { // a negative worker count
		return nil, fmt.Errorf("stcon: %w", err)
	}
	var forced *decider.Mapping
	if v, ok := cfg.Value(mappingKey{}); ok {
		m := v.(decider.Mapping)
		forced = &m
	}
	sr := take(g)
	defer searchers.Put(sr)
	pool := cpu.NewPool()
	defer pool.Release()
	return sr.query(ctx, pool, s, t, forced)
}

// devices holds the searchers of backends other than the CPU (the GPU's,
// stcon_cuda.go with build tag cuda): one per graph, kept for the next
// query on it (--pairs uploads the graph once).
var devices algorithms.Backends[*graph.Graph, deviceSearcher]

type deviceSearcher interface {
	query(ctx context.Context, s, t uint32) (*Result, error)
}

// WithMapping forces the advance's mapping (decider.Thread or Block) on
// every level of both sides.
func WithMapping(m decider.Mapping) runtime.Option { return runtime.WithValue(mappingKey{}, m) }

type mappingKey struct{}

// blockDegree: a frontier whose vertices average more arcs than this is
// advanced under block mapping (BFS's hubs rule of thumb: one vertex's
// arcs then fill several chunks of frontier.DefaultGrains.Edge).
const blockDegree = 256

// searchers keeps searchers for the next query on the same graph (--pairs:
// labels are reset only where the last query wrote them).
var searchers sync.Pool // of *searcher

func take(g *graph.Graph) *searcher {
	if s, ok := searchers.Get().(*searcher); ok && s.g == g {
		return s
	}
	return newSearcher(g)
}

// side is one of the two searches.
type side struct {
	g         *graph.Graph // g for the s side, its transpose for the t side
	off       []int64
	adj       []uint32
	level     []uint32 // frontier.Unreached where unlabelled
	parent    []uint32 // the vertex it was reached from (s side: a tail; t side: a head)
	cur, next *workset.Queue
	deg       int64 // the frontier's summed out-degree
	depth     uint32
	touched   []uint32 // every labelled vertex, to reset
}

type searcher struct {
	g     *graph.Graph
	sides [2]side
	bufs  []workset.Buffer
	advs  [2]*frontier.Advance
	pool  *mapping.Pool
}

func newSearcher(g *graph.Graph) *searcher {
	n := g.NumVertices()
	sr := &searcher{g: g}
	for i, h := range []*graph.Graph{g, g.Transpose()} {
		sd := &sr.sides[i]
		sd.g, sd.off, sd.adj = h, h.Offsets(), h.Adj()
		sd.level, sd.parent = make([]uint32, n), make([]uint32, n)
		for v := range n {
			sd.level[v] = frontier.Unreached
		}
		sd.cur, sd.next = workset.NewQueue(n), workset.NewQueue(n)
	}
	return sr
}

func (sr *searcher) reset() {
	for i := range sr.sides {
		sd := &sr.sides[i]
		for _, v := range sd.touched {
			sd.level[v] = frontier.Unreached
		}
		sd.touched = sd.touched[:0]
		sd.cur.Reset()
		sd.next.Reset()
		sd.depth, sd.deg = 0, 0
	}
}

// newQuery sets up a query's result and statistics on backend; finish
// (deferred) records its time and arcs, and done reports s == t, answered
// already.
func newQuery(g *graph.Graph, s, t uint32, backend string) (res *Result, st *runtime.Stats, finish func(), done bool) {
	start := time.Now()
	res = &Result{s: s, t: t, ids: g.IDs()}
	st = &runtime.Stats{Algorithm: "stcon", Backend: backend, Policy: "two-sided", Variants: map[string]int{}}
	finish = func() {
		st.Wall = time.Since(start)
		st.EdgesRelaxed = res.Arcs
		res.stats = *st
	}
	if s == t {
		res.reachable, res.path, res.Visited = true, []uint32{s}, 1
		done = true
	}
	return res, st, finish, done
}

func (sr *searcher) query(ctx context.Context, pool *mapping.Pool, s, t uint32, forced *decider.Mapping) (*Result, error) {
	res, st, finish, done := newQuery(sr.g, s, t, "cpu")
	defer finish()
	if done {
		return res, nil
	}
	sr.reset()
	if sr.pool != pool {
		sr.pool = pool
		sr.advs[0] = frontier.New(pool, sr.sides[0].off, frontier.DefaultGrains)
		sr.advs[1] = frontier.New(pool, sr.sides[1].off, frontier.DefaultGrains)
	}
	if len(sr.bufs) < pool.Workers() {
		sr.bufs = make([]workset.Buffer, pool.Workers())
	}
	for i, v := range []uint32{s, t} {
		sd := &sr.sides[i]
		sd.level[v], sd.parent[v] = 0, frontier.NoParent
		sd.touched = append(sd.touched, v)
		sd.cur.Push(v)
		sd.deg = sd.off[v+1] - sd.off[v]
	}
	res.Visited = 2
	var met atomic.Bool
	var meetA, meetB uint32 // the arc a->b of g where the sides met
	arcs := make([]int64, pool.Workers())
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("stcon: cancelled after %d levels: %w", st.Iterations, err)
		}
		a, b := &sr.sides[0], &sr.sides[1]
		if a.cur.Len() == 0 || b.cur.Len() == 0 {
			break // one side has labelled all it reaches without meeting the other
		}
		i := 0
		if b.deg < a.deg {
			i = 1
		}
		me, other := &sr.sides[i], &sr.sides[1-i]
		m := decider.Thread
		if me.deg > blockDegree*int64(me.cur.Len()) {
			m = decider.Block
		}
		if forced != nil {
			m = *forced
		}
		st.Iterations++
		st.Variants[[2]string{"s", "t"}[i]+"_"+m.String()]++
		nl := me.depth + 1
		clear(arcs)
		sr.advs[i].ForArcs(frontier.QueueSet(me.cur.Items(), me.deg), m, me.adj, nil, func(w int, _ int64, u, x uint32) bool {
			arcs[w]++
			if other.level[x] != frontier.Unreached {
				// The sides meet: every other side's label is at most its
				// depth, and no path shorter than me.depth+1+other.depth
				// exists (it would have met on an earlier level), so this
				// arc closes a shortest path.
				if met.CompareAndSwap(false, true) {
					if i == 0 {
						meetA, meetB = u, x
					} else {
						meetA, meetB = x, u
					}
				}
				return false
			}
			if atomic.LoadUint32(&me.level[x]) == frontier.Unreached && atomic.CompareAndSwapUint32(&me.level[x], frontier.Unreached, nl) {
				me.parent[x] = u
				sr.bufs[w].Add(me.next, x)
			}
			return true
		})
		for _, c := range arcs {
			res.Arcs += c
		}
		for w := range sr.bufs {
			sr.bufs[w].Flush(me.next)
		}
		items := me.next.Items()
		me.touched = append(me.touched, items...)
		res.Visited += int64(len(items))
		if met.Load() {
			break
		}
		me.cur.Swap(me.next)
		me.next.Reset()
		me.depth = nl
		me.deg = 0
		for _, v := range me.cur.Items() {
			me.deg += me.off[v+1] - me.off[v]
		}
	}
	if !met.Load() {
		return res, nil
	}
	// s .. meetA along the s side's parents, then meetB .. t along the t
	// side's (each t-side parent is the next vertex towards t).
	sp, _ := frontier.Path(sr.sides[0].parent, meetA) // parents of labelled vertices end at s
	path := sp
	for v := meetB; ; v = sr.sides[1].parent[v] {
		path = append(path, v)
		if v == t {
			break
		}
	}
	res.reachable, res.hops, res.path = true, len(path)-1, path
	return res, nil
}
