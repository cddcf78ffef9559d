//go:build cuda

package testgraphs

import (
	"testing"

	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
)

// CheckNoDeviceMemory evicts graphs from c's cache, trims its reuse pool
// and fails tb if device memory is still held: what a run leaves behind
// beyond the cache and the pool is a leak.
func CheckNoDeviceMemory(tb testing.TB, c *gpu.CUDA, graphs ...*graph.Graph) {
	tb.Helper()
	for _, g := range graphs {
		if err := c.Evict(g); err != nil {
			tb.Fatal(err)
		}
	}
	if err := c.Trim(); err != nil {
		tb.Fatal(err)
	}
	if live, err := c.LiveBytes(); err != nil || live != 0 {
		tb.Fatalf("%d device bytes held after eviction and Trim (err %v)", live, err)
	}
}
