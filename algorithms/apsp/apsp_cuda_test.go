//go:build cuda

package apsp_test

// GPU tests: every GPU result equal to the CPU's (the triple loop on small
// graphs, the CPU's FW on rome99's whole matrix, single-source references
// on sampled rows of rome99 and the 128 x 128 grid). They skip without a
// GPU; rome99 skips without the datasets.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/apsp"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

func rome99(tb testing.TB) *graph.Graph {
	tb.Helper()
	dir, err := testgraphs.DatasetsDir()
	if err != nil {
		tb.Skipf("datasets: %v", err)
	}
	g, err := graph.Load(filepath.Join(dir, "rome99.gr"), graph.LoadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func TestCUDAMatchesReference(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	var cases []testgraphs.Case
	for _, k := range testgraphs.Cases() {
		if k.G.NumVertices() <= 300 && k.Name != "huge-weights" {
			cases = append(cases, k)
		}
	}
	// Several tiles a side, directed, and weights that need 32 bits.
	cases = append(cases,
		testgraphs.Case{Name: "grid9x30", G: testgraphs.Grid(9, 30)},
		testgraphs.Case{Name: "random65", G: testgraphs.Random(65, 200, false, 3)},
		testgraphs.Case{Name: "random300dir", G: testgraphs.Random(300, 900, false, 4)},
		testgraphs.Case{Name: "random200undir", G: testgraphs.Random(200, 300, true, 5)})
	bits := map[int]int{}
	for _, k := range cases {
		for _, g := range []*graph.Graph{k.G, k.Weighted()} {
			want := apsp.Reference(g)
			for _, m := range []apsp.Method{apsp.FW, apsp.Auto} {
				t.Run(fmt.Sprintf("%s/%v/%s", k.Name, g.WeightKind(), m), func(t *testing.T) {
					got, res := collect(t, g, apsp.WithBackend(c), apsp.WithMethod(m))
					if m == apsp.FW && (res.Method != apsp.FW || res.Bits == 0 || res.Rounds == 0 && g.NumVertices() > 0) {
						t.Fatalf("forced FW ran %+v", res)
					}
					bits[res.Bits]++
					for i := range want {
						if !slices.Equal(got[i], want[i]) {
							t.Fatalf("row %d = %v, want %v (%d-bit matrix)", i, got[i], want[i], res.Bits)
						}
					}
				})
			}
		}
	}
	if bits[16] == 0 || bits[32] == 0 {
		t.Fatalf("widths run: %v, want both 16 and 32", bits)
	}
}

// TestCUDARome99 compares the GPU's whole matrix of rome99 (32-bit) with the
// CPU's FW, and three rows with Dijkstra.
func TestCUDARome99(t *testing.T) {
	g := rome99(t)
	c := testgraphs.OpenCUDA(t)
	n := g.NumVertices()
	want := make([]uint32, 0, n*n)
	if _, err := apsp.Run(context.Background(), g, func(_ uint32, d []uint32) error {
		want = append(want, d...)
		return nil
	}, apsp.WithMethod(apsp.FW)); err != nil {
		t.Fatal(err)
	}
	sample := map[uint32]bool{0: true, uint32(n / 2): true, uint32(n - 1): true}
	res, err := apsp.Run(context.Background(), g, func(src uint32, d []uint32) error {
		if !slices.Equal(d, want[int(src)*n:int(src+1)*n]) {
			for j := range d {
				if d[j] != want[int(src)*n+j] {
					return fmt.Errorf("distance %d -> %d: GPU %d, CPU %d", src, j, d[j], want[int(src)*n+j])
				}
			}
		}
		if sample[src] {
			return apsp.VerifyRow(g, src, d)
		}
		return nil
	}, apsp.WithBackend(c), apsp.WithMethod(apsp.FW))
	if err != nil {
		t.Fatal(err)
	}
	if res.Bits != 32 {
		t.Fatalf("rome99 ran with %d-bit distances, want 32", res.Bits)
	}
	t.Logf("rome99 on %s: kernel %v, setup %v, transfer %v, wall %v, %d rounds", res.Backend, res.Kernel, res.Setup, res.Transfer, res.Wall, res.Rounds)
}

// TestCUDAGrid checks sampled rows of the 128 x 128 grid (16-bit matrix,
// 256 tiles a side) against BFS, and a weighted 48 x 48 grid's whole
// matrix (32-bit) against the CPU's FW.
func TestCUDAGrid(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	g := testgraphs.Grid(128, 128)
	n := g.NumVertices()
	checked := 0
	res, err := apsp.Run(context.Background(), g, func(src uint32, d []uint32) error {
		if src%1021 == 0 || int(src) == n-1 {
			checked++
			return apsp.VerifyRow(g, src, d)
		}
		return nil
	}, apsp.WithBackend(c))
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != apsp.FW || res.Bits != 16 || checked != n/1021+2 {
		t.Fatalf("grid: %+v, %d rows checked", res, checked)
	}
	t.Logf("grid 128x128 on %s: kernel %v, setup %v, transfer %v, wall %v (%s)", res.Backend, res.Kernel, res.Setup, res.Transfer, res.Wall, res.Reason)

	w := testgraphs.Case{G: testgraphs.Grid(48, 48)}.Weighted()
	var want [][]uint32
	if _, err := apsp.Run(context.Background(), w, func(_ uint32, d []uint32) error {
		want = append(want, slices.Clone(d))
		return nil
	}, apsp.WithMethod(apsp.FW)); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, w, apsp.WithBackend(c), apsp.WithMethod(apsp.FW))
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("weighted grid row %d differs (%d-bit matrix)", i, res.Bits)
		}
	}
}

func TestCUDARefusals(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	g := testgraphs.Grid(30, 30)
	noop := func(uint32, []uint32) error { return nil }
	if _, err := apsp.Run(context.Background(), g, noop, apsp.WithBackend(c), apsp.WithMethod(apsp.FW), apsp.WithMemoryLimit(1000)); !errors.Is(err, apsp.ErrTooLarge) {
		t.Fatalf("FW over the limit: %v", err)
	}
	res, err := apsp.Run(context.Background(), g, noop, apsp.WithBackend(c), apsp.WithMemoryLimit(1000))
	if err != nil || res.Method != apsp.Sources || res.Bits != 0 {
		t.Fatalf("auto over the limit: %v %+v", err, res)
	}
	stop := errors.New("stop")
	if _, err := apsp.Run(context.Background(), g, func(src uint32, _ []uint32) error {
		if src == 5 {
			return stop
		}
		return nil
	}, apsp.WithBackend(c), apsp.WithMethod(apsp.FW)); !errors.Is(err, stop) {
		t.Fatalf("callback error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := apsp.Run(ctx, g, noop, apsp.WithBackend(c), apsp.WithMethod(apsp.FW)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	// The backend still works, and holds nothing of the runs but the
	// cached graph and pooled blocks.
	if _, err := apsp.Run(context.Background(), g, noop, apsp.WithBackend(c), apsp.WithMethod(apsp.FW)); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkCUDAAPSP: FW on the GPU, rome99 (32-bit) and the 128 x 128 grid
// (16-bit), with the kernel, setup and transfer times as metrics (kernel-ms
// is the number to set beside ECL-APSP's compute time). Rows go to a no-op.
//
//	go test -tags cuda -run '^$' -bench CUDAAPSP -benchtime 5x ./algorithms/apsp
func BenchmarkCUDAAPSP(b *testing.B) {
	c := testgraphs.OpenCUDA(b)
	graphs := []struct {
		name string
		g    func(testing.TB) *graph.Graph
	}{
		{"rome99", rome99},
		{"grid128", func(testing.TB) *graph.Graph { return testgraphs.Grid(128, 128) }},
	}
	noop := func(uint32, []uint32) error { return nil }
	for _, gr := range graphs {
		b.Run("graph="+gr.name+"/method=fw", func(b *testing.B) {
			g := gr.g(b)
			// One warm-up run: the graph's upload and the matrix's first
			// allocation.
			if _, err := apsp.Run(context.Background(), g, noop, apsp.WithBackend(c), apsp.WithMethod(apsp.FW)); err != nil {
				b.Fatal(err)
			}
			var kernel, setup, transfer time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := apsp.Run(context.Background(), g, noop, apsp.WithBackend(c), apsp.WithMethod(apsp.FW))
				if err != nil {
					b.Fatal(err)
				}
				kernel += res.Kernel
				setup += res.Setup
				transfer += res.Transfer
				if i == 0 {
					b.Logf("%s: n %d, %d-bit, %d rounds, kernel %v, setup %v, transfer %v, wall %v on %s", gr.name, res.Vertices, res.Bits, res.Rounds, res.Kernel, res.Setup, res.Transfer, res.Wall, res.Backend)
				}
			}
			ms := func(d time.Duration) float64 { return d.Seconds() * 1e3 / float64(b.N) }
			b.ReportMetric(ms(kernel), "kernel-ms")
			b.ReportMetric(ms(setup), "setup-ms")
			b.ReportMetric(ms(transfer), "transfer-ms")
		})
	}
}
