package tuning

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gearbox-graph/gearbox/runtime"
)

// Score names the time a tune sweep ranks a knob's values by.
type Score string

const (
	// ScoreWall ranks by the median wall time of the whole call (the
	// default; the zero Score means it).
	ScoreWall Score = "wall"
	// ScoreDevice ranks by the median device time (Measurement.Device):
	// the iterations' kernels and control-block reads, without the set-up
	// and the result copy, which no threshold changes and which, for short
	// traversals, are most of the wall time and of its noise. GPU only.
	ScoreDevice Score = "device"
)

var (
	// ErrUnknownScore is wrapped by ParseScore.
	ErrUnknownScore = errors.New("unknown score")
	// ErrNoDeviceTime means a device score met a backend or a
	// measurement without device time.
	ErrNoDeviceTime = errors.New("no device time")
)

// Scores lists the valid scores.
func Scores() []Score { return []Score{ScoreWall, ScoreDevice} }

// ParseScore parses a score name ("wall" or "device").
func ParseScore(name string) (Score, error) {
	var names []string
	for _, s := range Scores() {
		if string(s) == name {
			return s, nil
		}
		names = append(names, string(s))
	}
	return "", fmt.Errorf("%w %q (valid: %s)", ErrUnknownScore, name, strings.Join(names, ", "))
}

// norm returns s with the zero value read as ScoreWall.
func (s Score) norm() Score {
	if s == "" {
		return ScoreWall
	}
	return s
}

// Check reports, before any run, a score that is unknown or that the
// backend cannot measure: a backend without a device (the CPU's Device()
// is "") records no device time, and every value would score 0.
func (s Score) Check(b runtime.Backend) error {
	s = s.norm()
	if _, err := ParseScore(string(s)); err != nil {
		return fmt.Errorf("--score: %w", err)
	}
	if s == ScoreDevice && b.Device() == "" {
		return fmt.Errorf("--score device: the %s backend is not a GPU, so it measures %w; run with --device cuda, or score by --score wall",
			b.Name(), ErrNoDeviceTime)
	}
	return nil
}

// Time returns the time of m that s ranks by.
func (s Score) Time(m Measurement) time.Duration {
	if s.norm() == ScoreDevice {
		return m.Device
	}
	return m.Median
}

// Describe says, for reports, what s ranks by.
func (s Score) Describe() string {
	if s.norm() == ScoreDevice {
		return "median device time (kernels and control-block reads; set-up and result copy excluded)"
	}
	return "median wall time"
}

// tally accumulates one knob's scores: per value, the geometric mean over
// the algorithm-graph pairs of the scored time, so every graph counts the
// same however large.
type tally struct {
	score  Score
	logSum []float64
	n      []int
}

func newTally(s Score, values int) *tally {
	return &tally{score: s.norm(), logSum: make([]float64, values), n: make([]int, values)}
}

// add takes value i's measurement on one pair. A device score refuses a 0
// device time (an operator that does not split out its GPU time) rather
// than rank it as infinitely fast.
func (t *tally) add(i int, m Measurement) error {
	d := t.score.Time(m)
	if t.score == ScoreDevice && d <= 0 {
		return fmt.Errorf("%w: the backend reported 0 for this run, which a device score cannot rank; score by --score wall", ErrNoDeviceTime)
	}
	t.logSum[i] += math.Log(max(d.Seconds(), 1e-9))
	t.n[i]++
	return nil
}

// scores returns each value's score in seconds.
func (t *tally) scores() []float64 {
	out := make([]float64, len(t.logSum))
	for i, l := range t.logSum {
		out[i] = math.Exp(l / float64(max(t.n[i], 1)))
	}
	return out
}
