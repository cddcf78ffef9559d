package frontier

import (
	"sync/atomic"
	"time"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/mapping"
)

// NoParent is the parent of a source, of an unreached vertex, and of every
// vertex before a parent pass.
const NoParent = Unreached

// ParentsByLevel sets parent[v], for every vertex v of level[v] > 0 (not
// Unreached), to an in-neighbour u of level[u]+1 == level[v], and
// NoParent elsewhere. levels must be exact BFS levels from a set of
// sources along g's out-arcs; in is g's transpose (g itself when
// undirected). Each vertex scans its own in-arcs and stops at the first
// tight one, so the pass needs no atomics; which tight arc is taken does
// not matter, a level-(d-1) parent always leads back to a source in d
// steps.
func ParentsByLevel(pool *mapping.Pool, in *graph.Graph, level, parent []uint32) {
	ioff, iadj := in.Offsets(), in.Adj()
	pool.Thread(len(level), 1<<12, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			p := uint32(NoParent)
			if d := level[v]; d != Unreached && d > 0 {
				for _, u := range iadj[ioff[v]:ioff[v+1]] {
					if level[u]+1 == d {
						p = u
						break
					}
				}
			}
			parent[v] = p
		}
	})
}

// ParentsByTightArcs sets parent[v] for every vertex a BFS from sources
// reaches over tight arcs (those tight accepts: for shortest paths,
// dist[u]+w(u,x) == dist[x]), the vertex over whose arc the BFS first
// reached it, and NoParent elsewhere (sources included). Unlike a scan for
// any tight in-arc, the BFS gives a tree even where zero-weight arcs make
// tight cycles. levels is scratch of one value per vertex.
func ParentsByTightArcs(pool *mapping.Pool, g *graph.Graph, sources []uint32, tight ArcFilter, parent, levels []uint32) error {
	pool.Thread(len(parent), 1<<14, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			parent[i] = NoParent
		}
	})
	// The filter claims x's parent: of the workers that find x unreached
	// over a tight arc, the one whose compare-and-swap wins is also the
	// one whose arc the BFS takes (the others' filters say no).
	claim := func(arc int64, u, x uint32) bool {
		return tight(arc, u, x) && atomic.CompareAndSwapUint32(&parent[x], NoParent, u)
	}
	_, err := NewBFS(pool, g).Run(sources, Traversal{Filter: claim}, levels)
	return err
}

// Path returns the vertices from a root (a vertex without parent) to t,
// following parent; false when t is outside parent or the walk does not
// end within len(parent) steps (not a forest).
func Path(parent []uint32, t uint32) ([]uint32, bool) {
	if int64(t) >= int64(len(parent)) {
		return nil, false
	}
	var rev []uint32
	for v := t; ; v = parent[v] {
		rev = append(rev, v)
		if parent[v] == NoParent {
			break
		}
		if len(rev) > len(parent) {
			return nil, false
		}
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev, true
}

// ParentOf returns parent[v], and false when v is outside parent or has no
// parent (a root, an unreached vertex, or no parents recorded).
func ParentOf(parent []uint32, v uint32) (uint32, bool) {
	if int64(v) >= int64(len(parent)) || parent[v] == NoParent {
		return 0, false
	}
	return parent[v], true
}

// PathIDs maps a path of internal vertex ids to the graph file's ids.
func PathIDs(p []uint32, ids graph.IDMap) []uint64 {
	out := make([]uint64, len(p))
	for i, v := range p {
		out[i] = ids.External(v)
	}
	return out
}

// DeviceParents is implemented by the operators that build the parent tree
// themselves (the GPU's, CUDAParents): the tree (nil when they built none)
// and the time its pass took, already inside the run's time.
type DeviceParents interface {
	Parents() (parent []uint32, pass time.Duration)
}
