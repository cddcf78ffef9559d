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
			if len(w.far) != 0 || w.edges != 0 {
				t.Fatalf("worker %d: far %v, edges %d after release", i, w.far, w.edges)
			}
		}
		releaseWorkers(got, true)
	}
}

// TestMergedBins: a merged iteration stays within 8 of the graph's delta
// however narrow its bins, takes at least one bin, and no more than the
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
