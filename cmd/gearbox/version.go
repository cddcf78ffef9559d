package main

import (
	"context"
	"fmt"
	goruntime "runtime"
	"runtime/debug"

	"github.com/gearbox-graph/gearbox/gpu"
)

// readBuildInfo is debug.ReadBuildInfo, replaced in tests.
var readBuildInfo = debug.ReadBuildInfo

func cmdVersion(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "version", "")
	pos, help, err := parseFlags(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: version takes no arguments, got %q", errUsage, pos)
	}
	fmt.Fprint(e.stdout, versionText())
	return nil
}

// versionText says which gearbox this is: the module version and VCS
// revision the go command stamped (absent from builds with -buildvcs=false
// or outside a repository: then "unknown"), the Go release, and whether the
// binary has the CUDA backend.
func versionText() string {
	version, rev, modified, when := "unknown", "unknown", "", ""
	if bi, ok := readBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = " (modified)"
				}
			case "vcs.time":
				when = " " + s.Value
			}
		}
	}
	cuda := "no (CPU backend only; build with -tags cuda for the GPU)"
	if gpu.Built() {
		cuda = "yes"
	}
	return fmt.Sprintf("gearbox %s\nrevision %s%s%s\n%s %s/%s\ncuda build: %s\n",
		version, rev, modified, when, goruntime.Version(), goruntime.GOOS, goruntime.GOARCH, cuda)
}
