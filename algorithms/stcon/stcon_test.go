package stcon_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/stcon"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// pairs returns every pair of a graph of up to 24 vertices, else k seeded
// random ones plus s = t.
func pairs(n, k int) [][2]uint32 {
	var out [][2]uint32
	if n <= 24 {
		for s := range n {
			for t := range n {
				out = append(out, [2]uint32{uint32(s), uint32(t)})
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	out = append(out, [2]uint32{0, 0})
	for range k {
		out = append(out, [2]uint32{uint32(rng.IntN(n)), uint32(rng.IntN(n))})
	}
	return out
}

func check(t *testing.T, name string, g *graph.Graph, ps [][2]uint32, opts ...runtime.Option) {
	t.Helper()
	refs := map[uint32][]uint32{}
	for _, p := range ps {
		s, tt := p[0], p[1]
		r, err := stcon.Run(context.Background(), g, s, tt, opts...)
		if err != nil {
			t.Fatalf("%s %d->%d: %v", name, s, tt, err)
		}
		ref, ok := refs[s]
		if !ok {
			ref = stcon.Reference(g, s)
			refs[s] = ref
		}
		h, reach := r.Hops()
		if reach != (ref[tt] != ^uint32(0)) || reach && uint32(h) != ref[tt] {
			t.Fatalf("%s %d->%d: reachable %v hops %d; BFS depth %d", name, s, tt, reach, h, ref[tt])
		}
		if reach {
			p, _ := r.Path()
			if err := stcon.CheckPath(g, s, tt, h, p); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		} else if _, ok := r.Path(); ok {
			t.Fatalf("%s %d->%d: unreachable with a path", name, s, tt)
		}
	}
}

func TestMatchesBFS(t *testing.T) {
	k := 40
	if testing.Short() {
		k = 10
	}
	for _, c := range testgraphs.Cases() {
		n := c.G.NumVertices()
		if n == 0 {
			continue
		}
		ps := pairs(n, k)
		for _, o := range [][]runtime.Option{
			{runtime.WithWorkers(1)},
			{runtime.WithWorkers(4)},
			{runtime.WithWorkers(3), stcon.WithMapping(decider.Block)},
			{runtime.WithWorkers(2), stcon.WithMapping(decider.Thread)},
		} {
			check(t, c.Name, c.G, ps, o...)
		}
	}
}

// TestDirected: the t side walks in-arcs; a one-way chain is reachable
// one way only.
func TestDirected(t *testing.T) {
	g := testgraphs.MustBuild(6, false, [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {5, 4}}, nil)
	check(t, "chain", g, pairs(6, 0), runtime.WithWorkers(2))
	r, err := stcon.Run(context.Background(), g, 0, 4)
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := r.Hops(); !ok || h != 4 {
		t.Fatalf("0->4: %d, %v; want 4 hops", h, ok)
	}
	if r, _ := stcon.Run(context.Background(), g, 4, 0); r.Reachable() {
		t.Fatal("4->0 reachable against the arcs")
	}
	if r, _ := stcon.Run(context.Background(), g, 0, 5); r.Reachable() {
		t.Fatal("0->5 reachable")
	}
}

func TestBadInput(t *testing.T) {
	g := testgraphs.Grid(2, 2)
	if _, err := stcon.Run(context.Background(), g, 0, 4); !errors.Is(err, stcon.ErrVertex) {
		t.Fatalf("target out of range: %v", err)
	}
	if _, err := stcon.Run(context.Background(), g, 7, 0); !errors.Is(err, stcon.ErrVertex) {
		t.Fatalf("source out of range: %v", err)
	}
	if _, err := stcon.Run(context.Background(), nil, 0, 0); err == nil {
		t.Fatal("nil graph accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := stcon.Run(ctx, testgraphs.Grid(5, 5), 0, 24); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestRealDatasets(t *testing.T) {
	if testing.Short() {
		t.Skip("real datasets: not under -short")
	}
	cases, err := testgraphs.Datasets()
	testgraphs.SkipNoDatasets(t, err)
	for _, c := range cases {
		ps := pairs(c.G.NumVertices(), 12)
		for _, s := range c.Sources {
			ps = append(ps, [2]uint32{s, ps[len(ps)-1][1]})
		}
		for _, w := range []int{1, 4} {
			check(t, c.Name, c.G, ps, runtime.WithWorkers(w))
		}
	}
}

func TestUnsupportedElsewhere(t *testing.T) {
	if _, err := stcon.Run(context.Background(), testgraphs.Grid(2, 2), 0, 3, runtime.WithBackend(testgraphs.OtherBackend{})); !errors.Is(err, runtime.ErrUnsupported) {
		t.Fatalf("another backend: %v, want ErrUnsupported", err)
	}
}
