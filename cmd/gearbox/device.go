package main

import (
	"fmt"

	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/runtime"
)

// openBackend returns the backend --device names and a function releasing
// it. "auto" takes the GPU when one is usable and says why not otherwise.
func openBackend(e *env, device string, workers int) (runtime.Backend, func(), error) {
	cpu := func() (runtime.Backend, func(), error) { return runtime.NewCPU(workers), func() {}, nil }
	switch device {
	case "cpu":
		return cpu()
	case "cuda", "auto":
		cuda, err := gpu.New(gpu.WithLogger(e.log))
		if err == nil {
			return cuda, func() {
				if err := cuda.Close(); err != nil {
					e.log.Warn().Err(err).Msg("closing the GPU backend")
				}
			}, nil
		}
		if device == "cuda" {
			return nil, nil, fmt.Errorf("--device cuda: %w", err)
		}
		e.log.Info().Err(err).Msg("no usable GPU; --device auto runs on the CPU")
		return cpu()
	}
	return nil, nil, fmt.Errorf("%w: --device %q: want cpu, cuda or auto", errUsage, device)
}
