package maxflow

import (
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/mapping"
)

// ArcFilter says whether the BFS may walk arc e (an index into the residual
// arrays). The global relabel walks arcs backwards: from u it reaches w
// over the arc w->u, so it is asked about Rev of u's arc.
type ArcFilter func(e int64) bool

// backwardBFS labels every vertex with its distance to root over the arcs
// that filter admits (nil: those with res[e] > 0, tested inline, which
// halves a global relabel's time against a call per arc), walked backwards; d must hold unset for every vertex
// but those fixed beforehand (the blocked terminal), which the BFS never
// enters. It returns the largest distance found. Level-synchronous: a
// level of under bfsSerial vertices runs on the caller, a larger one on
// the pool's workers with a compare-and-swap per label, so the labels do
// not depend on the worker count (a BFS distance is unique).
//
// kitRelabel is the same relabel on the frontier kit (useKitBFS).
func backwardBFS(pool *mapping.Pool, r *graph.Residual, root uint32, d []uint32, unset uint32, res []int64, filter ArcFilter, scratch *[2][]uint32) uint32 {
	off, head, rev := r.Off, r.Head, r.Rev
	d[root] = 0
	cur := append((*scratch)[0][:0], root)
	next := (*scratch)[1][:0]
	var level uint32
	workers := 1
	if pool != nil {
		workers = pool.Workers()
	}
	bufs := make([][]uint32, workers)
	inline := filter == nil
	if inline {
		filter = func(e int64) bool { return res[e] > 0 }
	}
	for len(cur) > 0 {
		nl := level + 1
		if (workers == 1 || len(cur) < bfsSerial) && inline {
			for _, u := range cur {
				for e := off[u]; e < off[u+1]; e++ {
					w := head[e]
					if d[w] == unset && res[rev[e]] > 0 {
						d[w] = nl
						next = append(next, w)
					}
				}
			}
		} else if workers == 1 || len(cur) < bfsSerial {
			for _, u := range cur {
				for e := off[u]; e < off[u+1]; e++ {
					w := head[e]
					if d[w] == unset && filter(rev[e]) {
						d[w] = nl
						next = append(next, w)
					}
				}
			}
		} else {
			pool.Thread(len(cur), 256, func(wk, lo, hi int) {
				b := bufs[wk]
				for _, u := range cur[lo:hi] {
					for e := off[u]; e < off[u+1]; e++ {
						w := head[e]
						if atomic.LoadUint32(&d[w]) == unset && filter(rev[e]) && atomic.CompareAndSwapUint32(&d[w], unset, nl) {
							b = append(b, w)
						}
					}
				}
				bufs[wk] = b
			})
			for i, b := range bufs {
				next = append(next, b...)
				bufs[i] = b[:0]
			}
		}
		if len(next) == 0 {
			break
		}
		level = nl
		cur, next = next, cur[:0]
	}
	scratch[0], scratch[1] = cur, next
	return level
}

// bfsSerial is the frontier size below which a BFS level runs on the
// caller: waking the workers costs about as much as a few hundred arcs.
const bfsSerial = 512

// useKitBFS selects the global relabel of the Sync solver: the frontier
// kit's BFS with the residual-arc filter (kitRelabel) or backwardBFS.
// backwardBFS stays the default: its residual test is inline, where the
// kit calls the filter per arc and converts its levels in a second pass;
// the Sync benchmarks (vision 150x150, GENRMF 32x64, RLG 256x256) took
// about 14% more CPU time through the kit on 2 cores. Tests run both.
var useKitBFS = false

// kitRelabel is the Sync solver's global relabel on the frontier kit: a
// BFS from the sink over the residual arrays, entering x from u over the
// arc u->x when its reverse x->u has residual capacity and x is not the
// blocked terminal; it sets d (n where unreached) and returns the largest
// label.
func (o *syncOp) kitRelabel() uint32 {
	f := o.f
	n := uint32(o.n)
	if o.kit == nil {
		o.kit = frontier.NewCSRBFS(o.pool, f.r.Off, f.r.Head)
		o.levels = make([]uint32, o.n)
	}
	res, rev, blocked := f.res, f.r.Rev, o.blocked
	filter := func(e int64, _, x uint32) bool { return x != blocked && res[rev[e]] > 0 }
	r, _ := o.kit.Run([]uint32{o.sink}, frontier.Traversal{Filter: filter}, o.levels) // the sink is a vertex: no error
	d, lv := f.d, o.levels
	o.pool.Thread(o.n, 1<<14, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if l := lv[i]; l != frontier.Unreached {
				d[i] = l
			} else {
				d[i] = n
			}
		}
	})
	return uint32(max(r.Levels-1, 0))
}
