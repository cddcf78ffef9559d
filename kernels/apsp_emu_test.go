package kernels

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestAPSPKernelOnCPU compiles apsp.cu with g++ against a thread-per-CUDA-
// thread shim (testdata/cpuemu) and checks its distances against the
// textbook Floyd-Warshall on random graphs of one to five tiles a side, at
// both widths: the tile mapping, the fused phases, the packing and the
// block barriers (a missing one shows as wrong distances) without a GPU.
// It takes a minute or two (a thread per CUDA thread), so it runs only
// with GEARBOX_KERNEL_EMU=1, and skips where g++ (C++20) is missing.
func TestAPSPKernelOnCPU(t *testing.T) {
	bin := buildEmu(t, "apsp_run", "apsp.cu")
	runEmu(t, bin, [][]string{
		{"60", "200", "1", "1", "1"},     // one tile, 16-bit
		{"130", "400", "1", "0", "3"},    // three tiles, 32-bit
		{"200", "600", "20", "1", "6"},   // four tiles, weighted, 16-bit
		{"300", "700", "1000", "0", "7"}, // five tiles, weighted, 32-bit
	})
}

// buildEmu compiles testdata/cpuemu/<name>.cpp, which includes kernel, with
// g++ against the thread-per-CUDA-thread shim and returns the binary's
// path; it skips unless GEARBOX_KERNEL_EMU=1 and g++ (C++20) builds it.
// The sources are read here so that the test cache sees them change (g++
// reads them in another process).
func buildEmu(t *testing.T, name, kernel string) string {
	t.Helper()
	if os.Getenv("GEARBOX_KERNEL_EMU") != "1" {
		t.Skipf("set GEARBOX_KERNEL_EMU=1 to run %s on CPU threads", kernel)
	}
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("no g++")
	}
	src := "testdata/cpuemu/" + name + ".cpp"
	for _, f := range []string{kernel, "common.cuh", "testdata/cpuemu/shim.h", "testdata/cpuemu/emu.h", src} {
		if _, err := os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(t.TempDir(), name)
	out, err := exec.Command(gxx, "-std=c++20", "-O1", "-w", "-pthread", "-I.", "-Itestdata/cpuemu",
		"-o", bin, src).CombinedOutput()
	if err != nil {
		t.Skipf("g++ cannot build the shim here: %v\n%s", err, out)
	}
	return bin
}

// runEmu runs bin once per argument list, logging its report and failing
// the test on a non-zero exit.
func runEmu(t *testing.T, bin string, cases [][]string) {
	t.Helper()
	for _, args := range cases {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Errorf("%s %v: %v\n%s", filepath.Base(bin), args, err, out)
			continue
		}
		t.Logf("%s", out)
	}
}
