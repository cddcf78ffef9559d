package cc

import (
	"math/rand/v2"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/runtime"
)

// afforestOp runs Afforest as runtime iterations: one per neighbour round
// (link every vertex to its r-th neighbour, then compress), then one final
// iteration linking the remaining edges of the vertices outside the most
// frequent sampled component. Every edge leaving that component is seen from
// its other endpoint, so skipping it loses nothing. Directed graphs have no
// in-edges at hand, so their final pass covers every vertex (arcs inside the
// big component return at once). The working set is implicit (the vertices
// still to link), so Convert has nothing to do.
type afforestOp struct {
	phased
	rounds int
	seed   uint64
}

// phased is what the CPU's Afforest and union-find operators share: runtime
// iterations that are passes over every vertex, so the working set is
// implicit (Convert has nothing to do) and its size is the vertices the last
// pass linked.
type phased struct {
	base
	phase int
	last  int64 // vertices linked in the last iteration
}

func (o *phased) Info() runtime.OperatorInfo {
	return runtime.OperatorInfo{Info: decider.Info{N: o.n, M: int64(len(o.adj)), Universe: int64(o.n), InitialSize: int64(o.n)}}
}

func (o *phased) Start(decider.Variant) error { return nil }

func (o *phased) Convert(decider.Rep) error { return nil }

func (o *phased) Inspect(bool) (int64, int64) { return o.last, -1 }

// result is a pass's step result: its arcs, and the vertices it linked as
// the working-set size.
func (o *phased) result(edges int64, err error) (runtime.StepResult, error) {
	return runtime.StepResult{Edges: edges, Size: o.last, Degree: -1}, err
}

// Step runs one phase.
func (o *afforestOp) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	return o.result(o.compute(req.Variant))
}

func (o *afforestOp) compute(decider.Variant) (int64, error) {
	if o.phase < o.rounds {
		o.sampleRound(o.phase)
		o.phase++
		if o.last == 0 { // no vertex has that many neighbours
			o.phase = o.rounds
		}
		return o.last, nil
	}
	edges := o.linkRest()
	o.labels = o.parent
	o.Finished = true
	return edges, nil
}

// sampleRound links every vertex to its r-th neighbour and compresses.
//
// Round 0 with at least two rounds starts as ECL-CC does: every vertex
// whose first (smallest) neighbour is smaller simply points at it, a plain
// store in a pass where nothing else writes parents, so no CAS and no
// random reads. The first edges of the local minima left out are linked in
// round 1 together with the second neighbours.
func (o *afforestOp) sampleRound(r int) {
	off, adj, p := o.off, o.adj, o.parent
	if r == 0 && o.rounds >= 2 {
		o.Pool.Thread(o.n, 1<<14, func(w, lo, hi int) {
			var a int64
			for u := lo; u < hi; u++ {
				if off[u] < off[u+1] {
					a++
					if x := adj[off[u]]; x < uint32(u) {
						p[u] = x
						o.record(uint32(u), uint32(u), x)
					}
				}
			}
			o.Cnt[w].A += a
		})
		o.compress()
		o.last, _ = o.Sums()
		return
	}
	deferred := r == 1
	o.Pool.Thread(o.n, 1<<14, func(w, lo, hi int) {
		var a int64
		for u := lo; u < hi; u++ {
			if e := off[u] + int64(r); e < off[u+1] {
				a++
				if deferred && adj[off[u]] > uint32(u) {
					o.link(uint32(u), adj[off[u]])
				}
				o.link(uint32(u), adj[e])
			} else if deferred && off[u] < off[u+1] && adj[off[u]] > uint32(u) {
				o.link(uint32(u), adj[off[u]])
			}
		}
		o.Cnt[w].A += a
	})
	o.compress()
	o.last, _ = o.Sums()
}

// linkRest links the edges not sampled of every vertex outside the most
// frequent component, then compresses; it returns the arcs examined.
func (o *afforestOp) linkRest() int64 {
	off, adj, p := o.off, o.adj, o.parent
	c := o.frequentRoot(1024)
	skip := !o.directed
	start := int64(o.phase)
	o.Pool.Block(off, 1<<12, func(w, lo, hi int, eLo, eHi int64) {
		var a, e int64
		for u := lo; u < hi; u++ {
			if skip && atomic.LoadUint32(&p[u]) == c {
				continue
			}
			from, to := max(off[u]+start, eLo), min(off[u+1], eHi)
			if from >= to {
				continue
			}
			a++
			e += to - from
			for _, v := range adj[from:to] {
				o.link(uint32(u), v)
			}
		}
		o.Cnt[w].A += a
		o.Cnt[w].B += e
	})
	o.compress()
	var e int64
	o.last, e = o.Sums()
	return e
}

// frequentRoot returns the most frequent root among k sampled vertices
// (ties to the smaller id).
func (o *afforestOp) frequentRoot(k int) uint32 {
	if o.n == 0 {
		return 0
	}
	rng := rand.New(rand.NewPCG(o.seed, 0x9e3779b97f4a7c15))
	counts := make(map[uint32]int, k)
	for i := 0; i < k; i++ {
		counts[o.parent[rng.IntN(o.n)]]++
	}
	var best uint32
	bc := -1
	for r, c := range counts {
		if c > bc || (c == bc && r < best) {
			best, bc = r, c
		}
	}
	return best
}

// ufOp is ECL-CC on the CPU in two iterations: every vertex first points at
// its smallest neighbour below it (a hook along that edge), then every edge
// is united by CAS hooks of the larger root under the smaller, and all
// paths are compressed.
type ufOp struct {
	phased
}

// Step runs one pass.
func (o *ufOp) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	return o.result(o.compute(req.Variant))
}

func (o *ufOp) compute(decider.Variant) (int64, error) {
	off, adj, p := o.off, o.adj, o.parent
	if o.phase == 0 {
		o.phase++
		o.Pool.Thread(o.n, 1<<14, func(w, lo, hi int) {
			var h int64
			for v := lo; v < hi; v++ {
				if off[v] < off[v+1] && adj[off[v]] < uint32(v) {
					p[v] = adj[off[v]]
					o.record(uint32(v), uint32(v), adj[off[v]])
					h++
				}
			}
			o.Cnt[w].A += h
		})
		o.last, _ = o.Sums()
		return int64(o.n), nil
	}
	directed := o.directed
	o.Pool.Block(off, 1<<12, func(w, lo, hi int, eLo, eHi int64) {
		var e int64
		for v := lo; v < hi; v++ {
			from, to := max(off[v], eLo), min(off[v+1], eHi)
			if from >= to {
				continue
			}
			vv := uint32(v)
			vr := o.findRoot(vv)
			for _, u := range adj[from:to] {
				e++
				if u >= vv {
					if !directed {
						break // lists are sorted; the other endpoint has it
					}
					if u == vv {
						continue
					}
				}
				ur := o.findRoot(u)
				for vr != ur {
					if vr < ur {
						if atomic.LoadUint32(&p[ur]) == ur && atomic.CompareAndSwapUint32(&p[ur], ur, vr) {
							o.record(ur, vv, u)
							break
						}
						ur = o.findRoot(ur)
					} else {
						if atomic.LoadUint32(&p[vr]) == vr && atomic.CompareAndSwapUint32(&p[vr], vr, ur) {
							o.record(vr, vv, u)
							vr = ur
							break
						}
						vr = o.findRoot(vr)
					}
				}
			}
		}
		o.Cnt[w].B += e
	})
	o.compress()
	o.labels = o.parent
	o.Finished = true
	_, e := o.Sums()
	o.last = 0
	return e, nil
}
