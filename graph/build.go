package graph

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// EdgeList is the input of Build: arcs Src[i] -> Dst[i] over vertices
// 0..NumVertices-1, with optional weights parallel to them.
type EdgeList struct {
	NumVertices int
	Src, Dst    []uint32
	Weights     []uint32 // nil, or len(Src) weights of WeightKind
	WeightKind  WeightKind
	IDs         IDMap
}

// BuildOptions controls Build. The zero value builds a directed graph without
// self-loops or duplicate arcs.
type BuildOptions struct {
	// Undirected adds the reverse of every arc and marks the graph
	// undirected.
	Undirected bool
	// KeepSelfLoops keeps arcs v -> v (dropped by default).
	KeepSelfLoops bool
	// KeepDuplicates keeps parallel arcs (by default only the one of
	// minimum weight survives).
	KeepDuplicates bool
}

func parFor(n, grain int, fn func(lo, hi int)) { par.For(n, grain, fn) }

// Build makes a CSR graph from an edge list using all cores: it counts
// degrees, scatters arcs, then sorts and (by default) de-duplicates each
// adjacency list. The result does not depend on the number of workers.
func Build(el *EdgeList, opt BuildOptions) (*Graph, error) {
	n := el.NumVertices
	if n < 0 || uint64(n) > MaxVertices {
		return nil, fmt.Errorf("%w: vertex count %d outside 0..%d", ErrInvalid, n, uint64(MaxVertices))
	}
	m := len(el.Src)
	if len(el.Dst) != m {
		return nil, fmt.Errorf("%w: %d sources but %d destinations", ErrInvalid, m, len(el.Dst))
	}
	weighted := el.Weights != nil
	if weighted && len(el.Weights) != m {
		return nil, fmt.Errorf("%w: %d weights for %d edges", ErrInvalid, len(el.Weights), m)
	}
	if weighted == (el.WeightKind == Unweighted) {
		return nil, fmt.Errorf("%w: weight kind %v with %d weights", ErrInvalid, el.WeightKind, len(el.Weights))
	}
	var bad atomic.Int64
	bad.Store(-1)
	// Count out-degrees (both directions when symmetrizing).
	deg := make([]int64, n+1)
	parFor(m, 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			s, d := el.Src[i], el.Dst[i]
			if int64(s) >= int64(n) || int64(d) >= int64(n) {
				bad.CompareAndSwap(-1, int64(i))
				return
			}
			if s == d && !opt.KeepSelfLoops {
				continue
			}
			atomic.AddInt64(&deg[s], 1)
			if opt.Undirected && s != d {
				atomic.AddInt64(&deg[d], 1)
			}
		}
	})
	if i := bad.Load(); i >= 0 {
		return nil, fmt.Errorf("%w: edge %d (%d -> %d) names a vertex outside 0..%d", ErrInvalid, i, el.Src[i], el.Dst[i], n-1)
	}
	total := par.PrefixSum(deg)
	offsets := deg // exclusive scan: offsets[v] = start of v
	cursor := make([]int64, n)
	copy(cursor, offsets[:n])
	offsets[n] = total

	// Scatter. Weighted arcs are packed as dst<<32|w so one sort orders by
	// neighbour, then weight, and de-duplication keeps the minimum weight.
	var packed []uint64
	var adj []uint32
	if weighted {
		packed = make([]uint64, total)
	} else {
		adj = make([]uint32, total)
	}
	put := func(s, d uint32, w uint32) {
		p := atomic.AddInt64(&cursor[s], 1) - 1
		if weighted {
			packed[p] = uint64(d)<<32 | uint64(w)
		} else {
			adj[p] = d
		}
	}
	parFor(m, 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			s, d := el.Src[i], el.Dst[i]
			if s == d && !opt.KeepSelfLoops {
				continue
			}
			var w uint32
			if weighted {
				w = el.Weights[i]
			}
			put(s, d, w)
			if opt.Undirected && s != d {
				put(d, s, w)
			}
		}
	})
	cursor = nil

	// Sort each list and count what survives de-duplication.
	newDeg := make([]int64, n+1)
	forEdgeBalanced(offsets, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			a, b := offsets[v], offsets[v+1]
			var k int64
			if weighted {
				l := packed[a:b]
				slices.Sort(l)
				if !opt.KeepDuplicates {
					l = slices.CompactFunc(l, func(x, y uint64) bool { return x>>32 == y>>32 })
				}
				k = int64(len(l))
			} else {
				l := adj[a:b]
				slices.Sort(l)
				if !opt.KeepDuplicates {
					l = slices.Compact(l)
				}
				k = int64(len(l))
			}
			newDeg[v] = k
		}
	})
	newTotal := par.PrefixSum(newDeg)
	newDeg[n] = newTotal

	// Compact into the final arrays.
	outAdj := adj
	var outW []uint32
	if weighted || newTotal != total {
		outAdj = make([]uint32, newTotal)
	}
	if weighted {
		outW = make([]uint32, newTotal)
	}
	if weighted || newTotal != total {
		forEdgeBalanced(offsets, func(lo, hi int) {
			for v := lo; v < hi; v++ {
				src, dst := offsets[v], newDeg[v]
				cnt := newDeg[v+1] - dst
				for i := int64(0); i < cnt; i++ {
					if weighted {
						x := packed[src+i]
						outAdj[dst+i] = uint32(x >> 32)
						outW[dst+i] = uint32(x)
					} else {
						outAdj[dst+i] = adj[src+i]
					}
				}
			}
		})
	}
	ids := el.IDs
	ids.n = n
	return &Graph{offsets: newDeg, adj: outAdj, weights: outW, wkind: el.WeightKind, directed: !opt.Undirected, ids: ids}, nil
}

// forEdgeBalanced runs fn over vertex ranges holding roughly equal numbers of
// arcs, so one huge adjacency list does not serialise the rest.
func forEdgeBalanced(offsets []int64, fn func(lo, hi int)) {
	n := len(offsets) - 1
	total := offsets[n]
	w := par.Workers()
	parts := 8 * w
	if n < 1<<12 || w == 1 {
		fn(0, n)
		return
	}
	bounds := make([]int, parts+1)
	for p := 1; p < parts; p++ {
		target := total * int64(p) / int64(parts)
		i, _ := slices.BinarySearch(offsets, target)
		bounds[p] = max(min(i, n), bounds[p-1])
	}
	bounds[parts] = n
	par.For(parts, 1, func(plo, phi int) {
		for p := plo; p < phi; p++ {
			if bounds[p] < bounds[p+1] {
				fn(bounds[p], bounds[p+1])
			}
		}
	})
}
