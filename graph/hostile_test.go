package graph

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
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
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(head))
	line := []byte(comment + strings.Repeat("x", 1000) + "\n")
	for range 40000 { // 40 MB of comments
		zw.Write(line)
	}
	zw.Write([]byte(body))
	zw.Close()
	return buf.Bytes()
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
	if !bytes.Contains(out, []byte("RESULT: ")) || !bytes.Contains(out, []byte("RLIMIT_AS (ulimit -v)")) || !bytes.Contains(out, []byte("needs about")) {
		t.Fatalf("want a memory error naming RLIMIT_AS and the sizes, got:\n%s", lastLines(out, 15))
	}
}

func lastLines(b []byte, n int) string {
	l := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}
