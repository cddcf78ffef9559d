package par

import "testing"

func TestPrefixSum(t *testing.T) {
	for _, n := range []int{0, 5, 1<<16 + 3} {
		a := make([]int64, n)
		want := make([]int64, n)
		var s int64
		for i := range a {
			a[i] = int64(i%7 + 1)
			want[i] = s
			s += a[i]
		}
		if got := PrefixSum(a); got != s {
			t.Fatalf("n=%d: total %d, want %d", n, got, s)
		}
		for i := range a {
			if a[i] != want[i] {
				t.Fatalf("n=%d: a[%d]=%d, want %d", n, i, a[i], want[i])
			}
		}
	}
}
