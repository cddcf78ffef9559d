package graph

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// ErrCapacity reports capacities whose sums do not fit the 64-bit
// residual arithmetic (merged parallel arcs, or an arc and its reverse
// together, over math.MaxInt64).
var ErrCapacity = errors.New("capacity overflow")

// Residual is the residual network of a flow problem: for every pair of
// vertices joined by an arc in either direction it stores both arcs u->v
// and v->u, paired through Rev. An arc the input lacks gets capacity 0
// (a pure back arc); parallel arcs are merged with their capacities summed;
// anti-parallel arcs u->v and v->u of the input share one pair, each arc
// keeping its own capacity. Self-loops carry no flow and are dropped.
//
// Arcs are in CSR form, each vertex's list sorted by head, so arc e runs
// from the vertex whose range holds e to Head[e]. Capacities are int64:
// the sum of an arc's and its reverse's capacity is at most
// math.MaxInt64, so every residual capacity fits as flow moves within a
// pair.
type Residual struct {
	// Off has n+1 entries: the arcs of v are Off[v]..Off[v+1]-1.
	Off []int64
	// Head is each arc's target.
	Head []uint32
	// Rev is the index of each arc's reverse (Head[Rev[e]] is e's tail).
	Rev []int64
	// Cap is each arc's capacity as given (0 for an added back arc).
	Cap []int64
}

// NumVertices returns n.
func (r *Residual) NumVertices() int { return len(r.Off) - 1 }

// NumArcs returns the number of residual arcs (twice the number of pairs).
func (r *Residual) NumArcs() int64 { return int64(len(r.Head)) }

// Tail returns the tail of arc e (a binary search over Off).
func (r *Residual) Tail(e int64) uint32 {
	v, _ := slices.BinarySearch(r.Off, e+1)
	return uint32(v - 1)
}

// NewResidual builds the residual network of g with its integer weights as
// capacities (an unweighted graph has capacity 1 on every arc). An
// undirected graph stores both directions of each edge, so each edge gives
// capacity w both ways. Real weights are refused.
func NewResidual(g *Graph) (*Residual, error) {
	if g == nil {
		return nil, errors.New("residual: nil graph")
	}
	if g.WeightKind() == RealWeights {
		return nil, fmt.Errorf("residual: %w: capacities must be integers (load with LoadOptions.WeightScale, gearbox's --weight-scale, to scale and round real weights)", ErrInvalid)
	}
	n, m := g.NumVertices(), len(g.adj)
	src := make([]uint32, m)
	caps := make([]int64, m)
	par.For(n, 1<<12, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			for e := g.offsets[v]; e < g.offsets[v+1]; e++ {
				src[e] = uint32(v)
				if g.weights != nil {
					caps[e] = int64(g.weights[e])
				} else {
					caps[e] = 1
				}
			}
		}
	})
	return NewResidualArcs(n, src, g.adj, caps)
}

type resArc struct {
	head uint32
	cap  int64
}

// NewResidualArcs builds the residual network of the arcs src[i] -> dst[i]
// of capacity caps[i] over vertices 0..n-1. Negative capacities, ids out
// of range and capacity sums over math.MaxInt64 (ErrCapacity) are errors.
func NewResidualArcs(n int, src, dst []uint32, caps []int64) (*Residual, error) {
	if n < 0 || uint64(n) > MaxVertices {
		return nil, fmt.Errorf("residual: %w: vertex count %d outside 0..%d", ErrInvalid, n, uint64(MaxVertices))
	}
	if len(dst) != len(src) || len(caps) != len(src) {
		return nil, fmt.Errorf("residual: %w: %d sources, %d targets and %d capacities", ErrInvalid, len(src), len(dst), len(caps))
	}
	deg := make([]int64, n+1)
	for i := range src {
		u, v := src[i], dst[i]
		if int64(u) >= int64(n) || int64(v) >= int64(n) {
			return nil, fmt.Errorf("residual: %w: arc %d (%d -> %d) names a vertex outside 0..%d", ErrInvalid, i, u, v, n-1)
		}
		if caps[i] < 0 {
			return nil, fmt.Errorf("residual: %w: arc %d (%d -> %d) has negative capacity %d", ErrInvalid, i, u, v, caps[i])
		}
		if u != v {
			deg[u+1]++
			deg[v+1]++
		}
	}
	for v := 1; v <= n; v++ {
		deg[v] += deg[v-1]
	}
	tmp := make([]resArc, deg[n])
	pos := slices.Clone(deg[:n])
	for i := range src {
		u, v := src[i], dst[i]
		if u == v {
			continue
		}
		tmp[pos[u]] = resArc{v, caps[i]}
		pos[u]++
		tmp[pos[v]] = resArc{u, 0}
		pos[v]++
	}
	// Sort each list by head and merge equal heads in place, summing
	// capacities; kept[v] counts the merged arcs.
	kept := make([]int64, n+1)
	errs := make([]error, 1)
	var bad sync.Once
	par.For(n, 1<<10, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			l := tmp[deg[v]:deg[v+1]]
			slices.SortFunc(l, func(a, b resArc) int { return int(a.head) - int(b.head) })
			k := 0
			for i := range l {
				if k > 0 && l[k-1].head == l[i].head {
					if l[k-1].cap > math.MaxInt64-l[i].cap {
						bad.Do(func() {
							errs[0] = fmt.Errorf("residual: %w: parallel arcs %d -> %d sum to over %d", ErrCapacity, v, l[i].head, int64(math.MaxInt64))
						})
						return
					}
					l[k-1].cap += l[i].cap
					continue
				}
				l[k] = l[i]
				k++
			}
			kept[v+1] = int64(k)
		}
	})
	if errs[0] != nil {
		return nil, errs[0]
	}
	for v := 1; v <= n; v++ {
		kept[v] += kept[v-1]
	}
	r := &Residual{Off: kept, Head: make([]uint32, kept[n]), Rev: make([]int64, kept[n]), Cap: make([]int64, kept[n])}
	par.For(n, 1<<12, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			for i, a := range tmp[deg[v] : deg[v]+kept[v+1]-kept[v]] {
				r.Head[kept[v]+int64(i)] = a.head
				r.Cap[kept[v]+int64(i)] = a.cap
			}
		}
	})
	par.For(n, 1<<10, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			for e := r.Off[v]; e < r.Off[v+1]; e++ {
				w := r.Head[e]
				l := r.Head[r.Off[w]:r.Off[w+1]]
				i, _ := slices.BinarySearch(l, uint32(v)) // present: every arc was added with its reverse
				re := r.Off[w] + int64(i)
				r.Rev[e] = re
				if v < int(w) && r.Cap[e] > math.MaxInt64-r.Cap[re] {
					bad.Do(func() {
						errs[0] = fmt.Errorf("residual: %w: capacities of %d -> %d and %d -> %d sum to over %d", ErrCapacity, v, w, w, v, int64(math.MaxInt64))
					})
				}
			}
		}
	})
	if errs[0] != nil {
		return nil, errs[0]
	}
	return r, nil
}
