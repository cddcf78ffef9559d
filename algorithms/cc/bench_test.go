package cc

import (
	"context"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// benchGraph is the graph of a generator spec or "file:NAME" dataset.
func benchGraph(b *testing.B, spec string) *graph.Graph { return testgraphs.BenchSpec(b, spec) }

// datasetsDir is the shared datasets folder ($GEARBOX_DATASETS or
// ../shared/datasets beside the repository), "" when absent: the tests and
// benchmarks that need it then skip.
var datasetsDir, _ = testgraphs.DatasetsDir()

var benchCases = []struct{ name, spec string }{
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

var benchVariants = []struct {
	name string
	opts []runtime.Option
}{
	{"auto", nil},
	{"afforest", []runtime.Option{WithVariant(Afforest)}},
	{"unionfind", []runtime.Option{WithVariant(UnionFind)}},
	{"sv", []runtime.Option{WithVariant(SV)}},
	{"sv_BM", []runtime.Option{WithVariant(SV), WithWorkset(decider.Bitmap)}},
	{"sv_QU", []runtime.Option{WithVariant(SV), WithWorkset(decider.Queue)}},
}

func BenchmarkCC(b *testing.B) {
	ctx := context.Background()
	for _, bc := range benchCases {
		for _, v := range benchVariants {
			b.Run("graph="+bc.name+"/variant="+v.name, func(b *testing.B) {
				g := benchGraph(b, bc.spec)
				testgraphs.TimeOps(b, func() error {
					_, err := Run(ctx, g, v.opts...)
					return err
				})
			})
		}
	}
}

func BenchmarkForest(b *testing.B) {
	ctx := context.Background()
	for _, bc := range benchCases[:3] {
		for _, v := range Variants() {
			b.Run("graph="+bc.name+"/variant="+v.String(), func(b *testing.B) {
				g := benchGraph(b, bc.spec)
				testgraphs.TimeOps(b, func() error {
					_, err := Forest(ctx, g, WithVariant(v))
					return err
				})
			})
		}
	}
}
