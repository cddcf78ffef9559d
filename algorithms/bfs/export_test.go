package bfs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// sparse is 10 - 20 - 30 and an isolated 40, in file ids.
func sparse(t testing.TB) *graph.Graph {
	b := graph.NewBuilder(graph.BuilderOptions{Undirected: true})
	b.AddEdge(10, 20)
	b.AddEdge(20, 30)
	b.AddVertex(40)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestExports(t *testing.T) {
	g := sparse(t)
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
	var csv, js bytes.Buffer
	if err := r.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if want := "id,depth\n10,1\n20,0\n30,1\n40,\n"; csv.String() != want {
		t.Errorf("CSV %q, want %q", csv.String(), want)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		ID    uint64 `json:"id"`
		Depth *int   `json:"depth"`
	}
	if err := json.Unmarshal(js.Bytes(), &rows); err != nil {
		t.Fatalf("%v in %s", err, js.String())
	}
	if len(rows) != 4 || rows[3].ID != 40 || rows[3].Depth != nil || *rows[0].Depth != 1 {
		t.Errorf("JSON rows %s", js.String())
	}
	s, b := testgraphs.JSONObject(t, r)
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
