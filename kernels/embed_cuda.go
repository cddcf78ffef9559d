//go:build cuda

package kernels

import (
	_ "embed"
	"fmt"
	"os"
)

//go:embed gearbox.fatbin
var fatbin []byte

// Image returns the kernel image and where it came from: the file named by
// $GEARBOX_KERNELS when set, else the fatbin embedded at build time.
func Image() (image []byte, from string, err error) {
	if p := os.Getenv(EnvKernels); p != "" {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, p, fmt.Errorf("%s=%s: %w", EnvKernels, p, err)
		}
		if len(b) == 0 {
			return nil, p, fmt.Errorf("%s=%s: empty file", EnvKernels, p)
		}
		return b, p, nil
	}
	if len(fatbin) == 0 {
		return nil, "embedded", fmt.Errorf("the embedded %s is empty: run `go generate ./kernels` on a machine with nvcc, or set %s to a fatbin", FatbinFile, EnvKernels)
	}
	return fatbin, "embedded", nil
}
