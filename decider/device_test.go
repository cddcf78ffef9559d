package decider

import (
	"strings"
	"testing"
)

func TestChooseDevice(t *testing.T) {
	// Shapes of the shared graphs: vertices, arcs, max degree.
	tests := []struct {
		name    string
		w       Work
		wantGPU bool
	}{
		// Small graphs of long paths: one GPU level costs more than the
		// host's whole level.
		{"rome99", Work{Vertices: 3353, Arcs: 17740, MaxDegree: 8, Sourced: true}, false},
		{"cal.cedge", Work{Vertices: 21048, Arcs: 43386, MaxDegree: 7, Sourced: true}, false},
		{"polbooks", Work{Vertices: 105, Arcs: 882, MaxDegree: 25, Sourced: true}, false},
		{"power", Work{Vertices: 4941, Arcs: 13188, MaxDegree: 19, Sourced: true}, false},
		{"polbooks cc", Work{Vertices: 105, Arcs: 882, MaxDegree: 25}, false},
		// Large graphs, low diameter or not.
		{"kron:20", Work{Vertices: 1 << 20, Arcs: 31 << 20, MaxDegree: 80000, Sourced: true}, true},
		{"grid:2048:2048", Work{Vertices: 1 << 22, Arcs: 1 << 24, MaxDegree: 4, Sourced: true}, true},
		{"urand:22 cc", Work{Vertices: 1 << 22, Arcs: 1 << 27, MaxDegree: 60}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.w
			w.GraphBytes = 8*int64(w.Vertices) + 4*w.Arcs
			w.Workers, w.Runs = 2, 1
			ch := DefaultDeviceCosts.ChooseDevice(w)
			if ch.GPU != tc.wantGPU {
				t.Errorf("GPU = %v, want %v: %s", ch.GPU, tc.wantGPU, ch.Reason)
			}
			if ch.GPU != (ch.Dev < ch.CPU) || ch.Levels <= 0 || !strings.Contains(ch.Reason, "expected faster") {
				t.Errorf("inconsistent choice %+v", ch)
			}
		})
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
