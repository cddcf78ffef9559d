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

// Knobs are the backend's own keys of a thresholds section.
type Knobs struct {
	// ThreadsPerBlock is the block size of thread-mapped kernels (a
	// multiple of 32 up to 1024; 0 = the default, 256).
	ThreadsPerBlock int64 `toml:"threads_per_block"`
}

// Configure implements Backend: the run's knobs set the block size of
// thread-mapped computation kernels (threads_per_block,
// SetThreadsPerBlock).
func (c *CUDA) Configure(layers decider.KnobLayers) error {
	var k Knobs
	if err := decider.DecodeKnobs(&k, layers.All()...); err != nil {
		return fmt.Errorf("cuda: %w", err)
	}
	return c.SetThreadsPerBlock(int(k.ThreadsPerBlock))
}

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
// the CPU defaults except where a GPU iteration's fixed cost (tens of
// microseconds) changes the rule. Algorithms derive their own parameters'
// GPU defaults (sssp.DeviceParams, cc.DeviceVariantPolicy). A
// [gpu."<name>"] section of thresholds.toml overrides all of this.
func (c *CUDA) DeviceThresholds() decider.Thresholds {
	t := decider.DefaultThresholds()
	t.T1 = 32
	t.T2 = int64(gpuThreadsPerBlock * max(c.sms, 1))
	// Structure changes at samples only, as measured on the H100: the
	// CPU's jump_factor has not been measured on a GPU.
	t.JumpFactor = 0
	// An iteration costs ~30 µs however small (H100), the time to relax
	// about a million edges: pull only for frontiers worth half that.
	t.PullMinEdges = 1 << 19
	// Graphs under 2^17 vertices run every iteration at its fixed cost;
	// a bitmap there only adds conversions (measured on the H100's real
	// graphs, results/h100-2026-11-22-release/).
	t.BitmapMinVertices = 1 << 17
	return t
}
