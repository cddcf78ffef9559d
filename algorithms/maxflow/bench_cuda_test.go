//go:build cuda

package maxflow

import (
	"context"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// BenchmarkCUDAMaxflow times whole runs on the GPU (upload, phase 1 on the
// device, phase 2 and any tail on the host, the result) on the issue's
// instances and on GENRMF and RLG of about a million vertices, with the
// tail handed to the host (tail=host, the default knobs) and without
// (tail=device; not on AK, whose path takes millions of passes). It
// reports the device passes, global relabels and the device's kernel time
// per run.
func BenchmarkCUDAMaxflow(b *testing.B) {
	c := testgraphs.OpenCUDA(b)
	for _, spec := range []string{"file:ak-4102.max", "vision:150:150", "rmf:32:64", "rlg:256:256", "rmf:64:256", "rlg:1024:1024"} {
		net := benchNetwork(b, spec)
		for _, run := range []struct {
			name  string
			knobs Knobs
		}{{"host", DefaultKnobs()}, {"device", Knobs{GlobalFreq: DefaultKnobs().GlobalFreq}}} {
			if run.name == "device" && strings.HasPrefix(spec, "file:ak") {
				continue
			}
			b.Run("graph="+strings.TrimPrefix(spec, "file:")+"/tail="+run.name, func(b *testing.B) {
				var res *Result
				for b.Loop() {
					var err error
					if res, err = Run(context.Background(), net.r, net.s, net.t, WithKnobs(run.knobs), WithRuntime(runtime.WithBackend(c))); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Counts.Passes), "passes")
				b.ReportMetric(float64(res.Counts.GlobalRelabels), "globals")
				if g := res.Stats().GPU; g != nil {
					b.ReportMetric(float64(g.Kernels.Microseconds())/1e3, "device-ms")
				}
				b.Logf("flow value %d; %s", res.Value(), res.Placement())
			})
		}
	}
}
