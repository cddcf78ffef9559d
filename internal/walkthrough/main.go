// Command walkthrough is the README's Go walkthrough, kept here so that it
// compiles and runs in the tests (walkthrough_test.go checks that the
// README shows exactly this file).
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/algorithms/cc"
	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

func main() {
	ctx := context.Background()

	// 1. A graph: from a file (graph.Load("roads.gr", graph.LoadOptions{})),
	// a generator, or built in memory with any vertex ids.
	b := graph.NewBuilder(graph.BuilderOptions{Undirected: true})
	for _, e := range [][3]float64{{10, 20, 4}, {20, 30, 1}, {30, 40, 2}, {10, 40, 9}, {50, 60, 1}} {
		b.AddWeightedEdge(uint64(e[0]), uint64(e[1]), e[2])
	}
	g, err := b.Build()
	if err != nil {
		log.Fatal(err)
	}

	// 2. File ids to vertices and back.
	src, ok := g.IDs().Internal(10)
	dst, _ := g.IDs().Internal(40)
	if !ok {
		log.Fatal("no vertex 10")
	}

	// 3. A run: the adaptive BFS on the CPU backend, recording parents.
	res, err := bfs.Run(ctx, g, src, bfs.WithParents())
	if err != nil {
		log.Fatal(err)
	}
	d, _ := res.Depth(dst)
	path, _ := res.PathIDs(dst) // in file ids
	fmt.Println("hops 10 -> 40:", d, "path", path)

	// 4. Weighted shortest paths (integer weights; real-valued ones are
	// refused with an error saying how to scale them).
	sp, err := sssp.Run(ctx, g, src, sssp.WithParents())
	if err != nil {
		log.Fatal(err)
	}
	dist, _ := sp.Distance(dst)
	wpath, _ := sp.PathIDs(dst)
	fmt.Println("distance 10 -> 40:", dist, "path", wpath)

	// 5. Components: sizes, members, the largest as a graph of its own.
	cr, err := cc.Run(ctx, g)
	if err != nil {
		log.Fatal(err)
	}
	big, err := graph.Subgraph(g, cr.Largest())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("components:", cr.NumComponents(), "largest:", big.NumVertices(), "vertices")

	// 6. Results out: CSV or JSON in file ids (json.Marshal(res) gives a
	// summary object).
	if err := res.WriteCSV(os.Stdout); err != nil {
		log.Fatal(err)
	}

	// 7. The GPU, when the binary is built with -tags cuda and one is
	// there: the same call with its backend (a value: one per GPU).
	if dev, err := gpu.New(); err == nil {
		defer dev.Close()
		if _, err := bfs.Run(ctx, g, src, runtime.WithBackend(dev)); err != nil {
			log.Fatal(err)
		}
	}
}
