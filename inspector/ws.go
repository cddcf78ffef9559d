package inspector

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// Sample is one inspection of a running traversal's working set.
type Sample struct {
	// Iteration is the iteration after which the sample was taken.
	Iteration int `json:"iteration"`
	// Size is the number of working-set elements.
	Size int64 `json:"size"`
	// DegreeSum is the summed out-degree of the elements, or -1 when the
	// sampler was not asked for it.
	DegreeSum int64 `json:"degree_sum"`
	// Cost is the time the sample took.
	Cost time.Duration `json:"cost_ns"`
}

// Sampler decides when to sample (every Every iterations, from iteration
// 0) and accumulates its own cost.
type Sampler struct {
	every  int
	degree bool
	cost   time.Duration
	count  int
}

// NewSampler returns a sampler with period every that also sums
// out-degrees when degree is set; every <= 0 never samples.
func NewSampler(every int, degree bool) *Sampler {
	return &Sampler{every: every, degree: degree}
}

// Due reports whether iteration iter is sampled.
func (s *Sampler) Due(iter int) bool { return s.every > 0 && iter%s.every == 0 }

// Take runs measure (which counts the working set and, when asked, sums
// the out-degrees), times it and records the cost.
func (s *Sampler) Take(iter int, measure func(degree bool) (size, degreeSum int64)) Sample {
	t0 := time.Now()
	size, deg := measure(s.degree)
	if !s.degree {
		deg = -1
	}
	c := time.Since(t0)
	s.cost += c
	s.count++
	return Sample{Iteration: iter, Size: size, DegreeSum: deg, Cost: c}
}

// Cost returns the total time spent sampling.
func (s *Sampler) Cost() time.Duration { return s.cost }

// Count returns the number of samples taken.
func (s *Sampler) Count() int { return s.count }

// Loop is the parallel loop the counting helpers run on (mapping.Pool's
// Thread method satisfies it).
type Loop interface {
	Thread(n, grain int, fn func(worker, lo, hi int))
}

// CountQueue returns the length of a queue working set and, when degree is
// set, the summed out-degree of its elements (offsets is the CSR offsets
// array).
func CountQueue(loop Loop, items []uint32, offsets []int64, degree bool) (size, degreeSum int64) {
	if !degree {
		return int64(len(items)), 0
	}
	var sum atomic.Int64
	loop.Thread(len(items), 4096, func(_, lo, hi int) {
		var s int64
		for _, v := range items[lo:hi] {
			s += offsets[v+1] - offsets[v]
		}
		sum.Add(s)
	})
	return int64(len(items)), sum.Load()
}

// CountBitmap returns the number of set bits of a bitmap working set over
// n elements and, when degree is set, the summed out-degree of the set
// elements.
func CountBitmap(loop Loop, words []uint64, offsets []int64, degree bool) (size, degreeSum int64) {
	var cnt, sum atomic.Int64
	loop.Thread(len(words), 1024, func(_, lo, hi int) {
		var c, s int64
		for i := lo; i < hi; i++ {
			w := words[i]
			c += int64(bits.OnesCount64(w))
			if degree {
				for w != 0 {
					v := i*64 + bits.TrailingZeros64(w)
					w &= w - 1
					s += offsets[v+1] - offsets[v]
				}
			}
		}
		cnt.Add(c)
		sum.Add(s)
	})
	return cnt.Load(), sum.Load()
}
