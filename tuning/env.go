package tuning

import (
	"context"
	"os"
	"os/exec"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gearbox-graph/gearbox/runtime"
)

// DriverReporter is implemented by backends that know their driver
// version (the CUDA backend); others are reported as "n/a".
type DriverReporter interface {
	Driver() string
}

// ThreadsPerBlockSetter is implemented by backends whose thread mapping
// takes a block size (the CUDA backend). Tune sweeps ThreadsPerBlock only
// on such a backend; on others the knob has no effect and is recorded
// only.
type ThreadsPerBlockSetter interface {
	SetThreadsPerBlock(n int) error
}

// Env describes where a sweep ran; reports carry it.
type Env struct {
	// Backend is the backend's Name(); Device its thresholds device
	// ("cpu" for the CPU backend).
	Backend, Device string
	// Driver is the GPU driver version, "n/a" when the backend has none.
	Driver string
	// Commit is the source revision: vcs.revision of the build, else
	// `git describe --always --dirty` of the working directory when the
	// report is made (marked as such: a checkout that moved on since the
	// build gives the wrong one), else "unknown".
	Commit     string
	Date       string
	GoVersion  string
	GOMAXPROCS int
	NumCPU     int
	// LoadAvg is the machine's 1, 5 and 15 minute load averages when the
	// report was made (Linux /proc/loadavg; "n/a" elsewhere): a load above
	// the CPU count means other processes competed for the CPUs and the
	// times are noisier.
	LoadAvg string
}

// DetectEnv describes the backend, the build and the machine.
func DetectEnv(b runtime.Backend) Env {
	e := Env{Backend: b.Name(), Device: DeviceName(b), Driver: "n/a",
		Commit: commit(), Date: time.Now().UTC().Format(time.RFC3339),
		GoVersion: goruntime.Version(), GOMAXPROCS: goruntime.GOMAXPROCS(0), NumCPU: goruntime.NumCPU()}
	e.LoadAvg = "n/a"
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			e.LoadAvg = strings.Join(f[:3], " ")
		}
	}
	if d, ok := b.(DriverReporter); ok && d.Driver() != "" {
		e.Driver = d.Driver()
	}
	return e
}

// DeviceName returns the backend's device for reports: its Device(), or
// "cpu" for the CPU (whose Device() is "").
func DeviceName(b runtime.Backend) string {
	if d := b.Device(); d != "" {
		return d
	}
	return "cpu"
}

func commit() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" {
			if modified == "true" {
				rev += "-dirty"
			}
			return rev
		}
	}
	// Builds with -buildvcs=false (and tests) carry no revision: ask git.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "describe", "--always", "--dirty", "--tags").Output()
	if s := strings.TrimSpace(string(out)); err == nil && s != "" {
		// Say where it came from: the checkout may have moved on since the
		// binary was built.
		return s + " (git describe at run time; the build has no vcs stamp)"
	}
	return "unknown"
}

// Lines renders the environment as "key: value" lines for reports.
func (e Env) Lines() [][2]string {
	return [][2]string{
		{"backend", e.Backend}, {"device", e.Device}, {"driver", e.Driver}, {"commit", e.Commit},
		{"date", e.Date}, {"go", e.GoVersion}, {"GOMAXPROCS", itoa(e.GOMAXPROCS)}, {"CPUs", itoa(e.NumCPU)}, {"load average", e.LoadAvg},
	}
}
