//go:build cuda

package searchtest

import (
	"slices"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// MedianDur returns the median of x (the upper one of an even count).
func MedianDur(x []time.Duration) time.Duration {
	s := slices.Clone(x)
	slices.Sort(s)
	return s[len(s)/2]
}

// MS is d in milliseconds.
func MS(d time.Duration) float64 { return d.Seconds() * 1e3 }

// CUDARelease runs check, the package's release test, on the GPU, then on a
// backend that narrows every result (gpu.WithNarrowMin(1): results
// narrowed are recycled at their width) with *narrowMin, the floor the
// package's checks expect, set to 1 meanwhile. Runs into the memory of
// released results, reused without clearing, must stay correct.
func CUDARelease(t *testing.T, check func(t *testing.T, opts ...runtime.Option), narrowMin *int) {
	check(t, runtime.WithBackend(testgraphs.OpenCUDA(t)))
	defer func(m int) { *narrowMin = m }(*narrowMin)
	*narrowMin = 1
	check(t, runtime.WithBackend(testgraphs.OpenCUDA(t, gpu.WithNarrowMin(1))))
}
