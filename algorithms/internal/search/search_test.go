package search_test

import (
	"errors"
	"math"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/internal/search"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

var errWrong = errors.New("wrong")

// TestCheckValues: each property CheckValues checks fails on values that
// break it, on the path 0 -> 1 -> 2 with arc weights 2 and 3, read as hops
// and as weights.
func TestCheckValues(t *testing.T) {
	const no = math.MaxUint32 // unreached
	g := testgraphs.MustBuild(3, false, [][2]uint32{{0, 1}, {1, 2}}, []uint32{2, 3})
	for _, c := range []struct {
		name     string
		values   []uint32
		weighted bool
		ok       bool
	}{
		{"hops", []uint32{0, 1, 2}, false, true},
		{"weights", []uint32{0, 2, 5}, true, true},
		{"hops read as weights", []uint32{0, 1, 2}, true, false},
		{"one value short", []uint32{0, 1}, false, false},
		{"source not 0", []uint32{1, 2, 3}, false, false},
		{"arc not relaxed", []uint32{0, 1, 5}, false, false},
		{"arc to an unreached vertex", []uint32{0, 1, no}, false, false},
		{"no tight in-arc", []uint32{0, 2, 4}, true, false},
	} {
		r := search.New("test", "value", g, []uint32{0}, false, hostmem.ValuesOf(c.values), runtime.Stats{})
		err := search.CheckValues(g, &r, c.weighted, errWrong, "value")
		if c.ok != (err == nil) || err != nil && !errors.Is(err, errWrong) {
			t.Errorf("%s: %v, want ok %v (else errWrong)", c.name, err, c.ok)
		}
	}
}
