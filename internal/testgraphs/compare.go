package testgraphs

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// CompareValues fails t when two results' per-vertex values differ for any
// of n vertices (a value and whether the vertex was reached, as
// bfs.Result.Depth and sssp.Result.Distance give them), naming the first
// five: the GPU tests' element-by-element check against the CPU.
func CompareValues[V comparable](t testing.TB, label, what string, n int, want, got func(uint32) (V, bool)) {
	t.Helper()
	bad := 0
	for v := 0; v < n; v++ {
		wd, wok := want(uint32(v))
		gd, gok := got(uint32(v))
		if wd != gd || wok != gok {
			if bad < 5 {
				t.Errorf("%s: vertex %d: gpu %s %v (reached %v), cpu %v (reached %v)", label, v, what, gd, gok, wd, wok)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Fatalf("%s: %d of %d %ss differ", label, bad, n, what)
	}
}

// JSONObject marshals v and decodes the result back as a JSON object, so a
// test can check its fields; it returns the encoding too, for messages.
func JSONObject(tb testing.TB, v any) (map[string]any, []byte) {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return DecodeJSONObject(tb, b), b
}

// DecodeJSONObject decodes b, which must hold one JSON object.
func DecodeJSONObject(tb testing.TB, b []byte) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatalf("not one JSON object: %v\n%s", err, b)
	}
	return m
}

// ErrorMentions fails tb (labelled label) unless err wraps target and its
// message contains each of wants: the parsers' tests of bad input.
func ErrorMentions(tb testing.TB, label string, err, target error, wants ...string) {
	tb.Helper()
	if !errors.Is(err, target) {
		tb.Errorf("%s: got %v, want %v", label, err, target)
		return
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			tb.Errorf("%s: error %q lacks %q", label, err, w)
		}
	}
}
