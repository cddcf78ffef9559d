// Package kernels holds gearbox's CUDA C sources (one .cu file per kernel
// family), the fatbin generated from them by nvcc and embedded with go:embed,
// the manifest of source hashes that keeps the two in step, and the Go launch
// wrappers used by the cuda backend.
//
// It may import only the standard library (and, under the cuda build tag,
// the CUDA driver binding).
package kernels
