package main

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"sort"

	"github.com/gearbox-graph/gearbox/graph"
)

// simulate the GPU ordered op: relax frontier, updated set pending, select dist < min+delta
func run(g *graph.Graph, src uint32, delta0 uint64, adapt bool, lo, hi int64, dmax uint64) (int, int64, int64) {
	n := g.NumVertices()
	off, adj, w := g.Offsets(), g.Adj(), g.Weights()
	dist := make([]uint64, n)
	for i := range dist {
		dist[i] = math.MaxUint64
	}
	dist[src] = 0
	pend := make([]bool, n)
	front := []uint32{src}
	delta := delta0
	iters := 0
	var edges, small int64
	upd := []uint32{}
	for len(front) > 0 {
		iters++
		var e int64
		for _, v := range front {
			for k := off[v]; k < off[v+1]; k++ {
				u := adj[k]
				nd := dist[v] + uint64(w[k])
				e++
				if nd < dist[u] {
					dist[u] = nd
					if !pend[u] {
						pend[u] = true
						upd = append(upd, u)
					}
				}
			}
		}
		edges += e
		if e < 1<<16 {
			small++
		}
		// select
		mn := uint64(math.MaxUint64)
		for _, u := range upd {
			mn = min(mn, dist[u])
		}
		if adapt && dmax == 1 {
			// binned: unit=delta0, 64 bins from aligned lo
			var hist [64]int64
			lo0 := mn - mn%delta0
			for _, u := range upd {
				k := (dist[u] - lo0) / delta0
				if k > 63 {
					k = 63
				}
				hist[k] += off[u+1] - off[u]
			}
			var c int64
			b := uint64(math.MaxUint64)
			for k := 0; k < 63; k++ {
				c += hist[k]
				if c >= lo {
					b = lo0 + delta0*uint64(k+1)
					break
				}
			}
			if b == math.MaxUint64 && c+hist[63] >= lo {
				b = lo0 + delta0*63
			}
			delta = b - mn
			if b == math.MaxUint64 {
				delta = math.MaxUint64 - mn
			}
		}
		if adapt && dmax == 0 {
			// targeted: find smallest bound b >= mn+delta0 such that degree of pending with dist < b >= lo
			ds := make([][2]int64, 0, len(upd))
			for _, u := range upd {
				ds = append(ds, [2]int64{int64(dist[u]), off[u+1] - off[u]})
			}
			sort.Slice(ds, func(i, j int) bool { return ds[i][0] < ds[j][0] })
			var c int64
			b := mn + delta0
			for _, x := range ds {
				if uint64(x[0]) >= b && c >= lo {
					break
				}
				c += x[1]
				if uint64(x[0])+1 > b {
					b = uint64(x[0]) + 1
				}
			}
			delta = b - mn
		}
		front = front[:0]
		rest := upd[:0]
		var deg int64
		for _, u := range upd {
			if dist[u] < mn+delta {
				front = append(front, u)
				pend[u] = false
				deg += off[u+1] - off[u]
			} else {
				rest = append(rest, u)
			}
		}
		upd = rest
		if adapt && dmax == 0 {
			// next bound chosen exactly on the next iteration
		} else if adapt {
			if deg < lo && delta < dmax {
				delta *= 2
			} else if deg > hi && delta > 1 {
				delta /= 2
			}
		}
	}
	return iters, edges, small
}

func main() {
	g, err := graph.Generate(os.Args[1], graph.GenOptions{})
	if err != nil {
		panic(err)
	}
	g = g.WithDerivedWeights(1)
	src := uint32(12345 % g.NumVertices())
	for src < uint32(g.NumVertices()) && g.Offsets()[src+1] == g.Offsets()[src] {
		src++
	}
	m := float64(g.NumEdges())
	for _, d := range []uint64{16, 32, 64} {
		it, e, s := run(g, src, d, false, 0, 0, 0)
		fmt.Printf("static d=%d iters=%d work=%.2f small=%d\n", d, it, float64(e)/m, s)
	}
	for _, a := range os.Args[2:] {
		t, _ := strconv.ParseInt(a, 10, 64)
		for _, d := range []uint64{} {
			it, e, s := run(g, src, d, true, t/2, t*2, 1<<20)
			fmt.Printf("adapt d0=%d target=%d iters=%d work=%.2f small=%d\n", d, t, it, float64(e)/m, s)
		}
		for _, d := range []uint64{8, 16, 32} {
			it, e, s := run(g, src, d, true, t, 0, 1)
			fmt.Printf("binned u=%d target=%d iters=%d work=%.2f small=%d\n", d, t, it, float64(e)/m, s)
		}
		for _, d := range []uint64{} {
			it, e, s := run(g, src, d, true, t, 0, 0)
			fmt.Printf("target d0=%d target=%d iters=%d work=%.2f small=%d\n", d, t, it, float64(e)/m, s)
		}
	}
}
