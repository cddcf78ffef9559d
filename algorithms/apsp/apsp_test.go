package apsp_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/apsp"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// collect runs APSP and returns the matrix it streamed, checking that rows
// arrive once each, in order.
func collect(t *testing.T, g *graph.Graph, opts ...apsp.Option) ([][]uint32, *apsp.Result) {
	t.Helper()
	var rows [][]uint32
	res, err := apsp.Run(context.Background(), g, func(src uint32, d []uint32) error {
		if int(src) != len(rows) {
			return fmt.Errorf("row %d arrived as number %d", src, len(rows))
		}
		rows = append(rows, slices.Clone(d))
		return nil
	}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != g.NumVertices() {
		t.Fatalf("%d rows, want %d", len(rows), g.NumVertices())
	}
	return rows, res
}

// small graphs of the shared table, where the textbook triple loop runs.
func small(t *testing.T) []testgraphs.Case {
	var out []testgraphs.Case
	for _, c := range testgraphs.Cases() {
		if c.G.NumVertices() <= 1000 && c.Name != "huge-weights" {
			out = append(out, c)
		}
	}
	if len(out) < 8 {
		t.Fatalf("only %d small cases", len(out))
	}
	return out
}

func TestMethodsAgreeWithFloydWarshall(t *testing.T) {
	for _, c := range small(t) {
		for _, g := range []*graph.Graph{c.G, c.Weighted()} {
			want := apsp.Reference(g)
			for _, m := range []apsp.Method{apsp.FW, apsp.Sources, apsp.Auto, "sources-one-by-one", "sources-batched"} {
				for _, w := range []int{1, 3} {
					t.Run(fmt.Sprintf("%s/%v/%s/w%d", c.Name, g.WeightKind(), m, w), func(t *testing.T) {
						opts := []apsp.Option{apsp.WithMethod(m), apsp.WithWorkers(w)}
						switch m {
						case "sources-one-by-one":
							m = apsp.Sources
							opts = append(opts[:0], apsp.WithMethod(m), apsp.WithWorkers(w), apsp.WithOneByOne())
						case "sources-batched":
							m = apsp.Sources
							opts = append(opts[:0], apsp.WithMethod(m), apsp.WithWorkers(w), apsp.WithBatched())
						}
						got, res := collect(t, g, opts...)
						if m != apsp.Auto && res.Method != m {
							t.Fatalf("ran %s, forced %s", res.Method, m)
						}
						for i := range want {
							if !slices.Equal(got[i], want[i]) {
								t.Fatalf("row %d = %v, want %v", i, got[i], want[i])
							}
						}
					})
				}
			}
		}
	}
}

// TestRowsMatchSingleSource checks sampled rows of larger graphs (the
// generated ones and the real datasets) against package sssp's and bfs's
// serial references.
func TestRowsMatchSingleSource(t *testing.T) {
	cases := testgraphs.Cases()
	if ds, err := testgraphs.Datasets(); err != nil {
		t.Logf("skipping the real graphs: %v", err)
	} else {
		cases = append(cases, ds...)
	}
	for _, c := range cases {
		n := c.G.NumVertices()
		// Every row is computed even where three are checked: keep to
		// graphs where that takes well under a second.
		if n == 0 || int64(n)*(c.G.NumEdges()+int64(n)) > 2e8 || c.Name == "huge-weights" {
			continue
		}
		for _, m := range []apsp.Method{apsp.FW, apsp.Sources} {
			if m == apsp.FW && n > 1500 {
				continue // n^3
			}
			t.Run(c.Name+"/"+string(m), func(t *testing.T) {
				sample := map[uint32]bool{0: true, uint32(n - 1): true, uint32(n / 2): true}
				checked := 0
				_, err := apsp.Run(context.Background(), c.G, func(src uint32, d []uint32) error {
					if !sample[src] {
						return nil
					}
					checked++
					return apsp.VerifyRow(c.G, src, d)
				}, apsp.WithMethod(m), apsp.WithWorkers(2))
				if err != nil {
					t.Fatal(err)
				}
				if checked != len(sample) {
					t.Fatalf("checked %d rows, want %d", checked, len(sample))
				}
			})
		}
	}
}

func TestRefusals(t *testing.T) {
	huge := testgraphs.Cases()
	var hw *graph.Graph
	for _, c := range huge {
		if c.Name == "huge-weights" {
			hw = c.G
		}
	}
	noop := func(uint32, []uint32) error { return nil }
	if _, err := apsp.Run(context.Background(), hw, noop); !errors.Is(err, apsp.ErrOverflow) {
		t.Fatalf("huge weights: %v", err)
	}
	g := testgraphs.Grid(30, 30)
	if _, err := apsp.Run(context.Background(), g, noop, apsp.WithMethod(apsp.FW), apsp.WithMemoryLimit(1000)); !errors.Is(err, apsp.ErrTooLarge) {
		t.Fatalf("FW over the memory limit: %v", err)
	}
	res, err := apsp.Run(context.Background(), g, noop, apsp.WithMemoryLimit(1000))
	if err != nil || res.Method != apsp.Sources {
		t.Fatalf("auto over the memory limit: %v, %+v", err, res)
	}
	if _, err := apsp.Run(context.Background(), g, noop, apsp.WithMethod("dense")); !errors.Is(err, apsp.ErrMethod) {
		t.Fatalf("unknown method: %v", err)
	}
	if _, err := apsp.Run(context.Background(), nil, noop); err == nil {
		t.Fatal("nil graph accepted")
	}
	if _, err := apsp.Run(context.Background(), g, nil); err == nil {
		t.Fatal("nil RowFunc accepted")
	}
	stop := errors.New("stop")
	if _, err := apsp.Run(context.Background(), g, func(src uint32, _ []uint32) error {
		if src == 3 {
			return stop
		}
		return nil
	}); !errors.Is(err, stop) {
		t.Fatalf("callback error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := apsp.Run(ctx, g, noop, apsp.WithMethod(apsp.FW)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestAutoChoice: the cost model picks FW on a small dense graph and
// sources on a large sparse one.
func TestAutoChoice(t *testing.T) {
	var arcs [][2]uint32
	for u := uint32(0); u < 200; u++ {
		for v := uint32(0); v < 200; v++ {
			if u != v {
				arcs = append(arcs, [2]uint32{u, v})
			}
		}
	}
	dense := testgraphs.MustBuild(200, false, arcs, nil)
	noop := func(uint32, []uint32) error { return nil }
	res, err := apsp.Run(context.Background(), dense, noop)
	if err != nil || res.Method != apsp.FW || res.Reason == "" {
		t.Fatalf("dense: %v %+v", err, res)
	}
	res, err = apsp.Run(context.Background(), testgraphs.Grid(60, 60), noop)
	if err != nil || res.Method != apsp.Sources {
		t.Fatalf("grid: %v %+v", err, res)
	}
}
