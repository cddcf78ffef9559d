package bfs

import (
	"encoding/json"

	"github.com/gearbox-graph/gearbox/algorithms/internal/search"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Depths returns every vertex's depth, indexed by internal vertex id, -1
// for unreached vertices: a copy, the caller's to keep.
func (r *Result) Depths() []int { return search.Dense(&r.Result, -1, toInt) }

// DepthsByID returns the depth of every reached vertex keyed by the
// graph's file id (as in the input file; see graph.IDMap).
func (r *Result) DepthsByID() map[uint64]int { return search.ByID(&r.Result, toInt) }

func toInt(d uint64) int { return int(d) }

// Summary is what encoding/json gives for a Result: never the n depths
// (WriteJSON writes those).
type Summary struct {
	search.Summary
	MaxDepth int           `json:"max_depth"`
	Stats    runtime.Stats `json:"stats"`
}

// Summary returns the result's summary, the source in file ids.
func (r *Result) Summary() Summary {
	return Summary{Summary: search.SummaryOf(&r.Result), MaxDepth: r.MaxDepth(), Stats: r.Stats()}
}

// MarshalJSON encodes the Summary.
func (r *Result) MarshalJSON() ([]byte, error) { return json.Marshal(r.Summary()) }
