package bfs

import (
	"encoding/json"
	"io"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Depths returns every vertex's depth, indexed by internal vertex id, -1
// for unreached vertices: a copy, the caller's to keep.
func (r *Result) Depths() []int {
	r.live()
	out := make([]int, r.depth.Len())
	for v := range out {
		d, ok := r.depth.At(uint32(v))
		if !ok {
			out[v] = -1
			continue
		}
		out[v] = int(d)
	}
	return out
}

// DepthsByID returns the depth of every reached vertex keyed by the
// graph's file id (as in the input file; see graph.IDMap).
func (r *Result) DepthsByID() map[uint64]int {
	r.live()
	out := make(map[uint64]int)
	for v, d := range r.depth.All() {
		out[r.ids.External(v)] = int(d)
	}
	return out
}

// SourceID returns the source in the graph's file ids.
func (r *Result) SourceID() uint64 { return r.ids.External(r.src) }

func (r *Result) value(v uint32) (uint64, bool) { return r.depth.At(v) }

// WriteCSV writes "id,depth" and one row per vertex in the graph's file
// ids, the depth empty for unreached vertices.
func (r *Result) WriteCSV(w io.Writer) error {
	r.live()
	return algorithms.WriteCSV(w, r.ids, r.depth.Len(), "depth", r.value)
}

// WriteJSON writes a JSON array of {"id": file id, "depth": d or null},
// one per vertex, streamed.
func (r *Result) WriteJSON(w io.Writer) error {
	r.live()
	return algorithms.WriteJSON(w, r.ids, r.depth.Len(), "depth", r.value)
}

// Summary is what encoding/json gives for a Result: never the n depths
// (WriteJSON writes those).
type Summary struct {
	Source   uint64        `json:"source"`
	Vertices int           `json:"vertices"`
	Reached  int           `json:"reached"`
	MaxDepth int           `json:"max_depth"`
	Stats    runtime.Stats `json:"stats"`
}

// Summary returns the result's summary, the source in file ids.
func (r *Result) Summary() Summary {
	r.live()
	return Summary{Source: r.SourceID(), Vertices: r.NumVertices(), Reached: r.NumReached(), MaxDepth: r.MaxDepth(), Stats: r.stats}
}

// MarshalJSON encodes the Summary.
func (r *Result) MarshalJSON() ([]byte, error) { return json.Marshal(r.Summary()) }
