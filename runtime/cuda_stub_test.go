//go:build !cuda

package runtime_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/runtime"
)

func TestNewCUDAWithoutTag(t *testing.T) {
	c, err := runtime.NewCUDA(runtime.WithCUDADevice(0))
	if c != nil || !errors.Is(err, runtime.ErrNoCUDA) {
		t.Fatalf("NewCUDA = %v, %v; want nil, ErrNoCUDA", c, err)
	}
	if !strings.Contains(err.Error(), "-tags cuda") || runtime.CUDABuilt() {
		t.Fatalf("error %q should tell how to rebuild; CUDABuilt = %v", err, runtime.CUDABuilt())
	}
}
