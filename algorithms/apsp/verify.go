package apsp

import (
	"errors"
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms/bfs"
	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/graph"
)

// ErrMismatch is wrapped by VerifyRow's errors.
var ErrMismatch = errors.New("apsp result is wrong")

// VerifyRow checks one row against an independent single-source search:
// the serial BFS of package bfs on unweighted graphs, the binary-heap
// Dijkstra of package sssp otherwise.
func VerifyRow(g *graph.Graph, src uint32, row []uint32) error {
	if g == nil {
		return fmt.Errorf("apsp: verify: %w: nil graph", graph.ErrNil)
	}
	n := g.NumVertices()
	if len(row) != n {
		return fmt.Errorf("apsp: %w: row %d has %d entries, graph has %d vertices", ErrMismatch, src, len(row), n)
	}
	want := make([]int64, n)
	if g.WeightKind() == graph.IntWeights {
		d, ok, err := sssp.Reference(g, src)
		if err != nil {
			return err
		}
		for v := range want {
			want[v] = -1
			if ok[v] {
				want[v] = int64(d[v])
			}
		}
	} else {
		d, err := bfs.Reference(g, src)
		if err != nil {
			return err
		}
		copy(want, d)
	}
	for v, x := range row {
		got := int64(x)
		if x == Unreachable {
			got = -1
		}
		if got != want[v] {
			return fmt.Errorf("apsp: %w: distance %d -> %d is %d, want %d (-1: unreachable)", ErrMismatch, src, v, got, want[v])
		}
	}
	return nil
}

// Reference computes the whole matrix with the textbook triple loop
// (Floyd-Warshall, no blocking), for tests on small graphs.
func Reference(g *graph.Graph) [][]uint32 {
	n := g.NumVertices()
	d := initMatrix(g, n)
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			a := d[i*n+k]
			if a >= inf {
				continue
			}
			for j := 0; j < n; j++ {
				if s := a + d[k*n+j]; s < d[i*n+j] {
					d[i*n+j] = s
				}
			}
		}
	}
	out := make([][]uint32, n)
	for i := range out {
		out[i] = make([]uint32, n)
		for j := range out[i] {
			x := d[i*n+j]
			if x >= inf {
				x = Unreachable
			}
			out[i][j] = x
		}
	}
	return out
}
