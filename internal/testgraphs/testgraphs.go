package testgraphs

import (
	"fmt"
	"math"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/par"
	"github.com/gearbox-graph/gearbox/internal/splitmix64"
)

// Case is one graph of the table with the sources to test from.
type Case struct {
	Name    string
	G       *graph.Graph
	Sources []uint32
}

// Weighted returns the case's graph with integer weights: the graph itself
// when it has them, else derived ones (seed 1).
func (c Case) Weighted() *graph.Graph {
	if c.G.WeightKind() == graph.IntWeights {
		return c.G
	}
	return c.G.WithDerivedWeights(1)
}

// MustBuild builds a graph from arcs (pairs) or panics; for fixed test
// inputs only.
func MustBuild(n int, undirected bool, arcs [][2]uint32, weights []uint32) *graph.Graph {
	el := &graph.EdgeList{NumVertices: n}
	for _, a := range arcs {
		el.Src = append(el.Src, a[0])
		el.Dst = append(el.Dst, a[1])
	}
	if weights != nil {
		el.Weights = weights
		el.WeightKind = graph.IntWeights
	}
	if el.Src == nil {
		el.Src, el.Dst = []uint32{}, []uint32{}
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: undirected, KeepSelfLoops: true})
	if err != nil {
		panic(fmt.Sprintf("testgraphs: %v", err))
	}
	return g
}

func path(n int) [][2]uint32 {
	var a [][2]uint32
	for i := 0; i+1 < n; i++ {
		a = append(a, [2]uint32{uint32(i), uint32(i + 1)})
	}
	return a
}

// Grid returns the undirected r x c grid (4-neighbour).
func Grid(r, c int) *graph.Graph {
	var a [][2]uint32
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v := uint32(i*c + j)
			if j+1 < c {
				a = append(a, [2]uint32{v, v + 1})
			}
			if i+1 < r {
				a = append(a, [2]uint32{v, v + uint32(c)})
			}
		}
	}
	return MustBuild(r*c, true, a, nil)
}

// Cases returns the shared table (hand-made and generated graphs). Small
// enough for the race detector. Datasets adds the real graphs.
func Cases() []Case {
	star := [][2]uint32{}
	for i := 1; i <= 20; i++ {
		star = append(star, [2]uint32{0, uint32(i)})
	}
	two := append(path(5), [][2]uint32{{5, 6}, {6, 7}, {7, 5}}...)
	// Directed: 0->1->2->3, 3->1 (cycle), 4->0 (4 unreachable from 0),
	// 5 isolated, 2->6.
	dir := [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {3, 1}, {4, 0}, {2, 6}}
	// Zero weights: 0-1 (0), 1-2 (0), 0-2 (5), 2-3 (1), 3-4 (0).
	zero := MustBuild(5, true, [][2]uint32{{0, 1}, {1, 2}, {0, 2}, {2, 3}, {3, 4}}, []uint32{0, 0, 5, 1, 0})
	// Huge weights: a path whose length overflows uint32.
	hw := make([]uint32, 7)
	for i := range hw {
		hw[i] = math.MaxUint32 - uint32(i)
	}
	huge := MustBuild(8, false, path(8), hw)
	// A shortcut graph where the fewest hops is not the shortest path.
	sc := MustBuild(6, true, [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 5}, {5, 4}}, []uint32{1, 1, 1, 1, 10, 10})
	// Two hubs above the GPU's heavy-vertex thresholds (their edges are
	// split into pieces: kernels/expand.cuh), overlapping leaves, and a
	// tail of leaves on a path.
	var hubs [][2]uint32
	for i := uint32(2); i <= 3000; i++ {
		hubs = append(hubs, [2]uint32{0, i})
	}
	for i := uint32(2000); i < 3600; i++ {
		hubs = append(hubs, [2]uint32{1, i})
	}
	hubs = append(hubs, path(5000)[3599:]...)
	// Beads: 12 vertices in a directed chain, each with 600 arcs to its
	// own 600 vertices, which all point to the next: a BFS's frontiers
	// alternate between one vertex of 600 out-edges and 600 vertices, so
	// a GPU persistent launch switches between one block's local levels
	// and grid-wide ones at every level.
	const beadFan = 600
	var beads [][2]uint32
	for b := uint32(0); b < 12; b++ {
		head := b * (beadFan + 1)
		for i := uint32(1); i <= beadFan; i++ {
			beads = append(beads, [2]uint32{head, head + i}, [2]uint32{head + i, head + beadFan + 1})
		}
	}
	return append([]Case{
		{"empty", MustBuild(0, true, nil, nil), nil},
		{"single", MustBuild(1, true, nil, nil), []uint32{0}},
		{"path10", MustBuild(10, true, path(10), nil), []uint32{0, 5, 9}},
		{"star20", MustBuild(21, true, star, nil), []uint32{0, 7}},
		{"two-components", MustBuild(8, true, two, nil), []uint32{0, 6}},
		{"self-loop", MustBuild(3, true, [][2]uint32{{0, 0}, {0, 1}, {1, 1}}, nil), []uint32{0, 2}},
		{"isolated", MustBuild(6, true, [][2]uint32{{1, 2}}, nil), []uint32{0, 1}},
		{"directed-unreachable", MustBuild(7, false, dir, nil), []uint32{0, 4, 5}},
		{"zero-weights", zero, []uint32{0, 4}},
		{"huge-weights", huge, []uint32{0, 3}},
		{"shortcut", sc, []uint32{0}},
		{"hubs", MustBuild(5000, true, hubs, nil), []uint32{0, 4999}},
		{"beads", MustBuild(12*(beadFan+1)+1, false, beads, nil), []uint32{0, 5 * (beadFan + 1), 3}},
		{"grid30x30", Grid(30, 30), []uint32{0, 465}},
		{"random-undirected", Random(3000, 6000, true, 7), []uint32{0, 1234}},
		{"random-directed", Random(3000, 9000, false, 8), []uint32{0, 2999}},
		{"rmat12", RMAT(12, 8, 3), []uint32{0, 100}},
		{"rmat12-directed", RMATDirected(12, 8, 4), []uint32{1, 2}},
	}, Generated()...)
}

// mix is one splitmix64 step from state x.
func mix(x uint64) uint64 { return splitmix64.Mix(x + 0x9e3779b97f4a7c15) }

// Random returns a uniform random graph with m arcs drawn from seed.
func Random(n, m int, undirected bool, seed uint64) *graph.Graph {
	el := &graph.EdgeList{NumVertices: n, Src: make([]uint32, m), Dst: make([]uint32, m)}
	for i := 0; i < m; i++ {
		h := mix(seed<<40 ^ uint64(i))
		el.Src[i] = uint32((h & 0xffffffff) % uint64(n))
		el.Dst[i] = uint32((h >> 32) % uint64(n))
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: undirected})
	if err != nil {
		panic(err)
	}
	return g
}

// RMAT returns an undirected Graph500-style R-MAT graph (A=.57, B=C=.19)
// with 2^scale vertices and edgeFactor*2^scale edges, deterministic in seed
// and generated in parallel. Vertex ids are scrambled by a fixed bijection
// so degree does not follow id order. Self-loops and duplicates dropped.
func RMAT(scale, edgeFactor int, seed uint64) *graph.Graph {
	return rmat(scale, edgeFactor, seed, true)
}

// RMATDirected is RMAT without symmetrisation.
func RMATDirected(scale, edgeFactor int, seed uint64) *graph.Graph {
	return rmat(scale, edgeFactor, seed, false)
}

func rmat(scale, edgeFactor int, seed uint64, undirected bool) *graph.Graph {
	n := 1 << scale
	m := edgeFactor * n
	el := &graph.EdgeList{NumVertices: n, Src: make([]uint32, m), Dst: make([]uint32, m)}
	const a, b, c = 0.57, 0.19, 0.19
	mask := uint64(n - 1)
	// Odd multiplier mod 2^scale is a bijection on ids.
	mul := mix(seed) | 1
	par.For(m, 1<<14, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var s, d uint64
			h := mix(seed*0x632be59bd9b4e019 ^ uint64(i))
			for bit := 0; bit < scale; bit++ {
				h = mix(h)
				r := float64(h>>11) / (1 << 53)
				switch {
				case r < a:
				case r < a+b:
					d |= 1 << bit
				case r < a+b+c:
					s |= 1 << bit
				default:
					s |= 1 << bit
					d |= 1 << bit
				}
			}
			el.Src[i] = uint32((s * mul) & mask)
			el.Dst[i] = uint32((d * mul) & mask)
		}
	})
	g, err := graph.Build(el, graph.BuildOptions{Undirected: undirected})
	if err != nil {
		panic(err)
	}
	return g
}

// Generated returns small graphs from the graph package's generators
// (Kronecker, uniform random, grid), for the shared test table.
func Generated() []Case {
	var out []Case
	for _, spec := range []string{"kron:10:8", "urand:10:4", "grid:17:23"} {
		g, err := graph.Generate(spec, graph.GenOptions{Seed: 5})
		if err != nil {
			panic(fmt.Sprintf("testgraphs: %s: %v", spec, err))
		}
		out = append(out, Case{Name: spec, G: g, Sources: Sources(g, 2)})
	}
	return out
}
