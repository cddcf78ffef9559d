package maxflow

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/gearbox-graph/gearbox/graph"
)

// ErrVerify is wrapped by Verify's findings.
var ErrVerify = errors.New("max-flow check failed")

// Verify checks a claimed maximum flow by its properties alone, whatever
// computed it: flows[e] is the flow on residual arc e (0 on arcs of
// capacity 0), sourceSide the claimed cut. It checks 0 <= flow <= capacity
// on every arc, conservation at every vertex but s and t, that the value
// leaves s and reaches t, that the cut separates s from t and its capacity
// equals the value, and that no s-t path is left in the residual network
// the flows imply (a BFS).
func Verify(r *graph.Residual, s, t uint32, flows []int64, value int64, sourceSide []bool) error {
	if r == nil {
		return fmt.Errorf("%w: nil residual graph", ErrVerify)
	}
	n := r.NumVertices()
	if len(flows) != len(r.Head) || len(sourceSide) != n {
		return fmt.Errorf("%w: %d flows for %d arcs, %d cut entries for %d vertices", ErrVerify, len(flows), len(r.Head), len(sourceSide), n)
	}
	net := make([]int64, n) // out minus in; |net| bounded by the source's out-capacity, checked below
	var sum [2]uint64       // out of s, into t
	for u := 0; u < n; u++ {
		for e := r.Off[u]; e < r.Off[u+1]; e++ {
			x, w := flows[e], r.Head[e]
			if x < 0 || x > r.Cap[e] {
				return fmt.Errorf("%w: arc %d -> %d carries %d, capacity %d", ErrVerify, u, w, x, r.Cap[e])
			}
			if x == 0 {
				continue
			}
			if uint32(u) == s {
				sum[0] += uint64(x)
			}
			if w == t {
				sum[1] += uint64(x)
			}
			net[u] -= x
			net[w] += x
		}
	}
	for v := 0; v < n; v++ {
		if uint32(v) != s && uint32(v) != t && net[v] != 0 {
			return fmt.Errorf("%w: vertex %d receives %d more than it sends", ErrVerify, v, net[v])
		}
	}
	if -net[s] != value || net[t] != value {
		return fmt.Errorf("%w: %d leaves the source and %d reaches the sink, value %d", ErrVerify, -net[s], net[t], value)
	}
	if !sourceSide[s] || sourceSide[t] {
		return fmt.Errorf("%w: the cut does not separate source %d from sink %d", ErrVerify, s, t)
	}
	if c := cutCapacity(r, sourceSide); c != value {
		return fmt.Errorf("%w: cut capacity %d, flow value %d", ErrVerify, c, value)
	}
	// Residual capacity of e: its capacity less its flow plus the reverse's.
	from := uint32(graph.NoVertex) // the vertex whose arc first reaches t
	seen := reach(r, s, func(u uint32, e int64) bool {
		rc, carry := bits.Add64(uint64(r.Cap[e]-flows[e]), uint64(flows[r.Rev[e]]), 0)
		if carry == 0 && rc == 0 {
			return false // no residual capacity (a carry is more than any int64)
		}
		if r.Head[e] == t {
			from = u
		}
		return true
	})
	if seen[t] {
		return fmt.Errorf("%w: an augmenting path reaches the sink from vertex %d", ErrVerify, from)
	}
	return nil
}
