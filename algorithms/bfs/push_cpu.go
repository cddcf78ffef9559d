// Push (top-down) BFS kernels on the CPU: every working-set vertex relaxes
// its out-edges.
//
// Ordered: level-synchronous BFS, a vertex is claimed once by compare-and-
// swap from "unreached" to level+1 (Merrill, Garland & Grimshaw, "Scalable
// GPU Graph Traversal", PPoPP 2012). Unordered: label-correcting BFS, an
// atomic minimum of depth[u]+1 using u's current depth, re-adding a vertex
// each time it is lowered (Li & Becchi, "Deploying Graph Algorithms on
// GPUs: an Adaptive Solution", IPDPS 2013, unordered variants). Thread and
// block mappings and bitmap/queue working sets follow Li & Becchi; the
// advance over them is the vertex-frontier kit's (frontier.Advance).
package bfs

import (
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/decider"
)

// grains are the advance's: a visit is an atomic load and a rare
// compare-and-swap. A thread-mapped bitmap of at most 4096 out-edges runs
// on the caller: waking the pool for a few dozen words costs more than
// the level.
var grains = frontier.DefaultGrains

// frontier returns the current working set for the advance.
func (o *cpuOp) frontier() frontier.Set {
	if o.rep == decider.Queue {
		return frontier.QueueSet(o.curQ.Items(), o.deg)
	}
	return frontier.BitmapSet(o.curB, o.deg)
}

func (o *cpuOp) push(v decider.Variant) {
	adj := o.adj
	if v.Order == decider.Ordered {
		nd := o.level + 1
		o.adv.ForFrontier(o.frontier(), v.Mapping, func(w int, _ uint32, lo, hi int64) {
			for _, x := range adj[lo:hi] {
				if atomic.LoadUint32(&o.depth[x]) == unreached &&
					atomic.CompareAndSwapUint32(&o.depth[x], unreached, nd) {
					o.emit(w, x)
				}
			}
			o.cnt[w].edges += hi - lo
		})
		return
	}
	o.adv.ForFrontier(o.frontier(), v.Mapping, func(w int, u uint32, lo, hi int64) {
		nd := o.loadDepth(u) + 1
		for _, x := range adj[lo:hi] {
			for {
				old := atomic.LoadUint32(&o.depth[x])
				if old <= nd {
					break
				}
				if atomic.CompareAndSwapUint32(&o.depth[x], old, nd) {
					o.emit(w, x)
					break
				}
			}
		}
		o.cnt[w].edges += hi - lo
	})
}
