//go:build !cuda

package gpu_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/gpu"
)

func TestNewWithoutTag(t *testing.T) {
	c, err := gpu.New(gpu.WithDevice(0))
	if c != nil || !errors.Is(err, gpu.ErrNoCUDA) {
		t.Fatalf("New = %v, %v; want nil, ErrNoCUDA", c, err)
	}
	if !strings.Contains(err.Error(), "-tags cuda") || gpu.Built() {
		t.Fatalf("error %q should tell how to rebuild; CUDABuilt = %v", err, gpu.Built())
	}
}
