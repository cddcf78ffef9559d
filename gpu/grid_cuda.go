//go:build cuda

package gpu

// Grid returns a grid for items work items in blocks of block threads: one
// block per block items, capped at what the GPU keeps resident (kernels use
// grid-stride loops; on the H100 a resident grid scanned 4M update flags in
// 26µs where one block per 256 flags took 37µs).
func (d *Dev) Grid(items int64, block int) int {
	g := (items + int64(block) - 1) / int64(block)
	limit := int64(d.c.sms) * int64(max(2048/block, 1))
	if g > limit {
		g = limit
	}
	if g < 1 {
		g = 1
	}
	return int(g)
}

// BlockGrid returns the grid of a block-mapped kernel over items elements.
func (d *Dev) BlockGrid(items int64, block int) int {
	limit := int64(d.c.sms) * int64(max(2048/block, 1)) * 4
	if items > limit {
		items = limit
	}
	return int(max(items, 1))
}

// PersistGrid returns the grid of a persistent launch of kernel: one block
// per multiprocessor, or kernels.PersistBlocksPerSM's where they fit, so
// that every block is resident (its grid barriers need that).
func (d *Dev) PersistGrid(kernel string) int { return d.c.sms * max(d.persistBlocks[kernel], 1) }

// BlockSize returns the block size of block-mapped kernels for a graph:
// its average out-degree rounded up to a multiple of 32, within 32..1024.
func BlockSize(n int, m int64) int {
	if n == 0 {
		return 32
	}
	avg := (m + int64(n) - 1) / int64(n)
	b := (avg + 31) / 32 * 32
	return int(min(max(b, 32), 1024))
}
