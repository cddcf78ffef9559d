// Package kernels holds gearbox's CUDA C sources (one .cu file per kernel
// family: bfs.cu, sssp.cu, workset.cu, cc.cu, narrow.cu, with shared
// conventions in common.cuh), the fatbin nvcc builds from them
// (gearbox.fatbin: sm_80 and sm_90 machine code plus compute_80 PTX),
// embedded with go:embed under the cuda build tag, the manifest of
// SHA-256 hashes that keeps fatbin and sources in step (a plain test fails
// when a source changed without regenerating), and the kernel names the
// cuda backend launches.
//
// Building with the GPU backend needs no nvcc, only a CUDA toolkit's header
// and link stub, with the compatibility header first on the include path:
//
//	export CUDA_HOME=/usr/local/cuda
//	export CGO_CFLAGS="-I$PWD/kernels/cudacompat -I$CUDA_HOME/include"
//	export CGO_LDFLAGS="-L$CUDA_HOME/lib64/stubs"
//	go build -tags cuda ./cmd/gearbox
//
// `go generate ./kernels` rebuilds the fatbin with nvcc; GEARBOX_KERNELS
// names a fatbin to load instead of the embedded one. README.md in this
// directory has the details and measurements.
//
// It may import only the standard library.
package kernels
