package cc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/cc"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

func TestComponentsAndExports(t *testing.T) {
	// Components {100, 200, 300}, {400, 500} and {600}.
	b := graph.NewBuilder(graph.BuilderOptions{Undirected: true})
	b.AddEdge(100, 200)
	b.AddEdge(300, 200)
	b.AddEdge(500, 400)
	b.AddVertex(600)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := cc.Run(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(r.Sizes()); got != "map[0:3 3:2 5:1]" {
		t.Errorf("Sizes = %s", got)
	}
	if got := fmt.Sprint(r.Members(3)); got != "[3 4]" {
		t.Errorf("Members(3) = %s", got)
	}
	if r.Members(1) != nil {
		t.Errorf("Members of a non-label: %v", r.Members(1))
	}
	if got := fmt.Sprint(r.Largest()); got != "[0 1 2]" {
		t.Errorf("Largest = %s", got)
	}
	if got := fmt.Sprint(r.LabelsByID()); got != "map[100:100 200:100 300:100 400:400 500:400 600:600]" {
		t.Errorf("LabelsByID = %s", got)
	}
	var csv bytes.Buffer
	if err := r.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if want := "id,component\n100,100\n200,100\n300,100\n400,400\n500,400\n600,600\n"; csv.String() != want {
		t.Errorf("CSV %q", csv.String())
	}
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]uint64
	if err := json.Unmarshal(js.Bytes(), &rows); err != nil || len(rows) != 6 || rows[4]["component"] != 400 {
		t.Errorf("JSON %s: %v", js.String(), err)
	}
	s, sum := testgraphs.JSONObject(t, r)
	if s["components"] != 3.0 || s["largest"] != 100.0 || s["largest_size"] != 3.0 || s["variant"] == "" {
		t.Errorf("json.Marshal(result) = %s", sum)
	}
}

// The largest component as a graph of its own, in the file's ids.
func ExampleResult_Largest() {
	b := graph.NewBuilder(graph.BuilderOptions{Undirected: true})
	b.AddEdge(100, 200)
	b.AddEdge(200, 300)
	b.AddEdge(400, 500)
	g, _ := b.Build()
	r, err := cc.Run(context.Background(), g)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.NumComponents(), "components, sizes by label:", r.Sizes())
	big, err := graph.Subgraph(g, r.Largest())
	if err != nil {
		panic(err)
	}
	for v := range big.NumVertices() {
		fmt.Print(big.IDs().External(uint32(v)), " ")
	}
	fmt.Println(big.NumUndirectedEdges(), "edges")
	// Output:
	// 2 components, sizes by label: map[0:3 3:2]
	// 100 200 300 2 edges
}
