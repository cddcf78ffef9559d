//go:build cuda

package runtime

import (
	"fmt"
	"unsafe"

	"github.com/mumax/3/cuda/cu"
)

// A SpecRead is a result copy issued behind a persistent launch, before
// the host has read the control block that says whether the launch
// finished the traversal. The control-block read waits for the copy, so
// where the launch did finish, the result is on the host
// with no round trip of its own; where it did not, the copy is dropped.
// On the lent H100 a small result's own read cost ~10 µs of a 50-150 µs
// run (results/h100-2026-11-23-s14/).
//
// Only results of at most SpecMaxBytes (16K values) are copied this way:
// they cross at 32 bits, so no largest value is needed first, and a copy
// that turns out useless costs a microsecond or two. Larger ones lost as
// much as they won: on email-Enron and p2p-Gnutella31 (147 and 250 KB)
// BFS gained 8-17 µs but SSSP lost 4-21 µs (results/h100-2026-11-23-s14/).
type SpecRead struct {
	dst Values
	pin unsafe.Pointer // page-locked staging (StageBytes)
}

// SpecMaxBytes is the largest result (at 32 bits) that SpeculateOn copies
// behind a launch.
const SpecMaxBytes = 64 << 10

// SpeculateValues enqueues the copy of src (at most SpecMaxBytes,
// math.MaxUint32 = no value) into dst, 32-bit host memory of the same
// length that Finish hands back, through one of ReadStaged's page-locked
// buffers (the pool's size: a new size would be a new cuMemAllocHost).
func SpeculateValues(d *Dev, src DeviceSlice[uint32], dst Values) (*SpecRead, error) {
	n := src.Len()
	if int64(n)*4 > min(SpecMaxBytes, StageBytes) || dst.Bits() != 32 || dst.Len() != n || n == 0 {
		return nil, fmt.Errorf("cuda: speculative read of %d values into %d of %d bits", n, dst.Len(), dst.Bits())
	}
	// On ReadStaged's first copy stream, as its copies: a blocking stream,
	// so the copy starts after the launch, and the control-block read on
	// the default stream waits for it. (An asynchronous copy on the
	// default stream itself left 2 MB of device memory taken after Trim:
	// TestCUDANoLeak.)
	if err := d.copyStreams(); err != nil {
		return nil, err
	}
	s := &SpecRead{dst: dst}
	p, err := d.AllocHost(StageBytes)
	if err != nil {
		return nil, err
	}
	s.pin = p
	if err := d.guard("cuMemcpyDtoHAsync", func() {
		cu.MemcpyDtoHAsync(p, cu.DevicePtr(src.ptr), int64(n)*4, d.streams[0])
	}); err != nil {
		s.Drop(d)
		return nil, err
	}
	return s, nil
}

// Finish returns the copied values, once a synchronous call on the
// default stream (the control-block read) has waited for the copy.
func (s *SpecRead) Finish(d *Dev) Values {
	if s.pin != nil {
		copy(s.dst.w32, unsafe.Slice((*uint32)(s.pin), len(s.dst.w32)))
		d.FreeHost(s.pin)
		s.pin = nil
	}
	return s.dst
}

// Drop gives the staging buffer back, keeping dst for the real read
// (call it only after the copy is done: after the control-block read).
func (s *SpecRead) Drop(d *Dev) Values {
	if s.pin != nil {
		d.FreeHost(s.pin)
		s.pin = nil
	}
	return s.dst
}
