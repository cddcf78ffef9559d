package sssp_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/internal/search/searchtest"
	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/graph"
)

func TestExports(t *testing.T) {
	g, err := graph.FromEdges([]uint64{7, 8}, []uint64{8, 9}, []float64{3, 4}, graph.BuilderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src, _ := g.IDs().Internal(8)
	r, err := sssp.Run(context.Background(), g, src)
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Distances(); len(d) != 3 || d[0] != sssp.Unreached || d[1] != 0 || d[2] != 4 {
		t.Errorf("Distances = %v", d)
	}
	if got := fmt.Sprint(r.DistancesByID()); got != "map[8:0 9:4]" {
		t.Errorf("DistancesByID = %s", got)
	}
	rows, s, b := searchtest.Exports(t, r, "id,distance\n7,\n8,0\n9,4\n")
	if len(rows) != 3 || rows[0]["distance"] != nil || rows[2]["distance"] != 4.0 {
		t.Errorf("JSON rows %v", rows)
	}
	if s["source"] != 8.0 || s["reached"] != 2.0 || s["max_distance"] != 4.0 {
		t.Errorf("json.Marshal(result) = %s", b)
	}
}
