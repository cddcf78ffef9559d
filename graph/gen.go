package graph

import (
	"errors"
	"fmt"
	"github.com/gearbox-graph/gearbox/internal/memlimit"
	"math"
	"strconv"
	"strings"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// Synthetic generators. Every generator is deterministic for a seed and gives
// the same graph whatever GOMAXPROCS is: edges are produced in fixed-size
// blocks, each block drawing from its own random stream seeded from (seed,
// kind, block index), and blocks are spread over the workers.

// DefaultSeed is the seed used when GenOptions.Seed is zero. It is the GAP
// benchmark suite's kRandSeed; our random streams differ from GAP's, so the
// graphs are alike in distribution, not edge for edge.
const DefaultSeed uint64 = 27491095

// DefaultEdgeFactor is the edge factor of "kron:SCALE" and "urand:SCALE"
// when none is given: generated edges per vertex, as in Graph500 and GAP.
const DefaultEdgeFactor = 16

// MaxScale is the largest SCALE: 2^31 vertices is the last power of two
// below MaxVertices.
const MaxScale = 31

// MaxGenEdges bounds the number of edges a generator produces before
// symmetrization (EDGEFACTOR * 2^SCALE for kron and urand). At the limit the
// edge list alone takes 128 GiB, so it is a guard against typos rather than
// a promise that such a graph fits.
const MaxGenEdges int64 = 1 << 34

// genBlock is the number of edges per random-stream block. Changing it
// changes every generated graph.
const genBlock = 1 << 14

// ErrGenSpec reports a malformed or out-of-range generator spec.
var ErrGenSpec = errors.New("invalid generator spec")

// ErrTooLarge reports a graph (generated, loaded or built) that cannot fit
// in the memory this process may use: the least of the RAM, the cgroup's
// limit (v1 or v2) and the rlimits (ulimit -v, -d); see internal/memlimit.
var ErrTooLarge = memlimit.ErrTooLarge

const genForms = `valid forms: "kron:SCALE[:EDGEFACTOR]", "urand:SCALE[:EDGEFACTOR]", "grid:W:H", "rmf:A:B", "rlg:W:H", "vision:W:H"`

// GenOptions controls Generate.
type GenOptions struct {
	// Seed selects the random graph; zero means DefaultSeed.
	Seed uint64
}

func (o GenOptions) seed() uint64 {
	if o.Seed == 0 {
		return DefaultSeed
	}
	return o.Seed
}

// GenSpec is a parsed generator spec. Kind is "kron" or "urand" (using Scale
// and EdgeFactor) or "grid" (using W and H).
type GenSpec struct {
	Kind                    string
	Scale, EdgeFactor, W, H int
}

// String returns the canonical spec, which ParseGenSpec reads back into the
// same value: "kron:20:16", "urand:20:16", "grid:1000:1000".
func (s GenSpec) String() string {
	switch s.Kind {
	case "grid", "rmf", "rlg", "vision":
		return fmt.Sprintf("%s:%d:%d", s.Kind, s.W, s.H)
	case "kron", "urand":
		return fmt.Sprintf("%s:%d:%d", s.Kind, s.Scale, s.EdgeFactor)
	}
	return fmt.Sprintf("%s:?", s.Kind)
}

// NumVertices returns the vertex count of the generated graph (valid specs
// only).
func (s GenSpec) NumVertices() int64 {
	if s.Kind == "grid" {
		return int64(s.W) * int64(s.H)
	}
	if flowKind(s.Kind) {
		return s.flowVertices()
	}
	return int64(1) << s.Scale
}

// NumGenEdges returns how many edges the generator produces before
// symmetrization and de-duplication (valid specs only): EdgeFactor*2^Scale
// for kron and urand, W*(H-1)+H*(W-1) for grid.
func (s GenSpec) NumGenEdges() int64 {
	if s.Kind == "grid" {
		w, h := int64(s.W), int64(s.H)
		return w*(h-1) + h*(w-1)
	}
	if flowKind(s.Kind) {
		return s.flowEdges()
	}
	return int64(s.EdgeFactor) << s.Scale
}

func (s GenSpec) edgeListBytes() int64 {
	per := int64(8) // Src, Dst
	if s.Kind == "grid" || flowKind(s.Kind) {
		per += 4 // weights
	}
	return s.NumGenEdges() * per
}

// MemoryEstimate returns about how many bytes GenerateSpec needs at its
// peak (valid specs only): the generated edge list, Build's buffers and
// the CSR with two arcs per generated edge (see csrBytes), and the
// runtime's own. Calibrated against the peak RSS of `gearbox gen`
// (kron:18..20 and 22, urand:18, grid:2000:1000): 1-10% above it for kron
// and urand (the old estimate was 19% below at kron:22), 15% above for
// grid, whose de-duplication drops nothing.
func (s GenSpec) MemoryEstimate() int64 {
	return s.edgeListBytes() + csrBytes(s.NumVertices(), 2*s.NumGenEdges(), s.Kind == "grid" || flowKind(s.Kind)) + runtimeBytes
}

// runtimeBytes is the process's memory before any graph (the runtime,
// code, buffers).
const runtimeBytes = 32 << 20

// checkMemory refuses a graph that cannot fit in the memory the process
// may use, which would otherwise end the process (Go cannot recover from
// running out of memory).
func checkMemory(s GenSpec, need int64, what string) error {
	if err := memlimit.Check(need, fmt.Sprintf("%s (%s)", s, what)); err != nil {
		return err
	}
	return nil
}

// ParseGenSpec parses "kron:SCALE[:EDGEFACTOR]", "urand:SCALE[:EDGEFACTOR]"
// or "grid:W:H" and checks the limits (see Validate).
func ParseGenSpec(spec string) (GenSpec, error) {
	parts := strings.Split(strings.TrimSpace(spec), ":")
	kind := parts[0]
	num := func(i int, name string) (int, error) {
		v, err := strconv.Atoi(parts[i])
		if err != nil {
			return 0, fmt.Errorf("%w %q: %s %q is not an integer; %s", ErrGenSpec, spec, name, parts[i], genForms)
		}
		return v, nil
	}
	var s GenSpec
	var err error
	switch kind {
	case "kron", "urand":
		if len(parts) < 2 || len(parts) > 3 {
			return GenSpec{}, fmt.Errorf("%w %q: %s takes SCALE and an optional EDGEFACTOR; %s", ErrGenSpec, spec, kind, genForms)
		}
		s = GenSpec{Kind: kind, EdgeFactor: DefaultEdgeFactor}
		if s.Scale, err = num(1, "SCALE"); err != nil {
			return GenSpec{}, err
		}
		if len(parts) == 3 {
			if s.EdgeFactor, err = num(2, "EDGEFACTOR"); err != nil {
				return GenSpec{}, err
			}
		}
	case "grid", "rmf", "rlg", "vision":
		if len(parts) != 3 {
			return GenSpec{}, fmt.Errorf("%w %q: %s takes a width and a height; %s", ErrGenSpec, spec, kind, genForms)
		}
		s = GenSpec{Kind: kind}
		if s.W, err = num(1, "W"); err != nil {
			return GenSpec{}, err
		}
		if s.H, err = num(2, "H"); err != nil {
			return GenSpec{}, err
		}
	default:
		return GenSpec{}, fmt.Errorf("%w %q: unknown generator %q; %s", ErrGenSpec, spec, kind, genForms)
	}
	if err := s.Validate(); err != nil {
		return GenSpec{}, err
	}
	return s, nil
}

// Validate checks a spec's limits: SCALE in 1..MaxScale, EDGEFACTOR at least
// 1 with EDGEFACTOR*2^SCALE at most MaxGenEdges, W and H at least 1 with
// W*H at most MaxVertices.
func (s GenSpec) Validate() error {
	switch s.Kind {
	case "kron", "urand":
		if s.Scale < 1 || s.Scale > MaxScale {
			return fmt.Errorf("%w %s: SCALE %d outside 1..%d", ErrGenSpec, s.Kind, s.Scale, MaxScale)
		}
		if s.EdgeFactor < 1 {
			return fmt.Errorf("%w %s: EDGEFACTOR %d is below 1", ErrGenSpec, s.Kind, s.EdgeFactor)
		}
		if int64(s.EdgeFactor) > MaxGenEdges>>s.Scale {
			return fmt.Errorf("%w %s: EDGEFACTOR*2^SCALE = %d*2^%d exceeds the limit of %d generated edges",
				ErrGenSpec, s.Kind, s.EdgeFactor, s.Scale, MaxGenEdges)
		}
	case "grid":
		if s.W < 1 || s.H < 1 {
			return fmt.Errorf("%w grid: W %d and H %d must be at least 1", ErrGenSpec, s.W, s.H)
		}
		if uint64(s.W) > MaxVertices/uint64(s.H) {
			return fmt.Errorf("%w grid: W*H = %d*%d exceeds the limit of %d vertices", ErrGenSpec, s.W, s.H, uint64(MaxVertices))
		}
	case "rmf", "rlg", "vision":
		if s.W < 1 || s.H < 1 {
			return fmt.Errorf("%w %s: sizes %d and %d must be at least 1", ErrGenSpec, s.Kind, s.W, s.H)
		}
		if s.W > 1<<16 || s.H > 1<<30 || s.flowVertices() > int64(MaxVertices)-2 {
			return fmt.Errorf("%w %s: %d x %d gives %d vertices, over the limit %d", ErrGenSpec, s.Kind, s.W, s.H, s.flowVertices(), int64(MaxVertices)-2)
		}
		if s.Kind == "rmf" && s.W*s.W*s.H < 2 {
			return fmt.Errorf("%w rmf: 1 frame of 1x1 has no distinct source and sink", ErrGenSpec)
		}
	default:
		return fmt.Errorf("%w: unknown generator %q; %s", ErrGenSpec, s.Kind, genForms)
	}
	if m := s.NumGenEdges(); m > math.MaxInt {
		return fmt.Errorf("%w %s: %d edges do not fit this platform's int", ErrGenSpec, s, m)
	}
	return nil
}

// Generate parses spec and generates the graph: see GenerateSpec.
func Generate(spec string, opt GenOptions) (*Graph, error) {
	s, err := ParseGenSpec(spec)
	if err != nil {
		return nil, err
	}
	return GenerateSpec(s, opt)
}

// GenerateSpec generates an undirected graph:
//
//   - kron: Graph500 Kronecker (R-MAT) with A=0.57, B=0.19, C=0.19, D=0.05,
//     n = 2^SCALE vertices and EDGEFACTOR*n generated edges, vertex ids
//     scrambled by a seeded bijection of 0..n-1 (as GAP's -g permutes them)
//     so that id does not predict degree; unweighted.
//   - urand: EDGEFACTOR*n edges with both endpoints uniform in 0..n-1, n =
//     2^SCALE (GAP's -u); unweighted.
//   - grid: W x H four-neighbour grid, vertex x+y*W, each undirected edge
//     with one integer weight uniform in [1,255]; high diameter, road-like.
//   - rmf, rlg, vision: directed max-flow networks with terminals (see
//     genflow.go); parallel arcs are kept (max-flow sums them).
//
// Self-loops and duplicate edges are removed, so kron and urand have fewer
// than 2*EDGEFACTOR*n stored arcs. Errors: ErrGenSpec for an invalid spec,
// ErrTooLarge when MemoryEstimate exceeds the machine's memory.
func GenerateSpec(s GenSpec, opt GenOptions) (*Graph, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := checkMemory(s, s.MemoryEstimate(), "edge list, CSR and build buffers"); err != nil {
		return nil, err
	}
	el, err := GenerateEdges(s, opt)
	if err != nil {
		return nil, err
	}
	if flowKind(s.Kind) {
		g, err := Build(el, BuildOptions{KeepDuplicates: true})
		if err != nil {
			return nil, err
		}
		src, sink := s.flowTerminals()
		return g, g.SetTerminals(src, sink)
	}
	return Build(el, BuildOptions{Undirected: true})
}

// GenerateEdges returns the raw edge list of GenerateSpec, one entry per
// generated undirected edge (self-loops and duplicates included); Build it
// with BuildOptions{Undirected: true} to get GenerateSpec's graph.
func GenerateEdges(s GenSpec, opt GenOptions) (*EdgeList, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := checkMemory(s, s.edgeListBytes(), "edge list"); err != nil {
		return nil, err
	}
	seed := opt.seed()
	m := int(s.NumGenEdges())
	el := &EdgeList{NumVertices: int(s.NumVertices()), Src: make([]uint32, m), Dst: make([]uint32, m)}
	switch s.Kind {
	case "kron":
		genKron(el.Src, el.Dst, s.Scale, seed)
	case "urand":
		genUniform(el.Src, el.Dst, s.Scale, seed)
	case "grid":
		el.Weights = make([]uint32, m)
		el.WeightKind = IntWeights
		genGrid(el.Src, el.Dst, el.Weights, s.W, s.H, seed)
	case "rmf", "rlg", "vision":
		el.Weights = make([]uint32, m)
		el.WeightKind = IntWeights
		genFlow(s, el, seed)
	}
	return el, nil
}

// splitmix is the splitmix64 generator: tiny state, fast, and good enough
// for graph generation (it passes BigCrush).
type splitmix struct{ s uint64 }

func (r *splitmix) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return mix64(r.s)
}

// Stream tags keep the generators' streams apart for one seed.
const (
	tagKron  = 0x6b726f6e // "kron"
	tagURand = 0x75726e64 // "urnd"
	tagGrid  = 0x67726964 // "grid"
	tagPerm  = 0x7065726d // "perm"
)

// blockRNG returns the stream of one block: a function of seed, tag and
// block only, which is what makes the output independent of the workers.
func blockRNG(seed, tag uint64, block int) splitmix {
	return splitmix{s: mix64(mix64(seed^tag*0xd1b54a32d192ed03) + uint64(block)*0xa0761d6478bd642f)}
}

// forBlocks runs fn over the blocks of m edges in parallel.
func forBlocks(m int, fn func(block, lo, hi int)) {
	blocks := (m + genBlock - 1) / genBlock
	par.For(blocks, 1, func(blo, bhi int) {
		for b := blo; b < bhi; b++ {
			fn(b, b*genBlock, min((b+1)*genBlock, m))
		}
	})
}

// scrambler is a seeded bijection of 0..2^bits-1: multiplication by an odd
// constant and right xor-shifts are each invertible modulo 2^bits, and
// alternating them spreads every input bit over the output. It replaces
// GAP's random permutation of ids without a serial shuffle or an n-entry
// table.
type scrambler struct {
	mask           uint64
	shift          uint
	k0, k1, m1, m2 uint64
}

func newScrambler(bits int, seed uint64) scrambler {
	r := blockRNG(seed, tagPerm, 0)
	return scrambler{
		mask:  1<<uint(bits) - 1,
		shift: uint(bits+1) / 2,
		k0:    r.next(), k1: r.next(),
		m1: r.next() | 1, m2: r.next() | 1,
	}
}

func (p *scrambler) apply(x uint32) uint32 {
	v := (uint64(x) ^ p.k0) & p.mask
	v = v * p.m1 & p.mask
	v ^= v >> p.shift
	v = (v*p.m2 + p.k1) & p.mask
	v ^= v >> p.shift
	v = v * p.m1 & p.mask
	v ^= v >> p.shift
	return uint32(v)
}

func genUniform(src, dst []uint32, scale int, seed uint64) {
	mask := uint64(1)<<uint(scale) - 1
	forBlocks(len(src), func(b, lo, hi int) {
		r := blockRNG(seed, tagURand, b)
		for i := lo; i < hi; i++ {
			x := r.next()
			src[i], dst[i] = uint32(x&mask), uint32(x>>32&mask)
		}
	})
}

// genGrid lists the H*(W-1) horizontal edges row by row, then the W*(H-1)
// vertical ones, each with a weight in [1,255].
func genGrid(src, dst, wt []uint32, w, h int, seed uint64) {
	horiz := h * (w - 1)
	forBlocks(len(src), func(b, lo, hi int) {
		r := blockRNG(seed, tagGrid, b)
		i := lo
		if i < horiz { // horizontal: edge i is (x,y)-(x+1,y), x = i mod (w-1)
			x, y := i%(w-1), i/(w-1)
			for ; i < min(hi, horiz); i++ {
				v := uint32(y*w + x)
				src[i], dst[i] = v, v+1
				if x++; x == w-1 {
					x, y = 0, y+1
				}
			}
		}
		if i < hi { // vertical: edge horiz+j is (x,y)-(x,y+1), v = j
			for ; i < hi; i++ {
				v := uint32(i - horiz)
				src[i], dst[i] = v, v+uint32(w)
			}
		}
		for i := lo; i < hi; i++ {
			wt[i] = 1 + uint32((r.next()>>32)*255>>32)
		}
	})
}

// Bit-sliced R-MAT. At each level an edge falls in quadrant A (src bit 0,
// dst bit 0), B (0,1), C (1,0) or D (1,1). Equivalently the src bit is
// Bernoulli(C+D) and the dst bit is Bernoulli(B/(A+B)) or Bernoulli(D/(C+D))
// given it; drawn that way, 64 (edge, level) lanes come out of a few
// bitwise operations on random words, about half the CPU time of drawing
// and comparing a uniform per level. The probabilities are 16-bit fractions, so A..D are
// within 2e-5 of 0.57, 0.19, 0.19, 0.05.
const (
	kronSrc1   = 15729 // round(0.24 * 65536): P(src bit) = C+D
	kronDstIf1 = 13653 // round(0.05/0.24 * 65536): P(dst bit | src bit)
)

// bernoulli returns 64 independent bits, each 1 with probability p/65536:
// walking p's bits from the least significant, OR-ing a random word in for
// a 1 and AND-ing it in for a 0 gives P(1) = 0.b16...b1 in binary.
func bernoulli(r *splitmix, p uint32) uint64 {
	var x uint64
	st := r.s // a local copy stays in a register
	for i := 0; i < 16; i++ {
		st += 0x9e3779b97f4a7c15
		if w := mix64(st); p>>i&1 != 0 {
			x |= w
		} else {
			x &= w
		}
	}
	r.s = st
	return x
}

// kronEdges fills src and dst with R-MAT edges of 2^scale vertices, taking
// 64/scale edges from each group of 64 lanes.
func kronEdges(r *splitmix, scale int, src, dst []uint32) {
	per := 64 / scale
	mask := uint64(1)<<scale - 1
	for i := 0; i < len(src); i += per {
		s := bernoulli(r, kronSrc1)
		d1 := bernoulli(r, kronDstIf1)
		d0 := r.next() & r.next() // exactly B/(A+B) = 1/4
		d := s&d1 | ^s&d0
		for j := 0; j < per && i+j < len(src); j++ {
			sh := uint(j * scale)
			src[i+j], dst[i+j] = uint32(s>>sh&mask), uint32(d>>sh&mask)
		}
	}
}

func genKron(src, dst []uint32, scale int, seed uint64) {
	perm := newScrambler(scale, seed)
	forBlocks(len(src), func(b, lo, hi int) {
		r := blockRNG(seed, tagKron, b)
		kronEdges(&r, scale, src[lo:hi], dst[lo:hi])
		for i := lo; i < hi; i++ {
			src[i], dst[i] = perm.apply(src[i]), perm.apply(dst[i])
		}
	})
}
