package testgraphs

import (
	"sync"

	"github.com/gearbox-graph/gearbox/graph"
)

var (
	benchMu     sync.Mutex
	benchGraphs = map[string]*graph.Graph{}
)

// Bench returns a named benchmark graph, built once per process:
// "kron20" (R-MAT scale 20, edge factor 16, undirected), "kron16",
// "urand20" (uniform random, 2^20 vertices, 16*2^20 edges, undirected),
// "grid1024" (1024x1024 grid). Unknown names return nil.
func Bench(name string) *graph.Graph {
	benchMu.Lock()
	defer benchMu.Unlock()
	if g, ok := benchGraphs[name]; ok {
		return g
	}
	var g *graph.Graph
	switch name {
	case "kron20":
		g = RMAT(20, 16, 1)
	case "kron16":
		g = RMAT(16, 16, 1)
	case "urand20":
		g = Random(1<<20, 16<<20, true, 1)
	case "grid1024":
		g = Grid(1024, 1024)
	default:
		return nil
	}
	benchGraphs[name] = g
	return g
}

// Sources returns k deterministic source vertices with non-zero degree
// (the GAP suite also skips isolated sources).
func Sources(g *graph.Graph, k int) []uint32 {
	n := g.NumVertices()
	var out []uint32
	for i := uint64(0); len(out) < k && i < uint64(100*k+n); i++ {
		v := uint32(mix(i^0xabcdef) % uint64(n))
		if g.Degree(v) > 0 {
			out = append(out, v)
		}
	}
	return out
}
