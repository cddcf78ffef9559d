package msf

import (
	"context"
	"sync"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

var derived sync.Map // spec -> *graph.Graph with Run's derived weights

// benchGraph is the graph of a generator spec or "file:NAME" dataset, with
// the derived weights Run would give an unweighted one (made once).
func benchGraph(b *testing.B, spec string) *graph.Graph {
	b.Helper()
	if g, ok := derived.Load(spec); ok {
		return g.(*graph.Graph)
	}
	g := testgraphs.BenchSpec(b, spec).WithDerivedWeights(DefaultSeed)
	derived.Store(spec, g)
	return g
}

var benchCases = []struct{ name, spec string }{
	{"kron18", "kron:18"},
	{"kron20", "kron:20"},
	{"urand20", "urand:20"},
	{"grid1024", "grid:1024:1024"},
	{"email-Enron", "file:email-Enron.txt"},
	{"wiki-Vote", "file:wiki-Vote.txt"},
	{"rome99", "file:rome99.gr"},
	{"cal.cedge", "file:cal.cedge"},
}

var (
	bmThread = decider.Variant{Mapping: decider.Thread, Rep: decider.Bitmap}
	bmBlock  = decider.Variant{Mapping: decider.Block, Rep: decider.Bitmap}
	queue    = decider.Variant{Mapping: decider.Block, Rep: decider.Queue}
)

var benchVariants = []struct {
	name string
	opts []runtime.Option
}{
	{"auto", nil},
	{"ea", []runtime.Option{WithVariant(EA)}},
	{"ea_BM", []runtime.Option{WithVariant(EA), runtime.WithVariant(bmThread)}},
	{"ea_QU", []runtime.Option{WithVariant(EA), runtime.WithVariant(queue)}},
	{"al", []runtime.Option{WithVariant(AL)}},
	{"al_BM_thread", []runtime.Option{WithVariant(AL), runtime.WithVariant(bmThread)}},
	{"al_BM_block", []runtime.Option{WithVariant(AL), runtime.WithVariant(bmBlock)}},
	{"al_QU", []runtime.Option{WithVariant(AL), runtime.WithVariant(queue)}},
	{"ecl", []runtime.Option{WithVariant(ECL)}},
	{"kruskal", []runtime.Option{WithVariant(Kruskal)}},
}

func BenchmarkMSF(b *testing.B) {
	ctx := context.Background()
	for _, bc := range benchCases {
		for _, v := range benchVariants {
			b.Run("graph="+bc.name+"/variant="+v.name, func(b *testing.B) {
				g := benchGraph(b, bc.spec)
				b.ResetTimer()
				c0 := testgraphs.CPUTime()
				for i := 0; i < b.N; i++ {
					r, err := Run(ctx, g, v.opts...)
					if err != nil {
						b.Fatal(err)
					}
					r.Release() // as the CLI's repeats do: the next run reuses the memory
				}
				// CPU time per op: on a shared machine wall time also
				// counts waiting for a core.
				b.ReportMetric(float64(testgraphs.CPUTime()-c0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
