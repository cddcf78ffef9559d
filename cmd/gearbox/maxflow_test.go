package main

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// twoPaths is a .max network of flow value 5 with s=1, t=4: two paths,
// parallel arcs 1->2 (3+4) and anti-parallel 2->3/3->2.
const twoPaths = "p max 4 6\nn 1 s\nn 4 t\na 1 2 3\na 1 2 4\na 2 4 5\na 1 3 2\na 3 2 9\na 2 3 1\n"

func TestRunMaxflow(t *testing.T) {
	dir := t.TempDir()
	max := writeFile(t, dir, "p.max", twoPaths)
	flow, cut := filepath.Join(dir, "flow"), filepath.Join(dir, "cut")
	out, _ := mustGearbox(t, "run", "maxflow", "--graph", max, "--verify", "--out", flow, "--cut", cut)
	for _, want := range []string{"flow value: 5\n", "minimum cut: capacity 5, source side 3 vertices", "verified"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	into := map[string]int64{} // flow into each vertex
	lines := readLines(t, flow)
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 3 {
			t.Fatalf("flow line %q is not 'u v flow'", l)
		}
		x, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		into[f[1]] += x
	}
	if into["4"] != 5 {
		t.Errorf("flow into the sink %d, want 5:\n%q", into["4"], lines)
	}
	if got := readLines(t, cut); strings.Join(got, ",") != "1,2,3" {
		t.Errorf("cut %v, want 1 2 3", got)
	}
	// Several sources and sinks, a generator, every solver.
	for _, alg := range []string{"hl", "fifo", "sync"} {
		out, _ := mustGearbox(t, "run", "maxflow", "--gen", "vision:6:5", "--source", "1,2", "--sink", "30,29", "--algorithm", alg, "--verify")
		if !strings.Contains(out, "super-source") || !strings.Contains(out, "super-sink") || !strings.Contains(out, "verified") {
			t.Errorf("%s: %s", alg, out)
		}
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--graph", max, "--source", "4"}, "both a source and a sink"},
		{[]string{"--graph", max, "--sink", "9"}, "--sink 9: no such vertex"},
		{[]string{"--gen", "grid:3:3"}, "names no source"},
		{[]string{"--graph", max, "--algorithm", "x"}, "unknown algorithm"},
		{[]string{"--graph", max, "--global-freq", "0"}, "--global-freq"},
		{[]string{"--graph", max, "--device", "tpu"}, "--device \"tpu\""},
		{[]string{"--graph", max, "--tail-after", "-1"}, "--tail-after -1"},
	} {
		_, _, err := gearbox(t, append([]string{"run", "maxflow"}, bad.args...)...)
		if err == nil || !strings.Contains(err.Error(), bad.want) || !errors.Is(err, errUsage) {
			t.Errorf("%v: got %v, want a usage error with %q", bad.args, err, bad.want)
		}
	}
}
