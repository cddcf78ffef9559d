package graph

import (
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// Bucket sizing: about bucketArcs arcs per bucket keeps a bucket's lists
// in L2; at most maxBuckets buckets keeps the partition's write streams
// few. Variables so tests can force many small buckets.
//
// Rounds: the partition buffer (8 bytes per arc, 12 when weighted) is cut
// into up to maxRounds rounds of about roundArcs arcs, bounding Build's
// extra memory at about 512 MiB or 1 byte per arc, whichever is more
// (four rounds cost no measurable time on kron:20).
var (
	bucketArcs int64 = 1 << 15
	maxBuckets       = 4096
	roundArcs  int64 = 1 << 26
	maxRounds  int64 = 8
)

// buildBucketed is Build's core without atomic read-modify-writes on the hot
// path. A locked add is a full fence on x86: scattering arcs through atomic
// per-vertex cursors makes every arc wait for the previous arc's cache-
// missing store, which bounded Build at about one memory latency per arc.
// Instead, arcs are first partitioned by source into buckets of 2^shift
// consecutive vertices (a radix pass with per-worker counters, so streaming
// writes only), then each bucket is turned into CSR lists by one worker in
// cache: count, scatter, sort and de-duplicate. The lists' contents do not
// depend on the partition, so the result is independent of the workers.
//
// It returns the CSR arrays before compaction: offsets (n+1), the arcs
// (adj, or packed dst<<32|w when weighted) and the surviving count of each
// list in newDeg[v] (nil when nothing was dropped), and the number of
// self-loops dropped. bad is the index of the first out-of-range edge
// found, or -1.
func buildBucketed(el *EdgeList, opt BuildOptions) (offsets []int64, adj []uint32, packed []uint64, newDeg []int64, loops int64, bad int64) {
	n, m := el.NumVertices, len(el.Src)
	weighted := el.Weights != nil
	w := par.Workers()

	shift := 0
	estArcs := int64(m)
	if opt.Undirected {
		estArcs *= 2
	}
	for shift < 32 && int64(1)<<shift < int64(n) && (n>>shift > maxBuckets || estArcs < int64(n)*bucketArcs>>shift) {
		shift++
	}
	nbuckets := (n + 1<<shift - 1) >> shift
	if n == 0 {
		nbuckets = 0
	}

	// Pass 1: per-worker bucket counts and range check.
	cnt := make([][]int64, w)
	loopsK := make([]int64, w)
	var badIdx atomic.Int64
	badIdx.Store(-1)
	// Passes 1 and 2 split the edges alike: worker k takes
	// [m*k/w, m*(k+1)/w), with w fixed here.
	forSplit := func(fn func(k, lo, hi int)) {
		par.For(w, 1, func(klo, khi int) {
			for k := klo; k < khi; k++ {
				fn(k, int(int64(m)*int64(k)/int64(w)), int(int64(m)*int64(k+1)/int64(w)))
			}
		})
	}
	forSplit(func(k, lo, hi int) {
		c := make([]int64, nbuckets+1)
		cnt[k] = c
		for i := lo; i < hi; i++ {
			s, d := el.Src[i], el.Dst[i]
			if int64(s) >= int64(n) || int64(d) >= int64(n) {
				// Keep the smallest bad index whatever the split.
				for {
					cur := badIdx.Load()
					if cur >= 0 && cur <= int64(i) || badIdx.CompareAndSwap(cur, int64(i)) {
						break
					}
				}
				return
			}
			if s == d && !opt.KeepSelfLoops {
				loopsK[k]++
				continue
			}
			c[s>>shift]++
			if opt.Undirected && s != d {
				c[d>>shift]++
			}
		}
	})
	if b := badIdx.Load(); b >= 0 {
		return nil, nil, nil, nil, 0, b
	}
	for _, l := range loopsK {
		loops += l
	}
	// Exclusive scan over (bucket, worker): bucket b's arcs are
	// tmp[bstart[b]:bstart[b+1]], written by worker 0 first, then 1, ...
	bstart := make([]int64, nbuckets+1)
	var total int64
	for b := 0; b < nbuckets; b++ {
		bstart[b] = total
		for k := 0; k < w; k++ {
			c := cnt[k][b]
			cnt[k][b] = total
			total += c
		}
	}
	bstart[nbuckets] = total

	// Passes 2 and 3 run in rounds over ranges of buckets when the arcs are
	// many, so the partition buffer holds a fraction of them (each round
	// re-reads the edge list, a sequential scan).
	rounds := int(min(maxRounds, (total+roundArcs-1)/roundArcs))
	rounds = max(rounds, 1)
	roundB := make([]int, rounds+1) // round r takes buckets [roundB[r], roundB[r+1])
	var tmpLen int64
	for r, b := 1, 0; r <= rounds; r++ {
		target := total * int64(r) / int64(rounds)
		for b < nbuckets && (bstart[b+1] <= target || r == rounds) {
			b++
		}
		roundB[r] = b
		tmpLen = max(tmpLen, bstart[b]-bstart[roundB[r-1]])
	}

	tmp := make([]uint64, tmpLen)
	var tmpW []uint32
	if weighted {
		tmpW = make([]uint32, tmpLen)
	}
	offsets = make([]int64, n+1)
	newDeg = make([]int64, n+1)
	switch {
	case !weighted:
		adj = make([]uint32, total)
	case rounds == 1:
		packed = tmp // each bucket's lists replace its own arcs
	default:
		packed = make([]uint64, total)
	}
	dbits := bits.Len(uint(max(n-1, 0)))
	var dropped atomic.Bool
	for r := 0; r < rounds; r++ {
		b0, b1 := roundB[r], roundB[r+1]
		base := bstart[b0]
		span := uint32(b1 - b0)

		// Pass 2: partition the round's arcs by source bucket.
		forSplit(func(k, lo, hi int) {
			pos := cnt[k]
			for i := lo; i < hi; i++ {
				s, d := el.Src[i], el.Dst[i]
				if s == d && !opt.KeepSelfLoops {
					continue
				}
				if b := s >> shift; b-uint32(b0) < span {
					p := pos[b] - base
					pos[b]++
					tmp[p] = uint64(s)<<32 | uint64(d)
					if weighted {
						tmpW[p] = el.Weights[i]
					}
				}
				if b := d >> shift; opt.Undirected && s != d && b-uint32(b0) < span {
					p := pos[b] - base
					pos[b]++
					tmp[p] = uint64(d)<<32 | uint64(s)
					if weighted {
						tmpW[p] = el.Weights[i]
					}
				}
			}
		})

		// Pass 3: each bucket becomes CSR lists. Buckets are handed out one
		// at a time: their sizes vary with skew.
		var next atomic.Int64
		next.Store(int64(b0))
		par.For(w, 1, func(_, _ int) {
			var scratch []uint64
			for {
				b := int(next.Add(1) - 1)
				if b >= b1 {
					return
				}
				vlo := b << shift
				vhi := min(n, vlo+1<<shift)
				bs := bstart[b]
				arcs := tmp[bs-base : bstart[b+1]-base]
				if cap(scratch) < len(arcs) {
					scratch = make([]uint64, len(arcs))
				}
				var lost bool
				if weighted {
					lost = bucketWeighted(arcs, scratch[:len(arcs)], tmpW[bs-base:bstart[b+1]-base], packed, offsets, newDeg, vlo, vhi, bs, opt.KeepDuplicates)
				} else {
					lost = bucketRadix(arcs, scratch[:len(arcs)], adj, offsets, newDeg, vlo, vhi, bs, dbits, opt.KeepDuplicates)
				}
				if lost {
					dropped.Store(true)
				}
			}
		})
	}
	if !dropped.Load() && !weighted {
		newDeg = nil
	}
	return offsets, adj, packed, newDeg, loops, -1
}

// bucketWeighted turns one bucket's arcs (src<<32|dst, weights alongside)
// into sorted lists of dst<<32|w at packed[bs:], which may be the arcs'
// own place, setting offsets[v+1] and the surviving count newDeg[v] for v
// in [vlo, vhi). It reports whether duplicates were dropped.
func bucketWeighted(arcs, scratch []uint64, wts []uint32, packed []uint64, offsets, newDeg []int64, vlo, vhi int, bs int64, keepDup bool) bool {
	copy(scratch, arcs)
	arcs = scratch
	cur := offsets[vlo+1 : vhi+1] // counts, then cursors, then list ends
	for _, a := range arcs {
		cur[int(a>>32)-vlo]++
	}
	pos := bs
	for i, c := range cur {
		cur[i] = pos
		pos += c
	}
	for j, a := range arcs {
		i := int(a>>32) - vlo
		packed[cur[i]] = uint64(uint32(a))<<32 | uint64(wts[j])
		cur[i]++
	}
	lost := false
	start := bs
	for v := vlo; v < vhi; v++ {
		end := offsets[v+1]
		l := packed[start:end]
		slices.Sort(l)
		if !keepDup {
			l = slices.CompactFunc(l, func(x, y uint64) bool { return x>>32 == y>>32 })
		}
		lost = lost || int64(len(l)) != end-start
		newDeg[v] = int64(len(l))
		start = end
	}
	return lost
}

// bucketRadix does bucketWeighted's work for unweighted arcs with an LSD
// radix sort of the keys (src-vlo)<<dbits|dst, in cache, instead of sorting
// each list: comparison sorts of short lists cost a branch miss per step.
// After the sort, the lists come out in order, de-duplicated on the fly.
func bucketRadix(arcs, scratch []uint64, adj []uint32, offsets, newDeg []int64, vlo, vhi int, bs int64, dbits int, keepDup bool) bool {
	dmask := uint64(1)<<dbits - 1
	for i, a := range arcs {
		arcs[i] = uint64(int(a>>32)-vlo)<<dbits | a&dmask
	}
	keyBits := dbits + bits.Len(uint(vhi-vlo-1))
	src, dst := arcs, scratch
	if keyBits > 0 {
		passes := (keyBits + 10) / 11
		digit := (keyBits + passes - 1) / passes
		var hist [1 << 11]int
		mask := uint64(1)<<digit - 1
		for p := 0; p < passes; p++ {
			sh := uint(p * digit)
			h := hist[:1<<digit]
			clear(h)
			for _, k := range src {
				h[k>>sh&mask]++
			}
			sum := 0
			for i, c := range h {
				h[i] = sum
				sum += c
			}
			for _, k := range src {
				d := k >> sh & mask
				dst[h[d]] = k
				h[d]++
			}
			src, dst = dst, src
		}
	}
	// Walk the sorted keys: list ends go to offsets[v+1], the kept arcs to
	// the front of each list.
	lost := false
	pos := bs
	i := 0
	for v := vlo; v < vhi; v++ {
		start := pos
		out := start
		local := uint64(v - vlo)
		prev := uint64(1) << 63
		for ; i < len(src) && src[i]>>dbits == local; i++ {
			k := src[i]
			pos++
			if !keepDup && k == prev {
				continue
			}
			prev = k
			adj[out] = uint32(k & dmask)
			out++
		}
		offsets[v+1] = pos
		newDeg[v] = out - start
		lost = lost || out != pos
	}
	return lost
}
