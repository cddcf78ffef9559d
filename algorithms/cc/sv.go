package cc

import (
	"slices"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/runtime"
)

// svOp is Soman et al.'s algorithm as runtime iterations: each iteration
// hooks over the active edges (hiding those whose endpoints share a root),
// then jumps pointers until every tree is a star. Its working set is the
// set of active edges: a bitmap over arcs (1 = hidden; for undirected
// graphs only the copy u < v of each edge is used) or a queue of packed
// edges u<<32 | v. It ends when a hook pass finds no edge joining two trees,
// which must happen: while some active edge joins two trees its hook, or a
// rival one, removes a root, and an edge inside one tree is hidden when
// next read, so no edge stays unmarked forever.
type svOp struct {
	base
	edges  int64 // possible working-set elements: edges, not arcs
	rep    decider.Rep
	hidden []uint64
	queue  []uint64
	iter   int
	active int64 // edges that joined two trees in the last hook pass
}

func newSV(s base) *svOp {
	o := &svOp{base: s, edges: int64(len(s.adj))}
	if !o.directed {
		o.edges = (o.edges + 1) / 2
	}
	o.active = o.edges
	return o
}

func (o *svOp) Info() runtime.OperatorInfo {
	return runtime.OperatorInfo{Info: decider.Info{N: o.n, M: int64(len(o.adj)), Universe: o.edges, InitialSize: o.edges}}
}

func (o *svOp) Start(v decider.Variant) error {
	o.rep = v.Rep
	if o.rep == decider.Queue {
		o.queue = o.buildQueue(nil)
	} else {
		o.hidden = make([]uint64, (len(o.adj)+63)/64)
	}
	if o.edges == 0 {
		o.finish()
	}
	return nil
}

func (o *svOp) finish() {
	o.minLabels()
	o.done = true
}

// Inspect returns the edges found active by the last hook pass (an upper
// bound: some may have joined one tree since, to be hidden when next read)
// or the queue's length.
func (o *svOp) Inspect(bool) (int64, int64) {
	if o.rep == decider.Queue {
		return int64(len(o.queue)), -1
	}
	return o.active, -1
}

// Step runs one hook pass; the next working set is the edges it found
// active.
func (o *svOp) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	e, err := o.compute(req.Variant)
	return runtime.StepResult{Edges: e, Size: o.active, Degree: -1}, err
}

func (o *svOp) compute(v decider.Variant) (int64, error) {
	if v.Rep != o.rep {
		if err := o.Convert(v.Rep); err != nil {
			return 0, err
		}
	}
	down := o.iter%2 == 0
	o.iter++
	var read int64
	if o.rep == decider.Bitmap {
		read = o.hookBitmap(down, v.Mapping)
	} else {
		read = int64(len(o.queue))
		o.hookQueue(down)
	}
	if o.active == 0 {
		o.finish() // every tree is a star already
	} else {
		o.compress()
	}
	return read, nil
}

func (o *svOp) Convert(r decider.Rep) error {
	if r == o.rep {
		return nil
	}
	if r == decider.Queue {
		o.queue = o.buildQueue(o.hidden)
		o.hidden = nil
	} else {
		o.hidden = o.bitmapFromQueue()
		o.queue = nil
	}
	o.rep = r
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

// canonical reports whether arc u->v stands for its edge in the working
// set: for undirected graphs only the copy with u < v; for directed graphs
// every arc but self-loops (weak connectivity treats arcs as edges).
func canonical(u, v uint32, directed bool) bool {
	if directed {
		return u != v
	}
	return u < v
}

// hookBitmap runs one hook pass over the arcs not yet hidden and hides
// those whose endpoints share a root. Thread mapping gives workers whole
// vertices; block mapping splits long adjacency lists. It returns the arcs
// read.
func (o *svOp) hookBitmap(down bool, m decider.Mapping) int64 {
	off, adj, p, hidden, directed := o.off, o.adj, o.parent, o.hidden, o.directed
	pass := func(w, lo, hi int, eLo, eHi int64) {
		var a, read int64
		word, bits := int64(-1), uint64(0)
		for u := lo; u < hi; u++ {
			uu := uint32(u)
			from, to := max(off[u], eLo), min(off[u+1], eHi)
			read += max(to-from, 0)
			for e := from; e < to; e++ {
				v := adj[e]
				if !canonical(uu, v, directed) {
					continue
				}
				i, b := e>>6, uint64(1)<<(e&63)
				if atomic.LoadUint64(&hidden[i])&b != 0 {
					continue
				}
				pu, pv := atomic.LoadUint32(&p[u]), atomic.LoadUint32(&p[v])
				if pu == pv {
					// Neighbouring chunks may share a word: set bits a
					// word at a time with one atomic OR each.
					if i != word {
						if bits != 0 {
							atomic.OrUint64(&hidden[word], bits)
						}
						word, bits = i, 0
					}
					bits |= b
					continue
				}
				a++
				o.hook(pu, pv, uu, v, down)
			}
		}
		if bits != 0 {
			atomic.OrUint64(&hidden[word], bits)
		}
		o.cnt[w].a += a
		o.cnt[w].b += read
	}
	if m == decider.Block {
		o.pool.Block(off, 1<<12, pass)
	} else {
		o.pool.Thread(o.n, 1<<10, func(w, lo, hi int) { pass(w, lo, hi, 0, int64(len(adj))) })
	}
	var read int64
	o.active, read = o.sums()
	return read
}

// hookQueue runs one hook pass over the queue, compacting it in place to
// the edges that still joined two trees. Each worker compacts a fixed
// slice of its own, then the pieces are moved together.
func (o *svOp) hookQueue(down bool) {
	q, p := o.queue, o.parent
	w := o.pool.Workers()
	kept := make([]int, w)
	bound := func(i int) int { return int(int64(len(q)) * int64(i) / int64(w)) }
	o.pool.Run(func(t int) {
		lo, hi := bound(t), bound(t+1)
		k := lo
		for i := lo; i < hi; i++ {
			x := q[i]
			u, v := uint32(x>>32), uint32(x)
			pu, pv := atomic.LoadUint32(&p[u]), atomic.LoadUint32(&p[v])
			if pu == pv {
				continue
			}
			q[k] = x
			k++
			o.hook(pu, pv, u, v, down)
		}
		kept[t] = k - lo
	})
	n := 0
	for t := 0; t < w; t++ {
		n += copy(q[n:], q[bound(t):bound(t)+kept[t]])
	}
	o.queue = q[:n]
	o.active = int64(n)
}

// buildQueue collects the canonical arcs not hidden whose endpoints lie in
// different trees (every tree is a star between iterations, so the test is
// exact). It counts per edge-balanced vertex range first and then fills, so
// the queue is written once, in vertex order.
func (o *svOp) buildQueue(hidden []uint64) []uint64 {
	off, adj, p, directed := o.off, o.adj, o.parent, o.directed
	parts := edgeParts(off, 32*o.pool.Workers())
	k := len(parts) - 1
	count := make([]int64, k+1)
	scan := func(part int, emit func(x uint64)) {
		for u := parts[part]; u < parts[part+1]; u++ {
			uu := uint32(u)
			pu := p[u]
			for e := off[u]; e < off[u+1]; e++ {
				v := adj[e]
				if !canonical(uu, v, directed) || p[v] == pu {
					continue
				}
				if hidden != nil && hidden[e>>6]&(uint64(1)<<(e&63)) != 0 {
					continue
				}
				emit(uint64(uu)<<32 | uint64(v))
			}
		}
	}
	o.pool.Thread(k, 1, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			var c int64
			scan(i, func(uint64) { c++ })
			count[i] = c
		}
	})
	total := o.pool.PrefixSum(count)
	q := make([]uint64, total)
	o.pool.Thread(k, 1, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			j := count[i]
			scan(i, func(x uint64) { q[j] = x; j++ })
		}
	})
	o.active = total
	return q
}

// edgeParts splits 0..n into at most k vertex ranges of about equal arc
// (plus vertex) counts.
func edgeParts(off []int64, k int) []int {
	n := len(off) - 1
	bounds := []int{0}
	if n <= 0 {
		return append(bounds, 0)
	}
	total := off[n] + int64(n)
	for i := 1; i < k; i++ {
		target := total * int64(i) / int64(k)
		lo, hi := bounds[len(bounds)-1], n
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if off[mid]+int64(mid) < target {
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

// bitmapFromQueue hides every arc but the queued edges (found by binary
// search in their source's sorted list).
func (o *svOp) bitmapFromQueue() []uint64 {
	hidden := make([]uint64, (len(o.adj)+63)/64)
	for i := range hidden {
		hidden[i] = ^uint64(0)
	}
	for _, x := range o.queue {
		u, v := uint32(x>>32), uint32(x)
		nb := o.adj[o.off[u]:o.off[u+1]]
		i, _ := slices.BinarySearch(nb, v)
		for e := o.off[u] + int64(i); e < o.off[u+1] && o.adj[e] == v; e++ {
			hidden[e>>6] &^= 1 << (e & 63)
		}
	}
	return hidden
}
