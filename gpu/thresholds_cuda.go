//go:build cuda

package gpu

import (
	"fmt"

	"github.com/gearbox-graph/gearbox/decider"
)

// gpuThreadsPerBlock is the default block size of thread-mapped kernels,
// the "threads per block" of Li & Becchi's T2.
const gpuThreadsPerBlock = 256

// SetThreadsPerBlock sets the block size of thread-mapped computation
// kernels (a multiple of 32 in 32..1024; 0 restores the default of 256)
// for later runs. It implements tuning.ThreadsPerBlockSetter.
func (c *CUDA) SetThreadsPerBlock(n int) error {
	if n == 0 {
		n = gpuThreadsPerBlock
	}
	if n < 32 || n > 1024 || n%32 != 0 {
		return fmt.Errorf("cuda: %d threads per block, want a multiple of 32 in 32..1024", n)
	}
	return c.Do(func(d *Dev) error {
		d.tpb = n
		return nil
	})
}

// Configure implements Backend: the run's thresholds set the block size
// of thread-mapped computation kernels (SetThreadsPerBlock).
func (c *CUDA) Configure(t decider.Thresholds) error { return c.SetThreadsPerBlock(t.ThreadsPerBlock) }

// ThreadsPerBlock is the block size of thread-mapped computation kernels.
func (d *Dev) ThreadsPerBlock() int {
	if d.tpb == 0 {
		return gpuThreadsPerBlock
	}
	return d.tpb
}

// DeviceThresholds derives default thresholds from the GPU, as Li & Becchi
// did: T1 = warp size (block mapping pays off once a vertex has a warp's
// worth of neighbours), T2 = threads per block x multiprocessors (below that
// the working set cannot fill the device with thread mapping). The rest keep
// the CPU defaults except delta, SSSP's order rule and CC's algorithm
// choice: a GPU iteration costs tens of microseconds, so buckets are wider,
// smaller graphs run unordered and CC runs union-find on them. A
// [gpu."<name>"] section of thresholds.toml overrides all of this.
func (c *CUDA) DeviceThresholds() decider.Thresholds {
	t := decider.DefaultThresholds().GPUBase() // fixed buckets, as the CPU's count per worker
	t.T1 = 32
	t.T2 = int64(gpuThreadsPerBlock * max(c.sms, 1))
	t.Delta = 256
	// A fixed delta: deriving it from the graph (the CPU's delta_factor)
	// has not been measured on a GPU.
	t.DeltaFactor = 0
	// Structure changes at samples only, as measured on the H100: the
	// CPU's jump_factor has not been measured on a GPU.
	t.JumpFactor = 0
	// The order rule measured on the H100 (results/h100-2026-11-22-s10/
	// and -s11/tune-order/): ordered SSSP from 2^18 vertices at any
	// degree (urand:18-20 ran 1.2-1.8x faster ordered; the 2048x2048 grid,
	// 4 arcs per vertex, 65 ms ordered at delta 256 against 99 unordered),
	// but on graphs of degree skew at least bucket_min_skew only from
	// 2^21: a hub relaxes much of such a graph at once, and unordered
	// rounds won on kron:18-20 (1.1-1.5x) and email-Enron (3.5x).
	t.OrderedMinVertices = 1 << 18
	t.OrderedMinDegree = 0
	t.OrderedMinVerticesSkewed = 1 << 21
	t.BucketMinSkew = 64 // what counts as skewed (work-targeted buckets stay off: bucket_edges 0)
	// An iteration costs ~30 µs however small (H100), the time to relax
	// about a million edges: pull only for frontiers worth half that.
	t.PullMinEdges = 1 << 19
	// Graphs under 2^17 vertices run every iteration at its fixed cost;
	// a bitmap there only adds conversions (measured on the H100's real
	// graphs, results/h100-2026-11-22-release/).
	t.BitmapMinVertices = 1 << 17
	// CC: Afforest's sampling, compression and largest-component passes
	// cost launches that graphs under 2^22 arcs do not pay back, and
	// without hubs (skew under 64) union-find converges about as fast. On
	// the H100 Afforest won only on the Kronecker graphs (thresholds.toml,
	// results/h100-2026-11-22-interleaved).
	t.AfforestMinArcs = 1 << 22
	t.AfforestMinSkew = 64
	return t
}
