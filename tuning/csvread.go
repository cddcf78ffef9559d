package tuning

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ErrCSV is wrapped by every error about a value of a bench or tune CSV.
var ErrCSV = errors.New("invalid CSV value")

// maxMs is the longest time a CSV may hold (time.Duration's range, in ms).
const maxMs = float64(math.MaxInt64) / 1e6

// csvCells parses the cells of one data row of a bench or tune CSV and
// keeps the first error, which names the line, the column and the value:
// a hand-edited or damaged file's NaN or negative time would otherwise
// reach the report as nonsense (a -9223372036854.775 ms median) or fail in
// a plot without saying where it came from.
type csvCells struct {
	line   int
	header []string
	rec    []string
	err    error
}

func (c *csvCells) fail(col int, want string) {
	if c.err == nil {
		c.err = fmt.Errorf("line %d, column %s: value %q: %w: want %s", c.line, c.header[col], c.rec[col], ErrCSV, want)
	}
}

// num parses a finite number; an empty cell is 0 where empty is set
// (columns an older writer left empty).
func (c *csvCells) num(col int, empty bool, want string) (float64, bool) {
	s := c.rec[col]
	if s == "" && empty {
		return 0, true
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		c.fail(col, want)
		return 0, false
	}
	return v, true
}

// float reads any finite number.
func (c *csvCells) float(col int) float64 {
	v, _ := c.num(col, false, "a finite number")
	return v
}

// nonNeg reads a finite number >= 0.
func (c *csvCells) nonNeg(col int, empty bool) float64 {
	const want = "a finite number >= 0"
	v, ok := c.num(col, empty, want)
	if ok && v < 0 {
		c.fail(col, want)
		return 0
	}
	return v
}

// integer reads a whole number of at least lo.
func (c *csvCells) integer(col int, lo int64, empty bool) int64 {
	want := fmt.Sprintf("a whole number >= %d", lo)
	v, ok := c.num(col, empty, want)
	if ok && (v != math.Trunc(v) || v < float64(lo) || v > 1<<53) {
		c.fail(col, want)
		return 0
	}
	return int64(v)
}

// ms reads a time in milliseconds (finite, >= 0).
func (c *csvCells) ms(col int, empty bool) time.Duration {
	const want = "a time in ms, finite and >= 0"
	v, ok := c.num(col, empty, want)
	if ok && (v < 0 || v > maxMs) {
		c.fail(col, want)
		return 0
	}
	return fromMs(v)
}

// msList reads ';'-separated times in milliseconds ("" is none).
func (c *csvCells) msList(col int) []time.Duration {
	if c.rec[col] == "" {
		return nil
	}
	var out []time.Duration
	for _, f := range strings.Split(c.rec[col], ";") {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || !(v >= 0 && v <= maxMs) {
			c.fail(col, fmt.Sprintf("';'-separated times in ms, finite and >= 0 (%q is not)", f))
			return nil
		}
		out = append(out, fromMs(v))
	}
	return out
}

// algorithm reads an algorithm's name.
func (c *csvCells) algorithm(col int) Algorithm {
	a := Algorithm(c.rec[col])
	if a.Spec() == nil {
		c.fail(col, "an algorithm ("+strings.Join(AlgorithmNames(), ", ")+")")
	}
	return a
}

// text reads a cell that must not be empty (a graph's or variant's name).
func (c *csvCells) text(col int) string {
	if c.rec[col] == "" {
		c.fail(col, "a name")
	}
	return c.rec[col]
}
