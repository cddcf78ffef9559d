package graph

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// datasetsDir finds ../shared/datasets relative to the repository root
// (GEARBOX_DATASETS overrides it).
func datasetsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("GEARBOX_DATASETS")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "datasets")
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Skipf("real datasets not found at %s (set GEARBOX_DATASETS): %v", dir, err)
	}
	return dir
}

// TestRealDatasets loads the real graphs and checks their sizes against the
// datasets README. The README counts raw lines/arcs; loading drops
// self-loops and duplicate arcs, so the expected values below are derived
// from its numbers as explained per row.
func TestRealDatasets(t *testing.T) {
	dir := datasetsDir(t)
	tests := []struct {
		file       string
		undirected bool  // load with Undirected
		n          int   // vertices
		arcs       int64 // NumEdges after loading
		pairs      int64 // NumUndirectedEdges (undirected loads), 0 = skip
		weights    WeightKind
		source     int64 // expected terminals for .max, -1 none
		sink       int64
	}{
		// 147,892 arcs, no self-loops or duplicates.
		{"p2p-Gnutella31.txt", false, 62586, 147892, 0, Unweighted, -1, -1},
		// 367,662 lines = both arcs of 183,831 undirected edges.
		{"email-Enron.txt", false, 36692, 367662, 0, Unweighted, -1, -1},
		{"email-Enron.txt", true, 36692, 367662, 183831, Unweighted, -1, -1},
		// 103,689 arcs; 100,762 unordered pairs when symmetrized.
		{"wiki-Vote.txt", false, 7115, 103689, 0, Unweighted, -1, -1},
		{"wiki-Vote.txt", true, 7115, 2 * 100762, 100762, Unweighted, -1, -1},
		// 28,980 lines = 14,496 undirected edges of which 12 are self-loops
		// (each listed once): 28,980 - 12 arcs remain, 14,496 - 12 pairs.
		{"ca-GrQc.txt", false, 5242, 28980 - 12, 0, Unweighted, -1, -1},
		{"ca-GrQc.txt", true, 5242, 28980 - 12, 14496 - 12, Unweighted, -1, -1},
		// 25,571 arcs of which 642 self-loops are dropped.
		{"email-Eu-core.txt", false, 1005, 25571 - 642, 0, Unweighted, -1, -1},
		// 88,234 lines, one per undirected edge.
		{"facebook_combined.txt", false, 4039, 88234, 0, Unweighted, -1, -1},
		{"facebook_combined.txt", true, 4039, 2 * 88234, 88234, Unweighted, -1, -1},
		// 8,870 arcs but only 8,859 distinct pairs: parallel arcs merge.
		{"rome99.gr", false, 3353, 8859, 0, IntWeights, -1, -1},
		// METIS and symmetric MatrixMarket are undirected by format.
		{"power.graph", false, 4941, 2 * 6594, 6594, Unweighted, -1, -1},
		{"PGPgiantcompo.graph", false, 10680, 2 * 24316, 24316, Unweighted, -1, -1},
		{"polbooks.mtx", false, 105, 2 * 441, 441, Unweighted, -1, -1},
		// 21,693 road segments, no self-loops or repeats; undirected by format,
		// lengths real.
		{"cal.cedge", false, 21048, 2 * 21693, 21693, RealWeights, -1, -1},
		// Max-flow instances: s and t are 1-based in the files.
		{"ak-4102.max", false, 16414, 24619, 0, IntWeights, 0, 1},
		{"nx-gl1.max", false, 1116, 4800, 0, IntWeights, 0, 1115},
		{"nx-gw1.max", false, 1024, 4608, 0, IntWeights, 0, 1023},
		{"nx-wlm3.max", false, 1026, 8068, 0, IntWeights, 0, 1025},
		// p2p-Gnutella31 relabelled 1..62586 with integer weights; the
		// vertex file p2p-31.v.gz beside it lists all vertices.
		{"gstest-p2p-31/p2p-31.e", false, 62586, 147892, 0, IntWeights, -1, -1},
	}
	for _, tc := range tests {
		name := tc.file
		if tc.undirected {
			name += "/undirected"
		}
		t.Run(name, func(t *testing.T) {
			g, err := Load(filepath.Join(dir, tc.file), LoadOptions{Undirected: tc.undirected})
			if err != nil {
				t.Fatal(err)
			}
			if g.NumVertices() != tc.n || g.NumEdges() != tc.arcs {
				t.Errorf("n=%d arcs=%d, want %d and %d", g.NumVertices(), g.NumEdges(), tc.n, tc.arcs)
			}
			if tc.pairs > 0 && g.NumUndirectedEdges() != tc.pairs {
				t.Errorf("undirected edges %d, want %d", g.NumUndirectedEdges(), tc.pairs)
			}
			if g.WeightKind() != tc.weights {
				t.Errorf("weights %v, want %v", g.WeightKind(), tc.weights)
			}
			s, sink, ok := g.Terminals()
			if ok != (tc.source >= 0) || (ok && (int64(s) != tc.source || int64(sink) != tc.sink)) {
				t.Errorf("terminals %d %d %v, want %d %d", s, sink, ok, tc.source, tc.sink)
			}
		})
	}
}

// TestP2P31MatchesSNAP checks that the Graphalytics copy of p2p-Gnutella31
// (relabelled in order of first appearance) has the SNAP graph's degree
// sequence.
func TestP2P31MatchesSNAP(t *testing.T) {
	dir := datasetsDir(t)
	a, err := Load(filepath.Join(dir, "p2p-Gnutella31.txt"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(filepath.Join(dir, "gstest-p2p-31", "p2p-31.e"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	degs := func(g *Graph) []int64 {
		d := make([]int64, g.NumVertices())
		for v := range d {
			d[v] = g.Degree(uint32(v))
		}
		slices.Sort(d)
		return d
	}
	if !slices.Equal(degs(a), degs(b)) {
		t.Errorf("degree sequences differ")
	}
	if b.IDs().External(0) != 1 || b.IDs().External(62585) != 62586 {
		t.Errorf("p2p-31 ids: External(0)=%d External(62585)=%d, want 1 and 62586", b.IDs().External(0), b.IDs().External(62585))
	}
}

// TestGraphalyticsValidation loads the LDBC validation graphs and compares
// them with the vertex and edge counts of their .properties files.
func TestGraphalyticsValidation(t *testing.T) {
	dir := filepath.Join(datasetsDir(t), "ldbc-graphalytics-validation")
	for edges, props := range map[string]string{
		"example/example-directed.e":   "example-directed",
		"example/example-undirected.e": "example-undirected",
		"sssp/dir-input.e":             "test-sssp-directed",
		"sssp/undir-input.e":           "test-sssp-undirected",
	} {
		t.Run(props, func(t *testing.T) {
			p := readProperties(t, filepath.Join(dir, "graphs", props+".properties"))
			directed := p["graph."+props+".directed"] == "true"
			nv, _ := strconv.Atoi(p["graph."+props+".meta.vertices"])
			ne, _ := strconv.ParseInt(p["graph."+props+".meta.edges"], 10, 64)
			if nv == 0 || ne == 0 {
				t.Fatalf("properties lack meta counts: %v", p)
			}
			g, err := Load(filepath.Join(dir, "validation-graphs", edges), LoadOptions{Undirected: !directed})
			if err != nil {
				t.Fatal(err)
			}
			if g.NumVertices() != nv || g.NumUndirectedEdges() != ne || g.Directed() != directed {
				t.Errorf("n=%d edges=%d directed=%v, want %d %d %v", g.NumVertices(), g.NumUndirectedEdges(), g.Directed(), nv, ne, directed)
			}
			if g.WeightKind() != RealWeights {
				t.Errorf("weights %v, want real", g.WeightKind())
			}
		})
	}
}

func readProperties(t *testing.T, path string) map[string]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if ok && !strings.HasPrefix(strings.TrimSpace(k), "#") {
			m[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return m
}
