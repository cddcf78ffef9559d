package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Class 2 of issue 35: outputs never destroy data.
func TestOutputsNeverDestroyData(t *testing.T) {
	dir := t.TempDir()
	graphText := "0 1\n1 2\n2 0\n"
	g := writeFile(t, dir, "g.el", graphText)
	link := filepath.Join(dir, "link.el")
	if err := os.Symlink(g, link); err != nil {
		t.Fatal(err)
	}
	th := writeFile(t, dir, "th.toml", "[cpu]\n")
	cases := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"run --out the input", []string{"run", "bfs", "--graph", g, "--out", g}, "--out " + g + " is the input file " + g},
		{"run --out the input through a link", []string{"run", "bfs", "--graph", g, "--out", link}, "is the input file"},
		{"run --trace the input", []string{"run", "bfs", "--graph", link, "--trace", g}, "--trace " + g + " is the input file"},
		{"run --cpuprofile the input", []string{"run", "bfs", "--graph", g, "--cpuprofile", g}, "--cpuprofile " + g + " is the input file"},
		{"run --out the thresholds", []string{"run", "bfs", "--graph", g, "--thresholds", th, "--out", th}, "is the input file " + th},
		{"run --out and --trace one file", []string{"run", "bfs", "--graph", g, "--out", filepath.Join(dir, "r"), "--trace", filepath.Join(dir, ".", "r")}, "--out and --trace name the same file"},
		{"convert to the input through a link", []string{"convert", g, link}, "is the input file"},
	}
	for _, tc := range cases {
		_, _, err := gearbox(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.wantErr)
		}
		if b := readFile(t, g); b != graphText {
			t.Fatalf("%s: the input was changed to %q", tc.name, b)
		}
		if b := readFile(t, th); b != "[cpu]\n" {
			t.Fatalf("%s: the thresholds file was changed to %q", tc.name, b)
		}
	}
	// A directory where no file can be created is found before the work.
	if os.Getuid() != 0 { // root may write anywhere
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		if _, _, err := gearbox(t, "run", "bfs", "--graph", filepath.Join(dir, "missing.el"), "--out", filepath.Join(ro, "x")); err == nil || !strings.Contains(err.Error(), "cannot create a file in") {
			t.Errorf("read-only directory: err = %v", err)
		}
	}
}

// "-" is standard output for every output: --trace - wrote a file named -.
func TestDashIsStdoutEverywhere(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	out, stderr := mustGearbox(t, "run", "bfs", "--gen", "kron:6", "--trace", "-")
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Errorf("--trace - created a file named -")
	}
	if !strings.HasPrefix(strings.TrimSpace(out), "{") && !strings.HasPrefix(strings.TrimSpace(out), "[") {
		t.Errorf("--trace - wrote no JSON to stdout: %.200q", out)
	}
	if !strings.Contains(stderr, "bfs on kron:6") {
		t.Errorf("with --trace - the summary goes to stderr: %.200q", stderr)
	}
}

// convert says what the target format drops.
func TestConvertSaysWhatIsLost(t *testing.T) {
	dir := t.TempDir()
	_, stderr, err := gearbox(t, "convert", "../../graph/testdata/tiny.max", filepath.Join(dir, "t.gr"))
	if err != nil || !strings.Contains(stderr, "note: format gr cannot hold the graph's max-flow source and sink") {
		t.Errorf("max -> gr: err %v, stderr %q", err, stderr)
	}
	_, stderr, err = gearbox(t, "convert", "../../graph/testdata/tiny.wel", filepath.Join(dir, "t.el"))
	if err != nil || !strings.Contains(stderr, "cannot hold the graph's integer weights") {
		t.Errorf("wel -> el: err %v, stderr %q", err, stderr)
	}
}

// Class 1 at the command line: endless or binary inputs are refused at
// once, whatever reads them.
func TestEndlessInputsRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"info", "--graph", "/dev/zero", "--format", "snap"}, "binary data (a NUL byte at offset 0)"},
		{[]string{"run", "bfs", "--gen", "kron:4", "--thresholds", "/dev/zero"}, "/dev/zero: more than 1048576 bytes, too large for a thresholds file"},
		{[]string{"bench", "--plot-only", "/dev/zero", "--out-dir", dir}, "/dev/zero: more than 67108864 bytes, too large for a bench CSV"},
		{[]string{"tune", "--plot-only", "/dev/zero", "--out-dir", dir}, "/dev/zero: more than 67108864 bytes, too large for a tune CSV"},
	} {
		if _, _, err := gearbox(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.args, err, tc.want)
		}
	}
}

// --weight-scale is refused where it cannot apply, never ignored.
func TestWeightScaleRefusedWhereItCannotApply(t *testing.T) {
	for _, args := range [][]string{
		{"info", "--gen", "grid:3:3", "--weight-scale", "10"},
		{"info", "--graph", "../../graph/testdata/tiny.el", "--weight-scale", "10"},
	} {
		if _, _, err := gearbox(t, args...); err == nil || !strings.Contains(err.Error(), "weight") {
			t.Errorf("%v: err = %v", args, err)
		}
	}
	out, _, err := gearbox(t, "run", "sssp", "--graph", "../../graph/testdata/tiny.gr", "--weight-scale", "10", "--verify")
	if err != nil || !strings.Contains(out, "verified") {
		t.Errorf("a scaled .gr: %v\n%s", err, out)
	}
}
