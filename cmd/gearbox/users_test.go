package main

import (
	"bytes"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

func TestRunJSON(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.json")
	o := gearboxJSON(t, "run", "bfs", "--graph", "../../graph/testdata/tiny.txt", "--source", "13", "--json", "--trace", trace)
	g, _ := o["graph"].(map[string]any)
	res, _ := o["result"].(map[string]any)
	if o["algorithm"] != "bfs" || g["name"] != "../../graph/testdata/tiny.txt" || res["source"] != 13.0 || res["reached"] == nil || o["times_ms"] == nil || o["variants"] == nil {
		t.Errorf("run --json: %v", o)
	}
	if srcs, _ := o["sources"].([]any); len(srcs) != 1 || srcs[0] != 13.0 {
		t.Errorf("sources %v", o["sources"])
	}
	tr := testgraphs.DecodeJSONObject(t, []byte(readFile(t, trace)))
	if tr["graph"] != "../../graph/testdata/tiny.txt" || tr["source"] != 13.0 {
		t.Errorf("trace does not say its graph and source: graph=%v source=%v", tr["graph"], tr["source"])
	}

	// Without a registered result type the one-line summary stands in;
	// cc has one: its summary object.
	o = gearboxJSON(t, "run", "cc", "--gen", "grid:4:3", "--json")
	if res, _ := o["result"].(map[string]any); res["components"] != 1.0 || o["sources"] != nil {
		t.Errorf("cc --json: %v", o)
	}
	if _, _, err := gearbox(t, "run", "bfs", "--gen", "grid:4:3", "--json", "--out", "-"); err == nil || !strings.Contains(err.Error(), "--json prints on stdout") {
		t.Errorf("--json with --out -: %v", err)
	}
}

func TestInfoJSON(t *testing.T) {
	o := gearboxJSON(t, "info", "--json", "--graph", "../../graph/testdata/tiny.mtx")
	g, _ := o["graph"].(map[string]any)
	if g["vertices"] != 6.0 || g["directed"] != true || o["ids"] != "offset" || o["id_base"] != 1.0 || o["degree_histogram"] == nil {
		t.Errorf("info --json: %v", o)
	}
}

func TestConvertLargestComponent(t *testing.T) {
	dir := t.TempDir()
	// Components {5, 9, 12} and {100, 200}; SNAP ids kept.
	in := writeFile(t, dir, "in.txt", "5 9\n9 12\n100 200\n")
	out := filepath.Join(dir, "out.txt")
	_, stderr := mustGearbox(t, "convert", "--largest-component", in, out)
	if !strings.Contains(stderr, "largest component: 3 of 5 vertices") {
		t.Errorf("stderr %q", stderr)
	}
	o := gearboxJSON(t, "info", "--json", "--graph", out)
	if g, _ := o["graph"].(map[string]any); g["vertices"] != 3.0 || g["arcs"] != 2.0 {
		t.Errorf("largest component: %v", o)
	}
	b := readFile(t, out)
	for _, id := range []string{"5", "9", "12"} {
		if !strings.Contains(b, id) {
			t.Errorf("output lacks id %s:\n%s", id, b)
		}
	}
	if strings.Contains(b, "100") {
		t.Errorf("output has the smaller component:\n%s", b)
	}
}

// JSON log lines carry zerolog's timestamp once: durations have keys of
// their own, with their unit.
func TestJSONLogKeys(t *testing.T) {
	_, stderr := mustGearbox(t, "--log-format", "json", "--log-level", "debug", "run", "bfs", "--gen", "kron:6", "--verify")
	iterations := 0
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		if c := strings.Count(line, `"time":`); c != 1 {
			t.Errorf("%d time keys in %s", c, line)
		}
		m := testgraphs.DecodeJSONObject(t, []byte(line))
		if m["message"] == "iteration" {
			iterations++
			if _, ok := m["dur_ms"].(float64); !ok {
				t.Errorf("iteration without dur_ms: %s", line)
			}
		}
		if m["message"] == "graph ready" && m["load_ms"] == nil {
			t.Errorf("graph ready without load_ms: %s", line)
		}
	}
	if iterations == 0 {
		t.Errorf("no iteration lines in %s", stderr)
	}
}

// The CLI's bar, drawn from graph.LoadOptions.Progress, shows only for
// inputs over progressMin.
func TestProgressBarCallback(t *testing.T) {
	var out bytes.Buffer
	fn, done := progressBar(&out, "big.el")
	fn(10, 1000)
	done()
	if out.Len() != 0 {
		t.Errorf("bar for a small input: %q", out.String())
	}
	fn, done = progressBar(&out, "big.el")
	for d := int64(0); d <= progressMin+1; d += progressMin / 4 {
		fn(d, progressMin+1)
	}
	done()
	if !strings.Contains(out.String(), "reading big.el") {
		t.Errorf("progress output %q lacks the description", out.String())
	}
}

func TestVersion(t *testing.T) {
	old := readBuildInfo
	defer func() { readBuildInfo = old }()
	readBuildInfo = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}}}, true
	}
	out, _ := mustGearbox(t, "version")
	for _, want := range []string{"gearbox v1.2.3", "revision abc123 (modified)", goruntime.Version(), "cuda build: "} {
		if !strings.Contains(out, want) {
			t.Errorf("version output lacks %q:\n%s", want, out)
		}
	}
	readBuildInfo = func() (*debug.BuildInfo, bool) { return nil, false }
	if out, _, _ := gearbox(t, "version"); !strings.Contains(out, "gearbox unknown") {
		t.Errorf("without build info: %s", out)
	}
	if _, _, err := gearbox(t, "version", "x"); err == nil {
		t.Error("version x: no error")
	}
}
