package graph

import (
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// idIndex maps arbitrary external ids to dense internal ones in sorted
// order. Dense id ranges use a bitmap with per-word ranks (one popcount per
// lookup, no sorting); sparse ones a sorted list and binary search.
type idIndex struct {
	ids  []uint64 // sorted, unique
	lo   uint64   // dense: bit x-lo of bits is set when x is an id
	bits []uint64
	rank []uint32 // dense: ids below each word
}

// denseSpan reports whether ids in lo..hi are worth a bitmap, given about
// count of them: the bitmap must not outweigh the ids themselves by much.
func denseSpan(lo, hi uint64, count int) bool {
	return hi >= lo && hi-lo < 64*uint64(count)+1<<20
}

func (x *idIndex) lookup(v uint64) (uint32, bool) {
	if x.bits != nil {
		if v < x.lo {
			return 0, false
		}
		d := v - x.lo
		w := d >> 6
		if w >= uint64(len(x.bits)) {
			return 0, false
		}
		b, m := x.bits[w], uint64(1)<<(d&63)
		if b&m == 0 {
			return 0, false
		}
		return x.rank[w] + uint32(bits.OnesCount64(b&(m-1))), true
	}
	i, ok := slices.BinarySearch(x.ids, v)
	return uint32(i), ok
}

// newBitmapIndex returns an empty dense index over lo..hi; fill it with set,
// then call finish.
func newBitmapIndex(lo, hi uint64) *idIndex {
	return &idIndex{lo: lo, bits: make([]uint64, (hi-lo)/64+1)}
}

// set marks v (concurrent calls are safe).
func (x *idIndex) set(v uint64) {
	d := v - x.lo
	p := &x.bits[d>>6]
	m := uint64(1) << (d & 63)
	if atomic.LoadUint64(p)&m == 0 {
		atomic.OrUint64(p, m)
	}
}

// finish computes the ranks and the sorted id list of a bitmap index.
func (x *idIndex) finish() {
	x.rank = make([]uint32, len(x.bits))
	var r uint64
	for i, b := range x.bits {
		x.rank[i] = uint32(r)
		r += uint64(bits.OnesCount64(b))
	}
	x.ids = make([]uint64, r)
	par.For(len(x.bits), 1<<14, func(lo, hi int) {
		for w := lo; w < hi; w++ {
			b := x.bits[w]
			p := x.rank[w]
			for b != 0 {
				t := bits.TrailingZeros64(b)
				x.ids[p] = x.lo + uint64(w)*64 + uint64(t)
				p++
				b &= b - 1
			}
		}
	})
}

// count returns the number of ids in a bitmap before finish.
func (x *idIndex) count() uint64 {
	var r uint64
	for _, b := range x.bits {
		r += uint64(bits.OnesCount64(b))
	}
	return r
}

// indexFromIDs builds an index over ids (sorted and de-duplicated here).
func indexFromIDs(ids []uint64) *idIndex {
	if !slices.IsSorted(ids) {
		slices.Sort(ids)
	}
	ids = slices.Compact(ids)
	if len(ids) > 0 && denseSpan(ids[0], ids[len(ids)-1], len(ids)) {
		x := newBitmapIndex(ids[0], ids[len(ids)-1])
		for _, v := range ids {
			d := v - x.lo
			x.bits[d>>6] |= 1 << (d & 63)
		}
		x.finish()
		return x
	}
	return &idIndex{ids: ids}
}
