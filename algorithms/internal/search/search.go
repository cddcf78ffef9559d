// Package search is what the sourced searches that give every reached
// vertex a value (bfs's hop depths, sssp's distances) share: the result
// their Result types embed (its sources, the values at the width the run
// produced, the parent tree of WithParents, the statistics and the file
// ids, with their accessors and exports), the checks of a run's sources
// and of what only the CPU backend runs, and the parent option. The two
// packages keep what differs: the value's type and name, and how a run
// and its parent pass go.
package search

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/runtime"
)

// ErrSource is wrapped when a run has no source or one out of range: the
// packages' ErrSource.
var ErrSource = errors.New("source vertex out of range")

// Result is one search's result. The packages' Results embed it, so its
// methods are theirs (with their own docs for the value: Depth, Distance);
// all but Source, Sources and SourceID panic after Release.
type Result struct {
	// name is the algorithm, for the panic of a use after Release.
	name string
	// column names the value in WriteCSV's and WriteJSON's output.
	column string
	src    uint32
	srcs   []uint32 // RunMulti's sources (nil: src alone)
	// parent is WithParents' tree (nil without it).
	parent []uint32
	// values are held at the width the run produced (hostmem.Values), so
	// the result is never widened.
	values hostmem.Values
	stats  runtime.Stats
	// ids are the graph's file ids, for the exports.
	ids graph.IDMap
	// released is set by Release; the result is unusable after it.
	released bool
}

// New returns the result of a run of the algorithm name from srcs on g
// (multi: RunMulti's sources, kept; else srcs[0] alone), its values named
// column in the exports. values and stats are empty for an empty graph.
func New(name, column string, g *graph.Graph, srcs []uint32, multi bool, values hostmem.Values, stats runtime.Stats) Result {
	r := Result{name: name, column: column, src: srcs[0], values: values, stats: stats, ids: g.IDs()}
	if multi {
		r.srcs = slices.Clone(srcs)
	}
	return r
}

// Source returns the source vertex (RunMulti's first).
func (r *Result) Source() uint32 { return r.src }

// Sources returns the run's sources: RunMulti's, or Run's one.
func (r *Result) Sources() []uint32 {
	if r.srcs != nil {
		return r.srcs
	}
	return []uint32{r.src}
}

// SourceID returns the source in the graph's file ids.
func (r *Result) SourceID() uint64 { return r.ids.External(r.src) }

// NumVertices returns the number of vertices of the graph searched.
func (r *Result) NumVertices() int {
	r.live()
	return r.values.Len()
}

// Value returns v's value (its depth or distance) and whether v was
// reached. Vertices outside the graph are unreached.
func (r *Result) Value(v uint32) (uint64, bool) {
	r.live()
	return r.values.At(v)
}

// Reached reports whether v was reached from the sources.
func (r *Result) Reached(v uint32) bool {
	_, ok := r.Value(v)
	return ok
}

// Values yields every reached vertex with its value, in vertex order
// (unreached vertices are skipped, never given a sentinel value).
func (r *Result) Values() iter.Seq2[uint32, uint64] {
	r.live()
	return r.values.All()
}

// NumReached returns the number of reached vertices (the sources
// included).
func (r *Result) NumReached() int {
	c := 0
	for range r.Values() {
		c++
	}
	return c
}

// MaxValue returns the largest value of a reached vertex and false when
// nothing was reached (an empty graph).
func (r *Result) MaxValue() (uint64, bool) {
	var m uint64
	ok := false
	for _, x := range r.Values() {
		m, ok = max(m, x), true
	}
	return m, ok
}

// Stats returns the run's statistics.
func (r *Result) Stats() runtime.Stats { return r.stats }

// HasParents reports whether the run recorded parents (WithParents).
func (r *Result) HasParents() bool {
	r.live()
	return r.parent != nil
}

// Parent returns v's parent in the run's tree (see the package's
// WithParents). false for a source, an unreached vertex, a vertex outside
// the graph, and a run without WithParents.
func (r *Result) Parent(v uint32) (uint32, bool) {
	r.live()
	return frontier.ParentOf(r.parent, v)
}

// Path returns a shortest path from a source to t as internal vertex ids,
// the source first and t last, and false when t was not reached or the run
// did not record parents (WithParents).
func (r *Result) Path(t uint32) ([]uint32, bool) {
	r.live()
	if r.parent == nil || !r.Reached(t) {
		return nil, false
	}
	return frontier.Path(r.parent, t)
}

// PathIDs is Path in the graph file's vertex ids.
func (r *Result) PathIDs(t uint32) ([]uint64, bool) {
	p, ok := r.Path(t)
	if !ok {
		return nil, false
	}
	return frontier.PathIDs(p, r.ids), true
}

// WriteCSV writes "id,<value's name>" and one row per vertex in the
// graph's file ids, the value empty for unreached vertices.
func (r *Result) WriteCSV(w io.Writer) error {
	r.live()
	return algorithms.WriteCSV(w, r.ids, r.values.Len(), r.column, r.values.At)
}

// WriteJSON writes a JSON array of {"id": file id, "<value's name>": value
// or null}, one per vertex, streamed.
func (r *Result) WriteJSON(w io.Writer) error {
	r.live()
	return algorithms.WriteJSON(w, r.ids, r.values.Len(), r.column, r.values.At)
}

// Release gives the result's host memory back for reuse by a later run's
// result of the same size, which then skips allocating and faulting in
// fresh pages (on the H100's host about 60 µs per MiB). Call it when done
// with a result, for example between sources; the result, and any slice
// taken from it, must not be used afterwards (its methods panic).
func (r *Result) Release() {
	if r.released {
		return
	}
	r.released = true
	r.values.Release()
	r.values = hostmem.Values{}
	hostmem.Recycle(r.parent)
	r.parent = nil
}

func (r *Result) live() {
	if r.released {
		panic(r.name + ": Result used after Release")
	}
}

// Dense returns every vertex's value converted by conv, indexed by internal
// vertex id, unreached for unreached vertices: a copy, the caller's to
// keep.
func Dense[T any](r *Result, unreached T, conv func(uint64) T) []T {
	r.live()
	out := make([]T, r.values.Len())
	for v := range out {
		out[v] = unreached
	}
	for v, x := range r.values.All() {
		out[v] = conv(x)
	}
	return out
}

// ByID returns the value of every reached vertex, converted by conv, keyed
// by the graph's file id.
func ByID[T any](r *Result, conv func(uint64) T) map[uint64]T {
	out := make(map[uint64]T)
	for v, x := range r.Values() {
		out[r.ids.External(v)] = conv(x)
	}
	return out
}

// Summary is the part of a Result's JSON summary the searches share; their
// Summary types embed it, so the fields stay at the top level.
type Summary struct {
	Source   uint64 `json:"source"`
	Vertices int    `json:"vertices"`
	Reached  int    `json:"reached"`
}

// SummaryOf returns r's shared summary, the source in file ids.
func SummaryOf(r *Result) Summary {
	return Summary{Source: r.SourceID(), Vertices: r.NumVertices(), Reached: r.NumReached()}
}

// parentsKey is WithParents' option key, one for both searches: each
// package's WithParents is this option.
type parentsKey struct{}

// WithParents makes a run record a parent per reached vertex.
func WithParents() runtime.Option { return runtime.WithValue(parentsKey{}, true) }

// Start checks a run of the algorithm name from srcs on a graph of n > 0
// vertices before it starts: a source out of range is an error wrapping
// ErrSource, and several sources (multi) or parents (WithParents) on a
// backend other than the CPU's, which alone runs them, one wrapping
// runtime.ErrUnsupported. It returns the CPU backend (nil for another) and
// whether the run records parents.
func Start(name string, cfg *runtime.Config, n int, srcs []uint32, multi bool) (cpu *runtime.CPU, parents bool, err error) {
	for _, s := range srcs {
		if int64(s) >= int64(n) {
			return nil, false, fmt.Errorf("%s: %w: source %d, graph has %d vertices (0..%d)", name, ErrSource, s, n, n-1)
		}
	}
	v, _ := cfg.Value(parentsKey{})
	parents, _ = v.(bool)
	cpu, isCPU := cfg.Backend().(*runtime.CPU)
	if multi && len(srcs) > 1 && !isCPU {
		return nil, false, fmt.Errorf("%s: several sources (RunMulti) on backend %s: %w (the CPU backend runs them)", name, cfg.Backend().Name(), runtime.ErrUnsupported)
	}
	return cpu, parents, nil
}

// Unsupported is the error of a run whose backend has no operator for it,
// naming WithParents where the run asked for parents.
func Unsupported(name string, cfg *runtime.Config, parents bool) error {
	what := ""
	if parents {
		what = " parents (WithParents) on"
	}
	return fmt.Errorf("%s:%s backend %s: %w", name, what, cfg.Backend().Name(), runtime.ErrUnsupported)
}

// Parents records the parent tree of a finished run: the one its operator
// built on its device (frontier.DeviceParents: inside the run's time
// already, counted alone as parent_pass_ns), else build's on the host,
// counted in the run's time too (AddParents).
func Parents(r *Result, op any, build func() ([]uint32, error)) error {
	if dp, ok := op.(frontier.DeviceParents); ok {
		if tree, d := dp.Parents(); tree != nil {
			r.parent = tree
			countParentPass(r, d)
			return nil
		}
	}
	return AddParents(r, build)
}

func countParentPass(r *Result, d time.Duration) {
	if r.stats.Counters == nil {
		r.stats.Counters = map[string]int64{}
	}
	r.stats.Counters["parent_pass_ns"] += d.Nanoseconds()
}

// AddParents runs build, the parent pass of a finished run, and keeps its
// tree in r, counting the pass in the run's time (Stats.Wall) and alone as
// the counter parent_pass_ns.
func AddParents(r *Result, build func() ([]uint32, error)) error {
	t0 := time.Now()
	p, err := build()
	if err != nil {
		return err
	}
	r.parent = p
	d := time.Since(t0)
	r.stats.Wall += d
	countParentPass(r, d)
	return nil
}

// Entry is a search's Run and RunMulti: the packages' delegate to One and
// Multi, which check the arguments before the search's own run.
type Entry[R any] struct {
	// Name is the algorithm's, for errors.
	Name string
	// Check, where set, returns the error for a graph the search cannot
	// use (sssp: one without integer weights), after runtime.CheckArgs.
	Check func(g *graph.Graph) error
	// Run runs from srcs, one at least (multi: RunMulti's).
	Run func(ctx context.Context, g *graph.Graph, srcs []uint32, multi bool, opts []runtime.Option) (R, error)
}

// One runs from src.
func (e Entry[R]) One(ctx context.Context, g *graph.Graph, src uint32, opts []runtime.Option) (R, error) {
	return e.run(ctx, g, []uint32{src}, false, opts)
}

// Multi runs from sources at once; there must be one at least.
func (e Entry[R]) Multi(ctx context.Context, g *graph.Graph, sources []uint32, opts []runtime.Option) (R, error) {
	if len(sources) == 0 {
		var zero R
		return zero, fmt.Errorf("%s: %w: no sources", e.Name, ErrSource)
	}
	return e.run(ctx, g, sources, true, opts)
}

func (e Entry[R]) run(ctx context.Context, g *graph.Graph, srcs []uint32, multi bool, opts []runtime.Option) (R, error) {
	var zero R
	if err := runtime.CheckArgs(e.Name, ctx, g); err != nil {
		return zero, err
	}
	if e.Check != nil {
		if err := e.Check(g); err != nil {
			return zero, err
		}
	}
	return e.Run(ctx, g, srcs, multi, opts)
}
