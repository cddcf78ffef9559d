package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/schollz/progressbar/v3"
)

// inputFlags are the flags of every command that reads a graph.
type inputFlags struct {
	path        string
	gen         string
	format      string
	undirected  bool
	weightScale float64
	seed        uint64
	// keepDuplicates keeps parallel arcs (max-flow sums their capacities).
	keepDuplicates bool
}

func (f *inputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.path, "graph", "", "read the graph from `FILE` (.gz read transparently)")
	fs.StringVar(&f.gen, "gen", "", "generate the graph from `SPEC`: kron:SCALE[:EF], urand:SCALE[:EF], grid:W:H; max-flow networks with terminals: rmf:A:B, rlg:W:H, vision:W:H")
	fs.StringVar(&f.format, "format", "", "input format (default: by extension): "+formatNames())
	fs.BoolVar(&f.undirected, "undirected", false, "symmetrize the input (treat every arc as an undirected edge)")
	fs.Float64Var(&f.weightScale, "weight-scale", 0, "multiply every weight, of every format, by `S` and round it to an integer (0 keeps weights as they are; an error for a graph without weights)")
	fs.Uint64Var(&f.seed, "seed", 0, "seed for generators and derived weights (0 = default)")
}

// writableNames lists the formats convert writes.
func writableNames() string {
	var s []string
	for _, f := range graph.WritableFormats() {
		s = append(s, string(f))
	}
	return strings.Join(s, ", ")
}

func formatNames() string {
	var s []string
	for _, f := range graph.Formats() {
		s = append(s, string(f))
	}
	return strings.Join(s, ", ")
}

// checkWeightScale checks --weight-scale: NaN and infinities were let
// through or refused in other words than a negative value.
func checkWeightScale(s float64) error {
	if !(s >= 0) || math.IsInf(s, 1) {
		return fmt.Errorf("%w: --weight-scale %v: want a finite value >= 0 (0 keeps real weights as float32)", errUsage, s)
	}
	return nil
}

// name describes the input for messages.
func (f *inputFlags) name() string {
	if f.gen != "" {
		return f.gen
	}
	return f.path
}

// load reads or generates the graph the flags name.
func (f *inputFlags) load(ctx context.Context, e *env) (*graph.Graph, error) {
	if (f.path == "") == (f.gen == "") {
		return nil, fmt.Errorf("%w: give exactly one of --graph FILE or --gen SPEC", errUsage)
	}
	if err := checkWeightScale(f.weightScale); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	start := time.Now()
	var g *graph.Graph
	var err error
	if f.gen != "" {
		if f.format != "" {
			return nil, fmt.Errorf("%w: --format applies to --graph, not --gen", errUsage)
		}
		if f.weightScale > 0 { // one rule: refused where it cannot apply, never ignored
			return nil, fmt.Errorf("%w: --weight-scale applies to --graph files, not --gen (generated weights are integers in [1,255])", errUsage)
		}
		// Generated graphs are undirected (or flow networks), so --undirected changes nothing.
		g, err = graph.Generate(f.gen, graph.GenOptions{Seed: f.seed})
	} else {
		opt := graph.LoadOptions{Undirected: f.undirected, WeightScale: f.weightScale, KeepDuplicates: f.keepDuplicates}
		if f.format != "" {
			if opt.Format, err = graph.ParseFormat(f.format); err != nil {
				return nil, fmt.Errorf("%w: --format: %v", errUsage, err)
			}
		}
		if e.interactive {
			var done func()
			opt.Progress, done = progressBar(e.stderr, filepath.Base(f.path))
			defer done()
		}
		g, err = graph.Load(f.path, opt)
	}
	if err != nil {
		return nil, err
	}
	e.log.Info().Str("graph", f.name()).Int("vertices", g.NumVertices()).Int64("arcs", g.NumEdges()).
		Bool("directed", g.Directed()).Str("weights", g.WeightKind().String()).
		Dur("load_ms", time.Since(start)).Msg("graph ready")
	return g, nil
}

// files returns the files the flags' input is read from (none for --gen).
func (f *inputFlags) files() []string {
	if f.path == "" {
		return nil
	}
	return graph.InputFiles(f.path, graph.LoadOptions{Format: graph.Format(f.format)})
}

// progressMin is the input size above which the CLI draws a progress bar.
const progressMin = 32 << 20

// progressBar returns a graph.LoadOptions.Progress drawing a bar on out
// for inputs over progressMin bytes, and the function that clears it.
func progressBar(out io.Writer, name string) (func(done, total int64), func()) {
	var bar *progressbar.ProgressBar
	var last int64
	return func(done, total int64) {
			if total <= progressMin {
				return
			}
			if bar == nil {
				bar = progressbar.NewOptions64(total,
					progressbar.OptionSetWriter(out),
					progressbar.OptionSetDescription("reading "+name),
					progressbar.OptionShowBytes(true),
					progressbar.OptionSetWidth(30),
					progressbar.OptionThrottle(100*time.Millisecond),
					progressbar.OptionClearOnFinish(),
					progressbar.OptionSetPredictTime(true),
				)
			}
			_ = bar.Add64(done - last)
			last = done
		}, func() {
			if bar != nil {
				_ = bar.Finish()
			}
		}
}
