//go:build cuda

package runtime

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
