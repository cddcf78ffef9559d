package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/tuning"
)

// readCSV reads a report CSV: its header and data rows.
func readCSV(t *testing.T, path string) ([]string, [][]string) {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(readFile(t, path))).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s: empty", path)
	}
	return recs[0], recs[1:]
}

// checkPNG decodes a PNG and checks it has a plausible size.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	img, err := png.Decode(strings.NewReader(readFile(t, path)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() < 200 || b.Dy() < 200 {
		t.Errorf("%s: %dx%d image, want a real plot", path, b.Dx(), b.Dy())
	}
}

func column(t *testing.T, header []string, name string) int {
	t.Helper()
	for i, h := range header {
		if h == name {
			return i
		}
	}
	t.Fatalf("CSV header %v lacks %q", header, name)
	return -1
}

var tinyTune = []string{"tune", "--graphs", "kron:8,grid:8:8", "--sources", "2",
	"--t3", "0.01:0.05:0.02", "--sample-every", "1:3", "--t2", "16,64", "--alpha", "10,15",
	"--beta", "12,18", "--delta-factor", "0", "--delta", "1,16", "--log-level", "warn"}

func TestTuneTiny(t *testing.T) {
	dir := t.TempDir()
	out, _ := mustGearbox(t, append(tinyTune, "--out-dir", dir)...)
	for _, w := range []string{"threads_per_block", "no effect on the cpu", "[cpu]", "pass 1 T3", "pass 1 delta",
		"scored by wall time", "of the median wall time (ms)", "p = sign test against the current value"} {
		if !strings.Contains(out, w) {
			t.Errorf("stdout lacks %q:\n%s", w, out)
		}
	}
	header, rows := readCSV(t, filepath.Join(dir, "tune.csv"))
	// Values (with the current one where a range of several lacks it) x
	// affected algorithm-graph pairs: T3 (and 0.005) 4x4, sample_every (and
	// 6) 4x4, T2 2x4, alpha 2x2 (BFS only), beta 2x2, delta_factor 1x2 (an
	// assignment) and delta (and 32) 3x2 (SSSP only).
	if want := 16 + 16 + 8 + 4 + 4 + 2 + 6; len(rows) != want {
		t.Errorf("%d CSV rows, want %d", len(rows), want)
	}
	med, src, dev := column(t, header, "median_ms"), column(t, header, "sources"), column(t, header, "device_ms")
	for _, r := range rows {
		if v, err := strconv.ParseFloat(r[dev], 64); err != nil || v != 0 {
			t.Errorf("row %v: device_ms %q on the cpu, want 0", r, r[dev])
		}
		if v, err := strconv.ParseFloat(r[med], 64); err != nil || v <= 0 {
			t.Errorf("row %v: median %q", r, r[med])
		}
		if r[src] != "2" {
			t.Errorf("row %v: %s sources, want 2", r, r[src])
		}
	}
	for _, p := range []string{"T3-bfs", "T3-sssp", "sample_every-bfs", "sample_every-sssp", "T2-bfs", "alpha-bfs", "beta-bfs", "delta-sssp"} {
		checkPNG(t, filepath.Join(dir, "tune-"+p+".png"))
	}
	for _, p := range []string{"threads_per_block-bfs", "delta-bfs", "alpha-sssp"} {
		if _, err := os.Stat(filepath.Join(dir, "tune-"+p+".png")); err == nil {
			t.Errorf("tune-%s.png plotted: the knob was not swept there", p)
		}
	}
	set, err := decider.LoadThresholds(filepath.Join(dir, "thresholds.toml"))
	if err != nil {
		t.Fatal(err)
	}
	c := set.CPU
	in := func(name string, v float64, vals ...float64) {
		for _, x := range vals {
			if v == x {
				return
			}
		}
		t.Errorf("tuned %s = %v, not one of the swept %v", name, v, vals)
	}
	in("T3", c.T3, 0.005, 0.01, 0.03, 0.05)
	in("sample_every", float64(c.SampleEvery), 1, 2, 3, 6)
	in("T2", float64(c.T2), 16, 64)
	in("alpha", c.Alpha, 10, 15)
	in("beta", c.Beta, 12, 18)
	in("delta", knob(t, set, "", "delta"), 1, 16, 32)
	in("T1", c.T1, decider.DefaultThresholds().T1) // not swept: the start value
	re := t.TempDir()
	if out, _, err := gearbox(t, "tune", "--plot-only", filepath.Join(dir, "tune.csv"), "--out-dir", re); err != nil || !strings.Contains(out, "tune-T3-sssp.png") {
		t.Errorf("--plot-only: %v\n%s", err, out)
	}
	checkPNG(t, filepath.Join(re, "tune-sample_every-bfs.png"))
	if md := readFile(t, filepath.Join(dir, "tune.md")); !strings.Contains(md, "GOMAXPROCS") {
		t.Errorf("tune.md lacks the environment:\n%s", md)
	}
}

// TestTuneFloors sweeps only the pull and bitmap floors: rows for the
// algorithms each affects, the CSV columns, and a tuned value from each range.
func TestTuneFloors(t *testing.T) {
	dir := t.TempDir()
	mustGearbox(t, "tune", "--graphs", "kron:8", "--sources", "1", "--t3", "", "--sample-every", "", "--t2", "",
		"--alpha", "", "--beta", "", "--delta-factor", "", "--delta", "", "--threads-per-block", "",
		"--pull-min-edges", "0,100000", "--bitmap-min-vertices", "0,1000", "--out-dir", dir, "--log-level", "warn")
	header, rows := readCSV(t, filepath.Join(dir, "tune.csv"))
	// pull_min_edges: 2 values x BFS; bitmap_min_vertices: 2 values and
	// the current 4096 x BFS and SSSP.
	if len(rows) != 2+6 {
		t.Errorf("%d rows, want 8", len(rows))
	}
	pc, bc, kc := column(t, header, "pull_min_edges"), column(t, header, "bitmap_min_vertices"), column(t, header, "param")
	for _, r := range rows {
		if r[kc] == "pull_min_edges" && r[pc] != "0" && r[pc] != "100000" || r[kc] == "bitmap_min_vertices" && r[bc] != "0" && r[bc] != "1000" && r[bc] != "4096" {
			t.Errorf("row %v: the swept value is not in its column", r)
		}
	}
	set, err := decider.LoadThresholds(filepath.Join(dir, "thresholds.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if c := set.CPU; c.PullMinEdges != 0 && c.PullMinEdges != 100000 || c.BitmapMinVertices != 0 && c.BitmapMinVertices != 1000 && c.BitmapMinVertices != 4096 {
		t.Errorf("tuned floors %d, %d: not from the swept ranges", c.PullMinEdges, c.BitmapMinVertices)
	}
	if _, _, err := gearbox(t, "tune", "--plot-only", filepath.Join(dir, "tune.csv"), "--out-dir", t.TempDir()); err != nil {
		t.Errorf("--plot-only: %v", err)
	}
}

// TestTuneMergesThresholds checks that tuning replaces only the backend's
// section of an existing thresholds file.
func TestTuneMergesThresholds(t *testing.T) {
	dir := t.TempDir()
	th := writeFile(t, dir, "th.toml", "# my thresholds\n[cpu]\nT1 = 4.0\nT3 = 0.2\n\n# tuned on the big GPU\n[gpu.\"NVIDIA H100 80GB HBM3\"]\nT3 = 0.07\ndelta = 8\n")
	mustGearbox(t, "tune", "--graphs", "grid:6:6", "--sources", "2", "--algorithms", "bfs",
		"--t3", "0.01,0.05", "--sample-every", "", "--t2", "", "--alpha", "", "--beta", "", "--delta", "",
		"--thresholds", th, "--thresholds-out", th, "--out-dir", dir, "--log-level", "warn")
	set, err := decider.LoadThresholds(th)
	if err != nil {
		t.Fatal(err)
	}
	if g := set.GPU["NVIDIA H100 80GB HBM3"]; g.T3 != 0.07 || knob(t, set, "NVIDIA H100 80GB HBM3", "delta") != 8 {
		t.Errorf("GPU section changed: %+v", g)
	}
	if set.CPU.T1 != 4 || !slices.Contains([]float64{0.01, 0.05, 0.2}, set.CPU.T3) { // the sweep's and the current
		t.Errorf("cpu section %+v: want T1 kept from the start (4) and T3 from the sweep", set.CPU)
	}
	text := readFile(t, th)
	if !strings.Contains(text, "# my thresholds") || !strings.Contains(text, "# tuned on the big GPU") ||
		strings.Count(text, "[cpu]") != 1 {
		t.Errorf("merged file lost comments or duplicated [cpu]:\n%s", text)
	}
}

// TestTuneUnsweptKeys: without --thresholds, tune writes the keys it does
// not sweep from the thresholds the adaptive policy uses by default (the
// shipped thresholds.toml's [cpu]), keeps the other sections of an existing
// --thresholds-out, and says on stderr which keys of its section that
// changes; with --thresholds F they are kept from F.
func TestTuneUnsweptKeys(t *testing.T) {
	shipped := runtime.DefaultThresholds(runtime.NewCPU(0))
	if shipped != decider.DefaultThresholdSet().CPU {
		t.Fatalf("the policy's default CPU thresholds %+v are not the shipped [cpu] %+v", shipped, decider.DefaultThresholdSet().CPU)
	}
	const gpu = "\n[gpu.\"X\"]\nT3 = 0.07\n"
	tests := []struct {
		name       string
		file       string // --thresholds-out's content before ("": none)
		fromFile   bool   // pass --thresholds with the same file
		wantStderr string // "": no note
	}{
		{"new file", "", false, ""},
		{"existing section", "[cpu]\nT1 = 32.0\nalpha = 10.0\nT3 = 0.2\n" + gpu, false,
			"has [cpu]; tune replaces it, taking the keys it does not sweep from the built-in thresholds, not from the file: T1 = 32 -> 64, alpha = 10 -> 15"},
		{"existing section equal", "[cpu]\nT3 = 0.2\n" + gpu, false, ""},
		{"existing file without the section", "[gpu.\"X\"]\nT3 = 0.07\n", false, ""},
		{"started from the file", "[cpu]\nT1 = 32.0\nalpha = 10.0\n" + gpu, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			th := filepath.Join(dir, "th.toml")
			args := []string{"tune", "--graphs", "grid:6:6", "--sources", "1", "--algorithms", "bfs",
				"--t3", "0.01,0.05", "--sample-every", "", "--t2", "", "--alpha", "", "--beta", "",
				"--thresholds-out", th, "--out-dir", dir, "--log-level", "warn"}
			if tc.file != "" {
				writeFile(t, dir, "th.toml", tc.file)
			}
			if tc.fromFile {
				args = append(args, "--thresholds", th)
			}
			_, stderr := mustGearbox(t, args...)
			if tc.wantStderr == "" && strings.Contains(stderr, "note: --thresholds-out") || !strings.Contains(stderr, tc.wantStderr) {
				t.Errorf("stderr %q, want the note %q", stderr, tc.wantStderr)
			}
			set, err := decider.LoadThresholds(th)
			if err != nil {
				t.Fatal(err)
			}
			got, want := set.CPU, shipped
			want.T3 = got.T3 // swept
			if tc.fromFile {
				want.T1, want.Alpha = 32, 10
			}
			// Swept over 0.01 and 0.05 and the current value, 0.005.
			if !slices.Contains([]float64{0.005, 0.01, 0.05}, got.T3) || got != want {
				t.Errorf("[cpu] written as %+v, want %+v with T3 from the sweep", got, want)
			}
			if strings.Contains(tc.file, "gpu") && set.GPU["X"].T3 != 0.07 {
				t.Errorf("the other section changed: %+v", set.GPU["X"])
			}
		})
	}
}

// TestTuneSection tunes BFS's own section on the CPU: the descent starts
// from [cpu.bfs] of --thresholds, and only [cpu.bfs] of --thresholds-out is
// written.
func TestTuneSection(t *testing.T) {
	dir := t.TempDir()
	th := writeFile(t, dir, "th.toml", "# my thresholds\n[cpu]\nT1 = 4.0\nT3 = 0.2\n\n[cpu.bfs]\nT1 = 6.0\n\n[cpu.sssp]\ndelta = 8\n")
	out, _ := mustGearbox(t, "tune", "--graphs", "grid:6:6", "--sources", "1", "--algorithms", "bfs", "--section", "bfs",
		"--t3", "0.01,0.05", "--sample-every", "", "--t2", "", "--alpha", "", "--beta", "",
		"--thresholds", th, "--thresholds-out", th, "--out-dir", dir, "--log-level", "warn")
	if !strings.Contains(out, "best setting ([cpu.bfs])") {
		t.Errorf("stdout does not name the section:\n%s", out)
	}
	set, err := decider.LoadThresholds(th)
	if err != nil {
		t.Fatal(err)
	}
	bfs, ok := set.CPUAlg["bfs"]
	if !ok || bfs.T1 != 6 || !slices.Contains([]float64{0.01, 0.05, 0.2}, bfs.T3) { // the sweep's and the current
		t.Errorf("[cpu.bfs] %+v (present %v): want T1 kept from [cpu.bfs] (6) and T3 from the sweep", bfs, ok)
	}
	if set.CPU.T1 != 4 || set.CPU.T3 != 0.2 || knob(t, set, "", "delta") != 8 {
		t.Errorf("other sections changed: [cpu] %+v, [cpu.sssp] %+v", set.CPU, set.Knobs["[cpu.sssp]"])
	}
	text := readFile(t, th)
	if strings.Count(text, "[cpu.bfs]") != 1 || !strings.Contains(text, "# my thresholds") {
		t.Errorf("merged file:\n%s", text)
	}

	// A new file gets [cpu.bfs] alone (on the CPU the section builds on
	// the built-in [cpu] values).
	fresh := t.TempDir()
	mustGearbox(t, "tune", "--graphs", "grid:6:6", "--sources", "1", "--algorithms", "bfs", "--section", "bfs",
		"--t3", "0.01,0.05", "--sample-every", "", "--t2", "", "--alpha", "", "--beta", "",
		"--out-dir", fresh, "--log-level", "warn")
	set, err = decider.LoadThresholds(filepath.Join(fresh, "thresholds.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := set.CPUAlg["bfs"]; !ok || len(set.CPUAlg) != 1 {
		t.Errorf("new file's per-algorithm sections %v, want [cpu.bfs]", set.CPUAlg)
	}
}

// TestTuneScoreUsage: --score device on the CPU and an unknown score are
// usage errors naming the flag, before anything runs; a CPU sweep's CSV
// has no device times to plot.
func TestTuneScoreUsage(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr error
		want    []string
	}{
		{"device on the cpu", []string{"--score", "device"}, tuning.ErrNoDeviceTime,
			[]string{"--score device", "not a GPU", "no device time", "--device cuda"}},
		{"device on the cpu named", []string{"--score", "device", "--device", "cpu"}, tuning.ErrNoDeviceTime, []string{"--score device"}},
		{"unknown score", []string{"--score", "kernels"}, tuning.ErrUnknownScore, []string{"--score", `"kernels"`, "valid: wall, device"}},
		{"empty score", []string{"--score", ""}, tuning.ErrUnknownScore, []string{"valid: wall, device"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			_, _, err := gearbox(t, append([]string{"tune", "--graphs", "kron:6", "--out-dir", out}, tc.args...)...)
			if !errors.Is(err, errUsage) || !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want a usage error wrapping %v", err, tc.wantErr)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was created", out)
			}
		})
	}
	// --plot-only --score device of a CPU sweep: nothing to plot by.
	dir := t.TempDir()
	mustGearbox(t, "tune", "--graphs", "grid:6:6", "--sources", "1", "--algorithms", "bfs",
		"--t3", "0.01,0.05", "--sample-every", "", "--t2", "", "--alpha", "", "--beta", "", "--out-dir", dir, "--log-level", "warn")
	_, _, err := gearbox(t, "tune", "--plot-only", filepath.Join(dir, "tune.csv"), "--score", "device", "--out-dir", t.TempDir())
	if !errors.Is(err, tuning.ErrNoDeviceTime) || !strings.Contains(err.Error(), "--score wall") {
		t.Errorf("--plot-only --score device of a cpu sweep: err = %v, want ErrNoDeviceTime naming --score wall", err)
	}
}

// TestTuneSectionUsage: --section names one algorithm, the one tuned; a
// mistake is a usage error before anything runs.
func TestTuneSectionUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"other algorithm", []string{"--algorithms", "bfs", "--section", "sssp"}, "--algorithms sssp"},
		{"two algorithms", []string{"--algorithms", "bfs,sssp", "--section", "bfs"}, "--section bfs"},
		{"default algorithms", []string{"--section", "sssp"}, "--section sssp"},
		{"not an algorithm", []string{"--algorithms", "bfs", "--section", "gpu"}, "bfs, cc, maxflow, mst, scc, sssp"},
	}
	for _, tc := range tests {
		out := filepath.Join(t.TempDir(), "out")
		_, _, err := gearbox(t, append([]string{"tune", "--graphs", "kron:6", "--out-dir", out}, tc.args...)...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want a usage error naming %q", tc.name, err, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s was created", tc.name, out)
		}
	}
}

// TestBenchPerAlgorithm: each algorithm's adaptive policy runs with its own
// section of --thresholds, and the report says which.
func TestBenchPerAlgorithm(t *testing.T) {
	dir := t.TempDir()
	th := writeFile(t, dir, "th.toml", "[cpu]\nT1 = 4.0\n[cpu.bfs]\nT1 = 6.0\n")
	mustGearbox(t, "bench", "--graphs", "grid:6:6", "--sources", "1", "--delta", "16", "--thresholds", th,
		"--out-dir", dir, "--log-level", "warn")
	md := readFile(t, filepath.Join(dir, "bench.md"))
	for _, w := range []string{"adaptive thresholds: bfs {T1:6 ", "; sssp {T1:4 "} {
		if !strings.Contains(md, w) {
			t.Errorf("bench.md lacks %q:\n%s", w, md)
		}
	}
}

func TestBenchTiny(t *testing.T) {
	dir := t.TempDir()
	out, _ := mustGearbox(t, "bench", "--graphs", "kron:8,grid:8:8", "--sources", "2", "--delta", "1,16", "--repeats", "2",
		"--out-dir", dir, "--log-level", "warn")
	if !strings.Contains(out, "adaptive vs best and worst static") {
		t.Errorf("stdout:\n%s", out)
	}
	header, rows := readCSV(t, filepath.Join(dir, "bench.csv"))
	vc, sc, rc := column(t, header, "variant"), column(t, header, "speedup_vs_serial"), column(t, header, "repeats")
	ac, gc, dc := column(t, header, "algorithm"), column(t, header, "graph"), column(t, header, "delta")
	// The ordered SSSP statics run at --delta's widths and at the one the
	// adaptive policy derives for the graph (delta_factor), which its row
	// records.
	deltas := map[string]map[string]bool{} // graph -> ordered statics' deltas
	adaptiveDelta := map[string]string{}
	for _, r := range rows {
		if r[ac] != "sssp" {
			continue
		}
		switch {
		case r[vc] == "adaptive":
			adaptiveDelta[r[gc]] = r[dc]
		case strings.HasPrefix(r[vc], "O_"):
			if deltas[r[gc]] == nil {
				deltas[r[gc]] = map[string]bool{}
			}
			deltas[r[gc]][r[dc]] = true
		}
	}
	ordered := 0
	for _, g := range []string{"kron:8", "grid:8:8"} {
		d := adaptiveDelta[g]
		if d == "" || d == "0" || !deltas[g]["1"] || !deltas[g]["16"] || !deltas[g][d] {
			t.Errorf("%s: adaptive delta %q, statics' deltas %v: want 1, 16 and the adaptive one", g, d, deltas[g])
		}
		ordered += len(deltas[g])
	}
	// Per graph: BFS serial + 8 push + pull + adaptive = 11; SSSP serial +
	// 4 ordered x its deltas + 4 unordered + adaptive; each then 2 rows of
	// the confirmation round (the adaptive and the best static; the CPU has
	// no device times).
	if want := 2*11 + 2*6 + 4*ordered + 4*2; len(rows) != want {
		t.Errorf("%d CSV rows, want %d", len(rows), want)
	}
	count := map[string]int{}
	for _, r := range rows {
		count[r[vc]]++
		if r[rc] != "2" {
			t.Errorf("row %v: repeats %q, want 2", r, r[rc])
		}
		if v, err := strconv.ParseFloat(r[sc], 64); err != nil || v <= 0 {
			t.Errorf("row %v: speedup %q", r, r[sc])
		}
	}
	if count["serial"] != 4 || count["adaptive"] != 4 || count["pull"] != 2 || count["O_T_BM"] != 2+ordered || count["U_B_QU"] != 4 ||
		count["confirm:adaptive"] != 4 {
		t.Errorf("variant counts %v", count)
	}
	md := readFile(t, filepath.Join(dir, "bench.md"))
	for _, w := range []string{"## BFS: speedup over the serial reference", "| graph | serial ms | O_T_BM |",
		"## SSSP: adaptive vs best and worst static", "| kron:8 |", "| grid:8:8 |", "- driver: n/a", "- GOMAXPROCS:", "- commit:",
		"## SSSP: what the adaptive policy ran", "adaptive / best per source | confirmed |"} {
		if !strings.Contains(md, w) {
			t.Errorf("bench.md lacks %q:\n%s", w, md)
		}
	}
	checkPNG(t, filepath.Join(dir, "bench-bfs.png"))
	checkPNG(t, filepath.Join(dir, "bench-sssp.png"))
	re := t.TempDir()
	if out, _, err := gearbox(t, "bench", "--plot-only", filepath.Join(dir, "bench.csv"), "--out-dir", re); err != nil || !strings.Contains(out, "bench-sssp.png") {
		t.Errorf("--plot-only: %v\n%s", err, out)
	}
	checkPNG(t, filepath.Join(re, "bench-bfs.png"))

	// --compare-defaults adds the adaptive policy under the built-in
	// defaults, reported against the tuned thresholds.
	cd := t.TempDir()
	mustGearbox(t, "bench", "--graphs", "kron:7", "--algorithms", "bfs", "--sources", "2", "--compare-defaults", "--confirm=false",
		"--out-dir", cd, "--log-level", "warn")
	header, rows = readCSV(t, filepath.Join(cd, "bench.csv"))
	vc = column(t, header, "variant")
	if len(rows) != 12 || rows[11][vc] != "adaptive_defaults" {
		t.Errorf("--compare-defaults rows: %v", rows)
	}
	if md := readFile(t, filepath.Join(cd, "bench.md")); !strings.Contains(md, "tuned thresholds vs device-derived defaults") {
		t.Errorf("bench.md lacks the defaults table:\n%s", md)
	}
}

// TestSweepBadInput checks that bad input fails before anything runs (no
// output directory is created).
func TestSweepBadInput(t *testing.T) {
	dir := t.TempDir()
	gpuOnly := writeFile(t, dir, "gpu.toml", "[gpu.\"NVIDIA H100 80GB HBM3\"]\nT3 = 0.1\n")
	real := writeFile(t, dir, "real.txt", "0\t1\t0.5\n1\t2\t1.25\n")
	dat := writeFile(t, dir, "g.dat", "0 1\n1 2\n")
	tests := []struct {
		name    string
		args    []string
		wantErr []string
	}{
		// Found before kron:6 is generated, not after.
		{"unknown extension", []string{"bench", "--graphs", "kron:6," + dat}, []string{"g.dat", `extension ".dat"`, "--format"}},
		{"unknown format", []string{"tune", "--graphs", dat, "--format", "xyz"}, []string{"--format", `"xyz"`}},
		{"empty t3 range", []string{"tune", "--t3", "0.05:0.01"}, []string{"--t3", "empty range", "0.05"}},
		{"t3 out of range", []string{"tune", "--t3", "0.5:2:0.5"}, []string{"--t3", "T3"}},
		{"sample every not integer", []string{"tune", "--sample-every", "1.5,2"}, []string{"--sample-every", "not an integer"}},
		{"bad step", []string{"tune", "--t2", "16:64:0"}, []string{"--t2", "step"}},
		{"missing files", []string{"tune", "--graphs", "kron:6," + filepath.Join(dir, "a.el") + ",grid:4:4," + filepath.Join(dir, "b.mtx")},
			[]string{"a.el", "b.mtx", "no such file"}},
		{"bad gen spec", []string{"bench", "--graphs", "kron:x"}, []string{"--graphs", "kron:x"}},
		{"thresholds for another device", []string{"tune", "--graphs", "kron:6", "--thresholds", gpuOnly},
			[]string{"gpu.toml", "[cpu]", "NVIDIA H100"}},
		{"bench thresholds for another device", []string{"bench", "--graphs", "kron:6", "--thresholds", gpuOnly},
			[]string{"[cpu]"}},
		{"thresholds-out in a missing directory", []string{"tune", "--graphs", "kron:6", "--thresholds-out", filepath.Join(dir, "no", "t.toml")},
			[]string{"--thresholds-out", "does not exist"}},
		{"bad algorithm", []string{"bench", "--algorithms", "bfs,pagerank"}, []string{"pagerank"}},
		{"zero sources", []string{"tune", "--sources", "0"}, []string{"--sources"}},
		{"bench negative workers", []string{"bench", "--graphs", "kron:5", "--workers", "-3"}, []string{"--workers -3", "at least 0"}},
		{"tune too many workers", []string{"tune", "--graphs", "kron:5", "--workers", "4097"}, []string{"--workers 4097", "limit of 4096"}},
		{"same spec twice", []string{"bench", "--graphs", "kron:5,grid:3:3,kron:5"}, []string{"--graphs lists the graph kron:5:16 twice", `"kron:5" and "kron:5"`}},
		{"same spec spelled twice", []string{"tune", "--graphs", "kron:5,kron:5:16"}, []string{"--graphs lists the graph kron:5:16 twice"}},
		{"same file twice", []string{"bench", "--graphs", real + "," + filepath.Join(dir, ".", "real.txt")}, []string{"--graphs lists the file", "real.txt twice"}},
		{"bench sources over the limit", []string{"bench", "--graphs", "kron:5", "--sources", "100000000"}, []string{"--sources 100000000", "limit of 65536"}},
		{"tune sources over the limit", []string{"tune", "--graphs", "kron:5", "--sources", "65537"}, []string{"--sources 65537", "limit of 65536"}},
		{"zero repeats", []string{"bench", "--repeats", "0"}, []string{"--repeats"}},
		{"bench empty delta", []string{"bench", "--delta", "64:8"}, []string{"--delta", "empty range"}},
		{"bench negative delta", []string{"bench", "--delta", "-4"}, []string{"--delta -4", "delta = -4, want >= 1"}},
		{"tune negative delta", []string{"tune", "--delta", "16,-4"}, []string{"delta = -4, want >= 1"}},
		{"bench NaN weight scale", []string{"bench", "--graphs", "kron:5", "--weight-scale", "NaN"}, []string{"--weight-scale NaN: want a finite value >= 0"}},
		{"tune negative weight scale", []string{"tune", "--graphs", "kron:5", "--weight-scale", "-1"}, []string{"--weight-scale -1: want a finite value >= 0"}},
		{"jump factor 1", []string{"tune", "--jump-factor", "0,1"}, []string{"--jump-factor", "jump_factor = 1", "> 1"}},
		{"negative delta factor", []string{"tune", "--delta-factor", "-2"}, []string{"--delta-factor", "delta_factor = -2"}},
		{"float weights for sssp", []string{"bench", "--graphs", real, "--algorithms", "sssp"},
			[]string{"real.txt", "--weight-scale"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			_, _, err := gearbox(t, append(tc.args, "--out-dir", out)...)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if !strings.HasPrefix(tc.name, "float weights") && !strings.HasPrefix(tc.name, "thresholds-out") {
				if _, err := os.Stat(out); err == nil {
					t.Errorf("%s was created although the input was bad", out)
				}
			}
		})
	}
	if _, _, err := gearbox(t, "tune", "--thresholds", gpuOnly, "--graphs", "kron:6"); !errors.Is(err, tuning.ErrNoSection) {
		t.Errorf("err = %v, want tuning.ErrNoSection", err)
	}
}

// TestSweepGraphNames: graph files of equal base names get names that tell
// them apart in every report, so that neither's rows are lost.
func TestSweepGraphNames(t *testing.T) {
	dir := t.TempDir()
	for _, g := range []struct{ spec, path string }{{"grid:3:3", "a/g.mtx"}, {"kron:4", "b/g.mtx"}, {"grid:2:2", "g.mtx"}} {
		p := filepath.Join(dir, g.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mustGearbox(t, "gen", g.spec, p)
	}
	graphs := filepath.Join(dir, "a", "g.mtx") + "," + filepath.Join(dir, "b", "g.mtx") + "," + filepath.Join(dir, "g.mtx") + ",kron:3"
	want := []string{"a/g.mtx", "b/g.mtx", filepath.Base(dir) + "/g.mtx", "kron:3"}
	tests := []struct {
		name   string
		args   []string
		report string // the markdown report
	}{
		{"bench", []string{"bench", "--algorithms", "bfs", "--confirm=false"}, "bench.md"},
		{"tune", []string{"tune", "--algorithms", "bfs", "--t3", "0.01,0.05", "--sample-every", "", "--t2", "", "--alpha", "", "--beta", ""}, "tune.md"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			mustGearbox(t, append(tc.args, "--graphs", graphs, "--sources", "1", "--out-dir", out, "--log-level", "warn")...)
			header, rows := readCSV(t, filepath.Join(out, tc.name+".csv"))
			gc := column(t, header, "graph")
			got := map[string]bool{}
			for _, r := range rows {
				got[r[gc]] = true
			}
			for _, w := range want {
				if !got[w] {
					t.Errorf("%s.csv's graph column %v lacks %q", tc.name, got, w)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%s.csv has graphs %v, want %v", tc.name, got, want)
			}
			md := readFile(t, filepath.Join(out, tc.report))
			for _, w := range want {
				// bench.md's table rows; tune.md's fastest value per graph.
				if !strings.Contains(md, "| "+w+" |") && !strings.Contains(md, " bfs/"+w+"=") {
					t.Errorf("%s lacks %s:\n%s", tc.report, w, md)
				}
			}
		})
	}
}

// TestSweepFormat: --format reads every graph file of --graphs in one
// format, whatever its extension (generator specs are unaffected).
func TestSweepFormat(t *testing.T) {
	dir := t.TempDir()
	dat := writeFile(t, dir, "g.dat", readFile(t, "../../graph/testdata/tiny.mtx"))
	for _, cmd := range [][]string{
		{"bench", "--confirm=false"},
		{"tune", "--t3", "0.01,0.05", "--sample-every", "", "--t2", "", "--alpha", "", "--beta", ""},
	} {
		out := t.TempDir()
		mustGearbox(t, append(cmd, "--graphs", dat+",grid:3:3", "--format", "mtx", "--algorithms", "bfs", "--sources", "1",
			"--out-dir", out, "--log-level", "warn")...)
		header, rows := readCSV(t, filepath.Join(out, cmd[0]+".csv"))
		gc := column(t, header, "graph")
		if len(rows) == 0 || rows[0][gc] != "g.dat" {
			t.Errorf("%s: first row %v, want g.dat's", cmd[0], rows[0])
		}
	}
}

// TestPlotOnlyBadCSV: --plot-only refuses a CSV without rows (which gave an
// empty report and exit 0) and one with a value out of range, naming the
// file, line, column and value, before writing anything.
func TestPlotOnlyBadCSV(t *testing.T) {
	dir := t.TempDir()
	const benchHead = "algorithm,graph,variant,delta,sources,median_ms,min_ms,max_ms,speedup_vs_serial,repeats,device_ms,per_source_ms,per_source_device_ms,variants\n"
	const tuneHead = "pass,param,value,algorithm,graph,T1,T2,T3,sample_every,alpha,beta,delta,threads_per_block,sources,median_ms,min_ms,max_ms,repeats\n"
	tests := []struct {
		name, cmd, csv string
		want           []string
	}{
		{"bench header only", "bench", benchHead, []string{"no rows after the header"}},
		{"tune header only", "tune", tuneHead, []string{"no rows after the header"}},
		{"bench negative time", "bench", benchHead + "bfs,g,serial,,2,1,1,1,1,1,0,,,\nbfs,g,pull,,2,-9223372036854.775,1,1,1,1,0,,,\n",
			[]string{"line 3, column median_ms", `"-9223372036854.775"`}},
		{"bench NaN time", "bench", benchHead + "bfs,g,serial,,2,NaN,1,1,1,1,0,,,\n", []string{"line 2, column median_ms", `"NaN"`}},
		{"tune NaN value", "tune", tuneHead + "1,T3,NaN,bfs,g,64,16,0.005,6,15,18,32,0,2,1,1,1,1\n", []string{"line 2, column value", `"NaN"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".csv", tc.csv)
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			_, _, err := gearbox(t, tc.cmd, "--plot-only", p, "--out-dir", out)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range append(tc.want, p+": ") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was created", out)
			}
		})
	}
}

// TestSweepInterrupted cancels the context after the first rows and checks
// that the rows finished are kept in the CSV and reported.
func TestSweepInterrupted(t *testing.T) {
	for _, cmd := range []string{"tune", "bench"} {
		t.Run(cmd, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			const keep = 3
			n := 0
			hook := func() {
				if n++; n == keep {
					cancel()
				}
			}
			tuneRowHook = func(tuning.TuneRow) { hook() }
			benchRowHook = func(tuning.BenchRow) { hook() }
			defer func() { tuneRowHook, benchRowHook = nil, nil }()
			var out, errb bytes.Buffer
			args := []string{cmd, "--graphs", "kron:8,grid:8:8", "--sources", "2", "--out-dir", dir, "--log-level", "warn"}
			err := run(ctx, args, &out, &errb)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			// Both measure a graph's configurations (tune: the values of
			// one knob) together, so the rest of that graph's rows finish
			// after the cancellation; the next graph's do not.
			if n < keep {
				t.Errorf("%d rows finished, want at least %d", n, keep)
			}
			if want := fmt.Sprintf("kept %d finished rows", n); !strings.Contains(out.String(), want) {
				t.Errorf("stdout does not report the rows kept (%q):\n%s", want, out.String())
			}
			_, rows := readCSV(t, filepath.Join(dir, cmd+".csv"))
			if len(rows) != n {
				t.Errorf("%d CSV rows kept, want the %d finished", len(rows), n)
			}
			for _, r := range rows {
				if cmd == "bench" && strings.HasPrefix(r[1], "grid") { // bench.csv: algorithm,graph,...
					t.Errorf("row %v of the graph after the cancellation", r)
				}
			}
			if cmd == "tune" {
				if _, err := os.Stat(filepath.Join(dir, "thresholds.toml")); err == nil {
					t.Error("an interrupted tune wrote thresholds")
				}
			}
		})
	}
}

// TestBenchAndTuneCC: connected components take part in bench (its static
// configurations are the CC algorithms and SV's working sets) and in tune
// (only the knobs its policy reads are swept).
func TestBenchAndTuneCC(t *testing.T) {
	dir := t.TempDir()
	mustGearbox(t, "bench", "--algorithms", "cc", "--graphs", "kron:8,grid:8:8", "--sources", "2",
		"--out-dir", dir, "--log-level", "warn")
	header, rows := readCSV(t, filepath.Join(dir, "bench.csv"))
	vc := column(t, header, "variant")
	count := map[string]int{}
	for _, r := range rows {
		count[r[vc]]++
	}
	for _, v := range []string{"serial", "sv_BM", "sv_QU", "sv", "afforest", "unionfind", "adaptive"} {
		if count[v] != 2 {
			t.Errorf("variant %s: %d rows, want one per graph (counts %v)", v, count[v], count)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bench-cc.png")); err != nil {
		t.Error(err)
	}
	tdir := t.TempDir()
	out, _ := mustGearbox(t, "tune", "--algorithms", "cc", "--graphs", "grid:8:8", "--sources", "2",
		"--t3", "0.01,0.05", "--t1", "8,64", "--out-dir", tdir, "--log-level", "warn")
	if !strings.Contains(out, "T3") || !strings.Contains(out, "T1") {
		t.Errorf("tune output lacks the CC knobs:\n%s", out)
	}
	if strings.Contains(out, "pass 1 delta") || strings.Contains(out, "pass 1 alpha") {
		t.Errorf("tune swept knobs CC does not read:\n%s", out)
	}
}

// TestTuneDeltaFactorSkipsDelta: with the default delta_factor (> 0), the
// delta sweep has no effect and is skipped; the tune still completes, plots
// what it swept and writes the factor into the section.
func TestTuneDeltaFactorSkipsDelta(t *testing.T) {
	dir := t.TempDir()
	out, _ := mustGearbox(t, "tune", "--graphs", "kron:8,grid:8:8", "--sources", "1", "--t3", "", "--sample-every", "", "--t2", "",
		"--alpha", "", "--beta", "", "--threads-per-block", "", "--delta-factor", "4,8", "--delta", "1,16",
		"--out-dir", dir, "--log-level", "warn")
	if !strings.Contains(out, "pass 1 delta             not swept (delta_factor > 0 derives it per graph)") {
		t.Errorf("stdout does not report the skipped delta sweep:\n%s", out)
	}
	checkPNG(t, filepath.Join(dir, "tune-delta_factor-sssp.png"))
	if _, err := os.Stat(filepath.Join(dir, "tune-delta-sssp.png")); err == nil {
		t.Error("a plot of the skipped delta sweep was written")
	}
	set, err := decider.LoadThresholds(filepath.Join(dir, "thresholds.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if f := knob(t, set, "", "delta_factor"); f != 4 && f != 8 {
		t.Errorf("written delta_factor %v, want 4 or 8", f)
	}
}

// knob returns the value of an algorithm's or the backend's key that runs
// on device read from set (algorithms.Values).
func knob(t *testing.T, set *decider.ThresholdSet, device, key string) float64 {
	t.Helper()
	k, err := algorithms.Values(set, device, "")
	if err != nil {
		t.Fatal(err)
	}
	switch v := k[key].(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	t.Fatalf("no value of %s", key)
	return 0
}
