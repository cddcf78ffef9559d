// pullcount counts, over 16 fixed sources, the pull levels of the adaptive
// BFS on the CPU backend, the in-arcs they examined, what push relaxes at
// the same levels (from a static O_T_QU run: an ordered BFS's levels do not
// depend on the variant), and the pulls that examined more than
// PullLossFactor times that. Deterministic: no timing.
//
//	go run . -graph ../../../../shared/datasets/rome99.gr
//	go run . -gen kron:18 -h100
package main

import (
	"context"
	"flag"
	"fmt"
	"log"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

func main() {
	file := flag.String("graph", "", "graph file")
	gen := flag.String("gen", "", "generator spec")
	h100 := flag.Bool("h100", false, "use the H100's BFS thresholds (thresholds.toml) instead of the CPU's")
	flag.Parse()
	var g *graph.Graph
	var err error
	if *gen != "" {
		g, err = graph.Generate(*gen, graph.GenOptions{})
	} else {
		g, err = graph.Load(*file, graph.LoadOptions{})
	}
	if err != nil {
		log.Fatal(err)
	}
	opts := []runtime.Option{runtime.WithBackend(runtime.NewCPU(2)), runtime.WithTrace(true)}
	if *h100 {
		set, err := decider.LoadThresholds("../../../thresholds.toml")
		if err != nil {
			log.Fatal(err)
		}
		opts = append(opts, runtime.WithThresholds(set.ForAlgorithm("NVIDIA H100 80GB HBM3", "bfs")))
	}
	qu, _ := decider.ParseVariant("O_T_QU")
	var srcs []uint32
	for v := uint32(0); len(srcs) < 16; v += 7919 {
		v %= uint32(g.NumVertices())
		if g.Degree(v) > 0 {
			srcs = append(srcs, v)
		}
	}
	var pulls, lost int
	var pullArcs, pushArcs int64
	for _, s := range srcs {
		a, err := bfs.Run(context.Background(), g, s, opts...)
		if err != nil {
			log.Fatal(err)
		}
		st, err := bfs.Run(context.Background(), g, s, runtime.WithBackend(runtime.NewCPU(2)), runtime.WithTrace(true), runtime.WithVariant(qu))
		if err != nil {
			log.Fatal(err)
		}
		push := st.Stats().Trace
		lvl := 0
		for _, it := range a.Stats().Trace {
			if it.Variant.Direction == decider.Pull {
				pulls++
				pullArcs += it.Edges
				pushArcs += push[lvl].Edges
				if it.Edges > decider.PullLossFactor*push[lvl].Edges {
					lost++
				}
			}
			lvl += max(it.Levels, 1)
		}
	}
	fmt.Printf("pulls %4d lost %3d pull arcs %10d push arcs there %10d\n", pulls, lost, pullArcs, pushArcs)
}
