// Package kernels holds gearbox's CUDA C sources (one .cu file per kernel
// family: bfs.cu, sssp.cu, workset.cu, cc.cu, narrow.cu, with shared
// conventions in common.cuh), the fatbin nvcc builds from them
// (gearbox.fatbin: sm_80 and sm_90 machine code plus compute_80 PTX),
// embedded with go:embed under the cuda build tag, the manifest of
// SHA-256 hashes that keeps fatbin and sources in step (a plain test fails
// when a source changed without regenerating), and the kernel names the
// cuda backend launches.
//
// wrappers_gen.go, generated from the sources by internal/wrapgen, has one
// typed launch function per kernel (LaunchCCInit) or per family of kernels
// of one macro and one signature (LaunchBFSPush, which takes a
// BFSPushKernel such as BFSPushOf(ordered, block, bitmap) returns). Their
// parameters mirror the C ones: DevPtr[T] for a T* (DevPtr[Ctrl] for the
// generated mirror of struct Ctrl, VoidPtr for a void*), uint32, uint64
// and int64 for u32, u64 and i64, never a Go int; so a launch with a wrong
// argument count, order, width or pointee does not compile. They launch
// through a Launcher, which the cuda backend's device (gpu.Dev)
// implements, so this package needs no driver. Tests
// fail when the wrappers are stale, when a kernel of the fatbin has none,
// and when a wrapper's parameter widths differ from the compiled kernel's.
//
// Building with the GPU backend needs no nvcc, only a CUDA toolkit's header
// and link stub, with the compatibility header first on the include path:
//
//	export CUDA_HOME=/usr/local/cuda
//	export CGO_CFLAGS="-I$PWD/kernels/cudacompat -I$CUDA_HOME/include"
//	export CGO_LDFLAGS="-L$CUDA_HOME/lib64/stubs"
//	go build -tags cuda ./cmd/gearbox
//
// `go generate ./kernels` regenerates the wrappers, then rebuilds the
// fatbin with nvcc (`go run ./kernels/internal/cmd/wrapgen -dir kernels`
// regenerates only the wrappers, without nvcc); GEARBOX_KERNELS
// names a fatbin to load instead of the embedded one. README.md in this
// directory has the details and measurements.
//
// It may import only the standard library.
package kernels
