package cc

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

type testGraph struct {
	name string
	g    *graph.Graph
}

func build(t testing.TB, n int, src, dst []uint32, opt graph.BuildOptions) *graph.Graph {
	t.Helper()
	g, err := graph.Build(&graph.EdgeList{NumVertices: n, Src: src, Dst: dst}, opt)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return g
}

func undirected(t testing.TB, n int, pairs ...[2]uint32) *graph.Graph {
	var s, d []uint32
	for _, p := range pairs {
		s, d = append(s, p[0]), append(d, p[1])
	}
	return build(t, n, s, d, graph.BuildOptions{Undirected: true})
}

// randomGraph has m random edges over n vertices, ids scrambled so
// components are not id ranges.
func randomGraph(t testing.TB, n, m int, seed uint64, opt graph.BuildOptions) *graph.Graph {
	r := rand.New(rand.NewPCG(seed, 1))
	s, d := make([]uint32, m), make([]uint32, m)
	for i := range s {
		s[i], d[i] = uint32(r.IntN(n)), uint32(r.IntN(n))
	}
	return build(t, n, s, d, opt)
}

// pathGraph is a path through a random permutation of n vertices: the worst
// case for hooking (long chains, ids in no order).
func pathGraph(t testing.TB, n int, seed uint64) *graph.Graph {
	perm := rand.New(rand.NewPCG(seed, 2)).Perm(n)
	var s, d []uint32
	for i := 0; i+1 < n; i++ {
		s, d = append(s, uint32(perm[i])), append(d, uint32(perm[i+1]))
	}
	return build(t, n, s, d, graph.BuildOptions{Undirected: true})
}

func gridGraph(t testing.TB, rows, cols int) *graph.Graph {
	var s, d []uint32
	id := func(r, c int) uint32 { return uint32(r*cols + c) }
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if c+1 < cols {
				s, d = append(s, id(r, c)), append(d, id(r, c+1))
			}
			if r+1 < rows {
				s, d = append(s, id(r, c)), append(d, id(r+1, c))
			}
		}
	}
	return build(t, rows*cols, s, d, graph.BuildOptions{Undirected: true})
}

// smallComponents is many disjoint cliques and paths of sizes 1..k.
func smallComponents(t testing.TB, k int) *graph.Graph {
	var s, d []uint32
	n := 0
	for size := 1; size <= k; size++ {
		for i := 1; i < size; i++ {
			s, d = append(s, uint32(n)), append(d, uint32(n+i))
			s, d = append(s, uint32(n+i-1)), append(d, uint32(n+i))
		}
		n += size
	}
	// Scramble ids.
	perm := rand.New(rand.NewPCG(7, 7)).Perm(n)
	for i := range s {
		s[i], d[i] = uint32(perm[s[i]]), uint32(perm[d[i]])
	}
	return build(t, n, s, d, graph.BuildOptions{Undirected: true})
}

func testGraphs(t testing.TB) []testGraph {
	var shared []testGraph
	for _, c := range testgraphs.Cases() {
		shared = append(shared, testGraph{"shared-" + c.Name, c.G})
	}
	empty := build(t, 0, nil, nil, graph.BuildOptions{})
	noEdges := build(t, 17, nil, nil, graph.BuildOptions{Undirected: true})
	loops := build(t, 5, []uint32{0, 1, 1, 3, 4, 4}, []uint32{0, 1, 2, 3, 4, 0}, graph.BuildOptions{Undirected: true, KeepSelfLoops: true})
	dups := build(t, 6, []uint32{0, 0, 1, 0, 5, 5, 5}, []uint32{1, 1, 0, 1, 4, 4, 5}, graph.BuildOptions{Undirected: true, KeepDuplicates: true, KeepSelfLoops: true})
	// Directed: 0->1->2 with 3->2 and a separate 5->4, 6 isolated; weak
	// components {0,1,2,3}, {4,5}, {6}.
	directed := build(t, 7, []uint32{0, 1, 3, 5}, []uint32{1, 2, 2, 4}, graph.BuildOptions{})
	// Directed with loops, duplicates and both directions of an arc.
	directed2 := build(t, 6, []uint32{5, 5, 4, 3, 4, 2, 2}, []uint32{0, 0, 4, 4, 3, 2, 5}, graph.BuildOptions{KeepSelfLoops: true, KeepDuplicates: true})
	// Vertices at the top of a large id range (only the last few carry edges).
	high := build(t, 1<<17, []uint32{1<<17 - 1, 1<<17 - 3, 5}, []uint32{1<<17 - 2, 1<<17 - 2, 1<<17 - 1}, graph.BuildOptions{Undirected: true})
	return append(shared, []testGraph{
		{"empty", empty},
		{"no-edges", noEdges},
		{"single-vertex", build(t, 1, nil, nil, graph.BuildOptions{})},
		{"self-loops", loops},
		{"duplicates", dups},
		{"directed", directed},
		{"directed-loops-dups", directed2},
		{"high-ids", high},
		{"triangle+isolated", undirected(t, 5, [2]uint32{4, 2}, [2]uint32{2, 3}, [2]uint32{3, 4})},
		{"path-scrambled", pathGraph(t, 2000, 1)},
		{"grid-40x50", gridGraph(t, 40, 50)},
		{"small-components", smallComponents(t, 60)},
		{"random-sparse", randomGraph(t, 4000, 2500, 3, graph.BuildOptions{Undirected: true})},
		{"random-dense", randomGraph(t, 1000, 8000, 4, graph.BuildOptions{Undirected: true})},
		{"random-directed", randomGraph(t, 3000, 2700, 5, graph.BuildOptions{})},
	}...)
}

type config2 struct {
	name string
	opts []runtime.Option
}

// cycle is a test policy that changes SV's working set every iteration,
// exercising both conversions.
type cycle struct{}

func (cycle) Begin(decider.Info) decider.Decider { return &cycleRun{} }
func (cycle) String() string                     { return "cycle" }

type cycleRun struct{ i int }

func (c *cycleRun) Initial() decider.Variant { return decider.Variant{Rep: decider.Queue} }
func (c *cycleRun) Next(decider.Observation) decider.Variant {
	c.i++
	return decider.Variant{Rep: decider.Rep(c.i % 2), Mapping: decider.Mapping(c.i / 2 % 2)}
}

func variantConfigs() []config2 {
	return []config2{
		{"auto", nil},
		{"sv", []runtime.Option{WithVariant(SV)}},
		{"sv-bitmap", []runtime.Option{WithVariant(SV), WithWorkset(decider.Bitmap)}},
		{"sv-bitmap-thread", []runtime.Option{WithVariant(SV), withAll(runtime.WithVariant(decider.Variant{Rep: decider.Bitmap}))}},
		{"sv-queue", []runtime.Option{WithVariant(SV), WithWorkset(decider.Queue)}},
		{"sv-cycle", []runtime.Option{WithVariant(SV), withAll(runtime.WithPolicy(cycle{}))}},
		{"sv-1worker", []runtime.Option{WithVariant(SV), withAll(runtime.WithWorkers(1))}},
		{"sv-3workers", []runtime.Option{WithVariant(SV), withAll(runtime.WithWorkers(3))}},
		{"afforest", []runtime.Option{WithVariant(Afforest)}},
		{"afforest-r0", []runtime.Option{WithVariant(Afforest), WithNeighborRounds(0)}},
		{"afforest-r5-3workers", []runtime.Option{WithVariant(Afforest), WithNeighborRounds(5), withAll(runtime.WithWorkers(3))}},
		{"unionfind", []runtime.Option{WithVariant(UnionFind)}},
		{"unionfind-3workers", []runtime.Option{WithVariant(UnionFind), withAll(runtime.WithWorkers(3))}},
	}
}

func summary(labels []uint32) (comps, largest int) {
	size := map[uint32]int{}
	for v, l := range labels {
		size[l]++
		if l == uint32(v) {
			comps++
		}
	}
	for _, s := range size {
		largest = max(largest, s)
	}
	return comps, largest
}

func TestVariants(t *testing.T) {
	ctx := context.Background()
	for _, tg := range testGraphs(t) {
		ref := Reference(tg.g)
		wantC, wantL := summary(ref)
		for _, vc := range variantConfigs() {
			t.Run(fmt.Sprintf("graph=%s/variant=%s", tg.name, vc.name), func(t *testing.T) {
				res, err := Run(ctx, tg.g, vc.opts...)
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				if err := Verify(tg.g, res.Labels()); err != nil {
					t.Fatal(err)
				}
				if l := res.Label(uint32(tg.g.NumVertices())); l != graph.NoVertex {
					t.Errorf("label of vertex n = %d, want NoVertex", l)
				}
				if res.NumComponents() != wantC || res.LargestSize() != wantL {
					t.Errorf("components %d largest %d, want %d and %d", res.NumComponents(), res.LargestSize(), wantC, wantL)
				}
				if wantC > 0 && res.LargestLabel() == graph.NoVertex {
					t.Errorf("no largest label for %d components", wantC)
				}
				f, err := Forest(ctx, tg.g, vc.opts...)
				if err != nil {
					t.Fatalf("Forest: %v", err)
				}
				if err := Verify(tg.g, f.Labels()); err != nil {
					t.Fatal(err)
				}
				if err := VerifyForest(tg.g, f.Labels(), f.Edges()); err != nil {
					t.Fatal(err)
				}
				if f.Variant() == Auto || (tg.g.NumEdges() > 0 && f.Stats().Iterations == 0) {
					t.Errorf("variant %v, stats %+v: no variant or no iterations", f.Variant(), f.Stats())
				}
			})
		}
	}
}

// TestWorkerIndependence checks the labels do not depend on the number of
// workers.
func TestWorkerIndependence(t *testing.T) {
	g := randomGraph(t, 20000, 16000, 9, graph.BuildOptions{Undirected: true})
	ref := Reference(g)
	for _, procs := range []int{1, 2, 4, 7} {
		old := goruntime.GOMAXPROCS(procs)
		for _, v := range Variants() {
			res, err := Run(context.Background(), g, WithVariant(v))
			if err != nil {
				goruntime.GOMAXPROCS(old)
				t.Fatal(err)
			}
			for i, l := range res.Labels() {
				if l != ref[i] {
					goruntime.GOMAXPROCS(old)
					t.Fatalf("procs=%d variant=%v: vertex %d label %d, want %d", procs, v, i, l, ref[i])
				}
			}
		}
		goruntime.GOMAXPROCS(old)
	}
}

func TestSVSwitchesToQueue(t *testing.T) {
	g := pathGraph(t, 20000, 3)
	res, err := Run(context.Background(), g, WithVariant(SV), runtime.WithTrace(true))
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats()
	first, last := st.Trace[0].Variant.Rep, st.Trace[len(st.Trace)-1].Variant.Rep
	if first != decider.Bitmap || last != decider.Queue {
		t.Errorf("workset went %v -> %v over %d iterations, want bitmap -> queue", first, last, st.Iterations)
	}
	if err := Verify(g, res.Labels()); err != nil {
		t.Fatal(err)
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	if _, err := Run(ctx, nil); !errors.Is(err, ErrNilGraph) {
		t.Errorf("nil graph: err %v, want ErrNilGraph", err)
	}
	g := undirected(t, 3, [2]uint32{0, 1})
	if _, err := Run(ctx, g, WithVariant(Variant(99))); !errors.Is(err, ErrUnknownVariant) {
		t.Errorf("variant 99: err %v, want ErrUnknownVariant", err)
	}
	if _, err := Run(ctx, g, WithNeighborRounds(-1)); !errors.Is(err, ErrOption) {
		t.Errorf("negative rounds: err %v, want ErrOption", err)
	}
	if _, err := ParseVariant("bogus"); !errors.Is(err, ErrUnknownVariant) {
		t.Errorf("ParseVariant(bogus): %v", err)
	}
	for _, v := range append(Variants(), Auto) {
		got, err := ParseVariant(v.String())
		if err != nil || got != v {
			t.Errorf("ParseVariant(%q) = %v, %v", v.String(), got, err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	for _, v := range Variants() {
		if _, err := Run(cctx, pathGraph(t, 100, 1), WithVariant(v)); !errors.Is(err, context.Canceled) {
			t.Errorf("%v on cancelled context: err %v, want context.Canceled", v, err)
		}
	}
}

func TestVerifyCatchesErrors(t *testing.T) {
	g := undirected(t, 5, [2]uint32{0, 1}, [2]uint32{1, 2}, [2]uint32{3, 4})
	good := Reference(g)
	if err := Verify(g, good); err != nil {
		t.Fatalf("reference rejected: %v", err)
	}
	bad := map[string][]uint32{
		"short":      good[:4],
		"split":      {0, 0, 2, 3, 3},
		"merged":     {0, 0, 0, 0, 0},
		"not-min":    {1, 1, 1, 3, 3},
		"label-self": {0, 0, 0, 4, 4},
	}
	for name, l := range bad {
		if err := Verify(g, l); !errors.Is(err, ErrVerify) {
			t.Errorf("%s: err %v, want ErrVerify", name, err)
		}
	}
	forests := map[string][]Edge{
		"too-few":   {{U: 0, V: 1}},
		"not-arc":   {{U: 0, V: 2}, {U: 3, V: 4}},
		"cycle":     {{U: 0, V: 1}, {U: 1, V: 0}},
		"across":    {{U: 0, V: 1}, {U: 1, V: 2}, {U: 3, V: 4}, {U: 2, V: 3}},
		"out-range": {{U: 0, V: 9}, {U: 3, V: 4}},
	}
	for name, f := range forests {
		if err := VerifyForest(g, good, f); !errors.Is(err, ErrVerify) {
			t.Errorf("%s: err %v, want ErrVerify", name, err)
		}
	}
	if err := VerifyForest(g, good, []Edge{{U: 1, V: 0}, {U: 2, V: 1}, {U: 4, V: 3}}); err != nil {
		t.Errorf("valid forest rejected: %v", err)
	}
}

// cancelAfter cancels a context when the engine asks for the variant of the
// second iteration, so cancellation lands between iterations.
type cancelAfter struct{ cancel context.CancelFunc }

func (c cancelAfter) Begin(decider.Info) decider.Decider { return c }
func (c cancelAfter) String() string                     { return "cancel-after-1" }
func (c cancelAfter) Initial() decider.Variant           { return decider.Variant{Mapping: decider.Block} }
func (c cancelAfter) Next(o decider.Observation) decider.Variant {
	c.cancel()
	return o.Current
}

func TestCancelBetweenIterations(t *testing.T) {
	g := pathGraph(t, 3000, 5)
	for _, v := range Variants() {
		ctx, cancel := context.WithCancel(context.Background())
		_, err := Run(ctx, g, WithVariant(v), withAll(runtime.WithPolicy(cancelAfter{cancel})))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%v: err %v, want context.Canceled after the first iteration", v, err)
		}
		cancel()
	}
}

// TestRelease: a released result panics on use, and the runs after it,
// which reuse its memory, are still correct.
func TestRelease(t *testing.T) { checkRelease(t) }

func checkRelease(t *testing.T, opts ...runtime.Option) {
	t.Helper()
	g := testgraphs.Random(3000, 2500, true, 7) // many components
	for i := 0; i < 3; i++ {
		res, err := Run(context.Background(), g, withAll(opts...))
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(g, res.Labels()); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		res.Release()
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Error("NumComponents after Release did not panic")
				}
			}()
			res.NumComponents()
		}()
	}
}

// withAll applies opts as one option (table rows hold one per column).
func withAll(opts ...runtime.Option) runtime.Option {
	return func(c *runtime.Config) {
		for _, o := range opts {
			o(c)
		}
	}
}
