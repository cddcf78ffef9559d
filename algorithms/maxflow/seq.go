package maxflow

import (
	"context"
	"fmt"
)

const none = ^uint32(0)

type sArc struct {
	res  int64
	rev  int64
	head uint32
}

type sNode struct {
	exc        int64
	cur        int64
	d          uint32
	next, prev uint32 // active stack / inactive list links
}

// seq is the serial push-relabel solver: highest-label selection with
// bucket lists and the gap heuristic (Cherkassky & Goldberg's hi_pr
// design), or FIFO selection; both with global relabels triggered by
// relabel work. One phase moves excess towards sink; the other terminal
// (blocked) keeps its label n and is never entered.
type seq struct {
	f    *flow
	fifo bool
	n    int
	off  []int64
	// The serial solver keeps arcs and vertices as records, not as
	// parallel arrays: a push touches one cache line of each instead of
	// three, which made it about twice as fast.
	arcs    []sArc
	nodes   []sNode
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
	q := &seq{f: f, fifo: fifo, n: n, off: f.r.Off, arcs: make([]sArc, len(f.res)), nodes: make([]sNode, n)}
	for e := range q.arcs {
		q.arcs[e] = sArc{res: f.res[e], rev: f.r.Rev[e], head: f.r.Head[e]}
	}
	for v := range q.nodes {
		q.nodes[v].exc = f.exc[v]
	}
	if fifo {
		q.inQ = make([]bool, n)
	} else {
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
			for e := range q.arcs {
				f.res[e] = q.arcs[e].res
			}
			for v := range q.nodes {
				f.exc[v], f.d[v] = q.nodes[v].exc, q.nodes[v].d
			}
			return nil
		}
		q.discharge(v, sink, blocked)
		if q.work > q.trigger {
			q.globalRelabel(sink, blocked)
		}
	}
}

func (q *seq) pop() uint32 {
	if q.fifo {
		for len(q.queue) > 0 {
			v := q.queue[0]
			q.queue = q.queue[1:]
			q.inQ[v] = false
			if q.nodes[v].exc > 0 && int(q.nodes[v].d) < q.n {
				return v
			}
		}
		return none
	}
	for ; q.aMax >= q.aMin; q.aMax-- {
		if v := q.bAct[q.aMax]; v != none {
			q.bAct[q.aMax] = q.nodes[v].next
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
	k := q.nodes[w].d
	q.unlinkInactive(w, k)
	q.nodes[w].next = q.bAct[k]
	q.bAct[k] = w
	q.aMin = min(q.aMin, int(k))
	q.aMax = max(q.aMax, int(k))
}

func (q *seq) unlinkInactive(w, k uint32) {
	p, nx := q.nodes[w].prev, q.nodes[w].next
	if p == none {
		q.bIna[k] = nx
	} else {
		q.nodes[p].next = nx
	}
	if nx != none {
		q.nodes[nx].prev = p
	}
}

func (q *seq) linkInactive(w, k uint32) {
	nx := q.bIna[k]
	q.nodes[w].prev, q.nodes[w].next = none, nx
	if nx != none {
		q.nodes[nx].prev = w
	}
	q.bIna[k] = w
}

// discharge pushes v's excess along admissible arcs from its current arc
// on, relabelling v when none is left, until v has no excess or its label
// reaches n.
func (q *seq) discharge(v, sink, blocked uint32) {
	f := q.f
	arcs, nodes := q.arcs, q.nodes
	n := uint32(q.n)
	nv := &nodes[v]
	for {
		dv := nv.d
		ex := nv.exc
		e, end := nv.cur, q.off[v+1]
		for ; e < end; e++ {
			a := &arcs[e]
			r := a.res
			if r == 0 {
				continue
			}
			w := a.head
			nw := &nodes[w]
			if nw.d+1 != dv {
				continue
			}
			delta := min(ex, r)
			a.res = r - delta
			arcs[a.rev].res += delta
			if nw.exc == 0 && w != sink {
				q.activate(w)
			}
			nw.exc += delta
			ex -= delta
			f.pushes++
			if ex == 0 {
				break
			}
		}
		nv.exc = ex
		if ex == 0 {
			nv.cur = e
			if !q.fifo {
				q.linkInactive(v, dv)
			}
			return
		}
		// Relabel. Gap: v was the last vertex with label dv, so nothing
		// above it can reach the sink.
		if !q.fifo && q.bAct[dv] == none && q.bIna[dv] == none {
			q.gap(int(dv))
			nv.d = n
			return
		}
		nd, ne := n, int64(-1)
		for e := q.off[v]; e < end; e++ {
			if a := &arcs[e]; a.res > 0 && nodes[a.head].d < nd-1 {
				nd, ne = nodes[a.head].d+1, e
			}
		}
		f.relabels++
		q.work += relabelCost + (end - q.off[v])
		nv.d = nd
		if nd >= n {
			return
		}
		nv.cur = ne
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
		for w := q.bIna[j]; w != none; w = q.nodes[w].next {
			q.nodes[w].d = n
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
	arcs, nodes, off := q.arcs, q.nodes, q.off
	for i := range nodes {
		nodes[i].d = n
		nodes[i].cur = off[i]
	}
	// The backward BFS over the arc records (the layout of backwardBFS's
	// arrays is the shared one; this is the same walk).
	nodes[blocked].d = n - 1 // not unset: never entered
	nodes[sink].d = 0
	cur := append(q.scratch[0][:0], sink)
	next := q.scratch[1][:0]
	var level uint32
	for len(cur) > 0 {
		nl := level + 1
		for _, u := range cur {
			for e := off[u]; e < off[u+1]; e++ {
				a := &arcs[e]
				if nw := &nodes[a.head]; nw.d == n && arcs[a.rev].res > 0 {
					nw.d = nl
					next = append(next, a.head)
				}
			}
		}
		if len(next) == 0 {
			break
		}
		level = nl
		cur, next = next, cur[:0]
	}
	q.scratch[0], q.scratch[1] = cur, next
	q.dMax = int(level)
	nodes[blocked].d = n
	f.globals++
	q.work = 0
	if q.fifo {
		q.queue = q.queue[:0]
		for v := range q.inQ {
			q.inQ[v] = false
		}
		for v := uint32(0); v < n; v++ {
			if nodes[v].exc > 0 && nodes[v].d < n && v != sink && v != blocked {
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
		k := nodes[v].d
		if k >= n || v == sink || v == blocked {
			continue
		}
		if nodes[v].exc > 0 {
			nodes[v].next = q.bAct[k]
			q.bAct[k] = v
			q.aMax, q.aMin = max(q.aMax, int(k)), min(q.aMin, int(k))
		} else {
			q.linkInactive(v, k)
		}
	}
}
