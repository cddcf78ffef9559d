package sssp

import (
	"encoding/json"
	"math"

	"github.com/gearbox-graph/gearbox/algorithms/internal/search"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Unreached is the distance Distances gives a vertex not reached.
const Unreached = math.MaxUint64

// Distances returns every vertex's distance, indexed by internal vertex
// id, Unreached for unreached vertices: a copy, the caller's to keep.
func (r *Result) Distances() []uint64 { return search.Dense(&r.Result, Unreached, same) }

// DistancesByID returns the distance of every reached vertex keyed by the
// graph's file id.
func (r *Result) DistancesByID() map[uint64]uint64 { return search.ByID(&r.Result, same) }

func same(d uint64) uint64 { return d }

// Summary is what encoding/json gives for a Result: never the n distances
// (WriteJSON writes those). MaxDistance is absent when nothing was
// reached.
type Summary struct {
	search.Summary
	MaxDistance *uint64       `json:"max_distance,omitempty"`
	Delta       uint64        `json:"delta"`
	Stats       runtime.Stats `json:"stats"`
}

// Summary returns the result's summary, the source in file ids.
func (r *Result) Summary() Summary {
	s := Summary{Summary: search.SummaryOf(&r.Result), Delta: r.delta, Stats: r.Stats()}
	if m, ok := r.MaxDistance(); ok {
		s.MaxDistance = &m
	}
	return s
}

// MarshalJSON encodes the Summary.
func (r *Result) MarshalJSON() ([]byte, error) { return json.Marshal(r.Summary()) }
