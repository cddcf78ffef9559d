package bfs_test

import (
	"context"
	"os"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

func TestDebugTrace(t *testing.T) {
	if os.Getenv("GB_DEBUG") == "" {
		t.Skip("set GB_DEBUG")
	}
	g := testgraphs.Bench(os.Getenv("GB_DEBUG"))
	t.Logf("n=%d m=%d", g.NumVertices(), g.NumEdges())
	for _, s := range testgraphs.Sources(g, 2) {
		res, err := bfs.Run(context.Background(), g, s, runtime.WithTrace(true))
		if err != nil {
			t.Fatal(err)
		}
		st := res.Stats()
		st.WriteJSON(os.Stdout)
	}
}
