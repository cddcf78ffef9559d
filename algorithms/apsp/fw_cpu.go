package apsp

import (
	"context"
	"fmt"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// runFW is blocked Floyd-Warshall on a p x p matrix (n padded to a whole
// number of b x b tiles; the padding vertices are isolated). Round k:
// phase 1 closes the diagonal tile (k,k); phase 2 the tiles of row k and
// column k through it; phase 3 every other tile (i,j) by the min-plus
// product of (i,k) and (k,j), which round k no longer changes, so those
// tiles run in parallel.
func runFW(ctx context.Context, g *graph.Graph, cpu *runtime.CPU, b int, rows RowFunc) error {
	n := g.NumVertices()
	p := padded(n, b)
	d := initMatrix(g, p)
	pool := cpu.NewPool()
	defer pool.Release()
	nb := p / b
	for k := 0; k < nb; k++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("apsp: cancelled after %d of %d rounds: %w", k, nb, err)
		}
		kb := k * b
		closeTile(d, p, b, kb, kb, kb) // phase 1
		// Phase 2: tile t < nb-1 of row k, then of column k, skipping (k,k).
		pool.Thread(2*(nb-1), 1, func(_, lo, hi int) {
			for t := lo; t < hi; t++ {
				o := t % (nb - 1)
				if o >= k {
					o++
				}
				if t < nb-1 {
					closeTile(d, p, b, kb, o*b, kb) // (k, o)
				} else {
					closeTile(d, p, b, o*b, kb, kb) // (o, k)
				}
			}
		})
		// Phase 3: the (nb-1)^2 other tiles.
		pool.Thread((nb-1)*(nb-1), 1, func(_, lo, hi int) {
			for t := lo; t < hi; t++ {
				i, j := t/(nb-1), t%(nb-1)
				if i >= k {
					i++
				}
				if j >= k {
					j++
				}
				minPlus(d, p, b, i*b, j*b, kb)
			}
		})
	}
	row := make([]uint32, n)
	for i := 0; i < n; i++ {
		for j, x := range d[i*p : i*p+n] {
			if x >= inf {
				x = Unreachable
			}
			row[j] = x
		}
		if err := rows(uint32(i), row); err != nil {
			return err
		}
	}
	return nil
}

// initMatrix returns the p x p matrix of arc weights (1 for unweighted
// graphs; the least of parallel arcs), 0 on the diagonal, inf elsewhere.
func initMatrix(g *graph.Graph, p int) []uint32 {
	d := make([]uint32, p*p)
	for i := range d {
		d[i] = inf
	}
	for i := 0; i < p; i++ {
		d[i*p+i] = 0
	}
	weighted := g.WeightKind() == graph.IntWeights
	for u := 0; u < g.NumVertices(); u++ {
		var ws []uint32
		if weighted {
			ws = g.EdgeWeights(uint32(u))
		}
		for e, v := range g.Neighbors(uint32(u)) {
			w := uint32(1)
			if weighted {
				w = ws[e]
			}
			if w < d[u*p+int(v)] {
				d[u*p+int(v)] = w
			}
		}
	}
	return d
}

// closeTile runs Floyd-Warshall's k loop over the b pivots kb..kb+b-1 on
// tile (ib, jb) in place: the pivots' row or column lies in the tile
// itself (phases 1 and 2), so the order of k matters.
func closeTile(d []uint32, p, b, ib, jb, kb int) {
	for k := kb; k < kb+b; k++ {
		rk := d[k*p+jb : k*p+jb+b]
		for i := ib; i < ib+b; i++ {
			a := d[i*p+k]
			if a >= inf {
				continue
			}
			ri := d[i*p+jb : i*p+jb+b]
			for j, x := range rk {
				if s := a + x; s < ri[j] {
					ri[j] = s
				}
			}
		}
	}
}

// minPlus sets tile (ib, jb) to its minimum with the min-plus product of
// tiles (ib, kb) and (kb, jb); a+b never wraps since both are at most inf.
func minPlus(d []uint32, p, b, ib, jb, kb int) {
	for i := ib; i < ib+b; i++ {
		ri := d[i*p+jb : i*p+jb+b]
		ai := d[i*p+kb : i*p+kb+b]
		for kk, a := range ai {
			if a >= inf {
				continue
			}
			rk := d[(kb+kk)*p+jb : (kb+kk)*p+jb+b]
			for j, x := range rk {
				if s := a + x; s < ri[j] {
					ri[j] = s
				}
			}
		}
	}
}
