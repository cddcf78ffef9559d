package testgraphs

import (
	"errors"
	"testing"

	"github.com/gearbox-graph/gearbox/runtime"
)

// OpenCUDA opens the GPU backend for a test, skipping the test with the
// reason when there is no driver or no GPU, and closes it when the test
// ends (failing the test if Close reports an error, e.g. a leak).
func OpenCUDA(tb testing.TB, opts ...runtime.CUDAOption) *runtime.CUDA {
	tb.Helper()
	c, err := runtime.NewCUDA(opts...)
	if errors.Is(err, runtime.ErrNoDriver) || errors.Is(err, runtime.ErrNoDevice) || errors.Is(err, runtime.ErrNoCUDA) {
		tb.Skipf("skipping GPU test: no usable GPU: %v", err)
	}
	if err != nil {
		tb.Fatalf("NewCUDA: %v", err)
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
func HubBackends(tb testing.TB) func(HubCase) *runtime.CUDA {
	type key struct {
		limit   int
		noLocal bool
	}
	open := map[key]*runtime.CUDA{}
	return func(c HubCase) *runtime.CUDA {
		k := key{c.Limit, c.NoLocal}
		if open[k] == nil {
			open[k] = OpenCUDA(tb, c.CUDAOptions()...)
		}
		return open[k]
	}
}
