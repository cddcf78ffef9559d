package inspector_test

import (
	"testing"

	"github.com/gearbox-graph/gearbox/inspector"
)

type serial struct{}

func (serial) Thread(n, grain int, fn func(worker, lo, hi int)) {
	for lo := 0; lo < n; lo += grain {
		fn(0, lo, min(lo+grain, n))
	}
}

func TestCounts(t *testing.T) {
	// Degrees 2, 0, 5, 1 for vertices 0..3; vertex 130 has degree 4.
	off := make([]int64, 132)
	deg := map[int]int64{0: 2, 2: 5, 3: 1, 130: 4}
	for v := 0; v < 131; v++ {
		off[v+1] = off[v] + deg[v]
	}
	size, sum := inspector.CountQueue(serial{}, []uint32{0, 2, 130}, off, true)
	if size != 3 || sum != 11 {
		t.Errorf("queue: %d %d, want 3 11", size, sum)
	}
	words := make([]uint64, 3)
	words[0] = 1<<0 | 1<<3
	words[2] = 1 << (130 - 128)
	size, sum = inspector.CountBitmap(serial{}, words, off, true)
	if size != 3 || sum != 7 {
		t.Errorf("bitmap: %d %d, want 3 7", size, sum)
	}
	s := inspector.NewSampler(3, false)
	if !s.Due(0) || s.Due(1) || !s.Due(6) || inspector.NewSampler(0, false).Due(0) {
		t.Error("Due")
	}
	smp := s.Take(6, func(bool) (int64, int64) { return 42, 99 })
	if smp.Size != 42 || smp.DegreeSum != -1 || s.Count() != 1 || smp.Iteration != 6 {
		t.Errorf("sample %+v", smp)
	}
}
