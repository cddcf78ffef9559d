package testgraphs

import (
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/kernels"
)

// HubCase is a graph for the GPU tests of persistent launches over hubs:
// a BFS from vertex 0 has Levels levels. Under a frontier limit of Limit
// (0: the backend's default) every level should run inside persistent
// launches when All is set, else every level but the one whose frontier
// has more out-edges than a launch takes (gpu.PersistEdges at the
// default limit).
//
// NoLocal turns a launch's local levels off (gpu.WithLocalLevels(0)),
// so that small frontiers, hubs among them, are expanded grid-wide.
type HubCase struct {
	Name    string
	G       *graph.Graph
	Levels  int
	All     bool
	Limit   int
	NoLocal bool
}

// CUDAOptions returns the backend options the case needs: its frontier
// limit, if any, and no local levels where NoLocal is set.
func (c HubCase) CUDAOptions() []gpu.Option {
	var o []gpu.Option
	if c.Limit != 0 {
		o = append(o, gpu.WithFusedLevels(c.Limit))
	}
	if c.NoLocal {
		o = append(o, gpu.WithLocalLevels(0))
	}
	return o
}

// HubCases returns hubs a group of lanes expands, hubs their block
// expands, a mix, 300 heavy and light vertices in one frontier (spread over
// many blocks' lists and groups; their 27840 leaves are under the default
// frontier limit, so they stay in the launch too), hubs the whole grid
// expands (from one out-edge over kernels.PersistMaxDeg; with the others'
// leaves 31988, under the default frontier limit), 70000 hubs of
// PersistGroupMaxDeg+1 out-edges under a frontier limit of 2^19, where
// blocks get more than PERSIST_HEAVY (512) of them and their groups expand
// the rest themselves, PersistHubs+20 hubs of PersistMaxDeg+1 out-edges in
// one level under that limit (the grid's list overflows into the blocks'),
// and a level of such hubs with more out-edges than a launch's level
// takes, which runs on the ordinary kernels.
func HubCases() []HubCase {
	const tail = 10
	many := make([]int, 300)
	for i := range many {
		many[i] = 1 + i%3*kernels.PersistGroupMaxDeg/2 + i%7*20
	}
	hubs := func(name string, all bool, degrees ...int) HubCase {
		return HubCase{Name: name, G: Hubs(degrees, tail), Levels: tail + 3, All: all}
	}
	cases := []HubCase{
		hubs("groups", true, 3, 40, kernels.PersistGroupMaxDeg),
		hubs("blocks", true, kernels.PersistGroupMaxDeg+1, 1000, 4000, kernels.PersistMaxDeg),
		hubs("mixed", true, 1, kernels.PersistGroupMaxDeg, kernels.PersistGroupMaxDeg+1, 7, 300, 2, 5000),
		hubs("many-blocks", true, many...),
		hubs("grid", true, 600, kernels.PersistMaxDeg+1, 3, 15000, kernels.PersistMaxDeg),
		{Name: "fan", G: Fan(100, 700, kernels.PersistGroupMaxDeg+1, tail), Levels: tail + 4, All: true, Limit: 1 << 19},
		{Name: "fan-hubs", G: Fan(4, (kernels.PersistHubs+20)/4, kernels.PersistMaxDeg+1, tail), Levels: tail + 4, All: true, Limit: 1 << 19},
		{Name: "too-heavy", G: Fan(1, gpu.PersistEdges/(kernels.PersistMaxDeg+1)+1, kernels.PersistMaxDeg+1, tail), Levels: tail + 4},
	}
	// Each again with every level grid-wide: small hub frontiers would
	// otherwise run in one block's local levels.
	for _, c := range cases[:len(cases):len(cases)] {
		c.Name += "/no-local"
		c.NoLocal = true
		cases = append(cases, c)
	}
	return cases
}

// smallWeights returns m weights of 1..16 drawn from each arc's index.
func smallWeights(m int) []uint32 {
	w := make([]uint32, m)
	for i := range w {
		w[i] = uint32(1 + mix(uint64(i))%16)
	}
	return w
}

// Hubs returns a directed, weighted graph whose vertex 0 points to one hub
// per entry of degrees, each hub to that many leaves of its own, every leaf
// to the first vertex of a path of tail vertices; the levels from vertex 0
// are 0, the hubs, the leaves, then the path, so a BFS from 0 has
// tail+3 levels. Weights are 1..16 from the arc's index: GPU tests run
// persistent launches over frontiers that hold hubs of chosen degrees.
func Hubs(degrees []int, tail int) *graph.Graph {
	leaves := 0
	for _, d := range degrees {
		leaves += d
	}
	first := 1 + len(degrees) // first leaf
	t0 := first + leaves      // first path vertex
	var arcs [][2]uint32
	next := first
	for i, d := range degrees {
		arcs = append(arcs, [2]uint32{0, uint32(1 + i)})
		for j := 0; j < d; j++ {
			arcs = append(arcs, [2]uint32{uint32(1 + i), uint32(next)}, [2]uint32{uint32(next), uint32(t0)})
			next++
		}
	}
	for i := 0; i+1 < tail; i++ {
		arcs = append(arcs, [2]uint32{uint32(t0 + i), uint32(t0 + i + 1)})
	}
	return MustBuild(t0+tail, false, arcs, smallWeights(len(arcs)))
}

// Fan returns a directed, weighted graph: vertex 0 points to mids
// vertices, each of those to hubsPer hubs of its own, every hub to the
// same leaves vertices, every leaf to the first vertex of a path of tail
// vertices. A BFS from 0 has tail+4 levels, the third a frontier of
// mids*hubsPer hubs of leaves out-edges each. Weights as in Hubs.
func Fan(mids, hubsPer, leaves, tail int) *graph.Graph {
	hubs := mids * hubsPer
	firstHub := 1 + mids
	firstLeaf := firstHub + hubs
	t0 := firstLeaf + leaves
	arcs := make([][2]uint32, 0, mids+hubs*(1+leaves)+leaves+tail)
	for m := 0; m < mids; m++ {
		arcs = append(arcs, [2]uint32{0, uint32(1 + m)})
		for j := 0; j < hubsPer; j++ {
			arcs = append(arcs, [2]uint32{uint32(1 + m), uint32(firstHub + m*hubsPer + j)})
		}
	}
	for h := 0; h < hubs; h++ {
		for l := 0; l < leaves; l++ {
			arcs = append(arcs, [2]uint32{uint32(firstHub + h), uint32(firstLeaf + l)})
		}
	}
	for l := 0; l < leaves; l++ {
		arcs = append(arcs, [2]uint32{uint32(firstLeaf + l), uint32(t0)})
	}
	for i := 0; i+1 < tail; i++ {
		arcs = append(arcs, [2]uint32{uint32(t0 + i), uint32(t0 + i + 1)})
	}
	return MustBuild(t0+tail, false, arcs, smallWeights(len(arcs)))
}
