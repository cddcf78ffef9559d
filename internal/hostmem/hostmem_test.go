package hostmem_test

import (
	"fmt"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/gearbox-graph/gearbox/internal/hostmem"
)

func TestHostSlice(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 3<<20 + 17} {
		s := hostmem.Slice[uint64](n)()
		if len(s) != n {
			t.Fatalf("n=%d: got %d elements", n, len(s))
		}
		for i, v := range s {
			if v != 0 {
				t.Fatalf("n=%d: element %d is %d, want 0", n, i, v)
			}
		}
	}
}

// TestRecycle gives a slice back and gets the same memory for the same
// type and length only, once.
func TestRecycle(t *testing.T) {
	const n = 12347
	a := hostmem.Slice[uint32](n)()
	a[7] = 42
	hostmem.Recycle(a)
	if b := hostmem.Slice[int32](n)(); &b[0] == (*int32)(unsafe.Pointer(&a[0])) {
		t.Fatal("another element type reused the slice")
	}
	if b := hostmem.Slice[uint32](n + 1)(); &b[0] == &a[0] {
		t.Fatal("another length reused the slice")
	}
	b := hostmem.Slice[uint32](n)()
	if &b[0] != &a[0] || len(b) != n {
		t.Fatal("the recycled slice was not reused")
	}
	if c := hostmem.Slice[uint32](n)(); &c[0] == &a[0] {
		t.Fatal("a recycled slice was handed out twice")
	}
	hostmem.Recycle[uint32](nil) // no-op
}

// BenchmarkHostSlice measures preparing a 32 MiB result (4M uint64s):
// allocation plus touching every page.
func BenchmarkHostSlice(b *testing.B) {
	for _, huge := range []bool{false, true} {
		b.Run(fmt.Sprintf("huge=%v", huge), func(b *testing.B) {
			defer func(h bool) { hostmem.HugePages = h }(hostmem.HugePages)
			hostmem.HugePages = huge
			for i := 0; i < b.N; i++ {
				s := hostmem.Slice[uint64](4 << 20)()
				if len(s) != 4<<20 {
					b.Fatal("short slice")
				}
				debug.FreeOSMemory() // every round starts from memory returned to the OS, as a fresh result does
			}
		})
	}
}

// TestTakeReused checks the marks a GPU backend registers memory by: only
// a slice Slice handed out again is marked, and a mark is taken once.
func TestTakeReused(t *testing.T) {
	const n = 12345
	fresh := hostmem.Slice[uint16](n)()
	if hostmem.TakeReused(unsafe.Pointer(&fresh[0])) {
		t.Fatal("a new slice is marked as reused")
	}
	hostmem.Recycle(fresh)
	again := hostmem.Slice[uint16](n)()
	if &again[0] != &fresh[0] {
		t.Fatal("the released slice was not handed out again")
	}
	if !hostmem.TakeReused(unsafe.Pointer(&again[0])) {
		t.Fatal("a slice handed out again is not marked")
	}
	if hostmem.TakeReused(unsafe.Pointer(&again[0])) {
		t.Fatal("a mark was taken twice")
	}
}
