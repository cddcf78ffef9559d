package graph

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
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
			bin := buf.Bytes()
			h, err := Read(bytes.NewReader(bin), "rt", LoadOptions{Format: FormatBin})
			if err != nil || h.NumEdges() != g.NumEdges() || h.NumVertices() != g.NumVertices() || !slices.Equal(h.Weights(), g.Weights()) {
				t.Fatalf("binary round trip: %v", err)
			}
			// A text load holds what a .gbx is checked for (issue 35).
			if err := checkContent(g); err != nil {
				t.Fatalf("a loaded graph breaks the .gbx invariants: %v", err)
			}
			// One weight rule: a weight scale gives the same weights from
			// the text and from its .gbx (or fails for both).
			if g.WeightKind() == Unweighted || format == FormatBin {
				continue
			}
			opt := LoadOptions{Format: format, Undirected: undirected, WeightScale: 10}
			st, errT := Read(bytes.NewReader(data), "fuzz", opt)
			sb, errB := Read(bytes.NewReader(bin), "rt", LoadOptions{Format: FormatBin, Undirected: undirected, WeightScale: 10})
			if errT == nil && errB == nil && !slices.Equal(st.Weights(), sb.Weights()) {
				t.Fatalf("scaled weights differ: text %v, .gbx %v", st.Weights(), sb.Weights())
			}
			if errT == nil && errB != nil {
				t.Fatalf("scaled: the text loads, its .gbx fails: %v", errB)
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
