package workset_test

import (
	"slices"
	"testing"

	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/workset"
)

func TestConversionsRoundTrip(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		p := mapping.NewPool(workers)
		for _, n := range []int{0, 1, 63, 64, 65, 1000, 300000} {
			b := workset.NewBitmap(n)
			var want []uint32
			for i := 0; i < n; i += 1 + i%7 {
				want = append(want, uint32(i))
			}
			// Parallel append in scrambled order through worker buffers.
			q := workset.NewQueue(n)
			p.Thread(len(want), 100, func(w, lo, hi int) {
				var buf workset.Buffer
				for i := hi - 1; i >= lo; i-- {
					buf.Add(q, want[i])
				}
				buf.Flush(q)
			})
			if q.Len() != len(want) {
				t.Fatalf("n=%d: queue len %d, want %d", n, q.Len(), len(want))
			}
			b.FromQueue(p, q)
			if c := b.Count(p); c != int64(len(want)) {
				t.Fatalf("n=%d workers=%d: popcount %d, want %d", n, workers, c, len(want))
			}
			for _, v := range want {
				if !b.Get(v) {
					t.Fatalf("bit %d not set", v)
				}
			}
			q2 := workset.NewQueue(n)
			q2.FromBitmap(p, b)
			if !slices.Equal(q2.Items(), want) {
				t.Fatalf("n=%d: bitmap->queue gave %d items, not the sorted set", n, q2.Len())
			}
			b.ClearItems(p, q2.Items())
			if b.Count(p) != 0 {
				t.Fatalf("ClearItems left bits")
			}
		}
		p.Close()
	}
}

func TestSetAtomicOnce(t *testing.T) {
	p := mapping.NewPool(4)
	defer p.Close()
	b := workset.NewBitmap(1 << 12)
	var wins [4]int
	p.Run(func(w int) {
		for i := uint32(0); i < 1<<12; i++ {
			if b.SetAtomic(i) {
				wins[w]++
			}
		}
	})
	if s := wins[0] + wins[1] + wins[2] + wins[3]; s != 1<<12 {
		t.Fatalf("%d first-setters for %d bits", s, 1<<12)
	}
	if !b.GetAtomic(77) {
		t.Fatal("GetAtomic")
	}
}
