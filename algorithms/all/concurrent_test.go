package all_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestConcurrentRuns checks the guarantee the package docs give: runs of
// any registered algorithm may share one graph and one CPU backend from
// several goroutines at once, and each gives the result a run alone gives
// (under -race in CI, also without data races).
func TestConcurrentRuns(t *testing.T) {
	base, err := graph.Generate("kron:9", graph.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	weighted := base.WithDerivedWeights(1)
	backend := runtime.NewCPU(2)
	ctx := context.Background()
	for _, s := range algorithms.All() {
		g := base
		if s.Weighted {
			g = weighted
		}
		if s.CheckGraph != nil && s.CheckGraph(g) != nil {
			continue // needs an input of its own kind (max-flow's terminals)
		}
		t.Run(s.Name, func(t *testing.T) {
			opts := []runtime.Option{runtime.WithBackend(backend)}
			if s.Targeted {
				opts = append(opts, algorithms.WithTarget(uint32(g.NumVertices()-1)))
			}
			output := func() ([]byte, error) {
				o, err := s.Run(ctx, g, 1, opts...)
				if err != nil {
					return nil, err
				}
				var buf bytes.Buffer
				if err := o.Write(&buf); err != nil {
					return nil, err
				}
				if o.Release != nil {
					o.Release()
				}
				return buf.Bytes(), nil
			}
			alone, err := output()
			if err != nil {
				t.Fatal(err)
			}
			const goroutines = 4
			got := make([][]byte, goroutines)
			errs := make([]error, goroutines)
			var wg sync.WaitGroup
			for i := range goroutines {
				wg.Go(func() { got[i], errs[i] = output() })
			}
			wg.Wait()
			for i := range goroutines {
				if errs[i] != nil {
					t.Errorf("goroutine %d: %v", i, errs[i])
				} else if !bytes.Equal(got[i], alone) {
					t.Errorf("goroutine %d: result differs from a run alone (%d vs %d bytes)", i, len(got[i]), len(alone))
				}
			}
		})
	}
}
