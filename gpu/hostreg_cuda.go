//go:build cuda

package gpu

// Results copied straight into registered Go memory. A staged copy (DMA
// into a page-locked buffer, then a host copy) ran at 12.5 GB/s for a 4 MB
// result on the lent H100's host, a DMA into page-locked memory at 49 GB/s
// (results/h100-2026-11-23-s13). Registering the Go memory itself takes
// about as long as one staged copy, so only memory that is reused is
// registered, once (hostmem.TakeReused), and it stays registered until the garbage
// collector finds it unreachable (a cleanup unregisters it) or the backend
// closes.
//
// The binding has no cuMemHostRegister (commented out there: it did not
// link with CUDA 6.5), so the two calls are made here.

/*
#cgo LDFLAGS: -lcuda
#include <stdint.h>
#include <cuda.h>
static CUresult gearbox_unregister(uintptr_t p) { return cuMemHostUnregister((void *)p); }
*/
import "C"

import (
	goruntime "runtime"
	"unsafe"
	"weak"

	"github.com/mumax/3/cuda/cu"

	"github.com/gearbox-graph/gearbox/internal/hostmem"
)

// hostReg is a registered range of Go memory.
type hostReg struct {
	// first is a weak.Pointer[T] to the slice's first element: the address
	// may belong to other memory once the slice was collected and before
	// its cleanup ran (the registration then covers pages Go may have
	// given back), and a DMA must never go there.
	first   any
	bytes   int64
	cleanup goruntime.Cleanup
}

// directTarget reports whether a copy may go straight into dst (at least
// one element): memory this context registered earlier and that is still
// the same live slice, or a slice that hostmem.Slice handed out again, of at
// least WithRegisterMin's bytes, registered now. A registration that fails
// (e.g. the range overlaps an old one awaiting its cleanup) leaves the
// staged copy.
func directTarget[T any](d *Dev, dst []T) bool {
	first := &dst[0]
	p := unsafe.Pointer(first)
	bytes := int64(len(dst)) * elemSize[T]()
	if r, ok := d.regs[uintptr(p)]; ok {
		w, same := r.first.(weak.Pointer[T])
		return same && w.Value() == first && r.bytes >= bytes
	}
	if bytes < d.c.cfg.registerMin || !hostmem.TakeReused(p) {
		return false
	}
	if err := d.guard("cuMemHostRegister", func() {
		if r := cu.Result(C.cuMemHostRegister(p, C.size_t(bytes), 0)); r != cu.SUCCESS {
			panic(r)
		}
	}); err != nil {
		return false
	}
	// Go's collector does not move heap memory; the cleanup (which must not
	// keep dst reachable: it gets the address as an integer) unregisters it
	// as device work once dst is unreachable.
	c := d.c
	d.regs[uintptr(p)] = &hostReg{
		first: weak.Make(first),
		bytes: bytes,
		cleanup: goruntime.AddCleanup(first, func(base uintptr) {
			_ = c.Do(func(d *Dev) error { d.unregister(base); return nil }) // ErrClosed: destroy unregistered it
		}, uintptr(p)),
	}
	return true
}

// unregister ends the registration at base (inside Do).
func (d *Dev) unregister(base uintptr) {
	if _, ok := d.regs[base]; !ok {
		return
	}
	delete(d.regs, base)
	// A failure leaves the pages locked until the context goes; the
	// memory stays valid either way.
	_ = d.guard("cuMemHostUnregister", func() {
		if r := cu.Result(C.gearbox_unregister(C.uintptr_t(base))); r != cu.SUCCESS {
			panic(r)
		}
	})
}

// unregisterAll ends every registration before the context is destroyed.
func (d *Dev) unregisterAll() {
	for base, r := range d.regs {
		r.cleanup.Stop()
		d.unregister(base)
	}
}
