//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"github.com/mumax/3/cuda/cu"

	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/internal/par"
	"github.com/gearbox-graph/gearbox/kernels"
)

// ReadStaged copies src to dst (same length) through two page-locked
// buffers: the DMA of one chunk overlaps the host's parallel copy of the
// previous one. Copies into page-locked memory run at the link's speed;
// the driver's own path for pageable memory is several times slower.
func ReadStaged[T any](d *Dev, src DeviceSlice[T], dst []T) error {
	if len(dst) != src.Len() {
		return fmt.Errorf("cuda: staged read of %d elements into %d", src.Len(), len(dst))
	}
	return readStaged(d, src.ptr, dst)
}

// ReadValues copies src, a uint32 per vertex (math.MaxUint32 = no value),
// to the host at the fewest bits its largest value needs (see hostmem.Values): a
// kernel finds that value, a second narrows src into scratch (at least
// 2*len(src) bytes, unused during the copy: an idle working-set buffer),
// and the narrowed array crosses through the staging buffers. The host
// only copies: widening in Go on the lent H100's host ran no faster than
// the DMA it saved (1M values: 0.18 ms widened, 0.10 ms copied). prepared
// is host memory made ready while the GPU ran, used when its width and
// length match and released otherwise; it may be empty.
func ReadValues(d *Dev, src, scratch DeviceSlice[uint32], prepared hostmem.Values) (hostmem.Values, error) {
	return readValues(d, src, scratch, prepared, nil)
}

// ReadValuesUpTo is ReadValues for an array whose values below
// math.MaxUint32 are known to be at most bound (a BFS's depths: the
// number of levels run), which spares the kernel for the largest value
// and the round trip that reads it. A bound below the true largest value
// would lose values: they would read as having none.
func ReadValuesUpTo(d *Dev, src, scratch DeviceSlice[uint32], prepared hostmem.Values, bound uint32) (hostmem.Values, error) {
	return readValues(d, src, scratch, prepared, &bound)
}

func readValues(d *Dev, src, scratch DeviceSlice[uint32], prepared hostmem.Values, bound *uint32) (hostmem.Values, error) {
	n := src.Len()
	bits := 32
	switch {
	case n < d.c.cfg.narrowMin:
	case bound != nil:
		bits = hostmem.BitsFor(*bound)
	default:
		m, err := d.maxBelow(src, scratch)
		if err != nil {
			return hostmem.Values{}, err
		}
		bits = hostmem.BitsFor(m)
	}
	dst := prepared
	if dst.Bits() != bits || dst.Len() != n {
		prepared.Release()
		dst = hostmem.NewValues(bits, n)
	}
	var err error
	switch bits {
	case 8:
		err = readNarrow(d, src, scratch, hostmem.Words[uint8](dst))
	case 16:
		err = readNarrow(d, src, scratch, hostmem.Words[uint16](dst))
	default:
		err = ReadStaged(d, src, hostmem.Words[uint32](dst))
	}
	return dst, err
}

// maxBelow returns src's largest value below math.MaxUint32 (0 when there
// is none), found on the device in scratch's first word.
func (d *Dev) maxBelow(src, scratch DeviceSlice[uint32]) (uint32, error) {
	if scratch.Len() < 1 {
		return 0, fmt.Errorf("cuda: no scratch for the largest value of %d", src.Len())
	}
	if err := d.Memset32(scratch, 0, 0, 1); err != nil {
		return 0, err
	}
	n := int64(src.Len())
	if err := kernels.LaunchMaxBelowU32(d, d.Grid(n/4+1, 256), 256, src.Ptr(), uint32(n), scratch.Ptr()); err != nil {
		return 0, err
	}
	pin, err := d.AllocHost(64)
	if err != nil {
		return 0, err
	}
	defer d.FreeHost(pin)
	if err := d.ReadRaw(pin, scratch, 4); err != nil {
		return 0, err
	}
	return *(*uint32)(pin), nil
}

// readNarrow narrows src into scratch as N (values at or above N's
// all-ones become all-ones) and copies it into dst.
func readNarrow[N uint8 | uint16](d *Dev, src, scratch DeviceSlice[uint32], dst []N) error {
	n := src.Len()
	if len(dst) != n {
		return fmt.Errorf("cuda: narrowed read of %d elements into %d", n, len(dst))
	}
	es := int64(unsafe.Sizeof(N(0)))
	if need := int64(n) * es; need > scratch.Bytes() {
		return fmt.Errorf("cuda: narrowed read of %d elements needs %d bytes of scratch, has %d", n, need, scratch.Bytes())
	}
	// scratch holds the narrowed values: its bytes reinterpreted as N.
	grid := d.Grid(int64(n)/4+1, 256)
	var err error
	if es == 2 {
		err = kernels.LaunchNarrowU16(d, grid, 256, src.Ptr(), kernels.PtrAt[uint16](scratch.ptr), uint32(n))
	} else {
		err = kernels.LaunchNarrowU8(d, grid, 256, src.Ptr(), kernels.PtrAt[uint8](scratch.ptr), uint32(n))
	}
	if err != nil {
		return err
	}
	return readStaged(d, scratch.ptr, dst)
}

// readStaged copies len(dst) elements from device address src into dst:
// in one DMA where dst is registered (directTarget), else through the two
// page-locked staging buffers, WithStageBytes' size at a time, the host copying one
// chunk out, in parallel, while the next one's DMA runs.
func readStaged[T any](d *Dev, src uintptr, dst []T) error {
	n := len(dst)
	if n == 0 {
		return nil
	}
	es := elemSize[T]()
	if directTarget(d, dst) {
		return d.guard("cuMemcpyDtoH", func() { cu.MemcpyDtoH(unsafe.Pointer(&dst[0]), cu.DevicePtr(src), int64(n)*es) })
	}
	stage := d.c.cfg.stageBytes
	per := int(max(stage/es, 1))
	var buf [2]unsafe.Pointer
	for i := range buf {
		p, err := d.AllocHost(stage)
		if err != nil {
			return err
		}
		buf[i] = p
		defer d.FreeHost(p)
	}
	if err := d.copyStreams(); err != nil {
		return err
	}
	chunks := (n + per - 1) / per
	issue := func(k int) error {
		lo := k * per
		hi := min(n, lo+per)
		return d.guard("cuMemcpyDtoHAsync", func() {
			cu.MemcpyDtoHAsync(buf[k%2], cu.DevicePtr(src+uintptr(int64(lo)*es)), int64(hi-lo)*es, d.streams[k%2])
		})
	}
	if err := issue(0); err != nil {
		return err
	}
	for k := 0; k < chunks; k++ {
		if k+1 < chunks {
			if err := issue(k + 1); err != nil {
				return err
			}
		}
		if err := d.guard("cuStreamSynchronize", d.streams[k%2].Synchronize); err != nil {
			return err
		}
		lo := k * per
		hi := min(n, lo+per)
		s := unsafe.Slice((*T)(buf[k%2]), hi-lo)
		out := dst[lo:hi]
		par.For(hi-lo, int(max(256<<10/es, 1)), func(a, b int) { copy(out[a:b], s[a:b]) })
	}
	return nil
}

// copyStreams creates the two streams of ReadStaged on first use. They are
// blocking streams: a copy on them starts after the kernels launched
// before it on the default stream.
func (d *Dev) copyStreams() error {
	if d.streams[0] != 0 {
		return nil
	}
	return d.guard("cuStreamCreate", func() {
		d.streams[0] = cu.StreamCreate()
		d.streams[1] = cu.StreamCreate()
	})
}

// StageBytes returns the size of each of ReadStaged's two page-locked
// buffers (WithStageBytes).
func (d *Dev) StageBytes() int64 { return d.c.cfg.stageBytes }

// NarrowMin returns the smallest result ReadValues narrows
// (WithNarrowMin).
func (c *CUDA) NarrowMin() int { return c.cfg.narrowMin }

// PrepareResult starts preparing host memory for a result of n values
// (hostmem.PrepareValues) at the width ReadValues will most likely pick:
// last, the width of the previous result on the same graph
// (Dev.ResultBits; 0 for none), else guess; 32 bits below NarrowMin.
func (c *CUDA) PrepareResult(n, last, guess int) func() hostmem.Values {
	bits := last
	switch {
	case n < c.cfg.narrowMin:
		bits = 32
	case bits == 0:
		bits = guess
	}
	return hostmem.PrepareValues(bits, n)
}

// CopyBehind enqueues a copy of bytes from src into page-locked host
// memory dst (AllocHost) on ReadStaged's first copy stream: a blocking
// stream, so the copy starts after the kernels launched before it, and
// the next synchronous call on the default stream waits for it. dst must
// stay allocated until then. (An asynchronous copy on the default stream
// itself left 2 MB of device memory taken after Trim.)
func (d *Dev) CopyBehind(dst unsafe.Pointer, src DevicePointer, bytes int64) error {
	if err := d.copyStreams(); err != nil {
		return err
	}
	return d.guard("cuMemcpyDtoHAsync", func() {
		cu.MemcpyDtoHAsync(dst, cu.DevicePtr(src.DevicePtr()), bytes, d.streams[0])
	})
}

// WriteRawAsync enqueues a copy of bytes from page-locked host memory src
// (AllocHost) to device address dst on the default stream: no host
// synchronisation; src must not change until a later synchronous call.
func (d *Dev) WriteRawAsync(dst DevicePointer, src unsafe.Pointer, bytes int64) error {
	return d.guard("cuMemcpyHtoDAsync", func() {
		cu.MemcpyHtoDAsync(cu.DevicePtr(dst.DevicePtr()), src, bytes, 0)
	})
}

// NarrowMin returns the smallest result ReadValues narrows
// (WithNarrowMin).
func (d *Dev) NarrowMin() int { return d.c.cfg.narrowMin }

// PageableReadback reports WithPageableReadback.
func (d *Dev) PageableReadback() bool { return d.c.cfg.pageable }
