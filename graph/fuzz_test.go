package graph

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Fuzz targets, one per parser, seeded with the testdata files. Every input
// must either load to a valid graph or fail with an error wrapping
// ErrFormat; none may panic.

func fuzzRead(f *testing.F, format Format, seeds ...string) {
	for _, s := range seeds {
		b, err := os.ReadFile(filepath.Join("testdata", s))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, undirected bool) {
		for _, sz := range []int{4 << 20, 5} { // whole and split into chunks
			old := chunkSize
			chunkSize = sz
			g, err := Read(bytes.NewReader(data), "fuzz", LoadOptions{Format: format, Undirected: undirected})
			chunkSize = old
			if err != nil {
				if !errors.Is(err, ErrFormat) {
					t.Fatalf("error does not wrap ErrFormat: %v", err)
				}
				continue
			}
			// A successful load must give a valid graph that survives a
			// binary round trip.
			if err := g.validate(); err != nil {
				t.Fatalf("invalid graph: %v", err)
			}
			var buf bytes.Buffer
			if err := Write(&buf, g, FormatBin); err != nil {
				t.Fatal(err)
			}
			h, err := Read(&buf, "rt", LoadOptions{Format: FormatBin})
			if err != nil || h.NumEdges() != g.NumEdges() || h.NumVertices() != g.NumVertices() {
				t.Fatalf("binary round trip: %v", err)
			}
		}
	})
}

func FuzzReadMTX(f *testing.F)  { fuzzRead(f, FormatMTX, "tiny.mtx", "tiny-sym.mtx") }
func FuzzReadSNAP(f *testing.F) { fuzzRead(f, FormatSNAP, "tiny.txt") }
func FuzzReadMETIS(f *testing.F) {
	f.Add([]byte("3 2 11 2\n5 6 2 10\n7 8 1 10 3 20\n9 9 2 20\n"), false)
	fuzzRead(f, FormatMETIS, "tiny.graph")
}
func FuzzReadGraphalytics(f *testing.F) { fuzzRead(f, FormatGraphalytics, "tiny.e") }
func FuzzReadGR(f *testing.F)           { fuzzRead(f, FormatGR, "tiny.gr") }
func FuzzReadMAX(f *testing.F)          { fuzzRead(f, FormatMAX, "tiny.max") }
func FuzzReadEL(f *testing.F)           { fuzzRead(f, FormatEL, "tiny.el", "tiny.el.gz") }
func FuzzReadWEL(f *testing.F)          { fuzzRead(f, FormatWEL, "tiny.wel") }
func FuzzReadCEdge(f *testing.F)        { fuzzRead(f, FormatCEdge, "tiny.cedge") }
func FuzzReadBin(f *testing.F) {
	for _, s := range []string{"tiny.txt", "tiny.max", "tiny.graph"} {
		g, err := Load(filepath.Join("testdata", s), LoadOptions{})
		if err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, g, FormatBin); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes(), false)
	}
	fuzzRead(f, FormatBin)
}
