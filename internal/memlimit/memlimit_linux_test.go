//go:build linux

package memlimit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) sysRoot {
	t.Helper()
	dir := t.TempDir()
	for p, s := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return sysRoot{dir: dir}
}

// Both cgroup versions bound the memory, whichever is lower than the RAM.
func TestCgroupLimits(t *testing.T) {
	v1 := writeTree(t, map[string]string{
		"ram":              "17179869184\n",
		"proc/self/cgroup": "4:memory:/job/a\n0::/\n",
		"sys/fs/cgroup/memory/job/a/memory.limit_in_bytes": "1073741824\n",
		"sys/fs/cgroup/memory/memory.limit_in_bytes":       "9223372036854771712\n", // unlimited
	})
	if l := available(v1); l.Bytes != 1<<30 || !strings.Contains(l.Source, "v1") {
		t.Errorf("cgroup v1: got %+v, want 1 GiB from the v1 limit", l)
	}
	v2 := writeTree(t, map[string]string{
		"ram":                                   "17179869184\n",
		"proc/self/cgroup":                      "0::/user.slice/x\n",
		"sys/fs/cgroup/user.slice/x/memory.max": "536870912\n",
		"sys/fs/cgroup/memory.max":              "max\n",
	})
	if l := available(v2); l.Bytes != 512<<20 || !strings.Contains(l.Source, "v2") {
		t.Errorf("cgroup v2: got %+v, want 512 MiB from memory.max", l)
	}
	none := writeTree(t, map[string]string{"ram": "4096\n", "proc/self/cgroup": "0::/\n"})
	if l := available(none); l.Bytes != 4096 || !strings.Contains(l.Source, "RAM") {
		t.Errorf("no cgroup limit: got %+v, want the RAM", l)
	}
}

func TestCheckNamesSizes(t *testing.T) {
	err := check(3<<30, "the CSR", Limit{Bytes: 1 << 30, Source: "RLIMIT_AS (ulimit -v)"})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the CSR needs about 3.0 GiB") || !strings.Contains(err.Error(), "RLIMIT_AS (ulimit -v) leaves 1.0 GiB") {
		t.Errorf("got %v", err)
	}
	if err := check(1<<20, "x", Limit{Bytes: 1 << 30}); err != nil {
		t.Errorf("1 MiB within 1 GiB: %v", err)
	}
	if err := check(1<<50, "x", Limit{}); err != nil {
		t.Errorf("unknown limit refuses: %v", err)
	}
	if Available().Bytes <= 0 {
		t.Errorf("Available() = %+v on linux, want the RAM at least", Available())
	}
}

// The real files are read: this process's own address space is counted
// against RLIMIT_AS, so it leaves less than the limit.
func TestReadsTheRealFiles(t *testing.T) {
	status, err := sysRoot{}.read("proc/self/status")
	if err != nil || statusKB(status, "VmSize:") <= 0 {
		t.Fatalf("proc/self/status: %v", err)
	}
	if _, err := (sysRoot{}).read("proc/self/cgroup"); err != nil {
		t.Errorf("proc/self/cgroup: %v", err)
	}
}
