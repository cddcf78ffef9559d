package workset

import (
	"math/bits"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/mapping"
)

// Queue is a working set holding element ids densely, with room for every
// possible element (so appends never reallocate).
type Queue struct {
	buf  []uint32
	tail atomic.Int64
}

// NewQueue returns an empty queue with room for capacity elements.
func NewQueue(capacity int) *Queue { return &Queue{buf: make([]uint32, capacity)} }

// Len returns the number of elements.
func (q *Queue) Len() int { return int(q.tail.Load()) }

// Cap returns the capacity.
func (q *Queue) Cap() int { return len(q.buf) }

// Items returns the elements. Valid until the next change.
func (q *Queue) Items() []uint32 { return q.buf[:q.tail.Load()] }

// Reset empties the queue.
func (q *Queue) Reset() { q.tail.Store(0) }

// Push appends one element; not safe for concurrent use (see Append).
func (q *Queue) Push(v uint32) {
	t := q.tail.Load()
	q.buf[t] = v
	q.tail.Store(t + 1)
}

// Append atomically reserves room for items and copies them in: the
// parallel append used by workers flushing their local buffers.
func (q *Queue) Append(items []uint32) {
	if len(items) == 0 {
		return
	}
	t := q.tail.Add(int64(len(items))) - int64(len(items))
	copy(q.buf[t:], items)
}

// Swap exchanges the contents of two queues (not safe during appends).
func (q *Queue) Swap(o *Queue) {
	q.buf, o.buf = o.buf, q.buf
	a, b := q.tail.Load(), o.tail.Load()
	q.tail.Store(b)
	o.tail.Store(a)
}

// FromBitmap replaces the queue's contents with the set elements of b in
// increasing order: the compaction of an update vector, done in parallel by
// counting per chunk, a prefix sum and a scatter.
func (q *Queue) FromBitmap(p *mapping.Pool, b *Bitmap) {
	words := b.Words()
	const chunk = 1 << 12 // words per chunk
	nch := (len(words) + chunk - 1) / chunk
	counts := make([]int64, nch+1)
	p.Thread(nch, 1, func(_, lo, hi int) {
		for c := lo; c < hi; c++ {
			var s int
			for _, w := range words[c*chunk : min((c+1)*chunk, len(words))] {
				s += bits.OnesCount64(w)
			}
			counts[c+1] = int64(s)
		}
	})
	for c := 1; c <= nch; c++ {
		counts[c] += counts[c-1]
	}
	p.Thread(nch, 1, func(_, lo, hi int) {
		for c := lo; c < hi; c++ {
			o := counts[c]
			base := c * chunk
			for i, w := range words[base:min((c+1)*chunk, len(words))] {
				for w != 0 {
					q.buf[o] = uint32((base+i)*64 + bits.TrailingZeros64(w))
					o++
					w &= w - 1
				}
			}
		}
	})
	q.tail.Store(counts[nch])
}

// Buffer is a worker-local staging area for parallel appends to a Queue.
type Buffer struct {
	items []uint32
}

// BufferSize is the local buffer length before a flush.
const BufferSize = 1024

// Add stages v, flushing to q when full.
func (l *Buffer) Add(q *Queue, v uint32) {
	if l.items == nil {
		l.items = make([]uint32, 0, BufferSize)
	}
	l.items = append(l.items, v)
	if len(l.items) == BufferSize {
		q.Append(l.items)
		l.items = l.items[:0]
	}
}

// Flush appends the staged elements to q.
func (l *Buffer) Flush(q *Queue) {
	q.Append(l.items)
	l.items = l.items[:0]
}
