package smallfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFileLimit(t *testing.T) {
	if _, err := ReadFile("/dev/zero", 1<<10, "a thresholds file"); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "/dev/zero: more than 1024 bytes, too large for a thresholds file") {
		t.Errorf("/dev/zero: got %v", err)
	}
	p := filepath.Join(t.TempDir(), "t.toml")
	os.WriteFile(p, []byte("[cpu]\n"), 0o644)
	if b, err := ReadFile(p, 6, "x"); err != nil || string(b) != "[cpu]\n" {
		t.Errorf("a file at the limit: %q, %v", b, err)
	}
	if _, err := ReadFile(p, 5, "x"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a file over the limit: %v", err)
	}
}
