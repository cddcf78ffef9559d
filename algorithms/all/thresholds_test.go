package all_test

import (
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox"
	"github.com/gearbox-graph/gearbox/algorithms"
	_ "github.com/gearbox-graph/gearbox/algorithms/all"
	"github.com/gearbox-graph/gearbox/decider"
)

// TestThresholdsLayoutEquivalent: the shipped thresholds.toml, with the
// algorithms' keys in their own sections, gives every registered algorithm
// (and the device section, "") on every device the same decider thresholds
// and the same effective parameters (algorithms.Values: SSSP's, CC's, the
// backend's) as the flat file it replaced (testdata/thresholds-flat.toml,
// the file before the move), including a GPU that has no section.
func TestThresholdsLayoutEquivalent(t *testing.T) {
	flat, err := os.ReadFile("testdata/thresholds-flat.toml")
	if err != nil {
		t.Fatal(err)
	}
	old, err := algorithms.ParseThresholds(string(flat))
	if err != nil {
		t.Fatalf("flat file: %v", err)
	}
	cur, err := algorithms.ParseThresholds(gearbox.ThresholdsTOML)
	if err != nil {
		t.Fatalf("thresholds.toml: %v", err)
	}
	if !strings.Contains(gearbox.ThresholdsTOML, "[cpu.sssp]") || strings.Contains(strings.SplitN(gearbox.ThresholdsTOML, "[cpu.sssp]", 2)[0], "\ndelta =") {
		t.Fatal("thresholds.toml should hold SSSP's keys in [cpu.sssp], not [cpu]")
	}
	devices := append([]string{"", "some GPU without a section"}, slices.Sorted(maps.Keys(old.GPU))...)
	if !slices.Equal(slices.Sorted(maps.Keys(old.GPU)), slices.Sorted(maps.Keys(cur.GPU))) {
		t.Fatalf("GPU sections: flat %v, now %v", slices.Collect(maps.Keys(old.GPU)), slices.Collect(maps.Keys(cur.GPU)))
	}
	checked := 0
	for _, dev := range devices {
		for _, alg := range append([]string{""}, algorithms.Sections()...) {
			ot, ook := old.LookupFor(dev, alg)
			ct, cok := cur.LookupFor(dev, alg)
			if ook != cok || ot != ct {
				t.Errorf("%s: decider thresholds flat %+v (%v), now %+v (%v)", decider.SectionName(dev, alg), ot, ook, ct, cok)
			}
			ov, err := algorithms.Values(old, dev, alg)
			if err != nil {
				t.Fatal(err)
			}
			cv, err := algorithms.Values(cur, dev, alg)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(ov, cv) {
				t.Errorf("%s: parameters flat %v, now %v", decider.SectionName(dev, alg), ov, cv)
			}
			if len(cv) == 0 {
				t.Errorf("%s: no parameters resolved", decider.SectionName(dev, alg))
			}
			checked++
		}
	}
	// Spot values, so that both files agreeing on a wrong lookup fails too.
	want := map[string]map[string]any{
		decider.SectionName("", "sssp"):                           {"delta": int64(32), "delta_factor": 4.0, "bucket_edges": int64(4096)},
		decider.SectionName("", "cc"):                             {"afforest_min_degree": 2.0, "afforest_min_arcs": int64(0)},
		decider.SectionName("NVIDIA H100 80GB HBM3", "sssp"):      {"delta": int64(64), "delta_factor": 16.0, "bucket_delta_min_skew": 0.0, "threads_per_block": int64(64)},
		decider.SectionName("NVIDIA H100 80GB HBM3", "cc"):        {"afforest_min_arcs": int64(4194304), "afforest_min_skew": 64.0, "threads_per_block": int64(64)},
		decider.SectionName("NVIDIA H100 80GB HBM3", "bfs"):       {"threads_per_block": int64(512)},
		decider.SectionName("some GPU without a section", "sssp"): {"delta": int64(256), "ordered_min_vertices": int64(1 << 18)},
	}
	for _, dev := range devices {
		for _, alg := range algorithms.Sections() {
			w, ok := want[decider.SectionName(dev, alg)]
			if !ok {
				continue
			}
			got, _ := algorithms.Values(cur, dev, alg)
			for k, v := range w {
				if got[k] != v {
					t.Errorf("%s: %s = %v, want %v", decider.SectionName(dev, alg), k, got[k], v)
				}
			}
			delete(want, decider.SectionName(dev, alg))
		}
	}
	if len(want) > 0 || checked == 0 {
		t.Errorf("lookups not made: %v", want)
	}
}

// TestThresholdsKeyOwners: a key that neither the decider, nor a
// registered algorithm, nor the backend owns is an error naming the key
// and its section; a value an owner refuses names its key.
func TestThresholdsKeyOwners(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"[cpu.sssp]\ndelta_facter = 4.0\n", "[cpu.sssp]: unknown key delta_facter"},
		{"[cpu]\nnope = 1\n", "[cpu]: unknown key nope"},
		{"[cpu.sssp]\ndelta = 0\n", "delta = 0"},
		{"[cpu.sssp]\ndelta = 2.5\n", "delta = 2.5, want an integer"},
		{"[cpu.cc]\nafforest_min_arcs = -1\n", "afforest_min_arcs = -1"},
		{"[gpu.\"X\"]\nthreads_per_block = 48\n", "threads_per_block = 48"},
		{"[cpu]\ndelta = \"8\"\n", "delta = 8, want a number"},
	} {
		_, err := algorithms.ParseThresholds(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want one containing %q", tc.text, err, tc.want)
		}
	}
	// Every key of the shipped file has an owner; the registry's keys are
	// the Spec's Params.
	owners := algorithms.Owners()
	for _, s := range algorithms.All() {
		for _, p := range s.Params {
			if owners[p.Key] == "" {
				t.Errorf("%s's param %s has no owner", s.Name, p.Key)
			}
		}
	}
}

// TestThresholdsBadValues: the cases decider's TestParseThresholds had for
// the keys it no longer owns: each fails algorithms.ParseThresholds with
// ErrThresholds, naming the key.
func TestThresholdsBadValues(t *testing.T) {
	bad := map[string][2]string{
		"typo":          {"[cpu]\nT22 = 5\n", "T22"},
		"gpu typo":      {"[gpu.\"x\"]\nalhpa = 3.0\n", "alhpa"},
		"alg typo":      {"[gpu.\"G\"]\nT2 = 5\n[gpu.\"G\".bfs]\nalhpa = 3.0\n", "alhpa"},
		"not a table":   {"[cpu]\nbfs = 3\n", "unknown key bfs"},
		"negative":      {"[cpu]\ndelta = -1\n", "delta = -1, want >= 1"},
		"negative alg":  {"[cpu.sssp]\ndelta = -1\n", "[cpu.sssp]"},
		"tpb":           {"[gpu.\"x\"]\nthreads_per_block = 100\n", "threads_per_block"},
		"factor":        {"[cpu]\ndelta_factor = -2.0\n", "delta_factor"},
		"factor inf":    {"[cpu]\ndelta_factor = inf\n", "delta_factor"},
		"factor nan":    {"[gpu.\"x\"]\ndelta_factor = nan\n", "delta_factor"},
		"aff degree":    {"[cpu]\nafforest_min_degree = -1.0\n", "afforest_min_degree"},
		"aff deg nan":   {"[cpu]\nafforest_min_degree = nan\n", "afforest_min_degree"},
		"aff arcs":      {"[gpu.\"x\"]\nafforest_min_arcs = -1\n", "afforest_min_arcs"},
		"aff skew":      {"[cpu]\nafforest_min_skew = -0.5\n", "afforest_min_skew"},
		"aff skew inf":  {"[cpu]\nafforest_min_skew = inf\n", "afforest_min_skew"},
		"aff cc":        {"[cpu.cc]\nafforest_min_arcs = -4\n", "[cpu.cc]"},
		"aff type":      {"[cpu]\nafforest_min_arcs = 1.5\n", "afforest_min_arcs"},
		"bucket df":     {"[gpu.\"x\"]\nT2 = 5\n[gpu.\"x\".sssp]\nbucket_delta_factor = -8.0\n", "bucket_delta_factor"},
		"bucket df inf": {"[cpu]\nbucket_delta_factor = inf\n", "bucket_delta_factor"},
		"launch df":     {"[cpu]\nlaunch_delta_factor = -4.0\n", "launch_delta_factor"},
		"bucket skew":   {"[cpu.sssp]\nbucket_delta_min_skew = -1.0\n", "bucket_delta_min_skew"},
		"omd inf":       {"[cpu.sssp]\nordered_min_degree = inf\n", "ordered_min_degree = +Inf, want a finite value >= 0"},
		"order":         {"[cpu]\nordered_min_vertices = -1\n", "ordered_min_vertices"},
		"order type":    {"[cpu]\nordered_min_degree = \"8\"\n", "ordered_min_degree"},
		"order skewed":  {"[cpu]\nordered_min_vertices_skewed = -1\n", "ordered_min_vertices_skewed"},
	}
	for name, c := range bad {
		_, err := algorithms.ParseThresholds(c[0])
		if !errors.Is(err, decider.ErrThresholds) || !strings.Contains(err.Error(), c[1]) {
			t.Errorf("%s: %v, want ErrThresholds naming %q", name, err, c[1])
		}
	}
}
