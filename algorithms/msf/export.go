package msf

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/gearbox-graph/gearbox/graph"
)

// summary is the run's line: forest weight W, E edges, C components.
func summary(r *Result) string {
	w := strconv.FormatInt(r.TotalWeight(), 10)
	if r.WeightKind() == graph.RealWeights {
		w = strconv.FormatFloat(r.TotalWeightFloat(), 'g', -1, 64)
	}
	note := ""
	if r.Directed() {
		note = " (directed input read as undirected)"
	}
	if r.DerivedWeights() {
		note += " (derived weights)"
	}
	return fmt.Sprintf("forest weight %s, %d edges, %d components%s (variant %s: %s)", w, len(r.Edges()), r.NumComponents(), note, r.Variant(), r.Reason())
}

// WriteForest writes one "u v w" line per forest edge, in g's file ids
// (g is the graph the forest was computed on).
func WriteForest(w io.Writer, g *graph.Graph, r *Result) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var buf []byte
	ids := g.IDs()
	real := r.WeightKind() == graph.RealWeights
	for _, e := range r.Edges() {
		buf = strconv.AppendUint(buf[:0], ids.External(e.U), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendUint(buf, ids.External(e.V), 10)
		buf = append(buf, ' ')
		if real {
			buf = strconv.AppendFloat(buf, r.WeightOf(e), 'g', -1, 32)
		} else {
			buf = strconv.AppendUint(buf, uint64(e.Weight), 10)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
