package testgraphs

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gearbox-graph/gearbox/graph"
)

// ErrNoDatasets is returned when ../shared/datasets cannot be found; tests
// skip with its message.
var ErrNoDatasets = errors.New("real datasets not found (expected ../shared/datasets beside the repository root, or set GEARBOX_DATASETS)")

// DatasetsDir locates the shared datasets folder: $GEARBOX_DATASETS, else
// ../shared/datasets relative to the repository root (found by walking up
// to go.mod from the working directory).
func DatasetsDir() (string, error) {
	if d := os.Getenv("GEARBOX_DATASETS"); d != "" {
		return d, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "datasets")
			if _, err := os.Stat(filepath.Join(d, "README.md")); err != nil {
				return "", ErrNoDatasets
			}
			return d, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", ErrNoDatasets
		}
		dir = up
	}
}

// realFiles are the datasets run through every algorithm test: file,
// whether to symmetrize, and the weight scale for real weights.
var realFiles = []struct {
	file       string
	undirected bool
	scale      float64
}{
	{"email-Enron.txt", true, 0},
	{"p2p-Gnutella31.txt", false, 0},
	{"wiki-Vote.txt", false, 0},
	{"ca-GrQc.txt", true, 0},
	{"email-Eu-core.txt", false, 0},
	{"facebook_combined.txt", true, 0},
	{"rome99.gr", false, 0},
	{"power.graph", true, 0},
	{"PGPgiantcompo.graph", true, 0},
	{"polbooks.mtx", true, 0},
	// Road segment lengths in [0.0005, 0.3]: micro-units keep every one
	// distinct from its neighbours' and far under 2^32 along any path.
	{"cal.cedge", false, 1e6},
}

// Datasets loads the real graphs of ../shared/datasets (small, all below
// 400k arcs), each with two deterministic sources. Weighted ones keep
// their weights (rome99's integer metres, cal.cedge's lengths scaled to
// integers).
func Datasets() ([]Case, error) {
	dir, err := DatasetsDir()
	if err != nil {
		return nil, err
	}
	var out []Case
	for _, f := range realFiles {
		g, err := graph.Load(filepath.Join(dir, f.file), graph.LoadOptions{Undirected: f.undirected, WeightScale: f.scale})
		if err != nil {
			return nil, fmt.Errorf("testgraphs: %w", err)
		}
		out = append(out, Case{Name: f.file, G: g, Sources: Sources(g, 2)})
	}
	return out, nil
}

// P2P31 loads gstest's p2p-31 (SNAP p2p-Gnutella31 relabelled, integer
// weights 1..100, treated as undirected) with its reference answers from
// vertex 6: BFS depths and Dijkstra distances per internal vertex id, -1
// for unreachable.
func P2P31() (g *graph.Graph, src uint32, depth, dist []int64, err error) {
	dir, err := DatasetsDir()
	if err != nil {
		return nil, 0, nil, nil, err
	}
	d := filepath.Join(dir, "gstest-p2p-31")
	g, err = graph.Load(filepath.Join(d, "p2p-31.e"), graph.LoadOptions{Undirected: true, WeightScale: 1})
	if err != nil {
		return nil, 0, nil, nil, err
	}
	s, ok := g.IDs().Internal(6)
	if !ok {
		return nil, 0, nil, nil, errors.New("testgraphs: p2p-31 has no vertex 6")
	}
	depth, err = readAnswers(g, filepath.Join(d, "p2p-31-bfs_auto.gz"))
	if err != nil {
		return nil, 0, nil, nil, err
	}
	dist, err = readAnswers(g, filepath.Join(d, "p2p-31-sssp.gz"))
	if err != nil {
		return nil, 0, nil, nil, err
	}
	return g, s, depth, dist, nil
}

// readAnswers reads "externalID value" lines; values "inf" or
// 9223372036854775807 mean unreachable; others are integers, possibly in
// %e notation.
func readAnswers(g *graph.Graph, path string) ([]int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := make([]int64, g.NumVertices())
	for i := range out {
		out[i] = -2 // no answer given
	}
	sc := bufio.NewScanner(z)
	line := 0
	for sc.Scan() {
		line++
		fs := strings.Fields(sc.Text())
		if len(fs) != 2 {
			continue
		}
		x, err := strconv.ParseUint(fs[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		v, ok := g.IDs().Internal(x)
		if !ok {
			return nil, fmt.Errorf("%s:%d: vertex %d not in graph", path, line, x)
		}
		if fs[1] == "inf" || fs[1] == "9223372036854775807" {
			out[v] = -1
			continue
		}
		val, err := strconv.ParseFloat(fs[1], 64)
		if err == nil && math.IsInf(val, 1) { // "infinity", "+Inf", ...
			out[v] = -1
			continue
		}
		if err != nil || math.IsInf(val, 0) || val != math.Trunc(val) || val < 0 {
			return nil, fmt.Errorf("%s:%d: value %q is not an integer", path, line, fs[1])
		}
		out[v] = int64(val)
	}
	return out, sc.Err()
}
