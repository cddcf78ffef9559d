package msf

import (
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
func benchGraph(b testing.TB, spec string) *graph.Graph {
	b.Helper()
	if g, ok := derived.Load(spec); ok {
		return g.(*graph.Graph)
	}
	g := testgraphs.BenchSpec(b, spec).WithDerivedWeights(DefaultSeed)
	derived.Store(spec, g)
	return g
}

var benchCases = []testgraphs.BenchCase{
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

var benchVariants = []testgraphs.BenchVariant{
	{Name: "auto"},
	{Name: "ea", Opts: []runtime.Option{WithVariant(EA)}},
	{Name: "ea_BM", Opts: []runtime.Option{WithVariant(EA), runtime.WithVariant(bmThread)}},
	{Name: "ea_QU", Opts: []runtime.Option{WithVariant(EA), runtime.WithVariant(queue)}},
	{Name: "al", Opts: []runtime.Option{WithVariant(AL)}},
	{Name: "al_BM_thread", Opts: []runtime.Option{WithVariant(AL), runtime.WithVariant(bmThread)}},
	{Name: "al_BM_block", Opts: []runtime.Option{WithVariant(AL), runtime.WithVariant(bmBlock)}},
	{Name: "al_QU", Opts: []runtime.Option{WithVariant(AL), runtime.WithVariant(queue)}},
	{Name: "ecl", Opts: []runtime.Option{WithVariant(ECL)}},
	{Name: "kruskal", Opts: []runtime.Option{WithVariant(Kruskal)}},
}

func BenchmarkMSF(b *testing.B) {
	testgraphs.BenchRuns(b, benchCases, benchVariants, benchGraph, Run)
}
