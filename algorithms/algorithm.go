package algorithms

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Spec describes one algorithm to every driver (gearbox run, bench and
// tune, the thresholds loader), as an analysis.Analyzer does for go vet:
// the drivers read these values instead of keeping lists of their own.
// Algorithm packages build theirs and Register it in an init function.
type Spec struct {
	// Name is the command-line name: lower-case letters, digits and _.
	Name string
	// Section names the per-algorithm thresholds section its runs read
	// ([cpu.<section>], the name it gives runtime.NewConfigFor); "" =
	// Name.
	Section string
	// Doc is one line for the help text.
	Doc string
	// Sourced reports whether a run starts from a source vertex.
	Sourced bool
	// Targeted reports whether a run needs a target vertex too (stcon),
	// given to Run as WithTarget.
	Targeted bool
	// InArcs reports that a run on a directed graph reads in-arcs (a pull
	// direction, a backward search), which the graph's cached transpose
	// gives: drivers build it before timing, so that the first run is not
	// charged for it. Recording parents reads in-arcs too.
	InArcs bool
	// Parents, if set, returns the option that makes a run record parents,
	// so that its Outcome has a Path and its Write a parent column (bfs,
	// sssp: their WithParents). Drivers add it for --target and --parents.
	Parents func() runtime.Option
	// Weighted reports whether the algorithm needs integer arc weights:
	// drivers give an unweighted graph weights derived from their seed,
	// and CheckGraph refuses the rest.
	Weighted bool
	// Variants lists the static variants Options accepts besides "auto"
	// (the adaptive policy).
	Variants []string
	// Params are the algorithm's own knobs: keys of its thresholds section
	// and, with Flag, options of gearbox run. They are the single list of
	// the keys it owns: the thresholds loader accepts a key the decider
	// does not own only where a registered algorithm (or the backend,
	// BackendParams) lists it.
	Params []Param
	// ParamValues, if set, decodes the algorithm's keys from the layers of
	// one thresholds lookup (decider.ThresholdSet.KnobsFor) and returns
	// their effective values (decider.KnobsOf of its parameters), or the
	// error for a value it refuses, naming the key. The loader calls it for
	// every section, so a bad value fails when the file is read; tune
	// starts from its values.
	ParamValues func(layers decider.KnobLayers, found bool) (decider.Knobs, error)
	// ValueFor, if set, returns the value of the Flag param key (SSSP's
	// delta) that a run on g with opts would use, for bench's rows.
	ValueFor func(key string, g *graph.Graph, opts ...runtime.Option) (uint64, error)
	// Reads lists the keys of the decider's (and the backend's) thresholds
	// that change its runs: tune sweeps a key only on the algorithms that
	// read it.
	Reads []string
	// OwnFlags reports that `gearbox run NAME` parses flags of its own
	// (max-flow's several terminals and its cut file); the registry's
	// other readers use the Spec as any other.
	OwnFlags bool
	// Benched reports whether gearbox bench and tune run it.
	Benched bool
	// Statics are the static configurations bench compares the adaptive
	// policy with, in order; nil: one per Variants entry (Options of its
	// name).
	Statics []Static
	// CheckGraph, if set, returns the error Run would give for a graph it
	// cannot use, so drivers refuse it before any run.
	CheckGraph func(g *graph.Graph) error
	// Options turns a variant name ("auto" or one of Variants) and the
	// values of the Flag params given (by key; 0 = not given) into options
	// for Run. Its errors are about the values given.
	Options func(variant string, flags map[string]uint64) ([]runtime.Option, error)
	// Run runs the algorithm on g from src (ignored without Sourced).
	Run func(ctx context.Context, g *graph.Graph, src uint32, opts ...runtime.Option) (*Outcome, error)
	// Reference runs the serial reference from src, the baseline of
	// bench's speedups.
	Reference func(g *graph.Graph, src uint32) error
}

// Static is one static configuration of bench.
type Static struct {
	// Name labels its rows (a variant's name, or e.g. "sv_BM").
	Name    string
	Options []runtime.Option
	// PerValue names a Flag param the configuration runs once per value
	// of bench's list for it (SSSP's ordered variants: "delta"); "" = once.
	PerValue string
}

// BenchStatics returns the spec's Statics, or one per variant.
func (s *Spec) BenchStatics() ([]Static, error) {
	if s.Statics != nil {
		return s.Statics, nil
	}
	out := make([]Static, 0, len(s.Variants))
	for _, v := range s.Variants {
		opts, err := s.Options(v, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, Static{Name: v, Options: opts})
	}
	return out, nil
}

// Param is one knob of an algorithm.
type Param struct {
	// Key is its thresholds key; its command-line flag is the key with
	// dashes for underscores.
	Key string
	// Doc says what it sets, for the help text.
	Doc string
	// GPUOnly reports whether only GPU backends read it (tune sweeps it
	// only where the backend takes a block size).
	GPUOnly bool
	// Tunable reports whether gearbox tune may sweep it (--<flag> RANGE).
	Tunable bool
	// Sweep is tune's default range for it ("" = not swept unless asked).
	Sweep string
	// Flag reports whether gearbox run takes --<flag> for it: a whole
	// number, where 0 keeps the thresholds' value.
	Flag bool
}

// FlagName is the knob's command-line flag (without the dashes).
func (p Param) FlagName() string { return strings.ReplaceAll(p.Key, "_", "-") }

// Outcome is one run as the drivers report it. Its functions are called
// after the run's timing: they may read the whole result.
type Outcome struct {
	Stats runtime.Stats
	// Edges returns the edges the run had to examine: MTEPS's numerator.
	Edges func() int64
	// Summary returns one line of results.
	Summary func() string
	// Verify checks the result against the algorithm's properties or
	// its serial reference.
	Verify func() error
	// Write writes the result for --out, in the graph's file ids.
	Write func(w io.Writer) error
	// Result is the algorithm's result value; encoding/json gives its
	// summary (source, reached, stats: never n values). nil: Summary
	// stands for it.
	Result any
	// Release gives the result's memory back for the next run; the
	// outcome must not be used afterwards.
	Release func()
	// Path, where the run recorded parents (Spec.Parents) or searched for
	// a target (Spec.Targeted), returns a shortest path from the source
	// to t in internal ids, and false when there is none.
	Path func(t uint32) ([]uint32, bool)
}

// WithTarget gives a Targeted algorithm's run its target vertex (an
// internal id).
func WithTarget(t uint32) runtime.Option { return runtime.WithValue(targetKey{}, t) }

type targetKey struct{}

// TargetOf returns WithTarget's vertex among opts, and whether one was
// given.
func TargetOf(opts ...runtime.Option) (uint32, bool) {
	v, ok := runtime.NewConfig(opts...).Value(targetKey{})
	t, _ := v.(uint32)
	return t, ok
}

var registry struct {
	sync.Mutex
	specs map[string]*Spec
}

// Register adds s to the registry. It panics on a spec without a name,
// Options or Run, or a name registered twice: programming errors of an
// init function.
func Register(s *Spec) {
	if s == nil || !decider.ValidAlgName(s.Name) || s.Section != "" && !decider.ValidAlgName(s.Section) || s.Options == nil || s.Run == nil {
		panic(fmt.Sprintf("algorithms: Register of an incomplete spec %+v", s))
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.specs == nil {
		registry.specs = map[string]*Spec{}
	}
	if _, dup := registry.specs[s.Name]; dup {
		panic("algorithms: Register called twice for " + s.Name)
	}
	registry.specs[s.Name] = s
}

// Lookup returns the registered spec of name.
func Lookup(name string) (*Spec, bool) {
	registry.Lock()
	defer registry.Unlock()
	s, ok := registry.specs[name]
	return s, ok
}

// All returns the registered specs in name order.
func All() []*Spec {
	registry.Lock()
	defer registry.Unlock()
	out := make([]*Spec, 0, len(registry.specs))
	for _, s := range registry.specs {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *Spec) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Names returns the registered names in order.
func Names() []string {
	var names []string
	for _, s := range All() {
		names = append(names, s.Name)
	}
	return names
}

// Param returns the spec's knob of key.
func (s *Spec) Param(key string) (Param, bool) {
	for _, p := range s.Params {
		if p.Key == key {
			return p, true
		}
	}
	return Param{}, false
}

// ReadsKey reports whether key (a decider's, backend's or its own
// thresholds key) changes the algorithm's runs.
func (s *Spec) ReadsKey(key string) bool {
	_, own := s.Param(key)
	return own || slices.Contains(s.Reads, key)
}

// ParseVariantName returns the index of s (spaces trimmed, case ignored)
// in names, an algorithm's variant names in the order of its Variant
// values; an unknown name is an error wrapping errUnknown that lists the
// valid ones.
func ParseVariantName[V ~uint8](s string, names []string, errUnknown error) (V, error) {
	t := strings.TrimSpace(s)
	for i, name := range names {
		if strings.EqualFold(t, name) {
			return V(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q (valid: %s)", errUnknown, s, strings.Join(names, ", "))
}

// Backends is one algorithm's table of operator constructors, one per
// backend kind ("cpu", "cuda"), all with one signature: R is what the
// algorithm's operators are built from. Each backend's file registers its
// constructor (the cuda build's in an init function), so Run asks the
// table instead of switching on the backend's type, and a backend's code is
// reachable from the table alone.
type Backends[R, Op any] struct {
	kinds []string
	news  []func(b runtime.Backend, r R) (Op, bool)
}

// Register adds the constructor of a backend kind. A constructor reports
// false for a backend that is not of its kind, or a request it cannot
// run.
func (t *Backends[R, Op]) Register(kind string, f func(b runtime.Backend, r R) (Op, bool)) {
	t.kinds = append(t.kinds, kind)
	t.news = append(t.news, f)
}

// RegisterCPU adds the "cpu" constructor: f gets the CPU backend, and
// other backends are refused without calling it.
func (t *Backends[R, Op]) RegisterCPU(f func(c *runtime.CPU, r R) Op) {
	t.Register("cpu", func(b runtime.Backend, r R) (Op, bool) {
		c, ok := b.(*runtime.CPU)
		if !ok {
			var zero Op
			return zero, false
		}
		return f(c, r), true
	})
}

// New builds the operator for b: the first constructor that takes it.
func (t *Backends[R, Op]) New(b runtime.Backend, r R) (Op, bool) {
	for _, f := range t.news {
		if op, ok := f(b, r); ok {
			return op, true
		}
	}
	var zero Op
	return zero, false
}

// Kinds lists the registered backend kinds.
func (t *Backends[R, Op]) Kinds() []string { return slices.Clone(t.kinds) }
