package apsp_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/algorithms/apsp"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
)

// TestSpec: gearbox run apsp through the registry, each variant: summary,
// verification and the binary --out against the triple loop.
func TestSpec(t *testing.T) {
	s, ok := algorithms.Lookup("apsp")
	if !ok {
		t.Fatal("apsp is not registered")
	}
	g := testgraphs.Random(90, 300, false, 9)
	want := apsp.Reference(g)
	for _, v := range []string{"auto", "fw", "sources"} {
		opts, err := s.Options(v, nil)
		if err != nil {
			t.Fatal(err)
		}
		o, err := s.Run(context.Background(), g, 0, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Verify(); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if sum := o.Summary(); v != "auto" && !strings.Contains(sum, "("+v) {
			t.Fatalf("%s: summary %q", v, sum)
		}
		var buf bytes.Buffer
		if err := o.Write(&buf); err != nil {
			t.Fatal(err)
		}
		if buf.Len() != 4*90*90 {
			t.Fatalf("%s: --out has %d bytes", v, buf.Len())
		}
		for i := range want {
			for j, d := range want[i] {
				if got := binary.LittleEndian.Uint32(buf.Bytes()[4*(i*90+j):]); got != d {
					t.Fatalf("%s: --out entry (%d,%d) = %d, want %d", v, i, j, got, d)
				}
			}
		}
	}
	if _, err := s.Options("dense", nil); err == nil {
		t.Fatal("unknown variant accepted")
	}
}
