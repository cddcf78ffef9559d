package tuning

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrRange is wrapped by every range-parsing error; ErrEmptyRange by those
// of a range holding no value (e.g. "0.05:0.01").
var (
	ErrRange      = errors.New("invalid range")
	ErrEmptyRange = errors.New("empty range")
)

// maxRangeValues bounds a range's length, so a typo such as "1:1e9" is an
// error instead of a sweep that never ends.
const maxRangeValues = 1000

// ParseFloats parses a list of values to sweep:
//
//	"a,b,c"       the values listed
//	"lo:hi"       lo, lo+1, ... up to hi
//	"lo:hi:step"  lo, lo+step, ... up to hi (hi included when hit)
//	"lo:hi:xF"    lo, lo*F, lo*F*F, ... up to hi (geometric, F > 1)
//
// Values are rounded to 9 decimals so that steps such as 0.02 land on
// clean numbers. A range with no value (lo > hi) is ErrEmptyRange.
func ParseFloats(s string) ([]float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("%w: no values given", ErrEmptyRange)
	}
	if !strings.Contains(s, ":") {
		var out []float64
		for _, f := range strings.Split(s, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w %q: %q is not a number", ErrRange, s, f)
			}
			out = append(out, v)
		}
		return dedup(out), nil
	}
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return nil, fmt.Errorf("%w %q: want lo:hi, lo:hi:step or lo:hi:xFACTOR", ErrRange, s)
	}
	num := func(p, what string) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w %q: %s %q is not a number", ErrRange, s, what, p)
		}
		return v, nil
	}
	lo, err := num(parts[0], "lo")
	if err != nil {
		return nil, err
	}
	hi, err := num(parts[1], "hi")
	if err != nil {
		return nil, err
	}
	if lo > hi {
		return nil, fmt.Errorf("%w %q: lo %v is above hi %v", ErrEmptyRange, s, lo, hi)
	}
	step, geometric := 1.0, false
	if len(parts) == 3 {
		p := strings.TrimSpace(parts[2])
		if geometric = strings.HasPrefix(p, "x") || strings.HasPrefix(p, "*"); geometric {
			p = p[1:]
		}
		if step, err = num(p, "step"); err != nil {
			return nil, err
		}
	}
	var out []float64
	switch {
	case geometric && (step <= 1 || lo <= 0):
		return nil, fmt.Errorf("%w %q: a geometric range needs lo > 0 and factor > 1", ErrRange, s)
	case geometric:
		for v := lo; v <= hi*(1+1e-9); v *= step {
			if out = append(out, round9(v)); len(out) > maxRangeValues {
				break
			}
		}
	case step <= 0:
		return nil, fmt.Errorf("%w %q: step %v must be positive", ErrRange, s, step)
	default:
		for i := 0; ; i++ {
			v := lo + float64(i)*step
			if v > hi+step*1e-9 || len(out) > maxRangeValues {
				break
			}
			out = append(out, round9(v))
		}
	}
	if len(out) > maxRangeValues {
		return nil, fmt.Errorf("%w %q: more than %d values", ErrRange, s, maxRangeValues)
	}
	return dedup(out), nil
}

// ParseInts is ParseFloats for integer parameters: every value must be a
// whole number.
func ParseInts(s string) ([]int64, error) {
	fs, err := ParseFloats(s)
	if err != nil {
		return nil, err
	}
	out := make([]int64, 0, len(fs))
	for _, f := range fs {
		if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return nil, fmt.Errorf("%w %q: %v is not an integer", ErrRange, s, f)
		}
		out = append(out, int64(f))
	}
	return out, nil
}

func round9(v float64) float64 { return math.Round(v*1e9) / 1e9 }

// dedup drops repeated values, keeping the first occurrence's order.
func dedup(v []float64) []float64 {
	seen := map[float64]bool{}
	out := v[:0]
	for _, x := range v {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
