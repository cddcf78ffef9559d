package cc

import (
	"slices"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/algorithms/internal/edgeset"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/runtime"
)

// svOp is Soman et al.'s algorithm as runtime iterations: each iteration
// hooks over the active edges (hiding those whose endpoints share a root),
// then jumps pointers until every tree is a star. Its working set is the
// set of active edges (the edge-set kit's Set): a bitmap over arcs (1 =
// hidden; for undirected graphs only the copy u < v of each edge is used)
// or a queue of packed edges u<<32 | v. It ends when a hook pass finds no
// edge joining two trees, which must happen: while some active edge joins
// two trees its hook, or a rival one, removes a root, and an edge inside
// one tree is hidden when next read, so no edge stays unmarked forever.
type svOp struct {
	base
	edges int64 // possible working-set elements: edges, not arcs
	ws    edgeset.Set[uint64]
	iter  int
}

func newSV(s base) *svOp {
	o := &svOp{base: s, edges: int64(len(s.adj))}
	if !o.directed {
		o.edges = (o.edges + 1) / 2
	}
	o.ws.Active = o.edges
	return o
}

func (o *svOp) Info() runtime.OperatorInfo {
	return runtime.OperatorInfo{Info: decider.Info{N: o.n, M: int64(len(o.adj)), Universe: o.edges, InitialSize: o.edges}}
}

func (o *svOp) Start(v decider.Variant) error {
	o.ws.Rep = v.Rep
	if o.ws.Rep == decider.Queue {
		o.ws.Queue = o.buildQueue(nil)
	} else {
		o.ws.Hidden = edgeset.NewBitmap(int64(len(o.adj)))
	}
	if o.edges == 0 {
		o.finish()
	}
	return nil
}

func (o *svOp) finish() {
	o.minLabels()
	o.Finished = true
}

// Inspect returns the edges found active by the last hook pass (an upper
// bound: some may have joined one tree since, to be hidden when next read)
// or the queue's length.
func (o *svOp) Inspect(bool) (int64, int64) { return o.ws.Inspect() }

// Step runs one hook pass; the next working set is the edges it found
// active.
func (o *svOp) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	e, err := o.compute(req.Variant)
	return runtime.StepResult{Edges: e, Size: o.ws.Active, Degree: -1}, err
}

func (o *svOp) compute(v decider.Variant) (int64, error) {
	if v.Rep != o.ws.Rep {
		if err := o.Convert(v.Rep); err != nil {
			return 0, err
		}
	}
	down := o.iter%2 == 0
	o.iter++
	var read int64
	if o.ws.Rep == decider.Bitmap {
		read = o.hookBitmap(down, v.Mapping)
	} else {
		read = int64(len(o.ws.Queue))
		o.hookQueue(down)
	}
	if o.ws.Active == 0 {
		o.finish() // every tree is a star already
	} else {
		o.compress()
	}
	return read, nil
}

func (o *svOp) Convert(r decider.Rep) error {
	if r == o.ws.Rep {
		return nil
	}
	if r == decider.Queue {
		o.ws.Queue = o.buildQueue(o.ws.Hidden)
		o.ws.Hidden = nil
	} else {
		o.ws.Hidden = o.bitmapFromQueue()
		o.ws.Queue = nil
	}
	o.ws.Rep = r
	return nil
}

// hook tries to re-point one root under the other for the edge u-v whose
// endpoints were seen in trees pu != pv. Orientation alternates between
// iterations (down: larger root under smaller; up: the reverse), so within
// one iteration every new pointer goes the same way and no cycle can form.
// The CAS hooks a vertex at most once in the whole run (a root never
// becomes one again), so the arc recorded for it is the one whose hook took
// effect. The corrected hook also re-points the endpoint on the hooked side,
// so its later edges see the new tree within this iteration.
func (o *svOp) hook(pu, pv, u, v uint32, down bool) bool {
	src, dst, x := pu, pv, u
	if (pu < pv) == down {
		src, dst, x = pv, pu, v
	}
	p := o.parent
	if atomic.LoadUint32(&p[src]) != src || !atomic.CompareAndSwapUint32(&p[src], src, dst) {
		return false // src was hooked by another edge; this one stays active
	}
	o.record(src, u, v)
	if x != src {
		atomic.StoreUint32(&p[x], dst)
	}
	return true
}

// hookBitmap runs one hook pass over the arcs not yet hidden and hides
// those whose endpoints share a root. Thread mapping gives workers whole
// vertices; block mapping splits long adjacency lists. It returns the arcs
// read.
func (o *svOp) hookBitmap(down bool, m decider.Mapping) int64 {
	off, adj, p, hidden, directed := o.off, o.adj, o.parent, o.ws.Hidden, o.directed
	edgeset.PassCSR(o.Pool, off, m, func(w, lo, hi int, eLo, eHi int64) {
		var a, read int64
		mk := edgeset.NewMarker()
		for u := lo; u < hi; u++ {
			uu := uint32(u)
			from, to := max(off[u], eLo), min(off[u+1], eHi)
			read += max(to-from, 0)
			for e := from; e < to; e++ {
				v := adj[e]
				if !edgeset.Canonical(uu, v, directed) || hidden.IsHidden(e) {
					continue
				}
				pu, pv := atomic.LoadUint32(&p[u]), atomic.LoadUint32(&p[v])
				if pu == pv {
					mk.Hide(hidden, e)
					continue
				}
				a++
				o.hook(pu, pv, uu, v, down)
			}
		}
		mk.Flush(hidden)
		o.Cnt[w].A += a
		o.Cnt[w].B += read
	})
	var read int64
	o.ws.Active, read = o.Sums()
	return read
}

// hookQueue runs one hook pass over the queue, compacting it in place to
// the edges that still joined two trees.
func (o *svOp) hookQueue(down bool) {
	p := o.parent
	o.ws.Queue = edgeset.Filter(o.Pool, o.ws.Queue, func(_ int, q []uint64) int {
		k := 0
		for _, x := range q {
			u, v := uint32(x>>32), uint32(x)
			pu, pv := atomic.LoadUint32(&p[u]), atomic.LoadUint32(&p[v])
			if pu == pv {
				continue
			}
			q[k] = x
			k++
			o.hook(pu, pv, u, v, down)
		}
		return k
	})
	o.ws.Active = int64(len(o.ws.Queue))
}

// buildQueue collects the canonical arcs not hidden whose endpoints lie in
// different trees (every tree is a star between iterations, so the test is
// exact), in vertex order.
func (o *svOp) buildQueue(hidden edgeset.Bitmap) []uint64 {
	off, adj, p, directed := o.off, o.adj, o.parent, o.directed
	q := edgeset.Collect(o.Pool, off, func(lo, hi int, emit func(uint64)) {
		for u := lo; u < hi; u++ {
			uu := uint32(u)
			pu := p[u]
			for e := off[u]; e < off[u+1]; e++ {
				v := adj[e]
				if !edgeset.Canonical(uu, v, directed) || p[v] == pu {
					continue
				}
				if hidden != nil && hidden[e>>6]&(uint64(1)<<(e&63)) != 0 {
					continue
				}
				emit(uint64(uu)<<32 | uint64(v))
			}
		}
	})
	o.ws.Active = int64(len(q))
	return q
}

// bitmapFromQueue hides every arc but the queued edges (found by binary
// search in their source's sorted list).
func (o *svOp) bitmapFromQueue() edgeset.Bitmap {
	hidden := edgeset.AllHidden(o.Pool, int64(len(o.adj)))
	for _, x := range o.ws.Queue {
		u, v := uint32(x>>32), uint32(x)
		nb := o.adj[o.off[u]:o.off[u+1]]
		i, _ := slices.BinarySearch(nb, v)
		for e := o.off[u] + int64(i); e < o.off[u+1] && o.adj[e] == v; e++ {
			hidden.Show(e)
		}
	}
	return hidden
}
