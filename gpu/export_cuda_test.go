//go:build cuda

package gpu

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
