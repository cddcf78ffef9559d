package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestRunTargetAndParents(t *testing.T) {
	dir := t.TempDir()
	out, _, err := gearbox(t, "run", "bfs", "--gen", "grid:5:5", "--source", "0", "--target", "24")
	if err != nil || !strings.Contains(out, "path 0 -> 24: 8 arcs: 0 ") || !strings.HasSuffix(strings.Split(strings.SplitAfter(out, "path 0 -> 24")[1], "\n")[0], " 24") {
		t.Fatalf("bfs --target: %v\n%s", err, out)
	}
	out, _, err = gearbox(t, "run", "sssp", "--gen", "grid:5:5", "--source", "0", "--target", "24")
	if err != nil || !strings.Contains(out, "path 0 -> 24: 8 arcs, length ") {
		t.Fatalf("sssp --target: %v\n%s", err, out)
	}
	f := filepath.Join(dir, "parents.txt")
	mustGearbox(t, "run", "bfs", "--gen", "grid:3:3", "--source", "4", "--parents", "--out", f)
	lines := readLines(t, f)
	if len(lines) != 9 || lines[4] != "4 0 -" || len(strings.Fields(lines[0])) != 3 || strings.Fields(lines[0])[1] != "2" {
		t.Fatalf("--parents --out:\n%q", lines)
	}
}

func TestRunStcon(t *testing.T) {
	dir := t.TempDir()
	el := writeFile(t, dir, "two.el", "1 2\n2 3\n4 5\n")
	f := filepath.Join(dir, "path.txt")
	out, _, err := gearbox(t, "run", "stcon", "--graph", el, "--source", "1", "--target", "3", "--out", f, "--verify")
	if err != nil || !strings.Contains(out, "reachable, 2 hops") {
		t.Fatalf("stcon: %v\n%s", err, out)
	}
	if b := readFile(t, f); b != "1\n2\n3\n" {
		t.Fatalf("--out: %q, want the path 1 2 3", b)
	}
	out, _, err = gearbox(t, "run", "stcon", "--graph", el, "--source", "1", "--target", "5", "--out", f, "--verify")
	if err != nil || !strings.Contains(out, "not reachable") {
		t.Fatalf("stcon unreachable: %v\n%s", err, out)
	}
	if b := readFile(t, f); b != "none\n" {
		t.Fatalf("--out unreachable: %q, want none", b)
	}
	pairs := writeFile(t, dir, "pairs.txt", "# queries\n1 3\n\n3 3\n1 4 # none\n")
	out, stderr, err := gearbox(t, "run", "stcon", "--graph", el, "--pairs", pairs)
	if err != nil || out != "1 3 2 1 2 3\n3 3 0 3\n1 4 none\n" || !strings.Contains(stderr, "3 queries (2 reachable)") {
		t.Fatalf("--pairs: %v\n%q\n%s", err, out, stderr)
	}
	writeFile(t, dir, "pairs.txt", "1 3\n1 9\n")
	if _, _, err := gearbox(t, "run", "stcon", "--graph", el, "--pairs", pairs); err == nil || !strings.Contains(err.Error(), pairs+":2: 9 is not a vertex") {
		t.Fatalf("--pairs bad id: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "stcon", "--gen", "grid:3:3"}, "stcon needs --target"},
		{[]string{"run", "cc", "--gen", "grid:3:3", "--target", "1"}, "--target applies to"},
		{[]string{"run", "cc", "--gen", "grid:3:3", "--parents"}, "--parents applies to bfs, sssp"},
		{[]string{"run", "bfs", "--gen", "grid:3:3", "--pairs", pairs}, "--pairs applies to stcon"},
		{[]string{"run", "stcon", "--gen", "grid:3:3", "--pairs", pairs, "--source", "1"}, "cannot be combined"},
		{[]string{"run", "bfs", "--gen", "grid:3:3", "--target", "99"}, "--target 99 is not a vertex"},
	} {
		if _, _, err := gearbox(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
}
