package kernels

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"github.com/gearbox-graph/gearbox/kernels/internal/wrapgen"
)

const wrappersFile = "wrappers_gen.go"

// TestWrappersUpToDate regenerates the wrappers in memory and fails when
// the committed file differs: a kernel signature changed without
// `go generate ./kernels`.
func TestWrappersUpToDate(t *testing.T) {
	src, err := wrapgen.ParseDir(".")
	if err != nil {
		t.Fatal(err)
	}
	want, err := wrapgen.Generate(src)
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile(wrappersFile)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(have, want) {
		return
	}
	hl, wl := strings.Split(string(have), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(hl) || i < len(wl); i++ {
		var h, w string
		if i < len(hl) {
			h = hl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if h != w {
			t.Fatalf("%s is stale (first difference at line %d: have %q, want %q): run `go generate ./kernels` or `go run ./kernels/internal/cmd/wrapgen -dir kernels`", wrappersFile, i+1, h, w)
		}
	}
}

// fatbinKernels lists the kernels of the committed fatbin: every cubin in
// it has a .nv.info.<kernel> section per kernel.
func fatbinKernels(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(FatbinFile)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`\.nv\.info\.([A-Za-z_][A-Za-z0-9_]*)\x00`).FindAllSubmatch(b, -1) {
		out[string(m[1])] = true
	}
	if len(out) == 0 {
		t.Fatalf("no kernels found in %s (no .nv.info.<kernel> sections)", FatbinFile)
	}
	return out
}

// TestWrappersCoverKernels checks that the kernels with a wrapper, the
// kernels in the fatbin and Names (what the cuda backend resolves) are the
// same set.
func TestWrappersCoverKernels(t *testing.T) {
	w := map[string]bool{}
	for _, n := range wrapped {
		w[n] = true
	}
	names := map[string]bool{}
	for _, n := range Names {
		names[n] = true
	}
	for what, set := range map[string]map[string]bool{"the fatbin": fatbinKernels(t), "Names": names} {
		for n := range set {
			if !w[n] {
				t.Errorf("kernel %s is in %s but has no generated wrapper", n, what)
			}
		}
		for n := range w {
			if !set[n] {
				t.Errorf("kernel %s has a wrapper but is not in %s", n, what)
			}
		}
	}
}

// cubinParams reads the parameter widths of every kernel of every cubin
// (ELF) image in the fatbin from its .nv.info.<kernel> section: the
// EIATTR_KPARAM_INFO attributes (0x17; a 12-byte value: index u32, ordinal
// u16, offset u16, flags u32 with the size in bits 18-31). Compressed
// images are not visible; the committed fatbin has uncompressed ones.
func cubinParams(t *testing.T) []map[string][]int {
	t.Helper()
	b, err := os.ReadFile(FatbinFile)
	if err != nil {
		t.Fatal(err)
	}
	var images []map[string][]int
	for off := 0; ; off += 4 {
		i := bytes.Index(b[off:], []byte(elf.ELFMAG))
		if i < 0 {
			break
		}
		off += i
		f, err := elf.NewFile(bytes.NewReader(b[off:]))
		if err != nil || f.Machine != elf.EM_CUDA {
			continue
		}
		img := map[string][]int{}
		for _, s := range f.Sections {
			name, ok := strings.CutPrefix(s.Name, ".nv.info.")
			if !ok {
				continue
			}
			d, err := s.Data()
			if err != nil {
				t.Fatalf("ELF at %d: section %s: %v", off, s.Name, err)
			}
			sizes := map[int]int{}
			for p := 0; p+4 <= len(d); {
				format, attr := d[p], d[p+1]
				if format != 4 { // not EIFMT_SVAL: a 2-byte value follows
					p += 4
					continue
				}
				n := int(binary.LittleEndian.Uint16(d[p+2:]))
				v := d[p+4 : min(p+4+n, len(d))]
				if attr == 0x17 && len(v) == 12 {
					ord := int(binary.LittleEndian.Uint16(v[4:]))
					sizes[ord] = int(binary.LittleEndian.Uint32(v[8:])>>18) & 0x3fff
				}
				p += 4 + n
			}
			params := make([]int, len(sizes))
			for ord, sz := range sizes {
				if ord >= len(params) {
					t.Fatalf("ELF at %d: kernel %s: parameter ordinals %v are not 0..%d", off, name, sizes, len(sizes)-1)
				}
				params[ord] = sz
			}
			img[name] = params
		}
		images = append(images, img)
	}
	return images
}

// TestWrappersMatchCubins checks every wrapper's parameter count and
// widths against the kernels nvcc compiled: the parser's reading of the
// sources against the compiler's.
func TestWrappersMatchCubins(t *testing.T) {
	src, err := wrapgen.ParseDir(".")
	if err != nil {
		t.Fatal(err)
	}
	images := cubinParams(t)
	if len(images) == 0 {
		t.Fatalf("no uncompressed cubin in %s", FatbinFile)
	}
	for _, k := range src.Kernels {
		want, err := src.ParamBytes(k)
		if err != nil {
			t.Fatal(err)
		}
		for i, img := range images {
			have, ok := img[k.Name]
			if !ok {
				t.Errorf("cubin %d has no kernel %s", i, k.Name)
				continue
			}
			if !slices.Equal(have, want) {
				t.Errorf("kernel %s (%s:%d): the wrapper passes parameters of %v bytes, cubin %d has %v", k.Name, k.File, k.Line, want, i, have)
			}
		}
	}
	t.Logf("%d kernels checked against %d cubins", len(src.Kernels), len(images))
}

// TestTypedNames checks that the typed name builders return, for every
// point of the decision space, the member its parameters name (spelled
// out here apart from the builders), and reach every member.
func TestTypedNames(t *testing.T) {
	ab := func(c bool, a, b string) string {
		if c {
			return a
		}
		return b
	}
	seen := map[string]bool{}
	check := func(got string, valid bool, want string) {
		t.Helper()
		if !valid || got != want {
			t.Errorf("builder returned %q (member: %v), want %q", got, valid, want)
		}
		seen[got] = true
	}
	for _, a := range []bool{false, true} {
		k := BFSPiecesOf(a)
		check(string(k), k.Valid(), "bfs_pieces_"+ab(a, "o", "u"))
		for _, b := range []bool{false, true} {
			k64 := SSSPPushU64Of(a, b)
			check(string(k64), k64.Valid(), fmt.Sprintf("sssp_d64_%s_%s", ab(a, "b", "t"), ab(b, "bm", "qu")))
			k32 := SSSPPushU32Of(a, b)
			check(string(k32), k32.Valid(), fmt.Sprintf("sssp_d32_%s_%s", ab(a, "b", "t"), ab(b, "bm", "qu")))
			for _, c := range []bool{false, true} {
				k := BFSPushOf(a, b, c)
				check(string(k), k.Valid(), fmt.Sprintf("bfs_push_%s_%s_%s", ab(a, "o", "u"), ab(b, "b", "t"), ab(c, "bm", "qu")))
			}
		}
		for _, sel := range []string{SelectAll, SelectMin, SelectDelta} {
			width := ""
			if sel != SelectAll {
				width = ab(a, "_d32", "_d64")
			}
			for _, out := range []string{OutBitmap, OutQueueAtomic, OutQueueWarp} {
				k := GenOf(out, sel, a)
				check(string(k), k.Valid(), "ws_gen_"+out+"_"+sel+width)
			}
			k := GenDualOf(sel, a)
			check(string(k), k.Valid(), "ws_gen_dual_"+sel+width)
			if k := GenOf(OutDual, sel, a); k.Valid() {
				t.Errorf("GenOf(OutDual, %s, %v) = %q, a member of the wrong family", sel, a, k)
			}
		}
	}
	// 8 BFS push, 2 pieces, 8 SSSP push, 15 generation, 5 dual generation.
	if want := 8 + 2 + 8 + 15 + 5; len(seen) != want {
		t.Errorf("the builders reach %d members, want %d", len(seen), want)
	}
}

// TestStructMirrors checks the generated mirrors' sizes against the C
// side: PERSIST_BYTES (a static_assert in common.cuh), and the sizes the
// hand-written mirrors documented for Ctrl and CCCtrl.
func TestStructMirrors(t *testing.T) {
	for _, c := range []struct {
		name string
		have uintptr
		want uintptr
	}{
		{"Persist", unsafe.Sizeof(Persist{}), PersistBytes},
		{"Ctrl", unsafe.Sizeof(Ctrl{}), 72},
		{"CCCtrl", unsafe.Sizeof(CCCtrl{}), 64},
	} {
		if c.have != c.want {
			t.Errorf("sizeof %s = %d, want %d", c.name, c.have, c.want)
		}
	}
}

type recorder struct {
	name        string
	grid, block int
	args        []uint64
	calls       int
}

func (r *recorder) LaunchKernel(name string, grid, block int, args []uint64) error {
	r.name, r.grid, r.block, r.args = name, grid, block, append([]uint64(nil), args...)
	r.calls++
	return nil
}

// TestLaunchSlots checks what a wrapper hands the Launcher: the kernel's
// name, the grid, and one slot per parameter in order.
func TestLaunchSlots(t *testing.T) {
	var r recorder
	if err := LaunchCCAffMode(&r, 1, 1024, PtrAt[uint32](0x1000), 7, 1<<40, PtrAt[CCCtrl](0x2000)); err != nil {
		t.Fatal(err)
	}
	if r.name != "cc_aff_mode" || r.grid != 1 || r.block != 1024 {
		t.Fatalf("launched %s <<<%d, %d>>>, want cc_aff_mode <<<1, 1024>>>", r.name, r.grid, r.block)
	}
	if want := []uint64{0x1000, 7, 1 << 40, 0x2000}; !equalSlots(r.args, want) {
		t.Fatalf("slots %#x, want %#x", r.args, want)
	}
	// A family member, with null pointers and a void pointer.
	k := GenOf(OutQueueWarp, SelectMin, true)
	if err := LaunchWSGen(&r, k, 3, 256, PtrAt[uint8](8), 100, PtrAt[uint32](16).Void(), DevPtr[int64]{}, 5, PtrAt[uint32](24), DevPtr[Ctrl]{}, 1); err != nil {
		t.Fatal(err)
	}
	if want := []uint64{8, 100, 16, 0, 5, 24, 0, 1}; r.name != "ws_gen_qw_min_d32" || !equalSlots(r.args, want) {
		t.Fatalf("launched %s %#x, want ws_gen_qw_min_d32 %#x", r.name, r.args, want)
	}
	// A name outside the family is refused before the launch.
	calls := r.calls
	err := LaunchBFSPush(&r, BFSPushKernel(SSSPPushU32Of(false, true)), 1, 32, DevPtr[int64]{}, DevPtr[uint32]{}, DevPtr[uint32]{}, DevPtr[uint8]{}, DevPtr[uint32]{}, 0, DevPtr[Ctrl]{}, 0, DevPtr[uint64]{})
	if !errors.Is(err, ErrNotMember) || r.calls != calls {
		t.Fatalf("foreign name: err %v after %d launches, want ErrNotMember and none", err, r.calls-calls)
	}
}

func equalSlots(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// typeCheck type-checks the package's launch API (the generated wrappers
// and the files they use) with one more file, and returns the errors.
func typeCheck(t *testing.T, imp types.Importer, extra string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range []string{wrappersFile, "launch.go", "names.go", "cc_names.go"} {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	f, err := parser.ParseFile(fset, "call.go", "package kernels\n\n"+extra, 0)
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, f)
	var errs []string
	conf := types.Config{Importer: imp, Error: func(err error) { errs = append(errs, err.Error()) }}
	_, _ = conf.Check("github.com/gearbox-graph/gearbox/kernels", fset, files, nil)
	sort.Strings(errs)
	return errs
}

// TestWrongCallFailsToCompile shows what the wrappers buy: a launch with a
// wrong argument count, pointee type, scalar width, order or family member
// does not type-check (with the untyped Dev.Launch they replaced, each compiled and
// failed, if at all, on the GPU).
func TestWrongCallFailsToCompile(t *testing.T) {
	imp := importer.Default()
	const decls = `var (
	l   Launcher
	p   DevPtr[uint32]
	h   DevPtr[uint64]
	in  DevPtr[uint32]
	out DevPtr[uint8]
	n   uint32
	i   int
)

`
	if errs := typeCheck(t, imp, decls+`func _() error { return LaunchCCInit(l, 1, 256, p, h, n) }`); len(errs) != 0 {
		t.Fatalf("a correct call does not type-check: %v", errs)
	}
	for _, c := range []struct{ name, call, want string }{
		{"count", `LaunchCCInit(l, 1, 256, p, h)`, "not enough arguments in call to LaunchCCInit"},
		{"pointee", `LaunchCCInit(l, 1, 256, h, h, n)`, "cannot use h (variable of struct type DevPtr[uint64]) as DevPtr[uint32] value in argument to LaunchCCInit"},
		{"go int", `LaunchCCInit(l, 1, 256, p, h, i)`, "cannot use i (variable of type int) as uint32 value in argument to LaunchCCInit"},
		{"order", `LaunchNarrowU8(l, 1, 256, out, in, n)`, "cannot use out (variable of struct type DevPtr[uint8]) as DevPtr[uint32] value in argument to LaunchNarrowU8"},
		{"family", `LaunchSSSPPushU32(l, SSSPPushU64Of(false, true), 1, 256, DevPtr[int64]{}, in, in, in, out, in, n, DevPtr[Ctrl]{}, n, h)`, "cannot use SSSPPushU64Of(false, true) (value of string type SSSPPushU64Kernel) as SSSPPushU32Kernel value in argument to LaunchSSSPPushU32"},
	} {
		errs := typeCheck(t, imp, decls+"func _() error { return "+c.call+" }")
		if len(errs) == 0 {
			t.Errorf("%s: %s type-checks, want an error", c.name, c.call)
			continue
		}
		if !strings.Contains(strings.Join(errs, "\n"), c.want) {
			t.Errorf("%s: errors %q, want one containing %q", c.name, errs, c.want)
		}
		t.Logf("%s: %s\n\t%s", c.name, c.call, strings.Join(errs, "\n\t"))
	}
}
