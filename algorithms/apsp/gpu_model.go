package apsp

import (
	"fmt"

	"github.com/gearbox-graph/gearbox/graph"
)

// MaxDistance16 bounds every finite distance of the GPU's 16-bit matrix:
// when (n-1) times the largest weight stays at or below it, the matrix
// holds two distances a word (half the memory and half the add-min
// instructions), with inf16 as "no path".
const MaxDistance16 = inf16 - 1

// inf16 is the 16-bit matrix's "no path": twice it still fits a signed
// 16-bit lane (the DPX s16x2 add-min).
const inf16 = 0x3FFF

// gpuTile is the GPU kernels' tile side (kernels.APSPTile).
const gpuTile = 64

// The GPU model's constants. An FW round on the GPU is one launch; its
// bulk is p^2 x 64 add-mins over the grid, its fixed part the launch gap
// plus the 64 barrier-separated steps that the blocks of row and column r
// add (the diagonal tile's closure).
const (
	// gpuAddMinsPerSec: add-min instructions a second (one 32-bit lane
	// or two 16-bit lanes each). An H100 SXM issues 132 SMs x 64 lanes x
	// ~1.75 GHz = 14.8e12; the model assumes 2/3 of it.
	gpuAddMinsPerSec = 1.0e13
	// gpuRoundSec: the fixed cost of a round.
	gpuRoundSec = 20e-6
)

// gpuBits returns the width of a distance in the GPU's matrix for g: 16
// when no shortest path can exceed MaxDistance16. The bound is (n-1) times
// the largest weight, or on an undirected graph twice the eccentricity of
// one vertex per component (d(u,w) <= d(u,s) + d(s,w)), one search per
// component. Entries above the bound during the run are harmless: an
// add-min never stores more than the "no path" it started from, so a lane
// sum never overflows and the final distances are exact.
func gpuBits(g *graph.Graph) int {
	n := int64(g.NumVertices())
	w := int64(1)
	if g.WeightKind() == graph.IntWeights {
		w = max(int64(g.MaxWeight()), 1)
	}
	if n <= 1 || (n-1) <= MaxDistance16/w {
		return 16
	}
	if !g.Directed() && componentBound(g) <= MaxDistance16 {
		return 16
	}
	return 32
}

// componentBound returns twice the largest distance from the first vertex
// of each component of an undirected graph: a bound on every shortest
// path. Each search touches only its component, so one distance array
// serves them all.
func componentBound(g *graph.Graph) int64 {
	n := g.NumVertices()
	weighted := g.WeightKind() == graph.IntWeights
	hop := make([]uint32, n) // BFS marks: a component's vertices end up in s.q
	dist := hop
	if weighted {
		dist = make([]uint32, n)
	}
	for i := range hop {
		hop[i], dist[i] = Unreachable, Unreachable
	}
	s := newSearcher(g)
	var bound int64
	for src := range hop {
		if hop[src] != Unreachable {
			continue
		}
		hop[src] = 0
		s.bfs(uint32(src), hop)
		if weighted {
			dist[src] = 0
			s.dijkstra(uint32(src), dist)
		}
		var ecc uint32
		for _, v := range s.q {
			ecc = max(ecc, dist[v])
		}
		bound = max(bound, 2*int64(ecc))
	}
	return bound
}

// GPUMatrixBytes is the device memory of the GPU's matrix for n vertices
// at a distance width of bits (16 or 32).
func GPUMatrixBytes(n, bits int) int64 {
	p := int64(padded(n, gpuTile))
	return p * p * int64(bits) / 8
}

// gpuFWSeconds is the model's time of FW on the GPU.
func gpuFWSeconds(n, bits int) float64 {
	p := float64(padded(n, gpuTile))
	lanes := float64(32 / bits)
	return p*p*p/lanes/gpuAddMinsPerSec + (p/gpuTile+1)*gpuRoundSec
}

// chooseGPU picks the method with a GPU backend: FW on the GPU, or the
// CPU's searches (the Sources method always runs on the CPU), by the
// model, unless the matrix exceeds bound (the device memory, or the
// caller's limit).
func chooseGPU(g *graph.Graph, m Method, bits int, bound int64, workers int) (Method, string, error) {
	n := g.NumVertices()
	bytes := GPUMatrixBytes(n, bits)
	if m == FW {
		if bytes > bound {
			return "", "", fmt.Errorf("apsp: %w: the GPU's matrix for %d vertices (%d-bit distances) takes %d bytes, above the %d available (use the sources method, which streams rows)", ErrTooLarge, n, bits, bytes, bound)
		}
		return FW, "forced", nil
	}
	if m == Sources {
		return Sources, "forced (on the CPU)", nil
	}
	if bytes > bound {
		return Sources, fmt.Sprintf("the GPU's matrix (%d bytes) exceeds the %d available: searches on the CPU", bytes, bound), nil
	}
	fw := gpuFWSeconds(n, bits)
	_, src := costs(g)
	src /= float64(max(workers, 1))
	if fw <= src {
		return FW, fmt.Sprintf("FW on the GPU (est. %.3g s, %d-bit distances) is cheaper than n searches on %d CPU workers (est. %.3g s)", fw, bits, workers, src), nil
	}
	return Sources, fmt.Sprintf("n searches on %d CPU workers (est. %.3g s) are cheaper than FW on the GPU (est. %.3g s)", workers, src, fw), nil
}

// unpackRow turns a device row (words) into distances, Unreachable for
// "no path".
func unpackRow(words, row []uint32, bits int) {
	if bits == 32 {
		for j := range row {
			x := words[j]
			if x >= inf {
				x = Unreachable
			}
			row[j] = x
		}
		return
	}
	for j := range row {
		x := words[j>>1] >> (16 * (j & 1)) & 0xFFFF
		if x >= inf16 {
			x = Unreachable
		}
		row[j] = x
	}
}
