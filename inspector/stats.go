package inspector

import (
	"fmt"
	"io"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/par"
)

// GraphStats describes a graph's size and degree distribution. Degrees are
// out-degrees (for an undirected graph, the degree).
type GraphStats struct {
	Vertices int
	// Edges counts stored arcs: an undirected edge counts twice.
	Edges int64
	// UndirectedEdges counts an undirected graph's edges once per pair
	// (self-loops once); it equals Edges for a directed graph.
	UndirectedEdges int64
	SelfLoops       int64
	Directed        bool
	WeightKind      graph.WeightKind

	MinDegree, MaxDegree int64
	AvgDegree            float64
	// Isolated counts vertices without any arc: out-degree 0 and, for a
	// directed graph, in-degree 0 as well.
	Isolated int64
	// Histogram holds log2 buckets of the degree, 0, 1, 2-3, 4-7, ..., up
	// to the bucket of MaxDegree (empty buckets included, so the table has
	// no gaps); it is empty for a graph without vertices.
	Histogram []DegreeBucket
	// Bytes is the memory held by the CSR arrays (graph.Graph.Bytes).
	Bytes int64
}

// DegreeBucket counts the vertices whose degree lies in [Lo, Hi].
type DegreeBucket struct {
	Lo    int64 `json:"lo"`
	Hi    int64 `json:"hi"`
	Count int64 `json:"count"`
}

// BytesPerEdge returns Bytes per stored arc, or 0 without arcs.
func (s GraphStats) BytesPerEdge() float64 {
	if s.Edges == 0 {
		return 0
	}
	return float64(s.Bytes) / float64(s.Edges)
}

// bucketOf maps a degree to its histogram bucket: 0 -> 0, 1 -> 1, 2-3 -> 2,
// 4-7 -> 3, ...
func bucketOf(d int64) int { return bits.Len64(uint64(d)) }

func bucketBounds(i int) (lo, hi int64) {
	if i == 0 {
		return 0, 0
	}
	return int64(1) << (i - 1), int64(1)<<i - 1
}

// partial is one worker's share of the vertex pass.
type partial struct {
	minDeg, maxDeg int64
	loops, isol    int64
	hist           [65]int64
}

// Stats computes a graph's statistics in two parallel passes (one over the
// arcs to find vertices with in-arcs, for directed graphs only, and one over
// the vertices); the result does not depend on the number of workers.
func Stats(g *graph.Graph) GraphStats {
	n := g.NumVertices()
	off, adj := g.Offsets(), g.Adj()
	s := GraphStats{
		Vertices:   n,
		Edges:      g.NumEdges(),
		Directed:   g.Directed(),
		WeightKind: g.WeightKind(),
		Bytes:      g.Bytes(),
	}
	if n == 0 {
		return s
	}
	// hasIn marks vertices with an in-arc. Most arcs hit a bit already set,
	// so a plain atomic load first avoids most read-modify-write traffic.
	var hasIn []uint64
	if g.Directed() {
		hasIn = make([]uint64, (n+63)/64)
		par.For(len(adj), 1<<16, func(lo, hi int) {
			for _, u := range adj[lo:hi] {
				w, bit := &hasIn[u>>6], uint64(1)<<(u&63)
				if atomic.LoadUint64(w)&bit == 0 {
					atomic.OrUint64(w, bit)
				}
			}
		})
	}
	parts := make([]partial, par.Workers())
	par.ForWorkers(n, func(k, lo, hi int) {
		p := partial{minDeg: -1}
		for v := lo; v < hi; v++ {
			d := off[v+1] - off[v]
			if p.minDeg < 0 || d < p.minDeg {
				p.minDeg = d
			}
			p.maxDeg = max(p.maxDeg, d)
			p.hist[bucketOf(d)]++
			if d == 0 {
				if hasIn == nil || hasIn[v>>6]&(1<<(v&63)) == 0 {
					p.isol++
				}
				continue
			}
			// Lists are sorted: self-loops sit where v would be.
			nb := adj[off[v]:off[v+1]]
			i, found := slices.BinarySearch(nb, uint32(v))
			for ; found && i < len(nb) && nb[i] == uint32(v); i++ {
				p.loops++
			}
		}
		parts[k] = p
	})
	var hist [65]int64
	s.MinDegree = -1
	for _, p := range parts {
		if p.minDeg >= 0 && (s.MinDegree < 0 || p.minDeg < s.MinDegree) {
			s.MinDegree = p.minDeg
		}
		s.MaxDegree = max(s.MaxDegree, p.maxDeg)
		s.SelfLoops += p.loops
		s.Isolated += p.isol
		for i, c := range p.hist {
			hist[i] += c
		}
	}
	s.AvgDegree = float64(s.Edges) / float64(n)
	s.UndirectedEdges = s.Edges
	if !s.Directed {
		s.UndirectedEdges = (s.Edges-s.SelfLoops)/2 + s.SelfLoops
	}
	top := bucketOf(s.MaxDegree)
	s.Histogram = make([]DegreeBucket, top+1)
	for i := range s.Histogram {
		lo, hi := bucketBounds(i)
		s.Histogram[i] = DegreeBucket{Lo: lo, Hi: hi, Count: hist[i]}
	}
	return s
}

// WriteText writes the statistics as a human-readable block (for `gearbox
// info`): kind, sizes, degrees, isolated vertices, memory, and the degree
// histogram as a small table.
func (s GraphStats) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	dir := "undirected"
	if s.Directed {
		dir = "directed"
	}
	wk := s.WeightKind.String()
	if s.WeightKind != graph.Unweighted {
		wk += " weights"
	}
	ew.printf("graph             %s, %s\n", dir, wk)
	ew.printf("vertices          %d\n", s.Vertices)
	if s.Directed {
		ew.printf("edges             %d arcs, %d self-loops\n", s.Edges, s.SelfLoops)
	} else {
		ew.printf("edges             %d (%d stored arcs), %d self-loops\n", s.UndirectedEdges, s.Edges, s.SelfLoops)
	}
	kind := "degree"
	if s.Directed {
		kind = "out-degree"
	}
	ew.printf("%-17s min %d, max %d, average %.2f\n", kind, s.MinDegree, s.MaxDegree, s.AvgDegree)
	what := "no arcs"
	if s.Directed {
		what = "no arcs in or out"
	}
	ew.printf("isolated          %d (%s of vertices; %s)\n", s.Isolated, percent(s.Isolated, int64(s.Vertices)), what)
	ew.printf("memory            %s CSR, %.2f bytes per stored arc\n", byteSize(s.Bytes), s.BytesPerEdge())
	if len(s.Histogram) > 0 {
		ew.printf("%s histogram:\n", kind)
		ew.printf("  %21s %12s %8s\n", kind, "vertices", "share")
		for _, b := range s.Histogram {
			r := fmt.Sprint(b.Lo)
			if b.Hi != b.Lo {
				r = fmt.Sprintf("%d-%d", b.Lo, b.Hi)
			}
			ew.printf("  %21s %12d %8s\n", r, b.Count, percent(b.Count, int64(s.Vertices)))
		}
	}
	return ew.err
}

func percent(a, b int64) string {
	if b == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(a)/float64(b))
}

func byteSize(b int64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	v, i := float64(b)/unit, 0
	for v >= unit && i < 4 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGTP"[i])
}

// errWriter keeps the first write error so WriteText can report it once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
