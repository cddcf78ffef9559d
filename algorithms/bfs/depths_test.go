package bfs

import (
	"slices"
	"testing"
)

// TestDepthsWidths checks that a result answers the same at every width
// its depths may be held in (a GPU run narrows them to 8 or 16 bits).
func TestDepthsWidths(t *testing.T) {
	w32 := []uint32{0, 1, unreached, 2, 254, unreached, 1}
	w8 := make([]uint8, len(w32))
	w16 := make([]uint16, len(w32))
	for i, d := range w32 {
		w8[i], w16[i] = uint8(d), uint16(d) // all-ones stays all-ones
	}
	type view struct {
		depths   []int
		reached  []bool
		all      [][2]int
		n, count int
		max      int
	}
	look := func(r *Result) view {
		var v view
		v.n, v.count, v.max = r.NumVertices(), r.NumReached(), r.MaxDepth()
		for u := range uint32(len(w32) + 2) { // two past the end: unreached
			d, ok := r.Depth(u)
			v.depths = append(v.depths, d)
			v.reached = append(v.reached, ok)
		}
		for u, d := range r.All() {
			v.all = append(v.all, [2]int{int(u), d})
			if len(v.all) == 3 { // stopping early is honoured
				break
			}
		}
		return v
	}
	want := look(&Result{depth: depths{w32: w32}})
	if want.n != 7 || want.count != 5 || want.max != 254 || want.reached[2] || !want.reached[4] || want.reached[7] {
		t.Fatalf("32-bit view wrong: %+v", want)
	}
	if !slices.Equal(want.all, [][2]int{{0, 0}, {1, 1}, {3, 2}}) {
		t.Fatalf("All: %v", want.all)
	}
	for name, d := range map[string]depths{"8": {w8: w8}, "16": {w16: w16}} {
		got := look(&Result{depth: d})
		if !slices.Equal(got.depths, want.depths) || !slices.Equal(got.reached, want.reached) ||
			!slices.Equal(got.all, want.all) || got.n != want.n || got.count != want.count || got.max != want.max {
			t.Errorf("%s-bit depths: %+v, want %+v", name, got, want)
		}
	}
	empty := &Result{}
	if empty.NumVertices() != 0 || empty.MaxDepth() != -1 || empty.Reached(0) {
		t.Fatal("empty result")
	}
}
