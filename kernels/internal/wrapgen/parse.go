// Package wrapgen reads the extern "C" __global__ kernels of gearbox's CUDA
// sources and writes one typed Go launch function per kernel, or per family
// of kernels sharing one signature (the instances of one #define), so that
// a launch with a wrong argument count, order or width fails to compile.
//
// It understands the subset of C the sources use: typedefs, integer
// #defines, plain structs of scalars and fixed arrays, kernels declared
// directly and kernels declared inside a function-like macro and
// instantiated at file scope. Anything else in a kernel signature is an
// error naming file:line, so that an unsupported parameter is fixed in the
// parser, never silently passed with the wrong width.
package wrapgen

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Source is everything the generator needs from the kernel sources.
type Source struct {
	Kernels []*Kernel          // in file order (files sorted by name)
	Structs map[string]*Struct // file-scope structs, by name
	Defines map[string]int64   // integer object-like #defines
}

// Kernel is one extern "C" __global__ function.
type Kernel struct {
	Name   string
	File   string // file name, relative to the kernels directory
	Line   int    // line of its declaration, or of its macro's instantiation
	Macro  string // the function-like macro that declares it; "" when declared directly
	Params []Param
}

// Param is one kernel parameter.
type Param struct {
	Name  string
	CType string // as written, qualifiers included (after macro substitution)
	Base  string // the base type with typedefs resolved: "unsigned int", "Ctrl", "void"
	Ptr   bool   // a pointer to Base
	Const bool   // a pointer to const: the kernel only reads through it
}

// Struct is a C struct of scalars and fixed arrays of scalars.
type Struct struct {
	Name   string
	File   string
	Line   int
	Fields []Field
}

// Field is one member of a Struct.
type Field struct {
	Name    string
	Base    string // resolved scalar type
	Len     int64  // array length; 0 for a scalar
	Comment string // the trailing // comment, if any
}

// line is one logical line: continuation lines joined, comments blanked.
type line struct {
	no   int    // first physical line
	text string // comment-free text
	raw  []string
}

// ParseDir parses every .cu and .cuh file directly in dir.
func ParseDir(dir string) (*Source, error) {
	var names []string
	for _, pat := range []string{"*.cu", "*.cuh"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return nil, err
		}
		names = append(names, m...)
	}
	sort.Strings(names)
	files := map[string][]byte{}
	var order []string
	for _, p := range names {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("wrapgen: %w", err)
		}
		files[filepath.Base(p)] = b
		order = append(order, filepath.Base(p))
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("wrapgen: no .cu or .cuh files in %s", dir)
	}
	return Parse(order, files)
}

// Parse parses the named files (in the order given) from their contents.
func Parse(order []string, files map[string][]byte) (*Source, error) {
	src := &Source{Structs: map[string]*Struct{}, Defines: map[string]int64{}}
	p := &parser{src: src, typedefs: map[string]string{}, macros: map[string]*macro{}}
	logical := map[string][]line{}
	// Declarations first (typedefs, #defines, structs, kernel macros) from
	// every file, so that a .cu file may use what a later-sorted .cuh
	// declares.
	for _, name := range order {
		logical[name] = logicalLines(files[name])
		p.typedefsAndDefines(logical[name])
	}
	for _, name := range order {
		if err := p.declarations(name, logical[name]); err != nil {
			return nil, err
		}
	}
	for _, name := range order {
		if err := p.kernels(name, logical[name]); err != nil {
			return nil, err
		}
	}
	seen := map[string]string{}
	for _, k := range src.Kernels {
		at := fmt.Sprintf("%s:%d", k.File, k.Line)
		if prev, ok := seen[k.Name]; ok {
			return nil, fmt.Errorf("%s: kernel %s is also declared at %s", at, k.Name, prev)
		}
		seen[k.Name] = at
	}
	return src, nil
}

type macro struct {
	name    string
	file    string
	line    int
	params  []string
	kernel  string // the macro parameter that names the kernel
	sigText string // the parameter list, unsubstituted
}

type parser struct {
	src      *Source
	typedefs map[string]string
	macros   map[string]*macro
}

// logicalLines blanks comments (keeping line breaks) and joins lines ending
// in a backslash.
func logicalLines(b []byte) []line {
	s := string(b)
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				out.WriteByte(' ')
				i++
			}
			if i < len(s) {
				out.WriteByte('\n')
			}
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			stop := len(s)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				if s[i] == '\n' {
					out.WriteByte('\n')
				} else {
					out.WriteByte(' ')
				}
			}
			i--
		case s[i] == '"':
			// String literals ("C") pass through; none holds a comment marker.
			j := i + 1
			for j < len(s) && s[j] != '"' && s[j] != '\n' {
				j++
			}
			out.WriteString(s[i:min(j+1, len(s))])
			i = j
		default:
			out.WriteByte(s[i])
		}
	}
	phys := strings.Split(out.String(), "\n")
	raw := strings.Split(s, "\n")
	var ls []line
	for i := 0; i < len(phys); i++ {
		l := line{no: i + 1}
		var parts []string
		for {
			t := phys[i]
			l.raw = append(l.raw, raw[i])
			if strings.HasSuffix(strings.TrimRight(t, " \t\r"), "\\") && i+1 < len(phys) {
				t = strings.TrimRight(t, " \t\r")
				parts = append(parts, t[:len(t)-1])
				i++
				continue
			}
			parts = append(parts, t)
			break
		}
		l.text = strings.Join(parts, " ")
		ls = append(ls, l)
	}
	return ls
}

var (
	reTypedef   = regexp.MustCompile(`^\s*typedef\s+([A-Za-z_][\w\s]*?)\s+([A-Za-z_]\w*)\s*;`)
	reDefineObj = regexp.MustCompile(`^\s*#\s*define\s+([A-Za-z_]\w*)\s+(\S.*?)\s*$`)
	reDefineFn  = regexp.MustCompile(`^\s*#\s*define\s+([A-Za-z_]\w*)\(([^)]*)\)(.*)$`)
	reStruct    = regexp.MustCompile(`^struct\s+([A-Za-z_]\w*)\s*\{\s*$`)
	reInt       = regexp.MustCompile(`^(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*$`)
	reExtern    = regexp.MustCompile(`extern\s+"C"`)
	reField     = regexp.MustCompile(`^\s*([A-Za-z_][\w\s]*?)\s+([A-Za-z_]\w*(?:\s*\[[^\]]*\])?(?:\s*,\s*[A-Za-z_]\w*(?:\s*\[[^\]]*\])?)*)\s*;\s*$`)
	reIdent     = regexp.MustCompile(`^[A-Za-z_]\w*$`)
)

func (p *parser) typedefsAndDefines(ls []line) {
	for _, l := range ls {
		if m := reTypedef.FindStringSubmatch(l.text); m != nil {
			p.typedefs[m[2]] = strings.Join(strings.Fields(m[1]), " ")
			continue
		}
		if reDefineFn.MatchString(l.text) {
			continue
		}
		if m := reDefineObj.FindStringSubmatch(l.text); m != nil {
			if v, ok := parseInt(m[2]); ok {
				p.src.Defines[m[1]] = v
			}
		}
	}
}

func (p *parser) declarations(file string, ls []line) error {
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		at := fmt.Sprintf("%s:%d", file, l.no)
		if m := reDefineFn.FindStringSubmatch(l.text); m != nil {
			if !reExtern.MatchString(m[3]) {
				continue // a helper macro, not a kernel declaration
			}
			mc, err := parseMacro(m[1], m[2], m[3], file, l.no)
			if err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			p.macros[mc.name] = mc
			continue
		}
		if m := reStruct.FindStringSubmatch(strings.TrimRight(l.text, " \t\r")); m != nil {
			st, end, err := p.parseStruct(m[1], file, ls, i)
			if err != nil {
				return err
			}
			if st != nil {
				p.src.Structs[st.Name] = st
			}
			i = end
		}
	}
	return nil
}

func parseInt(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if !reInt.MatchString(s) {
		return 0, false
	}
	s = strings.TrimRight(s, "uUlL")
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, false
	}
	return int64(v), true
}

// parseStruct reads a file-scope struct from line i (its "struct X {") to
// its "};". A struct with anything but scalar and array members (methods,
// nested types) is skipped: it cannot be a kernel argument's pointee we
// mirror, and a kernel that takes one is refused later.
func (p *parser) parseStruct(name, file string, ls []line, i int) (*Struct, int, error) {
	st := &Struct{Name: name, File: file, Line: ls[i].no}
	ok := true
	for j := i + 1; j < len(ls); j++ {
		t := strings.TrimSpace(ls[j].text)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "};") {
			if !ok {
				return nil, j, nil
			}
			return st, j, nil
		}
		m := reField.FindStringSubmatch(t)
		if m == nil {
			ok = false
			continue
		}
		comment := ""
		if raw := ls[j].raw[0]; strings.Contains(raw, "//") {
			comment = strings.TrimSpace(raw[strings.Index(raw, "//")+2:])
		}
		for _, decl := range strings.Split(m[2], ",") {
			decl = strings.TrimSpace(decl)
			f := Field{Base: p.resolve(m[1]), Comment: comment}
			if k := strings.IndexByte(decl, '['); k >= 0 {
				dim := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(decl[k+1:]), "]"))
				n, isInt := parseInt(dim)
				if !isInt {
					v, isDef := p.src.Defines[dim]
					if !isDef {
						return nil, j, fmt.Errorf("%s:%d: struct %s: array length %q is neither a number nor an integer #define", file, ls[j].no, name, dim)
					}
					n = v
				}
				f.Len = n
				decl = strings.TrimSpace(decl[:k])
			}
			f.Name = decl
			st.Fields = append(st.Fields, f)
		}
	}
	return nil, len(ls), fmt.Errorf("%s:%d: struct %s has no closing \"};\"", file, st.Line, name)
}

// resolve follows typedefs and normalises spaces.
func (p *parser) resolve(t string) string {
	t = strings.Join(strings.Fields(t), " ")
	for range 16 {
		r, ok := p.typedefs[t]
		if !ok {
			return t
		}
		t = r
	}
	return t
}

func parseMacro(name, params, body, file string, no int) (*macro, error) {
	mc := &macro{name: name, file: file, line: no}
	for _, a := range strings.Split(params, ",") {
		a = strings.TrimSpace(a)
		if !reIdent.MatchString(a) {
			return nil, fmt.Errorf("macro %s: parameter %q is not an identifier", name, a)
		}
		mc.params = append(mc.params, a)
	}
	kname, sig, err := kernelHead(body)
	if err != nil {
		return nil, fmt.Errorf("macro %s: %w", name, err)
	}
	if !slicesContains(mc.params, kname) {
		return nil, fmt.Errorf("macro %s declares kernel %s, which is not one of its parameters (%s): one instance per macro is not a family", name, kname, params)
	}
	mc.kernel, mc.sigText = kname, sig
	return mc, nil
}

func slicesContains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// kernelHead parses `extern "C" __global__ void [__launch_bounds__(...)]
// NAME(params)` at the start of text (after the extern) and returns the
// name and the parameter list's text.
func kernelHead(text string) (name, params string, err error) {
	loc := reExtern.FindStringIndex(text)
	if loc == nil {
		return "", "", fmt.Errorf(`no extern "C"`)
	}
	rest := strings.TrimSpace(text[loc[1]:])
	var sawGlobal, sawVoid bool
	for {
		id, after := leadingIdent(rest)
		switch id {
		case "__global__":
			sawGlobal = true
			rest = after
			continue
		case "void":
			sawVoid = true
			rest = after
			continue
		case "__launch_bounds__":
			inner, tail, err := balanced(after)
			if err != nil {
				return "", "", fmt.Errorf("__launch_bounds__: %w", err)
			}
			_ = inner
			rest = tail
			continue
		case "":
			return "", "", fmt.Errorf("expected a kernel name after extern \"C\", got %.40q", rest)
		}
		if !sawGlobal || !sawVoid {
			return "", "", fmt.Errorf(`extern "C" %s: not a __global__ void kernel`, id)
		}
		inner, _, err := balanced(after)
		if err != nil {
			return "", "", fmt.Errorf("kernel %s: parameter list: %w", id, err)
		}
		return id, inner, nil
	}
}

func leadingIdent(s string) (id, rest string) {
	s = strings.TrimSpace(s)
	j := 0
	for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || j > 0 && s[j] >= '0' && s[j] <= '9') {
		j++
	}
	return s[:j], strings.TrimSpace(s[j:])
}

// balanced takes "(...)rest" and returns the text inside the outer
// parentheses and what follows them.
func balanced(s string) (inner, rest string, err error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(") {
		return "", "", fmt.Errorf("expected '(', got %.40q", s)
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return s[1:i], s[i+1:], nil
			}
		}
	}
	return "", "", fmt.Errorf("unbalanced parentheses")
}

// splitTop splits on commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '<', '[':
			depth++
		case ')', '>', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" || len(out) > 0 {
		out = append(out, t)
	}
	return out
}

// kernels finds the directly declared kernels and the kernel-macro
// instances of one file.
func (p *parser) kernels(file string, ls []line) error {
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		t := strings.TrimSpace(l.text)
		if strings.HasPrefix(t, "#") {
			continue
		}
		at := fmt.Sprintf("%s:%d", file, l.no)
		if reExtern.MatchString(t) {
			// The head may span lines: gather until the parameter list closes.
			text := t
			j := i
			for {
				if _, _, err := kernelHead(text); err == nil || j+1 >= len(ls) || strings.Count(text, "(") > 64 {
					break
				}
				j++
				text += " " + strings.TrimSpace(ls[j].text)
			}
			name, sig, err := kernelHead(text)
			if err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			params, err := p.params(sig, nil)
			if err != nil {
				return fmt.Errorf("%s: kernel %s: %w", at, name, err)
			}
			p.src.Kernels = append(p.src.Kernels, &Kernel{Name: name, File: file, Line: l.no, Params: params})
			i = j
			continue
		}
		id, rest := leadingIdent(t)
		mc, ok := p.macros[id]
		if !ok || !strings.HasPrefix(rest, "(") {
			continue
		}
		inner, _, err := balanced(rest)
		if err != nil {
			return fmt.Errorf("%s: %s instance: %w", at, id, err)
		}
		args := splitTop(inner)
		if len(args) != len(mc.params) {
			return fmt.Errorf("%s: %s takes %d arguments (%s), got %d", at, id, len(mc.params), strings.Join(mc.params, ", "), len(args))
		}
		sub := map[string]string{}
		var name string
		for k, a := range mc.params {
			sub[a] = args[k]
			if a == mc.kernel {
				name = args[k]
			}
		}
		if !reIdent.MatchString(name) {
			return fmt.Errorf("%s: %s: kernel name %q is not an identifier", at, id, name)
		}
		params, err := p.params(mc.sigText, sub)
		if err != nil {
			return fmt.Errorf("%s: kernel %s (macro %s, %s:%d): %w", at, name, id, mc.file, mc.line, err)
		}
		p.src.Kernels = append(p.src.Kernels, &Kernel{Name: name, File: file, Line: l.no, Macro: id, Params: params})
	}
	return nil
}

// params parses a parameter list, substituting macro arguments token-wise.
func (p *parser) params(sig string, sub map[string]string) ([]Param, error) {
	var out []Param
	names := map[string]bool{}
	for _, raw := range splitTop(sig) {
		toks := tokens(raw)
		for k, t := range toks {
			if s, ok := sub[t]; ok {
				toks[k] = s
			}
		}
		ctype := strings.Join(toks, " ")
		ctype = strings.ReplaceAll(ctype, " *", "*")
		toks = tokens(strings.Join(toks, " ")) // a substituted argument may hold several tokens
		if len(toks) < 2 {
			return nil, fmt.Errorf("parameter %q: want a type and a name", raw)
		}
		name := toks[len(toks)-1]
		if !reIdent.MatchString(name) {
			return nil, fmt.Errorf("parameter %q: no name (unnamed parameters cannot be wrapped)", raw)
		}
		if names[name] {
			return nil, fmt.Errorf("parameter %s appears twice", name)
		}
		names[name] = true
		prm := Param{Name: name, CType: ctype}
		var words []string
		stars := 0
		constBeforeStar := false
		for _, t := range toks[:len(toks)-1] {
			switch t {
			case "__restrict__", "__restrict", "restrict":
			case "const":
				if stars == 0 {
					constBeforeStar = true
				}
			case "volatile":
				return nil, fmt.Errorf("parameter %s: volatile is not supported", name)
			case "*":
				stars++
			case "&", "[", "]":
				return nil, fmt.Errorf("parameter %s: references and arrays are not supported (%q)", name, raw)
			default:
				if stars > 0 {
					return nil, fmt.Errorf("parameter %s: unexpected %q after '*' in %q", name, t, raw)
				}
				words = append(words, t)
			}
		}
		if stars > 1 {
			return nil, fmt.Errorf("parameter %s: pointers to pointers are not supported (%q)", name, raw)
		}
		if len(words) == 0 {
			return nil, fmt.Errorf("parameter %s: no type in %q", name, raw)
		}
		prm.Base = p.resolve(strings.Join(words, " "))
		prm.Ptr = stars == 1
		prm.Const = prm.Ptr && constBeforeStar
		out = append(out, prm)
	}
	return out, nil
}

var reTok = regexp.MustCompile(`[A-Za-z_]\w*|[0-9]+|\*|&|\[|\]|\S`)

func tokens(s string) []string { return reTok.FindAllString(s, -1) }
