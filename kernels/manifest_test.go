package kernels

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/kernels/internal/wrapgen"
)

// TestManifestUpToDate fails when a kernel source changed without the
// fatbin being regenerated (or the fatbin changed without the manifest).
func TestManifestUpToDate(t *testing.T) {
	problems, err := CheckManifest(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: run `go generate ./kernels` on a machine with nvcc (or rebuild the fatbin on the GPU machine and run `go run gen.go -manifest`)", p)
	}
}

func TestManifestDetectsChange(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.cu", "b.cuh", FatbinFile} {
		if err := os.WriteFile(dir+"/"+f, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := BuildManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 {
		t.Fatalf("manifest has %d entries, want 3", len(entries))
	}
	if err := os.WriteFile(dir+"/"+ManifestFile, FormatManifest(entries), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := CheckManifest(dir); err != nil || len(p) != 0 {
		t.Fatalf("fresh manifest: problems %v, err %v", p, err)
	}
	if err := os.WriteFile(dir+"/b.cuh", []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/c.cu", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := CheckManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(p, "\n")
	if len(p) != 2 || !strings.Contains(joined, "b.cuh changed") || !strings.Contains(joined, "c.cu is not listed") {
		t.Fatalf("problems = %q, want b.cuh changed and c.cu unlisted", p)
	}
}

// TestKernelNamesDefined checks that every kernel the Go side launches is
// defined in the sources, and every defined one is in Names (the GPU tests
// check that the fatbin has them; TestWrappersCoverKernels that the
// committed fatbin does).
func TestKernelNamesDefined(t *testing.T) {
	src, err := wrapgen.ParseDir(".")
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	for _, k := range src.Kernels {
		defined[k.Name] = true
	}
	if len(defined) == 0 {
		t.Fatal("no kernels found in the sources")
	}
	for _, n := range Names {
		if !defined[n] {
			t.Errorf("kernel %q is launched from Go but not defined in any .cu file", n)
		}
	}
	listed := map[string]bool{}
	for _, n := range Names {
		listed[n] = true
	}
	for n := range defined {
		if !listed[n] {
			t.Errorf("kernel %q is defined but missing from Names", n)
		}
	}
}

// TestKernelConstants keeps the Go mirrors of the kernels' #defines equal
// to them (the host decides from them which launches a step needs).
func TestKernelConstants(t *testing.T) {
	var src strings.Builder
	for _, f := range []string{"common.cuh", "expand.cuh", "paths.cu"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	for name, want := range map[string]int{
		"PIECE": PieceEdges, "HEAVY_T": HeavyThread, "HEAVY_B": HeavyBlock,
		"PERSIST_THREADS": PersistThreads, "PERSIST_MAXDEG": PersistMaxDeg,
		"PERSIST_GROUP_MAXDEG": PersistGroupMaxDeg, "PERSIST_BYTES": PersistBytes, "PERSIST_HUBS": PersistHubs,
		"STCON_CTRL_BYTES": StconCtrlBytes, "STCON_PATH_INLINE": StconPathInline,
		"STCON_RUNNING": StconRunning, "STCON_MET": StconMet, "STCON_APART": StconApart,
	} {
		m := regexp.MustCompile(`(?m)^#define ` + name + ` (\d+)`).FindStringSubmatch(src.String())
		if m == nil {
			t.Errorf("#define %s not found", name)
			continue
		}
		if m[1] != strconv.Itoa(want) {
			t.Errorf("#define %s %s, the Go side has %d", name, m[1], want)
		}
	}
}

// TestGPUScriptFlags keeps the nvcc flags of the GPU batch scripts, which
// build the fatbin on machines without Go, equal to NVCCFlags.
func TestGPUScriptFlags(t *testing.T) {
	want := `FLAGS="` + strings.Join(NVCCFlags, " ") + `"`
	for _, name := range []string{"gpu-run.sh", "gpu-session.sh"} {
		path := filepath.Join("..", "scripts", "gpu", name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s does not set %s", path, want)
		}
	}
}
