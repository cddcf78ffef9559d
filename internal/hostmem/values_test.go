package hostmem_test

import (
	"math"
	"slices"
	"testing"

	"github.com/gearbox-graph/gearbox/internal/hostmem"
)

// TestValuesWidths checks that Values answers the same at every width a
// result may be held in.
func TestValuesWidths(t *testing.T) {
	w64 := []uint64{0, 1, math.MaxUint64, 2, 254, math.MaxUint64, 1}
	w32 := make([]uint32, len(w64))
	w16 := make([]uint16, len(w64))
	w8 := make([]uint8, len(w64))
	for i, x := range w64 {
		w32[i], w16[i], w8[i] = uint32(x), uint16(x), uint8(x) // all-ones stays all-ones
	}
	type view struct {
		at   []uint64
		has  []bool
		all  [][2]uint64
		n    int
		bits int
	}
	look := func(a hostmem.Values) view {
		v := view{n: a.Len(), bits: a.Bits()}
		for u := range uint32(len(w64) + 2) { // past the end: no value
			x, ok := a.At(u)
			v.at, v.has = append(v.at, x), append(v.has, ok)
		}
		for u, x := range a.All() {
			v.all = append(v.all, [2]uint64{uint64(u), x})
			if len(v.all) == 3 { // stopping early is honoured
				break
			}
		}
		return v
	}
	want := look(hostmem.ValuesOf(w64))
	if want.n != 7 || want.bits != 64 || want.has[2] || want.at[2] != 0 || !want.has[4] || want.at[4] != 254 || want.has[7] {
		t.Fatalf("64-bit view wrong: %+v", want)
	}
	if !slices.Equal(want.all, [][2]uint64{{0, 0}, {1, 1}, {3, 2}}) {
		t.Fatalf("All: %v", want.all)
	}
	for bits, a := range map[int]hostmem.Values{8: hostmem.ValuesOf(w8), 16: hostmem.ValuesOf(w16), 32: hostmem.ValuesOf(w32)} {
		got := look(a)
		if got.bits != bits {
			t.Errorf("%d-bit values report %d bits", bits, got.bits)
		}
		got.bits = want.bits
		if !slices.Equal(got.at, want.at) || !slices.Equal(got.has, want.has) || !slices.Equal(got.all, want.all) || got.n != want.n {
			t.Errorf("%d-bit values: %+v, want %+v", bits, got, want)
		}
	}
	var empty hostmem.Values
	if _, ok := empty.At(0); ok || empty.Len() != 0 || empty.Bits() != 0 {
		t.Fatal("empty Values")
	}
	for _, bits := range []int{8, 16, 32, 64} {
		h := hostmem.NewValues(bits, 100)
		if h.Bits() != bits || h.Len() != 100 {
			t.Fatalf("NewValues(%d, 100): %d values of %d bits", bits, h.Len(), h.Bits())
		}
		h.Release()
	}
}

func TestBitsFor(t *testing.T) {
	for _, c := range []struct {
		max  uint32
		bits int
	}{{0, 8}, {254, 8}, {255, 16}, {65534, 16}, {65535, 32}, {math.MaxUint32 - 1, 32}} {
		if got := hostmem.BitsFor(c.max); got != c.bits {
			t.Errorf("BitsFor(%d) = %d, want %d", c.max, got, c.bits)
		}
	}
}

// TestWords: Words hands out the slice a Values holds at its width only.
func TestWords(t *testing.T) {
	v := hostmem.ValuesOf([]uint16{1, 2, 3})
	if w := hostmem.Words[uint16](v); len(w) != 3 || w[2] != 3 {
		t.Fatalf("Words[uint16] = %v", w)
	}
	if w := hostmem.Words[uint32](v); w != nil {
		t.Fatalf("Words[uint32] of 16-bit values = %v, want nil", w)
	}
	w := hostmem.Words[uint8](hostmem.NewValues(8, 5))
	if len(w) != 5 {
		t.Fatalf("Words[uint8] of NewValues(8, 5) has %d elements", len(w))
	}
}
