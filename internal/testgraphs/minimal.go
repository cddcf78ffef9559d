package testgraphs

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/graph"
)

// SkipNoDatasets ends the test: skipped when err is ErrNoDatasets (no
// datasets folder here), failed on any other error from loading them.
func SkipNoDatasets(tb testing.TB, err error) {
	tb.Helper()
	if errors.Is(err, ErrNoDatasets) {
		tb.Skip(err)
	}
	if err != nil {
		tb.Fatal(err)
	}
}

// LoadDatasetMinimal reads a SNAP edge list (.txt) or a DIMACS .gr file
// (weights kept) from DatasetsDir with a parser of its own, independent of
// package graph's loaders that the GPU tests cross-check; it returns nil
// (logged) when the file is absent.
func LoadDatasetMinimal(t testing.TB, name string, directed bool) *graph.Graph {
	t.Helper()
	dir, err := DatasetsDir()
	if err != nil {
		t.Logf("skipping dataset %s: %v", name, err)
		return nil
	}
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		t.Logf("skipping dataset %s: %v", name, err)
		return nil
	}
	defer f.Close()
	el := &graph.EdgeList{}
	gr := strings.HasSuffix(name, ".gr")
	if gr {
		el.WeightKind = graph.IntWeights
		el.Weights = []uint32{}
	}
	sc := bufio.NewScanner(f)
	maxID := -1
	line := 0
	for sc.Scan() {
		line++
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") || fs[0] == "c" || fs[0] == "p" {
			continue
		}
		if gr {
			if fs[0] != "a" || len(fs) != 4 {
				t.Fatalf("%s:%d: bad arc line", name, line)
			}
			fs = fs[1:]
		}
		var ids [2]int
		for i := 0; i < 2; i++ {
			x, err := strconv.Atoi(fs[i])
			if err != nil {
				t.Fatalf("%s:%d: %v", name, line, err)
			}
			if gr {
				x-- // 1-based
			}
			ids[i] = x
			maxID = max(maxID, x)
		}
		el.Src = append(el.Src, uint32(ids[0]))
		el.Dst = append(el.Dst, uint32(ids[1]))
		if gr {
			w, err := strconv.ParseUint(fs[2], 10, 32)
			if err != nil {
				t.Fatalf("%s:%d: %v", name, line, err)
			}
			el.Weights = append(el.Weights, uint32(w))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	el.NumVertices = maxID + 1
	g, err := graph.Build(el, graph.BuildOptions{Undirected: !directed})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return g
}
