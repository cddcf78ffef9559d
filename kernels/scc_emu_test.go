package kernels

import (
	"os/exec"
	"testing"
)

// TestSCCKernelOnCPU compiles scc.cu with g++ against the thread-per-CUDA-
// thread shim (testdata/cpuemu) and checks the labels of the GPU
// operator's phase loop (trimming, FW-BW rounds, colouring rounds) against
// a transitive closure on random directed multigraphs, for each schedule
// of phases. Runs only with GEARBOX_KERNEL_EMU=1; skips where g++ (C++20)
// is missing.
func TestSCCKernelOnCPU(t *testing.T) {
	bin := buildEmu(t, "scc_run", "scc.cu")
	// n m seed schedule
	for _, args := range [][]string{
		{"200", "260", "1", "f"},
		{"200", "260", "2", "c"},
		{"200", "260", "3", "m"},
		{"300", "900", "4", "m"}, // a giant SCC
		{"300", "900", "5", "f"},
		{"250", "120", "6", "c"}, // mostly trimmed
		{"150", "450", "7", "c"},
	} {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Errorf("scc_run %v: %v\n%s", args, err, out)
			continue
		}
		t.Logf("%s", out)
	}
}
