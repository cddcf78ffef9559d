package graph

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// The tiny test graph of testdata/: arcs with integer weights over vertices
// 0..5, including a duplicate arc 2->3 (the lighter copy must survive) and a
// self-loop 4->4 (dropped). Every tiny.* file encodes it with its format's
// ids: el/wel 0-based, gr/max/mtx 1-based, SNAP 10*i+3, Graphalytics 100+i.
var tinyArcs = [][3]uint32{{0, 1, 4}, {0, 2, 1}, {1, 3, 2}, {2, 1, 5}, {2, 3, 8}, {3, 4, 3}, {4, 5, 1}, {5, 0, 7}, {1, 4, 6}, {2, 3, 9}, {4, 4, 2}}

const tinyN = 6

// csr is a graph as plain adjacency with weights, for comparisons.
type csr map[uint32]map[uint32]uint32

// expectTiny derives the expected graph from tinyArcs: self-loops dropped,
// duplicates keep the minimum weight, both directions when undirected.
func expectTiny(undirected bool) csr {
	want := csr{}
	add := func(u, v, w uint32) {
		if want[u] == nil {
			want[u] = map[uint32]uint32{}
		}
		if old, ok := want[u][v]; !ok || w < old {
			want[u][v] = w
		}
	}
	for _, a := range tinyArcs {
		if a[0] == a[1] {
			continue
		}
		add(a[0], a[1], a[2])
		if undirected {
			add(a[1], a[0], a[2])
		}
	}
	return want
}

func toCSR(g *Graph) csr {
	c := csr{}
	for v := 0; v < g.NumVertices(); v++ {
		ws := g.EdgeWeights(uint32(v))
		for k, u := range g.Neighbors(uint32(v)) {
			if c[uint32(v)] == nil {
				c[uint32(v)] = map[uint32]uint32{}
			}
			var w uint32
			if ws != nil {
				w = ws[k]
			}
			c[uint32(v)][u] = w
		}
	}
	return c
}

func dropWeights(c csr) csr {
	d := csr{}
	for u, m := range c {
		d[u] = map[uint32]uint32{}
		for v := range m {
			d[u][v] = 0
		}
	}
	return d
}

func sameCSR(t *testing.T, what string, got, want csr) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) { // fmt sorts map keys
		t.Errorf("%s: adjacency\n got %v\nwant %v", what, got, want)
	}
}

func TestTinyInEveryFormat(t *testing.T) {
	tests := []struct {
		file     string
		weighted bool
		ext      func(v uint32) uint64 // expected external id of internal v
		sym      bool                  // the format itself is undirected
	}{
		{"tiny.el", false, func(v uint32) uint64 { return uint64(v) }, false},
		{"tiny.el.gz", false, func(v uint32) uint64 { return uint64(v) }, false},
		{"tiny.wel", true, func(v uint32) uint64 { return uint64(v) }, false},
		{"tiny.gr", true, func(v uint32) uint64 { return uint64(v) + 1 }, false},
		{"tiny.max", true, func(v uint32) uint64 { return uint64(v) + 1 }, false},
		{"tiny.mtx", true, func(v uint32) uint64 { return uint64(v) + 1 }, false},
		{"tiny.txt", true, func(v uint32) uint64 { return 10*uint64(v) + 3 }, false},
		{"tiny.e", true, func(v uint32) uint64 { return 100 + uint64(v) }, false},
		{"tiny-sym.mtx", true, func(v uint32) uint64 { return uint64(v) + 1 }, true},
		{"tiny.graph", true, func(v uint32) uint64 { return uint64(v) + 1 }, true},
		{"tiny.cedge", true, func(v uint32) uint64 { return uint64(v) }, true},
	}
	for _, tc := range tests {
		for _, undirected := range []bool{false, true} {
			if tc.sym && !undirected {
				continue
			}
			name := fmt.Sprintf("%s/undirected=%v", tc.file, undirected)
			t.Run(name, func(t *testing.T) {
				g, err := Load(filepath.Join("testdata", tc.file), LoadOptions{Undirected: undirected && !tc.sym})
				if err != nil {
					t.Fatal(err)
				}
				if g.NumVertices() != tinyN {
					t.Fatalf("%d vertices, want %d", g.NumVertices(), tinyN)
				}
				if g.Directed() == undirected {
					t.Errorf("Directed() = %v", g.Directed())
				}
				want := expectTiny(undirected)
				if tc.weighted {
					if g.WeightKind() != IntWeights {
						t.Errorf("weight kind %v, want integer", g.WeightKind())
					}
				} else {
					want = dropWeights(want)
					if g.WeightKind() != Unweighted {
						t.Errorf("weight kind %v, want unweighted", g.WeightKind())
					}
				}
				sameCSR(t, name, toCSR(g), want)
				for v := uint32(0); v < tinyN; v++ {
					if got := g.IDs().External(v); got != tc.ext(v) {
						t.Errorf("External(%d) = %d, want %d", v, got, tc.ext(v))
					}
					if x, ok := g.IDs().Internal(tc.ext(v)); !ok || x != v {
						t.Errorf("Internal(%d) = %d, %v", tc.ext(v), x, ok)
					}
				}
				s, sink, ok := g.Terminals()
				if isMax := strings.HasSuffix(tc.file, ".max"); ok != isMax || (isMax && (s != 0 || sink != 5)) {
					t.Errorf("Terminals() = %d, %d, %v", s, sink, ok)
				}
			})
		}
	}
}

func TestGraphalyticsVertexFile(t *testing.T) {
	dir := t.TempDir()
	// Vertex 105 is isolated: only the vertex file knows it.
	os.WriteFile(filepath.Join(dir, "g.e"), []byte("100 101 0.5\n101 102 2.25\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "g.v.gz"), gzipBytes([]byte("102\n100\n101\n105\n")), 0o644)
	g, err := Load(filepath.Join(dir, "g.e"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumVertices() != 4 || g.NumEdges() != 2 || g.WeightKind() != RealWeights {
		t.Fatalf("n=%d m=%d kind=%v, want 4, 2, real", g.NumVertices(), g.NumEdges(), g.WeightKind())
	}
	if x, ok := g.IDs().Internal(105); !ok || x != 3 {
		t.Errorf("isolated vertex 105 -> %d, %v; want 3", x, ok)
	}
	if w := math.Float32frombits(g.EdgeWeights(1)[0]); w != 2.25 {
		t.Errorf("weight %v, want 2.25", w)
	}
	// An edge naming a vertex the .v file lacks.
	os.WriteFile(filepath.Join(dir, "g.e"), []byte("100 101 0.5\n101 109 2.25\n"), 0o644)
	_, err = Load(filepath.Join(dir, "g.e"), LoadOptions{})
	if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "g.e:2: vertex 109 is not listed in the vertex file g.v.gz") {
		t.Errorf("err = %v", err)
	}
	// Without a vertex file the vertices come from the edges.
	os.Remove(filepath.Join(dir, "g.v.gz"))
	g, err = Load(filepath.Join(dir, "g.e"), LoadOptions{WeightScale: 4})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumVertices() != 3 || g.WeightKind() != IntWeights || g.EdgeWeights(1)[0] != 9 {
		t.Errorf("n=%d kind=%v w=%v; want 3, integer, 9", g.NumVertices(), g.WeightKind(), g.EdgeWeights(1))
	}
}

func TestParseAndDetectFormat(t *testing.T) {
	for _, f := range Formats() {
		if g, err := ParseFormat(strings.ToUpper(string(f))); err != nil || g != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, g, err)
		}
	}
	if _, err := ParseFormat("csv"); err == nil || !strings.Contains(err.Error(), "mtx, snap") || !errors.Is(err, ErrFormat) {
		t.Errorf("ParseFormat(csv) err = %v", err)
	}
	for path, want := range map[string]Format{
		"a.mtx": FormatMTX, "a.MTX.gz": FormatMTX, "dir.x/email.txt": FormatSNAP, "b.edges": FormatSNAP,
		"c.snap.gz": FormatSNAP, "d.graph": FormatMETIS, "d.metis": FormatMETIS, "e.e": FormatGraphalytics,
		"f.gr": FormatGR, "g.max": FormatMAX, "h.el": FormatEL, "i.wel.gz": FormatWEL, "j.gbx": FormatBin, "k.cedge": FormatCEdge,
	} {
		if got, err := DetectFormat(path); err != nil || got != want {
			t.Errorf("DetectFormat(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
	for _, path := range []string{"x.csv", "x.gz", "noext", "x.v"} {
		_, err := DetectFormat(path)
		if err == nil || !strings.Contains(err.Error(), "--format") || !errors.Is(err, ErrFormat) {
			t.Errorf("DetectFormat(%q) err = %v", path, err)
		}
	}
	if _, err := DetectFormat("x.csv"); !strings.Contains(err.Error(), `".csv"`) {
		t.Errorf("error does not name the extension: %v", err)
	}
}

// errCase is an input that must fail with a message containing want.
type errCase struct {
	name   string
	format Format
	input  string
	want   string
	opt    LoadOptions
}

func TestParseErrors(t *testing.T) {
	cases := []errCase{
		// malformed lines: file:line and a reason
		{"snap one field", FormatSNAP, "# c\n1 2\n3\n", "in.txt:3: expected 2 or 3 fields, got 1", LoadOptions{}},
		{"snap four fields", FormatSNAP, "1 2\n1 2 3 4\n", "in.txt:2: expected 2 or 3 fields, got 4", LoadOptions{}},
		{"snap letters", FormatSNAP, "1 2\n1 x\n", `in.txt:2: invalid vertex id "x"`, LoadOptions{}},
		{"snap negative id", FormatSNAP, "1 -2\n", "in.txt:1: negative vertex id -2", LoadOptions{}},
		{"snap huge id", FormatSNAP, "1 99999999999999999999999\n", "in.txt:1: vertex id 99999999999999999999999 too large", LoadOptions{}},
		{"snap mixed weights", FormatSNAP, "1 2 3\n2 3\n", "in.txt:2: 2 fields, but the edges before have 3", LoadOptions{}},
		{"snap bad weight", FormatSNAP, "1 2 3\n2 3 abc\n", `in.txt:2: invalid weight "abc"`, LoadOptions{}},
		{"snap negative weight", FormatSNAP, "1 2 -3.5\n", "in.txt:1: negative weight -3.5", LoadOptions{}},
		{"snap nan weight", FormatSNAP, "1 2 NaN\n", "in.txt:1: weight NaN is not a finite number", LoadOptions{}},
		{"snap scaled overflow", FormatSNAP, "1 2 5e9\n", "in.txt:1: weight 5e9 times scale 2 is 10000000000, over the limit 4294967295", LoadOptions{WeightScale: 2}},
		{"snap float32 overflow", FormatSNAP, "1 2 1e39\n", "in.txt:1: weight 1e39 over the float32 limit", LoadOptions{}},
		{"snap float32 underflow", FormatSNAP, "1 2 1\n2 3 1e-50\n", "in.txt:2: weight 1e-50 is too small for a float32 (it would be 0)", LoadOptions{}},
		// a non-zero weight that scales to 0 would make a free edge
		{"snap scaled to 0", FormatSNAP, "0 1 0.4\n1 2 0.4\n", "in.txt:1: weight 0.4 times scale 1 rounds to 0 (use a larger LoadOptions.WeightScale, gearbox's --weight-scale)", LoadOptions{WeightScale: 1}},
		{"snap scaled to 0 later", FormatSNAP, "0 1 0.6\n1 2 0.004\n", "in.txt:2: weight 0.004 times scale 100 rounds to 0", LoadOptions{WeightScale: 100}},
		{"mtx real scaled to 0", FormatMTX, "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1e-7\n", "in.txt:3: weight 1e-7 times scale 1e+06 rounds to 0", LoadOptions{WeightScale: 1e6}},
		{"cedge scaled to 0", FormatCEdge, "0 0 1 0.002\n1 1 2 0.0000004\n", "in.txt:2: weight 0.0000004 times scale 1e+06 rounds to 0", LoadOptions{WeightScale: 1e6}},
		{"el three fields", FormatEL, "0 1\n1 2 3\n", "in.txt:2: expected 2 fields, got 3", LoadOptions{}},
		{"el id over limit", FormatEL, "0 4294967295\n", "in.txt:1: vertex id 4294967295 over the limit 4294967294", LoadOptions{}},
		{"el implausible n", FormatEL, "0 4000000000\n", "4000000001 vertices, implausible for 13 bytes", LoadOptions{}},
		{"wel missing weight", FormatWEL, "0 1 2\n1 2\n", "in.txt:2: expected 3 fields, got 2", LoadOptions{}},
		{"wel real weight", FormatWEL, "0 1 2.5\n", "in.txt:1: weight 2.5 is not an integer", LoadOptions{}},
		{"wel negative weight", FormatWEL, "0 1 -2\n", "in.txt:1: negative weight -2", LoadOptions{}},
		{"wel weight over limit", FormatWEL, "0 1 4294967296\n", "in.txt:1: weight 4294967296 over the limit 4294967295", LoadOptions{}},
		{"wel non-numeric weight", FormatWEL, "0 1 w\n", `in.txt:1: invalid weight "w"`, LoadOptions{}},
		{"cedge missing length", FormatCEdge, "0 0 1 0.5\n1 1 2\n", "in.txt:2: expected 4 fields (edge id, start, end, length), got 3", LoadOptions{}},
		{"cedge five fields", FormatCEdge, "0 0 1 0.5 7\n", "in.txt:1: expected 4 fields (edge id, start, end, length), got 5", LoadOptions{}},
		{"cedge bad edge id", FormatCEdge, "0 0 1 0.5\nx 1 2 0.5\n", `in.txt:2: invalid edge id "x"`, LoadOptions{}},
		{"cedge negative edge id", FormatCEdge, "-1 0 1 0.5\n", "in.txt:1: negative edge id -1", LoadOptions{}},
		{"cedge negative vertex", FormatCEdge, "0 0 -1 0.5\n", "in.txt:1: negative vertex id -1", LoadOptions{}},
		{"cedge negative length", FormatCEdge, "0 0 1 -0.5\n", "in.txt:1: negative weight -0.5", LoadOptions{}},
		{"cedge nan length", FormatCEdge, "0 0 1 nan\n", "in.txt:1: weight nan is not a finite number", LoadOptions{}},
		// declared sizes
		{"mtx id outside", FormatMTX, "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n1 4\n", "in.txt:4: vertex id 4 outside 1..3", LoadOptions{}},
		{"mtx id zero", FormatMTX, "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n0 2\n", "in.txt:3: vertex id 0 outside 1..3", LoadOptions{}},
		{"mtx nnz disagrees", FormatMTX, "%%MatrixMarket matrix coordinate pattern general\n% c\n3 3 3\n1 2\n2 3\n", "in.txt: the size line declares 3 entries but the file has 2", LoadOptions{}},
		{"mtx rows != cols", FormatMTX, "%%MatrixMarket matrix coordinate pattern general\n3 4 1\n1 2\n", "in.txt:2: a 3 x 4 matrix is not a graph", LoadOptions{}},
		{"mtx array", FormatMTX, "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "in.txt:1: dense `array` MatrixMarket files are not graphs", LoadOptions{}},
		{"mtx complex", FormatMTX, "%%MatrixMarket matrix coordinate complex general\n1 1 0\n", `in.txt:1: MatrixMarket field "complex" is not supported`, LoadOptions{}},
		{"mtx no banner", FormatMTX, "3 3 1\n1 2\n", "in.txt:1: missing the %%MatrixMarket banner", LoadOptions{}},
		{"mtx no size line", FormatMTX, "%%MatrixMarket matrix coordinate pattern general\n% only comments\n", "in.txt: no size line", LoadOptions{}},
		{"mtx missing weight", FormatMTX, "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 5\n2 3\n", "in.txt:4: expected 3 fields, got 2", LoadOptions{}},
		{"mtx real bad weight", FormatMTX, "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1.2.3\n", `in.txt:3: invalid weight "1.2.3"`, LoadOptions{}},
		{"gr arc count", FormatGR, "c x\np sp 3 3\na 1 2 5\na 2 3 1\n", "in.txt: the problem line declares 3 arcs but the file has 2", LoadOptions{}},
		{"gr id outside", FormatGR, "p sp 3 1\na 1 7 5\n", "in.txt:2: vertex id 7 outside 1..3", LoadOptions{}},
		{"gr missing weight", FormatGR, "p sp 3 1\na 1 2\n", "in.txt:2: expected 3 fields, got 2", LoadOptions{}},
		{"gr no p line", FormatGR, "c only\na 1 2 3\n", "in.txt:2: expected the problem line `p sp N M` before anything else", LoadOptions{}},
		{"gr second p line", FormatGR, "p sp 3 1\np sp 3 1\n", "in.txt:2: a second problem line", LoadOptions{}},
		{"gr wrong problem", FormatGR, "p max 3 1\n", `in.txt:1: problem type "max", want sp`, LoadOptions{}},
		{"gr unknown line", FormatGR, "p sp 3 1\nx 1 2 3\n", `in.txt:2: unknown line type "x"`, LoadOptions{}},
		{"max arc count", FormatMAX, "p max 3 2\nn 1 s\nn 3 t\na 1 2 5\n", "in.txt: the problem line declares 2 arcs but the file has 1", LoadOptions{}},
		{"max no sink", FormatMAX, "p max 3 1\nn 1 s\na 1 2 5\n", "in.txt: no sink (n ID t) line", LoadOptions{}},
		{"max no source", FormatMAX, "p max 3 1\nn 3 t\na 1 2 5\n", "in.txt: no source (n ID s) line", LoadOptions{}},
		{"max two sources", FormatMAX, "p max 3 1\nn 1 s\nn 2 s\nn 3 t\na 1 2 5\n", "in.txt:3: a second source (line 2 named one)", LoadOptions{}},
		{"max bad terminal", FormatMAX, "p max 3 1\nn 1 x\n", `in.txt:2: terminal kind "x" is neither s nor t`, LoadOptions{}},
		{"max terminal outside", FormatMAX, "p max 3 1\nn 9 s\n", "in.txt:2: vertex id 9 outside 1..3", LoadOptions{}},
		{"max same terminals", FormatMAX, "p max 3 1\nn 1 s\nn 1 t\na 1 2 5\n", "in.txt: source and sink are the same vertex 1", LoadOptions{}},
		{"max negative capacity", FormatMAX, "p max 3 1\nn 1 s\nn 3 t\na 1 2 -5\n", "in.txt:4: negative weight -5", LoadOptions{}},
		{"max two sinks", FormatMAX, "p max 3 1\nn 1 s\nn 3 t\nn 2 t\na 1 2 5\n", "in.txt:4: a second sink (line 3 named one)", LoadOptions{}},
		{"max missing capacity", FormatMAX, "p max 3 1\nn 1 s\nn 3 t\na 1 2\n", "in.txt:4: expected 3 fields, got 2", LoadOptions{}},
		{"metis edge count", FormatMETIS, "3 3\n2\n1 3\n2\n", "in.txt: the header declares 3 edges but the lists hold 4 entries (each undirected edge is listed twice, so want 6)", LoadOptions{}},
		{"metis edge count with a self-loop", FormatMETIS, "2 3\n1 2\n1\n", "in.txt: the header declares 3 edges but the lists hold 3 entries, 1 of them self-loops (each undirected edge is listed twice, so want 6)", LoadOptions{}},
		// every edge at both ends, with one weight
		{"metis asymmetric", FormatMETIS, "3 1\n2\n3\n\n", "in.txt:2: vertex 1 lists 2, but vertex 2 (line 3) does not list 1: METIS lists every edge at both ends", LoadOptions{}},
		{"metis missing reverse", FormatMETIS, "3 2\n2\n1\n1\n", "in.txt:2: vertex 1 does not list 3, but vertex 3 (line 4) lists 1", LoadOptions{}},
		{"metis asymmetric between comments", FormatMETIS, "% c\n3 2\n% x\n\n% y\n3\n1 2\n", "in.txt:4: vertex 1 does not list 3, but vertex 3 (line 7) lists 1", LoadOptions{}},
		{"metis first offending line", FormatMETIS, "4 3\n2\n1 3\n2\n2\n", "in.txt:3: vertex 2 does not list 4, but vertex 4 (line 5) lists 2", LoadOptions{}},
		{"metis asymmetric toward a longer list", FormatMETIS, "4 2\n2\n3 4\n2\n2\n", "in.txt:2: vertex 1 lists 2, but vertex 2 (line 3) does not list 1", LoadOptions{}},
		{"metis asymmetric weights", FormatMETIS, "2 1 1\n2 5\n1 7\n", "in.txt:2: vertex 1 lists 2 with weight 5, but vertex 2 (line 3) lists 1 with weight 7: an edge has one weight", LoadOptions{}},
		{"metis asymmetric vertex-weighted", FormatMETIS, "3 2 11\n1 2 4\n1 1 4 3 2\n1 2 3\n", "in.txt:3: vertex 2 lists 3 with weight 2, but vertex 3 (line 4) lists 2 with weight 3", LoadOptions{}},
		{"metis id outside", FormatMETIS, "% c\n3 2\n2\n1 4\n2\n", "in.txt:4: vertex id 4 outside 1..3", LoadOptions{}},
		{"metis too few lines", FormatMETIS, "3 1\n2\n1\n", "in.txt: the header declares 3 vertices but the file has 2 vertex lines", LoadOptions{}},
		{"metis too many lines", FormatMETIS, "2 1\n2\n1\n1\n", "in.txt: the header declares 2 vertices but vertex line 3 lists neighbours", LoadOptions{}},
		{"metis missing weight", FormatMETIS, "2 1 1\n2 5\n1\n", "in.txt:3: neighbour 1 has no edge weight", LoadOptions{}},
		{"metis bad fmt", FormatMETIS, "2 1 7\n2\n1\n", `in.txt:1: invalid fmt "7"`, LoadOptions{}},
		{"metis bad header", FormatMETIS, "2 x\n2\n1\n", `in.txt:1: invalid edge count "x"`, LoadOptions{}},
		{"graphalytics bad line", FormatGraphalytics, "1 2 0.5\n3\n", "in.txt:2: expected 2 or 3 fields, got 1", LoadOptions{}},
		// a header promising far more than the file holds must not allocate for it
		{"mtx 10^12 vertices", FormatMTX, "%%MatrixMarket matrix coordinate pattern general\n1000000000000 1000000000000 1000000000000\n1 2\n", "in.txt:2: 1000000000000 vertices, over the limit", LoadOptions{}},
		{"mtx 10^12 entries", FormatMTX, "%%MatrixMarket matrix coordinate pattern general\n4 4 1000000000000\n1 2\n", "declares 1000000000000 entries but the file has 1", LoadOptions{}},
		{"mtx 4e9 vertices small file", FormatMTX, "%%MatrixMarket matrix coordinate pattern general\n4000000000 4000000000 1\n1 2\n", "4000000000 vertices, implausible for", LoadOptions{}},
		{"gr 10^12 arcs", FormatGR, "p sp 4 1000000000000\na 1 2 3\n", "declares 1000000000000 arcs but the file has 1", LoadOptions{}},
		{"metis 10^12 edges", FormatMETIS, "2 1000000000000\n2\n1\n", "declares 1000000000000 edges", LoadOptions{}},
		{"metis 4e9 vertices", FormatMETIS, "4000000000 0\n", "4000000000 vertices, implausible", LoadOptions{}},
		// empty input
		{"empty snap", FormatSNAP, "", "in.txt: empty file", LoadOptions{}},
		{"empty mtx", FormatMTX, "", "in.txt: empty file", LoadOptions{}},
		{"empty bin", FormatBin, "", "in.txt: empty file", LoadOptions{}},
		{"bin garbage", FormatBin, "hello world, this is not a binary graph file at all!!", "not a gearbox binary graph (bad magic)", LoadOptions{}},
		{"bad gzip", FormatSNAP, "\x1f\x8bnot really gzip", "bad gzip stream", LoadOptions{}},
	}
	for _, sz := range []int{4 << 20, 7} { // also with tiny chunks: line numbers must survive the seams
		old := chunkSize
		chunkSize = sz
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s/chunk=%d", tc.name, sz), func(t *testing.T) {
				opt := tc.opt
				opt.Format = tc.format
				g, err := Read(strings.NewReader(tc.input), "in.txt", opt)
				if err == nil {
					t.Fatalf("no error; got a graph with %d vertices and %d arcs", g.NumVertices(), g.NumEdges())
				}
				if !errors.Is(err, ErrFormat) {
					t.Errorf("error %q does not wrap ErrFormat", err)
				}
				if !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %q\n  does not contain %q", err, tc.want)
				}
			})
		}
		chunkSize = old
	}
}

func TestUnknownFormat(t *testing.T) {
	if _, err := Load("testdata/tiny.csv", LoadOptions{}); err == nil || !strings.Contains(err.Error(), "--format") {
		t.Errorf("err = %v", err)
	}
	if _, err := Read(strings.NewReader("1 2\n"), "x", LoadOptions{Format: "dot"}); err == nil || !errors.Is(err, ErrFormat) {
		t.Errorf("err = %v", err)
	}
	if _, err := Load("testdata/no-such-file.el", LoadOptions{}); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
}

func TestWeights(t *testing.T) {
	tests := []struct {
		name  string
		f     Format
		in    string
		opt   LoadOptions
		kind  WeightKind
		wants []float64 // weights of vertex 0's arcs in order
	}{
		{"snap ints", FormatSNAP, "0 1 3\n0 2 4\n", LoadOptions{}, IntWeights, []float64{3, 4}},
		{"snap reals", FormatSNAP, "0 1 3\n0 2 0.25\n", LoadOptions{}, RealWeights, []float64{3, 0.25}},
		{"snap scaled", FormatSNAP, "0 1 3\n0 2 0.25\n", LoadOptions{WeightScale: 10}, IntWeights, []float64{30, 3}},
		{"snap scale rounds", FormatSNAP, "0 1 1.26\n0 2 1.24\n", LoadOptions{WeightScale: 10}, IntWeights, []float64{13, 12}},
		{"mtx real", FormatMTX, "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n1 3 1.5e-1\n", LoadOptions{}, RealWeights, []float64{1, float64(float32(0.15))}},
		{"mtx integer", FormatMTX, "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 7\n1 3 0\n", LoadOptions{}, IntWeights, []float64{7, 0}},
		{"wel scaled", FormatWEL, "0 1 7\n", LoadOptions{WeightScale: 10}, IntWeights, []float64{70}},
		{"cedge reals", FormatCEdge, "0 0 1 0.25\n1 0 2 3\n", LoadOptions{}, RealWeights, []float64{0.25, 3}},
		{"cedge scaled", FormatCEdge, "0 0 1 0.002025\n1 0 2 0.0059524\n", LoadOptions{WeightScale: 1e6}, IntWeights, []float64{2025, 5952}},
		{"negative zero", FormatSNAP, "0 1 -0.0\n", LoadOptions{}, RealWeights, []float64{0}},
		{"exact zero scaled", FormatSNAP, "0 1 0\n0 2 0.000\n0 3 0.5\n", LoadOptions{WeightScale: 1}, IntWeights, []float64{0, 0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.Format = tc.f
			g, err := Read(strings.NewReader(tc.in), "w", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if g.WeightKind() != tc.kind {
				t.Fatalf("kind %v, want %v", g.WeightKind(), tc.kind)
			}
			ws := g.EdgeWeights(0)
			if len(ws) != len(tc.wants) {
				t.Fatalf("%d weights, want %d", len(ws), len(tc.wants))
			}
			for i, w := range ws {
				got := float64(w)
				if tc.kind == RealWeights {
					got = float64(math.Float32frombits(w))
				}
				if got != tc.wants[i] {
					t.Errorf("weight %d = %v, want %v", i, got, tc.wants[i])
				}
				if tc.kind == RealWeights && w>>31 != 0 {
					t.Errorf("weight %d has its sign bit set (%#x)", i, w)
				}
			}
		})
	}
}

func TestSNAPRelabelSorted(t *testing.T) {
	// Ids appear out of order and far apart (sparse path) or close (dense).
	for _, ids := range [][3]uint64{{900, 5, 70}, {1 << 60, 3, 1 << 40}} {
		in := fmt.Sprintf("%d %d\n%d %d\n", ids[0], ids[1], ids[1], ids[2])
		g, err := Read(strings.NewReader(in), "s.txt", LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sorted := ids[:]
		slices.Sort(sorted)
		for i, x := range sorted {
			if got := g.IDs().External(uint32(i)); got != x {
				t.Errorf("External(%d) = %d, want %d (ids must be relabelled in sorted order)", i, got, x)
			}
		}
		a, _ := g.IDs().Internal(ids[0])
		b, _ := g.IDs().Internal(ids[1])
		if nb := g.Neighbors(a); len(nb) != 1 || nb[0] != b {
			t.Errorf("neighbours of %d: %v, want [%d]", ids[0], nb, b)
		}
	}
}

// TestChunkSeams parses the same inputs with tiny and default chunks.
func TestChunkSeams(t *testing.T) {
	files := []string{"tiny.el", "tiny.wel", "tiny.gr", "tiny.max", "tiny.mtx", "tiny.txt", "tiny.e", "tiny.graph", "tiny-sym.mtx", "tiny.cedge"}
	for _, f := range files {
		ref, err := Load(filepath.Join("testdata", f), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, sz := range []int{1, 3, 16} {
			old := chunkSize
			chunkSize = sz
			g, err := Load(filepath.Join("testdata", f), LoadOptions{})
			chunkSize = old
			if err != nil {
				t.Fatalf("%s chunk=%d: %v", f, sz, err)
			}
			sameCSR(t, fmt.Sprintf("%s chunk=%d", f, sz), toCSR(g), toCSR(ref))
		}
	}
}

func TestMETISVertexWeights(t *testing.T) {
	// fmt 11 with ncon 2: two vertex weights, then neighbour/weight pairs;
	// fmt 100: a vertex size first.
	for _, in := range []string{
		"3 2 11 2\n5 6 2 10\n7 8 1 10 3 20\n9 9 2 20\n",
		"3 2 10 2\n5 6 2\n7 8 1 3\n9 9 2\n",
		"3 2 100\n4 2\n4 1 3\n4 2\n",
		"% comment\n3 2\n2\n% between vertex lines\n1 3\n2\n\n\n",
	} {
		g, err := Read(strings.NewReader(in), "m.graph", LoadOptions{})
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if g.NumVertices() != 3 || g.NumEdges() != 4 || g.Directed() {
			t.Errorf("%q: n=%d m=%d directed=%v", in, g.NumVertices(), g.NumEdges(), g.Directed())
		}
		if nb := g.Neighbors(1); len(nb) != 2 || nb[0] != 0 || nb[1] != 2 {
			t.Errorf("%q: neighbours of 1: %v", in, nb)
		}
	}
}

// TestMETISCounts: the header's edge count is checked against the lists,
// each edge listed at both ends; a self-loop may count as an entry (METIS),
// as a whole edge, or not at all, since it is dropped anyway.
func TestMETISCounts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		m    int64 // undirected edges loaded
		want string
	}{
		{"3 2\n2\n1 3\n2\n", 2, ""},
		{"2 1\n1 2\n1\n", 1, ""},   // the loop not counted
		{"2 2\n1 2\n1\n", 1, ""},   // the loop as a whole edge
		{"2 2\n1 1 2\n1\n", 1, ""}, // a loop listed twice, entries like any others (METIS)
		{"3 2\n2\n1\n\n", 0, "declares 2 edges but the lists hold 2 entries"},
		{"3 1\n2 3\n1\n1\n", 0, "declares 1 edges but the lists hold 4 entries"},
	} {
		g, err := Read(strings.NewReader(tc.in), "m.graph", LoadOptions{})
		if tc.want != "" {
			if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%q: err = %v, want %q", tc.in, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if g.Directed() || g.NumUndirectedEdges() != tc.m {
			t.Errorf("%q: directed %v, %d edges, want undirected with %d", tc.in, g.Directed(), g.NumUndirectedEdges(), tc.m)
		}
	}
}

// TestMETISSymmetryRandom drops one list entry, or changes one weight, of
// random symmetric METIS files: the load must fail at the line of the
// pair's smaller vertex, whatever the chunking.
func TestMETISSymmetryRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		n := 2 + rng.IntN(60)
		type entry struct{ v, w int }
		lists := make([][]entry, n)
		for u := range n {
			for v := u + 1; v < n; v++ {
				if rng.IntN(4) == 0 || v == u+1 && rng.IntN(2) == 0 {
					w := 1 + rng.IntN(9)
					lists[u] = append(lists[u], entry{v, w})
					lists[v] = append(lists[v], entry{u, w})
				}
			}
		}
		var all [][2]int // (vertex, index in its list)
		for u, l := range lists {
			rng.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
			for i := range l {
				all = append(all, [2]int{u, i})
			}
		}
		if len(all) == 0 {
			continue
		}
		text := func(skip [2]int, bump bool) string {
			var sb strings.Builder
			fmt.Fprintf(&sb, "%% round %d\n%d %d 1\n", round, n, len(all)/2)
			for u, l := range lists {
				if u%7 == 3 {
					sb.WriteString("% a comment among the vertex lines\n")
				}
				for i, e := range l {
					switch {
					case [2]int{u, i} == skip && !bump:
						continue
					case [2]int{u, i} == skip:
						e.w++
					}
					fmt.Fprintf(&sb, "%d %d ", e.v+1, e.w)
				}
				sb.WriteString("\n")
			}
			return sb.String()
		}
		lineOf := func(in string, u int) int { // 1-based line of vertex u
			seen := -1
			for i, l := range strings.Split(in, "\n") {
				if i >= 2 && !strings.HasPrefix(l, "%") {
					if seen++; seen == u {
						return i + 1
					}
				}
			}
			return -1
		}
		if _, err := Read(strings.NewReader(text([2]int{-1, -1}, false)), "r.graph", LoadOptions{}); err != nil {
			t.Fatalf("round %d: the symmetric file: %v", round, err)
		}
		for range 5 {
			at := all[rng.IntN(len(all))]
			bump := rng.IntN(2) == 0
			in := text(at, bump)
			u, v := at[0], lists[at[0]][at[1]].v
			want := fmt.Sprintf("r.graph:%d: vertex %d ", lineOf(in, min(u, v)), min(u, v)+1)
			for _, sz := range []int{4 << 20, 16} {
				old := chunkSize
				chunkSize = sz
				_, err := Read(strings.NewReader(in), "r.graph", LoadOptions{})
				chunkSize = old
				if err == nil || !errors.Is(err, ErrFormat) || !strings.HasPrefix(err.Error(), want) {
					t.Fatalf("round %d, entry %d of vertex %d (bump %v), chunk %d: err = %v, want it to start %q\n%s", round, at[1], u+1, bump, sz, err, want, in)
				}
			}
		}
	}
}

// TestLoadDropped: a loaded graph says what loading dropped (info reports
// it): the tiny files' self-loop and duplicate, a METIS edge repeated at
// both ends once.
func TestLoadDropped(t *testing.T) {
	for _, tc := range []struct {
		file, in string // a testdata file, or METIS text
		opt      LoadOptions
		want     Dropped
	}{
		{file: "tiny.txt", want: Dropped{SelfLoops: 1, Duplicates: 1}},
		{file: "tiny.gr", want: Dropped{SelfLoops: 1, Duplicates: 1}},
		{file: "tiny.el", opt: LoadOptions{Undirected: true}, want: Dropped{SelfLoops: 1, Duplicates: 1}},
		{file: "tiny.graph"},
		{file: "tiny-sym.mtx"},
		{in: "3 3\n2 2\n1 1 3\n2\n", want: Dropped{Duplicates: 1}},
		{in: "2 2\n1 2\n1\n", want: Dropped{SelfLoops: 1}},
	} {
		var g *Graph
		var err error
		if tc.file != "" {
			g, err = Load(filepath.Join("testdata", tc.file), tc.opt)
		} else {
			g, err = Read(strings.NewReader(tc.in), "m.graph", tc.opt)
		}
		if err != nil {
			t.Fatalf("%s%q: %v", tc.file, tc.in, err)
		}
		if g.Dropped() != tc.want {
			t.Errorf("%s%q: dropped %+v, want %+v", tc.file, tc.in, g.Dropped(), tc.want)
		}
	}
}

func TestGzipAndProgress(t *testing.T) {
	// A gzip stream read through Read (magic detection, no extension).
	g, err := Read(bytes.NewReader(gzipBytes([]byte("0 1\n1 2\n"))), "stream.el", LoadOptions{})
	if err != nil || g.NumEdges() != 2 {
		t.Fatalf("g=%v err=%v", g, err)
	}
	// Truncated gzip.
	z := gzipBytes(bytes.Repeat([]byte("0 1\n1 2\n"), 1000))
	cut := z[:len(z)/2]
	if _, err := Read(bytes.NewReader(cut), "cut.el", LoadOptions{}); err == nil || !errors.Is(err, ErrFormat) {
		t.Errorf("truncated gzip: err = %v", err)
	}
	// Progress reports the bytes read, ending at the file's size.
	st, err := os.Stat("testdata/tiny.el")
	if err != nil {
		t.Fatal(err)
	}
	var calls int
	var last, lastTotal int64
	if _, err := Load("testdata/tiny.el", LoadOptions{Progress: func(done, total int64) {
		if done < last {
			t.Errorf("progress went back from %d to %d", last, done)
		}
		calls, last, lastTotal = calls+1, done, total
	}}); err != nil {
		t.Fatal(err)
	}
	if calls < 2 || last != st.Size() || lastTotal != st.Size() {
		t.Errorf("progress: %d calls, last %d of %d, file has %d bytes", calls, last, lastTotal, st.Size())
	}
}

// TestTruncatedGzip cuts gzip streams of text graphs at every byte: each
// cut must fail as a truncated stream, never load as a smaller graph or
// blame a half line (the gzip reader's io.ErrUnexpectedEOF used to pass
// for the end of the file).
func TestTruncatedGzip(t *testing.T) {
	var big bytes.Buffer // several chunks' worth, so cuts fall mid-body
	for i := range 3000 {
		fmt.Fprintf(&big, "%d %d\n", i, i+1)
	}
	for _, tc := range []struct {
		name string
		f    Format
		data []byte
	}{
		{"tiny.txt", FormatSNAP, readTestdata(t, "tiny.txt")},
		{"tiny.graph", FormatMETIS, readTestdata(t, "tiny.graph")},
		{"tiny.mtx", FormatMTX, readTestdata(t, "tiny.mtx")},
		{"big.el", FormatEL, big.Bytes()},
	} {
		z := gzipBytes(tc.data)
		if _, err := Read(bytes.NewReader(z), tc.name, LoadOptions{Format: tc.f}); err != nil {
			t.Fatalf("%s whole: %v", tc.name, err)
		}
		step := max(1, len(z)/200)
		for _, sz := range []int{4 << 20, 64} {
			old := chunkSize
			chunkSize = sz
			for cut := 2; cut < len(z); cut += step {
				g, err := Read(bytes.NewReader(z[:cut]), tc.name+".gz", LoadOptions{Format: tc.f})
				if err == nil {
					t.Errorf("%s cut at %d of %d, chunk %d: loaded %d arcs, want an error", tc.name, cut, len(z), sz, g.NumEdges())
					continue
				}
				want := tc.name + ".gz: input ends unexpectedly (truncated gzip stream)"
				if !errors.Is(err, ErrFormat) || err.Error() != want {
					t.Errorf("%s cut at %d of %d, chunk %d: err = %v, want %q", tc.name, cut, len(z), sz, err, want)
				}
			}
			chunkSize = old
		}
	}
	// A plain file's last line needs no newline.
	for _, in := range []string{"0 1\n1 2", "0 1\n1 2 \r"} {
		g, err := Read(strings.NewReader(in), "plain.el", LoadOptions{})
		if err != nil || g.NumEdges() != 2 {
			t.Errorf("%q: g=%v err=%v, want 2 arcs", in, g, err)
		}
	}
}

// gzipped returns the gzip stream of what write writes.
func gzipped(write func(w io.Writer)) []byte {
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	write(zw)
	zw.Close()
	return zb.Bytes()
}

// gzipBytes returns the gzip stream of b.
func gzipBytes(b []byte) []byte { return gzipped(func(w io.Writer) { w.Write(b) }) }

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFastPathAgreesWithGeneral(t *testing.T) {
	// Lines the fast path must hand to the general one, which explains them.
	for in, want := range map[string]string{
		"1 2x\n":                      `invalid vertex id "2x"`,
		"1x 2\n":                      `invalid vertex id "1x"`,
		"1 2 3 x\n":                   "expected 2 or 3 fields, got 4",
		"1\t\t2 \r\n":                 "",
		"1 2 3\r\n":                   "",
		" 1 2\n":                      "",
		"1 2 3 \t\r\n":                "",
		"1\r\n":                       "expected 2 or 3 fields, got 1",
		"12345678901234567890123 1\n": "too large",
	} {
		g, err := Read(strings.NewReader(in), "f.txt", LoadOptions{})
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", in, err)
		case want == "" && g.NumEdges() != 1:
			t.Errorf("%q: %d arcs, want 1", in, g.NumEdges())
		case want != "" && (err == nil || !strings.Contains(err.Error(), "f.txt:1: ") || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: err = %v, want %q", in, err, want)
		}
	}
}

func TestProgressCallback(t *testing.T) {
	data := bytes.Repeat([]byte("0 1\n"), 1000)
	var calls int
	var last int64
	r, done := withProgress(iotest.OneByteReader(bytes.NewReader(data)), int64(len(data)), func(d, total int64) {
		if d < last || total != int64(len(data)) {
			t.Fatalf("progress %d of %d after %d", d, total, last)
		}
		calls, last = calls+1, d
	})
	n, err := io.Copy(io.Discard, r)
	done()
	if err != nil || n != int64(len(data)) {
		t.Fatalf("copied %d, %v", n, err)
	}
	if calls != len(data)+1 || last != int64(len(data)) {
		t.Errorf("%d calls, last %d", calls, last)
	}
}

func TestErrorLineAcrossManyChunks(t *testing.T) {
	var sb strings.Builder
	for i := 1; i < 77777; i++ {
		if i%1000 == 0 {
			sb.WriteString("# a comment\n")
		} else {
			fmt.Fprintf(&sb, "%d %d\n", i, i+1)
		}
	}
	sb.WriteString("5 six\n7 8\n")
	old := chunkSize
	chunkSize = 4096
	defer func() { chunkSize = old }()
	_, err := Read(strings.NewReader(sb.String()), "big.txt", LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), `big.txt:77777: invalid vertex id "six"`) {
		t.Errorf("err = %v", err)
	}
}

func TestFormatNamesAnyCase(t *testing.T) {
	g, err := Read(strings.NewReader("0 1\n"), "x", LoadOptions{Format: "EL"})
	if err != nil || g.NumEdges() != 1 {
		t.Fatalf("g=%v err=%v", g, err)
	}
	if err := Write(io.Discard, g, "MTX"); err != nil {
		t.Errorf("Write MTX: %v", err)
	}
}

// TestEdgeListsWithoutEdges: a file that names no edge is the empty graph,
// which every algorithm accepts.
func TestEdgeListsWithoutEdges(t *testing.T) {
	for f, in := range map[Format]string{
		FormatSNAP:         "# nothing\n", // comments only
		FormatEL:           "\n\n",        // blank lines
		FormatMTX:          "%%MatrixMarket matrix coordinate pattern general\n0 0 0\n",
		FormatGraphalytics: "\n",
	} {
		t.Run(string(f), func(t *testing.T) {
			g, err := Read(strings.NewReader(in), "in", LoadOptions{Format: f})
			if err != nil {
				t.Fatal(err)
			}
			if g.NumVertices() != 0 || g.NumEdges() != 0 {
				t.Fatalf("n=%d m=%d, want the empty graph", g.NumVertices(), g.NumEdges())
			}
		})
	}
}
