package runtime

import (
	"encoding/json"
	"io"
	"time"

	"github.com/gearbox-graph/gearbox/decider"
)

// Stats are the statistics of one run.
type Stats struct {
	Algorithm  string `json:"algorithm"`
	Backend    string `json:"backend"`
	Policy     string `json:"policy"`
	Iterations int    `json:"iterations"`
	// EdgesRelaxed counts the edges examined by compute steps.
	EdgesRelaxed int64 `json:"edges_relaxed"`
	// Wall is the run's elapsed time (operator set-up and results
	// included); Inspection and Conversion are the parts spent sampling
	// the working set and converting its representation.
	Wall       time.Duration `json:"wall_ns"`
	Inspection time.Duration `json:"inspection_ns"`
	Conversion time.Duration `json:"conversion_ns"`
	Samples    int           `json:"samples"`
	// Switches counts iterations whose variant differs from the previous
	// one.
	Switches int `json:"switches"`
	// Variants counts iterations per variant name.
	Variants map[string]int `json:"variants"`
	// Trace holds one record per iteration when tracing was asked for.
	Trace []IterationRecord `json:"trace,omitempty"`
}

// IterationRecord is one iteration of the trace.
type IterationRecord struct {
	Iteration int             `json:"iteration"`
	Variant   decider.Variant `json:"variant"`
	// Size is the size of the working set the iteration processed.
	Size  int64         `json:"size"`
	Edges int64         `json:"edges"`
	Time  time.Duration `json:"time_ns"`
	// Sampled reports whether the inspector ran after this iteration.
	Sampled bool `json:"sampled"`
}

// WriteJSON writes the statistics as indented JSON.
func (s *Stats) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(s)
}
