package graph

import (
	"fmt"
	"slices"

	"github.com/gearbox-graph/gearbox/internal/memlimit"
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

// csrBytes is about what Build allocates for n vertices and arcs arcs (the
// edge list it reads not included): offsets and degrees, the partition
// buffer (a fraction of the arcs when they are many, see roundArcs), the
// adjacency before and after de-duplication, and the weights.
func csrBytes(n, arcs int64, weighted bool) int64 {
	rounds := min(maxRounds, max((arcs+roundArcs-1)/roundArcs, 1))
	tmp := (arcs + rounds - 1) / rounds
	perArc, perTmp := int64(8), int64(8) // adj before and after; packed arcs
	if weighted {
		perArc, perTmp = 8, 12 // outAdj, outW; packed arcs, their weights
		if rounds > 1 {
			perArc += 8 // packed, apart from the partition buffer
		}
	}
	return 16*(n+1) + perArc*arcs + perTmp*tmp
}

// Build makes a CSR graph from an edge list using all cores: it partitions
// the arcs by source range, then turns each range into sorted (by default
// de-duplicated) adjacency lists in cache (see buildBucketed). The result
// does not depend on the number of workers.
func Build(el *EdgeList, opt BuildOptions) (*Graph, error) {
	if el == nil {
		return nil, fmt.Errorf("%w: Build of a nil edge list", ErrNil)
	}
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
	arcs := int64(m)
	if opt.Undirected {
		arcs *= 2
	}
	if err := memlimit.Check(csrBytes(int64(n), arcs, weighted), fmt.Sprintf("building a graph of %d vertices and %d arcs", n, arcs)); err != nil {
		return nil, err
	}
	offsets, adj, packed, newDeg, loops, bad := buildBucketed(el, opt)
	if bad >= 0 {
		return nil, fmt.Errorf("%w: edge %d (%d -> %d) names a vertex outside 0..%d", ErrInvalid, bad, el.Src[bad], el.Dst[bad], n-1)
	}
	stored := offsets[n] // arcs before de-duplication

	// Compact into the final arrays when de-duplication dropped arcs or
	// weights must be unpacked.
	outAdj := adj
	var outW []uint32
	if newDeg != nil {
		newTotal := par.PrefixSum(newDeg)
		newDeg[n] = newTotal
		outAdj = make([]uint32, newTotal)
		if weighted {
			outW = make([]uint32, newTotal)
		}
		forEdgeBalanced(offsets, func(lo, hi int) {
			for v := lo; v < hi; v++ {
				src, dst := offsets[v], newDeg[v]
				cnt := newDeg[v+1] - dst
				if weighted {
					for i := int64(0); i < cnt; i++ {
						x := packed[src+i]
						outAdj[dst+i] = uint32(x >> 32)
						outW[dst+i] = uint32(x)
					}
				} else {
					copy(outAdj[dst:dst+cnt], adj[src:src+cnt])
				}
			}
		})
		offsets = newDeg
	}
	ids := el.IDs
	ids.n = n
	dropped := Dropped{SelfLoops: loops, Duplicates: stored - int64(len(outAdj))}
	if opt.Undirected {
		dropped.Duplicates /= 2 // an edge repeated drops its arc in both lists
	}
	return &Graph{offsets: offsets, adj: outAdj, weights: outW, wkind: el.WeightKind, directed: !opt.Undirected, ids: ids, dropped: dropped}, nil
}

// Dropped counts what Build left out of a graph, so that a loader can say
// what the file had that the graph has not.
type Dropped struct {
	// SelfLoops is the number of input arcs v -> v dropped.
	SelfLoops int64 `json:"self_loops"`
	// Duplicates is the number of input arcs dropped for repeating one
	// kept; in an undirected graph u -> v and v -> u are one edge.
	Duplicates int64 `json:"duplicates"`
}

// Dropped returns what Build dropped from the input; zero for graphs not
// made by Build (binary files keep no record).
func (g *Graph) Dropped() Dropped {
	if g == nil {
		return Dropped{}
	}
	return g.dropped
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
