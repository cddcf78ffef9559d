//go:build linux

package graph

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// physicalMemory returns the machine's RAM, or the cgroup (v2) memory limit
// when lower; 0 when unknown.
func physicalMemory() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	mem := int64(si.Totalram) * int64(si.Unit)
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if lim, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && lim > 0 && lim < mem {
			mem = lim
		}
	}
	return mem
}
