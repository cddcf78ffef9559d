// Package atomicfile writes output files so that a failure never destroys
// data: a new or existing regular file (also one reached through symlinks)
// is written to a temporary file beside it and renamed over it on success,
// so a failed write (a full disk, a file size limit, an interruption)
// leaves the old file as it was and the links in place. Anything else (a
// device such as /dev/null or /dev/full, a pipe, /dev/stdout and other
// links into /dev or /proc, which stand for an open file) is written in
// place; nothing is removed that this package did not create.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// File is an output being written: Commit makes it the file at its path,
// Abort drops it.
type File struct {
	*os.File
	target string // the file renamed over; "" when written in place
	done   bool
}

// Create starts writing path.
func Create(path string) (*File, error) {
	target, old, regular, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if regular {
		tmp, err := createTemp(target, old)
		switch {
		case err == nil:
			return &File{File: tmp, target: target}, nil
		case errors.Is(err, os.ErrPermission) && old != nil:
			// A writable file in a directory we may not add to: write it
			// in place, as os.Create would (a failure leaves it partial).
		default:
			return nil, err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return nil, err
	}
	return &File{File: f}, nil
}

// Commit closes the file and, for a temporary one, renames it over its
// target. On error the temporary file is removed.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	err := f.File.Close()
	if f.target == "" {
		return err
	}
	if err == nil {
		err = os.Rename(f.File.Name(), f.target)
	}
	if err != nil {
		os.Remove(f.File.Name()) // ours: created by Create
	}
	return err
}

// Abort closes the file and removes it if it is a temporary one; the file
// at the path stays as it was (one written in place is left partial).
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	if f.target != "" {
		os.Remove(f.File.Name())
	}
}

// Write writes path with write, through a temporary file where path is
// (or will be) a regular file.
func Write(path string, write func(io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// Check proves, without touching path, that Create(path) can succeed: it
// creates and removes a temporary file beside the target (or opens a
// device for writing), so a read-only directory is found before the work,
// not after it.
func Check(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	target, old, regular, err := resolve(path)
	if err != nil {
		return err
	}
	if regular {
		dir := filepath.Dir(target)
		st, err := os.Stat(dir)
		if err != nil {
			if u := errors.Unwrap(err); u != nil {
				err = u // the path is in the message already
			}
			return fmt.Errorf("%s: directory %s: %w", path, dir, err)
		}
		if !st.IsDir() {
			return fmt.Errorf("%s: %s is not a directory", path, dir)
		}
		tmp, err := createTemp(target, old)
		if err == nil {
			tmp.Close()
			return os.Remove(tmp.Name())
		}
		if !errors.Is(err, os.ErrPermission) || old == nil {
			if u := errors.Unwrap(err); u != nil {
				err = u
			}
			return fmt.Errorf("%s: cannot create a file in %s: %w", path, dir, err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0) // exists: no O_CREATE, no O_TRUNC
	if err != nil {
		return err
	}
	return f.Close()
}

// Same reports whether a and b name the same existing file, through any
// symlinks, or the same path when neither exists yet.
func Same(a, b string) bool {
	sa, ea := os.Stat(a)
	sb, eb := os.Stat(b)
	if ea == nil && eb == nil {
		return os.SameFile(sa, sb)
	}
	if ea == nil || eb == nil {
		return false
	}
	return canonical(a) == canonical(b)
}

// canonical is a's absolute path with its directory's symlinks resolved.
func canonical(a string) string {
	abs, err := filepath.Abs(a)
	if err != nil {
		return filepath.Clean(a)
	}
	if r, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(r, filepath.Base(abs))
	}
	return abs
}

// resolve tells where Create puts a regular file for path: path itself,
// or the file its symlinks lead to; old describes that file (nil for a new
// one). regular is false for devices, pipes and the like, and for symlinks
// that lead nowhere, all written in place.
func resolve(path string) (target string, old os.FileInfo, regular bool, err error) {
	lst, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return path, nil, true, nil
	}
	if err != nil {
		return "", nil, false, err
	}
	if lst.Mode().IsRegular() {
		return path, lst, true, nil
	}
	if lst.Mode()&os.ModeSymlink == 0 {
		return path, nil, false, nil
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return path, nil, false, nil
	}
	// Follow the links to the file. /dev/stdout and other links into /proc
	// or /dev stand for an open file (perhaps opened for appending), not a
	// name to replace: those are written in place.
	p := path
	for range 40 {
		if underProcOrDev(p) {
			return path, nil, false, nil
		}
		l, err := os.Lstat(p)
		if err != nil {
			return path, nil, false, nil
		}
		if l.Mode()&os.ModeSymlink == 0 {
			if !os.SameFile(st, l) { // resolved some other way than the kernel does
				return path, nil, false, nil
			}
			return p, st, true, nil
		}
		t, err := os.Readlink(p)
		if err != nil {
			return path, nil, false, nil
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		p = t
	}
	return path, nil, false, nil
}

func underProcOrDev(p string) bool {
	a := canonical(p)
	return a == "/proc" || strings.HasPrefix(a, "/proc/") || strings.HasPrefix(a, "/dev/")
}

// createTemp creates a new file beside path with old's permissions (for a
// new file, 0666 less the umask, as os.Create gives).
func createTemp(path string, old os.FileInfo) (*os.File, error) {
	dir, base := filepath.Split(path)
	for {
		name := filepath.Join(dir, fmt.Sprintf(".%s.%08x.tmp", base, rand.Uint32()))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if old != nil {
			if err := f.Chmod(old.Mode().Perm()); err != nil {
				f.Close()
				os.Remove(name)
				return nil, err
			}
		}
		return f, nil
	}
}
