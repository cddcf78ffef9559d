//go:build linux

package memlimit

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// sysRoot reads the real /proc and /sys; tests substitute a directory.
type sysRoot struct{ dir string }

func (r sysRoot) read(p string) ([]byte, error) {
	dir := r.dir
	if dir == "" {
		dir = "/"
	}
	return os.ReadFile(filepath.Join(dir, p))
}

// noLimit is above any cgroup v1 "unlimited" value (PAGE_COUNTER_MAX pages).
const noLimit = math.MaxInt64 / 2

func available(r sysRoot) Limit {
	best := Limit{}
	take := func(b int64, src string) {
		if b > 0 && b < noLimit && (best.Bytes == 0 || b < best.Bytes) {
			best = Limit{Bytes: b, Source: src}
		}
	}
	if r.dir == "" {
		var si syscall.Sysinfo_t
		if syscall.Sysinfo(&si) == nil {
			take(int64(si.Totalram)*int64(si.Unit), "the machine's RAM")
		}
	} else if b, err := r.read("ram"); err == nil { // tests
		take(parseInt(b), "the machine's RAM")
	}
	for _, c := range cgroupLimits(r) {
		take(c.Bytes, c.Source)
	}
	status, _ := r.read("proc/self/status")
	var rl syscall.Rlimit
	if r.dir == "" && syscall.Getrlimit(syscall.RLIMIT_AS, &rl) == nil && rl.Cur < noLimit {
		take(int64(rl.Cur)-statusKB(status, "VmSize:"), "RLIMIT_AS (ulimit -v)")
	}
	if r.dir == "" && syscall.Getrlimit(syscall.RLIMIT_DATA, &rl) == nil && rl.Cur < noLimit {
		take(int64(rl.Cur)-statusKB(status, "VmData:"), "RLIMIT_DATA (ulimit -d)")
	}
	return best
}

// cgroupLimits returns the memory limits of the process's cgroups: v2's
// memory.max and v1's memory.limit_in_bytes, at the process's own cgroup
// and at the mount's root (what a container sees of its own limit).
func cgroupLimits(r sysRoot) []Limit {
	var out []Limit
	paths := map[string]string{} // controller ("" for v2) -> cgroup path
	if b, err := r.read("proc/self/cgroup"); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			f := strings.SplitN(sc.Text(), ":", 3)
			if len(f) != 3 {
				continue
			}
			if f[1] == "" {
				paths[""] = f[2]
			}
			for _, c := range strings.Split(f[1], ",") {
				if c == "memory" {
					paths["memory"] = f[2]
				}
			}
		}
	}
	try := func(p, src string) {
		b, err := r.read(p)
		if err != nil {
			return
		}
		s := strings.TrimSpace(string(b))
		if s == "max" {
			return
		}
		if v := parseInt(b); v > 0 {
			out = append(out, Limit{Bytes: v, Source: src})
		}
	}
	for _, p := range []string{paths[""], "/"} {
		try(filepath.Join("sys/fs/cgroup", p, "memory.max"), "the cgroup v2 limit (memory.max)")
	}
	for _, p := range []string{paths["memory"], "/"} {
		try(filepath.Join("sys/fs/cgroup/memory", p, "memory.limit_in_bytes"), "the cgroup v1 limit (memory.limit_in_bytes)")
	}
	return out
}

func parseInt(b []byte) int64 {
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0
	}
	return v
}

// statusKB returns a "Key:   123 kB" field of /proc/self/status in bytes.
func statusKB(status []byte, key string) int64 {
	for _, l := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(l, key); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				v, _ := strconv.ParseInt(f[0], 10, 64)
				return v << 10
			}
		}
	}
	return 0
}
