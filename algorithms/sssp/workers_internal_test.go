package sssp

import "testing"

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
			o.ws[i].bins[idx%ringSize] = o.ws[i].bins[idx%ringSize][:0]
		}
		o.cur = idx
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
