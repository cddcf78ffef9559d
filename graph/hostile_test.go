package graph

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Class 1 of issue 35: memory is bounded by the input.

// A line without a newline (or binary input) must not grow a buffer
// without end: every text format stops at the line cap or at the first
// NUL byte, with the file and line.
func TestLineCapAndBinaryInput(t *testing.T) {
	long := bytes.Repeat([]byte("1"), 3*maxLine)
	spaces := append(bytes.Repeat([]byte(" "), maxLine+1), "\n1 2\n"...)
	for _, f := range []Format{FormatEL, FormatWEL, FormatSNAP, FormatMTX, FormatGR, FormatMAX, FormatCEdge, FormatGraphalytics} {
		for _, body := range [][]byte{long, spaces} {
			_, err := Read(bytes.NewReader(body), "x", LoadOptions{Format: f})
			if want := fmt.Sprintf("x:1: line longer than %d bytes", maxLine); err == nil || !errors.Is(err, ErrFormat) || err.Error() != want {
				t.Errorf("%s, %d-byte line: got %v, want %q", f, len(body), err, want)
			}
		}
	}
	for _, f := range Formats() {
		if f == FormatEGR { // written, not read
			continue
		}
		zeros := make([]byte, 1<<16)
		if _, err := Read(bytes.NewReader(zeros), "zero", LoadOptions{Format: f}); err == nil || !strings.Contains(err.Error(), "zero: ") {
			t.Errorf("%s, NUL bytes: got %v", f, err)
		} else if f != FormatBin && !strings.Contains(err.Error(), "zero: binary data (a NUL byte at offset 0)") {
			t.Errorf("%s, NUL bytes: got %v", f, err)
		}
	}
	_, err := Read(bytes.NewReader(append([]byte("1 2\n"), long...)), "x.el", LoadOptions{})
	if want := fmt.Sprintf("x.el:2: line longer than %d bytes", maxLine); err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// padded returns a gzip stream of many comment lines (compressing to
// little) followed by body.
func padded(t testing.TB, comment string, head, body string) []byte {
	return gzipped(func(w io.Writer) {
		io.WriteString(w, head)
		line := []byte(comment + strings.Repeat("x", 1000) + "\n")
		for range 40000 { // 40 MB of comments
			w.Write(line)
		}
		io.WriteString(w, body)
	})
}

// A vertex count from a header, or an .el's largest id, is judged by the
// data lines, not by the comments a file pads itself with.
func TestHeaderCountsAgainstDataBytes(t *testing.T) {
	cases := []struct {
		f          Format
		head, body string
	}{
		{FormatEL, "", "1050000000 0\n"},
		{FormatMTX, "%%MatrixMarket matrix coordinate pattern general\n", "1050000000 1050000000 1\n1 2\n"},
		{FormatGR, "", "p sp 1050000000 1\na 1 2 1\n"},
		{FormatSNAP, "", "1050000000 0\n"}, // relabelled: fine, 2 vertices
	}
	comments := map[Format]string{FormatEL: "#", FormatMTX: "%", FormatGR: "c ", FormatSNAP: "#"}
	for _, c := range cases {
		data := padded(t, comments[c.f], c.head, c.body)
		if len(data) > 200<<10 {
			t.Fatalf("padding compresses to %d bytes", len(data))
		}
		g, err := Read(bytes.NewReader(data), "pad.gz", LoadOptions{Format: c.f})
		if c.f == FormatSNAP {
			if err != nil || g.NumVertices() != 2 {
				t.Errorf("snap relabels: got %v", err)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "vertices, implausible for") || !strings.Contains(err.Error(), "bytes of data lines") {
			t.Errorf("%s: got %v", c.f, err)
		}
	}
}

// The memory-bounded test: a hostile file under a small address-space
// limit (ulimit -v) is refused with a clear error, not an out-of-memory
// crash. The test re-runs itself in a child that lowers RLIMIT_AS first.
func TestHostileFileUnderMemoryLimit(t *testing.T) {
	if path := os.Getenv("GEARBOX_MEMLIMIT_CHILD"); path != "" {
		lim := &syscall.Rlimit{Cur: 3 << 30, Max: 3 << 30}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, lim); err != nil {
			t.Fatalf("setrlimit: %v", err)
		}
		_, err := Load(path, LoadOptions{Format: FormatGR})
		fmt.Printf("RESULT: %v\n", err)
		return
	}
	if testing.Short() {
		t.Skip("re-runs the test binary")
	}
	// 400M vertices, plausible for its 25 MB of data lines, but its CSR
	// offsets alone need 6.4 GB: more than the 3 GB the child may map.
	const arcs = 3 << 20
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "p sp 400000000 %d\n", arcs)
	for range arcs {
		buf.WriteString("a 1 2 1\n")
	}
	path := filepath.Join(t.TempDir(), "big.gr")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileFileUnderMemoryLimit$", "-test.v")
	cmd.Env = append(os.Environ(), "GEARBOX_MEMLIMIT_CHILD="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child crashed under a 3 GB limit (%v):\n%s", err, lastLines(out, 15))
	}
	// The limit is RLIMIT_AS unless the machine's cgroup is lower still.
	if !bytes.Contains(out, []byte("RESULT: ")) || !bytes.Contains(out, []byte("not enough memory")) || !bytes.Contains(out, []byte("needs about")) || !bytes.Contains(out, []byte(" leaves ")) {
		t.Fatalf("want a memory error naming the limit and the sizes, got:\n%s", lastLines(out, 15))
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "RESULT: ") {
			t.Log(l)
		}
	}
}

func lastLines(b []byte, n int) string {
	l := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}

// Class 3: one weight rule for every format.
func TestOneWeightRule(t *testing.T) {
	// --weight-scale applies to every weighted format, text or .gbx, with
	// the same result: integers exactly, reals as their float32's decimal.
	for _, name := range []string{"tiny.wel", "tiny.gr", "tiny.max", "tiny.graph", "tiny.mtx", "tiny.txt", "tiny.cedge", "tiny.e"} {
		path := filepath.Join("testdata", name)
		plain, err := Load(path, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if plain.WeightKind() == Unweighted {
			continue
		}
		scaled, err := Load(path, LoadOptions{WeightScale: 10})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, plain, FormatBin); err != nil {
			t.Fatal(err)
		}
		fromBin, err := Read(bytes.NewReader(buf.Bytes()), name+".gbx", LoadOptions{Format: FormatBin, WeightScale: 10})
		if err != nil {
			t.Fatalf("%s.gbx: %v", name, err)
		}
		for i, w := range plain.Weights() {
			want := uint32(10 * w)
			if plain.WeightKind() == RealWeights {
				want = uint32(float32Decimal(float32frombits(w))*10 + 0.5)
			}
			if scaled.Weights()[i] != want || fromBin.Weights()[i] != want {
				t.Errorf("%s: weight %d scaled by 10: text %d, .gbx %d, want %d", name, i, scaled.Weights()[i], fromBin.Weights()[i], want)
				break
			}
		}
	}
	// The example: 0.35 x 10 is 4 from the text and from its .gbx.
	g, err := Read(strings.NewReader("0 1 0.35\n"), "w.txt", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	Write(&buf, g, FormatBin)
	for _, src := range []struct {
		name string
		load func() (*Graph, error)
	}{
		{"text", func() (*Graph, error) {
			return Read(strings.NewReader("0 1 0.35\n"), "w.txt", LoadOptions{WeightScale: 10})
		}},
		{"gbx", func() (*Graph, error) {
			return Read(bytes.NewReader(buf.Bytes()), "w.gbx", LoadOptions{Format: FormatBin, WeightScale: 10})
		}},
	} {
		h, err := src.load()
		if err != nil || h.Weights()[0] != 4 {
			t.Errorf("%s: 0.35 x 10 = %v (%v), want 4", src.name, h.Weights(), err)
		}
	}
	// The largest float32 weight survives a round trip through text.
	g, err = Read(strings.NewReader(fmt.Sprintf("0 1 %g\n", float32(3.4028234663852886e38))), "max.txt", LoadOptions{})
	if err != nil {
		t.Fatalf("the largest float32: %v", err)
	}
	for _, f := range []Format{FormatSNAP, FormatMTX} {
		var b bytes.Buffer
		if err := Write(&b, g, f); err != nil {
			t.Fatal(err)
		}
		h, err := Read(&b, "back", LoadOptions{Format: f})
		if err != nil || h.Weights()[0] != g.Weights()[0] {
			t.Errorf("%s round trip of the largest float32: %v", f, err)
		}
	}
	// Out of float range is refused like 1e-50, with the same words; Go
	// syntax is not a weight.
	for tok, want := range map[string]string{
		"1e-50": "too small for a float32", "1e-400": "too small for a float32",
		"-1e-50": "negative weight", "-1e-400": "negative weight", "1e400": "over the float32 limit",
		"0x1p3": "invalid weight", "1_000": "invalid weight", "Inf": "not a finite number", "NaN": "not a finite number", "0x10": "invalid weight",
	} {
		for _, f := range []Format{FormatSNAP, FormatWEL} {
			_, err := Read(strings.NewReader("0 1 "+tok+"\n"), "w", LoadOptions{Format: f})
			if f == FormatWEL && (want == "too small for a float32" || want == "over the float32 limit") {
				want = "not an integer"
			}
			if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "w:1: ") || !strings.Contains(err.Error(), want) {
				t.Errorf("%s weight %s: got %v, want %q", f, tok, err, want)
			}
		}
	}
	// A MatrixMarket file named .txt is not read as another graph.
	mtx := "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n"
	for _, f := range []Format{FormatSNAP, FormatEL, FormatGraphalytics} {
		if _, err := Read(strings.NewReader(mtx), "m.txt", LoadOptions{Format: f}); err == nil || !strings.Contains(err.Error(), "m.txt:1: a MatrixMarket file") {
			t.Errorf("%s: a MatrixMarket file: %v", f, err)
		}
	}
	// A weight scale for an unweighted graph is refused, not ignored.
	if _, err := Read(strings.NewReader("0 1\n"), "u.el", LoadOptions{WeightScale: 2}); !errors.Is(err, ErrWeightScale) {
		t.Errorf("scale of an unweighted graph: %v", err)
	}
	// Lost names what a target format drops.
	if l := Lost(g, FormatEL); len(l) != 1 || !strings.Contains(l[0], "weights") {
		t.Errorf("Lost(weighted, el) = %v", l)
	}
	mf, _ := Load("testdata/tiny.max", LoadOptions{})
	if l := Lost(mf, FormatGR); len(l) != 1 || !strings.Contains(l[0], "source and sink") {
		t.Errorf("Lost(max-flow, gr) = %v", l)
	}
	if l := Lost(mf, FormatBin); l != nil {
		t.Errorf("Lost(max-flow, bin) = %v", l)
	}
}

func float32frombits(w uint32) float32 { return math.Float32frombits(w) }

// Class 4: a .gbx is checked for content, not only shape (every case has
// a correct checksum), and reads from a pipe.
func TestBinaryContentChecks(t *testing.T) {
	neg := math.Float32bits(-1.5)
	cases := []struct {
		name string
		g    *Graph
		want string
	}{
		{"negative weight", &Graph{offsets: []int64{0, 1, 1}, adj: []uint32{1}, weights: []uint32{neg}, wkind: RealWeights, directed: true}, "weight -1.5: weights must be finite and not negative"},
		{"negative zero", &Graph{offsets: []int64{0, 1, 1}, adj: []uint32{1}, weights: []uint32{1 << 31}, wkind: RealWeights, directed: true}, "weights must be finite"},
		{"NaN weight", &Graph{offsets: []int64{0, 1, 1}, adj: []uint32{1}, weights: []uint32{0x7fc00000}, wkind: RealWeights, directed: true}, "weight NaN"},
		{"infinite weight", &Graph{offsets: []int64{0, 1, 1}, adj: []uint32{1}, weights: []uint32{0x7f800000}, wkind: RealWeights, directed: true}, "weight +Inf"},
		{"one-sided undirected", &Graph{offsets: []int64{0, 1, 1}, adj: []uint32{1}, directed: false}, "undirected but vertex 0 lists 1 and 1 does not list 0"},
		{"two weights undirected", &Graph{offsets: []int64{0, 1, 2}, adj: []uint32{1, 0}, weights: []uint32{3, 4}, wkind: IntWeights, directed: false}, "edge 0-1 has two weights"},
		{"duplicate", &Graph{offsets: []int64{0, 2, 2}, adj: []uint32{1, 1}, directed: true}, "vertex 0 lists a neighbour twice"},
		{"unsorted", &Graph{offsets: []int64{0, 2, 2, 2}, adj: []uint32{2, 1}, directed: true}, "lists must be sorted"},
		{"offsets past the arcs", &Graph{offsets: []int64{0, 5, 1}, adj: []uint32{1}, directed: true}, "offsets decrease"},
		{"ids past 2^64", &Graph{offsets: []int64{0, 0, 0, 0}, ids: IDMap{base: math.MaxUint64 - 1, n: 3}, directed: true}, "pass 2^64"},
		{"source is the sink", &Graph{offsets: []int64{0, 1, 1}, adj: []uint32{1}, directed: true, terminals: true}, "source and sink are the same vertex 0"},
		{"sink out of range", &Graph{offsets: []int64{0, 1, 1}, adj: []uint32{1}, directed: true, terminals: true, sink: 7}, "terminals 0 and 7 outside 0..1"},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		if err := writeBinary(&buf, c.g); err != nil {
			t.Fatal(err)
		}
		_, err := Read(bytes.NewReader(buf.Bytes()), "bad.gbx", LoadOptions{Format: FormatBin})
		if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	// A self-loop in an undirected graph is its own reverse.
	var buf bytes.Buffer
	writeBinary(&buf, &Graph{offsets: []int64{0, 2, 3}, adj: []uint32{0, 1, 0}, directed: false})
	if _, err := Read(bytes.NewReader(buf.Bytes()), "loop.gbx", LoadOptions{Format: FormatBin}); err != nil {
		t.Errorf("undirected with a self-loop: %v", err)
	}
}

func TestBinaryFromPipe(t *testing.T) {
	g, err := Load("testdata/tiny.wel", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "g.gbx")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		Write(f, g, FormatBin)
		f.Close()
	}()
	h, err := Load(fifo, LoadOptions{})
	if err != nil {
		t.Fatalf("a .gbx from a pipe: %v", err)
	}
	if h.NumEdges() != g.NumEdges() || h.NumVertices() != g.NumVertices() {
		t.Errorf("from the pipe: %d vertices %d arcs, want %d %d", h.NumVertices(), h.NumEdges(), g.NumVertices(), g.NumEdges())
	}
}

// Class 5: nil arguments give typed errors (or zero values from the
// accessors), never a panic.
func TestNilArguments(t *testing.T) {
	var g *Graph
	for name, f := range map[string]func() error{
		"Save":         func() error { return Save(filepath.Join(t.TempDir(), "x.el"), nil, "") },
		"Write":        func() error { return Write(io.Discard, nil, FormatEL) },
		"Write nil w":  func() error { tiny, _ := Load("testdata/tiny.el", LoadOptions{}); return Write(nil, tiny, FormatEL) },
		"Read":         func() error { _, err := Read(nil, "x.el", LoadOptions{}); return err },
		"Build":        func() error { _, err := Build(nil, BuildOptions{}); return err },
		"SetTerminals": func() error { return g.SetTerminals(0, 1) },
	} {
		if err := f(); !errors.Is(err, ErrNil) {
			t.Errorf("%s(nil): %v, want ErrNil", name, err)
		}
	}
	if g.NumVertices() != 0 || g.NumEdges() != 0 || g.Directed() || g.WeightKind() != Unweighted || g.Offsets() != nil ||
		g.Adj() != nil || g.Weights() != nil || g.Transpose() != nil || g.WithDerivedWeights(1) != nil || g.Bytes() != 0 ||
		g.MaxDegree() != 0 || g.MeanWeight() != 0 || g.NumUndirectedEdges() != 0 || g.DegreeProfile().Len() != 0 || Lost(g, FormatEL) != nil {
		t.Errorf("accessors of a nil graph are not zero")
	}
	if _, _, ok := g.Terminals(); ok {
		t.Errorf("a nil graph has terminals")
	}
}
