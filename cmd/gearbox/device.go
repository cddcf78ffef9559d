package main

import (
	"fmt"

	"github.com/gearbox-graph/gearbox/runtime"
)

// openBackend returns the backend --device names and a function releasing
// it.
func openBackend(e *env, device string, workers int) (runtime.Backend, func(), error) {
	switch device {
	case "cpu":
		return runtime.NewCPU(workers), func() {}, nil
	}
	return nil, nil, fmt.Errorf("%w: --device %q: want cpu, cuda or auto", errUsage, device)
}
