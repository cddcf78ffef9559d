package graph

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/internal/memlimit"
	"github.com/gearbox-graph/gearbox/internal/par"
)

// maxVerticesPerByte bounds the vertex count a text file may declare (or
// imply through its largest id) for its size, so a header promising 10^12
// vertices in a small file is refused instead of allocated.
const (
	maxVerticesPerByte = 64
	freeVertices       = 1 << 20
)

// textLoad gathers what parsing a text file found.
type textLoad struct {
	name      string
	outs      []*chunkOut
	n         uint64 // vertex count (declared or derived)
	ids       IDMap
	symmetric bool
	wmode     int
	wkind     WeightKind
	dataBytes int64     // uncompressed bytes of data lines (not the header, comments or blank lines)
	pending   []float64 // parsed weights, converted by weights

	metisEntries, metisLoops int64 // METIS list entries, and those that are self-loops
}

func readText(in *input, opt LoadOptions) (*Graph, error) {
	r, _, done, err := in.open(opt)
	if err != nil {
		return nil, err
	}
	defer done()
	ck := &chunker{r: r}
	if opt.Format == FormatMETIS {
		ck.maxLine = maxMETISLine
	}
	h := &headerReader{name: in.name, ck: ck}
	if l, ok, err := h.peek(); err != nil {
		return nil, readError(in.name, err)
	} else if !ok {
		return nil, fileErr(in.name, "empty file")
	} else if opt.Format != FormatMTX && len(l) >= 14 && strings.EqualFold(string(l[:14]), "%%MatrixMarket") {
		// Its % lines are comments to SNAP and el: it would load as
		// another graph (ROWS COLS read as an edge) without a word.
		return nil, h.errAt("a MatrixMarket file (the %%%%MatrixMarket banner), read as %s: give --format mtx (or name it .mtx)", opt.Format)
	}
	t := &textLoad{name: in.name}
	var declared uint64 // edge count a header promises
	hasDeclared := false
	var parse func([]byte, *chunkOut)
	ep := &edgeParser{minF: 2, maxF: 2}
	ep.wp.scale = opt.WeightScale
	switch opt.Format {
	case FormatEL, FormatWEL:
		ep.comments = "#%"
		if opt.Format == FormatWEL {
			ep.wmode, ep.minF, ep.maxF, ep.wp.intOnly = wRequired, 3, 3, true
		}
	case FormatSNAP:
		ep.comments = "#%"
		ep.wmode, ep.maxF, ep.relabel = wOptional, 3, true
	case FormatCEdge:
		ep.comments = "#%"
		ep.leadID = true
		ep.wmode, ep.minF, ep.maxF = wRequired, 3, 3
		t.symmetric = true
	case FormatGraphalytics:
		ep.comments = "#"
		ep.wmode, ep.maxF = wOptional, 3
		if in.vpath != "" {
			idx, err := readVertexFile(in.vpath)
			if err != nil {
				return nil, err
			}
			ep.index, ep.vname = idx, filepath.Base(in.vpath)
			t.ids, err = SortedIDs(idx.ids)
			if err != nil {
				return nil, err
			}
			t.n = uint64(len(idx.ids))
		} else {
			ep.relabel = true
		}
	case FormatGR, FormatMAX:
		n, m, err := dimacsHeader(h, opt.Format)
		if err != nil {
			return nil, err
		}
		t.n, declared, hasDeclared = n, m, true
		ep.dimacs, ep.maxflow, ep.comments = true, opt.Format == FormatMAX, "c"
		ep.base, ep.n = 1, n
		ep.wmode, ep.minF, ep.maxF, ep.wp.intOnly = wRequired, 3, 3, true
	case FormatMTX:
		hd, err := mtxHeader(h)
		if err != nil {
			return nil, err
		}
		t.n, declared, hasDeclared, t.symmetric = hd.n, hd.nnz, true, hd.symmetric
		ep.comments = "%"
		ep.base, ep.n = 1, hd.n
		switch hd.field {
		case "integer":
			ep.wmode, ep.minF, ep.maxF, ep.wp.intOnly = wRequired, 3, 3, true
		case "real":
			ep.wmode, ep.minF, ep.maxF = wRequired, 3, 3
			t.wkind = RealWeights
		}
	case FormatMETIS:
		mp, m, err := metisHeader(h)
		if err != nil {
			return nil, err
		}
		t.n, declared, t.symmetric = mp.n, m, true
		mp.wp.scale = opt.WeightScale
		parse = mp.parse
		if mp.eweights {
			t.wmode, t.wkind = wRequired, IntWeights
		}
	default:
		return nil, fmt.Errorf("%w: cannot read format %q", ErrFormat, opt.Format)
	}
	if parse == nil {
		parse = ep.parse
		t.wmode = ep.wmode
		if ep.wp.intOnly {
			t.wkind = IntWeights
		}
	}
	// The header is read; the rest goes to the parallel parser.
	first := h.cur
	if h.eof {
		first = nil
	}
	t.outs, err = parseChunks(in.name, ck, first, h.lines, parse)
	if err != nil {
		return nil, err
	}
	t.dataBytes = ck.bytes - h.bytes
	for _, o := range t.outs {
		t.dataBytes -= o.commentBytes
	}

	el := &EdgeList{}
	switch {
	case opt.Format == FormatMETIS:
		err = t.metisEdges(el, int64(declared)) // the header bounds it by MaxInt64/4
	case ep.relabel:
		err = t.relabelEdges(el)
	default:
		err = t.mappedEdges(el, opt.Format, ep)
	}
	if err != nil {
		return nil, err
	}
	if hasDeclared && uint64(len(el.Src)) != declared {
		what := map[Format]string{FormatMTX: "the size line declares %d entries but the file has %d", FormatGR: "the problem line declares %d arcs but the file has %d", FormatMAX: "the problem line declares %d arcs but the file has %d"}[opt.Format]
		return nil, fileErr(in.name, what, declared, len(el.Src))
	}
	if err := t.weights(el, opt); err != nil {
		return nil, err
	}
	var g *Graph
	if opt.Format == FormatMETIS {
		g, err = t.metisGraph(el, int64(declared))
	} else {
		g, err = Build(el, BuildOptions{Undirected: t.symmetric || opt.Undirected, KeepDuplicates: opt.KeepDuplicates})
		if err != nil {
			err = fmt.Errorf("%w: %s: %w", ErrFormat, in.name, err)
		}
	}
	if err != nil {
		return nil, err
	}
	if opt.Format == FormatMAX {
		if err := t.terminals(g); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// checkN refuses vertex counts beyond the id space or out of proportion to
// the input's data: the bytes of its data lines, not of its header,
// comments or blank lines (which a hostile file pads, compressed, to make
// a large id look plausible), and the memory the process may use.
func (t *textLoad) checkN(n uint64, what string) error {
	if n > MaxVertices {
		return fileErr(t.name, "%s %d vertices, over the limit %d", what, n, uint64(MaxVertices))
	}
	if lim := uint64(freeVertices) + maxVerticesPerByte*uint64(max(t.dataBytes, 0)); n > lim {
		return fileErr(t.name, "%s %d vertices, implausible for %d bytes of data lines (at most %d): refusing to allocate for them", what, n, t.dataBytes, lim)
	}
	if err := memlimit.Check(csrBytes(int64(n), 0, false), fmt.Sprintf("the CSR offsets of %d vertices", n)); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrFormat, t.name, err)
	}
	return nil
}

// edgeOffsets returns where each chunk's edges start in the joint arrays.
func edgeOffsets(outs []*chunkOut) ([]int, int) {
	off := make([]int, len(outs))
	total := 0
	for i, o := range outs {
		off[i] = total
		total += o.edges()
	}
	return off, total
}

// optionalWeights checks that optional weights are given everywhere or
// nowhere and reports whether they are.
func (t *textLoad) optionalWeights() (bool, error) {
	var mode int8
	for _, o := range t.outs {
		if o.weighted == 0 {
			continue
		}
		if mode == 0 {
			mode = o.weighted
		} else if mode != o.weighted {
			want, got := 2, 3
			if mode == 1 {
				want, got = 3, 2
			}
			return false, &parseError{file: t.name, line: o.base + o.firstEdge, msg: fmt.Sprintf("%d fields, but the edges before have %d (give weights on every line or none)", got, want)}
		}
	}
	return mode == 1, nil
}

// allocEdges makes el's endpoint arrays for m edges, and returns the
// weights' array (nil unless weighted).
func allocEdges(el *EdgeList, m int, weighted bool) []float64 {
	el.Src = make([]uint32, m)
	el.Dst = make([]uint32, m)
	if !weighted {
		return nil
	}
	return make([]float64, m)
}

// concat joins the chunks' mapped endpoints and weights.
func (t *textLoad) concat(el *EdgeList, weighted bool) []float64 {
	off, m := edgeOffsets(t.outs)
	w := allocEdges(el, m, weighted)
	par.For(len(t.outs), 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			o := t.outs[i]
			copy(el.Src[off[i]:], o.src)
			copy(el.Dst[off[i]:], o.dst)
			if weighted {
				copy(w[off[i]:], o.w)
			}
			o.src, o.dst, o.w = nil, nil, nil
		}
	})
	return w
}

func (t *textLoad) mappedEdges(el *EdgeList, f Format, ep *edgeParser) error {
	weighted := t.wmode == wRequired
	if t.wmode == wOptional {
		var err error
		if weighted, err = t.optionalWeights(); err != nil {
			return err
		}
	}
	if ep.index == nil && ep.n == 0 { // el, wel: n = largest id + 1
		var hi uint64
		any := false
		for _, o := range t.outs {
			if o.edges() > 0 {
				hi, any = max(hi, o.maxID), true
			}
		}
		t.n = 0 // no edges name no vertex: the empty graph
		if any {
			t.n = hi + 1
		}
	}
	if ep.index == nil { // a vertex file's ids are bounded by its own size
		if err := t.checkN(t.n, "the input has"); err != nil {
			return err
		}
	}
	if !weighted {
		t.wmode = wNone
	}
	t.pending = t.concat(el, weighted)
	el.NumVertices = int(t.n)
	if ep.index == nil && ep.base == 1 {
		t.ids = OffsetIDs(1, int(t.n))
	}
	el.IDs = t.ids
	return nil
}

// relabelEdges maps raw ids densely in sorted order (SNAP, Graphalytics
// without a vertex file).
func (t *textLoad) relabelEdges(el *EdgeList) error {
	weighted, err := t.optionalWeights()
	if err != nil {
		return err
	}
	if !weighted {
		t.wmode = wNone
	}
	off, m := edgeOffsets(t.outs)
	if m == 0 { // no edges name no vertex: the empty graph
		t.n, t.pending = 0, nil
		el.NumVertices, el.IDs = 0, IDMap{}
		return nil
	}
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for _, o := range t.outs {
		if len(o.src64) > 0 {
			lo, hi = min(lo, o.minID), max(hi, o.maxID)
		}
	}
	var idx *idIndex
	if denseSpan(lo, hi, 2*m) {
		idx = newBitmapIndex(lo, hi)
		par.For(len(t.outs), 1, func(a, b int) {
			for i := a; i < b; i++ {
				for _, v := range t.outs[i].src64 {
					idx.set(v)
				}
				for _, v := range t.outs[i].dst64 {
					idx.set(v)
				}
			}
		})
		if c := idx.count(); c > MaxVertices {
			return fileErr(t.name, "%d distinct vertex ids, over the limit %d", c, uint64(MaxVertices))
		}
		idx.finish()
	} else {
		all := make([]uint64, 0, 2*m)
		for _, o := range t.outs {
			all = append(all, o.src64...)
			all = append(all, o.dst64...)
		}
		idx = indexFromIDs(all)
		if uint64(len(idx.ids)) > MaxVertices {
			return fileErr(t.name, "%d distinct vertex ids, over the limit %d", len(idx.ids), uint64(MaxVertices))
		}
		idx.ids = append([]uint64(nil), idx.ids...) // release the rest of all
	}
	t.n = uint64(len(idx.ids))
	w := allocEdges(el, m, weighted)
	par.For(len(t.outs), 1, func(a, b int) {
		for i := a; i < b; i++ {
			o := t.outs[i]
			s, d := el.Src[off[i]:], el.Dst[off[i]:]
			for k, v := range o.src64 {
				s[k], _ = idx.lookup(v)
			}
			for k, v := range o.dst64 {
				d[k], _ = idx.lookup(v)
			}
			if weighted {
				copy(w[off[i]:], o.w)
			}
			o.src64, o.dst64, o.w = nil, nil, nil
		}
	})
	t.pending = w
	el.NumVertices = int(t.n)
	el.IDs, err = SortedIDs(idx.ids)
	return err
}

func (t *textLoad) metisEdges(el *EdgeList, m int64) error {
	if err := t.checkN(t.n, "the header declares"); err != nil {
		return err
	}
	var vlines, entries int64
	for _, o := range t.outs {
		if o.lastNonBlank > 0 && uint64(vlines+o.lastNonBlank) > t.n {
			return fileErr(t.name, "the header declares %d vertices but vertex line %d lists neighbours", t.n, vlines+o.lastNonBlank)
		}
		vlines += o.vlines
		entries += o.entries
	}
	if uint64(vlines) < t.n {
		return fileErr(t.name, "the header declares %d vertices but the file has %d vertex lines", t.n, vlines)
	}
	// Make the chunks' local vertex numbers global, counting self-loops
	// for the edge count check.
	base := make([]uint32, len(t.outs))
	var b int64
	for i, o := range t.outs {
		base[i] = uint32(b)
		b += o.vlines
	}
	loops := make([]int64, len(t.outs))
	par.For(len(t.outs), 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			o := t.outs[i]
			for k := range o.src {
				o.src[k] += base[i]
				if o.src[k] == o.dst[k] {
					loops[i]++
				}
			}
		}
	})
	t.metisEntries, t.metisLoops = entries, 0
	for _, l := range loops {
		t.metisLoops += l
	}
	t.pending = t.concat(el, t.wmode == wRequired)
	el.NumVertices = int(t.n)
	el.IDs = OffsetIDs(1, int(t.n))
	return nil
}

// metisGraph builds a METIS graph and checks what its header and lists
// promise: every edge listed at both ends with the same weight (checked on
// the directed build, which then is the undirected graph), and 2m entries.
func (t *textLoad) metisGraph(el *EdgeList, m int64) (*Graph, error) {
	g, err := Build(el, BuildOptions{})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrFormat, t.name, err)
	}
	if err := t.metisSymmetric(g); err != nil {
		return nil, err
	}
	// Each undirected edge is listed twice. Writers differ on self-loops
	// (METIS counts a loop's entry like any other, some count it as a
	// whole edge, some not at all); they are dropped, so any will do.
	entries, loops := t.metisEntries, t.metisLoops
	if entries-loops != 2*m && entries != 2*m && entries+loops != 2*m {
		if loops > 0 {
			return nil, fileErr(t.name, "the header declares %d edges but the lists hold %d entries, %d of them self-loops (each undirected edge is listed twice, so want %d)", m, entries, loops, 2*m)
		}
		return nil, fileErr(t.name, "the header declares %d edges but the lists hold %d entries (each undirected edge is listed twice, so want %d)", m, entries, 2*m)
	}
	g.directed = false
	// Built from both ends' entries: a repeated edge repeats in both lists.
	g.dropped.Duplicates = (g.dropped.Duplicates + 1) / 2
	return g, nil
}

// metisSymmetric checks that u lists v iff v lists u, with the same
// weight, on a directed CSR (sorted, without duplicates or self-loops). It
// reports the problem of the first line.
func (t *textLoad) metisSymmetric(g *Graph) error {
	if symmetric(g) {
		return nil
	}
	// Find the first problem: a search per arc, slower, but only for
	// files that have one.
	const (
		onlyHere  = iota // at lists other, other does not list at
		onlyThere        // other lists at, at does not list other
		weights          // both list the edge, with different weights
	)
	type problem struct {
		at, other uint32 // at's line reports it; other is the far end
		kind      int
		w1, w2    uint32 // at's and other's weights
	}
	var mu sync.Mutex
	var first *problem
	var firstAt atomic.Uint32 // first.at, read without the lock
	firstAt.Store(math.MaxUint32)
	note := func(p problem) {
		mu.Lock()
		if first == nil || p.at < first.at || (p.at == first.at && p.other < first.other) {
			first = &p
			firstAt.Store(p.at)
		}
		mu.Unlock()
	}
	forEdgeBalanced(g.offsets, func(lo, hi int) {
		for u := uint32(lo); u < uint32(hi) && u <= firstAt.Load(); u++ {
			ws := g.EdgeWeights(u)
			for k, v := range g.Neighbors(u) {
				j, found := slices.BinarySearch(g.Neighbors(v), u)
				switch {
				case !found && u < v:
					note(problem{at: u, other: v, kind: onlyHere})
				case !found:
					note(problem{at: v, other: u, kind: onlyThere})
				case ws != nil && u < v && ws[k] != g.EdgeWeights(v)[j]:
					note(problem{at: u, other: v, kind: weights, w1: ws[k], w2: g.EdgeWeights(v)[j]})
				}
			}
		}
	})
	if first == nil {
		return nil
	}
	p := *first
	a, b := uint64(p.at)+1, uint64(p.other)+1 // the file's ids
	var msg string
	switch p.kind {
	case onlyHere:
		msg = fmt.Sprintf("vertex %d lists %d, but vertex %d (line %d) does not list %d: METIS lists every edge at both ends", a, b, b, t.metisLine(p.other), a)
	case onlyThere:
		msg = fmt.Sprintf("vertex %d does not list %d, but vertex %d (line %d) lists %d: METIS lists every edge at both ends", a, b, b, t.metisLine(p.other), a)
	default:
		msg = fmt.Sprintf("vertex %d lists %d with weight %d, but vertex %d (line %d) lists %d with weight %d: an edge has one weight", a, b, p.w1, b, t.metisLine(p.other), a, p.w2)
	}
	return &parseError{file: t.name, line: t.metisLine(p.at), msg: msg}
}

// symmetric reports whether every arc u->v of g (sorted lists, no
// duplicates; self-loops are their own reverse) has its reverse v->u with the same weight. Of
// the two arcs of a pair only the one whose far end has the shorter list
// (then the smaller id) looks up its reverse, in that short list, so hubs'
// long lists are never searched; when every such arc finds its reverse and
// they are exactly half the arcs, the other half are those reverses.
func symmetric(g *Graph) bool {
	var bad atomic.Bool
	var excess atomic.Int64 // arcs that looked up their reverse less those that did not
	forEdgeBalanced(g.offsets, func(lo, hi int) {
		var d int64
		for u := uint32(lo); u < uint32(hi) && !bad.Load(); u++ {
			du := g.Degree(u)
			ws := g.EdgeWeights(u)
			for k, v := range g.Neighbors(u) {
				if v == u {
					continue // a self-loop is its own reverse
				}
				if dv := g.Degree(v); dv > du || (dv == du && v > u) {
					d--
					continue
				}
				d++
				j, found := slices.BinarySearch(g.Neighbors(v), u)
				if !found || (ws != nil && ws[k] != g.EdgeWeights(v)[j]) {
					bad.Store(true)
					return
				}
			}
		}
		excess.Add(d)
	})
	return !bad.Load() && excess.Load() == 0
}

// metisLine returns the line of vertex v (0-based) of a METIS file.
func (t *textLoad) metisLine(v uint32) int64 {
	k := int64(v)
	for _, o := range t.outs {
		if k >= o.vlines {
			k -= o.vlines
			continue
		}
		l := k + 1 // the (k+1)-th line that is not a comment
		for _, c := range o.comments {
			if c <= l {
				l++
			}
		}
		return o.base + l
	}
	return 0
}

// weights converts the parsed weights to the graph's representation.
func (t *textLoad) weights(el *EdgeList, opt LoadOptions) error {
	w := t.pending
	t.pending = nil
	if w == nil || t.wmode == wNone {
		el.WeightKind = Unweighted
		return nil
	}
	if opt.WeightScale > 0 {
		// A file with real weights is stored as float32 (a .gbx of it
		// too), which rounds integers above 2^24: scaled here exactly,
		// from its .gbx rounded, the two would differ.
		var real, big *chunkOut
		for _, o := range t.outs {
			if o.realSyntax && real == nil {
				real = o
			}
			if o.bigInt && big == nil {
				big = o
			}
		}
		if real != nil && big != nil {
			return &parseError{file: t.name, line: big.base + big.bigIntLine, msg: "an integer weight above 2^24 in a file with real weights: float32 (how real weights are kept, in a .gbx too) cannot hold it exactly, so a weight scale (LoadOptions.WeightScale, gearbox's --weight-scale) would scale it differently from the file's .gbx; write it with a decimal point and at most 7 significant digits, or make every weight an integer"}
		}
	}
	kind := t.wkind
	if kind == Unweighted || kind == RealWeights { // real-capable formats
		kind = IntWeights
		if opt.WeightScale == 0 {
			for _, o := range t.outs {
				if o.realSyntax {
					kind = RealWeights
				}
			}
			if t.wkind == RealWeights {
				kind = RealWeights
			}
		}
	}
	el.WeightKind = kind
	el.Weights = make([]uint32, len(w))
	par.For(len(w), 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if kind == RealWeights {
				el.Weights[i] = math.Float32bits(float32(w[i]))
			} else {
				el.Weights[i] = uint32(w[i])
			}
		}
	})
	return nil
}

// terminals records the max-flow source and sink.
func (t *textLoad) terminals(g *Graph) error {
	var s, tt uint64
	var sl, tl int64
	// take records a chunk's terminal (named at line, a second time at
	// dupLine; 0: not named) as id at *at, refusing a second one.
	take := func(o *chunkOut, line, dupLine int64, v uint64, id *uint64, at *int64, what string) error {
		if line == 0 {
			return nil
		}
		first := *at
		if first == 0 {
			*id, *at = v, o.base+line
			first, line = *at, dupLine
		}
		if line == 0 {
			return nil
		}
		return &parseError{file: t.name, line: o.base + line, msg: fmt.Sprintf("a second %s (line %d named one)", what, first)}
	}
	for _, o := range t.outs {
		if err := take(o, o.sourceLine, o.dupSourceLine, o.source, &s, &sl, "source"); err != nil {
			return err
		}
		if err := take(o, o.sinkLine, o.dupSinkLine, o.sink, &tt, &tl, "sink"); err != nil {
			return err
		}
	}
	if sl == 0 || tl == 0 {
		missing := "source (n ID s)"
		if sl > 0 {
			missing = "sink (n ID t)"
		}
		return fileErr(t.name, "no %s line: a max-flow file must name a source and a sink", missing)
	}
	if s == tt {
		return fileErr(t.name, "source and sink are the same vertex %d", s)
	}
	if err := g.SetTerminals(uint32(s-1), uint32(tt-1)); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrFormat, t.name, err)
	}
	return nil
}

// dimacsHeader reads up to the `p sp N M` / `p max N M` line.
func dimacsHeader(h *headerReader, f Format) (n, m uint64, err error) {
	want := "sp"
	if f == FormatMAX {
		want = "max"
	}
	for {
		l, ok, err := h.peek()
		if err != nil {
			return 0, 0, readError(h.name, err)
		}
		if !ok {
			return 0, 0, fileErr(h.name, "no problem line `p %s N M`", want)
		}
		t, i := nextTok(l, 0)
		if len(t) == 0 || t[0] == 'c' {
			h.skip()
			continue
		}
		if string(t) != "p" {
			return 0, 0, h.errAt("expected the problem line `p %s N M` before anything else, got %s", want, quote(t))
		}
		var toks [4][]byte
		k := 0
		for ; k < 4; k++ {
			if toks[k], i = nextTok(l, i); len(toks[k]) == 0 {
				break
			}
		}
		if k != 3 || countToks(l[i:]) != 0 {
			return 0, 0, h.errAt("expected `p %s N M`", want)
		}
		if string(toks[0]) != want {
			return 0, 0, h.errAt("problem type %s, want %s", quote(toks[0]), want)
		}
		if n, err = headerCount(h, toks[1], "vertex count"); err != nil {
			return 0, 0, err
		}
		if m, err = headerCount(h, toks[2], "arc count"); err != nil {
			return 0, 0, err
		}
		if n > MaxVertices {
			return 0, 0, h.errAt("%d vertices, over the limit %d", n, uint64(MaxVertices))
		}
		h.skip()
		return n, m, nil
	}
}

func headerCount(h *headerReader, t []byte, what string) (uint64, error) {
	v, ok := parseU64(t)
	if !ok {
		return 0, h.errAt("invalid %s %s", what, quote(t))
	}
	return v, nil
}

type mtxInfo struct {
	n, nnz    uint64
	field     string
	symmetric bool
}

// mtxHeader reads the banner, comments and size line of a MatrixMarket file.
func mtxHeader(h *headerReader) (mtxInfo, error) {
	var hd mtxInfo
	l, _, err := h.peek()
	if err != nil {
		return hd, readError(h.name, err)
	}
	f := strings.Fields(strings.ToLower(string(l)))
	if len(f) == 0 || f[0] != "%%matrixmarket" {
		return hd, h.errAt("missing the %%%%MatrixMarket banner line")
	}
	if len(f) != 5 || f[1] != "matrix" {
		return hd, h.errAt("expected `%%%%MatrixMarket matrix coordinate FIELD SYMMETRY`")
	}
	if f[2] == "array" {
		return hd, h.errAt("dense `array` MatrixMarket files are not graphs; only `coordinate` is supported")
	}
	if f[2] != "coordinate" {
		return hd, h.errAt("unknown MatrixMarket format %q (want coordinate)", f[2])
	}
	switch f[3] {
	case "pattern", "integer", "real":
		hd.field = f[3]
	default:
		return hd, h.errAt("MatrixMarket field %q is not supported (want pattern, integer or real)", f[3])
	}
	switch f[4] {
	case "general":
	case "symmetric":
		hd.symmetric = true
	default:
		return hd, h.errAt("MatrixMarket symmetry %q is not supported (want general or symmetric)", f[4])
	}
	h.skip()
	for {
		l, ok, err := h.peek()
		if err != nil {
			return hd, readError(h.name, err)
		}
		if !ok {
			return hd, fileErr(h.name, "no size line `ROWS COLS ENTRIES`")
		}
		t, _ := nextTok(l, 0)
		if len(t) == 0 || t[0] == '%' {
			h.skip()
			continue
		}
		var toks [3][]byte
		i := 0
		for k := range toks {
			toks[k], i = nextTok(l, i)
		}
		if len(toks[2]) == 0 || countToks(l[i:]) != 0 {
			return hd, h.errAt("expected the size line `ROWS COLS ENTRIES`, got %d fields", countToks(l))
		}
		var rc [3]uint64
		for k, name := range []string{"row count", "column count", "entry count"} {
			if rc[k], err = headerCount(h, toks[k], name); err != nil {
				return hd, err
			}
		}
		if rc[0] != rc[1] {
			return hd, h.errAt("a %d x %d matrix is not a graph's adjacency matrix (rows must equal columns)", rc[0], rc[1])
		}
		if rc[0] > MaxVertices {
			return hd, h.errAt("%d vertices, over the limit %d", rc[0], uint64(MaxVertices))
		}
		hd.n, hd.nnz = rc[0], rc[2]
		h.skip()
		return hd, nil
	}
}

// metisHeader reads the `N M [fmt [ncon]]` line.
func metisHeader(h *headerReader) (*metisParser, uint64, error) {
	for {
		l, ok, err := h.peek()
		if err != nil {
			return nil, 0, readError(h.name, err)
		}
		if !ok {
			return nil, 0, fileErr(h.name, "no header line `N M [fmt [ncon]]`")
		}
		t, _ := nextTok(l, 0)
		if len(t) == 0 || t[0] == '%' {
			h.skip()
			continue
		}
		f := bytes.Fields(l)
		if len(f) < 2 || len(f) > 4 {
			return nil, 0, h.errAt("expected the header `N M [fmt [ncon]]`, got %d fields", len(f))
		}
		p := &metisParser{}
		var m uint64
		if p.n, err = headerCount(h, f[0], "vertex count"); err != nil {
			return nil, 0, err
		}
		if m, err = headerCount(h, f[1], "edge count"); err != nil {
			return nil, 0, err
		}
		if p.n > MaxVertices {
			return nil, 0, h.errAt("%d vertices, over the limit %d", p.n, uint64(MaxVertices))
		}
		if m > math.MaxInt64/4 {
			return nil, 0, h.errAt("edge count %d too large", m)
		}
		if len(f) >= 3 {
			fm := f[2]
			if len(fm) > 3 || len(bytes.Trim(fm, "01")) > 0 {
				return nil, 0, h.errAt("invalid fmt %s (want up to three 0/1 digits, e.g. 1, 10, 11, 100)", quote(fm))
			}
			s := strings.Repeat("0", 3-len(fm)) + string(fm)
			p.vsize, p.eweights = s[0] == '1', s[2] == '1'
			if s[1] == '1' {
				p.ncon = 1
			}
		}
		if len(f) == 4 {
			c, err := headerCount(h, f[3], "ncon")
			if err != nil {
				return nil, 0, err
			}
			if p.ncon == 0 {
				return nil, 0, h.errAt("ncon given but fmt has no vertex weights")
			}
			if c > 1<<16 {
				return nil, 0, h.errAt("ncon %d too large", c)
			}
			p.ncon = int(c)
		}
		p.wp.intOnly = true
		h.skip()
		return p, m, nil
	}
}

// readVertexFile reads a Graphalytics .v file into an id index.
func readVertexFile(path string) (*idIndex, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	in := &input{name: path, r: f, size: -1}
	r, _, done, err := in.open(LoadOptions{})
	if err != nil {
		return nil, err
	}
	defer done()
	ck := &chunker{r: r}
	outs, err := parseChunks(in.name, ck, nil, 0, vertexParser)
	if err != nil {
		return nil, err
	}
	var ids []uint64
	for _, o := range outs {
		ids = append(ids, o.src64...)
	}
	idx := indexFromIDs(ids)
	if uint64(len(idx.ids)) > MaxVertices {
		return nil, fileErr(in.name, "%d vertices, over the limit %d", len(idx.ids), uint64(MaxVertices))
	}
	return idx, nil
}
