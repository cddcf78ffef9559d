package algorithms_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms"
	_ "github.com/gearbox-graph/gearbox/algorithms/all"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

func TestRegistry(t *testing.T) {
	if got, want := algorithms.Names(), []string{"apsp", "bfs", "cc", "forest", "maxflow", "mst", "scc", "sssp", "stcon"}; !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	if got, want := algorithms.Sections(), []string{"apsp", "bfs", "cc", "maxflow", "mst", "scc", "sssp"}; !slices.Equal(got, want) {
		t.Errorf("Sections() = %v, want %v (forest reads cc's, stcon bfs's)", got, want)
	}
	if _, ok := algorithms.Lookup("pagerank"); ok {
		t.Error("Lookup found an algorithm nobody registered")
	}
	defer func() {
		if recover() == nil {
			t.Error("registering bfs twice did not panic")
		}
	}()
	s, _ := algorithms.Lookup("bfs")
	algorithms.Register(s)
}

// TestEverySpecRuns: each registered algorithm runs through its Spec on a
// grid, with a result that verifies, a summary, MTEPS edges and an --out
// file of one line per vertex (a forest's: one per forest edge).
func TestEverySpecRuns(t *testing.T) {
	g := testgraphs.Grid(6, 7)
	for _, s := range algorithms.All() {
		t.Run(s.Name, func(t *testing.T) {
			in := g
			if s.Weighted {
				in = g.WithDerivedWeights(1)
			}
			if s.CheckGraph != nil {
				if err := s.CheckGraph(in); err != nil {
					t.Fatal(err)
				}
			}
			for _, variant := range append([]string{"auto"}, s.Variants...) {
				opts, err := s.Options(variant, nil)
				if err != nil {
					t.Fatalf("Options(%s): %v", variant, err)
				}
				// A Targeted spec's target: the grid's far corner, 8 hops from 3.
				out, err := s.Run(context.Background(), in, 3, append(opts, runtime.WithWorkers(2), algorithms.WithTarget(41))...)
				if err != nil {
					t.Fatalf("%s: %v", variant, err)
				}
				if err := out.Verify(); err != nil {
					t.Errorf("%s: %v", variant, err)
				}
				// maxflow's serial solvers run beside the engine: no iterations.
				if out.Summary() == "" || out.Edges() < 1 || out.Stats.Iterations < 1 && s.Name != "maxflow" {
					t.Errorf("%s: summary %q, edges %d, iterations %d", variant, out.Summary(), out.Edges(), out.Stats.Iterations)
				}
				var b bytes.Buffer
				if err := out.Write(&b); err != nil {
					t.Fatal(err)
				}
				lines := strings.Count(b.String(), "\n")
				if n := in.NumVertices(); s.Name == "maxflow" {
					// Two unit-capacity paths leave the corner: "u v 1" lines.
					if lines < 2 || !strings.Contains(b.String(), " 1\n") {
						t.Errorf("%s: flow lines %q", variant, b.String())
					}
				} else if s.Targeted {
					if lines != 9 {
						t.Errorf("%s: %d path lines, want 9", variant, lines)
					}
				} else if s.Name == "apsp" {
					// The binary n x n matrix of uint32.
					if b.Len() != 4*n*n {
						t.Errorf("%s: %d bytes, want %d", variant, b.Len(), 4*n*n)
					}
				} else if want := g.NumVertices(); s.Name == "forest" || s.Name == "mst" {
					want--
					if lines != want {
						t.Errorf("%s: %d forest lines, want %d", variant, lines, want)
					}
				} else if lines != want {
					t.Errorf("%s: %d lines, want %d", variant, lines, want)
				}
				out.Release()
			}
			if s.Reference != nil {
				if err := s.Reference(in, 3); err != nil {
					t.Error(err)
				}
			}
			if _, err := s.Options("no_such_variant", nil); err == nil || !strings.Contains(err.Error(), "--variant") && !s.OwnFlags {
				t.Errorf("bad variant: %v", err)
			}
		})
	}
}

// TestSSSPDeltaFlag: sssp's delta flag becomes sssp.WithDelta; 0 keeps
// the thresholds'.
func TestSSSPDeltaFlag(t *testing.T) {
	s, _ := algorithms.Lookup("sssp")
	if p, ok := s.Param("delta"); !ok || !p.Flag || p.FlagName() != "delta" {
		t.Fatalf("sssp's delta param %+v %v", p, ok)
	}
	g := testgraphs.Grid(5, 5).WithDerivedWeights(1)
	for _, d := range []uint64{0, 7} {
		opts, err := s.Options("O_T_QU", map[string]uint64{"delta": d})
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.Run(context.Background(), g, 0, append(opts, runtime.WithWorkers(1))...)
		if err != nil {
			t.Fatal(err)
		}
		want := "delta 7"
		if d == 0 {
			want = "delta " // the thresholds' width
		}
		if !strings.Contains(out.Summary(), want) {
			t.Errorf("delta %d: summary %q, want %q", d, out.Summary(), want)
		}
		out.Release()
	}
	if b, _ := algorithms.Lookup("bfs"); b.ReadsKey("delta") || !s.ReadsKey("delta") || s.ReadsKey("alpha") || !b.ReadsKey("alpha") {
		t.Error("ReadsKey: delta is SSSP's, alpha BFS's")
	}
}

func TestParseThresholdsChecksSections(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // in the error; none: valid
	}{
		{"known", "[cpu.bfs]\nT2 = 5\n[gpu.\"G\"]\nT2 = 5\n[gpu.\"G\".sssp]\ndelta = 8\n", nil},
		{"unknown algorithm", "[cpu.bfss]\nT2 = 5\n", []string{"[cpu.bfss]", `unknown algorithm "bfss"`, "bfs, cc, maxflow, mst, scc, sssp"}},
		{"unknown gpu algorithm", "[gpu.\"G\"]\nT2 = 5\n[gpu.\"G\".pagerank]\nT2 = 5\n", []string{`[gpu."G".pagerank]`, "bfs, cc, maxflow, mst, scc, sssp"}},
		{"forest reads cc's", "[cpu.forest]\nT2 = 5\n", []string{"[cpu.forest]"}},
		{"decider's errors", "[cpu.bfs]\nalhpa = 5.0\n", []string{"alhpa"}},
	}
	for _, tc := range tests {
		_, err := algorithms.ParseThresholds(tc.text)
		if tc.want == nil {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		testgraphs.ErrorMentions(t, tc.name, err, decider.ErrThresholds, tc.want...)
	}
	if _, err := algorithms.LoadThresholds("../thresholds.toml"); err != nil {
		t.Errorf("the shipped thresholds.toml: %v", err)
	}
}

type otherBackend struct{}

func (otherBackend) Name() string   { return "other" }
func (otherBackend) Device() string { return "Other" }

func (otherBackend) Configure(decider.KnobLayers) error { return nil }

// TestBackends: the table builds with the first constructor that takes
// the backend, and reports false when none does.
func TestBackends(t *testing.T) {
	var tab algorithms.Backends[int, string]
	tab.Register("cpu", func(b runtime.Backend, r int) (string, bool) {
		_, ok := b.(*runtime.CPU)
		return "cpu", ok
	})
	tab.Register("other", func(b runtime.Backend, r int) (string, bool) {
		_, ok := b.(otherBackend)
		return "other", ok && r > 0 // refuses a request it cannot run
	})
	if got := tab.Kinds(); !slices.Equal(got, []string{"cpu", "other"}) {
		t.Errorf("Kinds() = %v", got)
	}
	for _, tc := range []struct {
		b    runtime.Backend
		r    int
		want string
		ok   bool
	}{{runtime.NewCPU(1), 0, "cpu", true}, {otherBackend{}, 1, "other", true}, {otherBackend{}, 0, "", false}} {
		if got, ok := tab.New(tc.b, tc.r); got != tc.want || ok != tc.ok {
			t.Errorf("New(%s, %d) = %q, %v; want %q, %v", tc.b.Name(), tc.r, got, ok, tc.want, tc.ok)
		}
	}
}
