package apsp_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/apsp"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

func TestWriter(t *testing.T) {
	// 0 -> 1 -> 2, directed: 2 reaches nothing.
	g := testgraphs.MustBuild(3, false, [][2]uint32{{0, 1}, {1, 2}}, nil)
	var bin, txt bytes.Buffer
	for _, c := range []struct {
		buf    *bytes.Buffer
		format string
	}{{&bin, apsp.FormatBinary}, {&txt, apsp.FormatText}} {
		w, err := apsp.NewWriter(c.buf, g, c.format)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := apsp.Run(context.Background(), g, w.Rows); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	want := []uint32{0, 1, 2, math.MaxUint32, 0, 1, math.MaxUint32, math.MaxUint32, 0}
	if bin.Len() != 4*len(want) {
		t.Fatalf("binary: %d bytes, want %d", bin.Len(), 4*len(want))
	}
	for i, x := range want {
		if got := binary.LittleEndian.Uint32(bin.Bytes()[4*i:]); got != x {
			t.Fatalf("binary entry %d = %d, want %d", i, got, x)
		}
	}
	if got, w := txt.String(), "0 0 0\n0 1 1\n0 2 2\n1 1 0\n1 2 1\n2 2 0\n"; got != w {
		t.Fatalf("text:\n%s\nwant:\n%s", got, w)
	}
	if b, err := apsp.OutputBytes(g, apsp.FormatBinary); err != nil || b != 36 {
		t.Fatalf("binary size %d, %v", b, err)
	}
	if b, err := apsp.OutputBytes(g, apsp.FormatText); err != nil || b < int64(txt.Len()) {
		t.Fatalf("text bound %d below the %d written (%v)", b, txt.Len(), err)
	}
	if _, err := apsp.NewWriter(&txt, g, "csv"); err == nil {
		t.Fatal("unknown format accepted")
	}
}

func TestCheckSpace(t *testing.T) {
	dir := t.TempDir()
	if err := apsp.CheckSpace(filepath.Join(dir, "out"), 1); err != nil {
		t.Fatal(err)
	}
	err := apsp.CheckSpace(filepath.Join(dir, "out"), math.MaxInt64)
	if err == nil && goruntime.GOOS == "linux" {
		t.Fatal("an output of 2^63 bytes fits")
	}
	if err != nil && (!errors.Is(err, apsp.ErrNoSpace) || !strings.Contains(err.Error(), "free")) {
		t.Fatalf("huge output: %v", err)
	}
}
