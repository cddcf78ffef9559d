package main

import (
	"bufio"
	"fmt"
	"io"

	"github.com/gearbox-graph/gearbox/internal/atomicfile"
)

// Every output of every command follows one rule: it is checked before the
// work (it is not an input, not another output, and a file can be created
// beside it), written atomically (a temporary file renamed over it, so a
// failure leaves the old file whole; devices such as /dev/null are written
// in place), and "-" means standard output.

// output is one file a command writes: its flag (for messages) and path.
type output struct{ flag, path string }

// checkOutputs refuses, before any work, outputs that would overwrite an
// input or each other, two outputs to standard output, and outputs that
// cannot be created.
func checkOutputs(inputs []string, outs ...output) error {
	stdout := ""
	for i, o := range outs {
		if o.path == "" {
			continue
		}
		if o.path == "-" {
			if stdout != "" {
				return fmt.Errorf("%w: %s and %s both write to standard output (-)", errUsage, stdout, o.flag)
			}
			stdout = o.flag
			continue
		}
		for _, in := range inputs {
			if in != "" && in != "-" && atomicfile.Same(in, o.path) {
				return fmt.Errorf("%w: %s %s is the input file %s: refusing to overwrite the input (write to another file)", errUsage, o.flag, o.path, in)
			}
		}
		for _, p := range outs[:i] {
			if p.path != "" && p.path != "-" && atomicfile.Same(p.path, o.path) {
				return fmt.Errorf("%w: %s and %s name the same file %s", errUsage, p.flag, o.flag, o.path)
			}
		}
		if err := atomicfile.Check(o.path); err != nil {
			return fmt.Errorf("%s: %w", o.flag, err)
		}
	}
	return nil
}

// writeOutput writes path ("-": standard output) with fn, atomically.
func writeOutput(e *env, path string, fn func(io.Writer) error) error {
	if path == "-" {
		return fn(e.stdout)
	}
	return atomicfile.Write(path, fn)
}

// lineWriter buffers an output's lines: start gives an empty line to
// append to, end writes it with its newline.
type lineWriter struct {
	bw *bufio.Writer
	b  []byte
}

func (lw *lineWriter) start() []byte { return lw.b[:0] }

func (lw *lineWriter) end(line []byte) error {
	lw.b = append(line, '\n')
	_, err := lw.bw.Write(lw.b)
	return err
}

// writeLines writes the output o (none when its path is empty) line by
// line through a 1 MiB buffer; errors name o's flag.
func writeLines(e *env, o output, lines func(*lineWriter) error) error {
	if o.path == "" {
		return nil
	}
	err := writeOutput(e, o.path, func(w io.Writer) error {
		lw := &lineWriter{bw: bufio.NewWriterSize(w, 1<<20)}
		if err := lines(lw); err != nil {
			return err
		}
		return lw.bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("%s: %w", o.flag, err)
	}
	return nil
}

// createOutput opens path ("-": standard output) for an output written
// while the work runs (a CPU profile); commit makes it the file at path,
// abort drops it.
func createOutput(e *env, path string) (w io.Writer, commit func() error, abort func(), err error) {
	if path == "-" {
		return e.stdout, func() error { return nil }, func() {}, nil
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, nil, nil, err
	}
	return f, f.Commit, f.Abort, nil
}

// inputFiles returns what run reads: the graph's files and --thresholds.
func (f *runFlags) inputFiles() []string {
	return append(f.in.files(), f.thresholds, f.pairs)
}

// inputFiles returns what bench or tune reads: the graphs' files, and
// --thresholds with withThresholds.
func (f *sweepFlags) inputFiles(items []graphItem, withThresholds bool) []string {
	var in []string
	for _, it := range items {
		in = append(in, it.in.files()...)
	}
	if withThresholds {
		in = append(in, f.thresholds)
	}
	return in
}
