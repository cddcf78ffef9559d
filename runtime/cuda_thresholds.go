//go:build cuda

package runtime

import "github.com/gearbox-graph/gearbox/decider"

// gpuThreadsPerBlock is the block size thread-mapped kernels launch with,
// the "threads per block" of Li & Becchi's T2.
const gpuThreadsPerBlock = 256

// DeviceThresholds derives default thresholds from the GPU, as Li & Becchi
// did: T1 = warp size (block mapping pays off once a vertex has a warp's
// worth of neighbours), T2 = threads per block x multiprocessors (below that
// the working set cannot fill the device with thread mapping). The rest keep
// the CPU defaults except delta and SSSP's order rule: a GPU iteration costs
// tens of microseconds, so buckets are wider and smaller graphs run
// unordered. A [gpu."<name>"] section of thresholds.toml
// overrides all of this.
func (c *CUDA) DeviceThresholds() decider.Thresholds {
	t := decider.DefaultThresholds()
	t.T1 = 32
	t.T2 = int64(gpuThreadsPerBlock * max(c.sms, 1))
	t.Delta = 256
	// Below 2^21 vertices or 8 arcs per vertex an ordered SSSP pays the
	// per-iteration cost too often (measured on the H100: unordered won on
	// the 2048x2048 grid and the real graphs, ordered on kron/urand:22).
	t.OrderedMinVertices = 1 << 21
	t.OrderedMinDegree = 8
	return t
}
