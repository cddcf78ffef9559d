//go:build cuda

package runtime

// Thread-block clusters for the persistent launches (sm_90 and later).
// The binding predates clusters (no cuLaunchKernelEx, no cluster
// occupancy query), so the two calls are made here, as hostreg_cuda.go
// makes the host-registration calls.

/*
#cgo LDFLAGS: -lcuda
#include <stdint.h>
#include <string.h>
#include <cuda.h>

static void gearbox_cluster_config(CUlaunchConfig* c, CUlaunchAttribute* a, unsigned grid, unsigned block,
                                   unsigned cluster, uintptr_t stream) {
	memset(c, 0, sizeof *c);
	memset(a, 0, sizeof *a);
	a->id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
	a->value.clusterDim.x = cluster;
	a->value.clusterDim.y = 1;
	a->value.clusterDim.z = 1;
	c->gridDimX = grid, c->gridDimY = 1, c->gridDimZ = 1;
	c->blockDimX = block, c->blockDimY = 1, c->blockDimZ = 1;
	c->hStream = (CUstream)stream;
	c->attrs = a;
	c->numAttrs = 1;
}

static CUresult gearbox_max_clusters(uintptr_t f, unsigned block, unsigned cluster, int* n) {
	CUlaunchConfig c;
	CUlaunchAttribute a;
	gearbox_cluster_config(&c, &a, cluster, block, cluster, 0);
	if (cluster > 8) {
		CUresult r = cuFuncSetAttribute((CUfunction)f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
		if (r != CUDA_SUCCESS) return r;
	}
	return cuOccupancyMaxActiveClusters(n, (CUfunction)f, &c);
}

// args holds one 8-byte slot per parameter, as cu.LaunchKernel passes them.
static CUresult gearbox_launch_cluster(uintptr_t f, unsigned grid, unsigned block, unsigned cluster, uintptr_t stream,
                                       uint64_t* args, int nargs) {
	void* params[32];
	if (nargs > 32) return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < nargs; i++) params[i] = &args[i];
	CUlaunchConfig c;
	CUlaunchAttribute a;
	gearbox_cluster_config(&c, &a, grid, block, cluster, stream);
	return cuLaunchKernelEx(&c, (CUfunction)f, params, NULL);
}
*/
import "C"

import (
	"unsafe"

	"github.com/mumax/3/cuda/cu"

	"github.com/gearbox-graph/gearbox/kernels"
)

// persistCluster is how a kernel of kernels.PersistClustered is launched:
// in clusters of size blocks, grid blocks in all (a multiple of size that
// the device keeps resident at once).
type persistCluster struct {
	size, grid int
}

// setupClusters decides, for each kernel of kernels.PersistClustered,
// whether it is launched in clusters of the configured size: on a device
// of compute capability 9.0 or later, where the driver's occupancy query
// keeps at least three quarters of the ordinary persistent grid resident
// in such clusters (every block of a persistent launch must be resident;
// a grid-wide level loses the multiprocessors left out). The grid is then
// the resident clusters' blocks, at most the ordinary grid.
func (d *Dev) setupClusters() error {
	size := d.c.cfg.clusterBlocks
	d.clusters = map[string]persistCluster{}
	if size < 2 || d.c.major < 9 {
		return nil
	}
	for _, name := range kernels.PersistClustered {
		f := d.funcs[name]
		plain := d.c.sms * max(d.persistBlocks[name], 1)
		var n C.int
		if r := C.gearbox_max_clusters(C.uintptr_t(f), C.uint(kernels.PersistThreads), C.uint(size), &n); r != C.CUDA_SUCCESS {
			d.c.cfg.logger.Warn().Str("kernel", name).Int("cluster", size).Int("result", int(r)).
				Msg("cluster occupancy query failed; launching without clusters")
			continue
		}
		grid := min(int(n)*size, plain/size*size)
		if 4*grid < 3*plain {
			d.c.cfg.logger.Info().Str("kernel", name).Int("cluster", size).Int("resident_clusters", int(n)).
				Int("grid", plain).Msg("too few clusters resident; launching without clusters")
			continue
		}
		d.clusters[name] = persistCluster{size: size, grid: grid}
		d.c.cfg.logger.Debug().Str("kernel", name).Int("cluster", size).Int("grid", grid).Int("plain_grid", plain).
			Msg("persistent launches in clusters")
	}
	return nil
}

// launchCluster launches f in clusters (d.params' slots already filled
// in d.args).
func (d *Dev) launchCluster(f cu.Function, cl persistCluster, block int) error {
	var p *C.uint64_t
	if len(d.args) > 0 {
		p = (*C.uint64_t)(unsafe.Pointer(&d.args[0]))
	}
	if r := C.gearbox_launch_cluster(C.uintptr_t(f), C.uint(cl.grid), C.uint(block), C.uint(cl.size), 0, p,
		C.int(len(d.args))); r != C.CUDA_SUCCESS {
		return d.cudaError("launch", cu.Result(r))
	}
	return nil
}

// ClusterBlocks returns the cluster size kernel's persistent launches use
// (1: no clusters) and their grid.
func (c *CUDA) ClusterBlocks(kernel string) (size, grid int) {
	_ = c.Do(func(d *Dev) error {
		if cl, ok := d.clusters[kernel]; ok {
			size, grid = cl.size, cl.grid
		} else {
			size, grid = 1, d.PersistGrid(kernel)
		}
		return nil
	})
	return size, grid
}
