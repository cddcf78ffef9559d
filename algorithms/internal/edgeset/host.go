package edgeset

import (
	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Counter is a per-worker tally (two counts an operator defines) padded to
// a cache line, so that workers adding to their own do not share one.
type Counter struct {
	A, B int64
	_    [48]byte
}

// Host is what an edge-set operator on the CPU keeps besides its algorithm:
// the run's worker pool, a Counter per worker and whether it is done, with
// the operator methods that follow from them.
type Host struct {
	Pool     *mapping.Pool
	Cnt      []Counter
	Finished bool
}

// NewHost returns the host part of an operator on pool.
func NewHost(pool *mapping.Pool) Host {
	return Host{Pool: pool, Cnt: make([]Counter, pool.Workers())}
}

// Done reports whether the operator finished.
func (h *Host) Done() bool { return h.Finished }

// DeviceTimes is nil: the operator runs on the host.
func (h *Host) DeviceTimes() *runtime.GPUTimes { return nil }

// Close gives the pool back.
func (h *Host) Close() error {
	h.Pool.Release()
	return nil
}

// Sums adds up the per-worker counters and clears them.
func (h *Host) Sums() (a, b int64) {
	for i := range h.Cnt {
		a += h.Cnt[i].A
		b += h.Cnt[i].B
	}
	clear(h.Cnt)
	return a, b
}
