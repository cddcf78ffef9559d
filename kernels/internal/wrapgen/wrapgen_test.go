package wrapgen

import (
	"strings"
	"testing"
)

const common = `typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long i64;
#define HUBS 4
struct Ctl {
    u32 count[2];  // sizes
    u64 minv;
    u32 hub[HUBS];
};
`

func parseOne(t *testing.T, body string) (*Source, error) {
	t.Helper()
	return Parse([]string{"a.cuh", "k.cu"}, map[string][]byte{"a.cuh": []byte(common), "k.cu": []byte(body)})
}

func TestParseDirectAndMacro(t *testing.T) {
	src, err := parseOne(t, `// extern "C" in a comment is ignored
/* and
   extern "C" __global__ void not_me(int x) in a block comment */
extern "C" __global__ void __launch_bounds__(256, 1)
    plain(const u32* __restrict__ in, u32 n,
          Ctl* ctl, float f) {
    body(in, n);
}

#define FAM(NAME, D, X)                                      \
    extern "C" __global__ void __launch_bounds__(1024)       \
        NAME(const i64* off, D* dist, u32 n) {               \
        go<X>(off, dist, n);                                 \
    }

FAM(fam_a_d64, u64, 1)
FAM(fam_b_d64, u64, 2)
FAM(fam_a_d32, u32, 1)
FAM(fam_b_d32, u32, 2)
FAM(one_d16, unsigned short, 3)
`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, k := range src.Kernels {
		names = append(names, k.Name)
	}
	if got := strings.Join(names, " "); got != "plain fam_a_d64 fam_b_d64 fam_a_d32 fam_b_d32 one_d16" {
		t.Fatalf("kernels %q", got)
	}
	p := src.Kernels[0].Params
	if len(p) != 4 || p[0].Base != "unsigned int" || !p[0].Ptr || !p[0].Const || p[1].Ptr || p[2].Base != "Ctl" || p[3].Base != "float" {
		t.Fatalf("plain's params %+v", p)
	}
	if d := src.Kernels[3].Params[1]; d.Base != "unsigned int" || !d.Ptr || d.Const || d.CType != "u32* dist" {
		t.Fatalf("fam_a_d32's dist %+v", d)
	}
	if k := src.Kernels[1]; k.Macro != "FAM" || k.File != "k.cu" || k.Line != 16 {
		t.Fatalf("fam_a_d64 at %s:%d macro %q, want k.cu:16 FAM", k.File, k.Line, k.Macro)
	}
	st := src.Structs["Ctl"]
	if st == nil || len(st.Fields) != 3 || st.Fields[2].Len != 4 || st.Fields[0].Comment != "sizes" {
		t.Fatalf("struct Ctl %+v", st)
	}

	units, err := Plan(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range units {
		got = append(got, u.Func+":"+u.Type)
	}
	// FAM's distance type splits it into two families and a single kernel.
	if s := strings.Join(got, " "); s != "LaunchPlain: LaunchFamU64:FamU64Kernel LaunchFamU32:FamU32Kernel LaunchOneD16:" {
		t.Fatalf("units %s", s)
	}
	out, err := Generate(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		Header,
		"type Ctl struct {\n\tCount [2]uint32 // sizes\n\tMinV  uint64\n\tHub   [4]uint32\n}",
		"func LaunchPlain(l Launcher, grid, block int, in DevPtr[uint32], n uint32, ctl DevPtr[Ctl], f float32) error {\n",
		"// LaunchPlain launches plain (k.cu), whose C parameters are\n// (const u32* __restrict__ in, u32 n, Ctl* ctl, float f).\n",
		"uint64(math.Float32bits(f))",
		"FamBD32 FamU32Kernel = \"fam_b_d32\"",
		"func LaunchOneD16(l Launcher, grid, block int, off DevPtr[int64], dist DevPtr[uint16], n uint32) error {",
		"// unsigned short* dist, u32 n).\n",
		"func LaunchFamU32(l Launcher, k FamU32Kernel, grid, block int, off DevPtr[int64], dist DevPtr[uint32], n uint32) error {\n\treturn launchMember(l, k, grid, block, ",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("generated code lacks %q", want)
		}
	}
}

// TestParseErrors: what the parser cannot map is an error naming the file
// and line, never a silently wrong wrapper.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"extern \"C\" __global__ void k(long x) {}\n", `k.cu:1: kernel k parameter x: "long x": long's width differs`},
		{"extern \"C\" __global__ void k(u32** x) {}\n", "k.cu:1: kernel k: parameter x: pointers to pointers"},
		{"extern \"C\" __global__ void k(Foo* x) {}\n", "k.cu:1: kernel k parameter x: pointer to Foo"},
		{"extern \"C\" __global__ void k(u32) {}\n", "k.cu:1: kernel k: parameter \"u32\": want a type and a name"},
		{"\n\nextern \"C\" __global__ void k(u32 x, u32 x) {}\n", "k.cu:3: kernel k: parameter x appears twice"},
		{"extern \"C\" int k(u32 x) {}\n", "k.cu:1: extern \"C\" int: not a __global__ void kernel"},
		{"#define M(NAME, D) extern \"C\" __global__ void NAME(D x) {}\nM(a)\n", "k.cu:2: M takes 2 arguments (NAME, D), got 1"},
		{"#define M(D) extern \"C\" __global__ void fixed(D x) {}\n", "k.cu:1: macro M declares kernel fixed, which is not one of its parameters"},
		{"extern \"C\" __global__ void k(u32 x) {}\nextern \"C\" __global__ void k(u32 y) {}\n", "k.cu:2: kernel k is also declared at k.cu:1"},
		{"struct S {\n    u32 a[NOPE];\n};\n", "k.cu:2: struct S: array length \"NOPE\""},
	} {
		src, err := parseOne(t, c.body)
		if err == nil {
			_, err = Generate(src)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.body, err, c.want)
		}
	}
}

// FuzzParse: any source text gives kernels or an error, never a panic, and
// what parses generates (or fails) without one.
func FuzzParse(f *testing.F) {
	f.Add("extern \"C\" __global__ void k(const u32* __restrict__ in, u32 n) {}\n")
	f.Add("#define M(NAME, D) extern \"C\" __global__ void NAME(D* x, u32 n) {}\nM(a_d64, u64)\nM(b_d32, u32)\nM(c_d32, u32)\n")
	f.Add("struct S {\n    u32 a[HUBS]; // c\n    u64 b, c;\n};\nextern \"C\" __global__ void k(S* s) {}\n")
	f.Add("/* unterminated\nextern \"C\" __global__ void k(\n")
	f.Fuzz(func(t *testing.T, body string) {
		src, err := Parse([]string{"a.cuh", "k.cu"}, map[string][]byte{"a.cuh": []byte(common), "k.cu": []byte(body)})
		if err != nil {
			return
		}
		_, _ = Generate(src)
	})
}
