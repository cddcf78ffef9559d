//go:build cuda

package stcon

import (
	"context"
	"fmt"
	"sync"
	"unsafe"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
)

func init() {
	devices.Register("cuda", func(b runtime.Backend, g *graph.Graph) (deviceSearcher, bool) {
		c, ok := b.(*gpu.CUDA)
		if !ok {
			return nil, false
		}
		return cudaSearcherFor(c, g), true
	})
}

// cudaSearcher answers queries on one graph with kernels.StconPersist: the
// whole two-sided search in one persistent launch (more only past
// frontier.MaxFusedLevels levels, so that cancellation stays responsive),
// then one read of the control block, which carries the path back when it
// is short. Its device state outlives a query: the labels need no reset
// (each query stamps its own), the control block and the barrier are
// cleared by memsets in the launch's stream, so a query costs no
// allocation and one synchronous copy.
type cudaSearcher struct {
	c *gpu.CUDA
	g *graph.Graph
	// Labels (stamp<<32 | parent) of the s and t sides, the three queue
	// buffers, the hub list and its first chunks, the control block and
	// the persistent launch's barrier state.
	labS, labT    gpu.DeviceSlice[uint64]
	qs            gpu.DeviceSlice[uint32]
	hub, hubChunk gpu.DeviceSlice[uint32]
	st, ps        gpu.DeviceSlice[uint32]
	host          *kernels.StconCtrl // page-locked
	hostMem       unsafe.Pointer
	stamp         uint32
	ready         bool
}

// cudaSearchers keeps the searcher of the last graph queried: a query on
// another graph (or backend) frees it first.
var cudaSearchers struct {
	sync.Mutex
	last *cudaSearcher
}

func cudaSearcherFor(c *gpu.CUDA, g *graph.Graph) *cudaSearcher {
	cudaSearchers.Lock()
	defer cudaSearchers.Unlock()
	if l := cudaSearchers.last; l != nil && l.c == c && l.g == g {
		return l
	}
	if l := cudaSearchers.last; l != nil {
		_ = l.c.Do(l.free) // a closed backend freed it already
	}
	cudaSearchers.last = &cudaSearcher{c: c, g: g}
	return cudaSearchers.last
}

// hubCap bounds the hubs of a level: vertices of more than
// STCON_GROUP_MAXDEG (256) arcs on one side's graph.
func hubCap(g *graph.Graph) int {
	return int(min(int64(g.NumVertices()), g.NumEdges()/256+1))
}

// stateBytes is the device memory of the searcher's arrays.
func stateBytes(g *graph.Graph) int64 {
	n := int64(g.NumVertices())
	return 16*n + 12*n + 8*int64(hubCap(g)) + kernels.StconCtrlBytes + kernels.PersistBytes
}

func (sr *cudaSearcher) alloc(d *gpu.Dev) (err error) {
	n := sr.g.NumVertices()
	if sr.labS, err = gpu.AllocSlice[uint64](d, n); err != nil {
		return err
	}
	if sr.labT, err = gpu.AllocSlice[uint64](d, n); err != nil {
		return err
	}
	if sr.qs, err = gpu.AllocSlice[uint32](d, 3*n); err != nil {
		return err
	}
	if sr.hub, err = gpu.AllocSlice[uint32](d, hubCap(sr.g)); err != nil {
		return err
	}
	if sr.hubChunk, err = gpu.AllocSlice[uint32](d, hubCap(sr.g)); err != nil {
		return err
	}
	if sr.st, err = gpu.AllocSlice[uint32](d, kernels.StconCtrlBytes/4); err != nil {
		return err
	}
	if sr.ps, err = gpu.AllocSlice[uint32](d, kernels.PersistBytes/4); err != nil {
		return err
	}
	if sr.hostMem, err = d.AllocHost(kernels.StconCtrlBytes); err != nil {
		return err
	}
	sr.host = (*kernels.StconCtrl)(sr.hostMem)
	sr.ready = true
	return nil
}

func (sr *cudaSearcher) free(d *gpu.Dev) error {
	for _, s := range []*gpu.DeviceSlice[uint64]{&sr.labS, &sr.labT} {
		s.Free(d)
	}
	for _, s := range []*gpu.DeviceSlice[uint32]{&sr.qs, &sr.hub, &sr.hubChunk, &sr.st, &sr.ps} {
		s.Free(d)
	}
	if sr.hostMem != nil {
		d.FreeHost(sr.hostMem)
		sr.hostMem, sr.host = nil, nil
	}
	sr.ready = false
	return nil
}

// clearLabels starts the stamps again (a new searcher, or 2^32-1 queries).
func (sr *cudaSearcher) clearLabels(d *gpu.Dev) error {
	n := int64(sr.g.NumVertices())
	sr.stamp = 0
	if err := d.Memset32(sr.labS, 0, 0, 2*n); err != nil {
		return err
	}
	return d.Memset32(sr.labT, 0, 0, 2*n)
}

func (sr *cudaSearcher) query(ctx context.Context, s, t uint32) (*Result, error) {
	res, st, finish, done := newQuery(sr.g, s, t, sr.c.Name())
	defer finish()
	if done {
		return res, nil
	}
	cudaSearchers.Lock() // one query at a time on the searcher's state
	defer cudaSearchers.Unlock()
	err := sr.c.Do(func(d *gpu.Dev) error {
		g := sr.g
		extra := int64(0)
		if !sr.ready {
			extra = stateBytes(g)
		}
		dg, err := d.AcquireGraph(g, extra)
		if err != nil {
			return err
		}
		defer d.ReleaseGraph(g)
		dt, err := d.AcquireTranspose(g)
		if err != nil {
			return err
		}
		if !sr.ready {
			if err := sr.alloc(d); err != nil {
				sr.free(d)
				return err
			}
			if err := sr.clearLabels(d); err != nil {
				return err
			}
		}
		if sr.stamp++; sr.stamp == 0 {
			if err := sr.clearLabels(d); err != nil {
				return err
			}
			sr.stamp = 1
		}
		if err := d.Memset32(sr.st, 0, 0, kernels.StconCtrlBytes/4); err != nil {
			return err
		}
		n := uint32(g.NumVertices())
		grid := d.PersistGrid(kernels.StconPersist)
		for first := true; ; first = false {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("cancelled after %d levels: %w", sr.host.Levels, err)
			}
			if err := d.Memset32(sr.ps, 0, 0, kernels.PersistBytes/4); err != nil {
				return err
			}
			if err := kernels.LaunchStconPersist(d, grid, kernels.PersistThreads,
				kernels.PtrAt[kernels.StconCtrl](sr.st.DevicePtr()), kernels.PtrAt[kernels.Persist](sr.ps.DevicePtr()), s, t, sr.stamp, gpu.Flag(first),
				frontier.MaxFusedLevels, dg.Off.Ptr(), dg.Adj.Ptr(), dt.Off.Ptr(), dt.Adj.Ptr(), n,
				sr.labS.Ptr(), sr.labT.Ptr(), sr.qs.Ptr(), sr.hub.Ptr(), sr.hubChunk.Ptr()); err != nil {
				return err
			}
			if err := d.ReadRaw(sr.hostMem, sr.st, kernels.StconCtrlBytes); err != nil {
				return err
			}
			if sr.host.Status != kernels.StconRunning {
				break
			}
		}
		h := sr.host
		st.Iterations = int(h.Levels)
		res.Visited, res.Arcs = int64(h.Visited), int64(h.Arcs)
		if h.Status != kernels.StconMet {
			return nil
		}
		path := make([]uint32, h.Pathlen)
		if h.Pathlen <= kernels.StconPathInline {
			copy(path, h.Path[:h.Pathlen])
		} else if err := sr.qs.Read(d, int(h.Qf)*int(n), path); err != nil {
			return err
		}
		res.reachable, res.hops, res.path = true, len(path)-1, path
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("stcon: %w", err)
	}
	return res, nil
}
