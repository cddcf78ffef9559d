package graph

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestBuildMatchesNaive(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	defer func(a int64, b int, c, d int64) {
		bucketArcs, maxBuckets, roundArcs, maxRounds = a, b, c, d
	}(bucketArcs, maxBuckets, roundArcs, maxRounds)
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 60; trial++ {
		n := []int{0, 1, 2, 7, 100, 5000, 70000}[trial%7]
		m := r.IntN(4*n + 1)
		if trial%5 == 0 {
			m = r.IntN(300000)
		}
		if n == 0 {
			m = 0
		}
		el := &EdgeList{NumVertices: n, Src: make([]uint32, m), Dst: make([]uint32, m)}
		hub := uint32(r.IntN(max(n, 1)))
		for i := range el.Src {
			el.Src[i], el.Dst[i] = uint32(r.IntN(n)), uint32(r.IntN(n))
			if i%3 == 0 {
				el.Src[i] = hub // a skewed list
			}
			if i%7 == 0 {
				el.Dst[i] = el.Src[i] // self-loops
			}
		}
		if trial%2 == 1 {
			el.WeightKind = IntWeights
			el.Weights = make([]uint32, m)
			for i := range el.Weights {
				el.Weights[i] = uint32(r.IntN(5))
			}
		}
		opt := BuildOptions{Undirected: trial%3 == 0, KeepSelfLoops: trial%4 == 1, KeepDuplicates: trial%5 == 2}
		runtime.GOMAXPROCS(1 + trial%4)
		bucketArcs, maxBuckets, roundArcs, maxRounds = 1<<15, 4096, 1<<27, 4
		if trial%2 == 0 {
			bucketArcs, maxBuckets = 8, 1<<20 // many tiny buckets
		}
		if trial%3 != 2 {
			roundArcs, maxRounds = int64(1+trial%50), int64(1+trial%6) // several rounds
		}
		want := naiveBuild(el, opt)
		got, err := Build(el, opt)
		if err != nil {
			t.Fatal(err)
		}
		if err := got.validate(); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.offsets, want.offsets) || !slices.Equal(got.adj, want.adj) || !slices.Equal(got.weights, want.weights) || got.directed != want.directed || got.wkind != want.wkind {
			t.Fatalf("trial %d n=%d m=%d opt=%+v: Build differs from the naive builder", trial, n, m, opt)
		}
	}
	_, err := Build(&EdgeList{NumVertices: 3, Src: []uint32{0, 1, 5, 9}, Dst: []uint32{1, 7, 0, 0}}, BuildOptions{})
	if err == nil || !strings.Contains(err.Error(), "edge 1 (1 -> 7)") {
		t.Fatalf("out-of-range edges: %v, want the first bad edge named", err)
	}
}

// naiveBuild is the obvious serial builder Build must agree with.
func naiveBuild(el *EdgeList, opt BuildOptions) *Graph {
	n := el.NumVertices
	lists := make([][]uint64, n) // dst<<32|w
	for i := range el.Src {
		s, d := el.Src[i], el.Dst[i]
		if s == d && !opt.KeepSelfLoops {
			continue
		}
		var w uint32
		if el.Weights != nil {
			w = el.Weights[i]
		}
		lists[s] = append(lists[s], uint64(d)<<32|uint64(w))
		if opt.Undirected && s != d {
			lists[d] = append(lists[d], uint64(s)<<32|uint64(w))
		}
	}
	g := &Graph{offsets: make([]int64, n+1), wkind: el.WeightKind, directed: !opt.Undirected}
	g.adj = []uint32{}
	if el.Weights != nil {
		g.weights = []uint32{}
	}
	for v, l := range lists {
		slices.Sort(l)
		for i, x := range l {
			if !opt.KeepDuplicates && i > 0 && x>>32 == l[i-1]>>32 {
				continue
			}
			g.adj = append(g.adj, uint32(x>>32))
			if el.Weights != nil {
				g.weights = append(g.weights, uint32(x))
			}
		}
		g.offsets[v+1] = int64(len(g.adj))
	}
	return g
}
