package graph

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"
)

// Line scanning helpers. Whitespace is space, tab, CR, VT and FF, so CRLF
// files read like LF ones.

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// nextTok returns the next whitespace-separated token of l from i on and the
// index after it; tok is empty at the end of the line.
func nextTok(l []byte, i int) (tok []byte, j int) {
	for i < len(l) && isSpace(l[i]) {
		i++
	}
	s := i
	for i < len(l) && !isSpace(l[i]) {
		i++
	}
	return l[s:i], i
}

// countToks counts the tokens of l.
func countToks(l []byte) int {
	n := 0
	for i := 0; ; {
		var t []byte
		t, i = nextTok(l, i)
		if len(t) == 0 {
			return n
		}
		n++
	}
}

// parseU64 parses a token of decimal digits; ok is false for anything else
// or on overflow.
func parseU64(t []byte) (v uint64, ok bool) {
	if len(t) == 0 || len(t) > 20 {
		return 0, false
	}
	for _, c := range t {
		d := c - '0'
		if d > 9 {
			return 0, false
		}
		if v > (math.MaxUint64-uint64(d))/10 {
			return 0, false
		}
		v = v*10 + uint64(d)
	}
	return v, true
}

func bstr(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// quote shows a token in an error message, shortened if long.
func quote(t []byte) string {
	if len(t) > 40 {
		return strconv.Quote(string(t[:40])) + "..."
	}
	return strconv.Quote(string(t))
}

// idError explains why a vertex-id token is not one.
func idError(t []byte) string {
	if len(t) > 0 && t[0] == '-' {
		if _, ok := parseU64(t[1:]); ok {
			return fmt.Sprintf("negative vertex id %s", t)
		}
	}
	if len(t) > 0 {
		allDigits := true
		for _, c := range t {
			if c < '0' || c > '9' {
				allDigits = false
			}
		}
		if allDigits {
			return fmt.Sprintf("vertex id %s too large", t)
		}
	}
	return fmt.Sprintf("invalid vertex id %s", quote(t))
}

// weight parsing modes.
const (
	wNone     = iota // no weights
	wOptional        // an optional third column (SNAP, Graphalytics)
	wRequired        // a required weight column
)

// weightParser turns weight tokens into values. The weight rule, the same
// for every format (text or .gbx):
//
//   - a weight is a plain decimal number (digits, an optional fraction and
//     exponent; no hex, underscores, Inf or NaN), not negative (-0 is 0);
//   - integer formats take integers below 2^32; real-capable formats keep
//     real weights as float32, and refuse one float32 cannot hold (over
//     its largest value, or non-zero but below its smallest: 1e-50 and
//     1e-400 alike);
//   - --weight-scale S > 0 makes every weight w an integer round(w*S):
//     integers exactly, a real weight as the shortest decimal of its
//     float32 (what a .gbx stores), so a .gbx scales as its text did. A
//     result over 2^32-1, or a non-zero weight rounded to 0, is an error.
type weightParser struct {
	intOnly bool    // weights must be integers (wel, gr, max, mtx integer, METIS)
	scale   float64 // > 0: weights become round(w*scale)
}

// decimalSyntax reports whether t is a plain decimal number:
// [+-]digits[.digits][(e|E)[+-]digits], with a digit before or after the
// point. strconv.ParseFloat also takes Go syntax (0x1p3, 0x1_0p0, Inf,
// NaN), which no graph format writes.
func decimalSyntax(t []byte) bool {
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	digits := 0
	for i < len(t) && t[i]-'0' <= 9 {
		i, digits = i+1, digits+1
	}
	if i < len(t) && t[i] == '.' {
		i++
		for i < len(t) && t[i]-'0' <= 9 {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		e := i
		for i < len(t) && t[i]-'0' <= 9 {
			i++
		}
		if i == e {
			return false
		}
	}
	return i == len(t)
}

// parse returns the weight, whether it was written as a real number, and a
// message when it is not acceptable.
func (p *weightParser) parse(t []byte) (w float64, real bool, msg string) {
	if v, ok := parseU64(t); ok && v <= math.MaxUint32 && p.scale == 0 {
		return float64(v), false, ""
	}
	if !decimalSyntax(t) {
		if f, err := strconv.ParseFloat(bstr(t), 64); err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return 0, false, fmt.Sprintf("weight %s is not a finite number", t)
		}
		return 0, false, fmt.Sprintf("invalid weight %s", quote(t))
	}
	if p.intOnly {
		switch {
		case allDigits(t):
			v, ok := parseU64(t)
			if !ok || v > math.MaxUint32 {
				return 0, false, fmt.Sprintf("weight %s over the limit %d", t, uint64(math.MaxUint32))
			}
			r, msg := scaleWeight(bstr(t), float64(v), p.scale)
			return r, false, msg
		case len(t) > 1 && t[0] == '-' && allDigits(t[1:]):
			if len(bytes.Trim(t[1:], "0")) == 0 {
				return 0, false, "" // -0
			}
			return 0, false, fmt.Sprintf("negative weight %s", t)
		}
		if t[0] == '-' && !zeroDigits(t) {
			return 0, false, fmt.Sprintf("negative weight %s", t)
		}
		return 0, false, fmt.Sprintf("weight %s is not an integer", t)
	}
	f, err := strconv.ParseFloat(bstr(t), 64)
	if err != nil && !isRangeErr(err) {
		return 0, false, fmt.Sprintf("invalid weight %s", quote(t))
	}
	if t[0] == '-' && !zeroDigits(t) { // also -1e-400, which parses as -0
		return 0, false, fmt.Sprintf("negative weight %s", t)
	}
	if f == 0 {
		if !zeroDigits(t) { // 1e-400: below float64 even
			return 0, false, fmt.Sprintf("weight %s is too small for a float32 (it would be 0)", t)
		}
		f = 0 // no negative zero: its bit pattern would sort above every weight
	}
	real = !allDigits(t)
	f32 := float32(f)
	if !real && p.scale > 0 { // an integer: scaled exactly
		r, msg := scaleWeight(bstr(t), f, p.scale)
		return r, false, msg
	}
	if math.IsInf(float64(f32), 0) {
		return 0, false, fmt.Sprintf("weight %s over the float32 limit %g", t, math.MaxFloat32)
	}
	if f32 == 0 && f != 0 {
		return 0, false, fmt.Sprintf("weight %s is too small for a float32 (it would be 0)", t)
	}
	if p.scale > 0 {
		r, msg := scaleWeight(bstr(t), float32Decimal(f32), p.scale)
		return r, true, msg
	}
	if !real && f > math.MaxUint32 {
		real = true // too big for an integer weight: keep it as a real one
	}
	return f, real, ""
}

// zeroDigits reports whether a decimal token's mantissa is all zeros
// (0, -0.000, 0e5): a zero, not a number too small to hold.
func zeroDigits(t []byte) bool {
	for _, c := range t {
		if c == 'e' || c == 'E' {
			break
		}
		if c >= '1' && c <= '9' {
			return false
		}
	}
	return true
}

// float32Decimal is the value of the shortest decimal that reads back as
// f: what --weight-scale multiplies for a real weight, from a text file
// or a .gbx alike (0.35 stored as float32 is 0.3499999940..., but scales
// as 0.35).
func float32Decimal(f float32) float64 {
	d, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return d
}

// scaleWeight turns weight f (written as shown) into the integer
// weight round(f*scale), or says why it cannot: over 32 bits, or a
// non-zero weight rounded to 0, a free edge that would shorten every path
// through it. Text and binary inputs share it. scale 0 keeps f.
func scaleWeight(shown string, f, scale float64) (r float64, msg string) {
	if scale == 0 {
		return f, ""
	}
	r = math.Round(f * scale)
	switch {
	case r > math.MaxUint32:
		return 0, fmt.Sprintf("weight %s times scale %g is %.0f, over the limit %d", shown, scale, r, uint64(math.MaxUint32))
	case r == 0 && f != 0:
		return 0, fmt.Sprintf("weight %s times scale %g rounds to 0 (use a larger LoadOptions.WeightScale, gearbox's --weight-scale)", shown, scale)
	}
	return r, ""
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func allDigits(t []byte) bool {
	if len(t) == 0 {
		return false
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// edgeParser parses the body lines of the edge-per-line formats.
type edgeParser struct {
	comments string // bytes that start a comment line
	dimacs   bool   // lines start with a letter: a arc, c comment (n terminal for max)
	leadID   bool   // an edge id precedes the fields (cedge): checked, then skipped
	maxflow  bool   // accept n lines
	mtx      bool   // the body of a MatrixMarket file (counted entries)
	wmode    int
	wp       weightParser
	base     uint64   // smallest id
	n        uint64   // ids in base..base+n-1; 0 = unbounded
	relabel  bool     // keep raw ids for relabelling afterwards
	index    *idIndex // map ids through this vertex list (Graphalytics .v)
	vname    string   // the vertex file, for messages
	minF     int      // fields expected (not counting a DIMACS letter)
	maxF     int
}

func (p *edgeParser) fieldsMsg(got int) string {
	if p.leadID { // the edge id is a field to the reader of the file
		return fmt.Sprintf("expected %d fields (edge id, start, end, length), got %d", p.minF+1, got+1)
	}
	if p.minF == p.maxF {
		return fmt.Sprintf("expected %d fields, got %d", p.minF, got)
	}
	return fmt.Sprintf("expected %d or %d fields, got %d", p.minF, p.maxF, got)
}

func (p *edgeParser) parse(data []byte, o *chunkOut) {
	est := len(data)/8 + 16
	if p.relabel {
		o.src64 = make([]uint64, 0, est)
		o.dst64 = make([]uint64, 0, est)
	} else {
		o.src = make([]uint32, 0, est)
		o.dst = make([]uint32, 0, est)
	}
	if p.wmode != wNone {
		o.w = make([]float64, 0, est)
	}
	o.minID = math.MaxUint64
	lc := lineCutter{data: data, limit: maxLine}
	for l, ok := lc.next(o); ok; l, ok = lc.next(o) {
		if !p.line(l, lc.line, o) {
			return
		}
	}
}

// line parses one line; false means it failed (o holds the error). The
// common shape, two or three plain numbers, takes a fast path; everything
// else (comments, blank lines, errors) the general one.
func (p *edgeParser) line(l []byte, line int64, o *chunkOut) bool {
	body := l
	if p.dimacs {
		if len(l) < 2 || l[0] != 'a' || (l[1] != ' ' && l[1] != '\t') {
			return p.slowLine(l, line, o)
		}
		body = l[2:]
	}
	if p.leadID {
		i := 0
		for i < len(l) && l[i]-'0' <= 9 {
			i++
		}
		if i == 0 || i > 19 || i == len(l) || (l[i] != ' ' && l[i] != '\t') {
			return p.slowLine(l, line, o)
		}
		for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
			i++
		}
		body = l[i:]
	}
	a, b, w, nf, ok := fastFields(body)
	if !ok || nf < p.minF || nf > p.maxF {
		return p.slowLine(l, line, o)
	}
	return p.store(a, b, w, nf, line, o)
}

// fastFields parses `digits ws digits [ws token] [ws]`; ok is false for
// anything else (which the general path then explains).
func fastFields(l []byte) (a, b uint64, w []byte, nf int, ok bool) {
	i := 0
	for i < len(l) && l[i]-'0' <= 9 {
		a = a*10 + uint64(l[i]-'0')
		i++
	}
	if i == 0 || i > 19 || i == len(l) || (l[i] != ' ' && l[i] != '\t') {
		return
	}
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	s := i
	for i < len(l) && l[i]-'0' <= 9 {
		b = b*10 + uint64(l[i]-'0')
		i++
	}
	if i == s || i-s > 19 || (i < len(l) && !isSpace(l[i])) {
		return
	}
	nf = 2
	for i < len(l) && isSpace(l[i]) {
		i++
	}
	if i < len(l) {
		s = i
		for i < len(l) && !isSpace(l[i]) {
			i++
		}
		w, nf = l[s:i], 3
		for i < len(l) && isSpace(l[i]) {
			i++
		}
		if i < len(l) {
			return
		}
	}
	return a, b, w, nf, true
}

// slowLine tokenizes a line and explains what is wrong with it.
func (p *edgeParser) slowLine(l []byte, line int64, o *chunkOut) bool {
	var toks [5][]byte
	t, i := nextTok(l, 0)
	if len(t) == 0 || strings.IndexByte(p.comments, t[0]) >= 0 {
		o.commentBytes += int64(len(l)) + 1
		return true
	}
	if p.dimacs {
		switch {
		case len(t) == 1 && t[0] == 'a':
			t, i = nextTok(l, i)
		case len(t) == 1 && t[0] == 'n' && p.maxflow:
			return p.terminal(l, i, line, o)
		case len(t) == 1 && t[0] == 'p':
			o.fail(line, "a second problem line")
			return false
		default:
			o.fail(line, "unknown line type %s (want a, c%s)", quote(t), map[bool]string{true: ", n", false: ""}[p.maxflow])
			return false
		}
	}
	if p.leadID {
		if _, ok := parseU64(t); !ok {
			o.fail(line, "%s", strings.Replace(idError(t), "vertex id", "edge id", 1))
			return false
		}
		t, i = nextTok(l, i)
	}
	nt := 0
	for len(t) > 0 {
		if nt == len(toks) {
			nt += countToks(l[i:]) + 1
			break
		}
		toks[nt] = t
		nt++
		t, i = nextTok(l, i)
	}
	if nt < p.minF || nt > p.maxF {
		o.fail(line, "%s", p.fieldsMsg(nt))
		return false
	}
	var ids [2]uint64
	for k := 0; k < 2; k++ {
		v, ok := parseU64(toks[k])
		if !ok {
			o.fail(line, "%s", idError(toks[k]))
			return false
		}
		ids[k] = v
	}
	var w []byte
	if nt == 3 {
		w = toks[2]
	}
	return p.store(ids[0], ids[1], w, nt, line, o)
}

// store checks and records one edge with nf fields (w is the weight token
// when nf is 3).
func (p *edgeParser) store(a, b uint64, wt []byte, nf int, line int64, o *chunkOut) bool {
	if p.wmode == wOptional {
		hasW := int8(-1)
		if nf == 3 {
			hasW = 1
		}
		if o.weighted == 0 {
			o.weighted, o.firstEdge = hasW, line
		} else if o.weighted != hasW {
			if hasW == 1 {
				o.fail(line, "3 fields, but the edges before have 2 (give weights on every line or none)")
			} else {
				o.fail(line, "2 fields, but the edges before have 3 (give weights on every line or none)")
			}
			return false
		}
	}
	if nf == 3 {
		w, real, msg := p.wp.parse(wt)
		if msg != "" {
			o.fail(line, "%s", msg)
			return false
		}
		o.realSyntax = o.realSyntax || real
		if p.wp.scale > 0 && !p.wp.intOnly && !real {
			if v, ok := parseU64(wt); ok && v > 1<<24 && !o.bigInt {
				o.bigInt, o.bigIntLine = true, line
			}
		}
		o.w = append(o.w, w)
	}
	if p.relabel {
		o.src64 = append(o.src64, a)
		o.dst64 = append(o.dst64, b)
		o.minID = min(o.minID, a, b)
		o.maxID = max(o.maxID, a, b)
		return true
	}
	ids := [2]uint64{a, b}
	var m [2]uint32
	for k, v := range ids {
		switch {
		case p.index != nil:
			x, ok := p.index.lookup(v)
			if !ok {
				o.fail(line, "vertex %d is not listed in the vertex file %s", v, p.vname)
				return false
			}
			m[k] = x
		case p.n > 0:
			if v < p.base || v-p.base >= p.n {
				o.fail(line, "vertex id %d outside %d..%d", v, p.base, p.base+p.n-1)
				return false
			}
			m[k] = uint32(v - p.base)
		default:
			if v >= MaxVertices {
				o.fail(line, "vertex id %d over the limit %d", v, uint64(MaxVertices-1))
				return false
			}
			m[k] = uint32(v)
		}
	}
	o.src = append(o.src, m[0])
	o.dst = append(o.dst, m[1])
	o.maxID = max(o.maxID, uint64(m[0]), uint64(m[1]))
	return true
}

// terminal parses a max-flow `n ID s|t` line (the n already read).
func (p *edgeParser) terminal(l []byte, i int, line int64, o *chunkOut) bool {
	idt, i := nextTok(l, i)
	kind, i := nextTok(l, i)
	extra, _ := nextTok(l, i)
	if len(idt) == 0 || len(kind) == 0 || len(extra) > 0 {
		o.fail(line, "expected `n ID s` or `n ID t`")
		return false
	}
	v, ok := parseU64(idt)
	if !ok {
		o.fail(line, "%s", idError(idt))
		return false
	}
	if v < 1 || v > p.n {
		o.fail(line, "vertex id %d outside 1..%d", v, p.n)
		return false
	}
	switch string(kind) {
	case "s", "S":
		if o.sourceLine != 0 { // reported with global line numbers later
			if o.dupSourceLine == 0 {
				o.dupSourceLine = line
			}
			return true
		}
		o.source, o.sourceLine = v, line
	case "t", "T":
		if o.sinkLine != 0 {
			if o.dupSinkLine == 0 {
				o.dupSinkLine = line
			}
			return true
		}
		o.sink, o.sinkLine = v, line
	default:
		o.fail(line, "terminal kind %s is neither s nor t", quote(kind))
		return false
	}
	return true
}

// metisParser parses the vertex lines of a METIS file.
type metisParser struct {
	n        uint64
	vsize    bool // a vertex size precedes the weights
	ncon     int  // vertex weights per line
	eweights bool
	wp       weightParser
}

func (p *metisParser) parse(data []byte, o *chunkOut) {
	est := len(data)/6 + 16
	o.src = make([]uint32, 0, est)
	o.dst = make([]uint32, 0, est)
	if p.eweights {
		o.w = make([]float64, 0, est)
	}
	lc := lineCutter{data: data, limit: maxMETISLine}
	for l, ok := lc.next(o); ok; l, ok = lc.next(o) {
		line := lc.line
		t, i := nextTok(l, 0)
		if len(t) > 0 && t[0] == '%' {
			o.commentBytes += int64(len(l)) + 1
			o.comments = append(o.comments, line)
			continue
		}
		v := uint32(o.vlines) // local vertex index, made global afterwards
		o.vlines++
		skip := p.ncon
		if p.vsize {
			skip++
		}
		for k := 0; k < skip; k++ {
			if len(t) == 0 {
				o.fail(line, "expected %d vertex size/weight fields before the neighbours", skip)
				return
			}
			if _, ok := parseU64(t); !ok {
				o.fail(line, "invalid vertex size or weight %s", quote(t))
				return
			}
			t, i = nextTok(l, i)
		}
		had := false
		for len(t) > 0 {
			u, ok := parseU64(t)
			if !ok {
				o.fail(line, "%s", idError(t))
				return
			}
			if u < 1 || u > p.n {
				o.fail(line, "vertex id %d outside 1..%d", u, p.n)
				return
			}
			o.src = append(o.src, v)
			o.dst = append(o.dst, uint32(u-1))
			o.entries++
			had = true
			t, i = nextTok(l, i)
			if p.eweights {
				if len(t) == 0 {
					o.fail(line, "neighbour %d has no edge weight", u)
					return
				}
				w, _, msg := p.wp.parse(t)
				if msg != "" {
					o.fail(line, "%s", msg)
					return
				}
				o.w = append(o.w, w)
				t, i = nextTok(l, i)
			}
		}
		if had {
			o.lastNonBlank = o.vlines
		}
	}
}

// vertexParser reads a Graphalytics .v file: the first field of each line.
func vertexParser(data []byte, o *chunkOut) {
	o.src64 = make([]uint64, 0, len(data)/4+16)
	lc := lineCutter{data: data, limit: maxLine}
	for l, ok := lc.next(o); ok; l, ok = lc.next(o) {
		t, _ := nextTok(l, 0)
		if len(t) == 0 || t[0] == '#' {
			o.commentBytes += int64(len(l)) + 1
			continue
		}
		v, ok := parseU64(t)
		if !ok {
			o.fail(lc.line, "%s", idError(t))
			return
		}
		o.src64 = append(o.src64, v)
	}
}

// lineCutter walks a chunk's lines, numbering them from 1.
type lineCutter struct {
	data  []byte
	limit int   // longest line allowed, in bytes
	line  int64 // the number of the line next returned
}

// next returns the next line (without its newline); false at the end of
// the chunk, or at a line over the limit, which fails o.
func (c *lineCutter) next(o *chunkOut) ([]byte, bool) {
	if len(c.data) == 0 {
		return nil, false
	}
	c.line++
	l := c.data
	if i := bytes.IndexByte(l, '\n'); i >= 0 {
		l, c.data = l[:i], l[i+1:]
	} else {
		c.data = nil
	}
	if len(l) > c.limit {
		o.fail(c.line, "line longer than %d bytes", c.limit)
		return nil, false
	}
	return l, true
}
