package runtime

import (
	"encoding/json"
	"io"
	"time"

	"github.com/gearbox-graph/gearbox/decider"
)

// Stats are the statistics of one run.
type Stats struct {
	// Graph and Source say what the run was of, where the caller set
	// them (gearbox run does, for its traces): the input's name and the
	// source in the file's ids. The engine leaves them empty.
	Graph  string  `json:"graph,omitempty"`
	Source *uint64 `json:"source,omitempty"`

	Algorithm  string `json:"algorithm"`
	Backend    string `json:"backend"`
	Policy     string `json:"policy"`
	Iterations int    `json:"iterations"`
	// EdgesRelaxed counts the edges examined by compute steps.
	EdgesRelaxed int64 `json:"edges_relaxed"`
	// Wall is the run's elapsed time from the first iteration's start to
	// the results on the host (a GPU operator's set-up and graph upload,
	// which happen when it is created, are outside it: see GPU);
	// Inspection and Conversion are the parts spent sampling the working
	// set and converting its representation. On a GPU, Conversion holds
	// the host's share (enqueueing) and the conversion kernels run before
	// the next iteration's, inside its time; with tracing on (exact
	// timing) the conversion waits for its kernels and holds them too.
	// Where the generation wrote both representations (see
	// OperatorInfo.DualGeneration) a conversion is a buffer swap, with no
	// kernel.
	Wall       time.Duration `json:"wall_ns"`
	Inspection time.Duration `json:"inspection_ns"`
	Conversion time.Duration `json:"conversion_ns"`
	Samples    int           `json:"samples"`
	// Switches counts iterations whose variant differs from the previous
	// one.
	Switches int `json:"switches"`
	// Variants counts iterations per variant name.
	Variants map[string]int `json:"variants"`
	// Counters sums the operator's own counts over the run's steps
	// (StepResult.Counts: the GPU BFS's "pull_levels", the levels its
	// persistent launches pulled); nil when it reported none.
	Counters map[string]int64 `json:"counters,omitempty"`
	// Trace holds one record per iteration when tracing was asked for.
	Trace []IterationRecord `json:"trace,omitempty"`
	// GPU splits a GPU run's time; nil on the CPU.
	GPU *GPUTimes `json:"gpu,omitempty"`
}

// GPUTimes splits a GPU run's time (host clock; the device work is
// synchronised where it is measured).
type GPUTimes struct {
	// Kernels is the time from an iteration's first launch until its
	// results are on the host: the kernels, and the read of the 64-byte
	// control block that waits for them. With tracing on, the operator
	// synchronises before that read, so Kernels holds the kernels alone
	// and the read counts under Transfers (one extra synchronisation per
	// iteration, a few microseconds).
	Kernels time.Duration `json:"kernels_ns"`
	// Transfers is the time spent copying between host and device: the
	// initial working set, the result, and the control-block reads when
	// they are measured apart.
	Transfers time.Duration `json:"transfers_ns"`
	// Setup is allocating and initialising the per-run device state when
	// the operator is created (not part of Wall).
	Setup time.Duration `json:"setup_ns"`
	// Upload is the graph's one-time upload when the operator is created
	// (0 when it was already on the device; not part of Wall).
	Upload time.Duration `json:"upload_ns"`
	// Launches counts kernel launches; Levels counts the levels run inside
	// persistent multi-level launches (BFS, SSSP on small frontiers).
	Launches int64 `json:"launches"`
	Levels   int64 `json:"device_levels"`
	// LocalLevels counts those of Levels that one block ran alone (small
	// frontiers: gpu.WithLocalLevels).
	LocalLevels int64 `json:"local_levels"`
	// ResultBehindLaunch reports that the result was copied behind the
	// persistent launch that finished the traversal, with no read of its
	// own (results of at most 16K values: the frontier kit's CUDATraversal.SpeculateOn).
	ResultBehindLaunch bool `json:"result_behind_launch,omitempty"`
	// ResultBits is the width in bits of each value of the result as
	// copied to, and kept on, the host (hostmem.Values): the fewest of 8,
	// 16 and 32 that its largest value needs (BFS depths of fewer than 255
	// levels are bytes), 32 for results under gpu.WithNarrowMin's values, 64 for
	// 64-bit SSSP distances.
	ResultBits int `json:"result_bits,omitempty"`
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
	// Levels is the number of levels the iteration ran: 1, or more for a
	// persistent GPU launch.
	Levels int `json:"levels"`
	// Counts are the operator's own counts of the iteration
	// (StepResult.Counts).
	Counts map[string]int64 `json:"counts,omitempty"`
}

// WriteJSON writes the statistics as indented JSON.
func (s *Stats) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(s)
}
