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
	force   string          // forced engine variant for Sync, "" adaptive
	backend runtime.Backend // nil: the CPU with workers
	knobs   *Knobs          // nil: the defaults
	extra   []runtime.Option
}

// variants are the CPU solvers; withSync adds Sync under the policy and
// every static variant at two worker counts.
func variants(withSync bool) []variant {
	v := []variant{{name: "hl", alg: HighestLabel, workers: 1}, {name: "fifo", alg: FIFO, workers: 1}}
	if !withSync {
		return v
	}
	for _, w := range []int{1, 3} {
		for _, f := range syncForced {
			v = append(v, variant{name: fmt.Sprintf("sync-w%d-%s", w, f), alg: Sync, workers: w, force: f})
		}
	}
	return v
}

// syncForced are the engine variants the Sync tests force ("" the policy).
var syncForced = []string{"", "U_T_BM", "U_T_QU", "U_B_BM", "U_B_QU"}

func (v variant) opts(t *testing.T) []Option {
	b := v.backend
	if b == nil {
		b = runtime.NewCPU(v.workers)
	}
	rt := append([]runtime.Option{runtime.WithBackend(b)}, v.extra...)
	if v.force != "" {
		rt = append(rt, forceVariant(t, v.force))
	}
	o := []Option{WithAlgorithm(v.alg), WithRuntime(rt...)}
	if v.knobs != nil {
		o = append(o, WithKnobs(*v.knobs))
	}
	return o
}

// check runs every CPU variant, verifies each result by its properties and
// compares values, cuts and (for Sync) per-arc flows across worker counts.
func check(t *testing.T, r *graph.Residual, s, tt uint32, want int64) {
	t.Helper()
	checkSome(t, variants(true), r, s, tt, want)
}

func checkSome(t *testing.T, vs []variant, r *graph.Residual, s, tt uint32, want int64) {
	t.Helper()
	flows := map[string][]int64{}
	for _, v := range vs {
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
		if v.alg == Sync && v.backend == nil {
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
	checkRandom(t, 11, 60, variants(true))
}

// checkRandom runs count random networks (seed picks them) through the
// solvers vs against Edmonds-Karp.
func checkRandom(t *testing.T, seed uint64, count int, vs []variant) {
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
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkSome(t, vs, r, s, tt, want) })
	}
}

func TestSpecialCases(t *testing.T) { checkSpecial(t, variants(true)) }

// checkSpecial runs the hand-made networks through the solvers vs.
func checkSpecial(t *testing.T, vs []variant) {
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
			checkSome(t, vs, r, 0, uint32(c.n-1), c.want)
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
	checkDatasets(t, func(ak bool) []variant {
		// AK is built against push-relabel: a 4K-vertex path that the
		// synchronous passes walk one hop per pass, millions of passes.
		return variants(!ak)
	})
}

// checkDatasets runs the DIMACS files of GEARBOX_DATASETS with their known
// values through the solvers vs gives for each (ak: the file is AK's).
func checkDatasets(t *testing.T, vs func(ak bool) []variant) {
	dir := os.Getenv("GEARBOX_DATASETS")
	if dir == "" {
		t.Skip("GEARBOX_DATASETS not set")
	}
	for _, c := range []struct {
		file string
		want int64
	}{{"ak-4102.max", 8207}, {"nx-gl1.max", 156545}, {"nx-gw1.max", 1202018}, {"nx-wlm3.max", 11875108}} {
		t.Run(c.file, func(t *testing.T) {
			ak := c.file == "ak-4102.max"
			if raceEnabled && ak {
				t.Skip("ak-4102's 24M pushes take minutes under the race detector; the serial solvers share no memory")
			}
			g, err := graph.Load(filepath.Join(dir, c.file), graph.LoadOptions{KeepDuplicates: true})
			if err != nil {
				t.Fatal(err)
			}
			s, tt, ok := g.Terminals()
			if !ok {
				t.Fatal("no terminals")
			}
			r, err := graph.NewResidual(g)
			if err != nil {
				t.Fatal(err)
			}
			checkSome(t, vs(ak), r, s, tt, c.want)
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

func TestGeneratedAgainstReference(t *testing.T) { checkGenerated(t, variants(true)) }

// checkGenerated runs small rmf, rlg and vision networks through the
// solvers vs against Edmonds-Karp.
func checkGenerated(t *testing.T, vs []variant) {
	for _, spec := range []string{"rmf:3:5", "rlg:6:7", "vision:9:7"} {
		r, s, tt := genNetwork(t, spec, 3)
		var src, dst []uint32
		var caps []int64
		for u := 0; u < r.NumVertices(); u++ {
			for e := r.Off[u]; e < r.Off[u+1]; e++ {
				src, dst, caps = append(src, uint32(u)), append(dst, r.Head[e]), append(caps, r.Cap[e])
			}
		}
		want := edmondsKarp(r.NumVertices(), src, dst, caps, s, tt)
		if want == 0 {
			t.Fatalf("%s: zero flow makes a weak test", spec)
		}
		t.Run(spec, func(t *testing.T) { checkSome(t, vs, r, s, tt, want) })
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
	checkAgainstSerial(t, variants(true), []string{"vision:70:60", "rlg:600:4"}, 9)
}

// genNetwork returns the residual network of a generator spec and its
// terminals.
func genNetwork(t *testing.T, spec string, seed uint64) (*graph.Residual, uint32, uint32) {
	t.Helper()
	g, err := graph.Generate(spec, graph.GenOptions{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	s, tt, _ := g.Terminals()
	r, err := graph.NewResidual(g)
	if err != nil {
		t.Fatal(err)
	}
	return r, s, tt
}

// checkAgainstSerial runs the generated networks of specs through the
// solvers vs against the serial highest-label solver's value.
func checkAgainstSerial(t *testing.T, vs []variant, specs []string, seed uint64) {
	t.Helper()
	for _, spec := range specs {
		r, s, tt := genNetwork(t, spec, seed)
		ref, err := Run(context.Background(), r, s, tt, WithAlgorithm(HighestLabel))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(spec, func(t *testing.T) { checkSome(t, vs, r, s, tt, ref.Value()) })
	}
}

// TestKitRelabel runs the random cases with the other global relabel of
// the Sync solver (useKitBFS: the frontier kit's BFS or backwardBFS).
func TestKitRelabel(t *testing.T) {
	useKitBFS = !useKitBFS
	defer func() { useKitBFS = !useKitBFS }()
	checkRandom(t, 12, 30, variants(true))
	checkAgainstSerial(t, variants(true), []string{"rlg:16:16"}, 0)
}
