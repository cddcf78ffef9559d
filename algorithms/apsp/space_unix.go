//go:build linux || darwin

package apsp

import "syscall"

// freeBytes returns the bytes available to an unprivileged user on the
// file system holding dir.
func freeBytes(dir string) (int64, bool, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false, err
	}
	return int64(uint64(st.Bavail) * uint64(st.Bsize)), true, nil
}
