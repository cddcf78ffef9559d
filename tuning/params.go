package tuning

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/gearbox-graph/gearbox/decider"
)

// Algorithm names a traversal the sweeps run.
type Algorithm string

// The algorithms tuning and benchmarking know.
const (
	BFS  Algorithm = "bfs"
	SSSP Algorithm = "sssp"
	// CC is connected components: no source (each "source" is one more
	// run); its static configurations are the CC algorithms and SV's
	// active-edge representations.
	CC Algorithm = "cc"
)

// ErrUnknownAlgorithm is wrapped by ParseAlgorithms.
var ErrUnknownAlgorithm = errors.New("unknown algorithm")

// ParseAlgorithms parses a comma-separated list such as "bfs,sssp".
func ParseAlgorithms(s string) ([]Algorithm, error) {
	var out []Algorithm
	seen := map[Algorithm]bool{}
	for _, f := range strings.Split(s, ",") {
		a := Algorithm(strings.ToLower(strings.TrimSpace(f)))
		if a != BFS && a != SSSP && a != CC {
			return nil, fmt.Errorf("%w %q (algorithms: bfs, sssp, cc)", ErrUnknownAlgorithm, f)
		}
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out, nil
}

// Param is one tunable knob.
type Param string

// The knobs a sweep can vary.
const (
	T1          Param = "T1"
	T2          Param = "T2"
	T3          Param = "T3"
	SampleEvery Param = "sample_every"
	Alpha       Param = "alpha"
	Beta        Param = "beta"
	Delta       Param = "delta"
	// DeltaFactor derives SSSP's delta from each graph (0 = use Delta;
	// decider.Thresholds.DeltaFor).
	DeltaFactor Param = "delta_factor"
	// ThreadsPerBlock is the GPU thread-mapping block size. Only a backend
	// implementing ThreadsPerBlockSetter uses it; elsewhere it is recorded
	// but not swept.
	ThreadsPerBlock Param = "threads_per_block"
	// PullMinEdges and BitmapMinVertices are the floors below which the
	// adaptive policy never pulls or uses a bitmap. Not swept by default.
	PullMinEdges      Param = "pull_min_edges"
	BitmapMinVertices Param = "bitmap_min_vertices"
	// JumpFactor re-chooses the structure between samples when the
	// working set's size jumps by it (0 = off). Not swept by default.
	JumpFactor Param = "jump_factor"
	// BucketEdges is the out-edges the adaptive SSSP's work-targeted
	// buckets take (0 = fixed delta buckets). Not swept by default.
	BucketEdges Param = "bucket_edges"
	// BucketDeltaFactor derives the narrowest work-targeted bucket (0 =
	// the graph's delta); LaunchDeltaFactor widens the adaptive SSSP's
	// buckets inside persistent launches on sparse graphs (0 = delta;
	// decider.Thresholds.LaunchDelta). Not swept by default.
	BucketDeltaFactor Param = "bucket_delta_factor"
	LaunchDeltaFactor Param = "launch_delta_factor"
	// BucketDeltaMinSkew is the degree skew from which BucketDeltaFactor
	// applies (0 = every graph). Not swept by default.
	BucketDeltaMinSkew Param = "bucket_delta_min_skew"
	// OrderedMinVertices and OrderedMinDegree are the adaptive SSSP's
	// order rule: ordered buckets on graphs of at least this many vertices
	// and this average out-degree, unordered below. Not swept by default.
	OrderedMinVertices Param = "ordered_min_vertices"
	OrderedMinDegree   Param = "ordered_min_degree"
	// OrderedMinVerticesSkewed is the rule's floor for skewed graphs.
	OrderedMinVerticesSkewed Param = "ordered_min_vertices_skewed"
)

// Params lists every knob in the default coordinate-descent order: the
// structural thresholds first (T3 and sample_every, the paper's Figs. 13
// and 14), then the direction and bucket parameters (delta_factor before
// delta: delta only matters where the factor is 0).
func Params() []Param {
	return []Param{T3, SampleEvery, T2, T1, Alpha, Beta, DeltaFactor, Delta, ThreadsPerBlock, PullMinEdges, BitmapMinVertices, JumpFactor, BucketEdges,
		BucketDeltaFactor, BucketDeltaMinSkew, LaunchDeltaFactor, OrderedMinVertices, OrderedMinDegree, OrderedMinVerticesSkewed}
}

// integer reports whether the knob takes whole numbers (its thresholds
// field is an integer).
func (p Param) integer() bool {
	f, ok := thresholdsField(p)
	return ok && f.Type.Kind() != reflect.Float64
}

// thresholdsField returns the decider.Thresholds field the knob sets:
// every Param is named by its field's thresholds-file key, so a new knob
// needs no accessor of its own.
func thresholdsField(p Param) (reflect.StructField, bool) {
	t := reflect.TypeFor[decider.Thresholds]()
	for i := range t.NumField() {
		if f := t.Field(i); f.Tag.Get("toml") == string(p) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// Affects reports whether the knob can change a run of alg: alpha and
// beta steer BFS's pull direction only, delta SSSP's buckets only; CC's
// policy reads T1 (average degree for its variant choice) and T3 (active-edge
// bitmap or queue) alone.
func (p Param) Affects(alg Algorithm) bool {
	if alg == CC {
		return p == T1 || p == T3
	}
	switch p {
	case Alpha, Beta, PullMinEdges:
		return alg == BFS
	case Delta, DeltaFactor, BucketEdges, BucketDeltaFactor, BucketDeltaMinSkew, LaunchDeltaFactor, OrderedMinVertices, OrderedMinDegree, OrderedMinVerticesSkewed:
		return alg == SSSP
	}
	return true
}

// Setting is one point of the tuning space: the decider's thresholds
// (which include the GPU block size, 0 = the backend's default).
type Setting struct {
	decider.Thresholds
}

// Get returns the knob's value in s (NaN for an unknown knob).
func (s Setting) Get(p Param) float64 {
	f, ok := thresholdsField(p)
	if !ok {
		return math.NaN()
	}
	v := reflect.ValueOf(s.Thresholds).FieldByIndex(f.Index)
	switch v.Kind() {
	case reflect.Float64:
		return v.Float()
	case reflect.Uint64:
		return float64(v.Uint())
	}
	return float64(v.Int())
}

// With returns s with the knob set to v (integer knobs truncate v; an
// unsigned one takes at least 0; an unknown knob leaves s as it is).
func (s Setting) With(p Param, v float64) Setting {
	f, ok := thresholdsField(p)
	if !ok {
		return s
	}
	fv := reflect.ValueOf(&s.Thresholds).Elem().FieldByIndex(f.Index)
	switch fv.Kind() {
	case reflect.Float64:
		fv.SetFloat(v)
	case reflect.Uint64:
		fv.SetUint(uint64(max(v, 0)))
	default:
		fv.SetInt(int64(v))
	}
	return s
}

// Sweep is the list of values one knob takes in coordinate descent.
type Sweep struct {
	Param  Param
	Values []float64
}

// NewSweep parses a range (see ParseFloats) for p and checks that every
// value is valid for it (a whole number for integer knobs, within the
// decider's limits), so a bad value fails before any run.
func NewSweep(p Param, spec string) (Sweep, error) {
	var vals []float64
	if p.integer() {
		is, err := ParseInts(spec)
		if err != nil {
			return Sweep{}, fmt.Errorf("--%s: %w", p.Flag(), err)
		}
		for _, i := range is {
			vals = append(vals, float64(i))
		}
	} else {
		fs, err := ParseFloats(spec)
		if err != nil {
			return Sweep{}, fmt.Errorf("--%s: %w", p.Flag(), err)
		}
		vals = fs
	}
	base := Setting{Thresholds: decider.DefaultThresholds()}
	f, known := thresholdsField(p)
	for _, v := range vals {
		// With stores a negative value of an unsigned knob (delta) as 0,
		// and the error would then name 0 instead of the value given.
		if known && f.Type.Kind() == reflect.Uint64 && v < 0 {
			err := base.With(p, 0).Validate()
			want := ">= 0"
			if err != nil {
				want = ">= 1"
			}
			return Sweep{}, fmt.Errorf("--%s %s: value %v: %w: %s = %v, want %s", p.Flag(), spec, v, decider.ErrThresholds, p, v, want)
		}
		if err := base.With(p, v).Validate(); err != nil {
			return Sweep{}, fmt.Errorf("--%s %s: value %v: %w", p.Flag(), spec, v, err)
		}
	}
	return Sweep{Param: p, Values: vals}, nil
}

// Flag is the knob's command-line flag name (without the leading dashes):
// its thresholds key in lower case, dashes for underscores.
func (p Param) Flag() string { return strings.ReplaceAll(strings.ToLower(string(p)), "_", "-") }

// formatValue prints a knob's value without float noise.
func formatValue(p Param, v float64) string {
	if p.integer() {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
