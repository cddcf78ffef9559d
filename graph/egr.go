package graph

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// writeEGR writes g in the ECL suite's binary CSR (ECLgraph.h: int32 nodes,
// int32 edges, nodes+1 int32 offsets, edges int32 neighbours, then edges
// int32 weights when the graph has weights), little-endian, so ECL-CC and
// ECL-MST read the very graph gearbox ran. Every size and weight must fit a
// signed 32-bit int; real weights have no ECL form.
func writeEGR(w io.Writer, g *Graph) error {
	n, m := int64(g.NumVertices()), g.NumEdges()
	if n < 1 {
		return fmt.Errorf("%w: format egr needs at least 1 vertex (ECLgraph refuses 0)", ErrFormat)
	}
	if n > math.MaxInt32 || m > math.MaxInt32 {
		return fmt.Errorf("%w: format egr holds at most %d vertices and arcs; the graph has %d vertices and %d arcs", ErrFormat, math.MaxInt32, n, m)
	}
	if g.wkind == RealWeights {
		return fmt.Errorf("%w: format egr needs integer weights, the graph has real weights (scale them with LoadOptions.WeightScale, gearbox's --weight-scale)", ErrFormat)
	}
	if g.wkind == IntWeights {
		for i, wt := range g.weights {
			if wt > math.MaxInt32 {
				return fmt.Errorf("%w: format egr holds weights up to %d; arc %d has weight %d", ErrFormat, math.MaxInt32, i, wt)
			}
		}
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var buf [4]byte
	put := func(x uint32) error {
		binary.LittleEndian.PutUint32(buf[:], x)
		_, err := bw.Write(buf[:])
		return err
	}
	if err := put(uint32(n)); err != nil {
		return err
	}
	if err := put(uint32(m)); err != nil {
		return err
	}
	for _, o := range g.offsets {
		if err := put(uint32(o)); err != nil {
			return err
		}
	}
	for _, v := range g.adj {
		if err := put(v); err != nil {
			return err
		}
	}
	if g.wkind == IntWeights {
		for _, wt := range g.weights {
			if err := put(wt); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}
