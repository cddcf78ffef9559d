package graph

import (
	"testing"
)

var benchSpecs = []string{"kron:16", "kron:20", "urand:20", "grid:1000:1000"}

// BenchmarkGenerate times generation and build together (what a user of
// Generate waits for); BenchmarkGenerateEdges and BenchmarkBuildGenerated
// split it into its two phases.
func BenchmarkGenerate(b *testing.B) {
	for _, spec := range benchSpecs {
		b.Run("spec="+spec, func(b *testing.B) {
			var g *Graph
			for b.Loop() {
				g = mustGen(b, spec, 0)
			}
			reportGraph(b, g)
		})
	}
}

func BenchmarkGenerateEdges(b *testing.B) {
	for _, spec := range benchSpecs {
		b.Run("spec="+spec, func(b *testing.B) {
			s, err := ParseGenSpec(spec)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := GenerateEdges(s, GenOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(s.NumGenEdges()), "ns/edge")
		})
	}
}

func BenchmarkBuildGenerated(b *testing.B) {
	for _, spec := range benchSpecs {
		b.Run("spec="+spec, func(b *testing.B) {
			s, err := ParseGenSpec(spec)
			if err != nil {
				b.Fatal(err)
			}
			el, err := GenerateEdges(s, GenOptions{})
			if err != nil {
				b.Fatal(err)
			}
			var g *Graph
			for b.Loop() {
				if g, err = Build(el, BuildOptions{Undirected: true}); err != nil {
					b.Fatal(err)
				}
			}
			reportGraph(b, g)
		})
	}
}

func reportGraph(b *testing.B, g *Graph) {
	b.ReportMetric(float64(g.NumEdges()), "arcs")
	b.ReportMetric(float64(g.Bytes())/float64(max(g.NumEdges(), 1)), "bytes/arc")
}
