// Package smallfile reads files that are small by nature (a thresholds
// TOML, a report CSV) through a limit, so that a wrong path (/dev/zero, a
// graph, a pipe) is refused with a clear error instead of filling memory.
package smallfile

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrTooLarge is what ReadFile's error for a file over its limit wraps.
var ErrTooLarge = errors.New("file too large")

// Limits for the files gearbox reads whole.
const (
	Thresholds = 1 << 20  // a thresholds TOML: a few KB
	Report     = 64 << 20 // a bench or tune CSV: a row per run
)

// ReadFile reads path whole, or refuses it once it has read more than
// limit bytes; what names the file's kind in the message ("a thresholds
// file").
func ReadFile(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, limit, what)
}

// Read is ReadFile for an open reader named name.
func Read(r io.Reader, name string, limit int64, what string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: %s: more than %d bytes, too large for %s", ErrTooLarge, name, limit, what)
	}
	return b, nil
}
