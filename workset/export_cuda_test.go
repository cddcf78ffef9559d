//go:build cuda

package workset

// CUDACtrlForTest lets the external GPU tests check and read the control
// block's Go mirror itself rather than a copy of it.
type CUDACtrlForTest = cudaCtrl
