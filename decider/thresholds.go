package decider

import (
	"errors"
	"fmt"
	"github.com/gearbox-graph/gearbox/internal/smallfile"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/gearbox-graph/gearbox"
	"github.com/gearbox-graph/gearbox/graph"
)

// Thresholds parameterise the Adaptive policy (Li & Becchi, Fig. 11) and the
// direction and bucket rules.
type Thresholds struct {
	// T1 is the average out-degree at or above which block mapping is
	// chosen for medium and large working sets.
	T1 float64 `toml:"T1"`
	// T2 is the working-set size below which block mapping and a queue
	// are chosen.
	T2 int64 `toml:"T2"`
	// T3 is the working-set size, as a fraction of the number of possible
	// elements (n for vertex-centric operators), at or above which a
	// bitmap is chosen.
	T3 float64 `toml:"T3"`
	// BitmapMinVertices is the smallest graph (in vertices) on which the
	// adaptive policy uses a bitmap. On smaller graphs every iteration is
	// bound by its fixed cost, and a bitmap only adds conversions and
	// forgoes the persistent launch that runs a queue's small tail levels.
	// 0 on the CPU.
	BitmapMinVertices int64 `toml:"bitmap_min_vertices"`
	// SampleEvery is the inspection period in iterations.
	SampleEvery int `toml:"sample_every"`
	// JumpFactor, when > 0, re-chooses the structure between samples
	// once the working set's size (a free by-product of generating it)
	// has grown or shrunk by this factor since the structure was chosen
	// (0: only at samples).
	JumpFactor float64 `toml:"jump_factor"`
	// Alpha and Beta are Beamer's direction-switch parameters: go to pull
	// when the frontier's out-edges exceed unexplored edges / Alpha, back
	// to push when the frontier holds fewer than n / Beta vertices.
	Alpha float64 `toml:"alpha"`
	Beta  float64 `toml:"beta"`
	// PullMinEdges is the fewest frontier out-edges for which push goes to
	// pull. Where an iteration has a fixed cost that covers the relaxation
	// of many edges (a GPU: tens of microseconds, about a million edges),
	// pull saves nothing on smaller frontiers, and it keeps the tail of the
	// traversal from running as one persistent launch. 0 on the CPU.
	PullMinEdges int64 `toml:"pull_min_edges"`
	// Delta is the SSSP bucket width for ordered variants (1 = process
	// only the minimum distance each iteration) where DeltaFactor is 0.
	Delta uint64 `toml:"delta"`
	// DeltaFactor, when > 0, derives the bucket width from the graph
	// instead (DeltaFor): DeltaFactor x mean arc weight / mean out-degree,
	// the form of Davidson et al.'s heuristic (IPDPS 2014): buckets then
	// hold about the same number of relaxations whatever the weights'
	// scale and the graph's degree. One fixed width cannot: on the CPU
	// the best width ran from 8 (kron:18) to 2048 (rome99, weights in
	// metres), and delta 32 made rome99 4.6x slower than 1024.
	DeltaFactor float64 `toml:"delta_factor"`
	// OrderedMinVertices and OrderedMinDegree choose the adaptive SSSP's
	// order per graph: ordered buckets on graphs with at least this many
	// vertices and this average out-degree, unordered (Bellman-Ford-style)
	// below. On a GPU an iteration has a fixed cost, so small or
	// high-diameter graphs do better with fewer, larger unordered rounds;
	// on the CPU (0, 0) keeps every graph ordered.
	OrderedMinVertices int64   `toml:"ordered_min_vertices"`
	OrderedMinDegree   float64 `toml:"ordered_min_degree"`
	// OrderedMinVerticesSkewed, when above OrderedMinVertices, is the
	// order rule's vertex floor for graphs of degree skew at least
	// BucketMinSkew (those whose ordered buckets are work-targeted): a
	// hub relaxes much of such a graph at once, and unordered rounds
	// converge in a few iterations where ordered buckets take many. On
	// the H100 unordered SSSP was 1.1-1.5x faster on kron:18-20 (skew in
	// the thousands) and 3.5x on email-Enron (skew 138), ordered 1.2-1.8x
	// on urand:18-20 (skew 2; results/h100-2026-11-22-s11/tune-order/).
	// 0: no separate floor.
	OrderedMinVerticesSkewed int64 `toml:"ordered_min_vertices_skewed"`
	// BucketEdges, when > 0 (and the graph's degree skew is at least
	// BucketMinSkew), makes the adaptive SSSP's ordered buckets
	// work-targeted: each iteration takes the minimum's bucket and the
	// delta-wide buckets after it until they hold this many out-edges
	// (every pending vertex when all of them hold fewer), so delta becomes
	// the narrowest bucket. Static variants keep fixed buckets. One fixed
	// width cannot fit a whole run: the early and late buckets are nearly
	// empty, and each iteration has a fixed cost (on the H100, kron:22
	// took 12 iterations with 2^22-edge buckets over width 32 against 39
	// for fixed width 32, examining 178M against 169M arcs; 1.10x faster
	// on the device, results/h100-2026-11-22-s8/). On the CPU backend it
	// counts out-edges per worker, and a merged iteration is at most 8
	// times the graph's delta wide. 0: fixed buckets.
	BucketEdges int64 `toml:"bucket_edges"`
	// BucketMinSkew is the degree skew (largest over average out-degree)
	// below which buckets stay fixed whatever BucketEdges says: on the
	// H100, 2^22-edge buckets made kron:22 1.14x faster and urand:22
	// (skew ~2) 1.39x slower, where merged buckets re-relax vertices whose
	// distances are still falling (0: no floor).
	BucketMinSkew float64 `toml:"bucket_min_skew"`
	// BucketDeltaFactor, when > 0, derives the narrowest bucket of
	// work-targeted buckets (BucketEdges) as DeltaFactor derives delta,
	// with this factor instead: such buckets widen over whole delta-wide
	// bins by themselves, so their bins can be finer than the fixed buckets
	// of graphs without them (0: the graph's delta). On the H100, kron:22
	// took 4.0 ms on the device with bins of 32 and 5.1-5.4 with 64-128,
	// while the 2048x2048 grid's fixed buckets ran 1.7x faster at 1024 than
	// at 256 (results/h100-2026-11-22-s10/).
	BucketDeltaFactor float64 `toml:"bucket_delta_factor"`
	// BucketDeltaMinSkew is the degree skew below which BucketDeltaFactor
	// does not apply (the narrowest work-targeted bucket is the graph's
	// delta). Merged buckets re-relax a hub's out-edges whenever its
	// distance falls inside one, so skewed graphs gain from narrower bins
	// while uniform ones only take more iterations (measured in
	// thresholds.toml's [cpu] section). 0: no floor.
	BucketDeltaMinSkew float64 `toml:"bucket_delta_min_skew"`
	// LaunchDeltaFactor, when > 0, widens the adaptive SSSP's fixed
	// buckets inside persistent launches on sparse graphs: to delta x
	// LaunchDeltaFactor / mean out-degree where that exceeds delta (see
	// LaunchDelta). Inside a launch a bucket costs a scan of the update
	// vector (two before session 11), not a host iteration, and the levels
	// are the cost: on the H100 the 2048x2048 grid (degree 4) ran 30.0 ms
	// on the device with launch buckets 4x its delta against 37.5, while
	// urand:21 and :22 (degree 32) lost 6-10% with them, so the widening
	// shrinks with the degree (results/h100-2026-11-22-s10/). Static
	// variants keep delta.
	LaunchDeltaFactor float64 `toml:"launch_delta_factor"`
	// ThreadsPerBlock is the GPU block size of thread-mapped kernels (a
	// multiple of 32 up to 1024; 0 = the backend's default). The CPU
	// backend ignores it.
	ThreadsPerBlock int `toml:"threads_per_block"`
	// AfforestMinDegree, AfforestMinArcs and AfforestMinSkew choose
	// connected components' algorithm (cc.VariantPolicy): Afforest over
	// union-find only on undirected graphs with at least this average
	// degree (arcs per vertex), this many arcs and this degree skew
	// (largest over average degree); 0 = no floor. With few arcs per
	// vertex sampling saves nothing; on a GPU Afforest's extra passes cost
	// launches that small graphs do not pay back, and without hubs
	// union-find converges about as fast. The CPU's (2, 0, 0) leaves only
	// the sparsest graphs to union-find.
	AfforestMinDegree float64 `toml:"afforest_min_degree"`
	AfforestMinArcs   int64   `toml:"afforest_min_arcs"`
	AfforestMinSkew   float64 `toml:"afforest_min_skew"`
}

// DefaultThresholds returns the built-in CPU thresholds, the same values as
// the [cpu] section of the thresholds.toml shipped at the repository root.
func DefaultThresholds() Thresholds {
	return Thresholds{T1: 64, T2: 16, T3: 0.005, BitmapMinVertices: 4096, SampleEvery: 6, JumpFactor: 16, Alpha: 15, Beta: 18, Delta: 32, DeltaFactor: 4,
		BucketEdges: 4096, BucketDeltaFactor: 2, BucketDeltaMinSkew: 8, AfforestMinDegree: 2}
}

// GPUBase returns CPU thresholds t as the base of a GPU's, without the
// CPU's work-targeted buckets: the CPU's bucket_edges counts per worker, a
// GPU's counts edges, so a GPU without its own has fixed buckets, and the
// CPU's narrower bins for them (bucket_delta_factor from
// bucket_delta_min_skew) were measured on its own buckets. A GPU section's
// missing keys and the GPU-derived defaults both start from it.
func (t Thresholds) GPUBase() Thresholds {
	t.BucketEdges, t.BucketDeltaFactor, t.BucketDeltaMinSkew = 0, 0, 0
	return t
}

// maxDelta bounds a derived bucket width (a graph of huge weights and
// tiny degree would otherwise ask for more than distances can hold).
const maxDelta = 1 << 40

// DeltaFor returns the SSSP bucket width for a graph whose arcs weigh
// meanWeight on average and whose vertices have meanDegree out-arcs on
// average: Delta, or, where DeltaFactor > 0, DeltaFactor x meanWeight /
// meanDegree rounded to the nearest power of two (on a log scale), within
// [1, 2^40]. A power of two turns each relaxation's bucket division into a
// shift (on the CPU, delta 35 ran kron:18 14% slower than 32), and the
// heuristic is no finer than a factor of two anyway.
func (t Thresholds) DeltaFor(meanWeight, meanDegree float64) uint64 {
	if !(t.DeltaFactor > 0) {
		return t.Delta
	}
	d := t.DeltaFactor * meanWeight / max(meanDegree, 1)
	switch {
	case !(d >= 1): // also NaN
		return 1
	case d >= maxDelta:
		return maxDelta
	}
	return 1 << uint(math.Round(math.Log2(d)))
}

// DeltaForGraph is DeltaFor with g's mean arc weight and out-degree; with
// no DeltaFactor it returns Delta without reading the weights.
func (t Thresholds) DeltaForGraph(g *graph.Graph) uint64 {
	if !(t.DeltaFactor > 0) {
		return t.Delta
	}
	return t.DeltaFor(g.MeanWeight(), float64(g.NumEdges())/float64(max(g.NumVertices(), 1)))
}

// BucketDeltaForGraph is DeltaForGraph for work-targeted buckets: with
// BucketDeltaFactor in place of DeltaFactor where it is > 0 and g's degree
// skew is at least BucketDeltaMinSkew.
func (t Thresholds) BucketDeltaForGraph(g *graph.Graph) uint64 {
	if t.BucketDeltaFactor > 0 && (t.BucketDeltaMinSkew <= 0 || g.DegreeSkew() >= t.BucketDeltaMinSkew) {
		t.DeltaFactor = t.BucketDeltaFactor
	}
	return t.DeltaForGraph(g)
}

// LaunchDelta returns the bucket width of the adaptive SSSP's buckets
// inside persistent launches on a graph of mean out-degree meanDegree, for
// a run of bucket width delta: delta x LaunchDeltaFactor / meanDegree
// where that factor exceeds 1, rounded to the nearest power of two on a log
// scale where delta is a power of two (else to the nearest integer),
// within [delta, 2^40]; else delta.
func (t Thresholds) LaunchDelta(delta uint64, meanDegree float64) uint64 {
	f := t.LaunchDeltaFactor / max(meanDegree, 1)
	if !(f > 1) || delta == 0 {
		return delta
	}
	d := float64(delta) * f
	switch {
	case d >= maxDelta:
		return max(delta, maxDelta)
	case delta&(delta-1) == 0:
		return max(delta, 1<<uint(math.Round(math.Log2(d))))
	}
	return max(delta, uint64(math.Round(d)))
}

// ErrThresholds is wrapped by every thresholds-file error.
var ErrThresholds = errors.New("invalid thresholds")

// Validate checks every value's range; the error names the key.
func (t Thresholds) Validate() error {
	switch {
	// Finite throughout: no key gives infinity a meaning (a large value
	// already means never), and the renderer's +Inf would not read back.
	case !finitePos(t.T1):
		return fmt.Errorf("%w: T1 = %v, want a finite value > 0", ErrThresholds, t.T1)
	case t.T2 < 0:
		return fmt.Errorf("%w: T2 = %d, want >= 0", ErrThresholds, t.T2)
	case !(t.T3 > 0 && t.T3 <= 1):
		return fmt.Errorf("%w: T3 = %v, want a fraction of n in (0, 1]", ErrThresholds, t.T3)
	case t.SampleEvery < 1:
		return fmt.Errorf("%w: sample_every = %d, want >= 1", ErrThresholds, t.SampleEvery)
	case !finitePos(t.Alpha):
		return fmt.Errorf("%w: alpha = %v, want a finite value > 0", ErrThresholds, t.Alpha)
	case !finitePos(t.Beta):
		return fmt.Errorf("%w: beta = %v, want a finite value > 0", ErrThresholds, t.Beta)
	case t.BitmapMinVertices < 0:
		return fmt.Errorf("%w: bitmap_min_vertices = %d, want >= 0", ErrThresholds, t.BitmapMinVertices)
	case t.PullMinEdges < 0:
		return fmt.Errorf("%w: pull_min_edges = %d, want >= 0", ErrThresholds, t.PullMinEdges)
	case t.Delta < 1:
		return fmt.Errorf("%w: delta = %d, want >= 1", ErrThresholds, t.Delta)
	case t.JumpFactor != 0 && !(t.JumpFactor > 1 && !math.IsInf(t.JumpFactor, 1)):
		return fmt.Errorf("%w: jump_factor = %v, want 0 (off) or a factor > 1", ErrThresholds, t.JumpFactor)
	case !finiteNonNeg(t.DeltaFactor):
		return fmt.Errorf("%w: delta_factor = %v, want >= 0 (0 = use delta)", ErrThresholds, t.DeltaFactor)
	case t.BucketEdges < 0:
		return fmt.Errorf("%w: bucket_edges = %d, want >= 0 (0 = fixed buckets)", ErrThresholds, t.BucketEdges)
	case !finiteNonNeg(t.BucketMinSkew):
		return fmt.Errorf("%w: bucket_min_skew = %v, want a finite value >= 0", ErrThresholds, t.BucketMinSkew)
	case !finiteNonNeg(t.LaunchDeltaFactor):
		return fmt.Errorf("%w: launch_delta_factor = %v, want a finite value >= 0 (0 = delta)", ErrThresholds, t.LaunchDeltaFactor)
	case !finiteNonNeg(t.BucketDeltaFactor):
		return fmt.Errorf("%w: bucket_delta_factor = %v, want a finite value >= 0 (0 = the graph's delta)", ErrThresholds, t.BucketDeltaFactor)
	case !finiteNonNeg(t.BucketDeltaMinSkew):
		return fmt.Errorf("%w: bucket_delta_min_skew = %v, want a finite value >= 0 (0 = no floor)", ErrThresholds, t.BucketDeltaMinSkew)
	case t.OrderedMinVertices < 0:
		return fmt.Errorf("%w: ordered_min_vertices = %d, want >= 0", ErrThresholds, t.OrderedMinVertices)
	case !finiteNonNeg(t.OrderedMinDegree):
		return fmt.Errorf("%w: ordered_min_degree = %v, want a finite value >= 0", ErrThresholds, t.OrderedMinDegree)
	case t.OrderedMinVerticesSkewed < 0:
		return fmt.Errorf("%w: ordered_min_vertices_skewed = %d, want >= 0", ErrThresholds, t.OrderedMinVerticesSkewed)
	case t.ThreadsPerBlock < 0 || t.ThreadsPerBlock > 1024 || t.ThreadsPerBlock%32 != 0:
		return fmt.Errorf("%w: threads_per_block = %d, want a multiple of 32 in 32..1024 (0 = the backend's default)", ErrThresholds, t.ThreadsPerBlock)
	// Finite, as the renderer writes floats in a form TOML reads back; a
	// large value already means never Afforest.
	case !finiteNonNeg(t.AfforestMinDegree):
		return fmt.Errorf("%w: afforest_min_degree = %v, want a finite value >= 0", ErrThresholds, t.AfforestMinDegree)
	case t.AfforestMinArcs < 0:
		return fmt.Errorf("%w: afforest_min_arcs = %d, want >= 0", ErrThresholds, t.AfforestMinArcs)
	case !finiteNonNeg(t.AfforestMinSkew):
		return fmt.Errorf("%w: afforest_min_skew = %v, want a finite value >= 0", ErrThresholds, t.AfforestMinSkew)
	}
	return nil
}

// finiteNonNeg reports whether x is a finite value >= 0 (not NaN).
func finiteNonNeg(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }

// finitePos reports whether x is a finite value > 0 (not NaN).
func finitePos(x float64) bool { return x > 0 && !math.IsInf(x, 1) }

// ThresholdSet is the content of a thresholds file: a [cpu] section, one
// [gpu."<device name>"] section per tuned GPU, and per-algorithm sections
// ([cpu.bfs], [gpu."<device name>".sssp]) whose keys override their device
// section's values for that algorithm only (BFS and SSSP have different
// optima on one device). The decider does not know the algorithms: any
// name is kept, and algorithms.ParseThresholds checks the names against
// the registry.
type ThresholdSet struct {
	CPU Thresholds
	GPU map[string]Thresholds
	// CPUAlg and GPUAlg hold the per-algorithm sections, keyed by
	// algorithm (the name runtime.NewConfigFor is given), GPUAlg first by
	// device. Their values
	// are complete: keys a section leaves out have its device section's.
	CPUAlg map[string]Thresholds
	GPUAlg map[string]map[string]Thresholds
}

// DefaultThresholdSet returns the built-in set: the repository's
// thresholds.toml, embedded (its [cpu] section and any tuned GPU and
// per-algorithm sections).
func DefaultThresholdSet() *ThresholdSet {
	embeddedOnce.Do(func() { embedded, embeddedErr = ParseThresholds(gearbox.ThresholdsTOML) })
	if embeddedErr != nil {
		// Unreachable in a released build: TestEmbeddedThresholds parses
		// the embedded file.
		return newThresholdSet(DefaultThresholds())
	}
	return embedded.clone()
}

var (
	embeddedOnce sync.Once
	embedded     *ThresholdSet
	embeddedErr  error
)

func newThresholdSet(cpu Thresholds) *ThresholdSet {
	return &ThresholdSet{CPU: cpu, GPU: map[string]Thresholds{}, CPUAlg: map[string]Thresholds{}, GPUAlg: map[string]map[string]Thresholds{}}
}

// clone copies the set, so callers may change their copy of the embedded one.
func (s *ThresholdSet) clone() *ThresholdSet {
	c := newThresholdSet(s.CPU)
	maps.Copy(c.GPU, s.GPU)
	maps.Copy(c.CPUAlg, s.CPUAlg)
	for dev, algs := range s.GPUAlg {
		c.GPUAlg[dev] = maps.Clone(algs)
	}
	return c
}

// Lookup returns the section for a device ("" or "cpu" for the CPU) and
// whether the set has one; a GPU without a section should use its
// device-derived defaults rather than the CPU's.
func (s *ThresholdSet) Lookup(device string) (Thresholds, bool) {
	if device == "" || device == "cpu" {
		return s.CPU, true
	}
	t, ok := s.GPU[device]
	return t, ok
}

// LookupFor returns the thresholds of algorithm alg on a device: its
// per-algorithm section if the set has one, else Lookup(device).
func (s *ThresholdSet) LookupFor(device, alg string) (Thresholds, bool) {
	if device == "" || device == "cpu" {
		if t, ok := s.CPUAlg[alg]; ok {
			return t, true
		}
	} else if t, ok := s.GPUAlg[device][alg]; ok {
		return t, true
	}
	return s.Lookup(device)
}

// For returns the thresholds for a device: the GPU section named exactly
// device if there is one, else the CPU section. Device "" or "cpu" means
// the CPU.
func (s *ThresholdSet) For(device string) Thresholds {
	if t, ok := s.GPU[device]; ok && device != "" {
		return t
	}
	return s.CPU
}

// ForAlgorithm is For for one algorithm: the device's thresholds for alg
// (LookupFor) if the set has a section for the device, else the CPU's.
func (s *ThresholdSet) ForAlgorithm(device, alg string) Thresholds {
	if t, ok := s.LookupFor(device, alg); ok {
		return t
	}
	t, _ := s.LookupFor("", alg)
	return t
}

// LoadThresholds reads a thresholds file. Keys missing from the [cpu]
// section keep the built-in defaults, keys missing from a GPU section the
// [cpu] section's (bucket_edges, bucket_delta_factor and
// bucket_delta_min_skew aside: 0 there); unknown keys, wrong types
// and out-of-range values are errors naming the file and key.
func LoadThresholds(path string) (*ThresholdSet, error) {
	b, err := smallfile.ReadFile(path, smallfile.Thresholds, "a thresholds file")
	if err != nil {
		return nil, fmt.Errorf("thresholds: %w", err)
	}
	s, err := ParseThresholds(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ParseThresholds decodes thresholds TOML text strictly (see LoadThresholds).
func ParseThresholds(text string) (*ThresholdSet, error) {
	var raw struct {
		CPU toml.Primitive            `toml:"cpu"`
		GPU map[string]toml.Primitive `toml:"gpu"`
	}
	md, err := toml.Decode(text, &raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrThresholds, err)
	}
	if err := checkAlgSections(&md); err != nil {
		return nil, err
	}
	// A file stands alone: keys it leaves out take the built-in CPU values.
	s := newThresholdSet(DefaultThresholds())
	if md.IsDefined("cpu") {
		t, algs, err := decodeDevice(&md, raw.CPU, s.CPU, "")
		if err != nil {
			return nil, err
		}
		s.CPU, s.CPUAlg = t, algs
	}
	names := make([]string, 0, len(raw.GPU))
	for name := range raw.GPU {
		names = append(names, name)
	}
	sort.Strings(names)
	// A GPU section's missing keys take the [cpu] section's values, except
	// the work-targeted buckets' (GPUBase).
	gpuBase := s.CPU.GPUBase()
	for _, name := range names {
		t, algs, err := decodeDevice(&md, raw.GPU[name], gpuBase, name)
		if err != nil {
			return nil, err
		}
		s.GPU[name] = t
		if len(algs) > 0 {
			s.GPUAlg[name] = algs
		}
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("%w: unknown key %s (valid keys in a section: %s; sections: [cpu], [gpu.\"<device>\"], and per algorithm [cpu.<alg>], [gpu.\"<device>\".<alg>])",
			ErrThresholds, strings.Join(keys, ", "), strings.Join(sectionKeys(), ", "))
	}
	check := func(dev, alg string, t Thresholds) error {
		if err := t.Validate(); err != nil {
			return fmt.Errorf("%s: %w", SectionName(dev, alg), err)
		}
		return nil
	}
	if err := check("", "", s.CPU); err != nil {
		return nil, err
	}
	for _, alg := range slices.Sorted(maps.Keys(s.CPUAlg)) {
		if err := check("", alg, s.CPUAlg[alg]); err != nil {
			return nil, err
		}
	}
	for _, name := range names {
		if err := check(name, "", s.GPU[name]); err != nil {
			return nil, err
		}
		for _, alg := range slices.Sorted(maps.Keys(s.GPUAlg[name])) {
			if err := check(name, alg, s.GPUAlg[name][alg]); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// SectionName is the header of a section: [cpu] (device "" or "cpu"),
// [gpu."<device>"], or with alg, [cpu.<alg>] or [gpu."<device>".<alg>].
func SectionName(device, alg string) string {
	name := "cpu"
	if device != "" && device != "cpu" {
		name = "gpu." + strconv.Quote(device)
	}
	if alg != "" {
		name += "." + alg
	}
	return "[" + name + "]"
}

// checkAlgSections checks the tables within device sections before any is
// decoded: each must be one table deep (its name a bare key), and a GPU's
// needs the device's own section. Without one, [gpu."X".bfs] would build on the [cpu]
// values rather than the device-derived defaults the GPU runs with when it
// has no section, silently. (TOML defines gpu."X" implicitly by
// [gpu."X".bfs]; the metadata's keys hold only tables with a header of
// their own, and keys.)
func checkAlgSections(md *toml.MetaData) error {
	own := map[string]bool{} // GPUs with a section of their own
	type sub struct{ dev, alg string }
	var subs []sub
	for _, k := range md.Keys() {
		var dev, alg string
		switch {
		case len(k) == 2 && k[0] == "gpu":
			own[k[1]] = true
			continue
		case len(k) == 3 && k[0] == "gpu" && md.Type(k...) != "Hash":
			own[k[1]] = true // a key of the device section
			continue
		case len(k) >= 2 && k[0] == "cpu" && (len(k) > 2 || md.Type(k...) == "Hash"):
			alg = k[1]
		case len(k) >= 3 && k[0] == "gpu":
			dev, alg = k[1], k[2]
		default:
			continue
		}
		if !validAlgName(alg) {
			return fmt.Errorf("%w: %s: %q is not an algorithm's name (lower-case letters, digits and _)", ErrThresholds, SectionName(dev, alg), alg)
		}
		if dev != "" {
			subs = append(subs, sub{dev, alg})
		}
	}
	for _, s := range subs {
		if !own[s.dev] {
			return fmt.Errorf("%w: %s needs a %s section: its keys override the device section's values (without one, they would build on [cpu] instead of the device-derived defaults)",
				ErrThresholds, SectionName(s.dev, s.alg), SectionName(s.dev, ""))
		}
	}
	return nil
}

// validAlgName reports whether name can be an algorithm's section (as
// algorithms.Register requires of a name).
func validAlgName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// algSections returns the primitives of the per-algorithm tables of the
// device section at key, by algorithm. They are decoded through a struct
// with one Primitive field per table, so that the device section's other
// keys stay undecoded until section claims them (an unknown key stays an
// error).
func algSections(md *toml.MetaData, p toml.Primitive, key []string) (map[string]toml.Primitive, error) {
	var algs []string
	for _, k := range md.Keys() {
		if len(k) == len(key)+1 && slices.Equal(k[:len(key)], key) && md.Type(k...) == "Hash" {
			algs = append(algs, k[len(key)])
		}
	}
	if len(algs) == 0 {
		return nil, nil
	}
	fields := make([]reflect.StructField, len(algs))
	for i, alg := range algs {
		fields[i] = reflect.StructField{Name: fmt.Sprintf("A%d", i), Type: reflect.TypeFor[toml.Primitive](), Tag: reflect.StructTag(`toml:"` + alg + `"`)}
	}
	v := reflect.New(reflect.StructOf(fields))
	if err := md.PrimitiveDecode(p, v.Interface()); err != nil {
		return nil, err
	}
	out := make(map[string]toml.Primitive, len(algs))
	for i, alg := range algs {
		out[alg] = v.Elem().Field(i).Interface().(toml.Primitive)
	}
	return out, nil
}

// decodeDevice decodes a device's section over base, and its per-algorithm
// sections over the result; errors name the section.
func decodeDevice(md *toml.MetaData, p toml.Primitive, base Thresholds, device string) (Thresholds, map[string]Thresholds, error) {
	d := sectionOf(base)
	if err := md.PrimitiveDecode(p, &d); err != nil {
		return base, nil, fmt.Errorf("%w: %s: %v", ErrThresholds, SectionName(device, ""), err)
	}
	t, err := d.thresholds()
	if err != nil {
		return base, nil, fmt.Errorf("%w: %s: %v", ErrThresholds, SectionName(device, ""), err)
	}
	algs := map[string]Thresholds{}
	key := []string{"cpu"}
	if device != "" {
		key = []string{"gpu", device}
	}
	prims, err := algSections(md, p, key)
	if err != nil {
		return base, nil, fmt.Errorf("%w: %s: %v", ErrThresholds, SectionName(device, ""), err)
	}
	for _, alg := range slices.Sorted(maps.Keys(prims)) {
		a, err := decodeSection(md, prims[alg], t)
		if err != nil {
			return base, nil, fmt.Errorf("%w: %s: %v", ErrThresholds, SectionName(device, alg), err)
		}
		algs[alg] = a
	}
	return t, algs, nil
}

// section mirrors Thresholds with signed integers, so a negative value is
// reported instead of wrapping around in an unsigned field.
type section struct {
	T1          float64 `toml:"T1"`
	T2          int64   `toml:"T2"`
	T3          float64 `toml:"T3"`
	BitmapMinV  int64   `toml:"bitmap_min_vertices"`
	SampleEvery int64   `toml:"sample_every"`
	Jump        float64 `toml:"jump_factor"`
	Alpha       float64 `toml:"alpha"`
	Beta        float64 `toml:"beta"`
	PullMin     int64   `toml:"pull_min_edges"`
	Delta       int64   `toml:"delta"`
	DeltaF      float64 `toml:"delta_factor"`
	OrderedMinV int64   `toml:"ordered_min_vertices"`
	OrderedMinD float64 `toml:"ordered_min_degree"`
	OrderedMinS int64   `toml:"ordered_min_vertices_skewed"`
	BucketEdges int64   `toml:"bucket_edges"`
	BucketSkew  float64 `toml:"bucket_min_skew"`
	BucketDF    float64 `toml:"bucket_delta_factor"`
	BucketDFMin float64 `toml:"bucket_delta_min_skew"`
	LaunchDF    float64 `toml:"launch_delta_factor"`
	TPB         int64   `toml:"threads_per_block"`
	AffMinD     float64 `toml:"afforest_min_degree"`
	AffMinArcs  int64   `toml:"afforest_min_arcs"`
	AffMinSkew  float64 `toml:"afforest_min_skew"`
}

// sectionKeys lists the keys of a section, from section's field tags (a
// hand-kept list in the error message had fallen behind the struct).
func sectionKeys() []string {
	st := reflect.TypeFor[section]()
	keys := make([]string, st.NumField())
	for i := range keys {
		keys[i] = st.Field(i).Tag.Get("toml")
	}
	return keys
}

// sectionOf returns t's values as a section.
func sectionOf(t Thresholds) section {
	return section{T1: t.T1, T2: t.T2, T3: t.T3, BitmapMinV: t.BitmapMinVertices, SampleEvery: int64(t.SampleEvery), Jump: t.JumpFactor,
		Alpha: t.Alpha, Beta: t.Beta, PullMin: t.PullMinEdges, Delta: int64(t.Delta), DeltaF: t.DeltaFactor,
		OrderedMinV: t.OrderedMinVertices, OrderedMinD: t.OrderedMinDegree, OrderedMinS: t.OrderedMinVerticesSkewed, BucketEdges: t.BucketEdges, BucketSkew: t.BucketMinSkew, BucketDF: t.BucketDeltaFactor, BucketDFMin: t.BucketDeltaMinSkew, LaunchDF: t.LaunchDeltaFactor, TPB: int64(t.ThreadsPerBlock),
		AffMinD: t.AfforestMinDegree, AffMinArcs: t.AfforestMinArcs, AffMinSkew: t.AfforestMinSkew}
}

// thresholds converts a decoded section, checking the values that do not
// fit Thresholds' types.
func (s section) thresholds() (Thresholds, error) {
	if s.Delta < 1 {
		return Thresholds{}, fmt.Errorf("delta = %d, want >= 1", s.Delta)
	}
	if s.SampleEvery < 1 || s.SampleEvery > 1<<30 {
		return Thresholds{}, fmt.Errorf("sample_every = %d, want 1..%d", s.SampleEvery, 1<<30)
	}
	return Thresholds{T1: s.T1, T2: s.T2, T3: s.T3, BitmapMinVertices: s.BitmapMinV, SampleEvery: int(s.SampleEvery), JumpFactor: s.Jump,
		Alpha: s.Alpha, Beta: s.Beta, PullMinEdges: s.PullMin, Delta: uint64(s.Delta), DeltaFactor: s.DeltaF,
		OrderedMinVertices: s.OrderedMinV, OrderedMinDegree: s.OrderedMinD, OrderedMinVerticesSkewed: s.OrderedMinS, BucketEdges: s.BucketEdges, BucketMinSkew: s.BucketSkew, BucketDeltaFactor: s.BucketDF, BucketDeltaMinSkew: s.BucketDFMin, LaunchDeltaFactor: s.LaunchDF, ThreadsPerBlock: int(max(min(s.TPB, 1<<20), -1)),
		AfforestMinDegree: s.AffMinD, AfforestMinArcs: s.AffMinArcs, AfforestMinSkew: s.AffMinSkew}, nil
}

// decodeSection decodes one section over the values of base.
func decodeSection(md *toml.MetaData, p toml.Primitive, base Thresholds) (Thresholds, error) {
	s := sectionOf(base)
	if err := md.PrimitiveDecode(p, &s); err != nil {
		return base, err
	}
	return s.thresholds()
}
