package runtime_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/runtime"
)

func TestCUDAErrorSentinels(t *testing.T) {
	for _, c := range []struct {
		code int
		want error
	}{{2, runtime.ErrOutOfMemory}, {100, runtime.ErrNoDevice}, {3, runtime.ErrNoDriver}, {35, runtime.ErrNoDriver}, {209, runtime.ErrKernels}} {
		err := error(&runtime.CUDAError{Op: "launch", Kernel: "k", Code: c.code, Name: "x"})
		if !errors.Is(err, c.want) {
			t.Errorf("code %d does not match %v", c.code, c.want)
		}
		if errors.Is(err, runtime.ErrInsufficientMemory) {
			t.Errorf("code %d matches ErrInsufficientMemory", c.code)
		}
	}
	e := &runtime.CUDAError{Op: "launch", Kernel: "bfs_pull_t", Code: 700, Name: "illegal address"}
	if !strings.Contains(e.Error(), "bfs_pull_t") {
		t.Errorf("%q does not name the kernel", e)
	}
}

func TestMemoryError(t *testing.T) {
	err := error(&runtime.MemoryError{What: "a graph", Need: 3 << 30, Free: 1 << 30, Total: 80 << 30})
	if !errors.Is(err, runtime.ErrInsufficientMemory) {
		t.Fatal("MemoryError does not match ErrInsufficientMemory")
	}
	for _, s := range []string{"3.0 GiB", "1.0 GiB free", "80.0 GiB"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%q lacks %q", err, s)
		}
	}
}
