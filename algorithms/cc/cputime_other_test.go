//go:build !unix

package cc

// cpuTime is not measured on this platform.
func cpuTime() int64 { return 0 }
