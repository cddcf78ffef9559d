package graph

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/internal/par"
)

// Text inputs are parsed in parallel: one goroutine reads (and, for gzip,
// decompresses) the input into newline-aligned chunks, par.Workers()
// goroutines parse them, and the per-chunk results are stitched together in
// input order. Each chunk counts its lines so that errors carry exact line
// numbers: the first failing chunk's local line plus the lines of every
// chunk before it.

// chunkSize is the size of the pieces handed to parser goroutines (a
// variable so tests can make it tiny to exercise the chunk seams).
var chunkSize = 4 << 20

// maxLine is the longest line a text input may have: no format needs
// more (an edge is a few numbers), and a stream without newlines (a binary
// file, /dev/zero) must not grow a buffer without end. METIS lists a
// vertex's neighbours on one line, so it allows maxMETISLine.
const (
	maxLine      = 1 << 20
	maxMETISLine = 1 << 30
)

// chunker cuts a reader into chunks ending at a newline (the last may not).
type chunker struct {
	r       io.Reader
	carry   []byte
	eof     bool
	bytes   int64 // bytes read so far
	maxLine int   // longest line allowed; 0 = maxLine
}

// longLineError is a line longer than the limit; the reader of the chunks
// knows its line number.
type longLineError struct{ limit int }

func (e *longLineError) Error() string { return fmt.Sprintf("line longer than %d bytes", e.limit) }

// binaryError is a NUL byte: text graph files have none, so the input is
// binary (a .gbx, a compressed file of another kind, /dev/zero).
type binaryError struct{ offset int64 }

func (e *binaryError) Error() string {
	return fmt.Sprintf("binary data (a NUL byte at offset %d): not a text graph file (a .gbx needs LoadOptions.Format bin, gearbox's --format bin)", e.offset)
}

func (c *chunker) limit() int {
	if c.maxLine > 0 {
		return c.maxLine
	}
	return maxLine
}

// next returns the next chunk, or nil at the end of the input.
func (c *chunker) next() ([]byte, error) {
	if c.eof {
		return nil, nil
	}
	buf := make([]byte, len(c.carry), max(chunkSize, 2*len(c.carry)))
	copy(buf, c.carry)
	c.carry = nil
	scan := 0 // buf[:scan] has no newline
	for {
		n, err := fill(c.r, buf[len(buf):cap(buf)])
		if i := bytes.IndexByte(buf[len(buf):len(buf)+n], 0); i >= 0 {
			return nil, &binaryError{offset: c.bytes + int64(i)}
		}
		buf = buf[:len(buf)+n]
		c.bytes += int64(n)
		if err == io.EOF {
			c.eof = true
			if len(buf) == 0 {
				return nil, nil
			}
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
		if i := bytes.LastIndexByte(buf[scan:], '\n'); i >= 0 {
			i += scan
			c.carry = append([]byte(nil), buf[i+1:]...)
			return buf[:i+1], nil
		}
		// One line longer than the buffer: grow and read on, up to the limit.
		if len(buf) > c.limit() {
			return nil, &longLineError{limit: c.limit()}
		}
		scan = len(buf)
		buf = slices.Grow(buf, len(buf))
	}
}

// fill reads until b is full or the reader fails. Unlike io.ReadFull it
// reports only the reader's own io.EOF as the end of the input: a
// truncated gzip stream's io.ErrUnexpectedEOF is an error, not a short last
// chunk (which would load a smaller graph without a word).
func fill(r io.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		k, err := r.Read(b[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// headerReader reads the leading lines of an input one by one, before the
// parallel parse takes over the rest.
type headerReader struct {
	name  string
	ck    *chunker
	cur   []byte
	lines int64 // lines consumed
	eof   bool
	bytes int64 // bytes of the lines consumed
}

// peek returns the next line (without its newline); ok is false at the end.
func (h *headerReader) peek() (line []byte, ok bool, err error) {
	for len(h.cur) == 0 {
		if h.eof {
			return nil, false, nil
		}
		c, err := h.ck.next()
		if err != nil {
			if le := (*longLineError)(nil); errors.As(err, &le) {
				return nil, false, h.errAt("%v", le)
			}
			return nil, false, err
		}
		if c == nil {
			h.eof = true
			return nil, false, nil
		}
		h.cur = c
	}
	l := h.cur
	if i := bytes.IndexByte(h.cur, '\n'); i >= 0 {
		l = h.cur[:i]
	}
	if len(l) > h.ck.limit() {
		return nil, false, h.errAt("line longer than %d bytes", h.ck.limit())
	}
	return l, true, nil
}

// skip consumes the line peek returned.
func (h *headerReader) skip() {
	if i := bytes.IndexByte(h.cur, '\n'); i >= 0 {
		h.bytes += int64(i) + 1
		h.cur = h.cur[i+1:]
	} else {
		h.bytes += int64(len(h.cur))
		h.cur = nil
	}
	h.lines++
}

// errAt makes an error at the line peek returned.
func (h *headerReader) errAt(format string, args ...any) error {
	return &parseError{file: h.name, line: h.lines + 1, msg: fmt.Sprintf(format, args...)}
}

// chunkOut is what parsing one chunk produced.
type chunkOut struct {
	idx     int
	lines   int64 // newlines in the chunk
	base    int64 // lines of the input before the chunk (set after parsing)
	errLine int64 // local 1-based line of the first error; 0 = none
	err     string

	src, dst     []uint32 // mapped endpoints
	src64, dst64 []uint64 // raw ids, for formats relabelled afterwards
	w            []float64
	realSyntax   bool   // some weight was written as a real number
	bigInt       bool   // with a weight scale: an integer weight above 2^24 (float32 rounds it)
	bigIntLine   int64  // local line of the first
	minID, maxID uint64 // over raw or mapped ids
	weighted     int8   // optional weights: 0 no edge yet, 1 with, -1 without
	firstEdge    int64  // local line of the first edge
	commentBytes int64  // bytes of comment and blank lines (not data)

	// METIS
	vlines       int64   // vertex lines
	lastNonBlank int64   // 1-based index among vlines of the last with neighbours
	entries      int64   // neighbour entries
	comments     []int64 // local lines of comments between vertex lines, to find a vertex's line

	// DIMACS max
	source, sink         uint64
	sourceLine, sinkLine int64
	dupSourceLine        int64 // a second source within the chunk
	dupSinkLine          int64
}

func (o *chunkOut) fail(line int64, format string, args ...any) {
	o.errLine = line
	o.err = fmt.Sprintf(format, args...)
}

// edges returns the number of parsed edges.
func (o *chunkOut) edges() int {
	if o.src64 != nil {
		return len(o.src64)
	}
	return len(o.src)
}

// parseChunks parses everything after the header in parallel. first is the
// unread rest of the chunk the header ended in; headerLines the lines before
// it. The results come back in input order with their base line set.
func parseChunks(name string, ck *chunker, first []byte, headerLines int64, parse func(data []byte, o *chunkOut)) ([]*chunkOut, error) {
	var minErr atomic.Int64
	minErr.Store(math.MaxInt64)
	var readErr error
	type job struct {
		o    *chunkOut
		data []byte
	}
	jobs := make(chan job, 2*par.Workers())
	go func() {
		defer close(jobs)
		idx := 0
		if len(first) > 0 {
			jobs <- job{&chunkOut{idx: idx}, first}
			idx++
		}
		for minErr.Load() == math.MaxInt64 {
			c, err := ck.next()
			if err != nil {
				readErr = err
				return
			}
			if c == nil {
				return
			}
			jobs <- job{&chunkOut{idx: idx}, c}
			idx++
		}
	}()
	var mu sync.Mutex
	var outs []*chunkOut
	var wg sync.WaitGroup
	for range par.Workers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if int64(j.o.idx) > minErr.Load() {
					continue // an earlier chunk failed; this one cannot matter
				}
				j.o.lines = int64(bytes.Count(j.data, []byte{'\n'}))
				parse(j.data, j.o)
				if j.o.errLine > 0 {
					for {
						cur := minErr.Load()
						if int64(j.o.idx) >= cur || minErr.CompareAndSwap(cur, int64(j.o.idx)) {
							break
						}
					}
				}
				mu.Lock()
				outs = append(outs, j.o)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	slices.SortFunc(outs, func(a, b *chunkOut) int { return a.idx - b.idx })
	base := headerLines
	for i, o := range outs {
		if o.idx != i {
			break // chunks after a failure may be missing; the failure comes first
		}
		o.base = base
		if o.errLine > 0 {
			return nil, &parseError{file: name, line: base + o.errLine, msg: o.err}
		}
		base += o.lines
	}
	if readErr != nil {
		if le := (*longLineError)(nil); errors.As(readErr, &le) {
			return nil, &parseError{file: name, line: base + 1, msg: le.Error()}
		}
		return nil, readError(name, readErr)
	}
	return outs, nil
}

func readError(name string, err error) error {
	if be := (*binaryError)(nil); errors.As(err, &be) {
		return &parseError{file: name, msg: be.Error()}
	}
	if errors.Is(err, errTruncatedGzip) {
		return &parseError{file: name, msg: "input ends unexpectedly (truncated gzip stream)"}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &parseError{file: name, msg: "input ends unexpectedly (truncated file?)"}
	}
	var pe *parseError
	if errors.As(err, &pe) {
		return err
	}
	return &parseError{file: name, msg: fmt.Sprintf("reading: %v", err)}
}
