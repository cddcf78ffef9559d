package cc

import (
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// datasetsDir is the shared datasets folder ($GEARBOX_DATASETS or
// ../shared/datasets beside the repository), "" when absent: the tests and
// benchmarks that need it then skip.
var datasetsDir, _ = testgraphs.DatasetsDir()

var benchCases = []testgraphs.BenchCase{
	{"kron20", "kron:20"},
	{"urand20", "urand:20"},
	{"grid2048", "grid:2048:2048"},
	{"email-Enron", "file:email-Enron.txt"},
	{"p2p-Gnutella31", "file:p2p-Gnutella31.txt"},
	{"wiki-Vote", "file:wiki-Vote.txt"},
	{"rome99", "file:rome99.gr"},
	{"PGPgiantcompo", "file:PGPgiantcompo.graph"},
	// Small generated graphs: quick before/after comparisons on a loaded
	// machine.
	{"kron16", "kron:16"},
	{"urand16", "urand:16"},
	{"grid512", "grid:512:512"},
}

var benchVariants = []testgraphs.BenchVariant{
	{Name: "auto"},
	{Name: "afforest", Opts: []runtime.Option{WithVariant(Afforest)}},
	{Name: "unionfind", Opts: []runtime.Option{WithVariant(UnionFind)}},
	{Name: "sv", Opts: []runtime.Option{WithVariant(SV)}},
	{Name: "sv_BM", Opts: []runtime.Option{WithVariant(SV), WithWorkset(decider.Bitmap)}},
	{Name: "sv_QU", Opts: []runtime.Option{WithVariant(SV), WithWorkset(decider.Queue)}},
}

func BenchmarkCC(b *testing.B) {
	testgraphs.BenchRuns(b, benchCases, benchVariants, testgraphs.BenchSpec, Run)
}

func BenchmarkForest(b *testing.B) {
	var variants []testgraphs.BenchVariant
	for _, v := range Variants() {
		variants = append(variants, testgraphs.BenchVariant{Name: v.String(), Opts: []runtime.Option{WithVariant(v)}})
	}
	testgraphs.BenchRuns(b, benchCases[:3], variants, testgraphs.BenchSpec, Forest)
}
