package gpu_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/runtime"
)

func TestErrorSentinels(t *testing.T) {
	for _, c := range []struct {
		code int
		want error
	}{{2, gpu.ErrOutOfMemory}, {100, gpu.ErrNoDevice}, {3, gpu.ErrNoDriver}, {35, gpu.ErrNoDriver}, {209, gpu.ErrKernels}} {
		err := error(&gpu.Error{Op: "launch", Kernel: "k", Code: c.code, Name: "x"})
		if !errors.Is(err, c.want) {
			t.Errorf("code %d does not match %v", c.code, c.want)
		}
		if errors.Is(err, gpu.ErrInsufficientMemory) {
			t.Errorf("code %d matches ErrInsufficientMemory", c.code)
		}
	}
	e := &gpu.Error{Op: "launch", Kernel: "bfs_pull_t", Code: 700, Name: "illegal address"}
	if !strings.Contains(e.Error(), "bfs_pull_t") {
		t.Errorf("%q does not name the kernel", e)
	}
}

func TestMemoryError(t *testing.T) {
	err := error(&gpu.MemoryError{What: "a graph", Need: 3 << 30, Free: 1 << 30, Total: 80 << 30})
	if !errors.Is(err, gpu.ErrInsufficientMemory) {
		t.Fatal("MemoryError does not match ErrInsufficientMemory")
	}
	for _, s := range []string{"3.0 GiB", "1.0 GiB free", "80.0 GiB"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%q lacks %q", err, s)
		}
	}
}

// *gpu.CUDA is a runtime.Backend in both builds.
var _ runtime.Backend = (*gpu.CUDA)(nil)
