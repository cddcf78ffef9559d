package maxflow

import (
	"context"
	"fmt"
)

const none = ^uint32(0)

// seq is the serial push-relabel solver: highest-label selection with
// bucket lists and the gap heuristic (Cherkassky & Goldberg's hi_pr
// design), or FIFO selection; both with global relabels triggered by
// relabel work. One phase moves excess towards sink; the other terminal
// (blocked) keeps its label n and is never entered.
type seq struct {
	f       *flow
	fifo    bool
	n       int
	off     []int64
	head    []uint32
	rev     []int64
	cur     []int64
	next    []uint32 // active stack / inactive list links
	prev    []uint32
	bAct    []uint32 // first active vertex per label
	bIna    []uint32 // first inactive vertex per label
	queue   []uint32 // FIFO ring
	inQ     []bool
	aMax    int
	aMin    int
	dMax    int
	work    int64
	trigger int64
	scratch [2][]uint32
}

func newSeq(f *flow, fifo bool, k Knobs) *seq {
	n := f.n
	q := &seq{f: f, fifo: fifo, n: n, off: f.r.Off, head: f.r.Head, rev: f.r.Rev, cur: make([]int64, n)}
	if fifo {
		q.inQ = make([]bool, n)
	} else {
		q.next, q.prev = make([]uint32, n), make([]uint32, n)
		q.bAct, q.bIna = make([]uint32, n+1), make([]uint32, n+1)
	}
	q.trigger = k.trigger(n, f.r.NumArcs())
	return q
}

// run moves all excess it can to sink; blocked keeps label n.
func (q *seq) run(ctx context.Context, sink, blocked uint32) error {
	f := q.f
	q.globalRelabel(sink, blocked)
	for iter := 0; ; iter++ {
		if iter&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("maxflow: cancelled: %w", err)
			}
		}
		v := q.pop()
		if v == none {
			return nil
		}
		q.discharge(v, sink, blocked)
		if q.work > q.trigger {
			q.globalRelabel(sink, blocked)
		}
		_ = f
	}
}

func (q *seq) pop() uint32 {
	if q.fifo {
		for len(q.queue) > 0 {
			v := q.queue[0]
			q.queue = q.queue[1:]
			q.inQ[v] = false
			if q.f.exc[v] > 0 && int(q.f.d[v]) < q.n {
				return v
			}
		}
		return none
	}
	for ; q.aMax >= q.aMin; q.aMax-- {
		if v := q.bAct[q.aMax]; v != none {
			q.bAct[q.aMax] = q.next[v]
			return v
		}
	}
	return none
}

func (q *seq) activate(w uint32) {
	if q.fifo {
		if !q.inQ[w] {
			q.inQ[w] = true
			q.queue = append(q.queue, w)
		}
		return
	}
	// Move w from its label's inactive list to the active stack.
	k := q.f.d[w]
	q.unlinkInactive(w, k)
	q.next[w] = q.bAct[k]
	q.bAct[k] = w
	q.aMin = min(q.aMin, int(k))
	q.aMax = max(q.aMax, int(k))
}

func (q *seq) unlinkInactive(w, k uint32) {
	p, nx := q.prev[w], q.next[w]
	if p == none {
		q.bIna[k] = nx
	} else {
		q.next[p] = nx
	}
	if nx != none {
		q.prev[nx] = p
	}
}

func (q *seq) linkInactive(w, k uint32) {
	nx := q.bIna[k]
	q.prev[w], q.next[w] = none, nx
	if nx != none {
		q.prev[nx] = w
	}
	q.bIna[k] = w
}

// discharge pushes v's excess along admissible arcs from its current arc
// on, relabelling v when none is left, until v has no excess or its label
// reaches n.
func (q *seq) discharge(v, sink, blocked uint32) {
	f := q.f
	res, exc, d := f.res, f.exc, f.d
	n := uint32(q.n)
	for {
		dv := d[v]
		ex := exc[v]
		e, end := q.cur[v], q.off[v+1]
		for ; e < end; e++ {
			w := q.head[e]
			if d[w]+1 != dv {
				continue
			}
			r := res[e]
			if r == 0 {
				continue
			}
			delta := min(ex, r)
			res[e] = r - delta
			res[q.rev[e]] += delta
			if exc[w] == 0 && w != sink {
				q.activate(w)
			}
			exc[w] += delta
			ex -= delta
			f.pushes++
			if ex == 0 {
				break
			}
		}
		exc[v] = ex
		if ex == 0 {
			q.cur[v] = e
			if !q.fifo {
				q.linkInactive(v, dv)
			}
			return
		}
		// Relabel. Gap: v was the last vertex with label dv, so nothing
		// above it can reach the sink.
		if !q.fifo && q.bAct[dv] == none && q.bIna[dv] == none {
			q.gap(int(dv))
			d[v] = n
			return
		}
		nd, ne := n, int64(-1)
		for e := q.off[v]; e < end; e++ {
			if res[e] > 0 && d[q.head[e]] < nd-1 {
				nd, ne = d[q.head[e]]+1, e
			}
		}
		f.relabels++
		q.work += relabelCost + (end - q.off[v])
		d[v] = nd
		if nd >= n {
			return
		}
		q.cur[v] = ne
		if !q.fifo {
			q.dMax = max(q.dMax, int(nd))
			q.aMax = max(q.aMax, int(nd))
		} else {
			// FIFO: back to the end of the queue.
			q.inQ[v] = true
			q.queue = append(q.queue, v)
			return
		}
	}
}

// gap lifts every vertex labelled above k to n (only inactive ones can be
// there: k was the highest active label).
func (q *seq) gap(k int) {
	n := uint32(q.n)
	for j := k + 1; j <= q.dMax; j++ {
		for w := q.bIna[j]; w != none; w = q.next[w] {
			q.f.d[w] = n
		}
		q.bIna[j] = none
		q.bAct[j] = none
	}
	q.f.gaps++
	q.dMax = k - 1
	q.aMax = k - 1
}

// globalRelabel sets every label to the exact residual distance to sink
// (n where sink is unreachable) and rebuilds the active structures.
func (q *seq) globalRelabel(sink, blocked uint32) {
	f := q.f
	n := uint32(q.n)
	d, res, exc := f.d, f.res, f.exc
	for i := range d {
		d[i] = n
	}
	q.dMax = int(backwardBFS(nil, f.r, sink, d, n, func(e int64) bool { return res[e] > 0 }, &q.scratch))
	d[blocked] = n
	f.globals++
	q.work = 0
	copy(q.cur, q.off[:q.n])
	if q.fifo {
		q.queue = q.queue[:0]
		for v := range q.inQ {
			q.inQ[v] = false
		}
		for v := uint32(0); v < n; v++ {
			if exc[v] > 0 && d[v] < n && v != sink && v != blocked {
				q.inQ[v] = true
				q.queue = append(q.queue, v)
			}
		}
		return
	}
	for k := 0; k <= q.n; k++ {
		q.bAct[k], q.bIna[k] = none, none
	}
	q.aMax, q.aMin = 0, q.n
	for v := uint32(0); v < n; v++ {
		k := d[v]
		if k >= n || v == sink || v == blocked {
			continue
		}
		if exc[v] > 0 {
			q.next[v] = q.bAct[k]
			q.bAct[k] = v
			q.aMax, q.aMin = max(q.aMax, int(k)), min(q.aMin, int(k))
		} else {
			q.linkInactive(v, k)
		}
	}
}
