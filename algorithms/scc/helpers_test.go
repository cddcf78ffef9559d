package scc_test

import (
	"testing"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// chain is k directed rings of size r, ring i feeding ring i+1 by one arc
// and ring i+2 by another: k SCCs in a DAG, deep enough that colouring
// needs many propagation rounds.
func chain(k, r int) *graph.Graph {
	var arcs [][2]uint32
	for i := range k {
		base := uint32(i * r)
		for j := range uint32(r) {
			arcs = append(arcs, [2]uint32{base + j, base + (j+1)%uint32(r)})
		}
		for _, d := range []int{1, 2} {
			if i+d < k {
				arcs = append(arcs, [2]uint32{base + uint32(i%r), uint32((i+d)*r) + uint32((i*7)%r)})
			}
		}
	}
	return testgraphs.MustBuild(k*r, false, arcs, nil)
}

// cases is the shared graph table, directed graphs of many small SCCs
// (sparse random, Kronecker) and of deep SCC DAGs, and the real datasets
// when present.
func cases(t *testing.T) []testgraphs.Case {
	t.Helper()
	out := append(testgraphs.Cases(),
		testgraphs.Case{Name: "random-directed-sparse", G: testgraphs.Random(20000, 26000, false, 11)},
		testgraphs.Case{Name: "random-directed-dense", G: testgraphs.Random(5000, 40000, false, 12)},
		testgraphs.Case{Name: "rmat14-directed", G: testgraphs.RMATDirected(14, 8, 13)},
		testgraphs.Case{Name: "ring-chain", G: chain(300, 7)},
		testgraphs.Case{Name: "one-ring", G: chain(1, 5000)},
	)
	real, err := testgraphs.Datasets()
	if err != nil {
		t.Logf("datasets skipped: %v", err)
		return out
	}
	return append(out, real...)
}
