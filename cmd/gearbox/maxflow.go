package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gearbox-graph/gearbox/algorithms/maxflow"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// ownFlagCommands runs the registry's algorithms whose `gearbox run`
// parses flags of its own (algorithms.Spec.OwnFlags).
var ownFlagCommands = map[string]func(ctx context.Context, e *env, args []string) error{
	"maxflow": cmdMaxflow,
}

// maxflowFlags are the flags of `gearbox run maxflow`.
type maxflowFlags struct {
	runCommon
	source     string
	sink       string
	algorithm  string
	variant    string
	globalFreq float64
	tailBelow  int
	tailAfter  int
	cut        string
}

func (f *maxflowFlags) register(fs *flag.FlagSet) {
	f.runCommon.register(fs, "backend: cpu, cuda or auto (cuda when a GPU is usable, else cpu); on cuda phase 1 runs on the GPU (a tail of few active vertices and phase 2 on the host)")
	fs.StringVar(&f.source, "source", "", "source vertex `IDS` in the file's ids, comma-separated for several (a super-source joins them); default: the .max file's or generator's source")
	fs.StringVar(&f.sink, "sink", "", "sink vertex `IDS`, as --source")
	fs.StringVar(&f.algorithm, "algorithm", "auto", "push-relabel solver: auto, hl (highest label, serial), fifo (serial) or sync (parallel passes on the engine)")
	fs.StringVar(&f.variant, "variant", "auto", "sync only: auto (adaptive policy) or a static variant ("+strings.Join(maxflowVariantNames(), ", ")+"; order is ignored)")
	fs.Float64Var(&f.globalFreq, "global-freq", maxflow.DefaultKnobs().GlobalFreq, "global relabel frequency: one per (6n+m)/`F` of relabel work")
	def := maxflow.DefaultKnobs()
	fs.IntVar(&f.tailBelow, "tail-below", def.SerialBelow, "sync and cuda: a tail of at most `N` active vertices is finished by the serial solver (on the host; 0: never)")
	fs.IntVar(&f.tailAfter, "tail-after", def.HostAfter, "cuda: the tail moves to the host after `P` passes in a row at most --tail-below active (0: never)")
	fs.StringVar(&f.out, "out", "", "write the flow of every arc as 'u v flow' lines (file ids; parallel arcs merged) to `FILE` ('-' for stdout)")
	fs.StringVar(&f.cut, "cut", "", "write the source side of a minimum cut, one file id a line, to `FILE` ('-' for stdout)")
	fs.BoolVar(&f.verify, "verify", false, "check the flow and cut by their properties (capacities, conservation, cut = value, no augmenting path)")
}

// parseIDs reads a comma-separated list of file ids into internal ids.
func parseIDs(g *graph.Graph, flagName, s string) ([]uint32, error) {
	var out []uint32
	for _, p := range strings.Split(s, ",") {
		x, err := strconv.ParseUint(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: %s %q: not a vertex id", errUsage, flagName, p)
		}
		v, ok := g.IDs().Internal(x)
		if !ok {
			return nil, fmt.Errorf("%w: %s %d: no such vertex in the graph (%d vertices)", errUsage, flagName, x, g.NumVertices())
		}
		out = append(out, v)
	}
	return out, nil
}

// terminalIDs resolves --source or --sink (flag names which): the ids the
// flag gives, else the terminal the graph names (fileT, when hasT).
func terminalIDs(g *graph.Graph, which, ids string, fileT uint32, hasT bool, input string) ([]uint32, error) {
	switch {
	case ids != "":
		return parseIDs(g, "--"+which, ids)
	case hasT:
		return []uint32{fileT}, nil
	}
	return nil, fmt.Errorf("%w: %s names no %s: give --%s", errUsage, input, which, which)
}

// flowNetwork builds the residual network with one source and one sink;
// several of either are joined by a super-terminal (vertex n or n+1) with
// arcs of the capacity the terminal itself can pass.
func flowNetwork(g *graph.Graph, srcs, sinks []uint32) (*graph.Residual, uint32, uint32, error) {
	if len(srcs) == 1 && len(sinks) == 1 {
		r, err := graph.NewResidual(g)
		return r, srcs[0], sinks[0], err
	}
	if g.WeightKind() == graph.RealWeights {
		return nil, 0, 0, fmt.Errorf("capacities must be integers (use --weight-scale)")
	}
	n := g.NumVertices()
	if uint64(n)+2 > graph.MaxVertices {
		return nil, 0, 0, fmt.Errorf("%d vertices leave no room for super-terminals (limit %d)", n, uint64(graph.MaxVertices))
	}
	var src, dst []uint32
	var caps []int64
	out, in := make([]int64, n), make([]int64, n)
	for u := 0; u < n; u++ {
		w := g.EdgeWeights(uint32(u))
		for i, v := range g.Neighbors(uint32(u)) {
			c := int64(1)
			if w != nil {
				c = int64(w[i])
			}
			src, dst, caps = append(src, uint32(u)), append(dst, v), append(caps, c)
			if out[u] > math.MaxInt64-c || in[v] > math.MaxInt64-c {
				return nil, 0, 0, fmt.Errorf("%w: capacities at vertex %d sum to over %d", graph.ErrCapacity, u, int64(math.MaxInt64))
			}
			out[u] += c
			in[v] += c
		}
	}
	// join returns ts[0] for one terminal, else a new vertex with an arc
	// to each of ts (from each, for sinks) of the capacity it can pass.
	join := func(ts []uint32, sink bool, capOf []int64) uint32 {
		if len(ts) == 1 {
			return ts[0]
		}
		x := uint32(n)
		n++
		for _, v := range ts {
			from, to := x, v
			if sink {
				from, to = v, x
			}
			src, dst, caps = append(src, from), append(dst, to), append(caps, capOf[v])
		}
		return x
	}
	s := join(srcs, false, out)
	t := join(sinks, true, in)
	r, err := graph.NewResidualArcs(n, src, dst, caps)
	return r, s, t, err
}

func cmdMaxflow(ctx context.Context, e *env, args []string) error {
	var f maxflowFlags
	fs := newFlagSet(e, "run maxflow", "")
	f.register(fs)
	pos, help, err := parseFlags(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, pos)
	}
	if err := checkWorkers(f.workers); err != nil {
		return err
	}
	alg, err := maxflow.ParseAlgorithm(f.algorithm)
	if err != nil {
		return fmt.Errorf("%w: --algorithm: %v", errUsage, err)
	}
	if !(f.globalFreq > 0) || math.IsInf(f.globalFreq, 1) {
		return fmt.Errorf("%w: --global-freq %v: want a finite value > 0", errUsage, f.globalFreq)
	}
	backend, closeBackend, err := openBackend(e, f.device, f.workers)
	if err != nil {
		return err
	}
	defer closeBackend()
	ropts := []runtime.Option{runtime.WithLogger(e.log), runtime.WithBackend(backend)}
	if f.variant != "auto" {
		if alg != maxflow.Sync && alg != maxflow.Auto {
			return fmt.Errorf("%w: --variant applies to --algorithm sync", errUsage)
		}
		v, err := decider.ParseVariant(f.variant)
		if err != nil || v.Direction == decider.Pull {
			return fmt.Errorf("%w: --variant %q: valid: auto, %s", errUsage, f.variant, strings.Join(maxflowVariantNames(), ", "))
		}
		ropts = append(ropts, runtime.WithVariant(v))
		alg = maxflow.Sync
	}
	if err := checkOutputs(f.in.files(), output{"--out", f.out}, output{"--cut", f.cut}); err != nil {
		return err
	}
	f.in.keepDuplicates = true
	g, err := f.in.load(ctx, e)
	if err != nil {
		return err
	}
	fs0, ft0, hasT := g.Terminals()
	srcs, err := terminalIDs(g, "source", f.source, fs0, hasT, f.in.name())
	if err != nil {
		return err
	}
	sinks, err := terminalIDs(g, "sink", f.sink, ft0, hasT, f.in.name())
	if err != nil {
		return err
	}
	for _, s := range srcs {
		for _, t := range sinks {
			if s == t {
				return fmt.Errorf("%w: vertex %d is both a source and a sink", errUsage, g.IDs().External(s))
			}
		}
	}
	r, s, t, err := flowNetwork(g, srcs, sinks)
	if err != nil {
		return fmt.Errorf("maxflow: %w", err)
	}
	sum := e.stdout
	if f.out == "-" || f.cut == "-" {
		sum = e.stderr
	}
	if f.tailBelow < 0 || f.tailAfter < 0 {
		return fmt.Errorf("%w: --tail-below %d, --tail-after %d: want values >= 0", errUsage, f.tailBelow, f.tailAfter)
	}
	knobs := maxflow.Knobs{GlobalFreq: f.globalFreq, SerialBelow: f.tailBelow, HostAfter: f.tailAfter}
	t0 := time.Now()
	res, err := maxflow.Run(ctx, r, s, t, maxflow.WithAlgorithm(alg), maxflow.WithKnobs(knobs), maxflow.WithRuntime(ropts...))
	if err != nil {
		return err
	}
	wall := time.Since(t0)
	n := g.NumVertices()
	fmt.Fprintf(sum, "maxflow on %s (%d vertices, %d arcs; residual network of %d arcs) with %s\n", f.in.name(), n, g.NumEdges(), r.NumArcs(), res.Algorithm())
	if p := res.Placement(); p != "host" {
		fmt.Fprintf(sum, "placement: %s\n", p)
	}
	if len(srcs) > 1 {
		fmt.Fprintf(sum, "super-source: vertex %d (internal) joins %d sources\n", s, len(srcs))
	}
	if len(sinks) > 1 {
		fmt.Fprintf(sum, "super-sink: vertex %d (internal) joins %d sinks\n", t, len(sinks))
	}
	side := res.SourceSide()
	inG := 0
	for _, v := range side {
		if int(v) < n {
			inG++
		}
	}
	fmt.Fprintf(sum, "flow value: %d\n", res.Value())
	fmt.Fprintf(sum, "minimum cut: capacity %d, source side %d vertices\n", res.CutCapacity(), inG)
	c := res.Counts
	fmt.Fprintf(sum, "time %.3f ms  %d pushes  %d relabels  %d global relabels  %d gaps  %d passes\n",
		wall.Seconds()*1e3, c.Pushes, c.Relabels, c.GlobalRelabels, c.Gaps, c.Passes)
	if st := res.Stats(); st.Iterations > 0 {
		fmt.Fprintf(sum, "engine: %d iterations  %d switches  variants: %s\n", st.Iterations, st.Switches, variantSummary(st))
	}
	if f.verify {
		in := make([]bool, r.NumVertices())
		for _, v := range side {
			in[v] = true
		}
		if err := maxflow.Verify(r, s, t, res.Flows(), res.Value(), in); err != nil {
			return fmt.Errorf("verification failed: %w", err)
		}
		fmt.Fprintln(sum, "verified: capacities, conservation, cut capacity = flow value, no augmenting path")
	}
	ids := g.IDs()
	err = writeLines(e, output{"--out", f.out}, func(lw *lineWriter) error {
		for u := 0; u < n; u++ {
			for a := r.Off[u]; a < r.Off[u+1]; a++ {
				if v := r.Head[a]; int(v) < n && r.Cap[a] > 0 {
					b := strconv.AppendUint(lw.start(), ids.External(uint32(u)), 10)
					b = strconv.AppendUint(append(b, ' '), ids.External(v), 10)
					if err := lw.end(strconv.AppendInt(append(b, ' '), res.Flow(a), 10)); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return writeLines(e, output{"--cut", f.cut}, func(lw *lineWriter) error {
		for _, v := range side {
			if int(v) < n {
				if err := lw.end(strconv.AppendUint(lw.start(), ids.External(v), 10)); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// maxflowVariantNames lists the eight push variants (Sync has no pull).
func maxflowVariantNames() []string {
	var names []string
	for _, v := range decider.PushVariants() {
		names = append(names, v.String())
	}
	return names
}
