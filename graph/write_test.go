package graph

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// roundTripGraphs returns graphs covering the weight kinds, directedness,
// id maps and terminals.
func roundTripGraphs(t *testing.T) map[string]*Graph {
	t.Helper()
	gs := map[string]*Graph{}
	for name, file := range map[string]string{"directed-int": "tiny.wel", "undirected-int": "tiny.graph", "unweighted": "tiny.el", "maxflow": "tiny.max", "snap-ids": "tiny.txt"} {
		g, err := Load(filepath.Join("testdata", file), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		gs[name] = g
	}
	g, err := Read(strings.NewReader("10 30 0.5\n30 70 2.25\n70 10 1e-3\n70 30 3\n"), "r.txt", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gs["real-sparse-ids"] = g
	g, err = Read(strings.NewReader("0 1\n1 2\n2 0\n"), "u.el", LoadOptions{Undirected: true})
	if err != nil {
		t.Fatal(err)
	}
	gs["undirected-unweighted"] = g
	gs["derived"] = g.WithDerivedWeights(7)
	return gs
}

func TestWriteReadRoundTrip(t *testing.T) {
	for name, g := range roundTripGraphs(t) {
		for _, f := range []Format{FormatBin, FormatEL, FormatWEL, FormatMTX, FormatGR, FormatSNAP} {
			t.Run(fmt.Sprintf("graph=%s/format=%s", name, f), func(t *testing.T) {
				var buf bytes.Buffer
				err := Write(&buf, g, f)
				needInt := f == FormatWEL || f == FormatGR
				if needInt && g.WeightKind() != IntWeights {
					if err == nil || !errors.Is(err, ErrFormat) {
						t.Fatalf("writing %v weights as %s: err = %v, want an error", g.WeightKind(), f, err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				h, err := Read(&buf, "rt", LoadOptions{Format: f, Undirected: !g.Directed()})
				if err != nil {
					t.Fatalf("reading back: %v", err)
				}
				want := toCSR(g)
				wantKind := g.WeightKind()
				if f == FormatEL {
					want, wantKind = dropWeights(want), Unweighted
				}
				sameCSR(t, "round trip", toCSR(h), want)
				if h.WeightKind() != wantKind || h.Directed() != g.Directed() || h.NumVertices() != g.NumVertices() {
					t.Errorf("kind %v directed %v n %d; want %v %v %d", h.WeightKind(), h.Directed(), h.NumVertices(), wantKind, g.Directed(), g.NumVertices())
				}
				if f == FormatBin || f == FormatSNAP { // these keep the original ids
					for v := uint32(0); v < uint32(g.NumVertices()); v++ {
						if a, b := h.IDs().External(v), g.IDs().External(v); a != b {
							t.Fatalf("External(%d) = %d, want %d", v, a, b)
						}
					}
				}
				if f == FormatBin {
					s1, t1, ok1 := g.Terminals()
					s2, t2, ok2 := h.Terminals()
					if s1 != s2 || t1 != t2 || ok1 != ok2 || h.DerivedWeights() != g.DerivedWeights() {
						t.Errorf("terminals %d %d %v derived %v; want %d %d %v %v", s2, t2, ok2, h.DerivedWeights(), s1, t1, ok1, g.DerivedWeights())
					}
					if !slices.Equal(h.IDs().List(), g.IDs().List()) || h.IDs().Base() != g.IDs().Base() {
						t.Errorf("id map %v/%d, want %v/%d", h.IDs().List(), h.IDs().Base(), g.IDs().List(), g.IDs().Base())
					}
				}
			})
		}
	}
}

func TestWriteFormats(t *testing.T) {
	g, err := Load("testdata/tiny-sym.mtx", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, g, FormatMTX); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if lines[0] != "%%MatrixMarket matrix coordinate integer symmetric" {
		t.Errorf("banner %q", lines[0])
	}
	if want := fmt.Sprintf("%d %d %d", tinyN, tinyN, g.NumUndirectedEdges()); lines[2] != want {
		t.Errorf("size line %q, want %q", lines[2], want)
	}
	if len(lines) != 3+int(g.NumUndirectedEdges()) {
		t.Errorf("%d entry lines, want one per undirected edge (%d)", len(lines)-3, g.NumUndirectedEdges())
	}
	// el writes 0-based internal ids, one line per arc.
	buf.Reset()
	if err := Write(&buf, g, FormatEL); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "0 1\n0 2\n0 5\n") || strings.Count(buf.String(), "\n") != int(g.NumEdges()) {
		t.Errorf("el output starts %q with %d lines", buf.String()[:12], strings.Count(buf.String(), "\n"))
	}
	// Not writable.
	for _, f := range []Format{FormatMETIS, FormatMAX, FormatGraphalytics, "dot"} {
		if err := Write(io.Discard, g, f); err == nil || !errors.Is(err, ErrFormat) {
			t.Errorf("Write %s: err = %v", f, err)
		}
	}
	// gr needs weights.
	u, _ := Load("testdata/tiny.el", LoadOptions{})
	if err := Write(io.Discard, u, FormatGR); err == nil || !strings.Contains(err.Error(), "needs integer weights") {
		t.Errorf("gr of an unweighted graph: err = %v", err)
	}
}

func TestSaveLoad(t *testing.T) {
	g, err := Load("testdata/tiny.max", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"g.gbx", "g.gbx.gz", "g.wel.gz", "g.mtx", "g.gr", "g.el", "g.txt"} {
		p := filepath.Join(dir, name)
		if err := Save(p, g, ""); err != nil {
			t.Fatalf("Save %s: %v", name, err)
		}
		h, err := Load(p, LoadOptions{})
		if err != nil {
			t.Fatalf("Load %s: %v", name, err)
		}
		want := toCSR(g)
		if name == "g.el" {
			want = dropWeights(want)
		}
		sameCSR(t, name, toCSR(h), want)
	}
	if err := Save(filepath.Join(dir, "g.graph"), g, ""); err == nil || !strings.Contains(err.Error(), "cannot write format metis") {
		t.Errorf("Save .graph: err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "g.graph")); err == nil {
		t.Errorf("a failed Save left a file behind")
	}
}

// TestSaveFailureKeepsFiles: a Save that fails must leave what was at the
// path as it was (Save used to remove the path on any error, deleting old
// files, symlinks and even device nodes it had not created), and a Save
// that succeeds replaces a file's contents but keeps links and permissions.
func TestSaveFailureKeepsFiles(t *testing.T) {
	unweighted, err := Load("testdata/tiny.el", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const old = "old contents\n"
	tests := []struct {
		name    string
		setup   func(dir string) string // makes the path to save to
		f       Format
		wantErr string
		check   func(t *testing.T, dir, path string)
	}{
		{"failed write into an existing file", func(dir string) string {
			return writeFile(t, filepath.Join(dir, "g.gr"), old, 0o640)
		}, FormatGR, "needs integer weights", func(t *testing.T, dir, path string) {
			wantFile(t, path, old, 0o640)
		}},
		{"failed write through a symlink", func(dir string) string {
			writeFile(t, filepath.Join(dir, "target.gr"), old, 0o644)
			return symlink(t, "target.gr", filepath.Join(dir, "link.gr"))
		}, FormatGR, "needs integer weights", func(t *testing.T, dir, path string) {
			wantLink(t, path, "target.gr")
			wantFile(t, filepath.Join(dir, "target.gr"), old, 0o644)
		}},
		{"failed write into a new file", func(dir string) string {
			return filepath.Join(dir, "new.gr")
		}, FormatGR, "needs integer weights", func(t *testing.T, dir, path string) {
			if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed Save left %s behind (%v)", path, err)
			}
		}},
		{"device full", func(dir string) string {
			if _, err := os.Stat("/dev/full"); err != nil {
				t.Skip("no /dev/full")
			}
			return symlink(t, "/dev/full", filepath.Join(dir, "full.el"))
		}, FormatEL, "no space left", func(t *testing.T, dir, path string) {
			wantLink(t, path, "/dev/full")
		}},
		{"success replaces an existing file", func(dir string) string {
			return writeFile(t, filepath.Join(dir, "g.el"), old, 0o640)
		}, FormatEL, "", func(t *testing.T, dir, path string) {
			wantGraph(t, path, unweighted)
			wantMode(t, path, 0o640)
		}},
		{"success through a symlink", func(dir string) string {
			writeFile(t, filepath.Join(dir, "target.el"), old, 0o600)
			return symlink(t, "target.el", filepath.Join(dir, "link.el"))
		}, FormatEL, "", func(t *testing.T, dir, path string) {
			wantLink(t, path, "target.el")
			wantGraph(t, filepath.Join(dir, "target.el"), unweighted)
			wantMode(t, filepath.Join(dir, "target.el"), 0o600)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tc.setup(dir)
			err := Save(path, unweighted, tc.f)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Save: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Save: err = %v, want %q", err, tc.wantErr)
			}
			tc.check(t, dir, path)
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.HasSuffix(e.Name(), ".tmp") {
					t.Errorf("temporary file %s left behind", e.Name())
				}
			}
		})
	}
}

func writeFile(t *testing.T, path, data string, mode os.FileMode) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // whatever the umask
		t.Fatal(err)
	}
	return path
}

func symlink(t *testing.T, target, path string) string {
	t.Helper()
	if err := os.Symlink(target, path); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	return path
}

func wantFile(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != data {
		t.Errorf("%s: %q, %v; want the old contents %q", path, b, err, data)
	}
	wantMode(t, path, mode)
}

func wantMode(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil {
		t.Errorf("%s: %v", path, err)
	} else if st.Mode() != mode {
		t.Errorf("%s: mode %v, want %v", path, st.Mode(), mode)
	}
}

func wantLink(t *testing.T, path, target string) {
	t.Helper()
	if got, err := os.Readlink(path); err != nil || got != target {
		t.Errorf("%s: link to %q (%v), want the symlink to %q kept", path, got, err, target)
	}
}

func wantGraph(t *testing.T, path string, g *Graph) {
	t.Helper()
	h, err := Load(path, LoadOptions{})
	if err != nil {
		t.Fatalf("Load %s: %v", path, err)
	}
	sameCSR(t, path, toCSR(h), toCSR(g))
}

func TestBinaryCorrupt(t *testing.T) {
	g, err := Load("testdata/tiny.txt", LoadOptions{}) // explicit id list? no: 10i+3 is an offset map only if contiguous
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, g, FormatBin); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	dir := t.TempDir()
	load := func(b []byte) error {
		p := filepath.Join(dir, "x.gbx")
		os.WriteFile(p, b, 0o644)
		_, err := Load(p, LoadOptions{})
		return err
	}
	stream := func(b []byte) error { // a reader of unknown size
		_, err := Read(io.MultiReader(bytes.NewReader(b)), "x.gbx", LoadOptions{})
		return err
	}
	if err := load(good); err != nil {
		t.Fatalf("intact file: %v", err)
	}
	if err := stream(good); err != nil {
		t.Fatalf("intact stream: %v", err)
	}
	flip := bytes.Clone(good)
	flip[binHeaderSize+8*3] ^= 0x40 // inside the offsets
	hugeN := bytes.Clone(good)
	binary.LittleEndian.PutUint64(hugeN[16:], 1<<31) // 2^31 vertices in a tiny file
	hugeM := bytes.Clone(good)
	binary.LittleEndian.PutUint64(hugeM[24:], 1e12)
	badVersion := bytes.Clone(good)
	binary.LittleEndian.PutUint32(badVersion[8:], 9)
	badFlags := bytes.Clone(good)
	binary.LittleEndian.PutUint32(badFlags[12:], 1<<20)
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"checksum", flip, "checksum mismatch"},
		{"truncated", good[:len(good)-10], "truncated"},
		{"truncated header", good[:20], "shorter than the 48-byte header"},
		{"trailing", append(bytes.Clone(good), 0), "trailing data"},
		{"huge n", hugeN, "truncated"},
		{"huge m", hugeM, "truncated"},
		{"version", badVersion, "version 9"},
		{"flags", badFlags, "unknown flags"},
		{"magic", append([]byte("GBX?"), good[4:]...), "bad magic"},
	}
	for _, tc := range cases {
		for how, fn := range map[string]func([]byte) error{"file": load, "stream": stream} {
			err := fn(tc.data)
			if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s (%s): err = %v, want %q", tc.name, how, err, tc.want)
			}
		}
	}
	// A checksum-valid file whose CSR is inconsistent: graph.New rejects it.
	bad := bytes.Clone(good[:len(good)-4])
	binary.LittleEndian.PutUint64(bad[binHeaderSize+8:], 99) // offsets[1]
	bad = binary.LittleEndian.AppendUint32(bad, crcOf(bad))
	if err := load(bad); err == nil || !errors.Is(err, ErrFormat) || !errors.Is(err, ErrInvalid) {
		t.Errorf("inconsistent CSR: err = %v", err)
	}
}

func crcOf(b []byte) uint32 {
	var buf bytes.Buffer
	hr := &hashReader{r: bytes.NewReader(b), h: newCRC()}
	io.Copy(&buf, hr)
	return hr.h.Sum32()
}

func TestBinaryOptions(t *testing.T) {
	g, err := Read(strings.NewReader("0 1 0.26\n1 2 1.5\n"), "r.txt", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	Write(&buf, g, FormatBin)
	h, err := Read(bytes.NewReader(buf.Bytes()), "r.gbx", LoadOptions{Undirected: true, WeightScale: 10})
	if err != nil {
		t.Fatal(err)
	}
	if h.Directed() || h.WeightKind() != IntWeights || h.NumEdges() != 4 {
		t.Fatalf("directed %v kind %v m %d", h.Directed(), h.WeightKind(), h.NumEdges())
	}
	if w := h.EdgeWeights(1); len(w) != 2 || w[0] != 3 || w[1] != 15 {
		t.Errorf("vertex 1 weights %v, want [3 15]", w)
	}
	// A weight the scale rounds to 0 is an error, as in text files.
	_, err = Read(bytes.NewReader(buf.Bytes()), "r.gbx", LoadOptions{WeightScale: 1})
	if want := "r.gbx: weight 0.26 times scale 1 rounds to 0"; err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), want) {
		t.Errorf("scale 1: err = %v, want %q", err, want)
	}
}
