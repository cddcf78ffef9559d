package hostmem

import (
	"iter"
	"math"
	"sync"
)

// Values is a per-vertex result (BFS depths, SSSP distances) held at the
// width its run produced: 8, 16, 32 or 64 bits per vertex, all-ones of the
// width marking a vertex without a value. A GPU run copies its array to
// the host at the fewest bits its largest value needs (gpu.ReadValues), so the
// copy over PCIe and the host memory shrink with the values: a BFS of
// fewer than 255 levels crosses as bytes. The zero Values is empty.
type Values struct {
	w8  []uint8
	w16 []uint16
	w32 []uint32
	w64 []uint64
}

// ValuesOf wraps s (all-ones = no value); the Values owns it from then on.
func ValuesOf[T uint8 | uint16 | uint32 | uint64](s []T) Values {
	switch s := any(s).(type) {
	case []uint8:
		return Values{w8: s}
	case []uint16:
		return Values{w16: s}
	case []uint32:
		return Values{w32: s}
	default:
		return Values{w64: s.([]uint64)}
	}
}

// Len returns the number of vertices.
func (a Values) Len() int { return len(a.w8) + len(a.w16) + len(a.w32) + len(a.w64) }

// Bits returns the width of each value (0 when empty).
func (a Values) Bits() int {
	switch {
	case a.w8 != nil:
		return 8
	case a.w16 != nil:
		return 16
	case a.w32 != nil:
		return 32
	case a.w64 != nil:
		return 64
	}
	return 0
}

// At returns v's value and whether it has one (0 and false when it has
// none, and beyond Len).
func (a Values) At(v uint32) (uint64, bool) {
	if int64(v) >= int64(a.Len()) {
		return 0, false
	}
	switch {
	case a.w8 != nil:
		return at(a.w8, v)
	case a.w16 != nil:
		return at(a.w16, v)
	case a.w32 != nil:
		return at(a.w32, v)
	}
	return at(a.w64, v)
}

func at[T uint8 | uint16 | uint32 | uint64](s []T, v uint32) (uint64, bool) {
	if x := s[v]; x != ^T(0) {
		return uint64(x), true
	}
	return 0, false
}

// All yields every vertex that has a value, with it, in vertex order.
func (a Values) All() iter.Seq2[uint32, uint64] {
	return func(yield func(uint32, uint64) bool) {
		switch {
		case a.w8 != nil:
			all(a.w8, yield)
		case a.w16 != nil:
			all(a.w16, yield)
		case a.w32 != nil:
			all(a.w32, yield)
		default:
			all(a.w64, yield)
		}
	}
}

func all[T uint8 | uint16 | uint32 | uint64](s []T, yield func(uint32, uint64) bool) {
	for v, x := range s {
		if x != ^T(0) && !yield(uint32(v), uint64(x)) {
			return
		}
	}
}

// Words returns a's values as held, when they are held at T's width (nil
// otherwise): the memory a copy from the device fills.
func Words[T uint8 | uint16 | uint32 | uint64](a Values) []T {
	var r any
	switch any(*new(T)).(type) {
	case uint8:
		r = a.w8
	case uint16:
		r = a.w16
	case uint32:
		r = a.w32
	default:
		r = a.w64
	}
	return r.([]T)
}

// Release gives the memory back for reuse by a later Slice (Recycle);
// a must not be used afterwards.
func (a Values) Release() {
	Recycle(a.w8)
	Recycle(a.w16)
	Recycle(a.w32)
	Recycle(a.w64)
}

// BitsFor returns the fewest bits, of 8, 16 and 32, whose all-ones lies
// above every value up to max.
func BitsFor(max uint32) int {
	switch {
	case max < math.MaxUint8:
		return 8
	case max < math.MaxUint16:
		return 16
	}
	return 32
}

// PrepareValues starts preparing host memory for n values of the given
// width in the background (Slice); call the result for it (every call
// returns the same memory).
func PrepareValues(bits, n int) func() Values {
	switch bits {
	case 8:
		return prepare[uint8](n)
	case 16:
		return prepare[uint16](n)
	case 32:
		return prepare[uint32](n)
	}
	return prepare[uint64](n)
}

func prepare[T uint8 | uint16 | uint32 | uint64](n int) func() Values {
	get := Slice[T](n)
	// Callable more than once (a speculative read and the real one may
	// both ask): the same memory each time.
	return sync.OnceValue(func() Values { return ValuesOf(get()) })
}

// NewValues returns host memory for n values of the given width (8, 16,
// 32 or 64), reusing a released result's where one fits (Slice).
func NewValues(bits, n int) Values { return PrepareValues(bits, n)() }
