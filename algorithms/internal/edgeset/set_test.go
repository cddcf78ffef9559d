package edgeset

import (
	"slices"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/mapping"
)

func TestFilterKeepsOrder(t *testing.T) {
	for _, w := range []int{1, 3} {
		p := mapping.NewPool(w)
		for _, n := range []int{0, 5, 1 << 13} {
			q := make([]int, n)
			var want []int
			for i := range q {
				q[i] = i
				if i%3 != 1 {
					want = append(want, i)
				}
			}
			got := Filter(p, q, func(_ int, s []int) int {
				k := 0
				for _, x := range s {
					if x%3 != 1 {
						s[k] = x
						k++
					}
				}
				return k
			})
			if !slices.Equal(got, want) {
				t.Fatalf("workers %d n %d: %d kept, want %d", w, n, len(got), len(want))
			}
		}
		p.Close()
	}
}

func TestCollectVertexOrder(t *testing.T) {
	// A CSR of 1000 vertices, vertex u with u%7 arcs.
	off := []int64{0}
	for u := 0; u < 1000; u++ {
		off = append(off, off[u]+int64(u%7))
	}
	p := mapping.NewPool(3)
	defer p.Close()
	got := Collect(p, off, func(lo, hi int, emit func(int64)) {
		for u := lo; u < hi; u++ {
			for e := off[u]; e < off[u+1]; e++ {
				if e%2 == 0 {
					emit(e)
				}
			}
		}
	})
	var want []int64
	for e := int64(0); e < off[1000]; e += 2 {
		want = append(want, e)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("collected %d elements, want %d", len(got), len(want))
	}
	parts := Parts(off, 16)
	if parts[0] != 0 || parts[len(parts)-1] != 1000 || !slices.IsSorted(parts) {
		t.Fatalf("parts %v", parts)
	}
}

func TestMarkerAndBitmap(t *testing.T) {
	b := NewBitmap(200)
	m := NewMarker()
	for _, e := range []int64{1, 63, 64, 130, 199} {
		m.Hide(b, e)
	}
	m.Flush(b)
	for e := int64(0); e < 200; e++ {
		want := e == 1 || e == 63 || e == 64 || e == 130 || e == 199
		if b.IsHidden(e) != want {
			t.Fatalf("slot %d hidden %v", e, b.IsHidden(e))
		}
	}
	p := mapping.NewPool(2)
	defer p.Close()
	h := AllHidden(p, 100)
	h.Show(42)
	if h.IsHidden(42) || !h.IsHidden(41) {
		t.Fatal("Show")
	}
}

func TestPolicyPicks(t *testing.T) {
	th := decider.DefaultThresholds()
	d := Policy("t", th).Begin(decider.Info{N: 100, M: 200, Universe: 100, InitialSize: 100})
	if v := d.Initial(); v.Rep != decider.Bitmap {
		t.Fatalf("all edges active: %v", v)
	}
	if v := d.Next(decider.Observation{Size: 0, Current: d.Initial()}); v.Rep != decider.Queue {
		t.Fatalf("no edge active: %v", v)
	}
}
