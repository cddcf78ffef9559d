package runtime

import (
	"math"
	"unsafe"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// HostSlice allocates a result slice of n elements in the background and
// touches its pages in parallel (asking for transparent huge pages where
// the OS offers them), so that the copy at the end of a GPU run does not
// pay a page fault per 4 KiB: on the lent H100's VM a fresh 34 MB result
// took 25 ms to fill, the copy itself about 2. Call the returned function
// for the slice; it waits for the preparation.
func HostSlice[T any](n int) func() []T {
	ch := make(chan []T, 1)
	go func() {
		s := make([]T, n)
		if n > 0 {
			b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), n*int(unsafe.Sizeof(s[0])))
			if HugePages {
				adviseHuge(b)
			}
			const page = 4096
			par.For((len(b)+page-1)/page, 64, func(lo, hi int) {
				for p := lo; p < hi; p++ {
					b[p*page] = 0
				}
			})
		}
		ch <- s
	}()
	return func() []T { return <-ch }
}

// HugePages makes HostSlice ask for transparent huge pages (a variable
// for measurements).
var HugePages = true

// Widen32 converts uint32 values to uint64, math.MaxUint32 (unreached) to
// math.MaxUint64: a conversion for ReadStaged.
func Widen32(dst []uint64, src []uint32) {
	for i, v := range src {
		if v == math.MaxUint32 {
			dst[i] = math.MaxUint64
		} else {
			dst[i] = uint64(v)
		}
	}
}

// Copy is the identity conversion for ReadStaged.
func Copy[T any](dst, src []T) { copy(dst, src) }
