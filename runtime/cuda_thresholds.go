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
// the CPU defaults except delta: a GPU iteration costs tens of microseconds,
// so SSSP buckets are wider. A [gpu."<name>"] section of thresholds.toml
// overrides all of this.
func (c *CUDA) DeviceThresholds() decider.Thresholds {
	t := decider.DefaultThresholds()
	t.T1 = 32
	t.T2 = int64(gpuThreadsPerBlock * max(c.sms, 1))
	t.Delta = 256
	return t
}
