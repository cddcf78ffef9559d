//go:build cuda

package runtime

import (
	"fmt"
	"unsafe"

	"github.com/mumax/3/cuda/cu"
)

// A SpecRead is a result copy issued behind a persistent launch, before
// the host has read the control block that says whether the launch
// finished the traversal. The control-block read waits for the copy (one
// stream), so where the launch did finish, the result is on the host
// with no round trip of its own; where it did not, the copy is dropped.
// On the lent H100 a small result's own read cost ~10 µs of a 50-150 µs
// run (results/h100-2026-11-23-s14/).
//
// Only results under NarrowMin values are copied this way: they cross at
// 32 bits, so no largest value is needed first, and they are at most
// 256 KB, so a copy that turns out useless costs a few microseconds.
type SpecRead struct {
	dst Values
	pin unsafe.Pointer // page-locked staging; nil when dst is registered
}

// SpeculateValues enqueues the copy of src (fewer than NarrowMin values,
// math.MaxUint32 = no value) into dst, 32-bit host memory of the same
// length that Finish hands back: one DMA into dst where it is registered
// (a released result's memory, reused), else into a page-locked buffer.
func SpeculateValues(d *Dev, src DeviceSlice[uint32], dst Values) (*SpecRead, error) {
	n := src.Len()
	if n >= NarrowMin || dst.Bits() != 32 || dst.Len() != n || n == 0 {
		return nil, fmt.Errorf("cuda: speculative read of %d values into %d of %d bits", n, dst.Len(), dst.Bits())
	}
	s := &SpecRead{dst: dst}
	target := unsafe.Pointer(&dst.w32[0])
	if !directTarget(d, dst.w32) {
		p, err := d.AllocHost(int64(n) * 4)
		if err != nil {
			return nil, err
		}
		s.pin, target = p, p
	}
	if err := d.guard("cuMemcpyDtoHAsync", func() {
		cu.MemcpyDtoHAsync(target, cu.DevicePtr(src.ptr), int64(n)*4, 0)
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
