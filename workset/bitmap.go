package workset

import (
	"math/bits"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/mapping"
)

// Bitmap is a working set holding one bit per possible element 0..n-1.
type Bitmap struct {
	words []uint64
	n     int
}

// NewBitmap returns an empty bitmap over n elements.
func NewBitmap(n int) *Bitmap { return &Bitmap{words: make([]uint64, (n+63)/64), n: n} }

// Len returns the number of possible elements.
func (b *Bitmap) Len() int { return b.n }

// Words exposes the bit words (element i is bit i%64 of word i/64).
func (b *Bitmap) Words() []uint64 { return b.words }

// Get reports whether i is set.
func (b *Bitmap) Get(i uint32) bool { return b.words[i>>6]&(1<<(i&63)) != 0 }

// Set sets i; not safe against concurrent writers of the same word.
func (b *Bitmap) Set(i uint32) { b.words[i>>6] |= 1 << (i & 63) }

// SetAtomic sets i and reports whether it was clear before; safe for
// concurrent use.
func (b *Bitmap) SetAtomic(i uint32) bool {
	m := uint64(1) << (i & 63)
	w := &b.words[i>>6]
	if atomic.LoadUint64(w)&m != 0 {
		return false
	}
	return atomic.OrUint64(w, m)&m == 0
}

// GetAtomic reads i with an atomic load (for reads racing SetAtomic).
func (b *Bitmap) GetAtomic(i uint32) bool {
	return atomic.LoadUint64(&b.words[i>>6])&(1<<(i&63)) != 0
}

// Clear empties the bitmap in parallel.
func (b *Bitmap) Clear(p *mapping.Pool) {
	p.Thread(len(b.words), 1<<14, func(_, lo, hi int) { clear(b.words[lo:hi]) })
}

// ClearItems clears the bits of the listed elements (cheaper than Clear
// when few are set).
func (b *Bitmap) ClearItems(p *mapping.Pool, items []uint32) {
	p.Thread(len(items), 4096, func(_, lo, hi int) {
		for _, v := range items[lo:hi] {
			atomic.AndUint64(&b.words[v>>6], ^(uint64(1) << (v & 63)))
		}
	})
}

// Count returns the number of set bits (popcount), in parallel.
func (b *Bitmap) Count(p *mapping.Pool) int64 {
	var c atomic.Int64
	p.Thread(len(b.words), 1<<12, func(_, lo, hi int) {
		var s int
		for _, w := range b.words[lo:hi] {
			s += bits.OnesCount64(w)
		}
		c.Add(int64(s))
	})
	return c.Load()
}

// FromQueue sets exactly the queue's elements (the bitmap is cleared
// first).
func (b *Bitmap) FromQueue(p *mapping.Pool, q *Queue) {
	b.Clear(p)
	items := q.Items()
	p.Thread(len(items), 4096, func(_, lo, hi int) {
		for _, v := range items[lo:hi] {
			atomic.OrUint64(&b.words[v>>6], 1<<(v&63))
		}
	})
}

// Swap exchanges the contents of two bitmaps of the same length.
func (b *Bitmap) Swap(o *Bitmap) { b.words, o.words, b.n, o.n = o.words, b.words, o.n, b.n }
