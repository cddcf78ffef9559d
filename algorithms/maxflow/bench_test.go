package maxflow

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// BenchmarkMaxflow times every solver on the instances: ak-4102
// (needs GEARBOX_DATASETS) and the generated vision 150x150, GENRMF a=32
// b=64 and RLG 256x256.
func BenchmarkMaxflow(b *testing.B) {
	inputs := []string{"vision:150:150", "rmf:32:64", "rlg:256:256"}
	if dir := os.Getenv("GEARBOX_DATASETS"); dir != "" {
		inputs = append([]string{filepath.Join(dir, "ak-4102.max")}, inputs...)
	}
	for _, in := range inputs {
		var g *graph.Graph
		if _, err := os.Stat(in); err == nil {
			if g, err = graph.Load(in, graph.LoadOptions{KeepDuplicates: true}); err != nil {
				b.Fatal(err)
			}
		} else {
			g = generated(b, in, 0)
		}
		r, s, t := network(b, g)
		for _, a := range []Algorithm{HighestLabel, FIFO, Sync} {
			b.Run(filepath.Base(in)+"/"+a.String(), func(b *testing.B) {
				for b.Loop() {
					if _, err := Run(context.Background(), r, s, t, WithAlgorithm(a), WithRuntime(runtime.WithWorkers(2))); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
