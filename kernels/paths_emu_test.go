package kernels

import "testing"

// TestPathsKernelsOnCPU compiles paths.cu with g++ against the shim, its
// grid's blocks taking turns between grid barriers (testdata/cpuemu/emu.h,
// CPUEMU_GRID), and checks the parent passes against a serial scan by the
// same rule, and stcon_persist's answers and paths against a serial BFS and
// its levels against a serial search by the same rule, on random graphs
// with hubs and zero weights, directed and undirected, in launches of few
// levels (resumed) and of many. Runs only with GEARBOX_KERNEL_EMU=1; skips
// where g++ (C++20) is missing.
func TestPathsKernelsOnCPU(t *testing.T) {
	// n m directed hubs seed queries max_levels
	bin := buildEmu(t, "paths_run", "paths.cu")
	runEmu(t, bin, [][]string{
		{"300", "500", "1", "2", "1", "30", "1000"},
		{"300", "500", "0", "2", "2", "30", "1000"},
		{"400", "700", "1", "0", "3", "30", "1"}, // sparse: long paths and unreachable pairs, one level a launch
		{"400", "500", "0", "1", "6", "30", "1"},
		{"200", "900", "0", "3", "4", "20", "2"},
		{"120", "0", "1", "1", "5", "10", "1000"}, // only the hub's arcs
	})
}
