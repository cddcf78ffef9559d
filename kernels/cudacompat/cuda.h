/* Compatibility shim for github.com/mumax/3/cuda/cu on CUDA 13.
 *
 * CUDA 13's cuda.h maps cuCtxCreate to the 4-argument cuCtxCreate_v4; the
 * binding calls the 3-argument form. Put this directory first on the include
 * path (CGO_CFLAGS="-I<repo>/kernels/cudacompat -I$CUDA_HOME/include") so the
 * binding's #include <cuda.h> lands here, includes the real header and
 * restores the 3-argument entry point, which the driver still exports. On
 * CUDA 12 and older the redefinition is harmless.
 */
#ifndef GEARBOX_CUDACOMPAT_CUDA_H
#define GEARBOX_CUDACOMPAT_CUDA_H
#include_next <cuda.h>
#undef cuCtxCreate
CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
#define cuCtxCreate cuCtxCreate_v2
#endif
