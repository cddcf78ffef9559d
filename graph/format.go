package graph

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gearbox-graph/gearbox/internal/atomicfile"
	"github.com/klauspost/compress/gzip"
)

// Format names a graph file format. Load and Read understand these formats (Format names in brackets):
//
//   - [mtx] MatrixMarket coordinate files: pattern, integer or real;
//     general (directed) or symmetric (undirected, one triangle stored).
//     Ids are 1-based: internal id i is file id i+1 (OffsetIDs(1, n)).
//   - [snap] SNAP edge lists (.txt, .edges, .snap): `#` comments, `u v` or
//     `u v w` per line. Ids are arbitrary non-negative integers and need not
//     be contiguous; they are relabelled densely in sorted order: internal
//     id i is the i-th smallest original id that occurs in the file (kept as
//     a SortedIDs map, so output and --source use the original ids).
//   - [metis] METIS / DIMACS10 .graph adjacency files (undirected, 1-based;
//     fmt 1 edge weights, 10 vertex weights, 100 vertex sizes are
//     understood; vertex weights and sizes are skipped). The lists must be
//     symmetric (u lists v iff v lists u, with the same weight) and hold
//     twice the header's edge count.
//   - [graphalytics] LDBC Graphalytics: `x.e` (`src dst [weight]`) with the
//     vertex list `x.v` (or `x.v.gz`) beside it; ids arbitrary, relabelled in
//     sorted order like SNAP, isolated vertices of the .v file included.
//     Without a .v file (and always for Read) the vertices are those that
//     occur in edges.
//   - [gr] DIMACS 9th challenge shortest-path files (directed, integer
//     weights, 1-based).
//   - [max] DIMACS max-flow files (directed, capacities as IntWeights,
//     source and sink recorded with SetTerminals).
//   - [el], [wel] GAP benchmark edge lists: `u v` / `u v w` (integer w),
//     0-based ids kept as they are (n = largest id + 1).
//   - [cedge] the road networks of Li et al., "Real Datasets for Spatial
//     Databases" (SSTD 2005; cal.cedge, OL, TG, SF, NA): `EdgeID Start End
//     Length` lines, undirected, 0-based ids kept as they are (n = largest
//     id + 1); the edge id must be a non-negative integer and is otherwise
//     ignored, and the lengths are weights (real unless all are written as
//     integers).
//   - [bin] gearbox's binary CSR (.gbx): the graph's arrays with a checksum,
//     read at disk speed.
//
// Any of them may be gzip-compressed (.gz, or detected by the gzip magic
// bytes). A file is read as a directed graph unless its format says it is
// symmetric (mtx symmetric, METIS, cedge) or LoadOptions.Undirected is set.
// Self-loops and duplicate arcs are dropped (the duplicate of minimum weight
// is kept), as graph.Build does by default.
//
// Weights: integer formats (wel, gr, max, mtx integer, METIS) give
// IntWeights. Formats whose weights may be real (mtx real, SNAP and
// Graphalytics third columns, cedge lengths) keep them as float32 (RealWeights) unless
// LoadOptions.WeightScale > 0, which turns them into IntWeights
// round(w*scale); SNAP, Graphalytics and cedge files whose weights are all
// written as integers give IntWeights. Negative, non-finite or out-of-range weights
// are errors naming the file and line.
type Format string

// The formats Load, Read, Save and Write know.
const (
	FormatMTX          Format = "mtx"
	FormatSNAP         Format = "snap"
	FormatMETIS        Format = "metis"
	FormatGraphalytics Format = "graphalytics"
	FormatGR           Format = "gr"
	FormatMAX          Format = "max"
	FormatEL           Format = "el"
	FormatWEL          Format = "wel"
	FormatCEdge        Format = "cedge"
	FormatBin          Format = "bin"
	// FormatEGR is the ECL suite's binary CSR, written only (for ECL-CC
	// and ECL-MST side by side with gearbox on the same graph).
	FormatEGR Format = "egr"
)

var allFormats = []Format{FormatMTX, FormatSNAP, FormatMETIS, FormatGraphalytics, FormatGR, FormatMAX, FormatEL, FormatWEL, FormatCEdge, FormatBin, FormatEGR}

// writable lists the formats Save and Write produce.
var writable = []Format{FormatBin, FormatEL, FormatWEL, FormatMTX, FormatGR, FormatMAX, FormatSNAP, FormatEGR}

// ErrFormat is wrapped by every error about a file's contents or format.
var ErrFormat = errors.New("graph file format error")

// WritableFormats returns the formats Save and Write produce (the others
// are read only).
func WritableFormats() []Format { return append([]Format(nil), writable...) }

// Formats returns every format name, for help text and error messages.
func Formats() []Format { return append([]Format(nil), allFormats...) }

func formatList(fs []Format) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

// ParseFormat checks a format name (case-insensitive).
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	for _, g := range allFormats {
		if f == g {
			return f, nil
		}
	}
	return "", fmt.Errorf("%w: unknown format %q (valid: %s)", ErrFormat, s, formatList(allFormats))
}

var extFormats = map[string]Format{
	".mtx": FormatMTX, ".txt": FormatSNAP, ".edges": FormatSNAP, ".snap": FormatSNAP,
	".graph": FormatMETIS, ".metis": FormatMETIS, ".e": FormatGraphalytics,
	".gr": FormatGR, ".max": FormatMAX, ".el": FormatEL, ".wel": FormatWEL, ".cedge": FormatCEdge, ".gbx": FormatBin,
	".egr": FormatEGR,
}

// DetectFormat picks a format from a file name's extension, looking through
// a trailing .gz.
func DetectFormat(path string) (Format, error) {
	base := filepath.Base(path)
	if strings.EqualFold(filepath.Ext(base), ".gz") {
		base = base[:len(base)-3]
	}
	ext := strings.ToLower(filepath.Ext(base))
	if f, ok := extFormats[ext]; ok {
		return f, nil
	}
	if ext == "" {
		return "", fmt.Errorf("%w: cannot tell the format of %q: it has no extension (set LoadOptions.Format, gearbox's --format, to one of: %s)", ErrFormat, path, formatList(allFormats))
	}
	return "", fmt.Errorf("%w: cannot tell the format of %q from its extension %q (set LoadOptions.Format, gearbox's --format, to one of: %s)", ErrFormat, path, ext, formatList(allFormats))
}

// LoadOptions controls Load and Read.
type LoadOptions struct {
	// Format of the input; "" detects it from the file name.
	Format Format
	// Undirected symmetrizes any input.
	Undirected bool
	// WeightScale > 0 turns real weights into IntWeights round(w*scale);
	// 0 keeps them as float32 (RealWeights).
	WeightScale float64
	// Progress, when non-nil, is called after each read of the input
	// file with the bytes read so far (compressed bytes for a .gz) and
	// the file's size (-1 when unknown, as for a pipe), and once more at
	// the end. It runs on the loading goroutine: keep it cheap (gearbox's
	// CLI draws a progress bar from it for inputs over 32 MB).
	Progress func(done, total int64)
	// KeepDuplicates keeps parallel arcs of text inputs (by default only
	// the one of minimum weight survives): max-flow sums their capacities.
	KeepDuplicates bool
}

// Load reads the graph file at path. Gzip-compressed files are read
// transparently. For Graphalytics .e files the vertex file beside it (.v or
// .v.gz) is read too when present.
func Load(path string, opt LoadOptions) (*Graph, error) {
	var err error
	if opt.Format, err = resolveFormat(opt.Format, path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a graph file", path)
	}
	in := &input{name: path, r: f, size: st.Size()}
	if !st.Mode().IsRegular() { // a pipe, a device: its size says nothing; read it as a stream
		in.size = -1
	}
	if opt.Format == FormatGraphalytics {
		in.vpath = vertexFileFor(path)
	}
	return read(in, opt)
}

// resolveFormat returns the format f names (in any case), or, when f is
// "", the one name's extension says.
func resolveFormat(f Format, name string) (Format, error) {
	if f == "" {
		return DetectFormat(name)
	}
	return ParseFormat(string(f))
}

// InputFiles returns the files Load(path, opt) reads: path, and for
// Graphalytics the vertex file beside it when there is one. Commands that
// write files use it to refuse to overwrite their input.
func InputFiles(path string, opt LoadOptions) []string {
	f := opt.Format
	if f == "" {
		f, _ = DetectFormat(path)
	}
	if Format(strings.ToLower(string(f))) == FormatGraphalytics {
		if v := vertexFileFor(path); v != "" {
			return []string{path, v}
		}
	}
	return []string{path}
}

// vertexFileFor returns the Graphalytics vertex file beside an edge file, or
// "" when there is none.
func vertexFileFor(path string) string {
	p := path
	if strings.HasSuffix(strings.ToLower(p), ".gz") {
		p = p[:len(p)-3]
	}
	if !strings.HasSuffix(strings.ToLower(p), ".e") {
		return ""
	}
	stem := p[:len(p)-2]
	for _, c := range []string{stem + ".v", stem + ".v.gz"} {
		if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() {
			return c
		}
	}
	return ""
}

// Read reads a graph from r; name is used for format detection (when
// opt.Format is "") and in error messages. Gzip input is detected by its
// magic bytes. Read cannot see a Graphalytics .v file, so the vertices are
// those that occur in edges.
func Read(r io.Reader, name string, opt LoadOptions) (*Graph, error) {
	if r == nil {
		return nil, fmt.Errorf("%w: Read of a nil reader (%s)", ErrNil, name)
	}
	var err error
	if opt.Format, err = resolveFormat(opt.Format, name); err != nil {
		return nil, err
	}
	in := &input{name: name, r: r, size: -1}
	switch x := r.(type) {
	case interface{ Len() int }: // bytes.Reader, strings.Reader, bytes.Buffer: what is left to read
		in.size = int64(x.Len())
	case *os.File:
		if st, err := x.Stat(); err == nil && st.Mode().IsRegular() {
			if pos, err := x.Seek(0, io.SeekCurrent); err == nil {
				in.size = st.Size() - pos
			}
		}
	}
	return read(in, opt)
}

// input is one source of bytes and what is known about it.
type input struct {
	name  string
	r     io.Reader
	size  int64  // bytes on disk, -1 if unknown
	vpath string // Graphalytics vertex file
}

// open wraps the input for reading: progress counting on the raw bytes,
// then gzip when the magic bytes say so. It reports whether the stream is
// compressed.
func (in *input) open(opt LoadOptions) (r io.Reader, compressed bool, done func(), err error) {
	r = in.r
	done = func() {}
	if opt.Progress != nil {
		r, done = withProgress(r, in.size, opt.Progress)
	}
	br := bufio.NewReaderSize(r, 1<<16)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			done()
			if err == io.ErrUnexpectedEOF || err == io.EOF { // cut inside the gzip header
				return nil, false, nil, readError(in.name, errTruncatedGzip)
			}
			return nil, false, nil, fmt.Errorf("%w: %s: bad gzip stream: %v", ErrFormat, in.name, err)
		}
		return gzipInput{zr}, true, done, nil
	}
	return br, false, done, nil
}

// errTruncatedGzip is what a gzip stream that stops before its end gives;
// it wraps io.ErrUnexpectedEOF so that readers checking for that still see it.
var errTruncatedGzip = fmt.Errorf("truncated gzip stream: %w", io.ErrUnexpectedEOF)

// gzipInput tells a gzip stream cut short from the end of the input.
type gzipInput struct{ zr *gzip.Reader }

func (g gzipInput) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	if err == io.ErrUnexpectedEOF {
		err = errTruncatedGzip
	}
	return n, err
}

func read(in *input, opt LoadOptions) (*Graph, error) {
	if opt.WeightScale < 0 || opt.WeightScale != opt.WeightScale {
		return nil, fmt.Errorf("%w: weight scale %v must be >= 0", ErrWeightScale, opt.WeightScale)
	}
	var g *Graph
	var err error
	switch opt.Format {
	case FormatBin:
		g, err = readBinary(in, opt)
	case FormatEGR:
		return nil, fmt.Errorf("%w: %s: format egr is written, not read, by gearbox (it is the ECL suite's input)", ErrFormat, in.name)
	default:
		g, err = readText(in, opt)
	}
	if err == nil && opt.WeightScale > 0 && g.wkind == Unweighted {
		return nil, fmt.Errorf("%w: %s has no weights: a weight scale applies to weighted graphs only", ErrWeightScale, in.name)
	}
	return g, err
}

// ErrWeightScale reports a weight scale that cannot apply: out of range,
// or given for a graph without weights.
var ErrWeightScale = errors.New("weight scale does not apply")

// Save writes g to path in format f ("" = by the path's extension); a
// path ending in .gz is gzip-compressed.
//
// A new or existing regular file (also one reached through symlinks) is
// written to a temporary file beside it and renamed over it on success, so
// a failed Save leaves the old file as it was and the links in place.
// Anything else (a device, a pipe) is written in place; Save never removes
// what it did not create.
func Save(path string, g *Graph, f Format) error {
	if g == nil {
		return fmt.Errorf("%w: Save of a nil graph to %s", ErrNil, path)
	}
	f, err := OutputFormat(path, f)
	if err != nil {
		return err
	}
	gz := strings.HasSuffix(strings.ToLower(path), ".gz")
	write := func(file io.Writer) error {
		var w io.Writer = file
		var zw *gzip.Writer
		if gz {
			zw = gzip.NewWriter(file)
			w = zw
		}
		err := Write(w, g, f)
		if zw != nil {
			if cerr := zw.Close(); err == nil {
				err = cerr
			}
		}
		return err
	}
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// OutputFormat returns the format Save(path, g, f) writes (f, or the one
// path's extension names when f is ""), or why it cannot write it, so that
// commands can refuse before they read a graph.
func OutputFormat(path string, f Format) (Format, error) {
	if f == "" {
		d, err := DetectFormat(path)
		if err != nil {
			return "", fmt.Errorf("%w: cannot tell the output format of %q from its name (writable: %s)", ErrFormat, path, formatList(writable))
		}
		f = d
	}
	if err := checkWritable(f); err != nil {
		return "", err
	}
	return Format(strings.ToLower(string(f))), nil
}

func checkWritable(f Format) error {
	f = Format(strings.ToLower(string(f)))
	for _, g := range writable {
		if f == g {
			return nil
		}
	}
	if _, err := ParseFormat(string(f)); err != nil {
		return err
	}
	return fmt.Errorf("%w: cannot write format %s (writable: %s)", ErrFormat, f, formatList(writable))
}

// Write writes g to w in format f:
//
//   - bin keeps everything: weights, direction, id map, terminals.
//   - el / wel write internal 0-based ids, one line per arc (both directions
//     of an undirected graph), so GAP reads the same graph; wel needs
//     IntWeights.
//   - mtx writes 1-based internal ids: `symmetric` with the lower triangle
//     for undirected graphs, `general` otherwise; `pattern`, `integer` or
//     `real` by weight kind.
//   - gr writes 1-based arcs (`p sp`); it needs IntWeights.
//   - max writes 1-based arcs (`p max`) and the terminals' `n` lines; it
//     needs IntWeights and terminals.
//   - snap writes the original (external) ids, tab separated, with a
//     `# Nodes: N Edges: M` header; real weights keep a decimal point so
//     they read back as real.
//   - egr writes the ECL suite's binary CSR (int32 sizes, offsets,
//     neighbours and integer weights), internal ids, both arcs of an
//     undirected edge.
//
// Edge-list formats (el, wel, snap) cannot express isolated vertices with
// no larger-numbered neighbour: reading them back may give fewer vertices.
func Write(w io.Writer, g *Graph, f Format) error {
	if g == nil || w == nil {
		return fmt.Errorf("%w: Write needs a graph and a writer", ErrNil)
	}
	if err := checkWritable(f); err != nil {
		return err
	}
	f = Format(strings.ToLower(string(f)))
	switch f {
	case FormatBin:
		return writeBinary(w, g)
	case FormatEGR:
		return writeEGR(w, g)
	}
	return writeText(w, g, f)
}

// parseError is a problem at one line of an input file.
type parseError struct {
	file string
	line int64 // 0 = the file as a whole
	msg  string
}

func (e *parseError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.msg)
	}
	return fmt.Sprintf("%s: %s", e.file, e.msg)
}

func (e *parseError) Unwrap() error { return ErrFormat }

func fileErr(file, format string, args ...any) error {
	return &parseError{file: file, msg: fmt.Sprintf(format, args...)}
}
