package msf

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/algorithms/internal/edgeset"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/runtime"
)

// noKey marks a component without a candidate edge in this round.
const noKey = math.MaxUint64

// core is the state every Borůvka layout shares: the union-find forest
// (flat between rounds: every vertex points at its root), the minimum key
// w<<32|id per root, the list of roots, and the chosen edges.
type core struct {
	edgeset.Host
	n        int
	off      []int64
	adj      []uint32
	wts      []uint32
	directed bool
	edges    int64 // canonical edges: the working set's universe

	parent []uint32
	best   []uint64
	hookTo []uint32
	roots  []uint32 // current roots that may still have an edge
	hooked []uint32 // roots hooked in this round
	chosen edgeset.Bitmap
	rounds int
}

func newCore(pool *mapping.Pool, in *input) core {
	g := in.g
	c := core{Host: edgeset.NewHost(pool), n: g.NumVertices(), off: g.Offsets(), adj: g.Adj(), wts: g.Weights(), directed: in.directed, edges: in.edges}
	c.parent = make([]uint32, c.n)
	c.best = make([]uint64, c.n)
	c.hookTo = make([]uint32, c.n)
	c.roots = make([]uint32, c.n)
	pool.Thread(c.n, 1<<14, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			c.parent[v] = uint32(v)
			c.best[v] = noKey
			c.hookTo[v] = graph.NoVertex
			c.roots[v] = uint32(v)
		}
	})
	c.Finished = c.edges == 0
	return c
}

// minKey lowers best[r] to key (a 64-bit atomic minimum; the load first
// skips the CAS when the key cannot win, the common case once a component
// has found a light edge).
func minKey(best []uint64, r uint32, key uint64) {
	for {
		cur := atomic.LoadUint64(&best[r])
		if key >= cur || atomic.CompareAndSwapUint64(&best[r], cur, key) {
			return
		}
	}
}

// runMin is one worker's minimum for the source side's root over a run of
// edges with that root, written with one atomic minimum when the root
// changes (the edges come in source order): the atomics drop by the
// average degree.
type runMin struct {
	best []uint64
	cur  uint32
	min  uint64
}

func newRunMin(best []uint64) runMin { return runMin{best: best, cur: graph.NoVertex, min: noKey} }

// add offers the key of an edge between roots ru (the source side) and rv.
func (r *runMin) add(ru, rv uint32, key uint64) {
	if ru != r.cur {
		r.flush()
		r.cur, r.min = ru, key
	} else if key < r.min {
		r.min = key
	}
	minKey(r.best, rv, key)
}

// flush writes the run's minimum.
func (r *runMin) flush() {
	if r.cur != graph.NoVertex {
		minKey(r.best, r.cur, r.min)
	}
}

// hook runs the hook and contraction of one round, after a minimum pass
// has left in best[r] every root's lightest crossing key. ends(key) gives
// the edge's endpoints and mark(key) records it in the forest. Every root
// with a key hooks under the other endpoint's root; because keys are
// unique, the only cycles of these pointers are pairs of roots that chose
// the same edge, and there the smaller root stays a root. Then pointer
// jumping over the hooked roots and one step for every vertex make the
// forest flat again.
func (c *core) hook(ends func(key uint64) (u, v uint32), mark func(key uint64)) {
	p, best, hookTo, roots := c.parent, c.best, c.hookTo, c.roots
	c.Pool.Thread(len(roots), 1<<12, func(_, lo, hi int) {
		for _, r := range roots[lo:hi] {
			key := best[r]
			if key == noKey {
				continue
			}
			u, v := ends(key)
			ru, rv := p[u], p[v]
			other := ru
			if ru == r {
				other = rv
			}
			if best[other] == key && r < other {
				continue // mutual pair: the larger root hooks
			}
			hookTo[r] = other
			mark(key)
		}
	})
	// Apply the hooks and split the roots into those left and those hooked
	// (in root order, so the run does not depend on the worker count).
	kept, hooked := roots[:0], c.hooked[:0]
	for _, r := range roots {
		best[r] = noKey
		if t := hookTo[r]; t != graph.NoVertex {
			p[r] = t
			hookTo[r] = graph.NoVertex
			hooked = append(hooked, r)
		} else {
			kept = append(kept, r)
		}
	}
	c.roots, c.hooked = kept, hooked
	// Pointer jumping over the hooked roots until each points at a root.
	for {
		var moved atomic.Bool
		c.Pool.Thread(len(hooked), 1<<12, func(_, lo, hi int) {
			changed := false
			for _, r := range hooked[lo:hi] {
				x := atomic.LoadUint32(&p[r])
				y := atomic.LoadUint32(&p[x])
				if x != y {
					atomic.StoreUint32(&p[r], y)
					changed = true
				}
			}
			if changed {
				moved.Store(true)
			}
		})
		if !moved.Load() {
			break
		}
	}
	c.Pool.Thread(c.n, 1<<14, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			if x := p[v]; p[x] != x {
				p[v] = p[x]
			}
		}
	})
	c.rounds++
}

// rec is one edge of the edge array: its key w<<32|id and its endpoints,
// together in 16 bytes so a pass streams through one array (Zaitsev &
// Kalgin's memory layout).
type rec struct {
	key  uint64
	u, v uint32
}

// eaOp is Borůvka over an edge array (EA): the working set is the array
// itself, as a bitmap of hidden edges over the full array or as a filtered
// copy compacted every round (edge filtering: edges inside one component
// leave for good). A worker keeps a running minimum for the source side's
// root and writes it once per run of edges with that root (the array is in
// source order), which reduces the atomic minima by the average degree.
// With a threshold (the ECL variant) a copy of the light edges (keys below
// it, in id order) is the working set until no light edge crosses
// components; then the full array takes its place, its light edges all
// inside components by then and hidden on the first pass (filter-Kruskal).
type eaOp struct {
	core
	all    []rec // every edge, by id
	light  []rec // phase one's edges (nil without a threshold)
	cur    []rec // the phase's array: the bitmap's slots
	ws     edgeset.Set[rec]
	second bool // phase two: cur is all
}

func newEA(pool *mapping.Pool, in *input, thresh uint64) *eaOp {
	o := &eaOp{core: newCore(pool, in)}
	o.all = buildEdgeArray(pool, in)
	o.chosen = edgeset.NewBitmap(int64(len(o.all)))
	o.cur, o.second = o.all, true
	if thresh != noKey {
		o.light = lightCopy(pool, o.all, thresh)
		o.cur, o.second = o.light, false
	}
	return o
}

// buildEdgeArray lists the canonical edges in CSR order (their ids) with
// keys weight<<32|id.
func buildEdgeArray(pool *mapping.Pool, in *input) []rec {
	off, adj, w, directed := in.g.Offsets(), in.g.Adj(), in.g.Weights(), in.directed
	q := edgeset.Collect(pool, off, func(lo, hi int, emit func(rec)) {
		for u := lo; u < hi; u++ {
			for e := off[u]; e < off[u+1]; e++ {
				if v := adj[e]; edgeset.Canonical(uint32(u), v, directed) {
					emit(rec{key: uint64(w[e]) << 32, u: uint32(u), v: v})
				}
			}
		}
	})
	pool.Thread(len(q), 1<<14, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			q[i].key |= uint64(i)
		}
	})
	return q
}

// chunkOffsets numbers the records of an array in chunks of 1<<14, as CSR
// offsets over chunks, for edgeset.Collect.
func chunkOffsets(n int) []int64 {
	const chunk = 1 << 14
	k := (n + chunk - 1) / chunk
	off := make([]int64, k+1)
	for i := 0; i <= k; i++ {
		off[i] = int64(min(i*chunk, n))
	}
	return off
}

// lightCopy copies the records with keys below thresh, in order.
func lightCopy(pool *mapping.Pool, all []rec, thresh uint64) []rec {
	const chunk = 1 << 14
	return edgeset.Collect(pool, chunkOffsets(len(all)), func(lo, hi int, emit func(rec)) {
		for i := lo * chunk; i < min(hi*chunk, len(all)); i++ {
			if all[i].key < thresh {
				emit(all[i])
			}
		}
	})
}

// slot returns the position of edge id in the phase's array.
func (o *eaOp) slot(id uint32) int64 {
	if o.second {
		return int64(id)
	}
	i, _ := slices.BinarySearchFunc(o.cur, id, func(r rec, id uint32) int { return cmp.Compare(uint32(r.key), id) })
	return int64(i)
}

func (o *eaOp) Info() runtime.OperatorInfo {
	return runtime.OperatorInfo{Info: decider.Info{N: o.n, M: int64(len(o.adj)), Universe: o.edges, InitialSize: int64(len(o.cur))}}
}

func (o *eaOp) Start(v decider.Variant) error {
	o.ws.Rep = v.Rep
	o.ws.Active = int64(len(o.cur))
	if v.Rep == decider.Queue {
		o.ws.Queue = o.gather(nil, false)
	} else {
		o.ws.Hidden = edgeset.NewBitmap(int64(len(o.cur)))
	}
	return nil
}

// gather copies the phase's edges that are not hidden (all when hidden is
// nil) and, when cross is set, whose endpoints lie in different
// components, in array order.
func (o *eaOp) gather(hidden edgeset.Bitmap, cross bool) []rec {
	all, p := o.cur, o.parent
	const chunk = 1 << 14
	return edgeset.Collect(o.Pool, chunkOffsets(len(all)), func(lo, hi int, emit func(rec)) {
		for i := lo * chunk; i < min(hi*chunk, len(all)); i++ {
			r := all[i]
			if hidden != nil && hidden[i>>6]&(1<<(i&63)) != 0 {
				continue
			}
			if cross && p[r.u] == p[r.v] {
				continue
			}
			emit(r)
		}
	})
}

func (o *eaOp) Inspect(bool) (int64, int64) { return o.ws.Inspect() }

// Step runs one round; the next working set is the edges it found
// crossing components (an upper bound for a bitmap until its next pass).
func (o *eaOp) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	e, err := o.compute(req.Variant)
	return runtime.StepResult{Edges: e, Size: o.ws.Active, Degree: -1}, err
}

func (o *eaOp) Convert(r decider.Rep) error {
	o.ws.Convert(o.Pool, r, int64(len(o.cur)),
		func(h edgeset.Bitmap) []rec { return o.gather(h, true) },
		func(x rec) int64 { return o.slot(uint32(x.key)) })
	return nil
}

func (o *eaOp) compute(v decider.Variant) (int64, error) {
	// Each edge is one element of the array: both mappings pass it alike.
	read, err := minPass(&o.ws, v, o.Convert, func(decider.Mapping) int64 { return o.minBitmap() }, o.minQueue)
	if err != nil {
		return 0, err
	}
	if o.ws.Active == 0 {
		if o.second {
			o.Finished = true
			return read, nil
		}
		// Phase one is exhausted: the full array takes its place.
		o.cur, o.second, o.light = o.all, true, nil
		if o.ws.Rep == decider.Queue {
			o.ws.Queue = o.gather(nil, true)
			o.ws.Active = int64(len(o.ws.Queue))
		} else {
			o.ws.Hidden = edgeset.NewBitmap(int64(len(o.cur)))
			o.ws.Active = int64(len(o.cur))
		}
		return read, nil // the next round finds their minima
	}
	chosen := o.chosen
	all := o.all
	o.hook(func(key uint64) (uint32, uint32) {
		r := &all[uint32(key)]
		return r.u, r.v
	}, func(key uint64) {
		e := int64(uint32(key))
		atomic.OrUint64(&chosen[e>>6], 1<<(e&63))
	})
	return read, nil
}

// minPass runs a round's minimum pass over ws in the representation
// variant v asks for (convert switches it first) and returns the elements
// read: bitmap passes under v's mapping, or queue, which filters the queue
// in place and reads it whole.
func minPass[T any](ws *edgeset.Set[T], v decider.Variant, convert func(decider.Rep) error, bitmap func(decider.Mapping) int64, queue func()) (int64, error) {
	if v.Rep != ws.Rep {
		if err := convert(v.Rep); err != nil {
			return 0, err
		}
	}
	if ws.Rep == decider.Bitmap {
		return bitmap(v.Mapping), nil
	}
	read := int64(len(ws.Queue))
	queue()
	return read, nil
}

// minQueue is one minimum pass over the filtered edge array, dropping the
// edges inside one component.
func (o *eaOp) minQueue() {
	p, best := o.parent, o.best
	o.ws.Queue = edgeset.Filter(o.Pool, o.ws.Queue, func(_ int, q []rec) int {
		k := 0
		run := newRunMin(best)
		for _, x := range q {
			ru, rv := p[x.u], p[x.v]
			if ru == rv {
				continue
			}
			q[k] = x
			k++
			run.add(ru, rv, x.key)
		}
		run.flush()
		return k
	})
	o.ws.Active = int64(len(o.ws.Queue))
}

// minBitmap is one minimum pass over the edge array's edges not hidden,
// hiding those inside one component; whole hidden words are skipped. Each
// edge is one element, so thread and block mapping are the same here.
func (o *eaOp) minBitmap() int64 {
	p, best, all, h := o.parent, o.best, o.cur, o.ws.Hidden
	o.Pool.Thread(len(h), 1<<8, func(w, lo, hi int) {
		var a, read int64
		run := newRunMin(best)
		for i := lo; i < hi; i++ {
			word := h[i] // this worker owns the word: no atomics needed
			if word == ^uint64(0) {
				continue
			}
			var hide uint64
			for j := i * 64; j < min(i*64+64, len(all)); j++ {
				b := uint64(1) << (j & 63)
				if word&b != 0 {
					continue
				}
				read++
				x := &all[j]
				ru, rv := p[x.u], p[x.v]
				if ru == rv {
					hide |= b
					continue
				}
				a++
				run.add(ru, rv, x.key)
			}
			h[i] = word | hide
		}
		run.flush()
		o.Cnt[w].A += a
		o.Cnt[w].B += read
	})
	var read int64
	o.ws.Active, read = o.Sums()
	return read
}

// forest lists the chosen edges in id order.
func (o *eaOp) forest() []Edge {
	return collectChosen(o.chosen, o.edges, func(e int64) Edge {
		r := &o.all[e]
		return Edge{U: r.u, V: r.v, Weight: uint32(r.key >> 32)}
	})
}

// alOp is Borůvka over the adjacency lists (AL): no edge array is built;
// the working set is a bitmap over the arcs (only each edge's canonical
// copy is used) passed vertex by vertex under thread or block mapping, or
// a queue of packed u<<32|arc. Keys are weight<<32|arc: arcs are numbered
// in the same order as the edge array's ids, so ties break the same way.
// The source side's minimum is reduced per vertex before its atomic.
type alOp struct {
	core
	ws edgeset.Set[uint64]
}

func newAL(pool *mapping.Pool, in *input) *alOp {
	o := &alOp{core: newCore(pool, in)}
	o.chosen = edgeset.NewBitmap(int64(len(o.adj)))
	return o
}

func (o *alOp) Info() runtime.OperatorInfo {
	return runtime.OperatorInfo{Info: decider.Info{N: o.n, M: int64(len(o.adj)), Universe: o.edges, InitialSize: o.edges}}
}

func (o *alOp) Start(v decider.Variant) error {
	o.ws.Rep = v.Rep
	if v.Rep == decider.Queue {
		o.ws.Queue = o.collect(nil)
	} else {
		o.ws.Hidden = edgeset.NewBitmap(int64(len(o.adj)))
	}
	o.ws.Active = o.edges
	return nil
}

func (o *alOp) Inspect(bool) (int64, int64) { return o.ws.Inspect() }

// Step runs one round; the next working set is the edges it found
// crossing components (an upper bound for a bitmap until its next pass).
func (o *alOp) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	e, err := o.compute(req.Variant)
	return runtime.StepResult{Edges: e, Size: o.ws.Active, Degree: -1}, err
}

// collect lists the canonical arcs not hidden whose endpoints lie in
// different components, in arc order.
func (o *alOp) collect(hidden edgeset.Bitmap) []uint64 {
	off, adj, p, directed := o.off, o.adj, o.parent, o.directed
	return edgeset.Collect(o.Pool, off, func(lo, hi int, emit func(uint64)) {
		for u := lo; u < hi; u++ {
			pu := p[u]
			for e := off[u]; e < off[u+1]; e++ {
				v := adj[e]
				if !edgeset.Canonical(uint32(u), v, directed) || p[v] == pu {
					continue
				}
				if hidden != nil && hidden[e>>6]&(uint64(1)<<(e&63)) != 0 {
					continue
				}
				emit(uint64(u)<<32 | uint64(e))
			}
		}
	})
}

func (o *alOp) Convert(r decider.Rep) error {
	o.ws.Convert(o.Pool, r, int64(len(o.adj)), o.collect,
		func(x uint64) int64 { return int64(uint32(x)) })
	return nil
}

func (o *alOp) compute(v decider.Variant) (int64, error) {
	read, err := minPass(&o.ws, v, o.Convert, o.minBitmap, o.minQueue)
	if err != nil {
		return 0, err
	}
	if o.ws.Active == 0 {
		o.Finished = true
		return read, nil
	}
	off, adj, chosen := o.off, o.adj, o.chosen
	o.hook(func(key uint64) (uint32, uint32) {
		e := int64(uint32(key))
		return source(off, e), adj[e]
	}, func(key uint64) {
		e := int64(uint32(key))
		atomic.OrUint64(&chosen[e>>6], 1<<(e&63))
	})
	return read, nil
}

// source returns the vertex whose adjacency list holds arc e.
func source(off []int64, e int64) uint32 {
	i, found := slices.BinarySearch(off, e)
	if !found {
		return uint32(i - 1)
	}
	// Vertices without arcs share an offset: the list starts at the last.
	for i+1 < len(off) && off[i+1] == e {
		i++
	}
	return uint32(i)
}

func (o *alOp) minBitmap(m decider.Mapping) int64 {
	off, adj, w, p, best, h, directed := o.off, o.adj, o.wts, o.parent, o.best, o.ws.Hidden, o.directed
	edgeset.PassCSR(o.Pool, off, m, func(wk, lo, hi int, eLo, eHi int64) {
		var a, read int64
		mk := edgeset.NewMarker()
		for u := lo; u < hi; u++ {
			uu := uint32(u)
			from, to := max(off[u], eLo), min(off[u+1], eHi)
			read += max(to-from, 0)
			ru := p[u]
			mine := uint64(noKey)
			for e := from; e < to; e++ {
				v := adj[e]
				if !edgeset.Canonical(uu, v, directed) || h.IsHidden(e) {
					continue
				}
				rv := p[v]
				if rv == ru {
					mk.Hide(h, e)
					continue
				}
				a++
				key := uint64(w[e])<<32 | uint64(e)
				mine = min(mine, key)
				minKey(best, rv, key)
			}
			if mine != noKey {
				minKey(best, ru, mine)
			}
		}
		mk.Flush(h)
		o.Cnt[wk].A += a
		o.Cnt[wk].B += read
	})
	var read int64
	o.ws.Active, read = o.Sums()
	return read
}

func (o *alOp) minQueue() {
	adj, w, p, best := o.adj, o.wts, o.parent, o.best
	o.ws.Queue = edgeset.Filter(o.Pool, o.ws.Queue, func(_ int, q []uint64) int {
		k := 0
		run := newRunMin(best)
		for _, x := range q {
			e := uint32(x)
			ru, rv := p[x>>32], p[adj[e]]
			if ru == rv {
				continue
			}
			q[k] = x
			k++
			run.add(ru, rv, uint64(w[e])<<32|uint64(e))
		}
		run.flush()
		return k
	})
	o.ws.Active = int64(len(o.ws.Queue))
}

func (o *alOp) forest() []Edge {
	return collectChosen(o.chosen, int64(len(o.adj)), func(e int64) Edge {
		return Edge{U: source(o.off, e), V: o.adj[e], Weight: o.wts[e]}
	})
}

// collectChosen lists the set bits of chosen (below slots) in order, each
// turned into an edge by at. It runs after the engine has closed the
// operator's pool, so it is serial over words, which are few per forest
// edge.
func collectChosen(chosen edgeset.Bitmap, slots int64, at func(e int64) Edge) []Edge {
	var k int
	for _, w := range chosen {
		k += bits.OnesCount64(w)
	}
	out := make([]Edge, 0, k)
	for i, w := range chosen {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			e := int64(i)*64 + int64(b)
			if e < slots {
				out = append(out, at(e))
			}
			w &= w - 1
		}
	}
	return out
}

var _ runtime.Operator = (*eaOp)(nil)
var _ runtime.Operator = (*alOp)(nil)
