package apsp

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// A serial Go model of kernels/apsp.cu: the same matrix layout (padded,
// 32-bit or packed 16-bit words), the same init, block-to-tile mapping,
// fused phases, A/B layouts, signed add-min and closure, with the blocks of
// a launch run one after another (one of the interleavings the kernel
// allows). It checks the schedule and the packing without a GPU; the cuda
// tests check the kernels themselves.

type emu struct {
	d      []uint32
	nb, pw int
	lanes  int // distances a word
}

func addminEmu(lanes int, a, b, c uint32) uint32 {
	if lanes == 1 {
		return uint32(min(int32(a)+int32(b), int32(c)))
	}
	var out uint32
	for h := 0; h < 32; h += 16 {
		x := int16(uint16(a>>h)) + int16(uint16(b>>h))
		y := int16(uint16(c >> h))
		out |= uint32(uint16(min(x, y))) << h
	}
	return out
}

func dupEmu(w uint32, hi bool) uint32 {
	x := w & 0xFFFF
	if hi {
		x = w >> 16
	}
	return x | x<<16
}

func newEmu(g *graph.Graph, bits int) *emu {
	n := g.NumVertices()
	p := padded(n, gpuTile)
	e := &emu{nb: p / gpuTile, lanes: 32 / bits}
	e.pw = p / e.lanes
	e.d = make([]uint32, p*e.pw)
	fill := uint32(inf)
	if e.lanes == 2 {
		fill = inf16<<16 | inf16
	}
	for i := range e.d {
		e.d[i] = fill
	}
	// apsp_init
	for u := 0; u < p; u++ {
		row := e.d[u*e.pw : (u+1)*e.pw]
		if e.lanes == 2 {
			if u&1 == 1 {
				row[u>>1] &= 0x0000FFFF
			} else {
				row[u>>1] &= 0xFFFF0000
			}
		} else {
			row[u] = 0
		}
		if u >= n {
			continue
		}
		var ws []uint32
		if g.WeightKind() == graph.IntWeights {
			ws = g.EdgeWeights(uint32(u))
		}
		for k, v := range g.Neighbors(uint32(u)) {
			wt := uint32(1)
			if ws != nil {
				wt = ws[k]
			}
			if e.lanes == 2 {
				sh := (v & 1) * 16
				old := row[v>>1]
				if wt < (old>>sh)&0xFFFF {
					row[v>>1] = old&^(0xFFFF<<sh) | wt<<sh
				}
			} else if wt < row[v] {
				row[v] = wt
			}
		}
	}
	return e
}

// tile returns the words of tile (I, J), row by row.
func (e *emu) get(I, J int) [][]uint32 {
	w := gpuTile / e.lanes
	t := make([][]uint32, gpuTile)
	for i := range t {
		o := (I*gpuTile+i)*e.pw + J*w
		t[i] = slices.Clone(e.d[o : o+w])
	}
	return t
}

func (e *emu) put(I, J int, t [][]uint32) {
	w := gpuTile / e.lanes
	for i := range t {
		copy(e.d[(I*gpuTile+i)*e.pw+J*w:], t[i])
	}
}

// aLayout: row i, column k, one word a distance (duplicated when packed).
func (e *emu) aLayout(t [][]uint32) [][]uint32 {
	if e.lanes == 1 {
		return t
	}
	a := make([][]uint32, gpuTile)
	for i := range a {
		a[i] = make([]uint32, gpuTile)
		for k := range a[i] {
			a[i][k] = dupEmu(t[i][k>>1], k&1 == 1)
		}
	}
	return a
}

func (e *emu) mp(c, a, b [][]uint32) {
	b = slicesClone2(b) // the kernel's B is a snapshot in shared memory
	for i := range c {
		for k := 0; k < gpuTile; k++ {
			for w := range c[i] {
				c[i][w] = addminEmu(e.lanes, a[i][k], b[k][w], c[i][w])
			}
		}
	}
}

func slicesClone2(t [][]uint32) [][]uint32 {
	out := make([][]uint32, len(t))
	for i := range t {
		out[i] = slices.Clone(t[i])
	}
	return out
}

func (e *emu) close(c [][]uint32) {
	for k := 0; k < gpuTile; k++ {
		for i := range c {
			var a uint32
			if e.lanes == 2 {
				a = dupEmu(c[i][k>>1], k&1 == 1)
			} else {
				a = c[i][k]
			}
			for w := range c[i] {
				c[i][w] = addminEmu(e.lanes, a, c[k][w], c[i][w])
			}
		}
	}
}

// round is apsp_round for every block of launch r.
func (e *emu) round(r int) {
	nb := e.nb
	grid := nb * nb
	if r == 0 {
		grid = 2*nb - 1
	}
	for b := 0; b < grid; b++ {
		var i, j int
		switch {
		case r == nb:
			i, j = b/nb, b%nb
		case b == 0:
			i, j = r, r
		case b < nb:
			i, j = r, (r+b)%nb
		case b < 2*nb-1:
			i, j = (r+b-nb+1)%nb, r
		default:
			t := b - (2*nb - 1)
			i, j = t/(nb-1), t%(nb-1)
			if i >= r {
				i++
			}
			if j >= r {
				j++
			}
		}
		p3 := r > 0 && i != r-1 && j != r-1
		p12 := r < nb && (i == r || j == r)
		if !p3 && !p12 {
			continue
		}
		c := e.get(i, j)
		if p3 {
			e.mp(c, e.aLayout(e.get(i, r-1)), e.get(r-1, j))
		}
		if p12 {
			diag := i == r && j == r
			var dg [][]uint32
			if diag {
				dg = slicesClone2(c)
			} else {
				dg = e.get(r, r)
				if r > 0 {
					e.mp(dg, e.aLayout(e.get(r, r-1)), e.get(r-1, r))
				}
			}
			e.close(dg)
			switch {
			case diag:
				c = dg
			case i == r:
				e.mp(c, e.aLayout(dg), c)
			default:
				e.mp(c, e.aLayout(c), dg)
			}
		}
		e.put(i, j, c)
	}
}

func (e *emu) run() {
	for r := 0; r <= e.nb; r++ {
		e.round(r)
	}
}

func (e *emu) row(i, n int) []uint32 {
	out := make([]uint32, n)
	unpackRow(e.d[i*e.pw:(i+1)*e.pw], out, 32/e.lanes)
	return out
}

// TestKernelModel runs the Go model of the GPU kernels at both widths on
// small graphs (one to five tiles a side, so every case of the tile
// mapping occurs) against the textbook triple loop.
func TestKernelModel(t *testing.T) {
	var gs []*graph.Graph
	names := []string{}
	for _, c := range testgraphs.Cases() {
		n := c.G.NumVertices()
		if n == 0 || n > 320 || c.Name == "huge-weights" {
			continue
		}
		gs = append(gs, c.G, c.Weighted())
		names = append(names, c.Name, c.Name+"/weighted")
	}
	// Several tiles a side: every branch of the block-to-tile mapping, and
	// directed graphs with unreachable pairs and heavy weights (32 bits).
	for _, c := range []testgraphs.Case{
		{Name: "grid9x30", G: testgraphs.Grid(9, 30)},
		{Name: "random65", G: testgraphs.Random(65, 200, false, 3)},
		{Name: "random300dir", G: testgraphs.Random(300, 900, false, 4)},
		{Name: "random200undir", G: testgraphs.Random(200, 300, true, 5)},
	} {
		gs = append(gs, c.G, c.Weighted())
		names = append(names, c.Name, c.Name+"/weighted")
	}
	gs = append(gs, testgraphs.Grid(1, 1))
	names = append(names, "grid1x1")
	if len(gs) < 8 {
		t.Fatalf("only %d graphs", len(gs))
	}
	for gi, g := range gs {
		want := Reference(g)
		for _, bits := range []int{16, 32} {
			if bits == 16 && gpuBits(g) != 16 {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", names[gi], bits), func(t *testing.T) {
				e := newEmu(g, bits)
				e.run()
				for i := range want {
					if got := e.row(i, g.NumVertices()); !slices.Equal(got, want[i]) {
						t.Fatalf("row %d = %v, want %v", i, got, want[i])
					}
				}
			})
		}
	}
}

func TestUnpackRow(t *testing.T) {
	row := make([]uint32, 3)
	unpackRow([]uint32{5, inf, 0}, row, 32)
	if !slices.Equal(row, []uint32{5, Unreachable, 0}) {
		t.Fatalf("32-bit: %v", row)
	}
	unpackRow([]uint32{inf16<<16 | 7, 0x0002_0003}, row, 16)
	if !slices.Equal(row, []uint32{7, Unreachable, 3}) {
		t.Fatalf("16-bit: %v", row)
	}
	if b := GPUMatrixBytes(3353, 32); b != 3392*3392*4 {
		t.Fatalf("rome99's matrix: %d bytes", b)
	}
	if b := GPUMatrixBytes(16384, 16); b != 16384*16384*2 {
		t.Fatalf("the grid's matrix: %d bytes", b)
	}
}
