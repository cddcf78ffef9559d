//go:build cuda

package searchtest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
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

// NarrowMin is the backend option WithNarrowMin of the runs CompareGPU
// checks (tests that lower it set it while they run).
var NarrowMin = gpu.DefaultNarrowMin

// CUDARelease runs check, the package's release test, on the GPU, then on a
// backend that narrows every result (gpu.WithNarrowMin(1): results
// narrowed are recycled at their width) with NarrowMin set to 1
// meanwhile. Runs into the memory of released results, reused without
// clearing, must stay correct.
func CUDARelease(t *testing.T, check func(t *testing.T, opts ...runtime.Option)) {
	check(t, runtime.WithBackend(testgraphs.OpenCUDA(t)))
	defer func(m int) { NarrowMin = m }(NarrowMin)
	NarrowMin = 1
	check(t, runtime.WithBackend(testgraphs.OpenCUDA(t, gpu.WithNarrowMin(1))))
}

// CPURun is the GPU tests' reference: the run from src on the CPU backend.
func (s Search[R]) CPURun(t *testing.T, g *graph.Graph, src uint32) R {
	t.Helper()
	want, err := s.Run(context.Background(), g, src, runtime.WithWorkers(2))
	if err != nil {
		t.Fatalf("cpu: %v", err)
	}
	return want
}

// CompareGPU runs the search from src with opts (a GPU backend) and fails
// the test where the result differs from want (the CPU's) in a value,
// does not pass Verify, or was copied to the host at another width than
// the fewest of 8, 16 and 32 bits whose all-ones (unreached) lies above
// its largest value (32 below NarrowMin vertices; 64-bit values are
// copied as they are).
func (s Search[R]) CompareGPU(t *testing.T, label string, g *graph.Graph, src uint32, want R, opts []runtime.Option) R {
	t.Helper()
	got, err := s.Run(context.Background(), g, src, opts...)
	if err != nil {
		t.Fatalf("%s: gpu: %v", label, err)
	}
	if got.NumVertices() != want.NumVertices() {
		t.Fatalf("%s: %d %ss on the GPU, %d on the CPU", label, got.NumVertices(), s.What, want.NumVertices())
	}
	testgraphs.CompareValues(t, label, s.What, want.NumVertices(), want.Value, got.Value)
	if err := s.Verify(g, got); err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	gt := got.Stats().GPU
	if gt == nil || gt.ResultBits == 64 {
		return got
	}
	m, _ := got.MaxValue()
	bits := 32
	switch {
	case got.NumVertices() < NarrowMin:
	case m < 0xFF:
		bits = 8
	case m < 0xFFFF:
		bits = 16
	}
	if gt.ResultBits != bits {
		t.Fatalf("%s: %ss copied as %d bits (%d vertices, largest %d), want %d", label, s.What, gt.ResultBits, got.NumVertices(), m, bits)
	}
	return got
}

// durations are the times of a benchmark's runs.
type durations []time.Duration

func (d durations) median() time.Duration { return MedianDur(d) }
func (d durations) min() time.Duration    { return slices.Min(d) }
func (d durations) max() time.Duration    { return slices.Max(d) }

// TimeRuns runs the search from src with opts once (the warm-up, which
// uploads the graph) and checks that run with Verify, then times b.N runs.
// It reports the median run as median_ms and returns the warm-up's result
// and the median.
func (s Search[R]) TimeRuns(b *testing.B, g *graph.Graph, src uint32, opts []runtime.Option) (R, time.Duration) {
	res, err := s.Run(context.Background(), g, src, opts...)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Verify(g, res); err != nil {
		b.Fatal(err)
	}
	var times durations
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := s.Run(context.Background(), g, src, opts...); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	b.StopTimer()
	med := times.median()
	b.ReportMetric(float64(med.Microseconds())/1000, "median_ms")
	return res, med
}

// CompareCases compares GPU runs under every configuration of cfgs with
// the CPU's (CompareGPU) from each case's sources (two, testgraphs.Sources,
// where it lists none), on the case's graph the search runs on; it returns
// the number of GPU runs.
func (s Search[R]) CompareCases(t *testing.T, cases []testgraphs.Case, cfgs map[string][]runtime.Option) int {
	t.Helper()
	runs := 0
	for _, c := range cases {
		g := s.graph(c)
		srcs := c.Sources
		if srcs == nil {
			srcs = testgraphs.Sources(g, 2)
		}
		for _, src := range srcs {
			want := s.CPURun(t, g, src)
			for name, opts := range cfgs {
				s.CompareGPU(t, fmt.Sprintf("%s/%s/src=%d", c.Name, name, src), g, src, want, opts)
				runs++
			}
		}
	}
	return runs
}

// MinimalDatasets returns the cases of the named datasets that are present
// (testgraphs.LoadDatasetMinimal: directed unless listed as undirected),
// without sources.
func MinimalDatasets(t *testing.T, files []string, undirected ...string) []testgraphs.Case {
	var cases []testgraphs.Case
	for _, f := range files {
		if g := testgraphs.LoadDatasetMinimal(t, f, !slices.Contains(undirected, f)); g != nil {
			cases = append(cases, testgraphs.Case{Name: f, G: g})
		}
	}
	return cases
}
