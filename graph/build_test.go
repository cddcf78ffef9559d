package graph

import (
	"math"
	"slices"
	"testing"
)

func TestBuildDirectedDedupSelfLoops(t *testing.T) {
	el := &EdgeList{NumVertices: 4,
		Src: []uint32{0, 0, 0, 1, 2, 2, 3}, Dst: []uint32{2, 1, 1, 1, 3, 0, 0},
		Weights: []uint32{5, 7, 3, 9, 1, 2, 4}, WeightKind: IntWeights}
	g, err := Build(el, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumVertices() != 4 || g.NumEdges() != 5 || !g.Directed() {
		t.Fatalf("n=%d m=%d directed=%v", g.NumVertices(), g.NumEdges(), g.Directed())
	}
	if got := g.Neighbors(0); !slices.Equal(got, []uint32{1, 2}) {
		t.Fatalf("N(0)=%v", got)
	}
	if got := g.EdgeWeights(0); !slices.Equal(got, []uint32{3, 5}) {
		t.Fatalf("W(0)=%v, want the minimum weight of the duplicate kept", got)
	}
	if g.Degree(1) != 0 {
		t.Fatalf("self-loop kept: N(1)=%v", g.Neighbors(1))
	}
	tr := g.Transpose()
	if got := tr.Neighbors(0); !slices.Equal(got, []uint32{2, 3}) {
		t.Fatalf("transpose N(0)=%v", got)
	}
	if got := tr.EdgeWeights(0); !slices.Equal(got, []uint32{2, 4}) {
		t.Fatalf("transpose W(0)=%v", got)
	}
}

func TestBuildUndirected(t *testing.T) {
	el := &EdgeList{NumVertices: 3, Src: []uint32{0, 1, 2, 1}, Dst: []uint32{1, 0, 2, 2}}
	g, err := Build(el, BuildOptions{Undirected: true, KeepSelfLoops: true})
	if err != nil {
		t.Fatal(err)
	}
	if g.Directed() || g.NumEdges() != 5 || g.NumUndirectedEdges() != 3 {
		t.Fatalf("directed=%v m=%d und=%d", g.Directed(), g.NumEdges(), g.NumUndirectedEdges())
	}
	if got := g.Neighbors(2); !slices.Equal(got, []uint32{1, 2}) {
		t.Fatalf("N(2)=%v", got)
	}
	if g.Transpose() != g {
		t.Fatal("undirected transpose should be the graph itself")
	}
}

// TestBuildDropped: Build counts the self-loops and duplicates it drops,
// duplicates per edge in an undirected graph, whatever the bucketing.
func TestBuildDropped(t *testing.T) {
	src := []uint32{0, 0, 0, 1, 2, 2, 3, 3, 1, 1}
	dst := []uint32{2, 1, 1, 1, 3, 0, 0, 3, 0, 1}
	tests := []struct {
		name string
		opt  BuildOptions
		want Dropped
	}{
		{"directed", BuildOptions{}, Dropped{SelfLoops: 3, Duplicates: 1}},                           // 0->1 twice
		{"undirected", BuildOptions{Undirected: true}, Dropped{SelfLoops: 3, Duplicates: 3}},         // 0-1 three times, 0-2 twice
		{"keep self-loops", BuildOptions{KeepSelfLoops: true}, Dropped{SelfLoops: 0, Duplicates: 2}}, // 1->1 twice too
		{"keep duplicates", BuildOptions{KeepDuplicates: true}, Dropped{SelfLoops: 3}},
	}
	for _, weighted := range []bool{false, true} {
		for _, tc := range tests {
			el := &EdgeList{NumVertices: 4, Src: src, Dst: dst}
			if weighted {
				el.Weights, el.WeightKind = make([]uint32, len(src)), IntWeights
			}
			old := bucketArcs
			bucketArcs = 1 // many buckets
			g, err := Build(el, tc.opt)
			bucketArcs = old
			if err != nil {
				t.Fatal(err)
			}
			if g.Dropped() != tc.want {
				t.Errorf("%s (weighted %v): dropped %+v, want %+v", tc.name, weighted, g.Dropped(), tc.want)
			}
		}
	}
}

func TestBuildRejectsOutOfRange(t *testing.T) {
	_, err := Build(&EdgeList{NumVertices: 2, Src: []uint32{0}, Dst: []uint32{2}}, BuildOptions{})
	if err == nil {
		t.Fatal("want error for vertex 2 in a 2-vertex graph")
	}
}

func TestIDMap(t *testing.T) {
	m, err := SortedIDs([]uint64{3, 10, 42})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := m.Internal(10); !ok || v != 1 || m.External(2) != 42 {
		t.Fatalf("Internal(10)=%d,%v External(2)=%d", v, ok, m.External(2))
	}
	if _, ok := m.Internal(11); ok {
		t.Fatal("11 is not a vertex")
	}
	o, _ := SortedIDs([]uint64{5, 6, 7})
	if o.List() != nil || o.Base() != 5 {
		t.Fatal("contiguous ids should become an offset map")
	}
	if _, ok := o.Internal(8); ok {
		t.Fatal("8 is beyond the offset map")
	}
}

func TestDerivedWeightsSymmetric(t *testing.T) {
	el := &EdgeList{NumVertices: 50}
	for i := uint32(0); i < 49; i++ {
		el.Src = append(el.Src, i)
		el.Dst = append(el.Dst, (i*7+3)%50)
	}
	g, _ := Build(el, BuildOptions{Undirected: true})
	w := g.WithDerivedWeights(1)
	if !w.DerivedWeights() || w.WeightKind() != IntWeights {
		t.Fatal("derived weights not marked")
	}
	for v := uint32(0); v < 50; v++ {
		for i, u := range w.Neighbors(v) {
			x := w.EdgeWeights(v)[i]
			if x < 1 || x > 255 {
				t.Fatalf("weight %d out of [1,255]", x)
			}
			j, _ := slices.BinarySearch(w.Neighbors(u), v)
			if w.EdgeWeights(u)[j] != x {
				t.Fatalf("edge %d-%d has weights %d and %d", v, u, x, w.EdgeWeights(u)[j])
			}
		}
	}
}

func TestNewRejectsCorruptOffsets(t *testing.T) {
	cases := []struct {
		name    string
		offsets []int64
		adj     []uint32
	}{
		{"offset past the end", []int64{0, 99, 3}, []uint32{1, 0, 1}},
		{"decreasing", []int64{0, 2, 1, 3}, []uint32{1, 2, 0}},
		{"negative", []int64{0, -1, 2}, []uint32{1, 0}},
		{"neighbour out of range", []int64{0, 1, 2}, []uint32{5, 0}},
		{"unsorted", []int64{0, 2, 2, 2}, []uint32{2, 1}},
		{"empty offsets", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(tc.offsets, tc.adj, nil, Unweighted, true, IDMap{}); err == nil {
				t.Fatal("want an error")
			}
		})
	}
}

// TestMaxDegree: a small graph (and its DegreeSkew), an empty one, and a
// graph spanning many scan chunks.
func TestMaxDegree(t *testing.T) {
	g, err := Build(&EdgeList{NumVertices: 4, Src: []uint32{0, 2, 2, 2}, Dst: []uint32{1, 0, 1, 3}}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := g.MaxDegree(); got != 3 {
		t.Errorf("small graph: %d, want 3", got)
	}
	if got := g.DegreeSkew(); got != 3 { // 3 over 4 arcs / 4 vertices
		t.Errorf("small graph: skew %v, want 3", got)
	}
	e, err := Build(&EdgeList{}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, sk := e.MaxDegree(), e.DegreeSkew(); got != 0 || sk != 0 {
		t.Errorf("empty graph: %d, skew %v, want 0 and 0", got, sk)
	}
	// Several chunks of vertices (the scan's grain is 2^16).
	k := mustGen(t, "kron:17", 0)
	var want int64
	for v := range k.NumVertices() {
		want = max(want, k.Degree(uint32(v)))
	}
	if got := k.MaxDegree(); got != want || k.MaxDegree() != want {
		t.Errorf("kron:17: %d, want %d", got, want)
	}
}

// buildWeighted builds a graph of n vertices from arcs src[i] -> dst[i]
// with weights w of kind.
func buildWeighted(t *testing.T, n int, src, dst, w []uint32, kind WeightKind) *Graph {
	t.Helper()
	g, err := Build(&EdgeList{NumVertices: n, Src: src, Dst: dst, Weights: w, WeightKind: kind}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestWeightBounds: MaxWeight and MinWeight of integer weights (a zero
// among them), of unweighted graphs with and without arcs, and of a graph
// spanning many chunks.
func TestWeightBounds(t *testing.T) {
	k := mustGen(t, "kron:14", 0).WithDerivedWeights(7)
	lo, hi := uint32(math.MaxUint32), uint32(0)
	for _, w := range k.Weights() {
		lo, hi = min(lo, w), max(hi, w)
	}
	for _, c := range []struct {
		name    string
		g       *Graph
		min, mx uint32
	}{
		{"integer weights", buildWeighted(t, 3, []uint32{0, 1, 2}, []uint32{1, 2, 0}, []uint32{3, 4000000000, 8}, IntWeights), 3, 4000000000},
		{"a zero weight", buildWeighted(t, 3, []uint32{0, 1, 2}, []uint32{1, 2, 0}, []uint32{3, 0, 8}, IntWeights), 0, 8},
		{"1 arc, unweighted", buildWeighted(t, 2, []uint32{0}, []uint32{1}, nil, Unweighted), 1, 1},
		{"0 arcs, unweighted", buildWeighted(t, 2, nil, nil, nil, Unweighted), 1, 1},
		{"kron:14", k, lo, hi},
	} {
		if got := c.g.MaxWeight(); got != c.mx {
			t.Errorf("%s: MaxWeight %d, want %d", c.name, got, c.mx)
		}
		if got := c.g.MinWeight(); got != c.min {
			t.Errorf("%s: MinWeight %d, want %d", c.name, got, c.min)
		}
	}
}

// TestMeanWeight: integer, real and absent weights, an arc-less graph, and
// a graph spanning many summation chunks (the sum is per fixed chunk, so
// the result does not depend on the workers).
func TestMeanWeight(t *testing.T) {
	if got := buildWeighted(t, 3, []uint32{0, 1}, []uint32{1, 2}, []uint32{3, 8}, IntWeights).MeanWeight(); got != 5.5 {
		t.Errorf("integer weights: %v, want 5.5", got)
	}
	if got := buildWeighted(t, 3, []uint32{0, 1}, []uint32{1, 2}, []uint32{math.Float32bits(0.25), math.Float32bits(0.5)}, RealWeights).MeanWeight(); got != 0.375 {
		t.Errorf("real weights: %v, want 0.375", got)
	}
	if got := buildWeighted(t, 3, []uint32{0}, []uint32{1}, nil, Unweighted).MeanWeight(); got != 1 {
		t.Errorf("unweighted: %v, want 1", got)
	}
	if got := buildWeighted(t, 3, nil, nil, nil, Unweighted).MeanWeight(); got != 0 {
		t.Errorf("no arcs: %v, want 0", got)
	}
	g := mustGen(t, "kron:12", 0).WithDerivedWeights(1)
	var sum float64
	for _, w := range g.Weights() {
		sum += float64(w)
	}
	if want, got := sum/float64(g.NumEdges()), g.MeanWeight(); math.Abs(got-want) > 1e-9*want || got != g.MeanWeight() {
		t.Errorf("kron:12: %v, want %v (and the same again)", got, want)
	}
}
