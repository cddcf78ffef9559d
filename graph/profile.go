package graph

import (
	"slices"
	"sync"
)

// DegreeProfile is a graph's out-degree distribution: how many vertices
// have each distinct non-zero out-degree. The adaptive BFS predicts from it
// how many arcs a pull step would scan (decider). Vertices without arcs
// are left out.
type DegreeProfile struct {
	degrees []int64 // distinct non-zero degrees, ascending
	counts  []int64 // vertices of each
	above   []int64 // above[i]: vertices of degree >= degrees[i]
}

// Len returns the number of distinct non-zero degrees.
func (p *DegreeProfile) Len() int { return len(p.degrees) }

// At returns the i-th smallest distinct non-zero degree and how many
// vertices have it.
func (p *DegreeProfile) At(i int) (degree, vertices int64) { return p.degrees[i], p.counts[i] }

// AtLeast returns the number of vertices of degree at least degrees[i]
// (0 for i = Len()).
func (p *DegreeProfile) AtLeast(i int) int64 {
	if i >= len(p.above) {
		return 0
	}
	return p.above[i]
}

// profileDense is the largest degree counted in an array; larger ones (a
// few hubs) go to a map, so a graph with a vertex of 2^31 arcs does not
// allocate a table that long.
const profileDense = 1 << 16

// DegreeProfile returns the out-degree distribution, computed on first use
// (one pass over the offsets, in parallel chunks merged in order) and
// cached.
func (g *Graph) DegreeProfile() *DegreeProfile {
	if g == nil {
		return &DegreeProfile{}
	}
	g.pOnce.Do(func() { g.profile = g.degreeProfile() })
	return g.profile
}

// InDegreeProfile returns the in-degree distribution: the transpose's
// out-degrees (built on first use for a directed graph, as a pull step
// needs it anyway), or DegreeProfile for an undirected graph.
func (g *Graph) InDegreeProfile() *DegreeProfile {
	if g == nil {
		return &DegreeProfile{}
	}
	return g.Transpose().DegreeProfile()
}

func (g *Graph) degreeProfile() *DegreeProfile {
	var mu sync.Mutex
	dense := make([]int64, min(g.MaxDegree(), profileDense)+1)
	sparse := map[int64]int64{}
	parFor(g.NumVertices(), 1<<16, func(lo, hi int) {
		pd := make([]int64, len(dense))
		var ps map[int64]int64
		for v := lo; v < hi; v++ {
			d := g.offsets[v+1] - g.offsets[v]
			if d <= profileDense {
				pd[d]++
				continue
			}
			if ps == nil {
				ps = map[int64]int64{}
			}
			ps[d]++
		}
		// Counts are integers: the merge order does not change them.
		mu.Lock()
		for d, c := range pd {
			dense[d] += c
		}
		for d, c := range ps {
			sparse[d] += c
		}
		mu.Unlock()
	})
	p := &DegreeProfile{}
	for d := 1; d < len(dense); d++ {
		if dense[d] > 0 {
			p.degrees = append(p.degrees, int64(d))
			p.counts = append(p.counts, dense[d])
		}
	}
	hubs := make([]int64, 0, len(sparse))
	for d := range sparse {
		hubs = append(hubs, d)
	}
	slices.Sort(hubs)
	for _, d := range hubs {
		p.degrees = append(p.degrees, d)
		p.counts = append(p.counts, sparse[d])
	}
	p.above = make([]int64, len(p.counts))
	var s int64
	for i := len(p.counts) - 1; i >= 0; i-- {
		s += p.counts[i]
		p.above[i] = s
	}
	return p
}
