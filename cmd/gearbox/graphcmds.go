package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/cc"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/inspector"
	"github.com/gearbox-graph/gearbox/runtime"
)

func cmdInfo(ctx context.Context, e *env, args []string) error {
	var in inputFlags
	var asJSON bool
	fs := newFlagSet(e, "info", "(--graph FILE | --gen SPEC)")
	in.register(fs)
	fs.BoolVar(&asJSON, "json", false, "print one JSON object instead of the text")
	pos, help, err := parseFlags(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) == 1 && in.path == "" && in.gen == "" {
		in.path = pos[0] // "gearbox info FILE" reads like the user means it
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: info takes no positional arguments, got %q", errUsage, pos)
	}
	g, err := in.load(ctx, e)
	if err != nil {
		return err
	}
	if asJSON {
		return writeInfoJSON(e.stdout, in.name(), g)
	}
	fmt.Fprintf(e.stdout, "graph: %s\n", in.name())
	// The statistics count the self-loops the graph has; say what the file
	// had that loading dropped, or "0 self-loops" reads as a fact about it.
	if d := g.Dropped(); in.path != "" && (d.SelfLoops > 0 || d.Duplicates > 0) {
		dup := "arcs"
		if !g.Directed() {
			dup = "edges (u v again, either way round)"
		}
		fmt.Fprintf(e.stdout, "dropped %d self-loops and %d duplicate %s while loading\n", d.SelfLoops, d.Duplicates, dup)
	}
	if g.DerivedWeights() {
		fmt.Fprintln(e.stdout, "weights: derived from the seed in [1,255]")
	}
	if s, t, ok := g.Terminals(); ok {
		fmt.Fprintf(e.stdout, "max-flow source: %d  sink: %d\n", g.IDs().External(s), g.IDs().External(t))
	}
	if !g.IDs().Identity() {
		if g.IDs().List() != nil {
			fmt.Fprintln(e.stdout, "vertex ids: relabelled densely in sorted order of the file's ids (output uses the file's ids)")
		} else {
			fmt.Fprintf(e.stdout, "vertex ids: file ids start at %d\n", g.IDs().Base())
		}
	}
	return inspector.Stats(g).WriteText(e.stdout)
}

func cmdConvert(ctx context.Context, e *env, args []string) error {
	var in inputFlags
	var outFormat string
	var derive, largest bool
	fs := newFlagSet(e, "convert", "IN OUT")
	in.register(fs)
	fs.BoolVar(&largest, "largest-component", false, "write only the largest connected component (weakly connected for a directed graph), keeping the input's ids")
	fs.StringVar(&outFormat, "to", "", "output format (default: by OUT's extension): "+writableNames()+" (the others are read only)")
	fs.BoolVar(&derive, "derive-weights", false, "give an unweighted graph the weights in [1,255] that SSSP and MST derive from --seed, so another tool reads the same weighted graph")
	pos, help, err := parseFlags(fs, args)
	if help || err != nil {
		return err
	}
	switch {
	case len(pos) == 2 && in.path == "" && in.gen == "":
		in.path = pos[0]
		pos = pos[1:]
	case len(pos) == 1 && (in.path != "" || in.gen != ""):
	default:
		return fmt.Errorf("%w: convert needs IN OUT (or --graph/--gen and OUT), got %q", errUsage, pos)
	}
	// Everything about OUT is checked before the graph is read, which may
	// take minutes.
	f, err := outputFormat(pos[0], outFormat)
	if err != nil {
		return err
	}
	if err := notInput(&in, pos[0]); err != nil {
		return err
	}
	g, err := in.load(ctx, e)
	if err != nil {
		return err
	}
	if derive {
		if g.WeightKind() != graph.Unweighted {
			return fmt.Errorf("%w: --derive-weights: the graph already has %v weights", errUsage, g.WeightKind())
		}
		g = g.WithDerivedWeights(in.seed)
	}
	if largest {
		r, err := cc.Run(ctx, g, runtime.WithLogger(e.log))
		if err != nil {
			return err
		}
		n := g.NumVertices()
		if g, err = graph.Subgraph(g, r.Largest()); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "largest component: %d of %d vertices, %d arcs (%d components)\n", g.NumVertices(), n, g.NumEdges(), r.NumComponents())
	}
	if err := save(e, g, pos[0], f); err != nil {
		return err
	}
	if in.path != "" {
		if note := renumberNote(g, f); note != "" {
			fmt.Fprintln(e.stderr, note)
		}
	}
	return nil
}

// renumberNote says how the ids of a file written in format f differ from
// the input's: el, wel, mtx and gr can only number vertices 0..n-1 or
// 1..n, so a later --source in the input's ids would name another vertex.
// snap and bin keep the input's ids; "" when nothing changed.
func renumberNote(g *graph.Graph, f graph.Format) string {
	var base uint64
	switch f {
	case graph.FormatEL, graph.FormatWEL:
	case graph.FormatMTX, graph.FormatGR:
		base = 1
	default:
		return ""
	}
	n := g.NumVertices()
	ids := g.IDs()
	if n == 0 || (ids.List() == nil && ids.Base() == base) {
		return ""
	}
	first, last := ids.External(0), ids.External(uint32(n-1))
	how, order := "shifted", ""
	if ids.List() != nil {
		how, order = "renumbered", " in sorted order"
	}
	return fmt.Sprintf("note: vertex ids %s: the input's ids %d..%d are written as %d..%d%s (%s numbers vertices from %d); use snap or bin to keep the original ids",
		how, first, last, base, base+uint64(n)-1, order, f, base)
}

// notInput refuses an OUT that is one of the files the input is read from
// (the same path, or the same file through a link): writing it would
// replace the input with its conversion.
func notInput(in *inputFlags, out string) error {
	return checkOutputs(in.files(), output{"the output", out})
}

func cmdGen(ctx context.Context, e *env, args []string) error {
	var in inputFlags
	var outFormat string
	fs := newFlagSet(e, "gen", "SPEC OUT")
	fs.Uint64Var(&in.seed, "seed", 0, "generator seed (0 = default)")
	fs.StringVar(&outFormat, "to", "", "output format (default: by OUT's extension): "+writableNames()+" (the others are read only)")
	pos, help, err := parseFlags(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("%w: gen needs SPEC OUT, got %q", errUsage, pos)
	}
	in.gen = pos[0]
	f, err := outputFormat(pos[1], outFormat)
	if err != nil {
		return err
	}
	g, err := in.load(ctx, e)
	if err != nil {
		return err
	}
	return save(e, g, pos[1], f)
}

// outputFormat checks OUT and --to before any graph is read: the format
// must be writable and known (stdout needs --to), and OUT creatable.
func outputFormat(out, to string) (graph.Format, error) {
	var f graph.Format
	if to != "" {
		var err error
		if f, err = graph.ParseFormat(to); err != nil {
			return "", fmt.Errorf("%w: --to: %v", errUsage, err)
		}
	} else if out == "-" {
		return "", fmt.Errorf("%w: writing to stdout needs --to FORMAT", errUsage)
	}
	f, err := graph.OutputFormat(out, f)
	if err != nil {
		if to == "" {
			return "", fmt.Errorf("%w: %v; give --to FORMAT", errUsage, err)
		}
		return "", fmt.Errorf("%w: --to: %v", errUsage, err)
	}
	if err := checkOutputs(nil, output{"OUT", out}); err != nil {
		return "", fmt.Errorf("%w: %v", errUsage, err)
	}
	return f, nil
}

func save(e *env, g *graph.Graph, out string, f graph.Format) error {
	if lost := graph.Lost(g, f); len(lost) > 0 {
		fmt.Fprintf(e.stderr, "note: format %s cannot hold the graph's %s: not written (bin keeps everything)\n", f, strings.Join(lost, " or "))
	}
	var err error
	start := time.Now()
	if out == "-" {
		err = graph.Write(e.stdout, g, f)
	} else {
		err = graph.Save(out, g, f)
	}
	if err != nil {
		return err
	}
	e.log.Info().Str("out", out).Dur("write_ms", time.Since(start)).Msg("graph written")
	return nil
}

// infoJSON is the object gearbox info --json prints.
type infoJSON struct {
	Graph          graphJSON      `json:"graph"`
	Dropped        *graph.Dropped `json:"dropped,omitempty"`
	DerivedWeights bool           `json:"derived_weights,omitempty"`
	// IDs says how internal ids map to the file's: "identity", "offset"
	// (Base added) or "sorted" (relabelled densely in sorted order).
	IDs             string                   `json:"ids"`
	IDBase          uint64                   `json:"id_base,omitempty"`
	Source          *uint64                  `json:"maxflow_source,omitempty"`
	Sink            *uint64                  `json:"maxflow_sink,omitempty"`
	UndirectedEdges int64                    `json:"undirected_edges"`
	SelfLoops       int64                    `json:"self_loops"`
	MinDegree       int64                    `json:"min_degree"`
	MaxDegree       int64                    `json:"max_degree"`
	AvgDegree       float64                  `json:"avg_degree"`
	Isolated        int64                    `json:"isolated"`
	Histogram       []inspector.DegreeBucket `json:"degree_histogram"`
	Bytes           int64                    `json:"bytes"`
}

func writeInfoJSON(w io.Writer, name string, g *graph.Graph) error {
	st := inspector.Stats(g)
	o := infoJSON{Graph: describeGraph(name, g), DerivedWeights: g.DerivedWeights(), IDs: "identity",
		UndirectedEdges: st.UndirectedEdges, SelfLoops: st.SelfLoops, MinDegree: st.MinDegree, MaxDegree: st.MaxDegree,
		AvgDegree: st.AvgDegree, Isolated: st.Isolated, Histogram: st.Histogram, Bytes: st.Bytes}
	if d := g.Dropped(); d != (graph.Dropped{}) {
		o.Dropped = &d
	}
	switch ids := g.IDs(); {
	case ids.List() != nil:
		o.IDs = "sorted"
	case !ids.Identity():
		o.IDs, o.IDBase = "offset", ids.Base()
	}
	if s, t, ok := g.Terminals(); ok {
		a, b := g.IDs().External(s), g.IDs().External(t)
		o.Source, o.Sink = &a, &b
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(o)
}
