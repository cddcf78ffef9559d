package testgraphs

import (
	"errors"
	"testing"

	"github.com/gearbox-graph/gearbox/gpu"
)

// OpenCUDA opens the GPU backend for a test, skipping the test with the
// reason when there is no driver or no GPU, and closes it when the test
// ends (failing the test if Close reports an error, e.g. a leak).
func OpenCUDA(tb testing.TB, opts ...gpu.Option) *gpu.CUDA {
	tb.Helper()
	c, err := gpu.New(opts...)
	if errors.Is(err, gpu.ErrNoDriver) || errors.Is(err, gpu.ErrNoDevice) || errors.Is(err, gpu.ErrNoCUDA) {
		tb.Skipf("skipping GPU test: no usable GPU: %v", err)
	}
	if err != nil {
		tb.Fatalf("gpu.New: %v", err)
	}
	tb.Cleanup(func() {
		if err := c.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return c
}

// HubBackends returns each hub case's backend (HubCase.CUDAOptions): one
// per frontier limit and local setting, opened by OpenCUDA on first use
// and shared by the cases that have both.
func HubBackends(tb testing.TB) func(HubCase) *gpu.CUDA {
	type key struct {
		limit   int
		noLocal bool
	}
	open := map[key]*gpu.CUDA{}
	return func(c HubCase) *gpu.CUDA {
		k := key{c.Limit, c.NoLocal}
		if open[k] == nil {
			open[k] = OpenCUDA(tb, c.CUDAOptions()...)
		}
		return open[k]
	}
}
