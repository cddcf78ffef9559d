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
	return VariantOptionsOf(decider.ParseVariant, runtime.WithVariant)(variant, nil)
}

// VariantOptionsOf returns a Spec.Options for an algorithm whose variant
// names parse reads: none for "auto" (the adaptive policy), else with of
// the parsed variant.
func VariantOptionsOf[V any](parse func(string) (V, error), with func(V) runtime.Option) func(variant string, params map[string]uint64) ([]runtime.Option, error) {
	return func(variant string, _ map[string]uint64) ([]runtime.Option, error) {
		if variant == "auto" {
			return nil, nil
		}
		v, err := parse(variant)
		if err != nil {
			return nil, fmt.Errorf("--variant: %w", err)
		}
		return []runtime.Option{with(v)}, nil
	}
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
	ids := g.IDs()
	return writeLines(w, "", g.NumVertices(), func(buf []byte, i int) []byte {
		v := uint32(i)
		buf = strconv.AppendUint(buf, ids.External(v), 10)
		buf = append(buf, ' ')
		return appendValue(buf, value, v, "inf")
	})
}

// WriteValuesParents is WriteValues with a third column: each vertex's
// parent in the file's ids, "-" for a source or an unreached vertex.
func WriteValuesParents(w io.Writer, g *graph.Graph, value func(uint32) (uint64, bool), parent func(uint32) (uint32, bool)) error {
	ids := g.IDs()
	return writeLines(w, "", g.NumVertices(), func(buf []byte, i int) []byte {
		v := uint32(i)
		buf = strconv.AppendUint(buf, ids.External(v), 10)
		buf = append(buf, ' ')
		buf = appendValue(buf, value, v, "inf")
		buf = append(buf, ' ')
		if p, ok := parent(v); ok {
			return strconv.AppendUint(buf, ids.External(p), 10)
		}
		return append(buf, '-')
	})
}

// WritePairs writes one "u v" line per pair (internal ids), in g's file
// ids.
func WritePairs(w io.Writer, g *graph.Graph, n int, pair func(i int) (u, v uint32)) error {
	ids := g.IDs()
	return writeLines(w, "", n, func(buf []byte, i int) []byte {
		u, v := pair(i)
		buf = strconv.AppendUint(buf, ids.External(u), 10)
		buf = append(buf, ' ')
		return strconv.AppendUint(buf, ids.External(v), 10)
	})
}

// writeLines writes header, then n lines, line appending the i-th (without
// its newline) to buf; buffered, so a line is never held past its write.
func writeLines(w io.Writer, header string, n int, line func(buf []byte, i int) []byte) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	if _, err := bw.WriteString(header); err != nil {
		return err
	}
	var buf []byte
	for i := range n {
		buf = append(line(buf[:0], i), '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendValue appends value(v) to buf, or none where value reports none.
func appendValue(buf []byte, value func(uint32) (uint64, bool), v uint32, none string) []byte {
	if x, ok := value(v); ok {
		return strconv.AppendUint(buf, x, 10)
	}
	return append(buf, none...)
}
