package testgraphs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

var (
	benchMu     sync.Mutex
	benchGraphs = map[string]*graph.Graph{}
)

// Bench returns a named benchmark graph, built once per process with the
// graph package's generators (default seed): "kron20" (kron:20:16,
// Graph500 Kronecker, undirected), "urand20" (urand:20:16), "grid2048"
// (grid:2048:2048, thousands of BFS levels), "grid1024", "kron16"; and
// "rmat20", this package's own R-MAT (A=.57, B=C=.19). Unknown names
// return nil.
func Bench(name string) *graph.Graph {
	benchMu.Lock()
	defer benchMu.Unlock()
	if g, ok := benchGraphs[name]; ok {
		return g
	}
	specs := map[string]string{"kron20": "kron:20:16", "kron16": "kron:16:16", "urand20": "urand:20:16",
		"grid2048": "grid:2048:2048", "grid1024": "grid:1024:1024"}
	var g *graph.Graph
	if spec, ok := specs[name]; ok {
		var err error
		g, err = graph.Generate(spec, graph.GenOptions{})
		if err != nil {
			panic(err)
		}
	} else if name == "rmat20" {
		g = RMAT(20, 16, 1)
	} else {
		return nil
	}
	benchGraphs[name] = g
	return g
}

// Sources returns k deterministic source vertices with non-zero degree
// (the GAP suite also skips isolated sources).
func Sources(g *graph.Graph, k int) []uint32 {
	n := g.NumVertices()
	var out []uint32
	if n == 0 {
		return nil
	}
	for i := uint64(0); len(out) < k && i < uint64(100*k+n); i++ {
		v := uint32(mix(i^0xabcdef) % uint64(n))
		if g.Degree(v) > 0 {
			out = append(out, v)
		}
	}
	return out
}

// CPUTime returns the process's user+system CPU time so far: benchmarks
// report it per operation because wall time on a shared, loaded machine
// overstates the work (ideal wall time with w busy workers ~ CPU time / w).
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TimeOps times op, run b.N times after the setup so far, and reports its
// CPU time per op as "cpu-ns/op" beside the wall time: on a shared, loaded
// machine wall time also counts waiting for a core.
func TimeOps(b *testing.B, op func() error) {
	b.Helper()
	b.ResetTimer()
	c0 := CPUTime()
	for i := 0; i < b.N; i++ {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(CPUTime()-c0)/float64(b.N), "cpu-ns/op")
}

// BenchCase is a benchmark graph's {name, spec}: the spec a generator's or
// "file:NAME" for a dataset (BenchSpec).
type BenchCase [2]string

// BenchVariant names the options of one run configuration.
type BenchVariant struct {
	Name string
	Opts []runtime.Option
}

// BenchRuns times run on every case's graph (graphOf builds it from the
// spec) under every variant's options, as sub-benchmarks
// graph=NAME/variant=NAME (TimeOps). A result with a Release method is
// released after each run, as the CLI's repeats do: the next run reuses
// its memory.
func BenchRuns[R any](b *testing.B, cases []BenchCase, variants []BenchVariant, graphOf func(testing.TB, string) *graph.Graph,
	run func(ctx context.Context, g *graph.Graph, opts ...runtime.Option) (R, error)) {
	ctx := context.Background()
	for _, c := range cases {
		for _, v := range variants {
			b.Run("graph="+c[0]+"/variant="+v.Name, func(b *testing.B) {
				g := graphOf(b, c[1])
				TimeOps(b, func() error {
					r, err := run(ctx, g, v.Opts...)
					if rel, ok := any(r).(interface{ Release() }); ok && err == nil {
						rel.Release()
					}
					return err
				})
			})
		}
	}
}

var specGraphs sync.Map // spec -> *graph.Graph

// BenchSpec returns (built once per process) the graph of a generator
// spec such as "kron:20", or the real graph "file:NAME" of the shared
// datasets, skipping the benchmark when the datasets are absent.
func BenchSpec(b testing.TB, spec string) *graph.Graph {
	b.Helper()
	return benchSpec(b, spec, false)
}

// BenchNetwork is BenchSpec for flow networks: a file's parallel arcs are
// kept (graph.LoadOptions.KeepDuplicates), so their capacities add up.
func BenchNetwork(b testing.TB, spec string) *graph.Graph {
	b.Helper()
	return benchSpec(b, spec, true)
}

func benchSpec(b testing.TB, spec string, keep bool) *graph.Graph {
	b.Helper()
	key := spec
	if keep {
		key += "|keep"
	}
	if g, ok := specGraphs.Load(key); ok {
		return g.(*graph.Graph)
	}
	var g *graph.Graph
	var err error
	if name, ok := strings.CutPrefix(spec, "file:"); ok {
		dir, derr := DatasetsDir()
		path := filepath.Join(dir, name)
		if _, serr := os.Stat(path); derr != nil || serr != nil {
			b.Skipf("dataset %s absent", path)
		}
		g, err = graph.Load(path, graph.LoadOptions{KeepDuplicates: keep})
	} else {
		g, err = graph.Generate(spec, graph.GenOptions{})
	}
	if err != nil {
		b.Fatalf("%s: %v", spec, err)
	}
	specGraphs.Store(key, g)
	return g
}
