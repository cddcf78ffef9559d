package kernels

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMSFKernelOnCPU compiles msf.cu with g++ against the thread-per-CUDA-
// thread shim (testdata/cpuemu, with per-warp barriers for the votes and
// shuffles) and checks the forest of the GPU operator's round loop against
// a serial Kruskal on random multigraphs (self-loops, parallel edges, many
// ties), undirected and directed, under every representation and mapping
// and switches between them, with and without the light-edge phase. Runs
// only with GEARBOX_KERNEL_EMU=1; skips where g++ (C++20) is missing.
func TestMSFKernelOnCPU(t *testing.T) {
	if os.Getenv("GEARBOX_KERNEL_EMU") != "1" {
		t.Skip("set GEARBOX_KERNEL_EMU=1 to run msf.cu on CPU threads")
	}
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++")
	}
	// Read the sources here so the test cache sees them change (g++ reads
	// them in another process).
	for _, f := range []string{"msf.cu", "common.cuh", "testdata/cpuemu/shim.h", "testdata/cpuemu/msf_run.cpp"} {
		if _, err := os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(t.TempDir(), "msf_run")
	out, err := exec.Command(gxx, "-std=c++20", "-O1", "-w", "-pthread", "-I.", "-Itestdata/cpuemu",
		"-o", bin, "testdata/cpuemu/msf_run.cpp").CombinedOutput()
	if err != nil {
		t.Skipf("g++ cannot build the shim here: %v\n%s", err, out)
	}
	// n m maxweight directed seed schedule thresh-weight
	for _, args := range [][]string{
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
	} {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Errorf("msf_run %v: %v\n%s", args, err, out)
			continue
		}
		t.Logf("%s", out)
	}
}
