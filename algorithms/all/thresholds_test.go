package all_test

import (
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
