//go:build !linux

package runtime

func adviseHuge([]byte) {}
