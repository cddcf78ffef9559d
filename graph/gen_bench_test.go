package graph

import (
	"testing"
	"time"
)

var benchSpecs = []string{"kron:16", "kron:20", "urand:20", "grid:1000:1000"}

// BenchmarkGenerate times generation and build together (what a user of
// Generate waits for); BenchmarkGenerateEdges and BenchmarkBuildGenerated
// split it into its two phases.
func BenchmarkGenerate(b *testing.B) {
	eachSpec(b, func(b *testing.B, spec string, _ GenSpec) {
		var g *Graph
		c0 := processCPU()
		for b.Loop() {
			g = mustGen(b, spec, 0)
		}
		reportCPU(b, c0)
		reportGraph(b, g)
	})
}

func BenchmarkGenerateEdges(b *testing.B) {
	eachSpec(b, func(b *testing.B, _ string, s GenSpec) {
		c0 := processCPU()
		for b.Loop() {
			if _, err := GenerateEdges(s, GenOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, c0)
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(s.NumGenEdges()), "ns/edge")
	})
}

func BenchmarkBuildGenerated(b *testing.B) {
	eachSpec(b, func(b *testing.B, _ string, s GenSpec) {
		el, err := GenerateEdges(s, GenOptions{})
		if err != nil {
			b.Fatal(err)
		}
		var g *Graph
		c0 := processCPU()
		for b.Loop() {
			if g, err = Build(el, BuildOptions{Undirected: true}); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, c0)
		reportGraph(b, g)
	})
}

// eachSpec runs bench as a sub-benchmark per spec of benchSpecs, parsed.
func eachSpec(b *testing.B, bench func(b *testing.B, spec string, s GenSpec)) {
	for _, spec := range benchSpecs {
		b.Run("spec="+spec, func(b *testing.B) {
			s, err := ParseGenSpec(spec)
			if err != nil {
				b.Fatal(err)
			}
			bench(b, spec, s)
		})
	}
}

// reportCPU adds the process CPU seconds per op: on a shared machine wall
// time says more about the neighbours than about the code.
func reportCPU(b *testing.B, c0 time.Duration) {
	if c := processCPU(); c > 0 {
		b.ReportMetric((c-c0).Seconds()/float64(b.N), "cpu-s/op")
	}
}

func reportGraph(b *testing.B, g *Graph) {
	b.ReportMetric(float64(g.NumEdges()), "arcs")
	b.ReportMetric(float64(g.Bytes())/float64(max(g.NumEdges(), 1)), "bytes/arc")
}
