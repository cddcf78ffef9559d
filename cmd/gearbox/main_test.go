package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// gearbox runs the CLI in-process and returns stdout, stderr and the error.
func gearbox(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

// mustGearbox runs the CLI in-process and fails the test when it fails;
// it returns stdout and stderr.
func mustGearbox(t *testing.T, args ...string) (string, string) {
	t.Helper()
	out, stderr, err := gearbox(t, args...)
	if err != nil {
		t.Fatalf("gearbox %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return out, stderr
}

// gearboxJSON runs the CLI and decodes its stdout as one JSON object.
func gearboxJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out, _ := mustGearbox(t, args...)
	return testgraphs.DecodeJSONObject(t, []byte(out))
}

// writeFile writes text to the file name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readFile returns the contents of the file at path.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readLines returns the lines of the file at path, without the last
// line's newline.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	return strings.Split(strings.TrimSpace(readFile(t, path)), "\n")
}

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		args    []string
		want    []string // substrings of stdout
		wantErr string   // substring of the error; "" means success
	}{
		{"help", []string{"help"}, []string{"commands:", "run"}, ""},
		{"info mtx", []string{"info", "--graph", "../../graph/testdata/tiny.mtx"}, []string{"vertices          6", "directed"}, ""},
		{"info positional", []string{"info", "../../graph/testdata/tiny.gr"}, []string{"vertices          6"}, ""},
		{"info gen", []string{"info", "--gen", "grid:4:3"}, []string{"vertices          12", "undirected"}, ""},
		{"run bfs", []string{"run", "bfs", "--gen", "kron:8", "--verify"}, []string{"verified: 1 of 1", "MTEPS"}, ""},
		{"run bfs pull", []string{"run", "bfs", "--gen", "urand:8", "--variant", "pull", "--verify"}, []string{"pull x"}, ""},
		{"run sssp derived", []string{"run", "sssp", "--gen", "kron:8", "--verify", "--variant", "U_B_QU"}, []string{"derived from seed", "U_B_QU x"}, ""},
		{"run sssp grid sources", []string{"run", "sssp", "--gen", "grid:8:8", "--sources", "3", "--verify", "--delta", "16"}, []string{"median over 3 sources", "verified: 3 of 3"}, ""},
		{"json logs after command", []string{"run", "bfs", "--gen", "kron:6", "--log-format", "json"}, []string{"bfs on kron:6"}, ""},
		{"run cc", []string{"run", "cc", "--gen", "kron:8", "--verify"}, []string{"components, largest", "verified: 1 of 1"}, ""},
		{"run cc sv", []string{"run", "cc", "--gen", "grid:6:5", "--variant", "sv", "--verify"}, []string{"1 components, largest 30", "variant sv"}, ""},
		{"run forest", []string{"run", "forest", "--graph", "../../graph/testdata/tiny.mtx", "--verify", "--variant", "unionfind"}, []string{"forest of"}, ""},
		{"run mst", []string{"run", "mst", "--gen", "kron:8", "--verify"}, []string{"derived from seed", "forest weight ", " components (derived weights) (variant ", "verified: 1 of 1"}, ""},
		{"run mst directed", []string{"run", "mst", "--graph", "../../graph/testdata/tiny.mtx", "--verify", "--variant", "al"}, []string{"read as undirected", "variant al: forced"}, ""},
		{"run mst kruskal", []string{"run", "mst", "--gen", "grid:6:5", "--variant", "kruskal", "--verify"}, []string{"29 edges, 1 components"}, ""},
		{"mst on the empty graph", []string{"run", "mst", "--graph", "../../graph/testdata/empty.mtx", "--verify"}, []string{"forest weight 0, 0 edges, 0 components"}, ""},
		{"mst with cc variant", []string{"run", "mst", "--gen", "kron:4", "--variant", "sv"}, nil, "not a variant of mst"},
		{"cc with source", []string{"run", "cc", "--gen", "kron:4", "--source", "1"}, nil, "has no source"},
		// Refused before the graph is read (the file is missing).
		{"sssp pull", []string{"run", "sssp", "--graph", filepath.Join(dir, "nope.el"), "--variant", "pull"}, nil, `--variant "pull" is not a variant of sssp`},
		{"cc with bfs variant", []string{"run", "cc", "--gen", "kron:4", "--variant", "pull"}, nil, "not a variant of cc"},
		{"bfs with delta", []string{"run", "bfs", "--gen", "kron:4", "--delta", "3"}, nil, "--delta applies to sssp"},
		{"bfs on the empty graph", []string{"run", "bfs", "--graph", "../../graph/testdata/empty.mtx"}, []string{"nothing to traverse"}, ""},
		{"cc on the empty graph", []string{"run", "cc", "--graph", "../../graph/testdata/empty.mtx", "--verify"}, []string{"0 components"}, ""},
		{"unknown command", []string{"frobnicate"}, nil, "unknown command \"frobnicate\""},
		{"no command", nil, nil, "no command"},
		{"unknown algorithm", []string{"run", "pagerank", "--gen", "kron:4"}, nil, "unknown algorithm"},
		{"no graph", []string{"run", "bfs"}, nil, "exactly one of --graph FILE or --gen SPEC"},
		{"both graph and gen", []string{"info", "--graph", "x.el", "--gen", "kron:4"}, nil, "exactly one of"},
		{"bad variant", []string{"run", "bfs", "--gen", "kron:4", "--variant", "O_X_BM"}, nil, "valid: auto, O_T_BM"},
		{"source out of range", []string{"run", "bfs", "--gen", "kron:4", "--source", "16"}, nil, "--source 16 is not a vertex"},
		{"source not a number", []string{"run", "bfs", "--gen", "kron:4", "--source", "abc"}, nil, "not a vertex id"},
		{"bad gen spec", []string{"info", "--gen", "kron:x"}, nil, "kron"},
		{"missing file", []string{"info", "--graph", filepath.Join(dir, "nope.el")}, nil, "nope.el"},
		{"unknown extension", []string{"info", "--graph", "main.go"}, nil, "--format"},
		{"bad log format", []string{"--log-format", "xml", "help"}, nil, "--log-format"},
		{"auto device without a GPU", []string{"run", "bfs", "--gen", "kron:6", "--device", "auto", "--verify"}, []string{"verified: 1 of 1"}, ""},
		{"bad device", []string{"run", "bfs", "--gen", "kron:4", "--device", "tpu"}, nil, "--device"},
		{"thresholds missing", []string{"run", "bfs", "--gen", "kron:4", "--thresholds", filepath.Join(dir, "none.toml")}, nil, "none.toml"},
		{"sources with source", []string{"run", "bfs", "--gen", "kron:4", "--sources", "2", "--source", "1"}, nil, "cannot be combined"},
		// Refused before the graph is read (the file is missing), not after
		// a source picker ran for 64K tries.
		{"sources over the limit", []string{"run", "bfs", "--graph", filepath.Join(dir, "nope.el"), "--sources", "3000000000"}, nil, "--sources 3000000000 exceeds the limit of 65536"},
		// One message for every --weight-scale out of range (NaN was let
		// through with --gen and worded otherwise by the loader).
		{"NaN weight scale", []string{"run", "bfs", "--gen", "kron:4", "--weight-scale", "NaN"}, nil, "--weight-scale NaN: want a finite value >= 0"},
		{"NaN weight scale of a file", []string{"run", "bfs", "--graph", "../../graph/testdata/tiny.mtx", "--weight-scale", "NaN"}, nil, "--weight-scale NaN: want a finite value >= 0"},
		{"negative weight scale", []string{"run", "bfs", "--gen", "kron:4", "--weight-scale", "-1"}, nil, "--weight-scale -1: want a finite value >= 0"},
		{"infinite weight scale", []string{"info", "--graph", "../../graph/testdata/tiny.mtx", "--weight-scale", "+Inf"}, nil, "--weight-scale +Inf: want a finite value >= 0"},
		{"negative workers", []string{"run", "bfs", "--graph", filepath.Join(dir, "nope.el"), "--workers", "-3"}, nil, "--workers -3 must be at least 0"},
		{"too many workers", []string{"run", "bfs", "--graph", filepath.Join(dir, "nope.el"), "--workers", "1000000"}, nil, "--workers 1000000 exceeds the limit of 4096"},
		{"workers at the limit", []string{"run", "bfs", "--gen", "kron:4", "--workers", "4096"}, []string{"cpu(4096 workers)"}, ""},
		{"sources at the limit", []string{"run", "bfs", "--gen", "kron:4", "--sources", "65536"}, []string{"median over 16 sources"}, ""},
		// Output paths are checked before the graph is read (here a
		// missing file, whose error would otherwise come first).
		{"trace in a missing directory", []string{"run", "bfs", "--graph", filepath.Join(dir, "nope.el"), "--trace", filepath.Join(dir, "no", "t.json")}, nil, "--trace: " + filepath.Join(dir, "no", "t.json") + ": directory"},
		{"out is a directory", []string{"run", "bfs", "--graph", filepath.Join(dir, "nope.el"), "--out", dir}, nil, "--out: " + dir + " is a directory"},
		{"trace written", []string{"run", "bfs", "--gen", "kron:6", "--trace", filepath.Join(dir, "t.json")}, []string{"bfs on kron:6"}, ""},
		{"cpuprofile in a missing directory", []string{"run", "bfs", "--graph", filepath.Join(dir, "nope.el"), "--cpuprofile", filepath.Join(dir, "no", "p.out")}, nil, "--cpuprofile: " + filepath.Join(dir, "no", "p.out") + ": directory"},
		{"two outputs to stdout", []string{"run", "bfs", "--gen", "kron:6", "--cpuprofile", "-", "--out", "-"}, nil, "--out and --cpuprofile both write to standard output (-)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, err := gearbox(t, tc.args...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v\nstderr: %s", err, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestFewerSources: --sources K beyond the vertices with out-edges runs from
// all of them and says so on stderr, rather than silently run fewer.
func TestFewerSources(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantOut    string
		wantStderr string
	}{
		{"run", []string{"run", "bfs", "--graph", "../../graph/testdata/tiny.mtx", "--sources", "50"},
			"median over 6 sources", "note: --sources 50: the graph has only 6 vertices with out-edges; running from those 6"},
		{"run without edges", []string{"run", "bfs", "--gen", "grid:1:1", "--sources", "3"},
			"source 0: reached 1 vertices", "note: --sources 3: the graph has no vertex with out-edges; running from vertex 0 alone"},
		{"bench", []string{"bench", "--graphs", "grid:3:3", "--algorithms", "bfs", "--sources", "20", "--confirm=false", "--out-dir", t.TempDir(), "--log-level", "warn"},
			"20 (grid:3:3: 9; all their vertices with out-edges) sources per graph", "note: --sources 20: grid:3:3 has only 9 vertices with out-edges; running from those 9"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr := mustGearbox(t, tc.args...)
			if !strings.Contains(out, tc.wantOut) {
				t.Errorf("stdout lacks %q:\n%s", tc.wantOut, out)
			}
			if !strings.Contains(stderr, tc.wantStderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.wantStderr, stderr)
			}
		})
	}
}

// TestRunVariantHelp: run's help lists pull for bfs alone.
func TestRunVariantHelp(t *testing.T) {
	_, stderr := mustGearbox(t, "run", "-h")
	if !strings.Contains(stderr, "sssp: O_T_BM, O_T_QU, O_B_BM, O_B_QU, U_T_BM, U_T_QU, U_B_BM, U_B_QU (pull is BFS only)") || strings.Contains(stderr, "bfs, sssp:") {
		t.Errorf("help does not say pull is BFS only:\n%s", stderr)
	}
}

// TestRunOutStdout: with --out - stdout holds the 'id value' lines alone;
// the summary goes to stderr.
func TestRunOutStdout(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"bfs", []string{"run", "bfs", "--gen", "kron:5", "--out", "-", "--verify"}},
		{"sssp derived weights", []string{"run", "sssp", "--gen", "kron:5", "--out", "-"}},
		{"cc", []string{"run", "cc", "--gen", "grid:3:3", "--out", "-"}},
		{"empty graph", []string{"run", "bfs", "--graph", "../../graph/testdata/empty.mtx", "--out", "-"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr := mustGearbox(t, tc.args...)
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if l == "" && out == "" {
					continue
				}
				f := strings.Fields(l)
				if len(f) != 2 {
					t.Fatalf("stdout line %q is not 'id value':\n%s", l, out)
				}
				if _, err := strconv.ParseUint(f[0], 10, 64); err != nil {
					t.Fatalf("stdout line %q is not 'id value':\n%s", l, out)
				}
			}
			if !strings.Contains(stderr, " on ") {
				t.Errorf("stderr lacks the summary:\n%s", stderr)
			}
		})
	}
}

// TestRunInterrupted: an interruption during run --sources K reports the
// medians of the sources finished, then returns the interruption.
func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const keep = 3
	n := 0
	runSourceHook = func() {
		if n++; n == keep {
			cancel()
		}
	}
	defer func() { runSourceHook = nil }()
	var out, errb bytes.Buffer
	err := run(ctx, []string{"run", "bfs", "--gen", "kron:8", "--sources", "10", "--verify"}, &out, &errb)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "run stopped after 3 of 10 sources") {
		t.Fatalf("err = %v, want context.Canceled after 3 of 10 sources", err)
	}
	for _, w := range []string{"median over the 3 of 10 sources finished:", "verified: 3 of 3 runs"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("stdout lacks %q:\n%s", w, out.String())
		}
	}
}

// TestCPUProfile: --cpuprofile writes a profile that go tool pprof reads
// (gzip-compressed protobuf).
func TestCPUProfile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "p.out")
	mustGearbox(t, "run", "sssp", "--gen", "kron:10", "--sources", "4", "--cpuprofile", p)
	zr, err := gzip.NewReader(strings.NewReader(readFile(t, p)))
	if err != nil {
		t.Fatalf("the profile is not gzip data: %v", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil || len(b) == 0 {
		t.Fatalf("reading the profile: %d bytes, %v", len(b), err)
	}
}

// TestCPUProfileWriteError: a profile that cannot be written is an error
// of the command, not lost behind exit 0 (pprof drops its write errors).
func TestCPUProfileWriteError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	_, _, err := gearbox(t, "run", "bfs", "--gen", "kron:8", "--cpuprofile", "/dev/full")
	if err == nil || !strings.Contains(err.Error(), "--cpuprofile: writing /dev/full") || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("err = %v, want a --cpuprofile error wrapping ENOSPC", err)
	}
}

func TestUsageErrorsAreMarked(t *testing.T) {
	_, _, err := gearbox(t, "run", "bfs", "--no-such-flag")
	if !errors.Is(err, errUsage) {
		t.Fatalf("err = %v, want errUsage", err)
	}
}

func TestCUDAWithoutGPU(t *testing.T) {
	_, _, err := gearbox(t, "run", "bfs", "--gen", "kron:6", "--device", "cuda")
	if gpu.Built() {
		t.Skip("cuda build: the GPU tests cover --device cuda")
	}
	if !errors.Is(err, gpu.ErrNoCUDA) {
		t.Fatalf("err = %v, want gpu.ErrNoCUDA", err)
	}
}

func TestThresholdsTypo(t *testing.T) {
	p := writeFile(t, t.TempDir(), "t.toml", "[cpu]\nT1 = 8.0\nsampel_every = 3\n")
	_, _, err := gearbox(t, "run", "bfs", "--gen", "kron:4", "--thresholds", p)
	if err == nil || !strings.Contains(err.Error(), "sampel_every") {
		t.Fatalf("err = %v, want it to name the unknown key", err)
	}
}

// TestRunThresholdsPerAlgorithm: run --thresholds passes the whole file, so
// each algorithm takes its own section where there is one.
func TestRunThresholdsPerAlgorithm(t *testing.T) {
	p := writeFile(t, t.TempDir(), "t.toml", "[cpu]\nT1 = 3.0\n[cpu.bfs]\nT1 = 5.0\n[cpu.cc]\nT1 = 7.0\n")
	tests := []struct {
		args []string
		want string // in the policy
	}{
		{[]string{"run", "bfs", "--gen", "kron:6"}, "policy adaptive(T1=5,"},
		{[]string{"run", "sssp", "--gen", "kron:6"}, "policy adaptive(T1=3,"}, // no [cpu.sssp]: [cpu]
		{[]string{"run", "cc", "--gen", "kron:6", "--variant", "sv"}, "policy cc-edges(T1=7,"},
	}
	for _, tc := range tests {
		out, _, err := gearbox(t, append(tc.args, "--thresholds", p)...)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("%v: err %v, stdout lacks %q:\n%s", tc.args, err, tc.want, out)
		}
	}
}

// TestConvertRoundTrip converts one graph through every writable format and
// checks that each copy reads back to the same statistics and BFS answer.
// MatrixMarket ids are 1-based, so its copy names every vertex one higher;
// edge lists cannot hold isolated vertices (SNAP drops them all, .el those
// above the largest id), so their copies agree on every reached vertex.
func TestConvertRoundTrip(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "g.gbx")
	mustGearbox(t, "gen", "kron:7", src)
	wantInfo, _ := mustGearbox(t, "info", "--graph", src)
	wantOut := filepath.Join(dir, "want.out")
	runOut, _ := mustGearbox(t, "run", "bfs", "--graph", src, "--out", wantOut)
	// The default source is a vertex with edges, so it survives every format.
	var source int
	var err error
	for _, l := range strings.Split(runOut, "\n") {
		if strings.HasPrefix(l, "source ") {
			source, err = strconv.Atoi(strings.TrimSuffix(strings.Fields(l)[1], ":"))
		}
	}
	if err != nil {
		t.Fatalf("no source in %q", runOut)
	}
	want := readValues(t, wantOut, 0)
	for _, tc := range []struct {
		ext        string
		idShift    int
		undirected bool // the format cannot say the graph is symmetric
		exact      bool // isolated vertices survive
	}{
		{"gbx", 0, false, true},
		{"mtx", 1, false, true},
		{"el", 0, true, false},
		{"txt", 0, true, false},
	} {
		p := filepath.Join(dir, "copy."+tc.ext)
		mustGearbox(t, "convert", src, p)
		in := []string{"--graph", p}
		if tc.undirected {
			in = append(in, "--undirected")
		}
		info, _ := mustGearbox(t, append([]string{"info"}, in...)...)
		if tc.exact && body(info) != body(wantInfo) {
			t.Errorf("%s: statistics differ:\n%s\nwant\n%s", tc.ext, body(info), body(wantInfo))
		}
		gotOut := filepath.Join(dir, "got-"+tc.ext+".out")
		mustGearbox(t, append([]string{"run", "bfs", "--source", strconv.Itoa(source + tc.idShift), "--out", gotOut}, in...)...)
		got := readValues(t, gotOut, -tc.idShift)
		if tc.exact && len(got) != len(want) {
			t.Errorf("%s: %d vertices in the output, want %d", tc.ext, len(got), len(want))
		}
		for id, w := range want {
			g, ok := got[id]
			if (ok || tc.exact || w != "inf") && g != w {
				t.Errorf("%s: vertex %d has %q, want %q", tc.ext, id, g, w)
				break
			}
		}
	}
}

// readValues reads an --out file into id -> value, adding shift to ids.
func readValues(t *testing.T, path string, shift int) map[int]string {
	t.Helper()
	m := map[int]string{}
	for _, l := range readLines(t, path) {
		id, v, ok := strings.Cut(l, " ")
		n, err := strconv.Atoi(id)
		if !ok || err != nil {
			t.Fatalf("%s: bad line %q", path, l)
		}
		m[n+shift] = v
	}
	return m
}

// body drops the first line (the graph's file name) and id-map notes.
func body(info string) string {
	var keep []string
	for i, l := range strings.Split(info, "\n") {
		if i == 0 || strings.HasPrefix(l, "vertex ids:") || strings.HasPrefix(l, "memory") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// TestRunRepeat: --repeat R runs an algorithm without a source R times and
// reports medians over the runs; a bad count is refused before loading.
func TestRunRepeat(t *testing.T) {
	out, _ := mustGearbox(t, "run", "cc", "--gen", "kron:8", "--repeat", "3", "--verify")
	for _, w := range []string{"median over 3 runs:", "verified: 3 of 3 runs"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	out, _, err := gearbox(t, "run", "bfs", "--gen", "kron:8", "--sources", "2", "--repeat", "2")
	if err != nil || !strings.Contains(out, "median over 4 runs (2 sources x 2 repeats):") {
		t.Fatalf("bfs --sources 2 --repeat 2: %v\n%s", err, out)
	}
	if _, _, err := gearbox(t, "run", "cc", "--gen", "kron:8", "--repeat", "0"); err == nil || !strings.Contains(err.Error(), "--repeat 0 must be at least 1") {
		t.Fatalf("--repeat 0: %v", err)
	}
}

// TestRunMSTOut checks --out's "u v w" lines: one per forest edge, in the
// file's ids, weights summing to the printed total.
func TestRunMSTOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "forest.txt")
	stdout, _ := mustGearbox(t, "run", "mst", "--gen", "grid:5:4", "--out", out)
	lines := readLines(t, out)
	if len(lines) != 19 {
		t.Fatalf("%d lines, want 19", len(lines))
	}
	var total int64
	for _, l := range lines {
		var u, v, w int64
		if n, err := fmt.Sscanf(l, "%d %d %d", &u, &v, &w); n != 3 || err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		total += w
	}
	if want := fmt.Sprintf("forest weight %d, 19 edges, 1 components", total); !strings.Contains(stdout, want) {
		t.Errorf("summary lacks %q:\n%s", want, stdout)
	}
}
