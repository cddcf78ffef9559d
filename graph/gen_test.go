package graph

import (
	"encoding/binary"
	"errors"
	"github.com/gearbox-graph/gearbox/internal/memlimit"
	"hash/fnv"
	"runtime"
	"strings"
	"testing"
)

// csrHash hashes a graph's CSR arrays and flags.
func csrHash(g *Graph) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	put := func(x uint64) {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	put(uint64(g.NumVertices()))
	for _, o := range g.Offsets() {
		put(uint64(o))
	}
	for _, a := range g.Adj() {
		put(uint64(a))
	}
	put(uint64(len(g.Weights())))
	for _, w := range g.Weights() {
		put(uint64(w))
	}
	put(uint64(g.WeightKind()))
	return h.Sum64()
}

func mustGen(t testing.TB, spec string, seed uint64) *Graph {
	t.Helper()
	g, err := Generate(spec, GenOptions{Seed: seed})
	if err != nil {
		t.Fatalf("Generate(%q): %v", spec, err)
	}
	return g
}

func TestParseGenSpec(t *testing.T) {
	good := []struct {
		in   string
		want GenSpec
		str  string
	}{
		{"kron:10", GenSpec{Kind: "kron", Scale: 10, EdgeFactor: 16}, "kron:10:16"},
		{"kron:20:8", GenSpec{Kind: "kron", Scale: 20, EdgeFactor: 8}, "kron:20:8"},
		{"urand:1", GenSpec{Kind: "urand", Scale: 1, EdgeFactor: 16}, "urand:1:16"},
		{"urand:31:8", GenSpec{Kind: "urand", Scale: 31, EdgeFactor: 8}, "urand:31:8"},
		{" grid:3:4 ", GenSpec{Kind: "grid", W: 3, H: 4}, "grid:3:4"},
		{"grid:1:1", GenSpec{Kind: "grid", W: 1, H: 1}, "grid:1:1"},
		{"grid:65536:65535", GenSpec{Kind: "grid", W: 65536, H: 65535}, "grid:65536:65535"},
	}
	for _, c := range good {
		s, err := ParseGenSpec(c.in)
		if err != nil {
			t.Errorf("ParseGenSpec(%q): %v", c.in, err)
			continue
		}
		if s != c.want || s.String() != c.str {
			t.Errorf("ParseGenSpec(%q) = %+v (%s), want %+v (%s)", c.in, s, s, c.want, c.str)
		}
		if back, err := ParseGenSpec(s.String()); err != nil || back != s {
			t.Errorf("round trip of %s: %+v, %v", s, back, err)
		}
	}
	bad := []struct{ in, mention string }{
		{"kron", "SCALE"},
		{"kron:x", `"x" is not an integer`},
		{"kron:10:y", "EDGEFACTOR"},
		{"kron:1:2:3", "valid forms"},
		{"grid:3", "width and a height"},
		{"grid:3:4:5", "valid forms"},
		{"foo:3", `unknown generator "foo"`},
		{"", "valid forms"},
		{"kron:0", "SCALE 0 outside 1..31"},
		{"kron:32", "SCALE 32 outside 1..31"},
		{"urand:-3", "SCALE -3"},
		{"kron:10:0", "EDGEFACTOR 0 is below 1"},
		{"kron:31", "exceeds the limit of 17179869184"},
		{"urand:20:99999999", "exceeds the limit"},
		{"kron:99999999999999999999999", "not an integer"},
		{"grid:0:5", "W 0 and H 5"},
		{"grid:5:-1", "W 5 and H -1"},
		{"grid:65536:65536", "exceeds the limit of 4294967295 vertices"},
		{"grid:4294967296:4294967296", "exceeds the limit"},
	}
	for _, c := range bad {
		_, err := ParseGenSpec(c.in)
		if err == nil {
			t.Errorf("ParseGenSpec(%q): no error", c.in)
			continue
		}
		if !errors.Is(err, ErrGenSpec) || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("ParseGenSpec(%q) = %v, want ErrGenSpec mentioning %q", c.in, err, c.mention)
		}
		if _, gerr := Generate(c.in, GenOptions{}); gerr == nil {
			t.Errorf("Generate(%q): no error", c.in)
		}
	}
	if _, err := GenerateSpec(GenSpec{Kind: "kron", Scale: 40, EdgeFactor: 1}, GenOptions{}); !errors.Is(err, ErrGenSpec) {
		t.Errorf("GenerateSpec of an unvalidated bad spec: %v", err)
	}
}

func TestGenerateRefusesWhatCannotFit(t *testing.T) {
	s, err := ParseGenSpec("kron:31:8") // 2^34 edges: 128 GiB of edge list alone
	if err != nil {
		t.Fatal(err)
	}
	have := memlimit.Available().Bytes
	if have == 0 || s.MemoryEstimate() <= have {
		t.Skipf("memory size unknown or huge (%d bytes): cannot test the refusal safely", have)
	}
	for _, f := range []func() error{
		func() error { _, err := GenerateSpec(s, GenOptions{}); return err },
		func() error { _, err := GenerateEdges(s, GenOptions{}); return err },
	} {
		if err := f(); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "kron:31:8 (") || !strings.Contains(err.Error(), "needs about") {
			t.Fatalf("want a memory error, got %v", err)
		}
	}
	if small, _ := ParseGenSpec("kron:10"); small.MemoryEstimate() > have {
		t.Fatalf("kron:10 estimated at %d bytes", small.MemoryEstimate())
	}
}

func TestKronQuadrantFrequencies(t *testing.T) {
	want := [4]float64{0.57, 0.19, 0.19, 0.05} // A, B, C, D
	for _, scale := range []int{1, 7, 20, 31} {
		const m = 1 << 18
		src, dst := make([]uint32, m), make([]uint32, m)
		r := blockRNG(1, tagKron, scale)
		kronEdges(&r, scale, src, dst)
		var cnt [4]float64
		for i := range src {
			if src[i]>>scale != 0 || dst[i]>>scale != 0 {
				t.Fatalf("scale %d: edge %d-%d out of range", scale, src[i], dst[i])
			}
			for l := 0; l < scale; l++ {
				cnt[(src[i]>>l&1)<<1|dst[i]>>l&1]++
			}
		}
		for q := range cnt {
			// m*scale >= 2^18 draws: 5 standard deviations is below 0.005.
			if f := cnt[q] / float64(m*scale); f < want[q]-0.005 || f > want[q]+0.005 {
				t.Errorf("scale %d: quadrant %c frequency %.4f, want %.2f", scale, 'A'+q, f, want[q])
			}
		}
	}
}

func TestScramblerIsBijection(t *testing.T) {
	for bits := 1; bits <= 16; bits++ {
		p := newScrambler(bits, uint64(bits)*7+1)
		n := 1 << bits
		seen := make([]bool, n)
		fixed := 0
		for x := 0; x < n; x++ {
			y := p.apply(uint32(x))
			if int(y) >= n || seen[y] {
				t.Fatalf("bits=%d: %d maps to %d (out of range or repeated)", bits, x, y)
			}
			seen[y] = true
			if int(y) == x {
				fixed++
			}
		}
		if bits >= 8 && fixed > n/16 {
			t.Errorf("bits=%d: %d of %d ids unmoved", bits, fixed, n)
		}
	}
}

// checkUndirectedSimple checks symmetry, no self-loops, no duplicates, and
// symmetric weights.
func checkUndirectedSimple(t *testing.T, g *Graph) {
	t.Helper()
	if g.Directed() {
		t.Fatal("generated graph is directed")
	}
	if err := g.validate(); err != nil {
		t.Fatal(err)
	}
	n := g.NumVertices()
	for v := 0; v < n; v++ {
		nb := g.Neighbors(uint32(v))
		ws := g.EdgeWeights(uint32(v))
		for i, u := range nb {
			if u == uint32(v) {
				t.Fatalf("self-loop at %d", v)
			}
			if i > 0 && nb[i-1] == u {
				t.Fatalf("duplicate arc %d->%d", v, u)
			}
			back := g.Neighbors(u)
			j := 0
			for j < len(back) && back[j] < uint32(v) {
				j++
			}
			if j == len(back) || back[j] != uint32(v) {
				t.Fatalf("arc %d->%d has no reverse", v, u)
			}
			if ws != nil {
				if ws[i] < 1 || ws[i] > 255 {
					t.Fatalf("weight %d of %d->%d outside [1,255]", ws[i], v, u)
				}
				if g.EdgeWeights(u)[j] != ws[i] {
					t.Fatalf("weights of %d->%d and back differ: %d vs %d", v, u, ws[i], g.EdgeWeights(u)[j])
				}
			}
		}
	}
}

func TestGenerateStructure(t *testing.T) {
	for _, spec := range []string{"kron:10", "kron:8:4", "urand:10", "urand:6:2", "kron:1:1"} {
		t.Run(spec, func(t *testing.T) {
			s, _ := ParseGenSpec(spec)
			g := mustGen(t, spec, 0)
			if int64(g.NumVertices()) != s.NumVertices() || g.WeightKind() != Unweighted {
				t.Fatalf("n=%d kind=%v", g.NumVertices(), g.WeightKind())
			}
			if g.NumEdges() > 2*s.NumGenEdges() || g.NumEdges() == 0 && s.Scale > 1 {
				t.Fatalf("%d arcs from %d generated edges", g.NumEdges(), s.NumGenEdges())
			}
			checkUndirectedSimple(t, g)
		})
	}
}

func TestKronIsSkewedURandIsNot(t *testing.T) {
	maxDeg := func(g *Graph) int64 {
		var m int64
		for v := 0; v < g.NumVertices(); v++ {
			m = max(m, g.Degree(uint32(v)))
		}
		return m
	}
	k, u := mustGen(t, "kron:12", 0), mustGen(t, "urand:12", 0)
	kAvg := float64(k.NumEdges()) / float64(k.NumVertices())
	uAvg := float64(u.NumEdges()) / float64(u.NumVertices())
	// R-MAT at this size has hubs of degree in the hundreds; uniform
	// random graphs stay within a small multiple of the average.
	if float64(maxDeg(k)) < 10*kAvg {
		t.Errorf("kron:12 max degree %d, average %.1f: not skewed", maxDeg(k), kAvg)
	}
	if float64(maxDeg(u)) > 3*uAvg {
		t.Errorf("urand:12 max degree %d, average %.1f: too skewed", maxDeg(u), uAvg)
	}
	// Almost all of urand's 16 edges per vertex are distinct.
	if uAvg < 31 {
		t.Errorf("urand:12 average degree %.2f, want about 32", uAvg)
	}
	// The id scramble moves the hub away from vertex 0.
	if k.Degree(0) == maxDeg(k) {
		t.Errorf("kron:12: vertex 0 is the hub; ids not permuted")
	}
}

func TestGridStructure(t *testing.T) {
	for _, c := range []struct{ w, h int }{{16, 16}, {1, 1}, {1, 7}, {7, 1}, {2, 2}, {5, 3}, {300, 200}} {
		g, err := GenerateSpec(GenSpec{Kind: "grid", W: c.w, H: c.h}, GenOptions{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		n := c.w * c.h
		arcs := int64(2 * (c.w*(c.h-1) + c.h*(c.w-1)))
		if g.NumVertices() != n || g.NumEdges() != arcs || g.WeightKind() != IntWeights {
			t.Fatalf("grid %dx%d: n=%d arcs=%d kind=%v, want n=%d arcs=%d", c.w, c.h, g.NumVertices(), g.NumEdges(), g.WeightKind(), n, arcs)
		}
		checkUndirectedSimple(t, g)
		for v := 0; v < n; v++ {
			x, y := v%c.w, v/c.w
			want := 0
			for _, ok := range []bool{x > 0, x < c.w-1, y > 0, y < c.h-1} {
				if ok {
					want++
				}
			}
			if g.Degree(uint32(v)) != int64(want) {
				t.Fatalf("grid %dx%d: vertex (%d,%d) degree %d, want %d", c.w, c.h, x, y, g.Degree(uint32(v)), want)
			}
			for _, u := range g.Neighbors(uint32(v)) {
				ux, uy := int(u)%c.w, int(u)/c.w
				if d := abs(ux-x) + abs(uy-y); d != 1 {
					t.Fatalf("grid %dx%d: (%d,%d)-(%d,%d) not neighbours", c.w, c.h, x, y, ux, uy)
				}
			}
		}
	}
	// The weights spread over the whole range.
	g := mustGen(t, "grid:300:200", 1)
	var seen [256]bool
	for _, w := range g.Weights() {
		seen[w] = true
	}
	for w := 1; w <= 255; w++ {
		if !seen[w] {
			t.Fatalf("weight %d never drawn in %d edges", w, len(g.Weights()))
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestGenerateDeterministic(t *testing.T) {
	// Specs large enough to span several random-stream blocks.
	specs := []string{"kron:10", "urand:10", "grid:16:16", "kron:14", "urand:13:4", "grid:300:200"}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	hashes := map[string]uint64{}
	for _, procs := range []int{1, 4, 2} {
		runtime.GOMAXPROCS(procs)
		for _, spec := range specs {
			h := csrHash(mustGen(t, spec, 0))
			if h2 := csrHash(mustGen(t, spec, 0)); h2 != h {
				t.Fatalf("%s: two runs with GOMAXPROCS=%d differ", spec, procs)
			}
			if prev, ok := hashes[spec]; ok && prev != h {
				t.Fatalf("%s: GOMAXPROCS=%d gives a different graph", spec, procs)
			}
			hashes[spec] = h
		}
	}
	for _, spec := range specs {
		if a, b := csrHash(mustGen(t, spec, 0)), csrHash(mustGen(t, spec, DefaultSeed)); a != b {
			t.Errorf("%s: seed 0 is not DefaultSeed", spec)
		}
		if a, b := csrHash(mustGen(t, spec, 1)), csrHash(mustGen(t, spec, 2)); a == b {
			t.Errorf("%s: seeds 1 and 2 give the same graph", spec)
		}
	}
}

func TestGenerateEdgesCounts(t *testing.T) {
	for _, spec := range []string{"kron:9:3", "urand:11", "grid:13:7"} {
		s, _ := ParseGenSpec(spec)
		el, err := GenerateEdges(s, GenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(el.Src)) != s.NumGenEdges() || len(el.Dst) != len(el.Src) || int64(el.NumVertices) != s.NumVertices() {
			t.Fatalf("%s: %d/%d edges over %d vertices, want %d over %d", spec, len(el.Src), len(el.Dst), el.NumVertices, s.NumGenEdges(), s.NumVertices())
		}
		for i := range el.Src {
			if int(el.Src[i]) >= el.NumVertices || int(el.Dst[i]) >= el.NumVertices {
				t.Fatalf("%s: edge %d = %d-%d out of range", spec, i, el.Src[i], el.Dst[i])
			}
		}
	}
}
