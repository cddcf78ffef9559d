package maxflow

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// edmondsKarp is the serial reference: shortest augmenting paths on a
// dense residual matrix (small graphs only).
func edmondsKarp(n int, src, dst []uint32, caps []int64, s, t uint32) int64 {
	c := make([][]int64, n)
	for i := range c {
		c[i] = make([]int64, n)
	}
	for i := range src {
		if src[i] != dst[i] {
			c[src[i]][dst[i]] += caps[i]
		}
	}
	var total int64
	for {
		par := make([]int, n)
		for i := range par {
			par[i] = -1
		}
		par[s] = int(s)
		q := []int{int(s)}
		for len(q) > 0 && par[t] < 0 {
			u := q[0]
			q = q[1:]
			for w := 0; w < n; w++ {
				if par[w] < 0 && c[u][w] > 0 {
					par[w] = u
					q = append(q, w)
				}
			}
		}
		if par[t] < 0 {
			return total
		}
		b := int64(math.MaxInt64)
		for v := int(t); v != int(s); v = par[v] {
			b = min(b, c[par[v]][v])
		}
		for v := int(t); v != int(s); v = par[v] {
			c[par[v]][v] -= b
			c[v][par[v]] += b
		}
		total += b
	}
}

type variant struct {
	name    string
	alg     Algorithm
	workers int
	force   string // forced engine variant for Sync, "" adaptive
}

func variants() []variant {
	v := []variant{{"hl", HighestLabel, 1, ""}, {"fifo", FIFO, 1, ""}}
	for _, w := range []int{1, 3} {
		for _, f := range []string{"", "U_T_BM", "U_T_QU", "U_B_BM", "U_B_QU"} {
			v = append(v, variant{fmt.Sprintf("sync-w%d-%s", w, f), Sync, w, f})
		}
	}
	return v
}

func (v variant) opts(t *testing.T) []Option {
	rt := []runtime.Option{runtime.WithBackend(runtime.NewCPU(v.workers))}
	if v.force != "" {
		rt = append(rt, forceVariant(t, v.force))
	}
	return []Option{WithAlgorithm(v.alg), WithRuntime(rt...)}
}

// check runs every variant, verifies each result by its properties and
// compares values, cuts and (for Sync) per-arc flows across worker counts.
func check(t *testing.T, r *graph.Residual, s, tt uint32, want int64) {
	t.Helper()
	checkSome(t, r, s, tt, want, true)
}

func checkSome(t *testing.T, r *graph.Residual, s, tt uint32, want int64, withSync bool) {
	t.Helper()
	flows := map[string][]int64{}
	for _, v := range variants() {
		if v.alg == Sync && !withSync {
			continue
		}
		res, err := Run(context.Background(), r, s, tt, v.opts(t)...)
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		if res.Value() != want {
			t.Fatalf("%s: flow value %d, want %d", v.name, res.Value(), want)
		}
		side := make([]bool, r.NumVertices())
		for _, u := range res.SourceSide() {
			side[u] = true
		}
		if err := Verify(r, s, tt, res.Flows(), res.Value(), side); err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		if c := res.CutCapacity(); c != want {
			t.Fatalf("%s: cut capacity %d, want %d", v.name, c, want)
		}
		if v.alg == Sync {
			key := v.force
			if prev, ok := flows[key]; ok {
				for e := range prev {
					if prev[e] != res.Flow(int64(e)) {
						t.Fatalf("%s: arc %d flow %d differs from another worker count's %d", v.name, e, res.Flow(int64(e)), prev[e])
					}
				}
			}
			flows[key] = res.Flows()
		}
	}
}

func randomArcs(rng *rand.Rand, n, m int, maxCap int64) (src, dst []uint32, caps []int64) {
	for i := 0; i < m; i++ {
		src = append(src, uint32(rng.IntN(n)))
		dst = append(dst, uint32(rng.IntN(n)))
		caps = append(caps, rng.Int64N(maxCap+1))
	}
	return
}

func TestRandomAgainstReference(t *testing.T) {
	checkRandom(t, 11, 60)
}

// checkRandom runs count random networks (seed picks them) through every
// solver against Edmonds-Karp.
func checkRandom(t *testing.T, seed uint64, count int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, seed))
	for i := 0; i < count; i++ {
		n := 2 + rng.IntN(40)
		m := rng.IntN(6 * n)
		src, dst, caps := randomArcs(rng, n, m, []int64{1, 10, 1000}[i%3])
		r, err := graph.NewResidualArcs(n, src, dst, caps)
		if err != nil {
			t.Fatal(err)
		}
		s, tt := uint32(0), uint32(n-1)
		want := edmondsKarp(n, src, dst, caps, s, tt)
		t.Run(fmt.Sprint(i), func(t *testing.T) { check(t, r, s, tt, want) })
	}
}

func TestSpecialCases(t *testing.T) {
	cases := []struct {
		name string
		n    int
		arcs [][3]int64
		want int64
	}{
		{"unreachable sink", 4, [][3]int64{{0, 1, 5}, {1, 2, 5}}, 0},
		{"source without out-arcs", 3, [][3]int64{{1, 0, 5}, {1, 2, 5}}, 0},
		{"parallel arcs", 2, [][3]int64{{0, 1, 3}, {0, 1, 4}, {0, 1, 0}}, 7},
		{"anti-parallel arcs", 3, [][3]int64{{0, 1, 5}, {1, 0, 7}, {1, 2, 9}, {2, 1, 2}}, 5},
		{"zero capacities", 3, [][3]int64{{0, 1, 0}, {1, 2, 4}, {0, 2, 0}}, 0},
		{"self-loops", 2, [][3]int64{{0, 0, 9}, {0, 1, 2}, {1, 1, 9}}, 2},
		{"near 2^31", 4, [][3]int64{{0, 1, 1<<31 - 1}, {0, 2, 1 << 31}, {1, 3, 1 << 31}, {2, 3, 1<<31 + 1}}, 1<<32 - 1},
		{"near 2^63", 4, [][3]int64{{0, 1, 1 << 62}, {0, 2, 1<<62 - 1}, {1, 3, math.MaxInt64 - 5}, {2, 3, 1 << 62}}, math.MaxInt64},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var src, dst []uint32
			var caps []int64
			for _, a := range c.arcs {
				src, dst, caps = append(src, uint32(a[0])), append(dst, uint32(a[1])), append(caps, a[2])
			}
			r, err := graph.NewResidualArcs(c.n, src, dst, caps)
			if err != nil {
				t.Fatal(err)
			}
			check(t, r, 0, uint32(c.n-1), c.want)
		})
	}
}

func TestOverflowIsAnError(t *testing.T) {
	r, err := graph.NewResidualArcs(3, []uint32{0, 0, 1}, []uint32{1, 2, 2}, []int64{math.MaxInt64, 1, 5})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), r, 0, 2)
	if !errors.Is(err, ErrCapacity) {
		t.Fatalf("got %v, want ErrCapacity", err)
	}
}

func TestTerminals(t *testing.T) {
	r, err := graph.NewResidualArcs(3, []uint32{0}, []uint32{1}, []int64{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range [][2]uint32{{1, 1}, {0, 3}, {5, 1}} {
		if _, err := Run(context.Background(), r, st[0], st[1]); !errors.Is(err, ErrTerminal) {
			t.Fatalf("s=%d t=%d: got %v, want ErrTerminal", st[0], st[1], err)
		}
	}
}

func TestVerifyCatchesWrongAnswers(t *testing.T) {
	r, err := graph.NewResidualArcs(3, []uint32{0, 1}, []uint32{1, 2}, []int64{4, 3})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), r, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	side := []bool{true, true, false}
	if err := Verify(r, 0, 2, res.Flows(), 3, side); err != nil {
		t.Fatalf("right answer refused: %v", err)
	}
	bad := res.Flows()
	for e := range bad {
		if bad[e] > 0 {
			bad[e]--
			break
		}
	}
	if err := Verify(r, 0, 2, bad, 3, side); !errors.Is(err, ErrVerify) {
		t.Fatalf("broken conservation accepted: %v", err)
	}
	if err := Verify(r, 0, 2, res.Flows(), 3, []bool{true, false, false}); !errors.Is(err, ErrVerify) {
		t.Fatalf("wrong cut accepted: %v", err)
	}
	if err := Verify(r, 0, 2, make([]int64, len(bad)), 0, []bool{true, false, false}); !errors.Is(err, ErrVerify) {
		t.Fatalf("zero flow accepted: %v", err)
	}
}

func TestDatasets(t *testing.T) {
	dir := os.Getenv("GEARBOX_DATASETS")
	if dir == "" {
		t.Skip("GEARBOX_DATASETS not set")
	}
	for _, c := range []struct {
		file string
		want int64
		sync bool
	}{{"ak-4102.max", 8207, false}, {"nx-gl1.max", 156545, true}, {"nx-gw1.max", 1202018, true}, {"nx-wlm3.max", 11875108, true}} {
		t.Run(c.file, func(t *testing.T) {
			if raceEnabled && !c.sync {
				t.Skip("ak-4102's 24M pushes take minutes under the race detector; the serial solvers share no memory")
			}
			g, err := graph.Load(filepath.Join(dir, c.file), graph.LoadOptions{KeepDuplicates: true})
			if err != nil {
				t.Fatal(err)
			}
			r, s, tt := network(t, g)
			// AK is built against push-relabel: a 4K-vertex path that the
			// synchronous passes walk one hop per pass, millions of passes
			// (TestSyncAK runs it in long mode).
			checkSome(t, r, s, tt, c.want, c.sync)
		})
	}
}

func forceVariant(t *testing.T, s string) runtime.Option {
	t.Helper()
	v, err := decider.ParseVariant(s)
	if err != nil {
		t.Fatal(err)
	}
	return runtime.WithVariant(v)
}

func TestGeneratedAgainstReference(t *testing.T) {
	for _, spec := range []string{"rmf:3:5", "rlg:6:7", "vision:9:7"} {
		g := generated(t, spec, 3)
		r, s, tt := network(t, g)
		var src, dst []uint32
		var caps []int64
		for u := 0; u < g.NumVertices(); u++ {
			for i, v := range g.Neighbors(uint32(u)) {
				src, dst, caps = append(src, uint32(u)), append(dst, v), append(caps, int64(g.EdgeWeights(uint32(u))[i]))
			}
		}
		want := edmondsKarp(g.NumVertices(), src, dst, caps, s, tt)
		if want == 0 {
			t.Fatalf("%s: zero flow makes a weak test", spec)
		}
		t.Run(spec, func(t *testing.T) { check(t, r, s, tt, want) })
	}
}

func Example() {
	// 0 -> 1 -> 3 and 0 -> 2 -> 3, with a cross arc 1 -> 2.
	r, err := graph.NewResidualArcs(4, []uint32{0, 0, 1, 1, 2}, []uint32{1, 2, 3, 2, 3}, []int64{3, 2, 2, 5, 3})
	if err != nil {
		panic(err)
	}
	res, err := Run(context.Background(), r, 0, 3)
	if err != nil {
		panic(err)
	}
	fmt.Println("flow value:", res.Value(), "cut:", res.CutCapacity(), "source side:", res.SourceSide())
	// Output: flow value: 5 cut: 5 source side: [0]
}

// TestParallelPasses runs graphs whose active sets and BFS levels are
// large enough for the workers to share passes (small ones run inline),
// the values checked against the serial solver and by Verify.
func TestParallelPasses(t *testing.T) {
	for _, spec := range []string{"vision:70:60", "rlg:600:4"} {
		r, s, tt := network(t, generated(t, spec, 9))
		t.Run(spec, func(t *testing.T) { checkAgainstHighestLabel(t, r, s, tt) })
	}
}

// TestKitRelabel runs the random cases with the other global relabel of
// the Sync solver (useKitBFS: the frontier kit's BFS or backwardBFS).
func TestKitRelabel(t *testing.T) {
	useKitBFS = !useKitBFS
	defer func() { useKitBFS = !useKitBFS }()
	checkRandom(t, 12, 30)
	r, s, tt := network(t, generated(t, "rlg:16:16", 0))
	checkAgainstHighestLabel(t, r, s, tt)
}

// generated returns the generated graph of spec with seed (0: the default).
func generated(tb testing.TB, spec string, seed uint64) *graph.Graph {
	tb.Helper()
	g, err := graph.Generate(spec, graph.GenOptions{Seed: seed})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// network returns g's residual network and its terminals.
func network(tb testing.TB, g *graph.Graph) (r *graph.Residual, s, t uint32) {
	tb.Helper()
	s, t, ok := g.Terminals()
	if !ok {
		tb.Fatal("no terminals")
	}
	r, err := graph.NewResidual(g)
	if err != nil {
		tb.Fatal(err)
	}
	return r, s, t
}

// checkAgainstHighestLabel checks every solver against the serial
// highest-label one's value.
func checkAgainstHighestLabel(t *testing.T, r *graph.Residual, s, tt uint32) {
	t.Helper()
	ref, err := Run(context.Background(), r, s, tt, WithAlgorithm(HighestLabel))
	if err != nil {
		t.Fatal(err)
	}
	check(t, r, s, tt, ref.Value())
}
