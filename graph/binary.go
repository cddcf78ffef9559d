package graph

// The binary CSR format (.gbx), little-endian:
//
//	offset size  field
//	0      8     magic "\x89GBX\r\n\x1a\n" (catches text-mode mangling)
//	8      4     version (1)
//	12     4     flags: bit 0 directed, bits 1-2 weight kind, bit 3 explicit
//	             id list, bit 4 terminals, bit 5 derived weights
//	16     8     n (vertices)
//	24     8     m (arcs)
//	32     8     id base (offset id maps)
//	40     4     source, 44 4 sink (when bit 4)
//	48           offsets (n+1) x int64, adj m x uint32, weights m x uint32
//	             (unless unweighted), ids n x uint64 (when bit 3)
//	end-4  4     CRC-32C (Castagnoli) of every byte before it
//
// Arrays are read straight into their slices, so loading runs at disk (or
// page-cache) speed; sizes are checked against the file size before any
// allocation, and graph.New validates the CSR afterwards.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"strconv"
	"sync/atomic"
	"unsafe"
)

const (
	binMagic      = "\x89GBX\r\n\x1a\n"
	binVersion    = 1
	binHeaderSize = 48

	flagDirected = 1 << 0
	flagKindMask = 3 << 1
	flagIDList   = 1 << 3
	flagTerms    = 1 << 4
	flagDerived  = 1 << 5
	flagKnown    = flagDirected | flagKindMask | flagIDList | flagTerms | flagDerived
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func newCRC() hash.Hash32 { return crc32.New(castagnoli) }

var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// asBytes views a slice of fixed-size integers as bytes.
func asBytes[T uint32 | uint64 | int64](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

// swapBytes converts between little-endian file order and a big-endian
// host's order (a no-op on little-endian hosts).
func swapBytes[T uint32 | uint64 | int64](s []T) {
	if littleEndian {
		return
	}
	b := asBytes(s)
	size := int(unsafe.Sizeof(s[0]))
	for i := 0; i < len(b); i += size {
		slices.Reverse(b[i : i+size])
	}
}

// readArray reads count elements. With a known input size (already checked
// against the header) it allocates once; for streams of unknown size it
// grows as data arrives, so a lying header cannot make it allocate more
// than the stream holds.
func readArray[T uint32 | uint64 | int64](r io.Reader, count uint64, known bool) ([]T, error) {
	if known {
		s := make([]T, count)
		_, err := io.ReadFull(r, asBytes(s))
		swapBytes(s)
		return s, err
	}
	var s []T
	for uint64(len(s)) < count {
		step := min(count-uint64(len(s)), max(uint64(len(s)), 1<<20))
		old := len(s)
		s = slices.Grow(s, int(step))[:old+int(step)]
		if _, err := io.ReadFull(r, asBytes(s[old:])); err != nil {
			return nil, err
		}
	}
	swapBytes(s)
	return s, nil
}

// hashReader feeds everything read through a hash.
type hashReader struct {
	r io.Reader
	h hash.Hash32
}

func (h *hashReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.h.Write(p[:n])
	return n, err
}

func binErr(name, format string, args ...any) error {
	return &parseError{file: name, msg: fmt.Sprintf(format, args...)}
}

func readBinary(in *input, opt LoadOptions) (*Graph, error) {
	r, compressed, done, err := in.open(opt)
	if err != nil {
		return nil, err
	}
	defer done()
	hr := &hashReader{r: r, h: newCRC()}
	var hdr [binHeaderSize]byte
	if n, err := io.ReadFull(hr, hdr[:]); err != nil {
		if n == 0 {
			return nil, binErr(in.name, "empty file")
		}
		if n < len(binMagic) || string(hdr[:len(binMagic)]) != binMagic {
			return nil, binErr(in.name, "not a gearbox binary graph (bad magic)")
		}
		return nil, binErr(in.name, "truncated: %d bytes, shorter than the %d-byte header", n, binHeaderSize)
	}
	le := binary.LittleEndian
	if string(hdr[:8]) != binMagic {
		return nil, binErr(in.name, "not a gearbox binary graph (bad magic)")
	}
	if v := le.Uint32(hdr[8:]); v != binVersion {
		return nil, binErr(in.name, "binary format version %d, this gearbox reads version %d", v, binVersion)
	}
	flags := le.Uint32(hdr[12:])
	n, m, base := le.Uint64(hdr[16:]), le.Uint64(hdr[24:]), le.Uint64(hdr[32:])
	source, sink := le.Uint32(hdr[40:]), le.Uint32(hdr[44:])
	kind := WeightKind((flags & flagKindMask) >> 1)
	if flags&^flagKnown != 0 || kind > RealWeights {
		return nil, binErr(in.name, "unknown flags %#x (corrupt file or newer version)", flags)
	}
	if n > MaxVertices {
		return nil, binErr(in.name, "%d vertices, over the limit %d (corrupt header?)", n, uint64(MaxVertices))
	}
	if m > math.MaxInt64/16 {
		return nil, binErr(in.name, "%d arcs is impossible (corrupt header?)", m)
	}
	want := uint64(binHeaderSize) + 8*(n+1) + 4*m + 4
	if kind != Unweighted {
		want += 4 * m
	}
	if flags&flagIDList != 0 {
		want += 8 * n
	}
	known := in.size >= 0 && !compressed
	if known && uint64(in.size) != want {
		if uint64(in.size) < want {
			return nil, binErr(in.name, "truncated: the header describes %d vertices and %d arcs in %d bytes, the file has %d", n, m, want, in.size)
		}
		return nil, binErr(in.name, "%d bytes of trailing data after the %d the header describes", uint64(in.size)-want, want)
	}
	truncated := func(err error) error {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return binErr(in.name, "truncated: the header describes %d vertices and %d arcs (%d bytes) but the input ends early", n, m, want)
		}
		return readError(in.name, err)
	}
	offsets, err := readArray[int64](hr, n+1, known)
	if err != nil {
		return nil, truncated(err)
	}
	adj, err := readArray[uint32](hr, m, known)
	if err != nil {
		return nil, truncated(err)
	}
	var weights []uint32
	if kind != Unweighted {
		if weights, err = readArray[uint32](hr, m, known); err != nil {
			return nil, truncated(err)
		}
	}
	var idList []uint64
	if flags&flagIDList != 0 {
		if idList, err = readArray[uint64](hr, n, known); err != nil {
			return nil, truncated(err)
		}
	}
	sum := hr.h.Sum32()
	var tail [4]byte
	if _, err := io.ReadFull(r, tail[:]); err != nil {
		return nil, truncated(err)
	}
	if got := le.Uint32(tail[:]); got != sum {
		return nil, binErr(in.name, "checksum mismatch (stored %08x, computed %08x): the file is corrupt", got, sum)
	}
	if !known {
		var extra [1]byte
		if k, _ := io.ReadFull(r, extra[:]); k > 0 {
			return nil, binErr(in.name, "trailing data after the %d bytes the header describes", want)
		}
	}
	if idList == nil && n > 0 && base > math.MaxUint64-(n-1) {
		return nil, binErr(in.name, "vertex ids %d.. for %d vertices pass 2^64 (corrupt header?)", base, n)
	}
	ids := OffsetIDs(base, int(n))
	if idList != nil {
		if ids, err = SortedIDs(idList); err != nil {
			return nil, fmt.Errorf("%s: %w", in.name, err)
		}
	}
	// graph.New checks the offsets too, but slices adj with them while it
	// does, so make sure first that they cannot run outside it.
	if err := checkOffsets(offsets, m); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrFormat, in.name, err)
	}
	g, err := New(offsets, adj, weights, kind, flags&flagDirected != 0, ids)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrFormat, in.name, err)
	}
	g.derived = flags&flagDerived != 0
	if flags&flagTerms != 0 {
		if source == sink {
			return nil, binErr(in.name, "max-flow source and sink are the same vertex %d", source)
		}
		if err := g.SetTerminals(source, sink); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrFormat, in.name, err)
		}
	}
	if err := checkContent(g); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrFormat, in.name, err)
	}
	return applyOptions(in.name, g, opt)
}

// checkContent checks what a checksum cannot: that a .gbx holds what a
// text file could have given. Weights are finite and not negative (-0
// included: text gives +0); lists hold no duplicates; an undirected
// graph lists every edge at both ends with one weight. Sorted lists and
// offsets were checked by New; all in parallel.
func checkContent(g *Graph) error {
	n := g.NumVertices()
	var badV atomic.Int64
	badV.Store(-1)
	forEdgeBalanced(g.offsets, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			adj := g.adj[g.offsets[v]:g.offsets[v+1]]
			for i := 1; i < len(adj); i++ {
				if adj[i] == adj[i-1] {
					badV.CompareAndSwap(-1, int64(v))
					return
				}
			}
		}
	})
	if v := badV.Load(); v >= 0 {
		return fmt.Errorf("%w: vertex %d lists a neighbour twice", ErrInvalid, v)
	}
	if g.wkind == RealWeights {
		var badE atomic.Int64
		badE.Store(-1)
		parFor(len(g.weights), 1<<16, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				w := g.weights[i]
				if w>>31 != 0 || w&0x7f800000 == 0x7f800000 { // negative (or -0), Inf or NaN
					badE.CompareAndSwap(-1, int64(i))
					return
				}
			}
		})
		if i := badE.Load(); i >= 0 {
			return fmt.Errorf("%w: arc %d has weight %v: weights must be finite and not negative", ErrInvalid, i, math.Float32frombits(g.weights[i]))
		}
	}
	if !g.directed && !symmetric(g) {
		for u := range uint32(n) { // only for a bad file: find the first one-sided edge
			for k, v := range g.Neighbors(u) {
				j, found := slices.BinarySearch(g.Neighbors(v), u)
				if !found {
					return fmt.Errorf("%w: the graph is undirected but vertex %d lists %d and %d does not list %d", ErrInvalid, u, v, v, u)
				}
				if ws := g.EdgeWeights(u); ws != nil && ws[k] != g.EdgeWeights(v)[j] {
					return fmt.Errorf("%w: the graph is undirected but edge %d-%d has two weights", ErrInvalid, u, v)
				}
			}
		}
		return fmt.Errorf("%w: the graph is undirected but its adjacency is not symmetric", ErrInvalid)
	}
	return nil
}

// checkOffsets verifies that offsets run from 0 to m without decreasing.
func checkOffsets(offsets []int64, m uint64) error {
	n := len(offsets) - 1
	if offsets[0] != 0 || offsets[n] != int64(m) {
		return fmt.Errorf("%w: offsets run from %d to %d, want 0 to %d", ErrInvalid, offsets[0], offsets[n], m)
	}
	var bad atomic.Int64
	bad.Store(-1)
	parFor(n, 1<<16, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			if offsets[v] > offsets[v+1] {
				bad.CompareAndSwap(-1, int64(v))
				return
			}
		}
	})
	if v := bad.Load(); v >= 0 {
		return fmt.Errorf("%w: offsets decrease at vertex %d (%d then %d)", ErrInvalid, v, offsets[v], offsets[v+1])
	}
	return nil
}

// applyOptions makes a stored graph honour Undirected and WeightScale.
func applyOptions(name string, g *Graph, opt LoadOptions) (*Graph, error) {
	scale := opt.WeightScale > 0 && g.wkind != Unweighted
	if !scale && !(opt.Undirected && g.directed) {
		return g, nil
	}
	el := &EdgeList{NumVertices: g.NumVertices(), WeightKind: g.wkind, IDs: g.ids}
	m := len(g.adj)
	el.Src = make([]uint32, m)
	el.Dst = g.adj
	el.Weights = g.weights
	var bad error
	if scale {
		el.WeightKind = IntWeights
		el.Weights = make([]uint32, m)
		real := g.wkind == RealWeights
		for i, w := range g.weights {
			f := float64(w)
			if real { // as the text's decimal was scaled: see weightParser
				f = float32Decimal(math.Float32frombits(w))
			}
			r := math.Round(f * opt.WeightScale)
			if (r > math.MaxUint32 || (r == 0 && f != 0)) && bad == nil { // the rare case: say why
				_, msg := scaleWeight(strconv.FormatFloat(f, 'g', -1, 64), f, opt.WeightScale)
				bad = binErr(name, "%s", msg)
			}
			el.Weights[i] = uint32(r)
		}
	}
	if bad != nil {
		return nil, bad
	}
	parFor(g.NumVertices(), 1<<12, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			for e := g.offsets[v]; e < g.offsets[v+1]; e++ {
				el.Src[e] = uint32(v)
			}
		}
	})
	h, err := Build(el, BuildOptions{Undirected: opt.Undirected || !g.directed, KeepSelfLoops: true})
	if err != nil {
		return nil, err
	}
	if s, t, ok := g.Terminals(); ok {
		_ = h.SetTerminals(s, t)
	}
	return h, nil
}

func writeBinary(w io.Writer, g *Graph) error {
	crc := newCRC()
	mw := io.MultiWriter(w, crc)
	le := binary.LittleEndian
	var hdr [binHeaderSize]byte
	copy(hdr[:], binMagic)
	le.PutUint32(hdr[8:], binVersion)
	flags := uint32(g.wkind) << 1
	if g.directed {
		flags |= flagDirected
	}
	if g.ids.ids != nil {
		flags |= flagIDList
	}
	if s, t, ok := g.Terminals(); ok {
		flags |= flagTerms
		le.PutUint32(hdr[40:], s)
		le.PutUint32(hdr[44:], t)
	}
	if g.derived {
		flags |= flagDerived
	}
	le.PutUint32(hdr[12:], flags)
	le.PutUint64(hdr[16:], uint64(g.NumVertices()))
	le.PutUint64(hdr[24:], uint64(len(g.adj)))
	le.PutUint64(hdr[32:], g.ids.base)
	if _, err := mw.Write(hdr[:]); err != nil {
		return err
	}
	if err := writeArray(mw, g.offsets); err != nil {
		return err
	}
	if err := writeArray(mw, g.adj); err != nil {
		return err
	}
	if g.wkind != Unweighted {
		if err := writeArray(mw, g.weights); err != nil {
			return err
		}
	}
	if g.ids.ids != nil {
		if err := writeArray(mw, g.ids.ids); err != nil {
			return err
		}
	}
	var tail [4]byte
	le.PutUint32(tail[:], crc.Sum32())
	_, err := w.Write(tail[:])
	return err
}

func writeArray[T uint32 | uint64 | int64](w io.Writer, s []T) error {
	if littleEndian {
		_, err := w.Write(asBytes(s))
		return err
	}
	for len(s) > 0 { // big-endian host: convert a piece at a time
		k := min(len(s), 1<<16)
		c := slices.Clone(s[:k])
		swapBytes(c)
		if _, err := w.Write(asBytes(c)); err != nil {
			return err
		}
		s = s[k:]
	}
	return nil
}
