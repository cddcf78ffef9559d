//go:build cuda

package runtime

import "unsafe"

// CUDACtrlForTest lets the external GPU tests check and read the control
// block's Go mirror itself rather than a copy of it.
type CUDACtrlForTest = cudaCtrl

// RegisteredBytes returns the bytes of Go memory registered for direct
// copies.
func (c *CUDA) RegisteredBytes() (n int64, err error) {
	err = c.Do(func(d *Dev) error {
		for _, r := range d.regs {
			n += r.bytes
		}
		return nil
	})
	return
}

// HostPooled returns how many page-locked buffers of bytes the host pool
// holds.
func HostPooled(d *Dev, bytes int64) int { return len(d.hostPool[bytes]) }

// CtrlBytes is the size of the control block's page-locked mirror.
const CtrlBytes = int64(unsafe.Sizeof(cudaCtrl{}))
