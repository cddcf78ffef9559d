package scc_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/algorithms/cc"
	"github.com/gearbox-graph/gearbox/algorithms/scc"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// configs are the runs every graph gets: each variant and auto, on one
// worker and four (four only under the race detector or -short), and
// multistep under each mapping.
func configs() [][]runtime.Option {
	var out [][]runtime.Option
	workers := []int{1, 4}
	if raceEnabled || testing.Short() {
		workers = workers[1:]
	}
	for _, v := range append(scc.Variants(), scc.Auto) {
		for _, w := range workers {
			out = append(out, []runtime.Option{scc.WithVariant(v), runtime.WithWorkers(w)})
		}
	}
	for _, m := range []decider.Mapping{decider.Thread, decider.Block} {
		out = append(out, []runtime.Option{scc.WithVariant(scc.Multistep), runtime.WithWorkers(3),
			runtime.WithVariant(decider.Variant{Mapping: m, Rep: decider.Queue}),
			scc.WithPhasePolicy(scc.PhasePolicy{FWBWShare: 0.5})})
	}
	return out
}

// TestMatchesTarjan: every variant, worker count and mapping labels every
// graph exactly as the serial Tarjan does; undirected graphs as cc does.
func TestMatchesTarjan(t *testing.T) {
	for _, c := range cases(t) {
		if (raceEnabled || testing.Short()) && c.G.NumVertices() > 5000 {
			continue // the real datasets and the larger generated graphs
		}
		ref := scc.Reference(c.G)
		if !c.G.Directed() {
			if want := cc.Reference(c.G); !equal(ref, want) {
				t.Fatalf("%s: Tarjan on an undirected graph differs from its connected components", c.Name)
			}
		}
		for _, opts := range configs() {
			r, err := scc.Run(context.Background(), c.G, opts...)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			if !equal(r.Labels(), ref) {
				t.Fatalf("%s %v: labels differ from Tarjan's: %v", c.Name, r.Variant(), scc.Verify(c.G, r.Labels()))
			}
			if err := scc.Verify(c.G, r.Labels()); err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			st := r.Stats()
			if got := st.Counters["trimmed"] + st.Counters["fwbw"] + st.Counters["colored"]; got != int64(c.G.NumVertices()) {
				t.Fatalf("%s %v: phases labelled %d of %d vertices (%v)", c.Name, r.Variant(), got, c.G.NumVertices(), st.Counters)
			}
		}
	}
}

func equal(a, b []uint32) bool {
	return string(u32bytes(a)) == string(u32bytes(b))
}

func u32bytes(a []uint32) []byte {
	out := make([]byte, 0, 4*len(a))
	for _, x := range a {
		out = append(out, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	}
	return out
}

// TestKnownAnswers: the largest SCCs SNAP lists for its directed graphs.
func TestKnownAnswers(t *testing.T) {
	for _, k := range []struct {
		file          string
		comps, larges int
	}{
		{"wiki-Vote.txt", 5816, 1300},
		{"email-Eu-core.txt", 203, 803},
		{"p2p-Gnutella31.txt", 48438, 14149},
	} {
		dir, err := testgraphs.DatasetsDir()
		testgraphs.SkipNoDatasets(t, err)
		g, err := graph.Load(filepath.Join(dir, k.file), graph.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := scc.Run(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if r.NumComponents() != k.comps || r.LargestSize() != k.larges {
			t.Errorf("%s: %d SCCs, largest %d; want %d, largest %d", k.file, r.NumComponents(), r.LargestSize(), k.comps, k.larges)
		}
	}
}

// TestTarjanDeep: the reference keeps its stacks on the heap: a ring and
// a path of a million vertices.
func TestTarjanDeep(t *testing.T) {
	n := uint32(1 << 20)
	if raceEnabled || testing.Short() {
		n = 1 << 16
	}
	for _, ring := range []bool{true, false} {
		arcs := make([][2]uint32, 0, n)
		for v := uint32(0); v+1 < n; v++ {
			arcs = append(arcs, [2]uint32{v, v + 1})
		}
		if ring {
			arcs = append(arcs, [2]uint32{n - 1, 0})
		}
		l := scc.Reference(testgraphs.MustBuild(int(n), false, arcs, nil))
		for v, x := range l {
			if want := uint32(v); ring {
				want = 0
			} else if x != want {
				t.Fatalf("path: vertex %d labelled %d", v, x)
			} else if x != 0 && ring {
				t.Fatalf("ring: vertex %d labelled %d", v, x)
			}
		}
	}
}

// TestVerifyCatches: Verify refuses merged SCCs, split SCCs and labels
// that are not their SCC's smallest vertex.
func TestVerifyCatches(t *testing.T) {
	g := testgraphs.MustBuild(5, false, [][2]uint32{{0, 1}, {1, 0}, {1, 2}, {3, 4}, {4, 3}}, nil)
	if err := scc.Verify(g, []uint32{0, 0, 2, 3, 3}); err != nil {
		t.Fatalf("right labels: %v", err)
	}
	for _, bad := range [][]uint32{
		{0, 0, 0, 3, 3}, // 2 merged into {0, 1}
		{0, 1, 2, 3, 3}, // {0, 1} split
		{1, 1, 2, 3, 3}, // not the smallest
		{0, 0, 2, 3},    // too few
		{0, 0, 9, 3, 3}, // not a vertex
	} {
		if err := scc.Verify(g, bad); !errors.Is(err, scc.ErrVerify) {
			t.Errorf("labels %v: %v, want ErrVerify", bad, err)
		}
	}
}

// TestCancel: a cancelled context stops the run between phases.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := scc.Run(ctx, chain(50, 5))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if _, err := scc.Run(nil, chain(2, 2)); !errors.Is(err, runtime.ErrBadArgument) { //nolint:staticcheck // the nil context is the point
		t.Fatalf("nil context: %v", err)
	}
	if _, err := scc.Run(context.Background(), nil); !errors.Is(err, graph.ErrNil) {
		t.Fatalf("nil graph: %v", err)
	}
	if _, err := scc.Run(context.Background(), chain(2, 2), scc.WithVariant(9)); !errors.Is(err, scc.ErrUnknownVariant) {
		t.Fatalf("variant 9: %v", err)
	}
}

// TestPolicySteers: Multistep searches first on a large graph and colours
// at once when the policy's floor is above what is left; the thresholds'
// keys reach the policy, and bad values are refused naming the key.
func TestPolicySteers(t *testing.T) {
	g := testgraphs.RMATDirected(12, 8, 3)
	for _, k := range []struct {
		min  int64
		fwbw bool
	}{{0, true}, {1 << 30, false}} {
		r, err := scc.Run(context.Background(), g, runtime.WithKnobs(decider.Knobs{"scc_fwbw_min_live": k.min}))
		if err != nil {
			t.Fatal(err)
		}
		c := r.Stats().Counters
		if (c["fwbw_steps"] > 0) != k.fwbw || !k.fwbw && c["colored_steps"] == 0 {
			t.Errorf("scc_fwbw_min_live %d: phases %v", k.min, c)
		}
	}
	for key, v := range map[string]any{"scc_fwbw_min_live": int64(-1), "scc_fwbw_share": 2.0} {
		_, err := scc.Run(context.Background(), g, runtime.WithKnobs(decider.Knobs{key: v}))
		if !errors.Is(err, decider.ErrThresholds) || !strings.Contains(err.Error(), key) {
			t.Errorf("%s = %v: %v", key, v, err)
		}
	}
	if err := (scc.PhasePolicy{FWBWShare: -0.5}).Validate(); err == nil {
		t.Error("a negative share validated")
	}
}

// TestRegistry: gearbox run scc's path: the spec's run, summary, verify
// and --out lines (file id, label as a file id).
func TestRegistry(t *testing.T) {
	s, ok := algorithms.Lookup("scc")
	if !ok {
		t.Fatal("scc is not registered")
	}
	ids, err := graph.SortedIDs([]uint64{10, 20, 30, 40})
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(&graph.EdgeList{NumVertices: 4, Src: []uint32{0, 1, 2}, Dst: []uint32{1, 0, 3}, IDs: ids}, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range append([]string{"auto"}, s.Variants...) {
		opts, err := s.Options(v, nil)
		var o *algorithms.Outcome
		if err == nil {
			o, err = s.Run(context.Background(), g, 0, opts...)
		}
		if err == nil {
			err = o.Verify()
		}
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if sum := o.Summary(); !strings.HasPrefix(sum, "3 SCCs, largest 2 vertices") {
			t.Errorf("%s: summary %q", v, sum)
		}
		var b bytes.Buffer
		if err := o.Write(&b); err != nil {
			t.Fatal(err)
		}
		if got, want := b.String(), "10 10\n20 10\n30 30\n40 40\n"; got != want {
			t.Errorf("%s: --out %q, want %q", v, got, want)
		}
		m, _ := testgraphs.JSONObject(t, o.Result)
		if m["components"] != 3.0 || m["largest_size"] != 2.0 {
			t.Errorf("%s: JSON %v", v, m)
		}
	}
	if _, err := s.Options("tarjan", nil); !errors.Is(err, scc.ErrUnknownVariant) {
		t.Errorf("variant tarjan: %v", err)
	}
}
