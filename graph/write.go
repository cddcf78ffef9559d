package graph

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// Text writers format blocks of vertices in parallel into byte buffers and
// write them in order.

// writeText writes g as el, wel, mtx, gr, max or snap.
func writeText(w io.Writer, g *Graph, f Format) error {
	n := g.NumVertices()
	var header []byte
	var line func(b []byte, u uint32, v uint32, wt uint32) []byte
	keep := func(u, v uint32) bool { return true }
	switch f {
	case FormatEL:
		line = func(b []byte, u, v, _ uint32) []byte {
			return appendArc(b, uint64(u), uint64(v), ' ', Unweighted, 0, false)
		}
	case FormatWEL, FormatGR, FormatMAX:
		if g.wkind != IntWeights {
			return fmt.Errorf("%w: format %s needs integer weights, the graph has %v weights (use mtx, snap or bin, or derive weights)", ErrFormat, f, g.wkind)
		}
		base := uint64(0)
		prefix := ""
		if f == FormatGR {
			base, prefix = 1, "a "
			header = fmt.Appendf(nil, "c written by gearbox\np sp %d %d\n", n, len(g.adj))
		}
		if f == FormatMAX {
			s, t, ok := g.Terminals()
			if !ok {
				return fmt.Errorf("%w: format max needs a source and a sink (a .max input or a flow generator: rmf, rlg, vision)", ErrFormat)
			}
			base, prefix = 1, "a "
			header = fmt.Appendf(nil, "c written by gearbox\np max %d %d\nn %d s\nn %d t\n", n, len(g.adj), s+1, t+1)
		}
		line = func(b []byte, u, v, wt uint32) []byte {
			return appendArc(append(b, prefix...), uint64(u)+base, uint64(v)+base, ' ', IntWeights, wt, false)
		}
	case FormatMTX:
		field := "pattern"
		switch g.wkind {
		case IntWeights:
			field = "integer"
		case RealWeights:
			field = "real"
		}
		sym := "general"
		nnz := int64(len(g.adj))
		if !g.directed {
			sym = "symmetric"
			keep = func(u, v uint32) bool { return u >= v } // lower triangle
			nnz = countArcs(g, keep)
		}
		header = fmt.Appendf(nil, "%%%%MatrixMarket matrix coordinate %s %s\n%% written by gearbox\n%d %d %d\n", field, sym, n, n, nnz)
		line = func(b []byte, u, v, wt uint32) []byte {
			return appendArc(b, uint64(u)+1, uint64(v)+1, ' ', g.wkind, wt, false)
		}
	case FormatSNAP:
		kind := "Directed"
		if !g.directed {
			kind = "Undirected"
		}
		header = fmt.Appendf(nil, "# %s graph written by gearbox (original vertex ids)\n# Nodes: %d Edges: %d\n# FromNodeId\tToNodeId\n", kind, n, len(g.adj))
		ids := g.ids
		line = func(b []byte, u, v, wt uint32) []byte {
			return appendArc(b, ids.External(u), ids.External(v), '\t', g.wkind, wt, true)
		}
	default:
		return checkWritable(f)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if _, err := bw.Write(header); err != nil {
		return err
	}
	if err := writeBlocks(bw, g, keep, line); err != nil {
		return err
	}
	return bw.Flush()
}

// appendArc appends the line "u sep v", with sep and the weight wt for a
// graph of weights kind; markReal writes an integral real weight with
// ".0", for formats that tell a real weight only by its spelling.
func appendArc(b []byte, u, v uint64, sep byte, kind WeightKind, wt uint32, markReal bool) []byte {
	b = strconv.AppendUint(b, u, 10)
	b = append(b, sep)
	b = strconv.AppendUint(b, v, 10)
	switch kind {
	case IntWeights:
		b = strconv.AppendUint(append(b, sep), uint64(wt), 10)
	case RealWeights:
		b = append(b, sep)
		k := len(b)
		b = strconv.AppendFloat(b, float64(math.Float32frombits(wt)), 'g', -1, 32)
		if markReal && allDigits(b[k:]) {
			b = append(b, ".0"...)
		}
	}
	return append(b, '\n')
}

// countArcs counts the arcs keep accepts.
func countArcs(g *Graph, keep func(u, v uint32) bool) int64 {
	counts := make([]int64, par.Workers())
	par.ForWorkers(g.NumVertices(), func(k, lo, hi int) {
		var c int64
		for u := lo; u < hi; u++ {
			for _, v := range g.Neighbors(uint32(u)) {
				if keep(uint32(u), v) {
					c++
				}
			}
		}
		counts[k] = c
	})
	var total int64
	for _, c := range counts {
		total += c
	}
	return total
}

// writeBlocks formats the arcs in vertex blocks of about blockArcs arcs,
// a round of blocks at a time in parallel, and writes them in order.
func writeBlocks(w io.Writer, g *Graph, keep func(u, v uint32) bool, line func(b []byte, u, v, wt uint32) []byte) error {
	const blockArcs = 1 << 16
	n := g.NumVertices()
	var bounds []int
	for v, last := 0, int64(-blockArcs); v <= n; v++ {
		if v == n || g.offsets[v]-last >= blockArcs {
			bounds = append(bounds, v)
			if v < n {
				last = g.offsets[v]
			}
		}
	}
	if len(bounds) == 0 || bounds[len(bounds)-1] != n {
		bounds = append(bounds, n)
	}
	round := 4 * par.Workers()
	bufs := make([][]byte, round)
	for b0 := 0; b0+1 < len(bounds); b0 += round {
		nb := min(round, len(bounds)-1-b0)
		par.For(nb, 1, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				buf := bufs[i][:0]
				for u := bounds[b0+i]; u < bounds[b0+i+1]; u++ {
					nbrs := g.Neighbors(uint32(u))
					ws := g.EdgeWeights(uint32(u))
					for k, v := range nbrs {
						if !keep(uint32(u), v) {
							continue
						}
						var wt uint32
						if ws != nil {
							wt = ws[k]
						}
						buf = line(buf, uint32(u), v, wt)
					}
				}
				bufs[i] = buf
			}
		})
		for i := 0; i < nb; i++ {
			if _, err := w.Write(bufs[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// Lost returns what writing g in format f leaves out, for a note or a
// refusal: "weights" (el), "max-flow terminals" (every text format; only
// bin keeps them); nil when f keeps everything Write keeps of g.
func Lost(g *Graph, f Format) []string {
	if g == nil {
		return nil
	}
	f = Format(strings.ToLower(string(f)))
	var lost []string
	if g.wkind != Unweighted && f == FormatEL {
		lost = append(lost, fmt.Sprintf("%v weights", g.wkind))
	}
	if _, _, ok := g.Terminals(); ok && f != FormatBin {
		lost = append(lost, "max-flow source and sink")
	}
	return lost
}
