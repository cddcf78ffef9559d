package main

import (
	"strings"
	"testing"
)

// Benchmark mode reports the first run apart (one-time costs) unless
// --cold; a directed graph's in-arcs are built before any run that reads
// them, and only then.
func TestWarmUpAndInArcs(t *testing.T) {
	const tiny = "../../graph/testdata/tiny.mtx" // directed
	tests := []struct {
		args           []string
		warmUp, inArcs bool
		wantOut        string
	}{
		{[]string{"run", "bfs", "--gen", "kron:6", "--sources", "2"}, true, false, "median over 2 sources"},
		{[]string{"run", "bfs", "--gen", "kron:6", "--sources", "2", "--cold"}, false, false, "median over 2 sources"},
		{[]string{"run", "cc", "--gen", "kron:6", "--repeat", "3"}, true, false, "median over 3 runs"},
		{[]string{"run", "bfs", "--graph", tiny, "--source", "1"}, false, true, "reached"},
		{[]string{"run", "sssp", "--graph", tiny, "--source", "1"}, false, false, "reached"},
		{[]string{"run", "sssp", "--graph", tiny, "--source", "1", "--parents"}, false, true, "reached"},
		{[]string{"run", "cc", "--graph", tiny}, false, false, "components"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errs, err := gearbox(t, tc.args...)
			if err != nil {
				t.Fatalf("%v\nstderr: %s", err, errs)
			}
			if !strings.Contains(out, tc.wantOut) {
				t.Errorf("stdout lacks %q:\n%s", tc.wantOut, out)
			}
			if got := strings.Contains(out, "warm-up run (not in the medians)"); got != tc.warmUp {
				t.Errorf("warm-up reported: %v, want %v:\n%s", got, tc.warmUp, out)
			}
			if got := strings.Contains(errs, "in-arcs ready"); got != tc.inArcs {
				t.Errorf("in-arcs built before the run: %v, want %v:\n%s", got, tc.inArcs, errs)
			}
		})
	}
}
