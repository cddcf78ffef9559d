// Package searchtest holds the tests bfs and sssp share through what their
// results have in common (search.Result): runs of every configuration on
// the shared graphs, parent trees, multi-source runs and the refusals of
// other backends. A BFS is a search whose arcs all weigh 1.
package searchtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/internal/search"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Result is what the tests read of a search's result.
type Result interface {
	Stats() runtime.Stats
	NumVertices() int
	MaxValue() (uint64, bool)
	Sources() []uint32
	Value(v uint32) (uint64, bool)
	Values() iter.Seq2[uint32, uint64]
	HasParents() bool
	Parent(v uint32) (uint32, bool)
	Path(t uint32) ([]uint32, bool)
	Release()
}

// Search describes a search to the tests.
type Search[R Result] struct {
	// Weighted reports whether the search reads arc weights (sssp): it runs
	// on the cases' weighted graphs (testgraphs.Case.Weighted), and an arc
	// weighs its weight; else every arc weighs 1 (bfs's hops).
	Weighted    bool
	Run         func(ctx context.Context, g *graph.Graph, src uint32, opts ...runtime.Option) (R, error)
	RunMulti    func(ctx context.Context, g *graph.Graph, sources []uint32, opts ...runtime.Option) (R, error)
	WithParents func() runtime.Option
	// Verify checks a result against the search's properties and serial
	// reference.
	Verify func(*graph.Graph, R) error
	// What names the value ("depth", "distance") in messages.
	What string
	// Configs are the option sets the shared graphs are run under.
	Configs func() map[string][]runtime.Option
}

// graph is the graph of c the search runs on.
func (s Search[R]) graph(c testgraphs.Case) *graph.Graph {
	if s.Weighted {
		return c.Weighted()
	}
	return c.G
}

// weight is the weight of u's i-th out-arc in g.
func (s Search[R]) weight(g *graph.Graph, u uint32, i int) uint64 {
	if s.Weighted {
		return uint64(g.EdgeWeights(u)[i])
	}
	return 1
}

// arcWeight returns the least weight of an arc u->v of g, and false when
// there is none.
func (s Search[R]) arcWeight(g *graph.Graph, u, v uint32) (uint64, bool) {
	best, ok := uint64(0), false
	for i, x := range g.Neighbors(u) {
		if w := s.weight(g, u, i); x == v && (!ok || w < best) {
			best, ok = w, true
		}
	}
	return best, ok
}

// EveryConfig runs the search from every source of every shared graph
// under every configuration, with opts added, and checks each result.
func (s Search[R]) EveryConfig(t *testing.T, opts []runtime.Option, checks ...func(*graph.Graph, R) error) {
	t.Helper()
	ctx := context.Background()
	for _, c := range testgraphs.Cases() {
		g := s.graph(c)
		for name, o := range s.Configs() {
			for _, src := range c.Sources {
				res, err := s.Run(ctx, g, src, append(slices.Clip(o), opts...)...)
				if err != nil {
					t.Fatalf("%s/%s/src=%d: %v", c.Name, name, src, err)
				}
				for _, check := range checks {
					if err := check(g, res); err != nil {
						t.Fatalf("%s/%s/src=%d: %v", c.Name, name, src, err)
					}
				}
			}
		}
	}
}

// CheckTree checks r's parents: every reached vertex but a source has a
// parent p over an arc p->v of g with value(p) + w(p,v) == value(v) (some
// parallel arc of that weight), sources and unreached vertices have none,
// Path(v) is found exactly for reached vertices, and for a reached
// non-source it runs from a source over arcs of g whose weights sum to
// value(v).
func (s Search[R]) CheckTree(g *graph.Graph, r R) error {
	if !r.HasParents() {
		return errors.New("no parents recorded")
	}
	srcs := r.Sources()
	for v := range uint32(g.NumVertices()) {
		d, reached := r.Value(v)
		p, hasP := r.Parent(v)
		isSrc := slices.Contains(srcs, v)
		switch {
		case !reached || isSrc:
			if hasP {
				return fmt.Errorf("vertex %d (source %v, reached %v) has parent %d", v, isSrc, reached, p)
			}
			if _, ok := r.Path(v); ok != reached {
				return fmt.Errorf("vertex %d: Path ok %v, reached %v", v, ok, reached)
			}
			continue
		case !hasP:
			return fmt.Errorf("vertex %d at %d has no parent", v, d)
		}
		dp, _ := r.Value(p)
		tight := false
		for i, x := range g.Neighbors(p) {
			tight = tight || x == v && dp+s.weight(g, p, i) == d
		}
		if !tight {
			return fmt.Errorf("parent edge %d->%d is not a tight arc (values %d, %d)", p, v, dp, d)
		}
		path, ok := r.Path(v)
		if !ok || path[len(path)-1] != v || !slices.Contains(srcs, path[0]) {
			return fmt.Errorf("Path(%d) = %v, %v", v, path, ok)
		}
		var sum uint64
		for i := 0; i+1 < len(path); i++ {
			w, ok := s.arcWeight(g, path[i], path[i+1])
			if !ok {
				return fmt.Errorf("Path(%d) step %d->%d is not an arc", v, path[i], path[i+1])
			}
			sum += w
		}
		if sum != d {
			return fmt.Errorf("Path(%d) weighs %d, value %d", v, sum, d)
		}
	}
	return nil
}

// MultiMatchesSingle checks that a multi-source run's values are the minimum over the
// single-source runs, with parents (CheckTree), under every configuration,
// and that no sources or one out of range is ErrSource.
func (s Search[R]) MultiMatchesSingle(t *testing.T) {
	const unreached = ^uint64(0)
	ctx := context.Background()
	for _, c := range testgraphs.Cases() {
		g := s.graph(c)
		n := g.NumVertices()
		if n == 0 {
			continue
		}
		srcs := testgraphs.Sources(g, 3)
		if len(srcs) == 0 {
			srcs = []uint32{0}
		}
		srcs = append(srcs, srcs[0]) // a repeated source counts once
		want := make([]uint64, n)
		for i := range want {
			want[i] = unreached
		}
		for _, src := range srcs {
			r, err := s.Run(ctx, g, src)
			if err != nil {
				t.Fatal(err)
			}
			for v, d := range r.Values() {
				want[v] = min(want[v], d)
			}
		}
		for name, opts := range s.Configs() {
			r, err := s.RunMulti(ctx, g, srcs, append(slices.Clip(opts), s.WithParents())...)
			if err != nil {
				t.Fatalf("%s/%s: %v", c.Name, name, err)
			}
			for v := range uint32(n) {
				d, ok := r.Value(v)
				if !ok {
					d = unreached
				}
				if d != want[v] {
					t.Fatalf("%s/%s: vertex %d: value %d, the minimum over single sources is %d", c.Name, name, v, d, want[v])
				}
			}
			if err := s.CheckTree(g, r); err != nil {
				t.Fatalf("%s/%s: %v", c.Name, name, err)
			}
		}
	}
	g := s.graph(testgraphs.Case{G: testgraphs.Grid(2, 2)})
	if _, err := s.RunMulti(ctx, g, nil); !errors.Is(err, search.ErrSource) {
		t.Fatalf("no sources: %v, want ErrSource", err)
	}
	if _, err := s.RunMulti(ctx, g, []uint32{0, 9}); !errors.Is(err, search.ErrSource) {
		t.Fatalf("a source out of range: %v, want ErrSource", err)
	}
}

// ParentsOnDatasets checks parent trees on the real graphs, on one worker
// and on four; skipped under -short and where skip is set (the race
// detector).
func (s Search[R]) ParentsOnDatasets(t *testing.T, skip bool) {
	for _, c := range Datasets(t, skip) {
		g := s.graph(c)
		for _, w := range []int{1, 4} {
			r, err := s.Run(context.Background(), g, c.Sources[0], runtime.WithWorkers(w), s.WithParents())
			if err != nil {
				t.Fatal(err)
			}
			if err := s.CheckTree(g, r); err != nil {
				t.Fatalf("%s, %d workers: %v", c.Name, w, err)
			}
		}
	}
}

// Datasets returns the real graphs of the datasets folder; it skips the
// test under -short, where skip is set (the race detector) and where there
// are none.
func Datasets(t *testing.T, skip bool) []testgraphs.Case {
	t.Helper()
	if skip || testing.Short() {
		t.Skip("real datasets: not under -race or -short")
	}
	cases, err := testgraphs.Datasets()
	testgraphs.SkipNoDatasets(t, err)
	return cases
}

// UnsupportedElsewhere checks that a backend other than the CPU's refuses
// parents and several sources with runtime.ErrUnsupported.
func (s Search[R]) UnsupportedElsewhere(t *testing.T) {
	g := s.graph(testgraphs.Case{G: testgraphs.Grid(3, 3)})
	other := runtime.WithBackend(testgraphs.OtherBackend{})
	if _, err := s.Run(context.Background(), g, 0, other, s.WithParents()); !errors.Is(err, runtime.ErrUnsupported) || !strings.Contains(err.Error(), "WithParents") {
		t.Fatalf("parents on another backend: %v, want ErrUnsupported naming WithParents", err)
	}
	if _, err := s.RunMulti(context.Background(), g, []uint32{0, 1}, other); !errors.Is(err, runtime.ErrUnsupported) {
		t.Fatalf("several sources on another backend: %v, want ErrUnsupported", err)
	}
}

// Exported is a result's file exports.
type Exported interface {
	WriteCSV(w io.Writer) error
	WriteJSON(w io.Writer) error
}

// Exports checks that r's CSV is wantCSV, and returns its JSON rows,
// decoded, and its JSON summary (testgraphs.JSONObject) with the encoding.
func Exports(t *testing.T, r Exported, wantCSV string) (rows []map[string]any, summary map[string]any, js []byte) {
	t.Helper()
	var csv, rowsJS bytes.Buffer
	if err := r.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if csv.String() != wantCSV {
		t.Errorf("CSV %q, want %q", csv.String(), wantCSV)
	}
	if err := r.WriteJSON(&rowsJS); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(rowsJS.Bytes(), &rows); err != nil {
		t.Fatalf("%v in %s", err, rowsJS.String())
	}
	summary, js = testgraphs.JSONObject(t, r)
	return rows, summary, js
}

// RealDatasets runs the search under each of opts from every source of the
// real graphs and checks each result with verify; skipped where skip is
// set (the race detector: too slow under it).
func (s Search[R]) RealDatasets(t *testing.T, skip bool, opts [][]runtime.Option, verify func(*graph.Graph, R) error) {
	if skip {
		t.Skip("real datasets are checked without the race detector (too slow under it)")
	}
	cases, err := testgraphs.Datasets()
	testgraphs.SkipNoDatasets(t, err)
	for _, c := range cases {
		g := s.graph(c)
		for _, o := range opts {
			for _, src := range c.Sources {
				res, err := s.Run(context.Background(), g, src, o...)
				if err != nil {
					t.Fatalf("%s: %v", c.Name, err)
				}
				if err := verify(g, res); err != nil {
					t.Fatalf("%s src %d %s: %v", c.Name, src, res.Stats().Policy, err)
				}
			}
		}
	}
}

// P2P31 compares runs under each of configs with gstest's published answer
// on p2p-31 (testgraphs.P2P31; answer picks the search's of its depths and
// distances). A vertex without an answer (-2) is skipped, or fails the
// test where complete is set; skip skips the test (the race detector).
func (s Search[R]) P2P31(t *testing.T, skip bool, configs [][]runtime.Option, answer func(depth, dist []int64) []int64, complete bool) {
	if skip {
		t.Skip("checked without the race detector")
	}
	g, src, depth, dist, err := testgraphs.P2P31()
	testgraphs.SkipNoDatasets(t, err)
	want := answer(depth, dist)
	for _, o := range configs {
		res, err := s.Run(context.Background(), g, src, o...)
		if err != nil {
			t.Fatal(err)
		}
		for v, w := range want {
			if w < -1 {
				if complete {
					t.Fatalf("vertex %d: published answer %d is neither a value nor unreachable (-1)", v, w)
				}
				continue
			}
			checkAnswer(t, "p2p-31", g, res, uint32(v), w >= 0, float64(w), "gstest")
		}
	}
}

// LDBC compares runs under each of configs with the LDBC Graphalytics
// validation answers of alg ("BFS", "SSSP"; its four graphs), scaled by
// scale (the weights' testgraphs.LDBCScale, exactly; 1 for hops).
func (s Search[R]) LDBC(t *testing.T, alg string, configs [][]runtime.Option, scale float64) {
	cases, err := testgraphs.LDBC(alg)
	testgraphs.SkipNoDatasets(t, err)
	if len(cases) != 4 {
		t.Fatalf("%d LDBC %s graphs, want 4", len(cases), alg)
	}
	for _, c := range cases {
		for _, o := range configs {
			res, err := s.Run(context.Background(), c.G, c.Source, o...)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			for v, w := range c.Want {
				checkAnswer(t, c.Name, c.G, res, uint32(v), w >= 0, math.Round(w*scale), fmt.Sprintf("LDBC (x%v)", scale))
			}
		}
	}
}

// checkAnswer fails the test where r's value of v is not want, or r does
// not reach v exactly where reachable.
func checkAnswer[R Result](t *testing.T, name string, g *graph.Graph, r R, v uint32, reachable bool, want float64, who string) {
	t.Helper()
	got, ok := r.Value(v)
	if reachable != ok || (ok && float64(got) != want) {
		t.Fatalf("%s %s: vertex %d (external %d): %d ok=%v, %s says %v", name, r.Stats().Policy, v, g.IDs().External(v), got, ok, who, want)
	}
}

// BenchConfig is one configuration of Benchmark.
type BenchConfig struct {
	Name string
	Opts []runtime.Option
}

// Benchmark runs the search under each of configs on the benchmark graphs
// (weighted where the search is: derived weights, seed 1), as
// sub-benchmarks graph=<graph>/<config>, cycling over 8 fixed sources. It
// reports the CPU time per run and the inspection and conversion times as
// percentages of the runs' wall time. skip returns why a graph and
// configuration are not run ("": they are).
func (s Search[R]) Benchmark(b *testing.B, configs []BenchConfig, skip func(gname, config string) string) {
	for _, gname := range []string{"kron20", "urand20", "grid2048"} {
		for _, c := range configs {
			b.Run("graph="+gname+"/"+c.Name, func(b *testing.B) {
				if why := skip(gname, c.Name); why != "" {
					b.Skip(why)
				}
				g := s.graph(testgraphs.Case{G: testgraphs.Bench(gname)})
				srcs := testgraphs.Sources(g, 8)
				var insp, conv, wall float64
				b.ResetTimer()
				cpu0 := testgraphs.CPUTime()
				for i := 0; i < b.N; i++ {
					res, err := s.Run(context.Background(), g, srcs[i%len(srcs)], c.Opts...)
					if err != nil {
						b.Fatal(err)
					}
					st := res.Stats()
					insp += st.Inspection.Seconds()
					conv += st.Conversion.Seconds()
					wall += st.Wall.Seconds()
				}
				b.ReportMetric(float64(testgraphs.CPUTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
				b.ReportMetric(100*insp/wall, "%inspect")
				b.ReportMetric(100*conv/wall, "%convert")
			})
		}
	}
}

// CheckRelease runs the search with opts from three sources of g in turn,
// releasing each result: every run, reusing the memory of the one before,
// must pass verify, Release must be idempotent, and use (the accessor
// named what) must panic on a released result.
func (s Search[R]) CheckRelease(t *testing.T, g *graph.Graph, verify func(*graph.Graph, R) error, what string, use func(r R, v uint32), opts ...runtime.Option) {
	t.Helper()
	for i, src := range testgraphs.Sources(g, 3) {
		res, err := s.Run(context.Background(), g, src, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := verify(g, res); err != nil {
			t.Fatalf("run %d (after %d releases): %v", i, i, err)
		}
		res.Release()
		res.Release() // idempotent
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Error(what + " after Release did not panic")
				}
			}()
			use(res, src)
		}()
	}
}
