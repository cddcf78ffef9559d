// Package gpu is gearbox's CUDA driver layer: one CUDA context on one
// device (New, with Options; a device is a value, so a process may open
// several), the loaded kernels (*Dev is the kernels.Launcher the typed
// kernels.LaunchXxx functions launch through), device memory with a reuse
// pool (AllocSlice, DeviceSlice), page-locked host memory (Dev.AllocHost),
// a cache of graphs uploaded to the device (Dev.AcquireGraph), result
// copies to the host (ReadStaged, ReadValues) and launch geometry
// (Dev.Grid, BlockGrid, PersistGrid). *CUDA satisfies runtime.Backend: its
// Configure decodes the backend's own key of a thresholds section
// (Knobs: threads_per_block) from the run's knobs, and DeviceThresholds
// derives the decider's defaults from the device (T1 = warp size, T2 =
// 256 threads per block x multiprocessors).
//
// A CUDA context is current per OS thread, so device work runs through
// CUDA.Do on a locked thread, one call at a time; the driver binding
// panics with cu.Result and Do turns those into typed errors (Error,
// MemoryError and the sentinels ErrNoDriver, ErrNoDevice, ErrKernels,
// ErrOutOfMemory, ErrInsufficientMemory, ErrClosed).
//
// The code behind the cuda build tag needs the CUDA driver; without the
// tag New returns ErrNoCUDA and the shared declarations (errors, options)
// still compile.
//
// It may import graph, decider, kernels and internal packages; it does not
// import runtime (CUDA satisfies runtime.Backend by its methods). workset,
// the algorithms' GPU kits and operators import it.
package gpu
