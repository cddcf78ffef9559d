package graph

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// benchGraph builds a deterministic random directed graph with integer
// weights: 2^22 vertices and 7M arcs, about 110 MB as an edge list.
func benchGraph(b *testing.B) *Graph {
	const n, m = 1 << 22, 7_000_000
	el := &EdgeList{NumVertices: n, Src: make([]uint32, m), Dst: make([]uint32, m), Weights: make([]uint32, m), WeightKind: IntWeights}
	x := uint64(42)
	for i := 0; i < m; i++ {
		x = x*6364136223846793005 + 1442695040888963407 // a plain LCG is enough here
		r := mix64(x)
		el.Src[i], el.Dst[i], el.Weights[i] = uint32(r)%n, uint32(r>>32)%n, uint32(r>>22)%1000+1
	}
	g, err := Build(el, BuildOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkLoad measures Load, parsing and building, in MB/s of file.
func BenchmarkLoad(b *testing.B) {
	g := benchGraph(b)
	dir := b.TempDir()
	for _, name := range []string{"g.el", "g.wel", "g.txt", "g.mtx", "g.gr", "g.gbx", "g.el.gz"} {
		p := filepath.Join(dir, name)
		f, _ := DetectFormat(p)
		label := string(f)
		if filepath.Ext(name) == ".gz" {
			label += ".gz"
		}
		b.Run("format="+label, func(b *testing.B) {
			if err := Save(p, g, ""); err != nil {
				b.Fatal(err)
			}
			st, _ := os.Stat(p)
			b.SetBytes(st.Size())
			for b.Loop() {
				h, err := Load(p, LoadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if h.NumEdges() != g.NumEdges() {
					b.Fatalf("%d arcs, want %d", h.NumEdges(), g.NumEdges())
				}
			}
		})
	}
}

// BenchmarkParse measures the parallel text parse alone (no CSR build).
func BenchmarkParse(b *testing.B) {
	g := benchGraph(b)
	dir := b.TempDir()
	p := filepath.Join(dir, "g.el")
	if err := Save(p, g, ""); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(p)
	b.Run("format=el", func(b *testing.B) {
		b.SetBytes(st.Size())
		for b.Loop() {
			f, _ := os.Open(p)
			ck := &chunker{r: f}
			ep := &edgeParser{minF: 2, maxF: 2, comments: "#%"}
			outs, err := parseChunks("g.el", ck, nil, 0, ep.parse)
			f.Close()
			if err != nil || len(outs) == 0 {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkWrite measures Write, in MB/s of output.
func BenchmarkWrite(b *testing.B) {
	g := benchGraph(b)
	for _, f := range []Format{FormatEL, FormatWEL, FormatMTX, FormatBin} {
		b.Run(fmt.Sprintf("format=%s", f), func(b *testing.B) {
			var cw countWriter
			if err := Write(&cw, g, f); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(cw.n)
			for b.Loop() {
				if err := Write(io.Discard, g, f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }
