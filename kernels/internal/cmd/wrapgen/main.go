// Command wrapgen writes kernels/wrappers_gen.go, the typed launch
// functions of the kernels in kernels/*.cu (`go generate ./kernels` runs it
// from the kernels directory).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gearbox-graph/gearbox/kernels/internal/wrapgen"
)

func main() {
	dir := flag.String("dir", ".", "the kernels directory")
	out := flag.String("o", "wrappers_gen.go", "output file, relative to -dir unless absolute")
	flag.Parse()
	if err := run(*dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "wrapgen:", err)
		os.Exit(1)
	}
}

func run(dir, out string) error {
	src, err := wrapgen.ParseDir(dir)
	if err != nil {
		return err
	}
	b, err := wrapgen.Generate(src)
	if err != nil {
		return err
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(dir, out)
	}
	return os.WriteFile(out, b, 0o644)
}
