package graph_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/graph"
)

// readEGR decodes an ECLgraph file the way ECLgraph.h's readECLgraph does.
func readEGR(t *testing.T, b []byte) (n, m int32, idx, nlist, w []int32) {
	t.Helper()
	r := bytes.NewReader(b)
	read := func(k int) []int32 {
		out := make([]int32, k)
		if err := binary.Read(r, binary.LittleEndian, out); err != nil {
			t.Fatalf("short egr: %v", err)
		}
		return out
	}
	hdr := read(2)
	n, m = hdr[0], hdr[1]
	idx, nlist = read(int(n)+1), read(int(m))
	if r.Len() > 0 {
		w = read(int(m))
	}
	if r.Len() != 0 {
		t.Fatalf("%d trailing bytes", r.Len())
	}
	return
}

func TestWriteEGR(t *testing.T) {
	src := "0 1 5\n1 2 7\n2 0 1\n3 4 2\n"
	g, err := graph.Read(strings.NewReader(src), "t.wel", graph.LoadOptions{Format: graph.FormatWEL, Undirected: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := graph.Write(&buf, g, graph.FormatEGR); err != nil {
		t.Fatal(err)
	}
	n, m, idx, nlist, w := readEGR(t, buf.Bytes())
	if int(n) != g.NumVertices() || int64(m) != g.NumEdges() {
		t.Fatalf("sizes %d/%d, want %d/%d", n, m, g.NumVertices(), g.NumEdges())
	}
	if w == nil {
		t.Fatal("weights missing")
	}
	for v := 0; v < int(n); v++ {
		if int64(idx[v]) != g.Offsets()[v] {
			t.Fatalf("offset %d: %d, want %d", v, idx[v], g.Offsets()[v])
		}
	}
	for i := range nlist {
		if uint32(nlist[i]) != g.Adj()[i] || uint32(w[i]) != g.Weights()[i] {
			t.Fatalf("arc %d: %d/%d, want %d/%d", i, nlist[i], w[i], g.Adj()[i], g.Weights()[i])
		}
	}
	// Unweighted: no weight block.
	u, err := graph.Read(strings.NewReader("0 1\n1 2\n"), "u.el", graph.LoadOptions{Format: graph.FormatEL})
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := graph.Write(&buf, u, graph.FormatEGR); err != nil {
		t.Fatal(err)
	}
	if _, _, _, _, w := readEGR(t, buf.Bytes()); w != nil {
		t.Fatal("unweighted graph written with weights")
	}
}

func TestEGRRefusals(t *testing.T) {
	real, err := graph.Read(strings.NewReader("1 2 0.5\n"), "r.txt", graph.LoadOptions{Format: graph.FormatSNAP})
	if err != nil {
		t.Fatal(err)
	}
	if err := graph.Write(&bytes.Buffer{}, real, graph.FormatEGR); !errors.Is(err, graph.ErrFormat) || !strings.Contains(err.Error(), "integer weights") {
		t.Fatalf("real weights: %v", err)
	}
	big, err := graph.Read(strings.NewReader("0 1 3000000000\n"), "b.wel", graph.LoadOptions{Format: graph.FormatWEL})
	if err != nil {
		t.Fatal(err)
	}
	if err := graph.Write(&bytes.Buffer{}, big, graph.FormatEGR); err == nil || !strings.Contains(err.Error(), "3000000000") {
		t.Fatalf("weight over int32: %v", err)
	}
	if _, err := graph.Read(strings.NewReader("x"), "g.egr", graph.LoadOptions{Format: graph.FormatEGR}); !errors.Is(err, graph.ErrFormat) {
		t.Fatalf("reading egr: %v", err)
	}
}
