//go:build cuda

package apsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
)

func init() { gpuRun = runGPU }

// hostBlockBytes bounds the host buffer that rows cross in: the matrix
// comes back in blocks of whole rows of at most this size.
const hostBlockBytes = 64 << 20

// runGPU is Run on the cuda backend: FW on the device (kernels/apsp.cu),
// or the CPU's searches when the model or the device's memory says so.
func runGPU(ctx context.Context, g *graph.Graph, rows RowFunc, c *config) (*Result, bool, error) {
	cuda, ok := c.backend.(*gpu.CUDA)
	if !ok {
		return nil, false, nil
	}
	if err := checkWeights(g); err != nil {
		return nil, true, err
	}
	n := g.NumVertices()
	bits := gpuBits(g)
	_, total, err := cuda.MemInfo()
	if err != nil {
		return nil, true, fmt.Errorf("apsp: %w", err)
	}
	// The matrix may take the device's memory less the graph's CSR and the
	// headroom (a cached graph or pooled blocks are given back on demand);
	// AcquireGraph checks again against what is free now.
	bound := total - cuda.Headroom() - gpu.GraphBytes(g)
	if c.limitSet {
		bound = min(bound, c.limit)
	}
	cpu := runtime.NewCPU(0)
	m, why, err := chooseGPU(g, c.method, bits, bound, cpu.Workers())
	if err != nil {
		return nil, true, err
	}
	res := &Result{Method: m, Reason: why, Vertices: n, HopCounts: g.WeightKind() == graph.Unweighted}
	t0 := time.Now()
	if m == Sources {
		res.Backend = cpu.Name()
		if n > 0 {
			err = runSources(ctx, g, cpu, rows)
		}
	} else {
		res.Backend = cuda.Name()
		res.Bits = bits
		if n > 0 {
			err = runFWGPU(ctx, cuda, g, bits, rows, res)
		}
	}
	res.Wall = time.Since(t0)
	if err != nil {
		return nil, true, err
	}
	c.logger.Debug().Str("method", string(m)).Str("why", why).Dur("wall", res.Wall).Dur("kernel", res.Kernel).
		Dur("transfer", res.Transfer).Int("bits", res.Bits).Msg("apsp")
	return res, true, nil
}

// runFWGPU builds the matrix on the device from the graph's CSR, runs the
// rounds (kernels.APSPFW32/APSPFW16, one launch each), and streams the
// rows back in blocks that fit hostBlockBytes, calling rows outside the
// device lock.
func runFWGPU(ctx context.Context, cuda *gpu.CUDA, g *graph.Graph, bits int, rows RowFunc, res *Result) (err error) {
	n := g.NumVertices()
	p := padded(n, gpuTile)
	nb := p / gpuTile
	if int64(nb)*int64(nb) > math.MaxInt32 {
		return fmt.Errorf("apsp: %w: %d vertices make %d x %d tiles, above the grid limit", ErrTooLarge, n, nb, nb)
	}
	lanes := 32 / bits
	pw := p / lanes // words a row
	words := int64(p) * int64(pw)
	var mat gpu.DeviceSlice[uint32]
	defer func() {
		if mat.Len() > 0 {
			ferr := cuda.Do(func(d *gpu.Dev) error { mat.Free(d); return nil })
			if err == nil && ferr != nil && !errors.Is(ferr, gpu.ErrClosed) {
				err = fmt.Errorf("apsp: %w", ferr)
			}
		}
	}()

	t0 := time.Now()
	err = cuda.Do(func(d *gpu.Dev) error {
		dg, err := d.AcquireGraph(g, 4*words)
		if err != nil {
			return err
		}
		defer d.ReleaseGraph(g)
		if mat, err = gpu.AllocSlice[uint32](d, int(words)); err != nil {
			return err
		}
		fill := uint32(inf)
		packed := uint32(0)
		if bits == 16 {
			fill, packed = inf16<<16|inf16, 1
		}
		if err := d.Memset32(mat, 0, fill, words); err != nil {
			return err
		}
		l := d
		if err := kernels.LaunchApspInit(l, d.Grid(int64(p), 256), 256, mat.Ptr(), uint32(pw), uint32(p),
			dg.Off.Ptr(), dg.Adj.Ptr(), dg.W.Ptr(), uint32(n), packed); err != nil {
			return err
		}
		if err := d.Sync(); err != nil {
			return err
		}
		res.Setup = time.Since(t0)

		// The rounds: launch r closes row and column r and applies round
		// r-1 to every other tile (apsp.cu); r = nb only the latter.
		t1 := time.Now()
		for r := 0; r <= nb; r++ {
			if r%16 == 0 {
				if err := ctx.Err(); err != nil {
					_ = d.Sync()
					return fmt.Errorf("apsp: cancelled after %d of %d rounds: %w", r, nb+1, err)
				}
			}
			grid := nb * nb
			if r == 0 {
				grid = 2*nb - 1
			}
			if bits == 16 {
				err = kernels.LaunchApspFwS16(l, grid, kernels.APSPThreads16, mat.Ptr(), uint32(nb), uint32(pw), uint32(r))
			} else {
				err = kernels.LaunchApspFwS32(l, grid, kernels.APSPThreads32, mat.Ptr(), uint32(nb), uint32(pw), uint32(r))
			}
			if err != nil {
				return err
			}
		}
		if err := d.Sync(); err != nil {
			return err
		}
		res.Kernel = time.Since(t1)
		res.Rounds = nb + 1
		return nil
	})
	if err != nil {
		var me *gpu.MemoryError
		if errors.As(err, &me) {
			return fmt.Errorf("apsp: %w: the GPU's matrix for %d vertices (%d-bit distances) takes %d bytes: %w", ErrTooLarge, n, bits, 4*words, err)
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return fmt.Errorf("apsp: %w", err)
	}

	// Rows back, a block at a time; rows gets them outside the device lock.
	blk := max(1, min(n, int(hostBlockBytes/(4*int64(pw)))))
	buf := make([]uint32, blk*pw)
	row := make([]uint32, n)
	for r0 := 0; r0 < n; r0 += blk {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("apsp: cancelled after %d of %d rows: %w", r0, n, err)
		}
		k := min(blk, n-r0)
		t := time.Now()
		if err := cuda.Do(func(d *gpu.Dev) error { return mat.Read(d, r0*pw, buf[:k*pw]) }); err != nil {
			return fmt.Errorf("apsp: rows %d..%d: %w", r0, r0+k-1, err)
		}
		res.Transfer += time.Since(t)
		for i := 0; i < k; i++ {
			unpackRow(buf[i*pw:(i+1)*pw], row, bits)
			if err := rows(uint32(r0+i), row); err != nil {
				return err
			}
		}
	}
	return nil
}
