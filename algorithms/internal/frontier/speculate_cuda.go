//go:build cuda

package frontier

import (
	"fmt"
	"unsafe"

	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
)

// A specRead is a result copy issued behind a persistent launch, before
// the host has read the control block that says whether the launch
// finished the traversal. The control-block read waits for the copy, so
// where the launch did finish, the result is on the host with no round
// trip of its own; where it did not, the copy is dropped. On the lent H100
// a small result's own read cost ~10 µs of a 50-150 µs run.
//
// Only results of at most SpecMaxBytes (16K values; speculable) are
// copied this way: they cross at 32 bits, so no largest value is needed
// first, and a copy that turns out useless costs a microsecond or two.
// Larger ones lost as much as they won: on email-Enron and p2p-Gnutella31
// (147 and 250 KB) BFS gained 8-17 µs but SSSP lost 4-21 µs
// (results/h100-2026-11-23-s14/).
type specRead struct {
	dst hostmem.Values
	pin unsafe.Pointer // page-locked staging (Dev.StageBytes)
}

// SpecMaxBytes is the largest result (at 32 bits) that SpeculateOn copies
// behind a launch.
const SpecMaxBytes = 64 << 10

// speculable reports whether a result of n values is copied behind
// launches: read at 32 bits (under NarrowMin) and at most SpecMaxBytes.
func speculable(d *gpu.Dev, n int) bool {
	return n > 0 && n < d.NarrowMin() && int64(n)*4 <= min(SpecMaxBytes, d.StageBytes())
}

// speculate enqueues the copy of src (speculable, math.MaxUint32 = no
// value) into dst, 32-bit host memory of the same length that finish hands
// back, through one of ReadStaged's page-locked buffers (the pool's size:
// a new size would be a new cuMemAllocHost).
func speculate(d *gpu.Dev, src gpu.DeviceSlice[uint32], dst hostmem.Values) (*specRead, error) {
	n := src.Len()
	if !speculable(d, n) || dst.Bits() != 32 || dst.Len() != n {
		return nil, fmt.Errorf("cuda: speculative read of %d values into %d of %d bits", n, dst.Len(), dst.Bits())
	}
	// Behind the launch, so that the control-block read on the default
	// stream waits for it (TestCUDANoLeak covers the stream's choice).
	s := &specRead{dst: dst}
	p, err := d.AllocHost(d.StageBytes())
	if err != nil {
		return nil, err
	}
	s.pin = p
	if err := d.CopyBehind(p, src, int64(n)*4); err != nil {
		s.drop(d)
		return nil, err
	}
	return s, nil
}

// finish returns the copied values, once a synchronous call on the
// default stream (the control-block read) has waited for the copy.
func (s *specRead) finish(d *gpu.Dev) hostmem.Values {
	w := hostmem.Words[uint32](s.dst)
	copy(w, unsafe.Slice((*uint32)(s.pin), len(w)))
	s.drop(d)
	return s.dst
}

// drop gives the staging buffer back (call it only after the copy is
// done: after the control-block read); dst stays with the caller for the
// real read.
func (s *specRead) drop(d *gpu.Dev) {
	d.FreeHost(s.pin)
	s.pin = nil
}
