package runtime_test

import (
	"context"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Every algorithm takes the engine's options: here a backend with two
// workers and a per-iteration trace of the variants the decider chose.
func ExampleWithBackend() {
	g, err := graph.Generate("grid:8:8", graph.GenOptions{})
	if err != nil {
		panic(err)
	}
	cpu := runtime.NewCPU(2) // may be shared by concurrent runs
	res, err := bfs.Run(context.Background(), g, 0, runtime.WithBackend(cpu), runtime.WithTrace(true))
	if err != nil {
		panic(err)
	}
	st := res.Stats()
	fmt.Println("backend:", st.Backend)
	fmt.Println("iterations:", st.Iterations, "traced:", len(st.Trace))
	// Output:
	// backend: cpu(2 workers)
	// iterations: 15 traced: 15
}
