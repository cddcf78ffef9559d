package bfs_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/algorithms/internal/search/searchtest"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// eager thresholds make the adaptive policy switch often on small graphs.
func eager() decider.Thresholds {
	t := decider.DefaultThresholds()
	t.T2, t.T3, t.SampleEvery, t.Alpha, t.Beta = 4, 0.01, 1, 2, 4
	t.BitmapMinVertices = 0 // the test graphs are small
	return t
}

// kit runs the tests BFS shares with SSSP: a BFS is a search whose arcs
// all weigh 1, so its parent trees are checked with depths for values.
var kit = searchtest.Search[*bfs.Result]{Run: bfs.Run, RunMulti: bfs.RunMulti, WithParents: bfs.WithParents, Verify: bfs.Verify, What: "depth", Configs: configs}

func configs() map[string][]runtime.Option {
	m := map[string][]runtime.Option{
		"auto":          nil,
		"auto-eager":    {runtime.WithThresholds(eager())},
		"auto-1worker":  {runtime.WithWorkers(1)},
		"auto-3workers": {runtime.WithWorkers(3), runtime.WithThresholds(eager())},
		// Thread mapping over a bitmap in edge-balanced pieces.
		"O_T_BM-5workers": {runtime.WithWorkers(5), runtime.WithVariant(decider.Variant{Order: decider.Ordered, Mapping: decider.Thread, Rep: decider.Bitmap})},
		"cycle":           {runtime.WithPolicy(testgraphs.Cycle(decider.AllVariants()...))},
		"cycle-rev":       {runtime.WithPolicy(testgraphs.Cycle(decider.PullVariant, decider.Variant{Order: decider.Unordered, Mapping: decider.Block, Rep: decider.Queue}, decider.Variant{Mapping: decider.Block}))},
	}
	for _, v := range decider.AllVariants() {
		m[v.String()] = []runtime.Option{runtime.WithVariant(v)}
	}
	return m
}

func TestAllVariantsMatchReference(t *testing.T) { kit.EveryConfig(t, nil, bfs.Verify) }

func TestKnownDepths(t *testing.T) {
	for _, c := range testgraphs.Cases() {
		if c.Name != "directed-unreachable" {
			continue
		}
		res, err := bfs.Run(context.Background(), c.G, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := []int64{0, 1, 2, 3, -1, -1, 3}
		for v, w := range want {
			d, ok := res.Depth(uint32(v))
			if (w >= 0) != ok || (ok && int64(d) != w) {
				t.Errorf("vertex %d: depth %d ok=%v, want %d", v, d, ok, w)
			}
		}
		if res.NumReached() != 5 || res.MaxDepth() != 3 {
			t.Errorf("reached %d max %d, want 5 and 3", res.NumReached(), res.MaxDepth())
		}
		if _, ok := res.Depth(100); ok {
			t.Error("vertex outside the graph reported reached")
		}
	}
}

func TestBadInput(t *testing.T) {
	g := testgraphs.MustBuild(3, true, [][2]uint32{{0, 1}}, nil)
	_, err := bfs.Run(context.Background(), g, 3)
	if !errors.Is(err, bfs.ErrSource) {
		t.Fatalf("source out of range: got %v", err)
	}
	empty := testgraphs.MustBuild(0, true, nil, nil)
	res, err := bfs.Run(context.Background(), empty, 0)
	if err != nil || res.NumVertices() != 0 || res.Reached(0) {
		t.Fatalf("empty graph: %v %+v", err, res)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := bfs.Run(ctx, testgraphs.Grid(10, 10), 0)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

func TestStatsAndTrace(t *testing.T) {
	g := testgraphs.Grid(20, 20)
	res, err := bfs.Run(context.Background(), g, 0, runtime.WithTrace(true), runtime.WithThresholds(eager()))
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats()
	// A 20x20 grid from a corner has 39 levels: 38 non-empty frontiers
	// after the source plus the final empty one.
	if st.Iterations != 39 || len(st.Trace) != 39 {
		t.Fatalf("iterations %d, trace %d, want 39", st.Iterations, len(st.Trace))
	}
	if st.EdgesRelaxed <= 0 || st.EdgesRelaxed > 2*g.NumEdges() {
		t.Errorf("edges relaxed %d, arcs %d", st.EdgesRelaxed, g.NumEdges())
	}
	// Ordered push scans each reached vertex's out-arcs exactly once.
	res, err = bfs.Run(context.Background(), g, 0, runtime.WithVariant(decider.Variant{Mapping: decider.Block}))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Stats().EdgesRelaxed; got != g.NumEdges() {
		t.Errorf("O_B_BM relaxed %d edges, want %d", got, g.NumEdges())
	}
	if st.Samples == 0 || st.Switches == 0 {
		t.Errorf("samples %d switches %d, want both > 0 with eager thresholds", st.Samples, st.Switches)
	}
}

func TestAllIteratesReached(t *testing.T) {
	g := testgraphs.MustBuild(5, true, [][2]uint32{{0, 1}, {1, 2}}, nil)
	res, err := bfs.Run(context.Background(), g, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]int
	for v, d := range res.All() {
		got = append(got, [2]int{int(v), d})
	}
	want := [][2]int{{0, 1}, {1, 0}, {2, 1}}
	if len(got) != len(want) {
		t.Fatalf("All gave %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("All gave %v, want %v", got, want)
		}
	}
}

// TestRelease: a released result panics on use, and the runs after it,
// which reuse its memory, are still correct.
func TestRelease(t *testing.T) { checkRelease(t) }

func checkRelease(t *testing.T, opts ...runtime.Option) {
	kit.CheckRelease(t, testgraphs.RMAT(10, 8, 3), bfs.Verify, "Depth", func(r *bfs.Result, v uint32) { r.Depth(v) }, opts...)
}
