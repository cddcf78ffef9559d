//go:build cuda

package tuning

import "github.com/gearbox-graph/gearbox/runtime"

// The CUDA backend takes the thread-mapping block size that Tune sweeps.
var _ ThreadsPerBlockSetter = (*runtime.CUDA)(nil)
