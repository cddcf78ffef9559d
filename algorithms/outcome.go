package algorithms

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// VariantOptions returns the options of a traversal's variant name: none
// for "auto" (the adaptive policy), else runtime.WithVariant of the parsed
// variant (decider.ParseVariant).
func VariantOptions(variant string) ([]runtime.Option, error) {
	if variant == "auto" {
		return nil, nil
	}
	v, err := decider.ParseVariant(variant)
	if err != nil {
		return nil, fmt.Errorf("--variant: %w", err)
	}
	return []runtime.Option{runtime.WithVariant(v)}, nil
}

// ReachedArcs counts the out-arcs of the vertices value reports (the
// reached ones): the edges a traversal of the reached part must examine,
// the numerator of TEPS as in Graph500; at least 1.
func ReachedArcs(g *graph.Graph, value func(uint32) (uint64, bool)) int64 {
	var m int64
	for v := 0; v < g.NumVertices(); v++ {
		if _, ok := value(uint32(v)); ok {
			m += g.Degree(uint32(v))
		}
	}
	return max(m, 1)
}

// WriteValues writes one "id value" line per vertex in g's file ids, "inf"
// where value reports none.
func WriteValues(w io.Writer, g *graph.Graph, value func(uint32) (uint64, bool)) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var buf []byte
	ids := g.IDs()
	for v := 0; v < g.NumVertices(); v++ {
		buf = strconv.AppendUint(buf[:0], ids.External(uint32(v)), 10)
		buf = append(buf, ' ')
		if x, ok := value(uint32(v)); ok {
			buf = strconv.AppendUint(buf, x, 10)
		} else {
			buf = append(buf, "inf"...)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteValuesParents is WriteValues with a third column: each vertex's
// parent in the file's ids, "-" for a source or an unreached vertex.
func WriteValuesParents(w io.Writer, g *graph.Graph, value func(uint32) (uint64, bool), parent func(uint32) (uint32, bool)) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var buf []byte
	ids := g.IDs()
	for v := 0; v < g.NumVertices(); v++ {
		buf = strconv.AppendUint(buf[:0], ids.External(uint32(v)), 10)
		buf = append(buf, ' ')
		if x, ok := value(uint32(v)); ok {
			buf = strconv.AppendUint(buf, x, 10)
		} else {
			buf = append(buf, "inf"...)
		}
		buf = append(buf, ' ')
		if p, ok := parent(uint32(v)); ok {
			buf = strconv.AppendUint(buf, ids.External(p), 10)
		} else {
			buf = append(buf, '-')
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WritePairs writes one "u v" line per pair (internal ids), in g's file
// ids.
func WritePairs(w io.Writer, g *graph.Graph, n int, pair func(i int) (u, v uint32)) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var buf []byte
	ids := g.IDs()
	for i := range n {
		u, v := pair(i)
		buf = strconv.AppendUint(buf[:0], ids.External(u), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendUint(buf, ids.External(v), 10)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
