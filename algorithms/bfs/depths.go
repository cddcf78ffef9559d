package bfs

import "github.com/gearbox-graph/gearbox/runtime"

// depths holds a BFS's depths at the width the run produced, all-ones of
// the width marking unreached vertices: a GPU run of fewer than 255 levels
// copies them to the host as bytes (a quarter of the bytes over PCIe and
// in memory: on kron:22 the 16 MB copy was most of the wall time), one of
// fewer than 65535 as 16 bits; the CPU backend keeps 32. Exactly one slice
// is set, except for an empty graph.
type depths struct {
	w8  []uint8
	w16 []uint16
	w32 []uint32
}

func (d depths) len() int { return len(d.w8) + len(d.w16) + len(d.w32) }

// at returns v's depth, unreached for an unreached vertex (v < len()).
func (d depths) at(v uint32) uint32 {
	switch {
	case d.w8 != nil:
		return wide(d.w8[v])
	case d.w16 != nil:
		return wide(d.w16[v])
	}
	return d.w32[v]
}

func wide[T uint8 | uint16 | uint32](x T) uint32 {
	if x == ^T(0) {
		return unreached
	}
	return uint32(x)
}

// each calls f with every reached vertex and its depth in vertex order,
// until f returns false.
func (d depths) each(f func(v uint32, depth uint32) bool) {
	switch {
	case d.w8 != nil:
		eachOf(d.w8, f)
	case d.w16 != nil:
		eachOf(d.w16, f)
	default:
		eachOf(d.w32, f)
	}
}

func eachOf[T uint8 | uint16 | uint32](s []T, f func(v uint32, depth uint32) bool) {
	for v, x := range s {
		if x != ^T(0) && !f(uint32(v), uint32(x)) {
			return
		}
	}
}

// release gives the memory back for reuse (runtime.Recycle).
func (d depths) release() {
	runtime.Recycle(d.w8)
	runtime.Recycle(d.w16)
	runtime.Recycle(d.w32)
}
