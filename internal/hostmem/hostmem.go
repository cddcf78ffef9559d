package hostmem

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// Slice allocates a result slice of n elements in the background and
// touches its pages in parallel (asking for transparent huge pages where
// the OS offers them), so that the copy at the end of a GPU run does not
// pay a page fault per 4 KiB: on the lent H100's VM a fresh 34 MB result
// took 25 ms to fill, the copy itself about 2. Call the returned function
// for the slice; it waits for the preparation.
//
// A slice given back with Recycle is reused when one of the same type and
// length is asked for: its pages are already mapped, so the preparation
// costs nothing. Its old contents remain; callers overwrite every element.
func Slice[T any](n int) func() []T {
	if s, ok := reuse[T](n); ok {
		return func() []T { return s }
	}
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

// HugePages makes Slice ask for transparent huge pages (a variable
// for measurements).
var HugePages = true

// Recycle gives s back for reuse by a later Slice of the same type
// and length (the Release methods of results call it). The caller must not
// use s afterwards. At most recycleMax bytes are kept; the rest is left to
// the garbage collector.
func Recycle[T any](s []T) {
	if len(s) == 0 {
		return
	}
	bytes := int64(len(s)) * int64(unsafe.Sizeof(s[0]))
	k := recycleKey{reflect.TypeFor[T](), len(s)}
	recycled.Lock()
	defer recycled.Unlock()
	if recycled.bytes+bytes > recycleMax {
		return
	}
	if recycled.m == nil {
		recycled.m = map[recycleKey][]any{}
	}
	recycled.m[k] = append(recycled.m[k], s)
	recycled.bytes += bytes
}

func reuse[T any](n int) ([]T, bool) {
	if n == 0 {
		return nil, false
	}
	k := recycleKey{reflect.TypeFor[T](), n}
	recycled.Lock()
	defer recycled.Unlock()
	free := recycled.m[k]
	if len(free) == 0 {
		return nil, false
	}
	s := free[len(free)-1].([]T)
	free[len(free)-1] = nil
	recycled.m[k] = free[:len(free)-1]
	recycled.bytes -= int64(n) * int64(unsafe.Sizeof(s[0]))
	if recycled.reused == nil || len(recycled.reused) >= reusedMax {
		recycled.reused = map[uintptr]struct{}{} // marks never taken (CPU results) go
	}
	recycled.reused[uintptr(unsafe.Pointer(&s[0]))] = struct{}{}
	return s, true
}

// TakeReused reports whether p is the first element of a slice that
// Slice handed out again, and forgets it. Its caller releases its
// results, so a GPU backend registers such memory for direct DMA: the
// registration, which costs about as much as one staged copy, then pays
// off over the reuses.
func TakeReused(p unsafe.Pointer) bool {
	recycled.Lock()
	defer recycled.Unlock()
	_, ok := recycled.reused[uintptr(p)]
	delete(recycled.reused, uintptr(p))
	return ok
}

// reusedMax bounds the marks of TakeReused.
const reusedMax = 256

// recycleMax bounds the memory Recycle keeps (1 GiB: a few results of the
// largest graphs that fit on a GPU).
const recycleMax = 1 << 30

type recycleKey struct {
	t reflect.Type
	n int
}

var recycled struct {
	sync.Mutex
	m     map[recycleKey][]any
	bytes int64
	// reused marks the slices reuse handed out (TakeReused), by address.
	reused map[uintptr]struct{}
}
