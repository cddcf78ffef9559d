package bfs_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/algorithms/internal/search/searchtest"
	"github.com/gearbox-graph/gearbox/graph"
)

// fileIDGraph builds the graph of the arcs src[i] -> dst[i] (both ways
// where undirected) between vertices 0..len(ids)-1 whose file ids are ids.
func fileIDGraph(t testing.TB, ids []uint64, src, dst []uint32, undirected bool) *graph.Graph {
	el := &graph.EdgeList{Src: src, Dst: dst, NumVertices: len(ids)}
	var err error
	if el.IDs, err = graph.SortedIDs(ids); err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: undirected})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestExports(t *testing.T) {
	// 10 - 20 - 30 and an isolated 40, in file ids.
	g := fileIDGraph(t, []uint64{10, 20, 30, 40}, []uint32{0, 1}, []uint32{1, 2}, true)
	src, _ := g.IDs().Internal(20)
	r, err := bfs.Run(context.Background(), g, src)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(r.Depths()); got != "[1 0 1 -1]" {
		t.Errorf("Depths = %s", got)
	}
	if got := fmt.Sprint(r.DepthsByID()); got != "map[10:1 20:0 30:1]" {
		t.Errorf("DepthsByID = %s", got)
	}
	rows, s, b := searchtest.Exports(t, r, "id,depth\n10,1\n20,0\n30,1\n40,\n")
	if len(rows) != 4 || rows[3]["id"] != 40.0 || rows[3]["depth"] != nil || rows[0]["depth"] != 1.0 {
		t.Errorf("JSON rows %v", rows)
	}
	if s["source"] != 20.0 || s["reached"] != 3.0 || s["max_depth"] != 1.0 || s["vertices"] != 4.0 || s["stats"] == nil {
		t.Errorf("json.Marshal(result) = %s", b)
	}
}

// Results out in the file's ids.
func ExampleResult_WriteCSV() {
	b := graph.NewBuilder(graph.BuilderOptions{Undirected: true})
	b.AddEdge(10, 20)
	b.AddEdge(20, 30)
	g, _ := b.Build()
	src, _ := g.IDs().Internal(10)
	r, err := bfs.Run(context.Background(), g, src)
	if err != nil {
		panic(err)
	}
	if err := r.WriteCSV(os.Stdout); err != nil {
		panic(err)
	}
	fmt.Println(r.DepthsByID()[30])
	// Output:
	// id,depth
	// 10,0
	// 20,1
	// 30,2
	// 2
}
