package kernels

import "testing"

// TestMaxflowKernelOnCPU compiles maxflow.cu with g++ against the
// thread-per-CUDA-thread shim (testdata/cpuemu) and runs phase 1 of
// push-relabel through its kernels, with the host loop of the cuda
// operator, on random networks and vision-style grids: thread and warp
// mapping, bitmap and queue and switches between them, frequent and rare
// global relabels, capacities up to 2^62. mf_run checks the preflow's
// properties and its value against Edmonds-Karp. A block's threads run at
// once, so races between them show; blocks run one after another, so
// races between blocks do not. Runs only with GEARBOX_KERNEL_EMU=1; skips
// where g++ (C++20) is missing. Each launch starts a thread per CUDA
// thread: on a loaded machine it takes minutes (go test -timeout 30m).
func TestMaxflowKernelOnCPU(t *testing.T) {
	bin := buildEmu(t, "mf_run", "maxflow.cu")
	// kind n m maxcap seed schedule trigger
	runEmu(t, bin, [][]string{
		{"rand", "30", "120", "10", "1", "t", "200"},
		{"rand", "30", "120", "1000", "4", "Q", "200"},
		{"rand", "40", "1500", "100", "5", "wQtq", "300"}, // degrees above 32: several warp chunks
		{"rand", "50", "200", "4611686018427387903", "6", "tQ", "400"},
		{"rand", "16", "60", "3", "11", "qw", "1000000"}, // one global relabel: stranded excess climbs to n
		{"rand", "20", "0", "5", "8", "t", "100"},        // no arcs
		{"grid", "6", "5", "20", "9", "qQwt", "300"},     // terminals joined to every pixel
		{"grid", "5", "4", "2147483647", "10", "QQQt", "300"},
	})
}
