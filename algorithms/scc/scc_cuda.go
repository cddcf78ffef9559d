//go:build cuda

package scc

import (
	"fmt"
	"math"
	"time"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
)

func init() {
	backends.Register("cuda", func(b runtime.Backend, r request) (operator, bool) { return newCUDAOp(b, r) })
}

// sccBlock is the block size of the scc kernels.
const sccBlock = 256

// cudaOp runs the CPU operator's phases on the GPU (kernels/scc.cu), one
// thread per vertex: trimming sweeps until one labels nothing, FW-BW
// rounds whose searches advance a level per launch over g and the
// transpose the backend caches, colouring rounds of propagation sweeps.
// Every launch that decides whether another follows ends with a read of
// the three counters. The engine's mapping is not read: every sweep is
// vertex-parallel.
type cudaOp struct {
	driver
	c      *gpu.CUDA
	n      int
	dg, dt *gpu.DeviceGraph
	// label, partition, the searches' levels, colours, the split's class
	// names (4 n)
	label, part, fw, bw, col, low gpu.DeviceSlice[uint32]
	pivot, cnt                    gpu.DeviceSlice[uint64]
	host                          []uint64 // the counters read back
	acc                           [3]uint64
	times                         runtime.GPUTimes
	initErr                       error
	labels                        []uint32
	pinned, closed                bool
}

func newCUDAOp(b runtime.Backend, r request) (operator, bool) {
	c, ok := b.(*gpu.CUDA)
	if !ok {
		return nil, false
	}
	o := &cudaOp{c: c, n: r.g.NumVertices(), host: make([]uint64, 3)}
	o.driver = newDriver(o, r)
	t0 := time.Now()
	o.initErr = c.Do(o.setup)
	o.times.Setup = time.Since(t0)
	return o, true
}

func (o *cudaOp) setup(d *gpu.Dev) error {
	if int64(o.n) >= math.MaxUint32 {
		return fmt.Errorf("scc: %d vertices exceeds the GPU limit %d", o.n, uint32(math.MaxUint32)-1)
	}
	n := max(o.n, 1)
	state := 4*9*int64(n) + 8*int64(n) + 24
	up := d.UploadTime()
	defer func() { o.times.Upload = d.UploadTime() - up }()
	dg, err := d.AcquireGraph(o.g, state+d.TransposeBytes(o.g))
	if err != nil {
		return err
	}
	o.dg, o.pinned = dg, true
	if o.dt, err = d.AcquireTranspose(o.g); err != nil {
		return err
	}
	for _, s := range []*gpu.DeviceSlice[uint32]{&o.label, &o.part, &o.fw, &o.bw, &o.col} {
		if *s, err = gpu.AllocSlice[uint32](d, n); err != nil {
			return err
		}
	}
	if o.low, err = gpu.AllocSlice[uint32](d, 4*n); err != nil {
		return err
	}
	if o.pivot, err = gpu.AllocSlice[uint64](d, n); err != nil {
		return err
	}
	if o.cnt, err = gpu.AllocSlice[uint64](d, len(o.host)); err != nil {
		return err
	}
	if err := d.Memset32(o.label, 0, kernels.SCCNone, int64(n)); err != nil {
		return err
	}
	return d.Memset32(o.part, 0, 0, int64(n))
}

func (o *cudaOp) Start(decider.Variant) error { return o.initErr }

func (o *cudaOp) DeviceTimes() *runtime.GPUTimes { return &o.times }

func (o *cudaOp) Labels() []uint32 {
	if o.labels == nil {
		return []uint32{}
	}
	return o.labels
}

// grid is the grid of a launch over the vertices.
func (o *cudaOp) grid(d *gpu.Dev) int { return d.Grid(int64(max(o.n, 1)), sccBlock) }

// phase runs one phase's launches on the device, counted as kernel time,
// and returns its labelled vertices and examined arcs.
func (o *cudaOp) phase(f func(d *gpu.Dev) error) (int64, int64, error) {
	t := time.Now()
	o.acc = [3]uint64{}
	err := o.c.Do(f)
	o.times.Kernels += time.Since(t)
	return int64(o.acc[1]), int64(o.acc[2]), err
}

// counted runs launch with cleared counters, reads them back and returns
// the vertices it reached (or lowered) and labelled.
func (o *cudaOp) counted(d *gpu.Dev, launch func(cnt kernels.DevPtr[uint64]) error) (uint64, uint64, error) {
	if err := d.Memset32(o.cnt, 0, 0, 2*int64(len(o.host))); err != nil {
		return 0, 0, err
	}
	if err := launch(o.cnt.Ptr()); err != nil {
		return 0, 0, err
	}
	if err := o.cnt.Read(d, 0, o.host); err != nil {
		return 0, 0, err
	}
	for i, x := range o.host {
		o.acc[i] += x
	}
	return o.host[0], o.host[1], nil
}

func (o *cudaOp) trim(decider.Mapping) (int64, int64, error) {
	return o.phase(func(d *gpu.Dev) error {
		for {
			_, lab, err := o.counted(d, func(cnt kernels.DevPtr[uint64]) error {
				return kernels.LaunchSccTrim(d, o.grid(d), sccBlock, o.dg.Off.Ptr(), o.dg.Adj.Ptr(), o.dt.Off.Ptr(), o.dt.Adj.Ptr(),
					uint32(o.n), o.label.Ptr(), o.part.Ptr(), cnt)
			})
			if err != nil || lab == 0 {
				return err
			}
		}
	})
}

// search advances the search whose level-1 vertices lv holds over c's
// arcs, inside key, a level per launch until one reaches nothing.
func (o *cudaOp) search(d *gpu.Dev, c *gpu.DeviceGraph, key, lv gpu.DeviceSlice[uint32]) error {
	for level := uint32(1); ; level++ {
		got, _, err := o.counted(d, func(cnt kernels.DevPtr[uint64]) error {
			return kernels.LaunchSccReach(d, o.grid(d), sccBlock, c.Off.Ptr(), c.Adj.Ptr(), uint32(o.n), o.label.Ptr(), key.Ptr(), lv.Ptr(), level, cnt)
		})
		if err != nil || got == 0 {
			return err
		}
	}
}

func (o *cudaOp) fwbw(decider.Mapping) (int64, int64, error) {
	n := uint32(o.n)
	return o.phase(func(d *gpu.Dev) error {
		if err := d.Memset32(o.pivot, 0, 0, 2*int64(o.n)); err != nil {
			return err
		}
		if err := kernels.LaunchSccPivot(d, o.grid(d), sccBlock, o.dg.Off.Ptr(), o.dt.Off.Ptr(), n, o.label.Ptr(), o.part.Ptr(), o.pivot.Ptr()); err != nil {
			return err
		}
		if err := kernels.LaunchSccSeed(d, o.grid(d), sccBlock, n, o.label.Ptr(), o.part.Ptr(), o.pivot.Ptr(), o.fw.Ptr(), o.bw.Ptr()); err != nil {
			return err
		}
		if err := o.search(d, o.dg, o.part, o.fw); err != nil {
			return err
		}
		if err := o.search(d, o.dt, o.part, o.bw); err != nil {
			return err
		}
		if err := d.Memset32(o.low, 0, kernels.SCCNone, 4*int64(o.n)); err != nil {
			return err
		}
		if err := kernels.LaunchSccSplitMin(d, o.grid(d), sccBlock, n, o.label.Ptr(), o.part.Ptr(), o.fw.Ptr(), o.bw.Ptr(), o.low.Ptr()); err != nil {
			return err
		}
		_, _, err := o.counted(d, func(cnt kernels.DevPtr[uint64]) error {
			return kernels.LaunchSccSplitApply(d, o.grid(d), sccBlock, n, o.label.Ptr(), o.part.Ptr(), o.fw.Ptr(), o.bw.Ptr(), o.low.Ptr(), cnt)
		})
		return err
	})
}

func (o *cudaOp) colour(decider.Mapping) (int64, int64, error) {
	n := uint32(o.n)
	return o.phase(func(d *gpu.Dev) error {
		if err := kernels.LaunchSccColourInit(d, o.grid(d), sccBlock, n, o.col.Ptr()); err != nil {
			return err
		}
		for {
			lowered, _, err := o.counted(d, func(cnt kernels.DevPtr[uint64]) error {
				return kernels.LaunchSccColourProp(d, o.grid(d), sccBlock, o.dg.Off.Ptr(), o.dg.Adj.Ptr(), n, o.label.Ptr(), o.part.Ptr(), o.col.Ptr(), cnt)
			})
			if err != nil {
				return err
			}
			if lowered == 0 {
				break
			}
		}
		if err := kernels.LaunchSccRoots(d, o.grid(d), sccBlock, n, o.label.Ptr(), o.col.Ptr(), o.bw.Ptr()); err != nil {
			return err
		}
		if err := o.search(d, o.dt, o.col, o.bw); err != nil {
			return err
		}
		_, _, err := o.counted(d, func(cnt kernels.DevPtr[uint64]) error {
			return kernels.LaunchSccColourApply(d, o.grid(d), sccBlock, n, o.label.Ptr(), o.part.Ptr(), o.col.Ptr(), o.bw.Ptr(), cnt)
		})
		return err
	})
}

// Close reads the labels of a finished run and frees the device state;
// the graph and its transpose stay cached in the backend.
func (o *cudaOp) Close() error {
	if o.closed {
		return nil
	}
	o.closed = true
	return o.c.Do(func(d *gpu.Dev) error {
		err := o.readLabels(d)
		o.free(d)
		return err
	})
}

func (o *cudaOp) readLabels(d *gpu.Dev) error {
	if o.initErr != nil || !o.Done() {
		return nil
	}
	defer func(t time.Time) { o.times.Transfers += time.Since(t) }(time.Now())
	o.labels = make([]uint32, o.n)
	if o.n == 0 {
		return nil
	}
	return gpu.ReadStaged(d, o.label, o.labels)
}

func (o *cudaOp) free(d *gpu.Dev) {
	for _, s := range []*gpu.DeviceSlice[uint32]{&o.label, &o.part, &o.fw, &o.bw, &o.col, &o.low} {
		s.Free(d)
	}
	o.pivot.Free(d)
	o.cnt.Free(d)
	if o.pinned {
		d.ReleaseGraph(o.g)
		o.pinned = false
	}
}
