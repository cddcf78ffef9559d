package decider

import (
	"strings"
	"testing"
)

// TestChooseDeviceMatchesMeasured replays the recorded medians of BFS,
// SSSP and CC on the host's 16 workers and on its H100
// (results/h100-2026-11-28-s26-auto/; ms, 8 warm runs each): the model must
// pick the faster device nearly always, and where it does not, lose little.
func TestChooseDeviceMatchesMeasured(t *testing.T) {
	tests := []struct {
		graph      string
		n          int
		arcs, maxd int64
		// cpu, gpu medians for bfs, sssp, cc (0: not measured)
		ms [3][2]float64
	}{
		{"rome99", 3353, 9662, 6, [3][2]float64{{0.297, 0.186}, {0.328, 0.411}, {0.260, 0.087}}},
		{"cal.cedge", 21048, 43386, 8, [3][2]float64{{1.524, 1.748}, {0, 0}, {1.170, 0.123}}},
		{"power", 4941, 13188, 19, [3][2]float64{{0.556, 0.210}, {1.579, 0.259}, {0.441, 0.102}}},
		{"polbooks", 105, 882, 25, [3][2]float64{{0.055, 0.088}, {0.061, 0.109}, {0.078, 0.092}}},
		{"email-Enron", 36692, 367662, 1383, [3][2]float64{{0.541, 0.166}, {3.608, 0.336}, {0.664, 0.156}}},
		{"wiki-Vote", 7115, 103689, 893, [3][2]float64{{0.264, 0.115}, {2.878, 0.186}, {0.421, 0.138}}},
		{"kron:20", 1 << 20, 31403166, 64757, [3][2]float64{{10.4, 0.411}, {95.2, 1.758}, {24.0, 0.759}}},
		{"grid:1024:1024", 1 << 20, 4190208, 4, [3][2]float64{{75.8, 7.04}, {83.7, 10.0}, {5.76, 0.607}}},
		{"urand:20", 1 << 20, 33553872, 65, [3][2]float64{{21.4, 0.40}, {136, 1.88}, {34.3, 1.79}}},
	}
	wrong, cases := 0, 0
	for _, tc := range tests {
		for a, alg := range []string{"bfs", "sssp", "cc"} {
			cpu, gpu := tc.ms[a][0], tc.ms[a][1]
			if cpu == 0 {
				continue
			}
			cases++
			ch := DefaultDeviceCosts.ChooseDevice(Work{Vertices: tc.n, Arcs: tc.arcs, MaxDegree: tc.maxd,
				GraphBytes: 8*int64(tc.n) + 8*tc.arcs, Sourced: alg != "cc", Runs: 8, Workers: 16})
			if ch.GPU != (ch.Dev < ch.CPU) || ch.Levels <= 0 || !strings.Contains(ch.Reason, "expected faster") {
				t.Errorf("%s %s: inconsistent choice %+v", alg, tc.graph, ch)
			}
			if ch.GPU == (gpu < cpu) {
				continue
			}
			wrong++
			lost := max(cpu, gpu) - min(cpu, gpu)
			t.Logf("%s on %s: chose the GPU %v, measured cpu %.3f ms, gpu %.3f ms", alg, tc.graph, ch.GPU, cpu, gpu)
			if lost > 0.15 {
				t.Errorf("%s on %s: the wrong device loses %.3f ms", alg, tc.graph, lost)
			}
		}
	}
	if wrong > cases/10 {
		t.Errorf("wrong on %d of %d measured cases", wrong, cases)
	}
}

// The upload is shared by the runs of one process: many runs tip a
// mid-size graph whose upload dominates towards the GPU, never away.
func TestChooseDeviceAmortisesUpload(t *testing.T) {
	w := Work{Vertices: 200000, Arcs: 2000000, MaxDegree: 50, Sourced: true, Workers: 16, GraphBytes: 9600000}
	one := DefaultDeviceCosts.ChooseDevice(w)
	w.Runs = 1000
	many := DefaultDeviceCosts.ChooseDevice(w)
	if many.Dev >= one.Dev || many.CPU != one.CPU {
		t.Errorf("1 run: %+v; 1000 runs: %+v", one, many)
	}
	if one.GPU && !many.GPU {
		t.Errorf("more runs moved the choice to the host")
	}
}
