package all_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/apsp"
	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/algorithms/cc"
	"github.com/gearbox-graph/gearbox/algorithms/maxflow"
	"github.com/gearbox-graph/gearbox/algorithms/msf"
	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestNilArguments: every algorithm's entry points return an error for a
// nil context, graph or result, never panic, and a negative worker count
// fails the run instead of meaning GOMAXPROCS.
func TestNilArguments(t *testing.T) {
	g := testgraphs.Grid(4, 4)
	var nilCtx context.Context
	ctx := context.Background()
	noRows := func(uint32, []uint32) error { return nil }
	calls := map[string]func() error{
		"bfs nil ctx":     func() error { _, err := bfs.Run(nilCtx, g, 0); return err },
		"bfs nil graph":   func() error { _, err := bfs.Run(ctx, nil, 0); return err },
		"sssp nil ctx":    func() error { _, err := sssp.Run(nilCtx, g, 0); return err },
		"sssp nil graph":  func() error { _, err := sssp.Run(ctx, nil, 0); return err },
		"cc nil ctx":      func() error { _, err := cc.Run(nilCtx, g); return err },
		"cc nil graph":    func() error { _, err := cc.Run(ctx, nil); return err },
		"forest nil ctx":  func() error { _, err := cc.Forest(nilCtx, g); return err },
		"mst nil graph":   func() error { _, err := msf.Run(ctx, nil); return err },
		"mst nil ctx":     func() error { _, err := msf.Run(nilCtx, g); return err },
		"apsp nil graph":  func() error { _, err := apsp.Run(ctx, nil, noRows); return err },
		"apsp nil ctx":    func() error { _, err := apsp.Run(nilCtx, g, noRows); return err },
		"maxflow nil":     func() error { _, err := maxflow.Run(ctx, nil, 0, 1); return err },
		"bfs workers -1":  func() error { _, err := bfs.Run(ctx, g, 0, runtime.WithWorkers(-1)); return err },
		"sssp workers -1": func() error { _, err := sssp.Run(ctx, g.WithDerivedWeights(1), 0, runtime.WithWorkers(-1)); return err },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			if err := call(); !errors.Is(err, runtime.ErrBadArgument) {
				t.Fatalf("err = %v, want one wrapping runtime.ErrBadArgument", err)
			}
		})
	}
	verifies := map[string]func() error{
		"bfs":     func() error { return bfs.Verify(nil, nil) },
		"sssp":    func() error { return sssp.Verify(nil, nil) },
		"cc":      func() error { return cc.Verify(nil, nil) },
		"apsp":    func() error { return apsp.VerifyRow(nil, 0, nil) },
		"bfs ref": func() error { _, err := bfs.Reference(nil, 0); return err },
	}
	for name, v := range verifies {
		t.Run("verify "+name, func(t *testing.T) {
			if err := v(); !errors.Is(err, graph.ErrNil) {
				t.Fatalf("err = %v, want one wrapping graph.ErrNil", err)
			}
		})
	}
	if err := maxflow.Verify(nil, 0, 1, nil, 0, nil); err == nil {
		t.Fatal("maxflow.Verify(nil) accepted")
	}
	if err := msf.Verify(nil, nil, 1); err == nil {
		t.Fatal("msf.Verify(nil) accepted")
	}
}
