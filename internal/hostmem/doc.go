// Package hostmem holds per-vertex results on the host and reuses their
// memory: Values (a result at 8, 16, 32 or 64 bits per vertex), Slice (a
// result slice prepared in the background, its pages touched) and Recycle
// (a released result's memory kept for the next run of the same size).
// Both backends' operators use it: the CPU fills a Slice, the GPU copies
// into one (gpu.ReadValues), registering reused memory for direct copies
// (TakeReused).
//
// It imports only internal/par; runtime, gpu and the algorithms import it.
package hostmem
