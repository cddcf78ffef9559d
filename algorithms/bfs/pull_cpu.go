// Pull (bottom-up) BFS kernel on the CPU: every unreached vertex scans its
// in-neighbours for one in the bitmap frontier and stops at the first
// (Beamer, Asanović & Patterson, "Direction-Optimizing Breadth-First
// Search", SC 2012). The frontier is a bitmap read-only during the step;
// each worker owns whole 64-vertex words of the output bitmap and of the
// depth array, so the step needs no atomics.
package bfs

import (
	"math/bits"

	"github.com/gearbox-graph/gearbox/gpu"
)

func trailingZeros(b uint64) int { return bits.TrailingZeros64(b) }

func (o *cpuOp) pull() {
	if o.gt == nil {
		o.gt = o.g.Transpose()
	}
	ioff, iadj := o.gt.Offsets(), o.gt.Adj()
	off := o.off
	depth := o.depth
	front := o.curB.Words()
	next := o.nextB.Words()
	n := len(depth)
	nd := o.level + 1
	// Chunks of about grains.QueueEdges in-arcs if every vertex scanned
	// all of its own (an upper bound; the transpose has the graph's arcs):
	// push's chunk in vertices, in words of 64. A fixed 64 words ran
	// facebook_combined's 63 words (average degree 44) on one worker of 16.
	grain := max(1, o.adv.QueueChunk()/64)
	o.pool.Thread(len(next), grain, func(w, lo, hi int) {
		var size, deg, edges int64
		for wi := lo; wi < hi; wi++ {
			base := wi * 64
			vEnd := min(base+64, n)
			// The word's unreached vertices as a mask, built without a
			// branch per vertex (reached and unreached vertices interleave
			// at random, and a test per vertex mispredicts): p2p-
			// Gnutella31's late pull levels went from 173 to 160 µs on the
			// 2-core VM.
			var todo uint64
			for i, d := range depth[base:vEnd] {
				todo |= uint64(gpu.Flag(d == unreached)) << i
			}
			var bitsOut uint64
			for ; todo != 0; todo &= todo - 1 {
				v := base + trailingZeros(todo)
				a, b := ioff[v], ioff[v+1]
				for e := a; e < b; e++ {
					u := iadj[e]
					if front[u>>6]&(1<<(u&63)) != 0 {
						depth[v] = nd
						bitsOut |= 1 << (v & 63)
						size++
						deg += off[v+1] - off[v]
						edges += e - a + 1
						goto found
					}
				}
				edges += b - a
			found:
			}
			next[wi] = bitsOut
		}
		c := &o.cnt[w]
		c.size += size
		c.deg += deg
		c.edges += edges
	})
}
