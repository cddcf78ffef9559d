package scc

import (
	"math"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/workset"
)

// grain is the vertices per chunk of the full passes.
const grain = 1 << 13

// cpuOp is the CPU operator. Every unlabelled vertex belongs to a
// partition named by one of its vertices (part; the SCCs never cross
// partitions), and a phase only follows arcs inside a partition: a trim
// peels the vertices without an in- or out-arc left in theirs; a FW-BW
// round searches from one pivot per partition (the vertex of largest
// degree product) with the BFS kit, forward over g and backward over its
// transpose, labels the pivots' SCCs (forward and backward reached) and
// splits the rest of each partition in three; a colouring round
// propagates the smallest vertex id forward (the advance over a queue of
// lowered vertices), then searches backward from every vertex that kept
// its own id over the vertices of its colour, which are its SCC; the
// colours become the partitions of what is left.
type cpuOp struct {
	driver
	pool      *mapping.Pool
	n         int
	off, toff []int64 // g's and its transpose's
	adj, tadj []uint32
	label     []uint32
	part      []uint32
	tallies   []tally
	cur, next *workset.Queue
	bufs      []workset.Buffer
	outs, ins *frontier.Advance
	// trim's live arc counts, out and in
	co, ci []int32
	// FW-BW's and colouring's state, made on first use
	fw, bw     *frontier.BFS // over g, over its transpose
	fwLv, bwLv []uint32
	pivot      []uint64
	low        []uint32 // 4 n: the smallest vertex of each class of each partition
	col, stamp []uint32
	round      uint32
}

// tally is a per-worker count padded to a cache line.
type tally struct {
	v int64
	_ [56]byte
}

func newCPU(pool *mapping.Pool, r request) *cpuOp {
	g, gt := r.g, r.g.Transpose()
	n := g.NumVertices()
	o := &cpuOp{pool: pool, n: n, off: g.Offsets(), adj: g.Adj(), toff: gt.Offsets(), tadj: gt.Adj()}
	o.driver = newDriver(o, r)
	o.label, o.part = make([]uint32, n), make([]uint32, n)
	o.pool.Thread(n, grain, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			o.label[v] = none
		}
	})
	o.tallies = make([]tally, o.pool.Workers())
	o.bufs = make([]workset.Buffer, o.pool.Workers())
	o.cur, o.next = workset.NewQueue(n), workset.NewQueue(n)
	o.outs = frontier.New(o.pool, o.off, frontier.DefaultGrains)
	o.ins = frontier.New(o.pool, o.toff, frontier.DefaultGrains)
	o.co, o.ci = make([]int32, n), make([]int32, n)
	if n > 0 {
		o.fw, o.bw = frontier.NewBFS(o.pool, g), frontier.NewBFS(o.pool, gt)
	}
	return o
}

func (o *cpuOp) Close() error {
	o.pool.Release()
	return nil
}

func (o *cpuOp) Labels() []uint32 { return o.label }

// sum adds up and clears the tallies.
func (o *cpuOp) sum() int64 {
	var s int64
	for i := range o.tallies {
		s += o.tallies[i].v
		o.tallies[i].v = 0
	}
	return s
}

// collect sets o.cur to the unlabelled vertices keep accepts (in no
// particular order: every use is order-free).
func (o *cpuOp) collect(keep func(v uint32) bool) {
	o.cur.Reset()
	o.pool.Thread(o.n, grain, func(w, lo, hi int) {
		for v := uint32(lo); v < uint32(hi); v++ {
			if o.label[v] == none && keep(v) {
				o.bufs[w].Add(o.cur, v)
			}
		}
		o.bufs[w].Flush(o.cur)
	})
}

// each calls fn for every unlabelled vertex, in parallel.
func (o *cpuOp) each(fn func(w int, v uint32)) {
	o.pool.Thread(o.n, grain, func(w, lo, hi int) {
		for v := uint32(lo); v < uint32(hi); v++ {
			if o.label[v] == none {
				fn(w, v)
			}
		}
	})
}

// inside counts the arcs at lo..hi of heads from v to other unlabelled
// vertices of its partition.
func (o *cpuOp) inside(v uint32, heads []uint32, lo, hi int64) int32 {
	var k int32
	for _, x := range heads[lo:hi] {
		if x != v && o.label[x] == none && o.part[x] == o.part[v] {
			k++
		}
	}
	return k
}

// trim labels, repeatedly, every vertex without an arc in or out inside
// its partition as an SCC of its own: the counts of such arcs drop as
// their other ends are peeled, level by level.
func (o *cpuOp) trim(m decider.Mapping) (int64, int64, error) {
	o.each(func(w int, v uint32) {
		o.co[v] = o.inside(v, o.adj, o.off[v], o.off[v+1])
		o.ci[v] = o.inside(v, o.tadj, o.toff[v], o.toff[v+1])
		o.tallies[w].v += o.off[v+1] - o.off[v] + o.toff[v+1] - o.toff[v]
	})
	o.collect(func(v uint32) bool { return o.co[v] == 0 || o.ci[v] == 0 })
	for _, v := range o.cur.Items() {
		o.label[v] = v
	}
	labelled := int64(o.cur.Len())
	peel := func(heads []uint32, cnt []int32) frontier.Visitor {
		return func(w int, u uint32, lo, hi int64) {
			o.tallies[w].v += hi - lo
			for _, x := range heads[lo:hi] {
				if x != u && o.part[x] == o.part[u] && atomic.AddInt32(&cnt[x], -1) == 0 &&
					atomic.CompareAndSwapUint32(&o.label[x], none, x) {
					o.bufs[w].Add(o.next, x)
				}
			}
		}
	}
	for o.cur.Len() > 0 {
		set := frontier.QueueSet(o.cur.Items(), -1)
		o.outs.ForFrontier(set, m, peel(o.adj, o.ci)) // u's heads lose an in-arc
		o.ins.ForFrontier(set, m, peel(o.tadj, o.co)) // u's tails lose an out-arc
		for w := range o.bufs {
			o.bufs[w].Flush(o.next)
		}
		labelled += int64(o.next.Len())
		o.cur.Swap(o.next)
		o.next.Reset()
	}
	return labelled, o.sum(), nil
}

// searches makes the state of the searches on first use.
func (o *cpuOp) searches() {
	if o.fwLv == nil {
		o.fwLv, o.bwLv = make([]uint32, o.n), make([]uint32, o.n)
	}
}

// fwbw runs one FW-BW round over every partition at once.
func (o *cpuOp) fwbw(m decider.Mapping) (int64, int64, error) {
	o.searches()
	if o.pivot == nil {
		o.pivot, o.low = make([]uint64, o.n), make([]uint32, 4*o.n)
	}
	clear(o.pivot)
	o.each(func(_ int, v uint32) {
		d := uint64(o.off[v+1]-o.off[v]) * uint64(o.toff[v+1]-o.toff[v])
		raise(&o.pivot[o.part[v]], min(d, math.MaxUint32)<<32|uint64(^v))
	})
	o.collect(func(v uint32) bool { return ^uint32(o.pivot[o.part[v]]) == v })
	same := func(_ int64, u, x uint32) bool { return o.label[x] == none && o.part[x] == o.part[u] }
	t := frontier.Traversal{Filter: same, Mapping: m}
	src := o.cur.Items()
	if _, err := o.fw.Run(src, t, o.fwLv); err != nil {
		return 0, 0, err
	}
	if _, err := o.bw.Run(src, t, o.bwLv); err != nil {
		return 0, 0, err
	}
	// Class 0: the pivot's SCC (reached both ways); 1: forward only; 2:
	// backward only; 3: neither. Each class of a partition is named by
	// its smallest vertex: the SCC's label, the others' partition.
	n := uint32(o.n)
	class := func(v uint32) uint32 {
		f, b := o.fwLv[v] != frontier.Unreached, o.bwLv[v] != frontier.Unreached
		switch {
		case f && b:
			return 0
		case f:
			return 1
		case b:
			return 2
		}
		return 3
	}
	o.pool.Thread(len(o.low), grain, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			o.low[i] = none
		}
	})
	o.each(func(w int, v uint32) {
		lower(&o.low[class(v)*n+o.part[v]], v)
		if o.fwLv[v] != frontier.Unreached {
			o.tallies[w].v += o.off[v+1] - o.off[v]
		}
		if o.bwLv[v] != frontier.Unreached {
			o.tallies[w].v += o.toff[v+1] - o.toff[v]
		}
	})
	arcs := o.sum()
	return o.settle(func(v uint32) (uint32, bool) {
		c := class(v)
		return o.low[c*n+o.part[v]], c == 0
	}), arcs, nil
}

// settle gives every unlabelled vertex v the label or the partition
// name(v) returns (label when the flag is set) and counts the labelled.
func (o *cpuOp) settle(name func(v uint32) (uint32, bool)) int64 {
	o.each(func(w int, v uint32) {
		r, scc := name(v)
		if scc {
			o.label[v] = r
			o.tallies[w].v++
		} else {
			o.part[v] = r
		}
	})
	return o.sum()
}

// colour runs one colouring round: every vertex takes the smallest id of
// the vertices that reach it inside its partition; a vertex that keeps its
// own id is the smallest of its SCC, which is what reaches it backward
// inside its colour.
func (o *cpuOp) colour(m decider.Mapping) (int64, int64, error) {
	o.searches()
	if o.col == nil {
		o.col, o.stamp = make([]uint32, o.n), make([]uint32, o.n)
	}
	o.pool.Thread(o.n, grain, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			o.col[v] = uint32(v)
		}
	})
	o.collect(func(uint32) bool { return true })
	var arcs int64
	for o.cur.Len() > 0 {
		o.round++
		round := o.round
		o.outs.ForFrontier(frontier.QueueSet(o.cur.Items(), -1), m, func(w int, u uint32, lo, hi int64) {
			c := atomic.LoadUint32(&o.col[u])
			o.tallies[w].v += hi - lo
			for _, x := range o.adj[lo:hi] {
				if o.label[x] == none && o.part[x] == o.part[u] && lower(&o.col[x], c) &&
					atomic.SwapUint32(&o.stamp[x], round) != round {
					o.bufs[w].Add(o.next, x)
				}
			}
		})
		for w := range o.bufs {
			o.bufs[w].Flush(o.next)
		}
		o.cur.Swap(o.next)
		o.next.Reset()
	}
	arcs += o.sum()
	o.collect(func(v uint32) bool { return o.col[v] == v })
	within := func(_ int64, u, x uint32) bool { return o.label[x] == none && o.col[x] == o.col[u] }
	if _, err := o.bw.Run(o.cur.Items(), frontier.Traversal{Filter: within, Mapping: m}, o.bwLv); err != nil {
		return 0, 0, err
	}
	o.each(func(w int, v uint32) {
		if o.bwLv[v] != frontier.Unreached {
			o.tallies[w].v += o.toff[v+1] - o.toff[v]
		}
	})
	arcs += o.sum()
	return o.settle(func(v uint32) (uint32, bool) { return o.col[v], o.bwLv[v] != frontier.Unreached }), arcs, nil
}

// lower sets *p to v if v is smaller and reports whether it did.
func lower(p *uint32, v uint32) bool {
	for cur := atomic.LoadUint32(p); v < cur; cur = atomic.LoadUint32(p) {
		if atomic.CompareAndSwapUint32(p, cur, v) {
			return true
		}
	}
	return false
}

// raise sets *p to v if v is larger.
func raise(p *uint64, v uint64) {
	for cur := atomic.LoadUint64(p); v > cur && !atomic.CompareAndSwapUint64(p, cur, v); cur = atomic.LoadUint64(p) {
	}
}
