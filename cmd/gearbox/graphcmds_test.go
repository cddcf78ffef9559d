package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConvertOutputChecks: OUT is checked before the graph is read (the
// inputs here are missing, so a late check would report that instead), and
// convert refuses to overwrite its input, by name or through a link.
func TestConvertOutputChecks(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "g.el", "0 1\n1 2\n")
	if err := os.Symlink("g.el", filepath.Join(dir, "link.el")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(in, filepath.Join(dir, "hard.txt")); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"tiny.e", "tiny.v"} {
		writeFile(t, dir, f, readFile(t, filepath.Join("../../graph/testdata", f)))
	}
	missing := filepath.Join(dir, "missing.el")
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"same path", []string{"convert", in, in}, "the output " + in + " is the input file " + in + ": refusing to overwrite the input"},
		{"same path spelled otherwise", []string{"convert", in, filepath.Join(dir, ".", "g.el"), "--to", "el"}, "refusing to overwrite the input"},
		{"same path via --graph", []string{"convert", "--graph", in, in}, "refusing to overwrite the input"},
		{"through a symlink", []string{"convert", in, filepath.Join(dir, "link.el")}, "refusing to overwrite the input"},
		{"a hard link", []string{"convert", filepath.Join(dir, "link.el"), filepath.Join(dir, "hard.txt")}, "refusing to overwrite the input"},
		{"graphalytics vertex file", []string{"convert", filepath.Join(dir, "tiny.e"), filepath.Join(dir, "tiny.v"), "--to", "el"}, "is the input file " + filepath.Join(dir, "tiny.v")},
		{"stdout needs --to", []string{"convert", missing, "-"}, "writing to stdout needs --to FORMAT"},
		{"unwritable format", []string{"convert", missing, filepath.Join(dir, "out.graph")}, "cannot write format metis"},
		{"unwritable --to", []string{"convert", missing, filepath.Join(dir, "out.el"), "--to", "cedge"}, "--to: graph file format error: cannot write format cedge"},
		{"unknown extension", []string{"convert", missing, filepath.Join(dir, "out.xyz")}, "give --to FORMAT"},
		{"missing directory", []string{"convert", missing, filepath.Join(dir, "no", "out.el")}, "directory " + filepath.Join(dir, "no")},
		{"gen unwritable format", []string{"gen", "kron:x", filepath.Join(dir, "out.graph")}, "cannot write format metis"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := gearbox(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
			}
			if b, err := os.ReadFile(in); err != nil || string(b) != "0 1\n1 2\n" {
				t.Fatalf("the input changed: %q, %v", b, err)
			}
			if fi, err := os.Lstat(filepath.Join(dir, "link.el")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the symlink is gone: %v", err)
			}
		})
	}
	// A different file converts as before.
	mustGearbox(t, "convert", in, filepath.Join(dir, "copy.mtx"))
}

// TestConvertRenumberNote: writing a graph whose input ids el, wel, mtx or
// gr cannot keep says so on stderr (a --source in the old ids would name
// another vertex); snap and bin keep the ids and stay quiet.
func TestConvertRenumberNote(t *testing.T) {
	dir := t.TempDir()
	const td = "../../graph/testdata/"
	tests := []struct {
		in, out string
		want    string // in stderr; "" means no note
	}{
		{"tiny.txt", "g.el", "note: vertex ids renumbered: the input's ids 3..53 are written as 0..5 in sorted order (el numbers vertices from 0); use snap or bin to keep the original ids"},
		{"tiny.txt", "g.mtx", "the input's ids 3..53 are written as 1..6 in sorted order (mtx numbers vertices from 1)"},
		{"tiny.e", "g.wel", "vertex ids shifted: the input's ids 100..105 are written as 0..5 (wel numbers vertices from 0)"},
		{"tiny.mtx", "g.el", "note: vertex ids shifted: the input's ids 1..6 are written as 0..5 (el numbers vertices from 0)"},
		{"tiny.el", "g.mtx", "vertex ids shifted: the input's ids 0..5 are written as 1..6"},
		{"tiny.txt", "g.txt", ""},
		{"tiny.txt", "g.gbx", ""},
		{"tiny.mtx", "g.gr", ""},
		{"tiny.el", "g2.el", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in+"->"+tc.out, func(t *testing.T) {
			_, stderr := mustGearbox(t, "convert", td+tc.in, filepath.Join(dir, tc.out))
			if tc.want == "" && strings.Contains(stderr, "note:") {
				t.Errorf("unexpected note:\n%s", stderr)
			}
			if tc.want != "" && !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr)
			}
		})
	}
}

// TestInfoDropped: info says what loading dropped; its statistics count
// the self-loops the graph has, so "0 self-loops" alone misled.
func TestInfoDropped(t *testing.T) {
	const td = "../../graph/testdata/"
	tests := []struct {
		args []string
		want string // a line of stdout; "" means no such line
	}{
		{[]string{"--graph", td + "tiny.txt"}, "dropped 1 self-loops and 1 duplicate arcs while loading"},
		{[]string{"--graph", td + "tiny.mtx"}, "dropped 1 self-loops and 1 duplicate arcs while loading"},
		{[]string{"--graph", td + "tiny.el", "--undirected"}, "dropped 1 self-loops and 1 duplicate edges (u v again, either way round) while loading"},
		{[]string{"--graph", td + "tiny.graph"}, ""},
		{[]string{"--gen", "kron:6"}, ""},
	}
	for _, tc := range tests {
		out, _ := mustGearbox(t, append([]string{"info"}, tc.args...)...)
		if tc.want == "" && strings.Contains(out, "dropped") {
			t.Errorf("%v: unexpected line:\n%s", tc.args, out)
		}
		if tc.want != "" && !strings.Contains(out, tc.want+"\n") {
			t.Errorf("%v: stdout lacks %q:\n%s", tc.args, tc.want, out)
		}
	}
}

// TestConvertDeriveWeights: --derive-weights writes the weights SSSP and
// MST use, so a peer reading the .egr sees the same weighted graph; a
// weighted input is refused rather than silently reweighted.
func TestConvertDeriveWeights(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "g.el", "0 1\n1 2\n2 0\n")
	out := filepath.Join(dir, "g.wel")
	mustGearbox(t, "convert", in, out, "--derive-weights", "--seed", "7")
	lines := readLines(t, out)
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3: %q", len(lines), lines)
	}
	for _, l := range lines {
		if f := strings.Fields(l); len(f) != 3 || f[2] == "0" {
			t.Fatalf("line %q: want u v w with w in [1,255]", l)
		}
	}
	if _, _, err := gearbox(t, "convert", out, filepath.Join(dir, "h.egr"), "--derive-weights"); err == nil || !strings.Contains(err.Error(), "already has") {
		t.Fatalf("weighted input: %v", err)
	}
	mustGearbox(t, "convert", out, filepath.Join(dir, "h.egr"))
	if fi, err := os.Stat(filepath.Join(dir, "h.egr")); err != nil || fi.Size() != 4*(2+4+3+3) {
		t.Fatalf("egr size: %v, %v", fi, err)
	}
}
