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
	{Name: "kron20", Spec: "kron:20"},
	{Name: "urand20", Spec: "urand:20"},
	{Name: "grid2048", Spec: "grid:2048:2048"},
	{Name: "email-Enron", Spec: "file:email-Enron.txt"},
	{Name: "p2p-Gnutella31", Spec: "file:p2p-Gnutella31.txt"},
	{Name: "wiki-Vote", Spec: "file:wiki-Vote.txt"},
	{Name: "rome99", Spec: "file:rome99.gr"},
	{Name: "PGPgiantcompo", Spec: "file:PGPgiantcompo.graph"},
	// Small generated graphs: quick before/after comparisons on a loaded
	// machine.
	{Name: "kron16", Spec: "kron:16"},
	{Name: "urand16", Spec: "urand:16"},
	{Name: "grid512", Spec: "grid:512:512"},
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
