package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/graph"
)

// maxPairs bounds --pairs' queries: each is held until the answers are
// written.
const maxPairs = 1 << 24

// readPairs reads --pairs: one "s t" a line in the file's ids; blank
// lines and # comments are skipped. Errors name FILE:LINE.
func readPairs(g *graph.Graph, path string) ([][2]uint32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--pairs: %w", err)
	}
	defer f.Close()
	var out [][2]uint32
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = strings.TrimSpace(text[:i])
		}
		if text == "" {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: want two vertex ids 's t', got %d fields", path, line, len(fields))
		}
		var p [2]uint32
		for i, fl := range fields {
			x, err := strconv.ParseUint(fl, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %q is not a vertex id", path, line, fl)
			}
			v, ok := g.IDs().Internal(x)
			if !ok {
				return nil, fmt.Errorf("%s:%d: %d is not a vertex of the graph (%d vertices, %s)", path, line, x, g.NumVertices(), idRange(g))
			}
			p[i] = v
		}
		if len(out) >= maxPairs {
			return nil, fmt.Errorf("%s:%d: more than %d pairs", path, line, maxPairs)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--pairs %s: %w", path, err)
	}
	return out, nil
}

// runPairs answers every query of --pairs with one (loaded) graph and
// writes one line per query to out (stdout when ""), then a summary to
// stderr.
func runPairs(ctx context.Context, e *env, alg *algorithms.Spec, g *graph.Graph, path, out string, query func(ctx context.Context, s, t uint32) (*algorithms.Outcome, error)) error {
	pairs, err := readPairs(g, path)
	if err != nil {
		return err
	}
	ids := g.IDs()
	type answer struct {
		path []uint32
		ok   bool
	}
	answers := make([]answer, len(pairs))
	reach := 0
	t0 := time.Now()
	for i, p := range pairs {
		o, err := query(ctx, p[0], p[1])
		if err != nil {
			return fmt.Errorf("%s:%s query %d (%d %d): %w", alg.Name, path, i+1, ids.External(p[0]), ids.External(p[1]), err)
		}
		if o.Path != nil {
			answers[i].path, answers[i].ok = o.Path(p[1])
		}
		if answers[i].ok {
			reach++
		}
		if o.Release != nil {
			o.Release()
		}
	}
	wall := time.Since(t0)
	dst := out
	if dst == "" {
		dst = "-"
	}
	err = writeLines(e, output{"--out", dst}, func(lw *lineWriter) error {
		for i, p := range pairs {
			buf := strconv.AppendUint(lw.start(), ids.External(p[0]), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendUint(buf, ids.External(p[1]), 10)
			if a := answers[i]; a.ok {
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, int64(len(a.path)-1), 10)
				for _, v := range a.path {
					buf = append(buf, ' ')
					buf = strconv.AppendUint(buf, ids.External(v), 10)
				}
			} else {
				buf = append(buf, " none"...)
			}
			if err := lw.end(buf); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "%s: %d queries (%d reachable) in %.3f ms, %.3f ms each\n", alg.Name, len(pairs), reach, ms(wall), ms(wall)/float64(max(len(pairs), 1)))
	return nil
}
