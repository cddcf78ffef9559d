package maxflow

import (
	"context"
	"os"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

func TestProbe(t *testing.T) {
	p := os.Getenv("MFPROBE")
	if p == "" {
		t.Skip()
	}
	var g *graph.Graph
	var err error
	if strings.Contains(p, ":") {
		g, err = graph.Generate(p, graph.GenOptions{})
	} else {
		g, err = graph.Load(p, graph.LoadOptions{KeepDuplicates: true})
	}
	if err != nil {
		t.Fatal(err)
	}
	s, tt, _ := g.Terminals()
	r, _ := graph.NewResidual(g)
	algs := map[string]Algorithm{"hl": HighestLabel, "fifo": FIFO, "sync": Sync}
	for _, name := range strings.Split(os.Getenv("MFALGS"), ",") {
		var ds, cs []time.Duration
		var res *Result
		for i := 0; i < 5; i++ {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			t0 := time.Now()
			var ru0, ru1 syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
			res, err = Run(ctx, r, s, tt, WithAlgorithm(algs[name]), WithRuntime(runtime.WithWorkers(2)))
			cancel()
			if err != nil {
				t.Fatalf("%v: %v", name, err)
			}
			ds = append(ds, time.Since(t0))
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
			cs = append(cs, time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()))
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		sort.Slice(cs, func(i, j int) bool { return cs[i] < cs[j] })
		t.Logf("%s %s: value %d wall median %v (min %v) cpu median %v n=%d arcs=%d %+v", p, name, res.Value(), ds[2], ds[0], cs[2], r.NumVertices(), r.NumArcs(), res.Counts)
	}
}
