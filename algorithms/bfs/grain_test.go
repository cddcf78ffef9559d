package bfs

import "testing"

// TestWordGrain: a bitmap working set of few out-edges runs in one chunk
// (on the caller); larger ones split into chunks of about edgeGrain
// out-edges, never below wordGrain words.
func TestWordGrain(t *testing.T) {
	for _, c := range []struct {
		deg   int64
		words int
		want  int
	}{
		{0, 53, 53},
		{edgeGrain - 1, 53, 53},
		{edgeGrain, 4096, 2048},
		{10 * edgeGrain, 4096, 4096 / 11},
		{1 << 30, 4096, wordGrain},
		{1 << 30, 8, wordGrain},
	} {
		o := &cpuOp{deg: c.deg}
		if got := o.wordGrain(c.words); got != c.want {
			t.Errorf("deg %d, %d words: grain %d, want %d", c.deg, c.words, got, c.want)
		}
	}
}
