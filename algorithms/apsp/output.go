package apsp

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/gearbox-graph/gearbox/graph"
)

// Output formats of a streamed result (what a --out of gearbox run apsp
// writes).
const (
	// FormatBinary: the n x n matrix row-major, uint32 little-endian,
	// Unreachable = 0xFFFFFFFF, nothing before it. Row and column i are
	// the graph's i-th vertex (file id g.IDs().External(i)).
	FormatBinary = "binary"
	// FormatText: one "src dst dist" line per reachable pair, in file ids.
	FormatText = "text"
)

// ErrNoSpace is wrapped when an output cannot fit where it is asked to go.
var ErrNoSpace = errors.New("apsp output does not fit")

// OutputBytes returns the size of the binary output (exact), or an upper
// bound of the text output (every pair reachable, at the widest ids and
// distances), for g.
func OutputBytes(g *graph.Graph, format string) (int64, error) {
	n := int64(g.NumVertices())
	switch format {
	case FormatBinary:
		return n * n * 4, nil
	case FormatText:
		var id int
		if n > 0 {
			ids := g.IDs()
			for v := range uint32(n) {
				id = max(id, len(strconv.FormatUint(ids.External(v), 10)))
			}
		}
		// "src dst dist\n", dist at most 10 digits.
		return n * n * int64(2*id+10+3), nil
	}
	return 0, fmt.Errorf("apsp: unknown output format %q (valid: %s, %s)", format, FormatBinary, FormatText)
}

// CheckSpace refuses, with the sizes, an output of need bytes that the
// file system of path (the file's directory) does not have free. Where free
// space cannot be read (other systems), it says nothing.
func CheckSpace(path string, need int64) error {
	free, ok, err := freeBytes(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("apsp: free space of %s: %w", filepath.Dir(path), err)
	}
	if ok && need > free {
		return fmt.Errorf("apsp: %w: %s needs %d bytes, its file system has %d free", ErrNoSpace, path, need, free)
	}
	return nil
}

// Writer streams rows to w in a format; Close flushes. Its Rows is the
// RowFunc to hand to Run.
type Writer struct {
	bw     *bufio.Writer
	g      *graph.Graph
	format string
	buf    []byte
}

// NewWriter returns a Writer of format (FormatBinary or FormatText) on w.
func NewWriter(w io.Writer, g *graph.Graph, format string) (*Writer, error) {
	if format != FormatBinary && format != FormatText {
		return nil, fmt.Errorf("apsp: unknown output format %q (valid: %s, %s)", format, FormatBinary, FormatText)
	}
	return &Writer{bw: bufio.NewWriterSize(w, 1<<20), g: g, format: format}, nil
}

// Rows writes one row (a RowFunc).
func (w *Writer) Rows(src uint32, dist []uint32) error {
	b := w.buf[:0]
	if w.format == FormatBinary {
		for _, d := range dist {
			b = binary.LittleEndian.AppendUint32(b, d)
		}
	} else {
		ids := w.g.IDs()
		s := ids.External(src)
		for v, d := range dist {
			if d == Unreachable {
				continue
			}
			b = strconv.AppendUint(b, s, 10)
			b = append(b, ' ')
			b = strconv.AppendUint(b, ids.External(uint32(v)), 10)
			b = append(b, ' ')
			b = strconv.AppendUint(b, uint64(d), 10)
			b = append(b, '\n')
		}
	}
	w.buf = b
	_, err := w.bw.Write(b)
	return err
}

// Close flushes what is buffered (it does not close the underlying writer).
func (w *Writer) Close() error { return w.bw.Flush() }
