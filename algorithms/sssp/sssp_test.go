package sssp_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/internal/search/searchtest"
	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

func eager() decider.Thresholds {
	t := decider.DefaultThresholds()
	t.T2, t.T3, t.SampleEvery = 4, 0.01, 1
	t.BitmapMinVertices = 0 // the test graphs are small
	return t
}

// bucketed returns p with work-targeted buckets of target out-edges.
func bucketed(p sssp.Params, target int64) sssp.Params {
	p.BucketEdges = target
	return p
}

// kit runs the tests SSSP shares with BFS on the weighted graphs: parent
// edges must be tight arcs (dist[p] + w == dist[v], some parallel arc of
// that weight) and paths must weigh their vertex's distance.
var kit = searchtest.Search[*sssp.Result]{Weighted: true, Run: sssp.Run, RunMulti: sssp.RunMulti, WithParents: sssp.WithParents, Verify: sssp.Verify, What: "distance", Configs: configs}

func configs() map[string][]runtime.Option {
	m := map[string][]runtime.Option{
		"auto":            nil,
		"auto-eager":      {runtime.WithThresholds(eager())},
		"auto-unordered":  {runtime.WithOrder(decider.Unordered)},
		"auto-1worker":    {runtime.WithWorkers(1)},
		"auto-3workers":   {runtime.WithWorkers(3), runtime.WithThresholds(eager())},
		"O_T_BM-5workers": {runtime.WithWorkers(5), runtime.WithVariant(decider.Variant{Order: decider.Ordered, Mapping: decider.Thread, Rep: decider.Bitmap})},
		"cycle":           {runtime.WithPolicy(testgraphs.Cycle(decider.PushVariants()...))},
		"cycle-delta1":    {runtime.WithPolicy(testgraphs.Cycle(decider.PushVariants()[3:]...)), sssp.WithDelta(1)},
		// Work-targeted buckets: the narrowest (one edge), a few thousand
		// edges over width-1 bins, and every pending vertex at once.
		"auto-bucket=1":           {runtime.WithThresholds(eager()), sssp.WithParams(bucketed(sssp.DefaultParams(), 1))},
		"auto-bucket=4096/delta1": {runtime.WithThresholds(eager()), sssp.WithParams(bucketed(sssp.DefaultParams(), 4096)), sssp.WithDelta(1)},
		"auto-bucket=2^40":        {sssp.WithParams(bucketed(sssp.DefaultParams(), 1<<40))},
	}
	deltas := []uint64{1, 2, 7, 1000, 1 << 40}
	if raceEnabled {
		deltas = []uint64{3}
	}
	for _, v := range decider.PushVariants() {
		for _, d := range deltas {
			m[fmt.Sprintf("%v/delta=%d", v, d)] = []runtime.Option{runtime.WithVariant(v), sssp.WithDelta(d)}
		}
	}
	return m
}

func TestAllVariantsMatchDijkstra(t *testing.T) { kit.EveryConfig(t, nil, sssp.Verify) }

func TestKnownDistances(t *testing.T) {
	want := map[string][]int64{
		// 0-1 (0), 1-2 (0), 0-2 (5), 2-3 (1), 3-4 (0)
		"zero-weights": {0, 0, 0, 1, 1},
		"shortcut":     {0, 1, 2, 3, 4, 10},
	}
	for _, c := range testgraphs.Cases() {
		w, ok := want[c.Name]
		if c.Name == "huge-weights" {
			res, err := sssp.Run(context.Background(), c.G, 0)
			if err != nil {
				t.Fatal(err)
			}
			var sum uint64
			for i := 0; i < 7; i++ {
				sum += uint64(^uint32(0) - uint32(i))
			}
			if d, ok := res.Distance(7); !ok || d != sum {
				t.Errorf("huge weights: distance %d ok=%v, want %d (beyond uint32)", d, ok, sum)
			}
			continue
		}
		if !ok {
			continue
		}
		res, err := sssp.Run(context.Background(), c.G, 0)
		if err != nil {
			t.Fatal(err)
		}
		for v, d := range w {
			got, ok := res.Distance(uint32(v))
			if !ok || int64(got) != d {
				t.Errorf("%s: vertex %d: %d ok=%v, want %d", c.Name, v, got, ok, d)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	unw := testgraphs.MustBuild(3, true, [][2]uint32{{0, 1}}, nil)
	if _, err := sssp.Run(ctx, unw, 0); !errors.Is(err, sssp.ErrUnweighted) {
		t.Errorf("unweighted: got %v", err)
	}
	g := unw.WithDerivedWeights(3)
	if _, err := sssp.Run(ctx, g, 5); !errors.Is(err, sssp.ErrSource) {
		t.Errorf("source out of range: got %v", err)
	}
	if _, err := sssp.Run(ctx, g, 0, runtime.WithVariant(decider.PullVariant)); !errors.Is(err, runtime.ErrUnsupported) {
		t.Errorf("pull: got %v", err)
	}
	res, err := sssp.Run(ctx, testgraphs.MustBuild(0, true, nil, []uint32{}), 0)
	if err != nil || res.NumVertices() != 0 || res.Reached(0) {
		t.Errorf("empty graph: %v", err)
	}
	ctx2, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := sssp.Run(ctx2, g, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
}

func TestAllIteratesReached(t *testing.T) {
	g := testgraphs.MustBuild(4, false, [][2]uint32{{0, 1}, {1, 2}}, []uint32{3, 0})
	res, err := sssp.Run(context.Background(), g, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for v, d := range res.All() {
		if want := []uint64{0, 3, 3}; int(v) >= len(want) || d != want[v] {
			t.Errorf("vertex %d distance %d", v, d)
		}
		n++
	}
	if n != 3 || res.NumReached() != 3 {
		t.Errorf("All yielded %d vertices, want 3", n)
	}
}

// TestOrderRule: the adaptive policy runs unordered on graphs below the
// thresholds' ordered_min_vertices / ordered_min_degree (skewed ones, of
// skew at least bucket_min_skew: below ordered_min_vertices_skewed too),
// ordered otherwise, and a forced order or variant overrides the rule.
// Distances are exact either way.
func TestOrderRule(t *testing.T) {
	g := testgraphs.Grid(20, 20).WithDerivedWeights(3)
	want := reference(t, g)
	for _, tc := range []struct {
		name      string
		minV      int64
		minDeg    float64
		minSkewed int64   // ordered_min_vertices_skewed
		skew      float64 // bucket_min_skew (the grid's skew is 1.05)
		extra     []runtime.Option
		wantOrder string
	}{
		{"large enough", 100, 2, 0, 0, nil, "O_"},
		{"too few vertices", 1000, 0, 0, 0, nil, "U_"},
		{"too sparse", 0, 8, 0, 0, nil, "U_"},
		{"skewed, too few vertices", 100, 0, 1000, 1, nil, "U_"},
		{"not skewed", 100, 0, 1000, 2, nil, "O_"},
		{"skewed, large enough", 100, 0, 400, 1, nil, "O_"},
		{"forced order", 1000, 0, 0, 0, []runtime.Option{runtime.WithOrder(decider.Ordered)}, "O_"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := sssp.DefaultParams()
			p.OrderedMinVertices, p.OrderedMinDegree = tc.minV, tc.minDeg
			p.OrderedMinVerticesSkewed, p.BucketMinSkew = tc.minSkewed, tc.skew
			res, err := sssp.Run(context.Background(), g, 0, append([]runtime.Option{sssp.WithParams(p)}, tc.extra...)...)
			if err != nil {
				t.Fatal(err)
			}
			for v := range res.Stats().Variants {
				if !strings.HasPrefix(v, tc.wantOrder) {
					t.Errorf("variant %s, want %s...", v, tc.wantOrder)
				}
			}
			checkDistances(t, tc.name, res, want)
		})
	}
}

// TestRelease: a released result panics on use, and the runs after it,
// which reuse its memory, are still correct.
func TestRelease(t *testing.T) { checkRelease(t) }

func checkRelease(t *testing.T, opts ...runtime.Option) {
	kit.CheckRelease(t, testgraphs.RMAT(10, 8, 3).WithDerivedWeights(5), sssp.Verify, "Distance", func(r *sssp.Result, v uint32) { r.Distance(v) }, opts...)
}

// TestDerivedDelta: with delta_factor set, the run's delta is factor x mean
// weight / mean out-degree of the graph; WithDelta overrides it, and
// factor 0 keeps the fixed delta. Distances are exact in every case.
func TestDerivedDelta(t *testing.T) {
	g := testgraphs.Grid(30, 30).WithDerivedWeights(5)
	want := reference(t, g)
	meanDeg := float64(g.NumEdges()) / float64(g.NumVertices())
	derived := uint64(1) << uint(math.Round(math.Log2(8*g.MeanWeight()/meanDeg)))
	th := sssp.DefaultParams()
	th.Delta, th.DeltaFactor = 32, 8
	fixed := th
	fixed.DeltaFactor = 0
	for _, tc := range []struct {
		name string
		opts []runtime.Option
		want uint64
	}{
		{"derived", []runtime.Option{sssp.WithParams(th)}, derived},
		{"WithDelta wins", []runtime.Option{sssp.WithParams(th), sssp.WithDelta(4)}, 4},
		{"factor 0: fixed", []runtime.Option{sssp.WithParams(fixed)}, 32},
	} {
		res, err := sssp.Run(context.Background(), g, 0, tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if res.Delta() != tc.want {
			t.Errorf("%s: delta %d, want %d", tc.name, res.Delta(), tc.want)
		}
		checkDistances(t, tc.name, res, want)
	}
	if derived == 32 || derived < 2 {
		t.Fatalf("derived delta %d does not tell the cases apart", derived)
	}
}

// TestBucketEdges: work-targeted buckets take several delta buckets per
// iteration where they hold few edges, so a delta-1 run on a weighted grid
// needs fewer iterations with them than without, unless the grid's degree
// skew is below bucket_min_skew; a static variant ignores them, and the
// distances stay exact.
func TestBucketEdges(t *testing.T) {
	g := testgraphs.Grid(40, 40).WithDerivedWeights(3)
	want := reference(t, g)
	run := func(name string, opts ...runtime.Option) int {
		t.Helper()
		res, err := sssp.Run(context.Background(), g, 0, append(opts, runtime.WithWorkers(1), sssp.WithDelta(1))...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkDistances(t, name, res, want)
		return res.Stats().Iterations
	}
	th := bucketed(sssp.DefaultParams(), 0) // the [cpu.sssp] section merges buckets
	fixed := run("fixed", sssp.WithParams(th))
	wide := run("bucket_edges=256", sssp.WithParams(bucketed(th, 256)))
	if wide >= fixed {
		t.Errorf("bucket_edges 256: %d iterations, fixed delta-1 buckets %d: want fewer", wide, fixed)
	}
	// The grid's degree skew is about 1: a floor of 2 keeps buckets fixed.
	floor := bucketed(th, 256)
	floor.BucketMinSkew = 2
	if got := run("bucket_min_skew=2", sssp.WithParams(floor)); got != fixed {
		t.Errorf("bucket_min_skew above the grid's skew: %d iterations, want the fixed buckets' %d", got, fixed)
	}
	v := decider.Variant{Order: decider.Ordered, Mapping: decider.Thread, Rep: decider.Queue}
	// bucket_delta_factor derives the narrowest work-targeted bucket; the
	// fixed buckets of a graph below the skew floor, a graph below
	// bucket_delta_min_skew, and static variants keep the graph's delta.
	df := bucketed(th, 256)
	df.DeltaFactor, df.BucketDeltaFactor, df.BucketDeltaMinSkew = 64, 1, 0
	dfFloor := df
	dfFloor.BucketMinSkew = 2
	dfMinSkew := df
	dfMinSkew.BucketDeltaMinSkew = 2
	for _, c := range []struct {
		name string
		th   sssp.Params
		v    []runtime.Option
		want uint64
	}{
		{"bucket_delta_factor=1", df, nil, df.BucketDeltaForGraph(g)},
		{"bucket_delta_factor=1, skew floor", dfFloor, nil, df.DeltaForGraph(g)},
		{"bucket_delta_factor=1, bucket_delta_min_skew above the skew", dfMinSkew, nil, df.DeltaForGraph(g)},
		{"bucket_delta_factor=1, static", df, []runtime.Option{runtime.WithVariant(v)}, df.DeltaForGraph(g)},
	} {
		res, err := sssp.Run(context.Background(), g, 0, append(c.v, runtime.WithWorkers(1), sssp.WithParams(c.th))...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Delta() != c.want {
			t.Errorf("%s: delta %d, want %d", c.name, res.Delta(), c.want)
		}
		checkDistances(t, c.name, res, want)
	}
	if df.BucketDeltaForGraph(g) >= df.DeltaForGraph(g) {
		t.Fatalf("factors 1 and 64 give deltas %d and %d: the test cannot tell them apart", df.BucketDeltaForGraph(g), df.DeltaForGraph(g))
	}
	st := run("static", sssp.WithParams(bucketed(th, 256)), runtime.WithVariant(v))
	stFixed := run("static fixed", sssp.WithParams(th), runtime.WithVariant(v))
	if st != stFixed {
		t.Errorf("static variant: %d iterations with bucket_edges, %d without: want the same", st, stFixed)
	}
}

// TestMergedBucketsCPU checks the CPU's work-targeted buckets (bucket_edges
// per worker): correct distances on 1, 2 and 4 workers, fewer iterations
// than fixed buckets, and at most 8 x delta of width per iteration (the
// grid is below bucket_delta_min_skew, so its bins are delta wide; with
// delta 1 a bin is one distance, so a run takes at least a distinct
// distances / 8 iterations).
func TestMergedBucketsCPU(t *testing.T) {
	g := testgraphs.Grid(40, 40).WithDerivedWeights(3)
	want := reference(t, g)
	distinct := map[uint64]bool{}
	for _, d := range want {
		distinct[d] = true
	}
	floor := (len(distinct) + 7) / 8
	for _, w := range []int{1, 2, 4} {
		iters := map[int64]int{}
		for _, target := range []int64{0, 64, 1 << 20} {
			res, err := sssp.Run(context.Background(), g, 0, runtime.WithWorkers(w), sssp.WithDelta(1),
				sssp.WithParams(bucketed(sssp.DefaultParams(), target)))
			if err != nil {
				t.Fatal(err)
			}
			checkDistances(t, fmt.Sprintf("workers %d, bucket_edges %d", w, target), res, want)
			iters[target] = res.Stats().Iterations
		}
		if iters[64] >= iters[0] || iters[1<<20] >= iters[0] {
			t.Errorf("workers %d: iterations %v by bucket_edges: want fewer with a target than without (0)", w, iters)
		}
		if iters[1<<20] < floor {
			t.Errorf("workers %d: %d iterations with an unreachable target over %d distinct distances: an iteration merged more than 8 buckets", w, iters[1<<20], len(distinct))
		}
	}
}

// TestFusionBound: with a bucket target, a worker's bucket fusion stops
// once its fused relaxations reach its share of the target and its next bin
// has a grain's worth of out-edges (1024), leaving that bin to the next
// iteration, which spreads it over every worker; without a target (static
// variants) the first iteration fuses on. The graph is a tree in one
// bucket: the source, 32 children, 8 grandchildren under each (256 arcs,
// fused either way), 8 leaves under each of those (2048 arcs). Distances
// are exact either way.
func TestFusionBound(t *testing.T) {
	var arcs [][2]uint32
	next := uint32(1)
	level := []uint32{0}
	for _, fan := range []int{32, 8, 8} {
		var below []uint32
		for _, u := range level {
			for range fan {
				arcs = append(arcs, [2]uint32{u, next})
				below = append(below, next)
				next++
			}
		}
		level = below
	}
	wts := make([]uint32, len(arcs))
	for i := range wts {
		wts[i] = 1 + uint32(i%7)
	}
	g := testgraphs.MustBuild(int(next), false, arcs, wts)
	want := reference(t, g)
	for _, w := range []int{1, 4} {
		for _, c := range []struct {
			target, first int64
		}{{0, 32 + 256 + 2048}, {16, 32 + 256}} {
			res, err := sssp.Run(context.Background(), g, 0, runtime.WithWorkers(w), sssp.WithDelta(1<<20),
				sssp.WithParams(bucketed(sssp.DefaultParams(), c.target)), runtime.WithTrace(true))
			if err != nil {
				t.Fatal(err)
			}
			checkDistances(t, fmt.Sprintf("workers %d, bucket_edges %d", w, c.target), res, want)
			st := res.Stats()
			if len(st.Trace) == 0 || st.Trace[0].Edges != c.first {
				t.Errorf("workers %d, bucket_edges %d: trace %v; want a first iteration of %d edges", w, c.target, st.Trace, c.first)
			}
		}
	}
}

// TestStoppedRunThenFullRun: a run stopped between iterations leaves work
// in its workers' bins; the worker state a later run reuses starts empty.
func TestStoppedRunThenFullRun(t *testing.T) {
	g := testgraphs.Grid(30, 30).WithDerivedWeights(5)
	want := reference(t, g)
	v, err := decider.ParseVariant("O_T_QU")
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		ctx, cancel := context.WithCancel(context.Background())
		stop := &stopAfter{Policy: decider.Static(v), n: 3, cancel: cancel}
		_, err := sssp.Run(ctx, g, 0, runtime.WithWorkers(2), sssp.WithDelta(4), runtime.WithPolicy(stop))
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("stopped run: got %v, want context.Canceled", err)
		}
		res, err := sssp.Run(context.Background(), g, 0, runtime.WithWorkers(2), sssp.WithDelta(4))
		if err != nil {
			t.Fatal(err)
		}
		checkDistances(t, "after a stopped run", res, want)
	}
}

// stopAfter is a policy that cancels its run's context after n decisions.
type stopAfter struct {
	decider.Policy
	n      int
	cancel context.CancelFunc
}

func (s *stopAfter) Begin(info decider.Info) decider.Decider {
	return &stopDecider{Decider: s.Policy.Begin(info), left: s.n, cancel: s.cancel}
}

type stopDecider struct {
	decider.Decider
	left   int
	cancel context.CancelFunc
}

func (d *stopDecider) Next(o decider.Observation) decider.Variant {
	if d.left--; d.left <= 0 {
		d.cancel()
	}
	return d.Decider.Next(o)
}

// reference returns g's distances from vertex 0 by Dijkstra.
func reference(t *testing.T, g *graph.Graph) []uint64 {
	t.Helper()
	want, _, err := sssp.Reference(g, 0)
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// checkDistances fails the test (name: what ran) where res does not reach
// every vertex at its distance in want.
func checkDistances(t *testing.T, name string, res *sssp.Result, want []uint64) {
	t.Helper()
	for v, w := range want {
		if d, ok := res.Distance(uint32(v)); !ok || d != w {
			t.Fatalf("%s: vertex %d: %d (%v), want %d", name, v, d, ok, w)
		}
	}
}
