package testgraphs

import "testing"

type recorder struct {
	testing.TB
	errs  int
	fatal bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.errs++ }
func (r *recorder) Fatalf(string, ...any) { r.fatal = true }

func TestCompareValues(t *testing.T) {
	want := func(v uint32) (int, bool) { return int(v), v%3 != 0 }
	var same recorder
	CompareValues(&same, "x", "depth", 100, want, want)
	if same.errs != 0 || same.fatal {
		t.Errorf("equal results reported: %+v", same)
	}
	// 7 vertices differ (value or reached): five named, then a failure.
	got := func(v uint32) (int, bool) {
		d, ok := want(v)
		if v < 7 {
			return d + 1, ok
		}
		return d, ok
	}
	var diff recorder
	CompareValues(&diff, "x", "depth", 100, want, got)
	if diff.errs != 5 || !diff.fatal {
		t.Errorf("7 differences: %d named, fatal %v; want 5, true", diff.errs, diff.fatal)
	}
}
