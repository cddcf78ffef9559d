package msf

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/runtime"
)

// configs are the working-set settings every variant runs under: the
// default policy, each fixed representation and mapping, and a policy that
// switches representation every iteration (so both conversions run).
func configs() map[string][]runtime.Option {
	out := map[string][]runtime.Option{}
	workers := []int{1, 3}
	if raceEnabled {
		workers = []int{3} // the races are among several workers
	}
	for _, w := range workers {
		p := "w" + string(rune('0'+w))
		out[p+"/auto"] = []runtime.Option{runtime.WithWorkers(w)}
		out[p+"/BM-thread"] = []runtime.Option{runtime.WithWorkers(w), runtime.WithVariant(decider.Variant{Mapping: decider.Thread, Rep: decider.Bitmap})}
		out[p+"/BM-block"] = []runtime.Option{runtime.WithWorkers(w), runtime.WithVariant(decider.Variant{Mapping: decider.Block, Rep: decider.Bitmap})}
		out[p+"/QU"] = []runtime.Option{runtime.WithWorkers(w), runtime.WithVariant(decider.Variant{Mapping: decider.Block, Rep: decider.Queue})}
		out[p+"/cycle"] = []runtime.Option{runtime.WithWorkers(w), runtime.WithPolicy(testgraphs.Cycle(
			decider.Variant{Mapping: decider.Block, Rep: decider.Queue},
			decider.Variant{Mapping: decider.Thread, Rep: decider.Bitmap}))}
	}
	return out
}

// build makes a graph keeping self-loops and parallel arcs.
func build(t testing.TB, n int, undirected bool, arcs [][2]uint32, w []uint32, kind graph.WeightKind) *graph.Graph {
	t.Helper()
	el := &graph.EdgeList{NumVertices: n, Src: []uint32{}, Dst: []uint32{}, Weights: w, WeightKind: kind}
	for _, a := range arcs {
		el.Src = append(el.Src, a[0])
		el.Dst = append(el.Dst, a[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: undirected, KeepSelfLoops: true, KeepDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func f32(xs ...float32) []uint32 {
	out := make([]uint32, len(xs))
	for i, x := range xs {
		out[i] = math.Float32bits(x)
	}
	return out
}

// handMade are graphs with ties, parallel edges of different weights,
// self-loops, isolated vertices and float weights.
func handMade(t testing.TB) []testgraphs.Case {
	// Every weight equal: the forest is decided by edge ids alone.
	k5 := [][2]uint32{}
	for u := uint32(0); u < 5; u++ {
		for v := u + 1; v < 5; v++ {
			k5 = append(k5, [2]uint32{u, v})
		}
	}
	ones := make([]uint32, len(k5))
	for i := range ones {
		ones[i] = 7
	}
	// Parallel edges 0-1 (weights 9 and 2), a self-loop of weight 0 and
	// an isolated vertex 4.
	par := [][2]uint32{{0, 1}, {0, 1}, {1, 2}, {2, 2}, {2, 3}, {3, 0}}
	parW := []uint32{9, 2, 5, 0, 5, 5}
	return []testgraphs.Case{
		{Name: "ties-k5", G: build(t, 5, true, k5, ones, graph.IntWeights)},
		{Name: "parallel-loops-isolated", G: build(t, 5, true, par, parW, graph.IntWeights)},
		{Name: "parallel-directed", G: build(t, 5, false, append(par, [2]uint32{1, 0}), append(slices.Clone(parW), 1), graph.IntWeights)},
		{Name: "float-ties", G: build(t, 6, true, [][2]uint32{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {2, 3}}, f32(0.5, 0.5, 0.5, 0, 1e-3, 1e-3, 2.25), graph.RealWeights)},
		{Name: "no-edges", G: build(t, 4, true, nil, nil, graph.Unweighted)},
	}
}

func allCases(t testing.TB) []testgraphs.Case {
	return append(handMade(t), testgraphs.Cases()...)
}

// check runs every variant under every configuration on g and compares
// each forest with Kruskal's and the property verifier.
func check(t *testing.T, name string, g *graph.Graph, cfgs map[string][]runtime.Option) {
	ctx := context.Background()
	ref, err := Run(ctx, g, WithVariant(Kruskal))
	if err != nil {
		t.Fatalf("%s: kruskal: %v", name, err)
	}
	if err := Verify(g, ref.Edges(), DefaultSeed); err != nil {
		t.Fatalf("%s: kruskal: %v", name, err)
	}
	if ref.NumComponents() != g.NumVertices()-len(ref.Edges()) {
		t.Fatalf("%s: components %d", name, ref.NumComponents())
	}
	for _, v := range []Variant{Auto, EA, AL, ECL} {
		for cn, c := range cfgs {
			r, err := Run(ctx, g, append([]runtime.Option{WithVariant(v)}, c...)...)
			if err != nil {
				t.Fatalf("%s %v %s: %v", name, v, cn, err)
			}
			if !slices.Equal(r.Edges(), ref.Edges()) {
				t.Fatalf("%s %v %s: forest of %d edges differs from Kruskal's %d", name, v, cn, len(r.Edges()), len(ref.Edges()))
			}
			if r.TotalWeight() != ref.TotalWeight() || r.TotalWeightFloat() != ref.TotalWeightFloat() {
				t.Fatalf("%s %v %s: total %d/%v, Kruskal %d/%v", name, v, cn, r.TotalWeight(), r.TotalWeightFloat(), ref.TotalWeight(), ref.TotalWeightFloat())
			}
			if r.DerivedWeights() != (g.WeightKind() == graph.Unweighted) || r.Directed() != g.Directed() {
				t.Fatalf("%s %v %s: derived %v directed %v", name, v, cn, r.DerivedWeights(), r.Directed())
			}
		}
	}
}

func TestVariantsMatchKruskal(t *testing.T) {
	cfgs := configs()
	for _, c := range allCases(t) {
		check(t, c.Name, c.G, cfgs)
	}
}

func TestHandMadeAnswers(t *testing.T) {
	ctx := context.Background()
	cases := handMade(t)
	// ties-k5: every weight 7, ids in CSR order: the star 0-1..0-4.
	r, err := Run(ctx, cases[0].G)
	if err != nil {
		t.Fatal(err)
	}
	want := []Edge{{0, 1, 7}, {0, 2, 7}, {0, 3, 7}, {0, 4, 7}}
	if !slices.Equal(r.Edges(), want) || r.TotalWeight() != 28 || r.NumComponents() != 1 {
		t.Errorf("ties-k5: %v total %d comps %d", r.Edges(), r.TotalWeight(), r.NumComponents())
	}
	// parallel: 0-1 by weight 2, then 1-2, 2-3 (weight 5, lower ids than 0-3... 0-3 is id 2).
	r, err = Run(ctx, cases[1].G)
	if err != nil {
		t.Fatal(err)
	}
	if r.TotalWeight() != 12 || len(r.Edges()) != 3 || r.NumComponents() != 2 {
		t.Errorf("parallel: %v total %d comps %d", r.Edges(), r.TotalWeight(), r.NumComponents())
	}
	// float-ties: two triangles (0.5 each side; 0, 1e-3, 1e-3) and a bridge 2.25.
	r, err = Run(ctx, cases[3].G)
	if err != nil {
		t.Fatal(err)
	}
	wantF := 0.5 + 0.5 + float64(float32(1e-3))*1 + 0 + 2.25
	if r.TotalWeightFloat() != wantF || len(r.Edges()) != 5 {
		t.Errorf("float-ties: total %v want %v, %v", r.TotalWeightFloat(), wantF, r.Edges())
	}
	// no edges: an empty forest.
	r, err = Run(ctx, cases[4].G)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Edges()) != 0 || r.NumComponents() != 4 || r.TotalWeight() != 0 {
		t.Errorf("no-edges: %v comps %d", r.Edges(), r.NumComponents())
	}
}

func TestDatasets(t *testing.T) {
	if raceEnabled {
		t.Skip("the real graphs take minutes under the race detector; the shared table covers the races")
	}
	cases, err := testgraphs.Datasets()
	if err != nil {
		t.Skip(err)
	}
	cfgs := map[string][]runtime.Option{}
	for k, v := range configs() {
		if k == "w3/auto" || k == "w1/QU" || k == "w3/cycle" {
			cfgs[k] = v
		}
	}
	for _, c := range cases {
		check(t, c.Name, c.G, cfgs)
	}
}

func TestBadWeights(t *testing.T) {
	arcs := [][2]uint32{{0, 1}, {1, 2}}
	for _, w := range []float32{-1, float32(math.NaN()), float32(math.Inf(1))} {
		g := build(t, 3, true, arcs, f32(1, w), graph.RealWeights)
		if _, err := Run(context.Background(), g); !errors.Is(err, ErrWeight) {
			t.Errorf("weight %v: err %v, want ErrWeight", w, err)
		}
	}
	if _, err := Run(context.Background(), nil); !errors.Is(err, ErrNilGraph) {
		t.Errorf("nil graph: %v", err)
	}
	if _, err := Run(context.Background(), build(t, 2, true, nil, nil, graph.Unweighted), WithVariant(Variant(99))); !errors.Is(err, ErrUnknownVariant) {
		t.Errorf("bad variant: %v", err)
	}
}

func TestVerifyRejects(t *testing.T) {
	g := build(t, 4, true, [][2]uint32{{0, 1}, {1, 2}, {2, 0}, {2, 3}}, []uint32{1, 2, 3, 4}, graph.IntWeights)
	good := []Edge{{0, 1, 1}, {1, 2, 2}, {2, 3, 4}}
	if err := Verify(g, good, 0); err != nil {
		t.Fatalf("valid forest rejected: %v", err)
	}
	bad := map[string][]Edge{
		"heavier":   {{0, 1, 1}, {0, 2, 3}, {2, 3, 4}},
		"cycle":     {{0, 1, 1}, {1, 2, 2}, {0, 2, 3}},
		"too-few":   {{0, 1, 1}, {1, 2, 2}},
		"no-edge":   {{0, 1, 1}, {1, 2, 2}, {0, 3, 4}},
		"bad-w":     {{0, 1, 1}, {1, 2, 2}, {2, 3, 5}},
		"out-range": {{0, 1, 1}, {1, 2, 2}, {2, 9, 4}},
	}
	for name, f := range bad {
		if err := Verify(g, f, 0); !errors.Is(err, ErrVerify) {
			t.Errorf("%s: err %v, want ErrVerify", name, err)
		}
	}
}

func TestParseVariant(t *testing.T) {
	for _, v := range append(Variants(), Auto) {
		got, err := ParseVariant(v.String())
		if err != nil || got != v {
			t.Errorf("%v: %v %v", v, got, err)
		}
	}
	if _, err := ParseVariant("prim"); !errors.Is(err, ErrUnknownVariant) {
		t.Errorf("prim: %v", err)
	}
}

func TestPolicy(t *testing.T) {
	p := DefaultVariantPolicy()
	if v, _ := p.Choose(GraphStats{Vertices: 100, Edges: 800}); v != ECL {
		t.Errorf("degree 16: %v", v)
	}
	if v, _ := p.Choose(GraphStats{Vertices: 100, Edges: 200}); v != EA {
		t.Errorf("degree 4, 2n edges: %v", v)
	}
	if v, _ := p.Choose(GraphStats{Vertices: 100}); v != EA {
		t.Errorf("no edges: %v", v)
	}
}

// TestLightThreshold checks that ECL's filter engages on a graph of average
// degree well above 4 (so the tests above run both of its phases) and
// admits about lightFactor*n edges.
func TestLightThreshold(t *testing.T) {
	g := testgraphs.RMAT(12, 16, 3).WithDerivedWeights(DefaultSeed)
	in, err := prepare(g, DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	th := lightThreshold(in)
	if th == noKey {
		t.Fatalf("no threshold for %d edges on %d vertices", in.edges, g.NumVertices())
	}
	var light int64
	for _, r := range buildEdgeArray(mapping.NewPool(1), in) {
		if r.key < th {
			light++
		}
	}
	want := int64(lightFactor * g.NumVertices())
	if light < want/2 || light > 2*want {
		t.Errorf("%d light edges, want about %d", light, want)
	}
}

// TestRelease: a released result has no edges but still answers its
// totals; a later run is unaffected.
func TestRelease(t *testing.T) {
	g := testgraphs.RMAT(8, 8, 1)
	r, err := Run(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	edges, total, ncomp := slices.Clone(r.Edges()), r.TotalWeight(), r.NumComponents()
	r.Release()
	r.Release() // twice is harmless
	if r.Edges() != nil || r.TotalWeight() != total || r.NumComponents() != ncomp {
		t.Fatalf("after Release: %d edges, total %d (want %d), %d components (want %d)", len(r.Edges()), r.TotalWeight(), total, r.NumComponents(), ncomp)
	}
	again, err := Run(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Edges(), edges) {
		t.Fatalf("run after a Release: %d edges, want %d", len(again.Edges()), len(edges))
	}
}
