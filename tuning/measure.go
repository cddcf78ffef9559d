package tuning

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Input is one graph of a sweep with the sources it is run from.
type Input struct {
	// Name labels the graph in reports (its --gen spec or file name).
	Name  string
	Graph *graph.Graph
	// Sources are internal vertex ids; every measurement runs from each.
	Sources []uint32
	// Seed derives SSSP weights for an unweighted graph.
	Seed uint64

	once     sync.Once
	weighted *graph.Graph
}

// NewInput returns an Input running from k distinct seeded random vertices
// with out-edges (PickSources): fewer where the graph has fewer such
// vertices, which the caller can tell from len(Sources).
func NewInput(name string, g *graph.Graph, k int, seed uint64) (*Input, error) {
	if k < 1 {
		return nil, fmt.Errorf("%w: %d sources, want at least 1", ErrRange, k)
	}
	if g.NumVertices() == 0 {
		return nil, fmt.Errorf("graph %s has no vertices, so there is no source to run from", name)
	}
	srcs, _ := PickSources(g, k, seed)
	return &Input{Name: name, Graph: g, Sources: srcs, Seed: seed}, nil
}

// PickSources returns k distinct seeded random vertices with out-edges (as
// the GAP suite picks sources), so repeated runs are comparable, and how
// many vertices have out-edges. Where fewer than k do, it returns them all
// (a caller asked for k should say so); a graph without edges gives vertex
// 0 alone, and one without vertices nothing. The work is bounded by the
// graph, not by k.
func PickSources(g *graph.Graph, k int, seed uint64) (srcs []uint32, eligible int) {
	n := g.NumVertices()
	for v := 0; v < n; v++ {
		if g.Degree(uint32(v)) > 0 {
			eligible++
		}
	}
	switch {
	case n == 0 || k < 1:
		return nil, eligible
	case eligible == 0:
		return []uint32{0}, 0 // no edges at all: any vertex will do
	}
	// Capped, so that a k beyond the eligible vertices cannot make the
	// draws below run for 64k tries.
	k = min(k, eligible)
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	srcs = make([]uint32, 0, k)
	seen := make(map[uint32]bool, k)
	for tries := 0; len(srcs) < k && tries < 64*k+1024; tries++ {
		v := uint32(rng.IntN(n))
		if g.Degree(v) > 0 && !seen[v] {
			seen[v] = true
			srcs = append(srcs, v)
		}
	}
	// Random draws rarely find the last of a few eligible vertices among
	// many: take the rest in vertex order rather than return fewer.
	for v := 0; v < n && len(srcs) < k; v++ {
		if g.Degree(uint32(v)) > 0 && !seen[uint32(v)] {
			seen[uint32(v)] = true
			srcs = append(srcs, uint32(v))
		}
	}
	return srcs, eligible
}

// graphFor returns the graph alg runs on: for an algorithm that needs
// weights (SSSP) on an unweighted graph a copy with weights derived from
// Seed (1..255), made once.
func (in *Input) graphFor(alg Algorithm) *graph.Graph {
	if s := alg.Spec(); s == nil || !s.Weighted || in.Graph.WeightKind() != graph.Unweighted {
		return in.Graph
	}
	in.once.Do(func() { in.weighted = in.Graph.WithDerivedWeights(in.Seed) })
	return in.weighted
}

// CheckInputs reports, before any run, an input an algorithm cannot use
// (Spec.CheckGraph: SSSP on real-valued weights) or one without sources.
func CheckInputs(inputs []*Input, algs []Algorithm) error {
	if len(inputs) == 0 {
		return errors.New("no graphs to run")
	}
	if len(algs) == 0 {
		return errors.New("no algorithms to run")
	}
	for _, in := range inputs {
		if len(in.Sources) == 0 {
			return fmt.Errorf("graph %s: no sources", in.Name)
		}
		for _, a := range algs {
			if s := a.Spec(); s != nil && s.CheckGraph != nil {
				if err := s.CheckGraph(in.graphFor(a)); err != nil {
					return fmt.Errorf("graph %s: %w", in.Name, err)
				}
			}
		}
	}
	return nil
}

// Measurement is the timing of one configuration over an input's sources.
type Measurement struct {
	Median, Min, Max time.Duration
	// Device is the median over the sources of the GPU's share of the
	// counted runs (runtime.GPUTimes.Kernels: the iterations' kernels and
	// control-block reads; set-up, the source write and the result copy
	// excluded); 0 on the CPU and for the serial reference.
	Device time.Duration
	// Runs is the number of sources timed (the warm-up run is not
	// counted); Repeats the runs per source, of which the fastest counts.
	Runs, Repeats int
	// PerSource and PerSourceDevice are the counted runs' wall and device
	// times, one per source in Input.Sources order, for comparisons paired
	// by source (a source's time depends on its reach far more than on
	// the configuration; nil when not known, e.g. read from an old CSV,
	// and PerSourceDevice nil without device times).
	PerSource, PerSourceDevice []time.Duration
	// Variants counts the iterations the counted runs ran per variant
	// name (what an adaptive policy chose; nil when not known).
	Variants map[string]int
}

// sample is one timed run: its wall time, on a GPU its device time, and
// its iterations per variant.
type sample struct {
	wall, device time.Duration
	variants     map[string]int
}

func summarize(ts []time.Duration) Measurement {
	s := slices.Clone(ts)
	slices.Sort(s)
	m := Measurement{Min: s[0], Max: s[len(s)-1], Runs: len(s)}
	if len(s)%2 == 1 {
		m.Median = s[len(s)/2]
	} else {
		m.Median = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return m
}

// runner times traversals on one backend.
type runner struct {
	backend runtime.Backend
	log     zerolog.Logger
	verify  bool
	repeats int
}

// once runs alg from src and returns its wall time, measured around the
// whole call (operator set-up and result included), as for the serial
// reference. It verifies the result against the reference when check is
// set (outside the timing), then releases it, so the next run reuses its
// host memory as a caller running many sources would.
func (r *runner) once(ctx context.Context, alg Algorithm, g *graph.Graph, src uint32, opts []runtime.Option, check bool) (sample, error) {
	spec := alg.Spec()
	if spec == nil {
		return sample{}, fmt.Errorf("%w %q", ErrUnknownAlgorithm, alg)
	}
	opts = append(slices.Clip(opts), runtime.WithBackend(r.backend), runtime.WithLogger(r.log))
	// The outcome's functions read the result after the timing.
	start := time.Now()
	res, err := spec.Run(ctx, g, src, opts...)
	el := time.Since(start)
	if err != nil {
		return sample{}, err
	}
	st := res.Stats
	if check {
		err = res.Verify()
	}
	res.Release()
	smp := sample{wall: el, variants: st.Variants}
	if st.GPU != nil {
		smp.device = st.GPU.Kernels
	}
	return smp, err
}

// measureSerial times the serial reference (Spec.Reference: bfs.Reference,
// sssp.Reference, cc.Reference's union-find) the same way: the baseline of
// speedups.
func measureSerial(ctx context.Context, alg Algorithm, in *Input, repeats int) (Measurement, error) {
	g := in.graphFor(alg)
	spec := alg.Spec()
	if spec == nil || spec.Reference == nil {
		return Measurement{}, fmt.Errorf("%w %q: no serial reference", ErrUnknownAlgorithm, alg)
	}
	return timeSources(ctx, in, repeats, func(src uint32, _ bool) (sample, error) {
		start := time.Now()
		err := spec.Reference(g, src)
		return sample{wall: time.Since(start)}, err
	})
}

// timeSources warms up, then times each source repeats times, keeping the
// fastest: other processes only ever add time, so on a shared machine the
// minimum of repeats filters their interference out. A run longer than
// noRepeat (a serial Dijkstra on 4M vertices) is not repeated.
const noRepeat = time.Second

func timeSources(ctx context.Context, in *Input, repeats int, run func(src uint32, warm bool) (sample, error)) (Measurement, error) {
	ms, err := timeInterleaved(ctx, in, repeats, []func(uint32, bool) (sample, error){run})
	if err != nil {
		return Measurement{}, err
	}
	return ms[0], nil
}

// timeInterleaved measures several configurations as timeSources measures
// one, but interleaved: each is warmed up once, then every round (repeat)
// runs each source once under every configuration in turn. A drift of the
// machine (clocks, memory state, another process) then falls on all of
// them alike instead of on whichever ran during it; measured one after
// another, two runs of the same configuration on the H100 differed by up
// to 23% (CC on the grid). The turn starts one configuration later for
// each source and round, so that no configuration always follows the same
// one: on the H100 a run right after the 27 ms pull static on kron:22 took
// 0.04-0.12 ms longer than after a short one, which fell on the adaptive
// policy every time.
func timeInterleaved(ctx context.Context, in *Input, repeats int, runs []func(src uint32, warm bool) (sample, error)) ([]Measurement, error) {
	repeats = max(repeats, 1)
	// Collect earlier garbage now, not inside a timed run.
	goruntime.GC()
	for _, run := range runs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if _, err := run(in.Sources[0], true); err != nil {
			return nil, fmt.Errorf("%s: warm-up from source %d: %w", in.Name, in.Graph.IDs().External(in.Sources[0]), err)
		}
	}
	// best[c][s] is configuration c's fastest run from source s so far.
	best := make([][]sample, len(runs))
	long := make([]bool, len(runs)) // ran longer than noRepeat: not repeated
	for c := range runs {
		best[c] = make([]sample, len(in.Sources))
	}
	for rep := 0; rep < repeats; rep++ {
		for s, src := range in.Sources {
			for k := range runs {
				c := (k + s + rep*len(in.Sources)) % len(runs)
				run := runs[c]
				if rep > 0 && long[c] {
					continue
				}
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				t, err := run(src, false)
				if err != nil {
					return nil, fmt.Errorf("%s: source %d: %w", in.Name, in.Graph.IDs().External(src), err)
				}
				if rep == 0 || t.wall < best[c][s].wall {
					best[c][s] = t
				}
				if t.wall > noRepeat {
					long[c] = true // interference is small next to it; a repeat costs seconds
				}
			}
		}
	}
	ms := make([]Measurement, len(runs))
	for c := range runs {
		ts := make([]time.Duration, len(in.Sources))
		dev := make([]time.Duration, len(in.Sources))
		for s, b := range best[c] {
			ts[s], dev[s] = b.wall, b.device
		}
		ms[c] = summarize(ts)
		ms[c].Device = summarize(dev).Median
		ms[c].Repeats = repeats
		ms[c].PerSource = ts
		if ms[c].Device > 0 || slices.ContainsFunc(dev, func(d time.Duration) bool { return d > 0 }) {
			ms[c].PerSourceDevice = dev
		}
		for _, b := range best[c] {
			for v, k := range b.variants {
				if ms[c].Variants == nil {
					ms[c].Variants = map[string]int{}
				}
				ms[c].Variants[v] += k
			}
		}
	}
	return ms, nil
}
