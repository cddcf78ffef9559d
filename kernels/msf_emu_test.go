package kernels

import "testing"

// TestMSFKernelOnCPU compiles msf.cu with g++ against the thread-per-CUDA-
// thread shim (testdata/cpuemu, with per-warp barriers for the votes and
// shuffles) and checks the forest of the GPU operator's round loop against
// a serial Kruskal on random multigraphs (self-loops, parallel edges, many
// ties), undirected and directed, under every representation and mapping
// and switches between them, with and without the light-edge phase, and
// the listing of the forest (edges in arc order, count, weight). Runs
// only with GEARBOX_KERNEL_EMU=1; skips where g++ (C++20) is missing.
func TestMSFKernelOnCPU(t *testing.T) {
	bin := buildEmu(t, "msf_run", "msf.cu")
	// n m maxweight directed seed schedule thresh-weight
	runEmu(t, bin, [][]string{
		{"200", "600", "5", "0", "1", "t", "0"},
		{"200", "600", "5", "0", "2", "e", "0"},
		{"200", "600", "5", "0", "3", "q", "0"},
		{"300", "1500", "3", "0", "4", "tqeqt", "3"},
		{"300", "1500", "1000", "1", "5", "qte", "400"},
		{"250", "900", "1", "0", "6", "eq", "0"},    // every weight equal: ids decide
		{"400", "300", "50", "0", "7", "qqt", "20"}, // many components and isolated vertices
		{"100", "0", "5", "0", "8", "t", "0"},       // no edges
		{"300", "1500", "100", "0", "9", "t", "50"}, // light phase in a bitmap alone
		{"300", "1500", "100", "1", "10", "e", "50"},
		{"3000", "40000", "1000", "0", "11", "qe", "200"}, // more tiles than the scan's block
	})
}
