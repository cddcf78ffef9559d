package maxflow

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// benchNet is a benchmark's flow network and terminals.
type benchNet struct {
	r    *graph.Residual
	s, t uint32
}

var benchNets sync.Map // spec -> benchNet

// benchNetwork returns (built once per process) the residual network of
// testgraphs.BenchNetwork's graph and its terminals.
func benchNetwork(b *testing.B, spec string) benchNet {
	b.Helper()
	if n, ok := benchNets.Load(spec); ok {
		return n.(benchNet)
	}
	g := testgraphs.BenchNetwork(b, spec)
	s, t, _ := g.Terminals()
	r, err := graph.NewResidual(g)
	if err != nil {
		b.Fatalf("%s: %v", spec, err)
	}
	n := benchNet{r, s, t}
	benchNets.Store(spec, n)
	return n
}

// BenchmarkMaxflow times every solver on the instances: ak-4102
// (a dataset) and the generated vision 150x150, GENRMF a=32 b=64 and RLG
// 256x256.
func BenchmarkMaxflow(b *testing.B) {
	for _, spec := range []string{"file:ak-4102.max", "vision:150:150", "rmf:32:64", "rlg:256:256"} {
		net := benchNetwork(b, spec)
		for _, a := range []Algorithm{HighestLabel, FIFO, Sync} {
			b.Run(strings.TrimPrefix(spec, "file:")+"/"+a.String(), func(b *testing.B) {
				for b.Loop() {
					if _, err := Run(context.Background(), net.r, net.s, net.t, WithAlgorithm(a), WithRuntime(runtime.WithWorkers(2))); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
