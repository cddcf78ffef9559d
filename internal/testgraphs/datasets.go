package testgraphs

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
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

// readAnswers reads a gzip-compressed answer file of integer values (see
// readValues), -2 for vertices it gives no answer for.
func readAnswers(g *graph.Graph, path string) ([]int64, error) {
	vals, given, err := readValues(g, path, true)
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(vals))
	for v, x := range vals {
		out[v] = int64(x)
		if !given[v] {
			out[v] = -2
		}
	}
	return out, nil
}

// readValues reads "externalID value" lines (gzip-compressed where path
// ends in .gz) into per-internal-vertex values and whether each vertex was
// given one; "inf", "Infinity" and 9223372036854775807 mean unreachable
// (-1). Lines of other shapes are skipped. With integer, values must be
// whole numbers (possibly in %e notation).
func readValues(g *graph.Graph, path string, integer bool) (vals []float64, given []bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		r = z
	}
	vals = make([]float64, g.NumVertices())
	given = make([]bool, g.NumVertices())
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		fs := strings.Fields(sc.Text())
		if len(fs) != 2 {
			continue
		}
		x, err := strconv.ParseUint(fs[0], 10, 64)
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		v, ok := g.IDs().Internal(x)
		if !ok {
			return nil, nil, fmt.Errorf("%s:%d: vertex %d not in graph", path, line, x)
		}
		given[v] = true
		if fs[1] == "inf" || fs[1] == "9223372036854775807" {
			vals[v] = -1
			continue
		}
		val, err := strconv.ParseFloat(fs[1], 64)
		if err == nil && math.IsInf(val, 1) { // "infinity", "+Inf", ...
			vals[v] = -1
			continue
		}
		if err != nil || math.IsInf(val, 0) || val < 0 || (integer && val != math.Trunc(val)) {
			return nil, nil, fmt.Errorf("%s:%d: value %q is not a distance", path, line, fs[1])
		}
		vals[v] = val
	}
	return vals, given, sc.Err()
}

// LDBCScale turns the LDBC validation graphs' real weights into integers
// for SSSP; every weight there has at most two decimals, so the scaled
// weights, and the distances over them, are exact.
const LDBCScale = 1000

// LDBCCase is an LDBC Graphalytics validation graph with its published
// answer from Source: per internal vertex the BFS depth or the SSSP
// distance in the file's own (unscaled) units, -1 where unreachable.
type LDBCCase struct {
	Name   string
	G      *graph.Graph
	Source uint32
	Want   []float64
}

// LDBC loads the validation graphs of ldbc-graphalytics-validation/ for
// alg "BFS" or "SSSP" with their expected outputs: the two example graphs
// and the algorithm's own test graphs (BFS's are adjacency lists, `v n1 n2
// ...`, which no gearbox format reads, so they are built here). Sources and
// directions come from the graphs/*.properties files.
func LDBC(alg string) ([]LDBCCase, error) {
	dir, err := DatasetsDir()
	if err != nil {
		return nil, err
	}
	root := filepath.Join(dir, "ldbc-graphalytics-validation")
	vg := filepath.Join(root, "validation-graphs")
	lower := strings.ToLower(alg)
	type spec struct{ name, props, input, output string }
	specs := []spec{
		{"example-directed", "example-directed", filepath.Join(vg, "example", "example-directed.e"), filepath.Join(vg, "example", "example-directed-"+alg)},
		{"example-undirected", "example-undirected", filepath.Join(vg, "example", "example-undirected.e"), filepath.Join(vg, "example", "example-undirected-"+alg)},
	}
	for _, d := range []string{"dir", "undir"} {
		props := "test-" + lower + "-" + map[string]string{"dir": "directed", "undir": "undirected"}[d]
		in := filepath.Join(vg, lower, d+"-input")
		if alg == "SSSP" {
			in += ".e"
		}
		specs = append(specs, spec{lower + "/" + d, props, in, filepath.Join(vg, lower, d+"-output")})
	}
	var out []LDBCCase
	for _, s := range specs {
		kv, err := readProperties(filepath.Join(root, "graphs", s.props+".properties"))
		if err != nil {
			return nil, err
		}
		prefix := "graph." + s.props + "."
		undirected := kv[prefix+"directed"] == "false"
		src, err := strconv.ParseUint(kv[prefix+lower+".source-vertex"], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("testgraphs: %s: source vertex: %w", s.props, err)
		}
		var g *graph.Graph
		if strings.HasSuffix(s.input, ".e") {
			g, err = graph.Load(s.input, graph.LoadOptions{Undirected: undirected, WeightScale: LDBCScale})
		} else {
			g, err = loadAdjacency(s.input, undirected)
		}
		if err != nil {
			return nil, fmt.Errorf("testgraphs: %w", err)
		}
		in, ok := g.IDs().Internal(src)
		if !ok {
			return nil, fmt.Errorf("testgraphs: %s: source %d not in the graph", s.name, src)
		}
		want, err := readLDBCOutput(g, s.output)
		if err != nil {
			return nil, err
		}
		out = append(out, LDBCCase{Name: s.name, G: g, Source: in, Want: want})
	}
	return out, nil
}

// readProperties reads `key = value` lines, skipping comments.
func readProperties(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	kv := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			kv[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return kv, nil
}

// loadAdjacency builds a graph from `v n1 n2 ...` lines; its vertices are
// every id named, a line's first one isolated or not.
func loadAdjacency(path string, undirected bool) (*graph.Graph, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var vs []uint64
	var arcs [][2]uint64
	for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		fs := strings.Fields(l)
		ids := make([]uint64, len(fs))
		for k, f := range fs {
			if ids[k], err = strconv.ParseUint(f, 10, 64); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
			}
		}
		if len(ids) == 0 {
			continue
		}
		vs = append(vs, ids...)
		for _, n := range ids[1:] {
			arcs = append(arcs, [2]uint64{ids[0], n})
		}
	}
	slices.Sort(vs)
	vs = slices.Compact(vs)
	ids, err := graph.SortedIDs(vs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	el := &graph.EdgeList{NumVertices: len(vs), IDs: ids}
	for _, a := range arcs {
		u, ok1 := ids.Internal(a[0])
		v, ok2 := ids.Internal(a[1])
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%s: arc %d-%d: vertex not listed", path, a[0], a[1]) // cannot happen: vs has every id
		}
		el.Src, el.Dst = append(el.Src, u), append(el.Dst, v)
	}
	return graph.Build(el, graph.BuildOptions{Undirected: undirected})
}

// readLDBCOutput reads an LDBC expected output (readValues), which must
// answer for every vertex.
func readLDBCOutput(g *graph.Graph, path string) ([]float64, error) {
	vals, given, err := readValues(g, path, false)
	if err != nil {
		return nil, err
	}
	if k := slices.Index(given, false); k >= 0 {
		return nil, fmt.Errorf("%s: no answer for vertex %d", path, g.IDs().External(uint32(k)))
	}
	return vals, nil
}

// EveryConfig is the adaptive policy and each of variants, each on one
// worker and on five: the options a reference-answer test runs through.
func EveryConfig(variants []decider.Variant) [][]runtime.Option {
	var out [][]runtime.Option
	for _, w := range []int{1, 5} {
		out = append(out, []runtime.Option{runtime.WithWorkers(w)})
		for _, v := range variants {
			out = append(out, []runtime.Option{runtime.WithWorkers(w), runtime.WithVariant(v)})
		}
	}
	return out
}
