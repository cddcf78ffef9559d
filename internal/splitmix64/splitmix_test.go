package splitmix64

import "testing"

// The reference values of splitmix64 (seed 0: the state advanced by the
// golden gamma, then finalised), so a change to Mix shows.
func TestMixReference(t *testing.T) {
	const gamma = 0x9e3779b97f4a7c15
	want := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	s := uint64(0)
	for i, w := range want {
		s += gamma
		if got := Mix(s); got != w {
			t.Errorf("output %d: %#x, want %#x", i, got, w)
		}
	}
}
