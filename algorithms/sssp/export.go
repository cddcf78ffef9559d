package sssp

import (
	"encoding/json"
	"io"
	"math"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Unreached is the distance Distances gives a vertex not reached.
const Unreached = math.MaxUint64

// Distances returns every vertex's distance, indexed by internal vertex
// id, Unreached for unreached vertices: a copy, the caller's to keep.
func (r *Result) Distances() []uint64 {
	r.live()
	out := make([]uint64, r.dist.Len())
	for v := range out {
		d, ok := r.dist.At(uint32(v))
		if !ok {
			d = Unreached
		}
		out[v] = d
	}
	return out
}

// DistancesByID returns the distance of every reached vertex keyed by the
// graph's file id.
func (r *Result) DistancesByID() map[uint64]uint64 {
	r.live()
	out := make(map[uint64]uint64)
	for v, d := range r.dist.All() {
		out[r.ids.External(v)] = d
	}
	return out
}

// SourceID returns the source in the graph's file ids.
func (r *Result) SourceID() uint64 { return r.ids.External(r.src) }

// WriteCSV writes "id,distance" and one row per vertex in the graph's
// file ids, the distance empty for unreached vertices.
func (r *Result) WriteCSV(w io.Writer) error {
	r.live()
	return algorithms.WriteCSV(w, r.ids, r.dist.Len(), "distance", r.dist.At)
}

// WriteJSON writes a JSON array of {"id": file id, "distance": d or
// null}, one per vertex, streamed.
func (r *Result) WriteJSON(w io.Writer) error {
	r.live()
	return algorithms.WriteJSON(w, r.ids, r.dist.Len(), "distance", r.dist.At)
}

// Summary is what encoding/json gives for a Result: never the n distances
// (WriteJSON writes those). MaxDistance is absent when nothing was
// reached.
type Summary struct {
	Source      uint64        `json:"source"`
	Vertices    int           `json:"vertices"`
	Reached     int           `json:"reached"`
	MaxDistance *uint64       `json:"max_distance,omitempty"`
	Delta       uint64        `json:"delta"`
	Stats       runtime.Stats `json:"stats"`
}

// Summary returns the result's summary, the source in file ids.
func (r *Result) Summary() Summary {
	r.live()
	s := Summary{Source: r.SourceID(), Vertices: r.NumVertices(), Reached: r.NumReached(), Delta: r.delta, Stats: r.stats}
	if m, ok := r.MaxDistance(); ok {
		s.MaxDistance = &m
	}
	return s
}

// MarshalJSON encodes the Summary.
func (r *Result) MarshalJSON() ([]byte, error) { return json.Marshal(r.Summary()) }
