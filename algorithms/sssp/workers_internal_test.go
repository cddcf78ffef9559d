package sssp

import (
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// checkFiled fails unless every worker's filed count is the number of
// entries in its ring's bins.
func checkFiled(t *testing.T, ws []worker, step string) {
	t.Helper()
	for i := range ws {
		n := 0
		for _, b := range ws[i].bins {
			n += len(b)
		}
		if ws[i].filed != n {
			t.Fatalf("%s: worker %d counts %d filed entries, its bins hold %d", step, i, ws[i].filed, n)
		}
	}
}

// TestFiledCount drives ordered iterations (merged buckets, fusion, the
// far list) and checks after each that the workers' filed counts match
// their bins: an undercount would hide a bucket from findMin, an
// overcount bring back its scans of empty rings.
func TestFiledCount(t *testing.T) {
	kron, err := graph.Generate("kron:10:8", graph.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A chain of heavy arcs with shortcuts and a few random arcs:
	// distances of millions run past a ring of delta-1 buckets into the far
	// list, and back.
	el := &graph.EdgeList{NumVertices: 300, WeightKind: graph.IntWeights}
	arc := func(u, v, w uint32) {
		el.Src, el.Dst, el.Weights = append(el.Src, u), append(el.Dst, v), append(el.Weights, w)
	}
	for i := uint32(0); i+1 < 300; i++ {
		arc(i, i+1, 5000+i%7)
		if i+2 < 300 {
			arc(i, i+2, 9000+i%5)
		}
		arc(i, (i*7919+13)%300, 3000+(i*31)%20000)
	}
	heavy, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name         string
		g            *graph.Graph
		delta, merge uint64
		target       int64
		workers      int
		rep          decider.Rep
	}{
		{"queue", kron, 1, 1, 0, 3, decider.Queue},
		{"bitmap merged", kron, 2, 8, 64, 4, decider.Bitmap},
		{"far", heavy, 1, 1, 0, 2, decider.Queue},
	} {
		g := c.g
		if g.WeightKind() != graph.IntWeights {
			g = g.WithDerivedWeights(1)
		}
		o := newCPUOp[uint32](runtime.NewCPU(c.workers), g, []uint32{0}, c.delta, c.target, c.merge)
		v := decider.Variant{Order: decider.Ordered, Mapping: decider.Thread, Rep: c.rep}
		if err := o.Start(v); err != nil {
			t.Fatal(err)
		}
		far := false
		for !o.Done() {
			if _, err := o.compute(v); err != nil {
				t.Fatal(err)
			}
			checkFiled(t, o.ws, c.name+": compute")
			for i := range o.ws {
				far = far || len(o.ws[i].far) > 0
			}
			if _, _, err := o.generate(c.rep); err != nil {
				t.Fatal(err)
			}
			checkFiled(t, o.ws, c.name+": generate")
		}
		if c.name == "far" && !far {
			t.Errorf("far: no lowering went past the ring")
		}
		o.Close()
	}
}

// TestReleasedWorkersEmpty: worker state handed back by a stopped run
// (bins and far lists not drained) comes out of takeWorkers empty, as
// fresh state does; stale entries would only be filtered, at a cost.
func TestReleasedWorkersEmpty(t *testing.T) {
	for range 8 {
		ws := takeWorkers(3)
		ws[1].bins[5] = append(ws[1].bins[5], 7, 8)
		ws[2].bins[ringSize-1] = append(ws[2].bins[ringSize-1], 9)
		ws[0].far = append(ws[0].far, farItem{v: 1, idx: 1 << 20})
		ws[0].edges = 12
		ws[1].low = 5
		releaseWorkers(ws, false)
		got := takeWorkers(3)
		for i := range got {
			w := &got[i]
			if len(w.bins) != ringSize {
				t.Fatalf("worker %d: %d bins, want %d", i, len(w.bins), ringSize)
			}
			for k, b := range w.bins {
				if len(b) != 0 {
					t.Fatalf("worker %d: bin %d holds %v after release", i, k, b)
				}
			}
			if len(w.far) != 0 || w.edges != 0 || w.low != noBucket {
				t.Fatalf("worker %d: far %v, edges %d, low %d after release", i, w.far, w.edges, w.low)
			}
		}
		releaseWorkers(got, true)
	}
}

// TestMergedBins: a merged iteration stays within 8 times the graph's
// delta however narrow its bins, takes at least one bin, and no more than the
// ring holds.
func TestMergedBins(t *testing.T) {
	for _, c := range []struct{ delta, bucket, want uint64 }{
		{128, 128, 8}, {128, 64, 16}, {128, 16, 64}, {128, 256, 4}, {4, 1 << 20, 1}, {1 << 40, 1, ringSize}, {32, 0, 8},
	} {
		if got := mergedBins(c.delta, c.bucket); got != c.want {
			t.Errorf("mergedBins(%d, %d) = %d, want %d", c.delta, c.bucket, got, c.want)
		}
	}
}

// TestFindMinHints: findMin finds the smallest filed bucket through the
// workers' low hints while bins are filed and emptied, and marks empty
// rings.
func TestFindMinHints(t *testing.T) {
	o := &cpuOp[uint32]{ws: takeWorkers(3), delta: 1, shift: 0}
	defer releaseWorkers(o.ws, false)
	o.cur = 10
	take := func(idx uint64) { // gather bucket idx: empty its bins, move on
		for i := range o.ws {
			w := &o.ws[i]
			w.filed -= len(w.bins[idx%ringSize])
			w.bins[idx%ringSize] = w.bins[idx%ringSize][:0]
		}
		o.cur = idx
		checkFiled(t, o.ws, "take")
	}
	want := func(step string, idx uint64, ok bool) {
		t.Helper()
		if got, found := o.findMin(); got != idx || found != ok {
			t.Fatalf("%s: findMin = %d, %v; want %d, %v", step, got, found, idx, ok)
		}
	}
	o.emitOrdered(2, 1, 15)
	o.emitOrdered(1, 2, 12)
	want("filed 12 and 15", 12, true)
	if o.ws[0].low != noBucket {
		t.Fatalf("worker 0 filed nothing: low %d, want none", o.ws[0].low)
	}
	take(12)
	want("12 taken", 15, true)
	o.emitOrdered(0, 3, 13) // below worker 2's entry, on a worker marked empty
	o.emitOrdered(2, 4, 14) // below worker 2's hint
	want("filed 13 and 14", 13, true)
	take(13)
	want("13 taken", 14, true)
	take(14)
	o.emitOrdered(1, 5, 14+ringSize-1) // the window's last bucket
	want("14 taken", 15, true)
	take(15)
	want("15 taken", 14+ringSize-1, true)
	take(14 + ringSize - 1)
	want("all taken", 0, false)
	for i := range o.ws {
		if o.ws[i].low != noBucket {
			t.Fatalf("worker %d: low %d after its ring emptied, want none", i, o.ws[i].low)
		}
	}
}
