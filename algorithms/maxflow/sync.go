package maxflow

import (
	"context"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/workset"
)

// syncOp is the parallel push-relabel operator: each Step is one
// synchronous pass over the active vertices (excess > 0, label < n).
//
// A pass reads the labels as they were when it began. Vertex v pushes
// only over arcs v->w with d(v) = d(w)+1, and w never pushes back over the
// same pair in that pass (it would need d(w) = d(v)+1), so each arc pair
// is written by one vertex only and needs no lock; excess arriving at w
// goes to an atomic inbox, summed in any order. After a barrier, the
// vertices left with excess relabel to one above their lowest residual
// neighbour (old labels); the new labels take effect together. A pass's
// result therefore depends neither on the order of the vertices nor on
// the number of workers, and the same holds on a GPU (one thread or block
// per active vertex): a cuda operator can run the same pass.
//
// The step's second half applies the inboxes and builds the next active
// set; it runs a global relabel (the backward BFS) when the relabel work
// since the last passes the trigger, or when a label loses its last
// vertex (a gap: the BFS lifts everything above it). When phase 1 has no
// active vertex left, it starts phase 2, which returns the stranded
// excess to the source by the same passes towards the source.
type syncOp struct {
	f    *flow
	pool *mapping.Pool
	k    Knobs
	n    int

	sink, blocked uint32
	phase         int
	in            []int64  // excess arriving in this pass
	count         []int64  // vertices per label (gap detection)
	relabel       [][]pair // per worker: vertex and new label
	bufs          []workset.Buffer
	edges         []int64

	rep          decider.Rep
	curQ, nextQ  *workset.Queue
	curB, nextB  *workset.Bitmap
	pref         []int64
	cuts         []int
	work         int64
	trigger      int64
	gapSeen      bool
	maxL         uint32 // highest label below n
	size, degSum int64
	done         bool
	scratch      [2][]uint32
	kit          *frontier.BFS // kitRelabel's, made on first use
	levels       []uint32
	ctx          context.Context
	serialTails  int
}

type pair struct {
	v, old, d uint32
}

func newSyncOp(f *flow, pool *mapping.Pool, k Knobs) *syncOp {
	n := f.n
	w := pool.Workers()
	o := &syncOp{
		f: f, pool: pool, k: k, n: n,
		in: make([]int64, n), count: make([]int64, n+1),
		relabel: make([][]pair, w), bufs: make([]workset.Buffer, w), edges: make([]int64, w),
		curQ: workset.NewQueue(n), nextQ: workset.NewQueue(n),
		curB: workset.NewBitmap(n), nextB: workset.NewBitmap(n),
		trigger: k.trigger(n, f.r.NumArcs()),
	}
	o.cuts = mapping.EdgeCuts(f.r.Off, 8*w, 4096)
	return o
}

func (o *syncOp) Info() runtime.OperatorInfo {
	return runtime.OperatorInfo{Info: decider.Info{N: o.n, M: o.f.r.NumArcs(), Universe: int64(o.n), InitialSize: o.initial(), MaxDegree: o.maxDegree()}}
}

// initial counts the vertices the source's arcs gave excess.
func (o *syncOp) initial() int64 {
	var c int64
	for v, x := range o.f.exc {
		if x > 0 && uint32(v) != o.f.t {
			c++
		}
	}
	return c
}

// DeviceTimes is nil: the operator runs on the host.
func (o *syncOp) DeviceTimes() *runtime.GPUTimes { return nil }

// Step runs one pass and makes the next active set; a global relabel or
// a serial tail inside it is reported in Counts.
func (o *syncOp) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	g0, t0 := o.f.globals, o.serialTails
	edges, err := o.compute(req.Variant)
	if err != nil {
		return runtime.StepResult{}, err
	}
	size, deg, err := o.generate(req.Variant.Rep)
	if err != nil {
		return runtime.StepResult{}, err
	}
	res := runtime.StepResult{Edges: edges, Size: size, Degree: deg}
	if g, t := o.f.globals-g0, o.serialTails-t0; g > 0 || t > 0 {
		res.Counts = map[string]int64{"global_relabels": g, "serial_tails": int64(t)}
	}
	return res, nil
}

func (o *syncOp) maxDegree() int64 {
	var m int64
	for v := 0; v < o.n; v++ {
		m = max(m, o.f.r.Off[v+1]-o.f.r.Off[v])
	}
	return m
}

// Start runs phase 1's first global relabel and fills the active set.
func (o *syncOp) Start(v decider.Variant) error {
	o.rep = v.Rep
	o.sink, o.blocked, o.phase = o.f.t, o.f.s, 1
	o.global()
	return nil
}

// global relabels from the sink, recounts the labels and rebuilds the
// active set in the current representation.
func (o *syncOp) global() {
	f := o.f
	n := uint32(o.n)
	d := f.d
	if useKitBFS {
		o.maxL = o.kitRelabel()
	} else {
		o.pool.Thread(o.n, 1<<14, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				d[i] = n
			}
		})
		d[o.blocked] = n - 1 // not unset: the BFS never enters it
		o.maxL = backwardBFS(o.pool, f.r, o.sink, d, n, f.res, nil, &o.scratch)
		d[o.blocked] = n
	}
	f.globals++
	o.work, o.gapSeen = 0, false
	clear(o.count)
	for _, x := range d {
		o.count[x]++
	}
	o.nextB.Clear(o.pool)
	o.pool.Thread(o.n, 1<<14, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			if f.exc[v] > 0 && d[v] < n && uint32(v) != o.sink && uint32(v) != o.blocked {
				o.nextB.SetAtomic(uint32(v))
			}
		}
	})
	o.emit()
}

// emit makes nextB the current working set in o.rep and counts it.
func (o *syncOp) emit() {
	if o.rep == decider.Queue {
		o.curQ.FromBitmap(o.pool, o.nextB)
		o.nextB.ClearItems(o.pool, o.curQ.Items())
		o.size = int64(o.curQ.Len())
	} else {
		o.curB.Swap(o.nextB)
		o.nextB.Clear(o.pool)
		o.size = o.curB.Count(o.pool)
	}
}

// compute runs one push pass and one relabel pass over the active set.
func (o *syncOp) compute(v decider.Variant) (int64, error) {
	f := o.f
	res, exc, d, in := f.res, f.exc, f.d, o.in
	off, head, rev := f.r.Off, f.r.Head, f.r.Rev
	sink, blocked := o.sink, o.blocked
	var pushes atomic.Int64
	visit := func(w int, u uint32) {
		ex := exc[u]
		du := d[u]
		if ex == 0 || du >= uint32(o.n) {
			return
		}
		var np int64
		e, end := off[u], off[u+1]
		for ; e < end; e++ {
			x := head[e]
			if d[x]+1 != du {
				continue
			}
			r := res[e]
			if r == 0 {
				continue
			}
			delta := min(ex, r)
			res[e] = r - delta
			res[rev[e]] += delta
			atomic.AddInt64(&in[x], delta)
			if x != sink && x != blocked {
				o.nextB.SetAtomic(x)
			}
			ex -= delta
			np++
			if ex == 0 {
				break
			}
		}
		o.edges[w] += min(e+1, end) - off[u]
		exc[u] = ex
		if ex > 0 {
			o.relabel[w] = append(o.relabel[w], pair{v: u})
		}
		pushes.Add(np)
	}
	o.forActive(v.Mapping, visit)
	// Relabel with the pass's labels: every vertex's new label is computed
	// before any is written.
	n := uint32(o.n)
	o.pool.Run(func(w int) {
		l := o.relabel[w]
		for i := range l {
			u := l[i].v
			nd := n
			for e := off[u]; e < off[u+1]; e++ {
				if res[e] > 0 && d[head[e]] < nd-1 {
					nd = d[head[e]] + 1
				}
			}
			l[i].d = nd
			o.edges[w] += off[u+1] - off[u]
		}
	})
	// Counts first, then the gap test, so that it does not depend on the
	// order of the lists (that is, on the worker count).
	var edges int64
	for _, l := range o.relabel {
		for i, p := range l {
			l[i].old = d[p.v]
			o.count[d[p.v]]--
			d[p.v] = p.d
			o.count[p.d]++
			o.work += relabelCost + off[p.v+1] - off[p.v]
			if p.d < n {
				o.maxL = max(o.maxL, p.d)
				o.nextB.SetAtomic(p.v)
			}
		}
	}
	for w, l := range o.relabel {
		for _, p := range l {
			if o.count[p.old] == 0 && p.old < o.maxL {
				o.gapSeen = true
			}
		}
		f.relabels += int64(len(l))
		o.relabel[w] = l[:0]
		edges += o.edges[w]
		o.edges[w] = 0
	}
	f.pushes += pushes.Load()
	f.passes++
	return edges, nil
}

// forActive calls visit for every active vertex under mapping m: thread
// mapping gives workers runs of the set; block mapping cuts it by arcs,
// each vertex whole in the piece where its arcs start, so hubs do not sit
// in one worker's run. A vertex's arcs are not split between workers as
// BFS's block mapping does: its excess is one budget spent in arc order,
// which a split would have to settle by a prefix sum over the pieces first
// (planned for the GPU's block-per-vertex kernel).
func (o *syncOp) forActive(m decider.Mapping, visit func(w int, u uint32)) {
	off := o.f.r.Off
	if o.rep == decider.Queue {
		items := o.curQ.Items()
		if m == decider.Block {
			o.pref = o.pool.DegreePrefix(items, off, &o.pref)
			o.pool.Block(o.pref, 2048, func(w, lo, hi int, eLo, eHi int64) {
				for i := lo; i < hi; i++ {
					if s := o.pref[i]; s >= eLo && s < eHi {
						visit(w, items[i])
					}
				}
			})
			return
		}
		o.pool.Thread(len(items), 256, func(w, lo, hi int) {
			for _, u := range items[lo:hi] {
				visit(w, u)
			}
		})
		return
	}
	words := o.curB.Words()
	each := func(w, lo, hi int) {
		for i := lo; i < hi; i++ {
			for x := words[i]; x != 0; x &= x - 1 {
				visit(w, uint32(i*64+trailingZeros(x)))
			}
		}
	}
	if m == decider.Block {
		o.pool.Pieces(o.cuts, each)
		return
	}
	o.pool.Thread(len(words), 64, each)
}

// generate applies the inboxes and makes the next active set; it runs a
// global relabel when due, and switches to phase 2 when phase 1 is over.
func (o *syncOp) generate(r decider.Rep) (int64, int64, error) {
	f := o.f
	o.rep = r
	// Terminals are not in the next set: collect their inboxes directly.
	for _, x := range [2]uint32{o.sink, o.blocked} {
		f.exc[x] += o.in[x]
		o.in[x] = 0
	}
	words := o.nextB.Words()
	n := uint32(o.n)
	o.pool.Thread(len(words), 256, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			keep := words[i]
			for x := words[i]; x != 0; x &= x - 1 {
				u := uint32(i*64 + trailingZeros(x))
				f.exc[u] += o.in[u]
				o.in[u] = 0
				if f.exc[u] == 0 || f.d[u] >= n {
					keep &^= 1 << (u & 63)
				}
			}
			words[i] = keep
		}
	})
	if o.work > o.trigger || o.gapSeen {
		o.global()
	} else {
		o.emit()
	}
	if err := o.serialTail(); err != nil {
		return 0, 0, err
	}
	if o.size == 0 && o.phase == 1 {
		o.phase, o.sink, o.blocked = 2, o.f.s, o.f.t
		o.global()
		if err := o.serialTail(); err != nil {
			return 0, 0, err
		}
	}
	o.done = o.size == 0
	return o.size, -1, nil
}

// serialTail finishes the phase serially when too few vertices are active
// to feed the workers, where each pass costs a barrier: the serial
// highest-label solver runs on the same state (AK's path took millions of
// passes).
func (o *syncOp) serialTail() error {
	if o.size <= 0 || o.size > int64(o.k.SerialBelow) {
		return nil
	}
	if err := newSeq(o.f, false, o.k).run(o.ctx, o.sink, o.blocked); err != nil {
		return err
	}
	o.serialTails++
	o.size = 0
	return nil
}

func (o *syncOp) Inspect(degree bool) (size, degreeSum int64) {
	if !degree {
		return o.size, 0
	}
	off := o.f.r.Off
	var s int64
	if o.rep == decider.Queue {
		for _, u := range o.curQ.Items() {
			s += off[u+1] - off[u]
		}
	} else {
		for i, x := range o.curB.Words() {
			for ; x != 0; x &= x - 1 {
				u := i*64 + trailingZeros(x)
				s += off[u+1] - off[u]
			}
		}
	}
	return o.size, s
}

func (o *syncOp) Convert(r decider.Rep) error {
	if r == o.rep {
		return nil
	}
	if r == decider.Queue {
		o.curQ.FromBitmap(o.pool, o.curB)
		o.curB.Clear(o.pool)
	} else {
		o.curB.FromQueue(o.pool, o.curQ)
		o.curQ.Reset()
	}
	o.rep = r
	return nil
}

func (o *syncOp) Done() bool { return o.done }

func (o *syncOp) Close() error { o.pool.Release(); return nil }

var _ runtime.Operator = (*syncOp)(nil)
