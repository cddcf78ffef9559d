package graph

import (
	"bytes"
	"errors"
	"math"
	"os"
	"testing"
)

func TestResidualPairsAndMerges(t *testing.T) {
	// 0->1 twice (merged), 1->0 (anti-parallel: same pair), 1->2 (back arc
	// added), self-loop 2->2 dropped.
	r, err := NewResidualArcs(3, []uint32{0, 0, 1, 1, 2}, []uint32{1, 1, 0, 2, 2}, []int64{3, 4, 5, 6, 9})
	if err != nil {
		t.Fatal(err)
	}
	if r.NumArcs() != 4 {
		t.Fatalf("%d arcs, want 4 (two pairs)", r.NumArcs())
	}
	want := map[[2]uint32]int64{{0, 1}: 7, {1, 0}: 5, {1, 2}: 6, {2, 1}: 0}
	for u := 0; u < r.NumVertices(); u++ {
		for e := r.Off[u]; e < r.Off[u+1]; e++ {
			v := r.Head[e]
			c, ok := want[[2]uint32{uint32(u), v}]
			if !ok || c != r.Cap[e] {
				t.Fatalf("arc %d -> %d capacity %d (want %d, listed %v)", u, v, r.Cap[e], c, ok)
			}
			re := r.Rev[e]
			if r.Head[re] != uint32(u) || r.Tail(re) != v || r.Rev[re] != e {
				t.Fatalf("arc %d -> %d: reverse %d is %d -> %d", u, v, re, r.Tail(re), r.Head[re])
			}
		}
	}
}

func TestResidualErrors(t *testing.T) {
	big := int64(math.MaxInt64)
	for _, c := range []struct {
		name     string
		src, dst []uint32
		caps     []int64
		want     error
	}{
		{"parallel overflow", []uint32{0, 0}, []uint32{1, 1}, []int64{big, 1}, ErrCapacity},
		{"pair overflow", []uint32{0, 1}, []uint32{1, 0}, []int64{big, 1}, ErrCapacity},
		{"negative", []uint32{0}, []uint32{1}, []int64{-1}, ErrInvalid},
		{"out of range", []uint32{0}, []uint32{2}, []int64{1}, ErrInvalid},
	} {
		if _, err := NewResidualArcs(2, c.src, c.dst, c.caps); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	// Exactly at the limit is fine.
	if _, err := NewResidualArcs(2, []uint32{0, 1}, []uint32{1, 0}, []int64{big - 1, 1}); err != nil {
		t.Errorf("sum at the limit refused: %v", err)
	}
}

func TestResidualFromGraph(t *testing.T) {
	g, err := Build(&EdgeList{NumVertices: 3, Src: []uint32{0, 0, 1}, Dst: []uint32{1, 1, 2}, Weights: []uint32{math.MaxUint32, math.MaxUint32, 2}, WeightKind: IntWeights}, BuildOptions{KeepDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewResidual(g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Cap[0] != 2*math.MaxUint32 {
		t.Fatalf("merged capacity %d, want %d (64-bit sum of two 32-bit weights)", r.Cap[0], int64(2*math.MaxUint32))
	}
}

func TestFlowGenerators(t *testing.T) {
	for _, spec := range []string{"rmf:3:4", "rlg:5:4", "vision:4:3"} {
		s, err := ParseGenSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		a, err := GenerateSpec(s, GenOptions{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		b, err := GenerateSpec(s, GenOptions{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		if s.String() != spec || int64(a.NumVertices()) != s.NumVertices() || a.NumEdges() != s.NumGenEdges() || !a.Directed() {
			t.Fatalf("%s: %v, %d vertices, %d arcs, want %d and %d", spec, s, a.NumVertices(), a.NumEdges(), s.NumVertices(), s.NumGenEdges())
		}
		if _, _, ok := a.Terminals(); !ok {
			t.Fatalf("%s: no terminals", spec)
		}
		for i, w := range a.Weights() {
			if w != b.Weights()[i] || a.Adj()[i] != b.Adj()[i] {
				t.Fatalf("%s: not deterministic at arc %d", spec, i)
			}
		}
	}
	for _, bad := range []string{"rmf:0:3", "rlg:3", "vision:x:2", "rmf:1:1"} {
		if _, err := ParseGenSpec(bad); !errors.Is(err, ErrGenSpec) {
			t.Errorf("%s: got %v, want ErrGenSpec", bad, err)
		}
	}
}

func TestMaxKeepDuplicatesAndWrite(t *testing.T) {
	dir := t.TempDir()
	in := dir + "/p.max"
	if err := os.WriteFile(in, []byte("p max 3 3\nn 1 s\nn 3 t\na 1 2 5\na 1 2 7\na 2 3 20\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Load(in, LoadOptions{KeepDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumEdges() != 3 {
		t.Fatalf("%d arcs, want 3 (parallel arcs kept)", g.NumEdges())
	}
	r, err := NewResidual(g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Cap[r.Off[0]] != 12 {
		t.Fatalf("merged capacity %d, want 12", r.Cap[r.Off[0]])
	}
	var b bytes.Buffer
	if err := Write(&b, g, FormatMAX); err != nil {
		t.Fatal(err)
	}
	out := dir + "/q.max"
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := Load(out, LoadOptions{KeepDuplicates: true})
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	s, tt, ok := h.Terminals()
	if !ok || s != 0 || tt != 2 || h.NumEdges() != 3 {
		t.Fatalf("read back: terminals %d %d %v, %d arcs", s, tt, ok, h.NumEdges())
	}
	u := mustGen(t, "grid:2:2", 0)
	if err := Write(&b, u, FormatMAX); !errors.Is(err, ErrFormat) {
		t.Fatalf("max without terminals: got %v, want ErrFormat", err)
	}
}
