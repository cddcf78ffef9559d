package cc

import (
	"bufio"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// loadDataset loads a file under shared/datasets, skipping the test when the
// folder or file is absent.
func loadDataset(t *testing.T, name string) *graph.Graph {
	t.Helper()
	if datasetsDir == "" {
		t.Skip(testgraphs.ErrNoDatasets)
	}
	path := filepath.Join(datasetsDir, name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("dataset %s absent: %v", path, err)
	}
	g, err := graph.Load(path, graph.LoadOptions{})
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return g
}

func TestRealGraphs(t *testing.T) {
	files := []string{
		"email-Enron.txt", "p2p-Gnutella31.txt", "wiki-Vote.txt", "ca-GrQc.txt", "email-Eu-core.txt",
		"facebook_combined.txt", "PGPgiantcompo.graph", "power.graph", "polbooks.mtx", "rome99.gr",
		"ak-4102.max",
	}
	ctx := context.Background()
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			g := loadDataset(t, f)
			for _, v := range Variants() {
				fr, err := Forest(ctx, g, WithVariant(v))
				if err != nil {
					t.Fatalf("%v: %v", v, err)
				}
				if err := Verify(g, fr.Labels()); err != nil {
					t.Fatalf("%v: %v", v, err)
				}
				if err := VerifyForest(g, fr.Labels(), fr.Edges()); err != nil {
					t.Fatalf("%v: %v", v, err)
				}
			}
		})
	}
}

// readLabels reads a Graphalytics output file of "vertex label" lines
// (gzip-compressed when the name ends in .gz).
func readLabels(t *testing.T, path string) map[uint64]uint64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("reference %s absent: %v", path, err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = z
	}
	out := map[uint64]uint64{}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		if len(fs) != 2 {
			t.Fatalf("%s:%d: want 2 fields, got %q", path, line, sc.Text())
		}
		v, err1 := strconv.ParseUint(fs[0], 10, 64)
		l, err2 := strconv.ParseUint(fs[1], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: bad numbers in %q", path, line, sc.Text())
		}
		out[v] = l
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGraphalyticsWCC checks the labels, mapped back to the files' ids,
// against published weakly-connected-components answers (label = smallest
// vertex id of the component).
func TestGraphalyticsWCC(t *testing.T) {
	v := filepath.Join("ldbc-graphalytics-validation", "validation-graphs", "example")
	cases := []struct{ graph, want string }{
		{filepath.Join("gstest-p2p-31", "p2p-31.e"), filepath.Join("gstest-p2p-31", "p2p-31-wcc_auto.gz")},
		{filepath.Join(v, "example-directed.e"), filepath.Join(v, "example-directed-WCC")},
		{filepath.Join(v, "example-undirected.e"), filepath.Join(v, "example-undirected-WCC")},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(filepath.Base(c.graph), func(t *testing.T) {
			g := loadDataset(t, c.graph)
			want := readLabels(t, filepath.Join(datasetsDir, c.want))
			if len(want) != g.NumVertices() {
				t.Fatalf("reference has %d vertices, graph %d", len(want), g.NumVertices())
			}
			ids := g.IDs()
			for _, variant := range append(Variants(), Auto) {
				res, err := Run(ctx, g, WithVariant(variant))
				if err != nil {
					t.Fatal(err)
				}
				for x, l := range want {
					in, ok := ids.Internal(x)
					if !ok {
						t.Fatalf("reference vertex %d not in the graph", x)
					}
					if got := ids.External(res.Label(in)); got != l {
						t.Fatalf("%v: vertex %d: label %d, want %d", variant, x, got, l)
					}
				}
			}
		})
	}
}
