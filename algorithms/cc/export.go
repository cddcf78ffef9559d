package cc

import (
	"encoding/json"
	"io"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Sizes returns the number of vertices of each component, keyed by its
// label (the smallest internal vertex id in it).
func (r *Result) Sizes() map[uint32]int {
	r.live()
	out := make(map[uint32]int, r.NumComponents())
	for _, l := range r.labels {
		out[l]++
	}
	return out
}

// Members returns the vertices of the component labelled label, in
// increasing internal id; nil when no component has that label.
func (r *Result) Members(label uint32) []uint32 {
	r.live()
	var out []uint32
	for v, l := range r.labels {
		if l == label {
			out = append(out, uint32(v))
		}
	}
	return out
}

// Largest returns the vertices of the largest component (of the smallest
// label among equally large ones), in increasing internal id; nil for the
// empty graph. graph.Subgraph makes it a graph.
func (r *Result) Largest() []uint32 {
	r.live()
	if len(r.labels) == 0 {
		return nil
	}
	return r.Members(r.LargestLabel())
}

// LabelsByID returns every vertex's label keyed by the graph's file id,
// the label as the file id of the component's smallest vertex.
func (r *Result) LabelsByID() map[uint64]uint64 {
	r.live()
	out := make(map[uint64]uint64, len(r.labels))
	for v, l := range r.labels {
		out[r.ids.External(uint32(v))] = r.ids.External(l)
	}
	return out
}

func (r *Result) value(v uint32) (uint64, bool) { return r.ids.External(r.labels[v]), true }

// WriteCSV writes "id,component" and one row per vertex in the graph's
// file ids, the component named by the file id of its smallest vertex.
func (r *Result) WriteCSV(w io.Writer) error {
	r.live()
	return algorithms.WriteCSV(w, r.ids, len(r.labels), "component", r.value)
}

// WriteJSON writes a JSON array of {"id": file id, "component": file id
// of the component's smallest vertex}, one per vertex, streamed.
func (r *Result) WriteJSON(w io.Writer) error {
	r.live()
	return algorithms.WriteJSON(w, r.ids, len(r.labels), "component", r.value)
}

// Summary is what encoding/json gives for a Result: never the n labels
// (WriteJSON writes those). Largest is the largest component's label in
// file ids, absent for the empty graph.
type Summary struct {
	Vertices    int           `json:"vertices"`
	Components  int           `json:"components"`
	Largest     *uint64       `json:"largest,omitempty"`
	LargestSize int           `json:"largest_size"`
	Variant     string        `json:"variant"`
	Reason      string        `json:"reason"`
	Stats       runtime.Stats `json:"stats"`
}

// Summary returns the result's summary.
func (r *Result) Summary() Summary {
	r.live()
	s := Summary{Vertices: len(r.labels), Components: r.NumComponents(), LargestSize: r.LargestSize(),
		Variant: r.variant.String(), Reason: r.reason, Stats: r.stats}
	if l := r.LargestLabel(); l != graph.NoVertex {
		x := r.ids.External(l)
		s.Largest = &x
	}
	return s
}

// MarshalJSON encodes the Summary.
func (r *Result) MarshalJSON() ([]byte, error) { return json.Marshal(r.Summary()) }
