package tuning

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/gearbox-graph/gearbox/algorithms"
	_ "github.com/gearbox-graph/gearbox/algorithms/all" // the registry's algorithms
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Algorithm names an algorithm of the registry (algorithms.Lookup) that
// bench and tune run (Spec.Benched).
type Algorithm string

// Names of the shipped algorithms, for callers' convenience: tuning's own
// code reads every algorithm through its Spec, none by name.
const (
	BFS  Algorithm = "bfs"
	SSSP Algorithm = "sssp"
	// CC is connected components: no source (each "source" is one more
	// run); its static configurations are the CC algorithms and SV's
	// active-edge representations.
	CC Algorithm = "cc"
)

// Spec returns the algorithm's registry entry (nil for a name that is not
// a benched algorithm's).
func (a Algorithm) Spec() *algorithms.Spec {
	if s, ok := algorithms.Lookup(string(a)); ok && s.Benched {
		return s
	}
	return nil
}

// AlgorithmNames lists the algorithms bench and tune run (Spec.Benched),
// in the registry's order.
func AlgorithmNames() []string {
	var names []string
	for _, s := range algorithms.All() {
		if s.Benched {
			names = append(names, s.Name)
		}
	}
	return names
}

// ErrUnknownAlgorithm is wrapped by ParseAlgorithms.
var ErrUnknownAlgorithm = errors.New("unknown algorithm")

// ParseAlgorithms parses a comma-separated list such as "bfs,sssp".
func ParseAlgorithms(s string) ([]Algorithm, error) {
	var out []Algorithm
	seen := map[Algorithm]bool{}
	for _, f := range strings.Split(s, ",") {
		a := Algorithm(strings.ToLower(strings.TrimSpace(f)))
		if a.Spec() == nil {
			return nil, fmt.Errorf("%w %q (algorithms: %s)", ErrUnknownAlgorithm, f, strings.Join(AlgorithmNames(), ", "))
		}
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out, nil
}

// Param is one tunable knob, named by its thresholds key: one of the
// decider's (and the GPU backend's threads_per_block), below, or an
// algorithm's (algorithms.Spec.Params).
type Param string

// The decider's knobs (and the GPU backend's block size).
const (
	T1          Param = "T1"
	T2          Param = "T2"
	T3          Param = "T3"
	SampleEvery Param = "sample_every"
	Alpha       Param = "alpha"
	Beta        Param = "beta"
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
)

// Knobs of SSSP (algorithms/sssp.Spec.Params) that tuning's own code
// names: Bench runs the ordered statics at each Delta.
const (
	Delta       Param = "delta"
	DeltaFactor Param = "delta_factor"
)

// deciderKnob is one of the decider's knobs: its help and default range
// (algorithms declare theirs in their Spec.Params, Tunable).
type deciderKnob struct {
	p          Param
	doc, sweep string
}

// The structural thresholds come first (T3 and sample_every, the paper's
// Figs. 13 and 14), then the direction parameters; the floors come after
// the algorithms' swept knobs.
var (
	deciderFirst = []deciderKnob{
		{T3, "T3 values, fractions of n", "0.01:0.15:0.02"},
		{SampleEvery, "inspection periods (iterations)", "1:12"},
		{T2, "T2 values (working-set sizes)", "16:1024:x2"},
		{T1, "T1 values (average out-degrees)", ""},
		{Alpha, "alpha values (BFS push->pull)", "5,10,15,20,30"},
		{Beta, "beta values (BFS pull->push)", "6,12,18,24,36"},
	}
	deciderLater = []deciderKnob{
		{ThreadsPerBlock, "GPU threads per block for thread mapping (no effect on the cpu backend)", "64,128,256,512,1024"},
		{PullMinEdges, "fewest frontier out-edges for BFS to pull", ""},
		{BitmapMinVertices, "smallest graph (vertices) that may use a bitmap", ""},
		{JumpFactor, "factors of working-set growth or shrinkage that re-choose the structure between samples, 0 = off", ""},
	}
)

// Params lists every knob in the default coordinate-descent order: the
// decider's structural thresholds and direction parameters, the benched
// algorithms' knobs that have a default range (in registry order, each
// algorithm's in its declared order: SSSP's delta_factor before delta),
// the block size and the decider's floors, then the algorithms' other
// tunable knobs. A knob two algorithms declare is listed once.
func Params() []Param {
	var out []Param
	seen := map[Param]bool{}
	add := func(p Param) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, k := range deciderFirst {
		add(k.p)
	}
	specs := benchedSpecs()
	for _, s := range specs {
		for _, k := range s.Params {
			if k.Tunable && k.Sweep != "" {
				add(Param(k.Key))
			}
		}
	}
	for _, k := range deciderLater {
		add(k.p)
	}
	for _, s := range specs {
		for _, k := range s.Params {
			if k.Tunable {
				add(Param(k.Key))
			}
		}
	}
	return out
}

func benchedSpecs() []*algorithms.Spec {
	var out []*algorithms.Spec
	for _, s := range algorithms.All() {
		if s.Benched {
			out = append(out, s)
		}
	}
	return out
}

// knob returns the knob's help and default range (algorithms' from their
// Spec), and whether it is one.
func (p Param) knob() (doc, sweep string, ok bool) {
	for _, k := range slices.Concat(deciderFirst, deciderLater) {
		if k.p == p {
			return k.doc, k.sweep, true
		}
	}
	for _, s := range algorithms.All() {
		if k, ok := s.Param(string(p)); ok && k.Tunable {
			return k.Doc, k.Sweep, true
		}
	}
	return "", "", false
}

// Doc is the knob's help text.
func (p Param) Doc() string {
	doc, sweep, _ := p.knob()
	if sweep == "" {
		doc += " (empty = not swept)"
	}
	return doc
}

// DefaultRange is the range tune sweeps the knob over by default ("" =
// not swept).
func (p Param) DefaultRange() string {
	_, sweep, _ := p.knob()
	return sweep
}

// integer reports whether the knob takes whole numbers (its decider field
// is an integer, or its owner's default value is).
func (p Param) integer() bool {
	if f, ok := thresholdsField(p); ok {
		return f.Type.Kind() != reflect.Float64
	}
	_, isInt := DefaultSetting().Knobs[string(p)].(int64)
	return isInt
}

// thresholdsField returns the decider.Thresholds field the knob sets, if
// it is one of the decider's.
func thresholdsField(p Param) (reflect.StructField, bool) {
	t := reflect.TypeFor[decider.Thresholds]()
	for i := range t.NumField() {
		if f := t.Field(i); f.Tag.Get("toml") == string(p) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// Affects reports whether the knob can change a run of alg: the keys its
// Spec reads or declares (alpha and beta steer BFS's pull direction only,
// delta SSSP's buckets only; CC's policy reads T1 and T3 alone).
func (p Param) Affects(alg Algorithm) bool {
	s := alg.Spec()
	return s != nil && s.ReadsKey(string(p))
}

// Setting is one point of the tuning space: the decider's thresholds and
// the values of every key the algorithms and the backend own
// (algorithms.Values: SSSP's delta, CC's afforest_min_*, the GPU's
// threads_per_block, 0 = its default).
type Setting struct {
	decider.Thresholds
	Knobs decider.Knobs
}

// DefaultSetting returns the built-in CPU setting: decider.DefaultThresholds
// and each owner's built-in CPU values.
func DefaultSetting() Setting {
	k, err := algorithms.Values(&decider.ThresholdSet{}, "", "")
	if err != nil {
		panic("tuning: built-in values refused: " + err.Error()) // a bug in an owner's defaults
	}
	return Setting{Thresholds: decider.DefaultThresholds(), Knobs: k}
}

// SettingFor returns the setting of a lookup in set: the decider's
// thresholds of device and section (ThresholdSet.LookupFor; a GPU without
// a section: fallback) and the owners' values (algorithms.Values).
func SettingFor(set *decider.ThresholdSet, device, section string, fallback decider.Thresholds) (Setting, error) {
	t, ok := set.LookupFor(lookupDevice(device), section)
	if !ok {
		t = fallback
	}
	k, err := algorithms.Values(set, lookupDevice(device), section)
	if err != nil {
		return Setting{}, err
	}
	return Setting{Thresholds: t, Knobs: k}, nil
}

// Equal reports whether s and o are the same point.
func (s Setting) Equal(o Setting) bool {
	return s.Thresholds == o.Thresholds && maps.Equal(s.Knobs, o.Knobs)
}

// Validate checks the decider's thresholds and the owners' values.
func (s Setting) Validate() error {
	if err := s.Thresholds.Validate(); err != nil {
		return err
	}
	return algorithms.CheckValues(s.Knobs)
}

// Options returns the run options that give a run this setting.
func (s Setting) Options() []runtime.Option {
	return []runtime.Option{runtime.WithThresholds(s.Thresholds), runtime.WithKnobs(s.Knobs)}
}

// Get returns the knob's value in s (NaN for an unknown knob).
func (s Setting) Get(p Param) float64 {
	f, ok := thresholdsField(p)
	if !ok {
		switch v := s.Knobs[string(p)].(type) {
		case int64:
			return float64(v)
		case float64:
			return v
		}
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
// unknown knob leaves s as it is). s's Knobs are not changed: the result
// has a copy.
func (s Setting) With(p Param, v float64) Setting {
	f, ok := thresholdsField(p)
	if !ok {
		if _, known := DefaultSetting().Knobs[string(p)]; !known {
			return s
		}
		s.Knobs = maps.Clone(s.Knobs)
		if s.Knobs == nil {
			s.Knobs = decider.Knobs{}
		}
		if p.integer() {
			s.Knobs[string(p)] = int64(v)
		} else {
			s.Knobs[string(p)] = v
		}
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
	base := DefaultSetting()
	for _, v := range vals {
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
