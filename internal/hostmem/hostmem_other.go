//go:build !linux

package hostmem

func adviseHuge([]byte) {}
