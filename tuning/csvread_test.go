package tuning

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/decider"
)

// TestReadCSVBadValues: a value out of its column's range (NaN, an
// infinity, a negative time, a fraction where a count belongs, an unknown
// name) is an error naming the line, the column and the value, not a row
// that reaches the report or a plot.
func TestReadCSVBadValues(t *testing.T) {
	m := Measurement{Median: 3 * time.Millisecond, Min: 2 * time.Millisecond, Max: 4 * time.Millisecond, Runs: 2, Repeats: 1,
		PerSource: []time.Duration{2 * time.Millisecond, 4 * time.Millisecond}}
	bench := BenchRow{Algorithm: BFS, Graph: "g", Variant: "pull", Measurement: m, Speedup: 2}
	tune := TuneRow{Pass: 1, Param: T3, Value: 0.05, Algorithm: BFS, Graph: "g", Setting: Setting{Thresholds: decider.DefaultThresholds()}, Measurement: m}
	tests := []struct {
		name  string
		bench bool
		col   string
		value string
	}{
		{"bench NaN median", true, "median_ms", "NaN"},
		{"bench negative min", true, "min_ms", "-9223372036854.775"},
		{"bench time beyond a Duration", true, "max_ms", "1e300"},
		{"bench infinite speedup", true, "speedup_vs_serial", "+Inf"},
		{"bench negative delta", true, "delta", "-4"},
		{"bench fractional sources", true, "sources", "2.5"},
		{"bench zero repeats", true, "repeats", "0"},
		{"bench NaN device", true, "device_ms", "nan"},
		{"bench NaN per source", true, "per_source_ms", "1.0;NaN"},
		{"bench negative per source device", true, "per_source_device_ms", "-1;1"},
		{"bench bad variants", true, "variants", "pull6"},
		{"bench unknown algorithm", true, "algorithm", "pagerank"},
		{"bench no graph", true, "graph", ""},
		{"tune NaN value", false, "value", "NaN"},
		{"tune negative median", false, "median_ms", "-1"},
		{"tune unknown knob", false, "param", "T4"},
		{"tune NaN T1", false, "T1", "NaN"},
		{"tune infinite device", false, "device_ms", "Inf"},
		{"tune zero pass", false, "pass", "0"},
		{"tune fractional T2", false, "T2", "16.5"},
		{"tune negative alpha", false, "alpha", "-15"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			header, good := tuneHeader, tune.record()
			if tc.bench {
				header, good = benchHeader, bench.record()
			}
			bad := slices.Clone(good)
			i := slices.Index(header, tc.col)
			if i < 0 {
				t.Fatalf("no column %s", tc.col)
			}
			bad[i] = tc.value
			var buf bytes.Buffer
			w := csv.NewWriter(&buf)
			w.WriteAll([][]string{header, good, good, bad})
			read := func() error {
				if tc.bench {
					_, err := ReadBenchCSV(strings.NewReader(buf.String()))
					return err
				}
				_, err := ReadTuneCSV(strings.NewReader(buf.String()))
				return err
			}
			err := read()
			if !errors.Is(err, ErrCSV) {
				t.Fatalf("err = %v, want ErrCSV", err)
			}
			for _, want := range []string{"line 4", "column " + tc.col, fmt.Sprintf("%q", tc.value)} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %s", err, want)
				}
			}
			// The good rows alone read back.
			buf.Reset()
			w.WriteAll([][]string{header, good, good})
			if err := read(); err != nil {
				t.Errorf("good rows: %v", err)
			}
		})
	}
}
