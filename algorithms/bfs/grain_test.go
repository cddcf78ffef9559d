package bfs

import (
	"sync/atomic"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestBitmapThreadMapping: thread mapping over a bitmap visits every set
// vertex once with its whole neighbourhood; a working set of at most
// edgeGrain out-edges runs on the caller (worker 0), a larger one in the
// graph's edge-balanced pieces.
func TestBitmapThreadMapping(t *testing.T) {
	g, err := graph.Generate("kron:12:8", graph.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := g.NumVertices()
	o := newCPU(runtime.NewCPU(4), g, 0)
	defer o.pool.Release()
	for _, c := range []struct {
		name  string
		every int // set every vertex v with v%every == 0
		small bool
	}{{"few", 997, true}, {"all", 1, false}, {"half", 2, false}} {
		o.curB.Clear(o.pool)
		o.deg = 0
		for v := 0; v < n; v += c.every {
			o.curB.Set(uint32(v))
			o.deg += g.Degree(uint32(v))
		}
		if small := o.deg <= edgeGrain; small != c.small {
			t.Fatalf("%s: %d out-edges, want the case small=%v", c.name, o.deg, c.small)
		}
		o.rep = decider.Bitmap
		seen := make([]int32, n)
		var others atomic.Int32
		o.forFrontier(decider.Thread, func(w int, u uint32, nbrs []uint32) {
			if w != 0 {
				others.Add(1)
			}
			if int64(len(nbrs)) != g.Degree(u) {
				t.Errorf("%s: vertex %d got %d of its %d out-neighbours", c.name, u, len(nbrs), g.Degree(u))
			}
			atomic.AddInt32(&seen[u], 1)
		})
		for v := range n {
			want := int32(0)
			if v%c.every == 0 {
				want = 1
			}
			if seen[v] != want {
				t.Fatalf("%s: vertex %d visited %d times, want %d", c.name, v, seen[v], want)
			}
		}
		if c.small && others.Load() != 0 {
			t.Errorf("%s: %d out-edges ran on %d other workers' calls, want the caller alone", c.name, o.deg, others.Load())
		}
	}
	if len(o.cuts) < 3 {
		t.Errorf("the large working sets ran in %d pieces", len(o.cuts)-1)
	}
}
