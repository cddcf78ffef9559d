package inspector

import (
	"bytes"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/graph"
)

func build(t testing.TB, n int, src, dst, w []uint32, opt graph.BuildOptions) *graph.Graph {
	t.Helper()
	el := &graph.EdgeList{NumVertices: n, Src: src, Dst: dst, Weights: w}
	if w != nil {
		el.WeightKind = graph.IntWeights
	}
	g, err := graph.Build(el, opt)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestStatsTable(t *testing.T) {
	cases := []struct {
		name string
		g    *graph.Graph
		want GraphStats // Bytes and Histogram filled from the graph / below
		hist []int64    // counts of buckets 0, 1, 2-3, 4-7, ...
	}{
		{
			name: "empty",
			g:    build(t, 0, nil, nil, nil, graph.BuildOptions{Undirected: true}),
			want: GraphStats{},
		},
		{
			name: "isolated only",
			g:    build(t, 3, nil, nil, nil, graph.BuildOptions{}),
			want: GraphStats{Vertices: 3, Directed: true, Isolated: 3},
			hist: []int64{3},
		},
		{
			// Path 0-1-2, star 3-{4,5,6,7,8}, vertex 9 isolated, a
			// self-loop on 10 (kept), a duplicate 1-0 (dropped).
			name: "undirected",
			g: build(t, 11,
				[]uint32{0, 1, 3, 3, 3, 3, 3, 10, 1},
				[]uint32{1, 2, 4, 5, 6, 7, 8, 10, 0}, nil,
				graph.BuildOptions{Undirected: true, KeepSelfLoops: true}),
			want: GraphStats{Vertices: 11, Edges: 15, UndirectedEdges: 8, SelfLoops: 1,
				MinDegree: 0, MaxDegree: 5, AvgDegree: 15.0 / 11, Isolated: 1},
			hist: []int64{1, 8, 1, 1}, // 9 | 0,2,4..8,10 | 1 | 3
		},
		{
			// 0->1, 0->2, 1->2, 2->0, 3 isolated, 4->4 self-loop, 5 only
			// receives (out-degree 0, not isolated), weighted.
			name: "directed weighted",
			g: build(t, 6,
				[]uint32{0, 0, 1, 2, 4, 1},
				[]uint32{1, 2, 2, 0, 4, 5}, []uint32{3, 1, 4, 1, 5, 9},
				graph.BuildOptions{KeepSelfLoops: true}),
			want: GraphStats{Vertices: 6, Edges: 6, UndirectedEdges: 6, SelfLoops: 1, Directed: true,
				WeightKind: graph.IntWeights, MinDegree: 0, MaxDegree: 2, AvgDegree: 1, Isolated: 1},
			hist: []int64{2, 2, 2}, // 3,5 | 2,4 | 0,1
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Stats(c.g)
			want := c.want
			want.Bytes = c.g.Bytes()
			for i, cnt := range c.hist {
				lo, hi := int64(0), int64(0)
				if i > 0 {
					lo, hi = 1<<(i-1), 1<<i-1
				}
				want.Histogram = append(want.Histogram, DegreeBucket{Lo: lo, Hi: hi, Count: cnt})
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Stats =\n %+v\nwant\n %+v", got, want)
			}
			if got.UndirectedEdges != c.g.NumUndirectedEdges() {
				t.Fatalf("UndirectedEdges %d, graph says %d", got.UndirectedEdges, c.g.NumUndirectedEdges())
			}
			var buf bytes.Buffer
			if err := got.WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			dir := "undirected"
			if got.Directed {
				dir = "directed"
			}
			for _, s := range []string{dir, got.WeightKind.String(), "vertices", "isolated", "bytes per stored arc"} {
				if !strings.Contains(out, s) {
					t.Errorf("text lacks %q:\n%s", s, out)
				}
			}
			if rows := strings.Count(out, "\n"); rows != 6+btoi(len(got.Histogram) > 0)*(2+len(got.Histogram)) {
				t.Errorf("text has %d lines for %d buckets:\n%s", rows, len(got.Histogram), out)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// naiveStats is the obvious serial computation Stats must agree with.
func naiveStats(g *graph.Graph) GraphStats {
	n := g.NumVertices()
	s := GraphStats{Vertices: n, Edges: g.NumEdges(), UndirectedEdges: g.NumUndirectedEdges(),
		Directed: g.Directed(), WeightKind: g.WeightKind(), Bytes: g.Bytes()}
	if n == 0 {
		return s
	}
	in := make([]int64, n)
	for v := 0; v < n; v++ {
		for _, u := range g.Neighbors(uint32(v)) {
			in[u]++
			if u == uint32(v) {
				s.SelfLoops++
			}
		}
	}
	s.MinDegree = g.Degree(0)
	var hist []int64
	for v := 0; v < n; v++ {
		d := g.Degree(uint32(v))
		s.MinDegree, s.MaxDegree = min(s.MinDegree, d), max(s.MaxDegree, d)
		if d == 0 && in[v] == 0 {
			s.Isolated++
		}
		b := 0
		for x := d; x > 0; x >>= 1 {
			b++
		}
		for len(hist) <= b {
			hist = append(hist, 0)
		}
		hist[b]++
	}
	for b := 0; (b == 0 || int64(1)<<(b-1) <= s.MaxDegree) && b < 64; b++ {
		lo, hi := bucketBounds(b)
		var c int64
		if b < len(hist) {
			c = hist[b]
		}
		s.Histogram = append(s.Histogram, DegreeBucket{Lo: lo, Hi: hi, Count: c})
	}
	s.AvgDegree = float64(s.Edges) / float64(n)
	return s
}

func TestStatsMatchesNaiveAcrossWorkers(t *testing.T) {
	kron, err := graph.Generate("kron:12", graph.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	grid, err := graph.Generate("grid:40:30", graph.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A directed graph with self-loops, duplicates and sources-only.
	var src, dst []uint32
	for i := uint32(0); i < 20000; i++ {
		src = append(src, i*7%5000, i%3000)
		dst = append(dst, i*13%4000, i%3000)
	}
	dir := build(t, 6000, src, dst, nil, graph.BuildOptions{KeepSelfLoops: true, KeepDuplicates: true})
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, g := range []*graph.Graph{kron, grid, dir, kron.Transpose()} {
		want := naiveStats(g)
		for _, procs := range []int{1, 4} {
			runtime.GOMAXPROCS(procs)
			if got := Stats(g); !reflect.DeepEqual(got, want) {
				t.Fatalf("GOMAXPROCS=%d: Stats =\n %+v\nwant\n %+v", procs, got, want)
			}
		}
	}
	if s := Stats(dir); s.Isolated != 1000 || s.SelfLoops == 0 {
		t.Fatalf("directed: isolated %d (want 1000: vertices 5000..5999), self-loops %d", s.Isolated, s.SelfLoops)
	}
}

type failWriter struct{ after int }

var errFull = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if f.after <= 0 {
		return 0, errFull
	}
	f.after--
	return len(p), nil
}

func TestWriteTextReportsWriteError(t *testing.T) {
	s := Stats(build(t, 2, []uint32{0}, []uint32{1}, nil, graph.BuildOptions{}))
	if err := s.WriteText(&failWriter{after: 3}); !errors.Is(err, errFull) {
		t.Fatalf("WriteText error %v, want %v", err, errFull)
	}
}

func BenchmarkStats(b *testing.B) {
	for _, spec := range []string{"kron:20", "kron:22", "grid:1000:1000"} {
		b.Run("graph="+spec, func(b *testing.B) {
			g, err := graph.Generate(spec, graph.GenOptions{})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				Stats(g)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(g.NumEdges()), "ns/arc")
		})
	}
}
