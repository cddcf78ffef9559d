// Package memlimit tells how much memory the process may still allocate:
// the least of the machine's RAM, the cgroup's limit (v2 memory.max or v1
// memory.limit_in_bytes) and the rlimits on address space and data
// (ulimit -v, -d) less what the process uses already. Go cannot recover
// from running out of memory, so every allocation sized by an input or a
// spec (loaders, builders, generators) asks Check first and refuses with
// the sizes instead of crashing.
package memlimit

import (
	"errors"
	"fmt"
)

// ErrTooLarge is what Check's errors wrap.
var ErrTooLarge = errors.New("not enough memory")

// Limit is the memory available and what bounds it.
type Limit struct {
	Bytes  int64  // bytes the process may still allocate; 0 = unknown
	Source string // what sets it: "RAM", "cgroup v2 memory.max", "RLIMIT_AS (ulimit -v)", ...
}

// Available returns the memory the process may still allocate.
func Available() Limit { return available(sysRoot{}) }

// Check returns nil when need bytes (for what, e.g. "the CSR of 10^9
// vertices") fit in Available, and otherwise an error wrapping
// ErrTooLarge that names both sizes and the limit's source.
func Check(need int64, what string) error {
	return check(need, what, Available())
}

func check(need int64, what string, l Limit) error {
	if l.Bytes <= 0 || need <= l.Bytes {
		return nil
	}
	return fmt.Errorf("%w: %s needs about %s but %s leaves %s", ErrTooLarge, what, Size(need), l.Source, Size(l.Bytes))
}

// Size formats a byte count for messages: "8.4 GB (8400000000 bytes)".
func Size(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB (%d bytes)", float64(b)/(1<<30), b)
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB (%d bytes)", float64(b)/(1<<20), b)
	}
	return fmt.Sprintf("%d bytes", b)
}
