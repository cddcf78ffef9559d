package kernels

import "testing"

// TestPullBitmaps: a pull launch's bitmaps fit the spare buffer of
// max(n, 1) words, up to 32 of them.
func TestPullBitmaps(t *testing.T) {
	for _, c := range []struct{ n, want int }{{0, 1}, {1, 1}, {10, 10}, {33, 16}, {900, 31}, {4096, 32}, {4136, 31}, {1 << 22, 32}} {
		got := PullBitmaps(c.n)
		if got != c.want {
			t.Errorf("PullBitmaps(%d) = %d, want %d", c.n, got, c.want)
		}
		if words := (c.n + 31) / 32; got*words > max(c.n, 1) {
			t.Errorf("PullBitmaps(%d) = %d bitmaps of %d words overflow %d words", c.n, got, words, max(c.n, 1))
		}
	}
}
