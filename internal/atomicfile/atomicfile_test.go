package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestFailedWriteKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	os.WriteFile(p, []byte("old"), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(p, link)
	boom := errors.New("disk full")
	err := Write(link, func(w io.Writer) error { io.WriteString(w, "partial"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("a failed write left %q", b)
	}
	if err := Write(link, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("got %q", b)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old 0600", st.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("temporary files left: %v", ents)
	}
	if err := Write("/dev/null", func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Errorf("/dev/null: %v", err)
	}
	if err := Check(dir); err == nil {
		t.Errorf("Check of a directory passed")
	}
	if err := Check(filepath.Join(dir, "no", "x")); err == nil {
		t.Errorf("Check in a missing directory passed")
	}
	if err := Check(p); err != nil {
		t.Errorf("Check(%s): %v", p, err)
	}
	if !Same(link, p) || Same(p, filepath.Join(dir, "other")) || !Same(filepath.Join(dir, "a"), filepath.Join(dir, ".", "a")) {
		t.Errorf("Same is wrong")
	}
}
