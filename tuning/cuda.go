//go:build cuda

package tuning

import (
	"github.com/gearbox-graph/gearbox/gpu"
)

// The CUDA backend takes the thread-mapping block size that Tune sweeps.
var _ ThreadsPerBlockSetter = (*gpu.CUDA)(nil)
