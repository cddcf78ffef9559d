package tuning

import (
	"errors"
	"slices"

	"fmt"
	"gonum.org/v1/gonum/stat/distuv"
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
	// paired[i] is value i's scored times, one per source of every pair
	// in the same order for every value, for choose's paired test.
	paired [][]float64
}

func newTally(s Score, values int) *tally {
	return &tally{score: s.norm(), logSum: make([]float64, values), n: make([]int, values), paired: make([][]float64, values)}
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
	per := m.PerSource
	if t.score == ScoreDevice {
		per = m.PerSourceDevice
	}
	if len(per) == 0 { // not known (an old CSV): the pair counts once
		per = []time.Duration{d}
	}
	for _, x := range per {
		t.paired[i] = append(t.paired[i], x.Seconds())
	}
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

// perSource returns m's per-source times that s ranks by, in seconds (nil
// when not known).
func (s Score) perSource(m Measurement) []float64 {
	per := m.PerSource
	if s.norm() == ScoreDevice {
		per = m.PerSourceDevice
	}
	out := make([]float64, len(per))
	for i, d := range per {
		out[i] = d.Seconds()
	}
	return out
}

// medianCI returns a distribution-free confidence interval of the median
// of xs at level conf: the order statistics k and n-1-k where k is the
// largest with P(Binomial(n, 1/2) < k) <= (1-conf)/2. With too few values
// for that level it returns the range; with none, zeros.
func medianCI(xs []float64, conf float64) (lo, hi float64) {
	n := len(xs)
	if n == 0 {
		return 0, 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	b := distuv.Binomial{N: float64(n), P: 0.5}
	k := 0
	for k+1 <= (n-1)/2 && b.CDF(float64(k)) <= (1-conf)/2 {
		k++ // P(X < k+1) = CDF(k) is still within the tail
	}
	return s[k], s[n-1-k]
}
