//go:build cuda

package frontier

import (
	"fmt"
	"time"

	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/kernels"
)

// CUDAParents is a GPU operator's parent pass (WithParents): after the
// traversal, whatever variants ran, one kernel over the in-arcs gives every
// reached vertex but the sources its first tight in-arc's tail (the CPU's
// rule, ParentsByLevel), and the tree is copied to the host. A zero value
// records nothing; Want switches it on before the operator's set-up.
type CUDAParents struct {
	on     bool
	parent gpu.DeviceSlice[uint32]
	out    func() []uint32
	tree   []uint32
	took   time.Duration
}

// Want switches the pass on (on) and returns the device bytes it needs on
// a graph of n vertices, for the set-up's check.
func (p *CUDAParents) Want(on bool, n int) int64 {
	p.on = on
	if !on {
		return 0
	}
	return 4 * int64(n)
}

// Alloc allocates the device tree (from the operator's set-up).
func (p *CUDAParents) Alloc(d *gpu.Dev, n int) (err error) {
	if p.on {
		p.parent, err = gpu.AllocSlice[uint32](d, n)
	}
	return err
}

// Prepare starts preparing the host memory of n parents while the GPU
// runs (from the operator's Start).
func (p *CUDAParents) Prepare(n int) {
	if p.on {
		p.out = hostmem.Slice[uint32](n)
	}
}

// Run launches the pass (launch issues kernels.LaunchBFSParents or an SSSP
// one over the in-arcs in, into parent) and copies the tree to the host,
// when it is on and was prepared. Called from the operator's Close, before
// it reads its result.
func (p *CUDAParents) Run(d *gpu.Dev, t *CUDATraversal, launch func(in *gpu.DeviceGraph, parent kernels.DevPtr[uint32], grid, block int) error) error {
	if !p.on || p.out == nil {
		return nil
	}
	u0 := d.UploadTime()
	in, err := d.AcquireTranspose(t.G) // a directed graph's first pull or pass uploads it
	up := d.UploadTime() - u0
	t.Times.Upload += up
	if err != nil {
		return fmt.Errorf("parents: %w", err)
	}
	t0 := time.Now()
	n := t.G.NumVertices()
	if err := launch(in, p.parent.Ptr(), d.Grid(int64(n), 256), 256); err != nil {
		return fmt.Errorf("parents: %w", err)
	}
	tree := p.out()
	if err := gpu.ReadStaged(d, p.parent, tree); err != nil {
		return fmt.Errorf("parents: %w", err)
	}
	p.tree, p.took = tree, time.Since(t0)
	return nil
}

// Free releases the device tree.
func (p *CUDAParents) Free(d *gpu.Dev) { p.parent.Free(d) }

// Parents implements DeviceParents.
func (p *CUDAParents) Parents() ([]uint32, time.Duration) { return p.tree, p.took }
