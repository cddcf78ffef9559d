package sssp

import (
	"fmt"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
)

// Spec describes SSSP to gearbox's drivers (see algorithms.Spec). Its
// params are the keys of SSSP's thresholds (delta-stepping's bucket width,
// the work-targeted buckets and the adaptive order rule); SearchSpec adds
// what SSSP shares with BFS.
var Spec = algorithms.SearchSpec(&algorithms.Spec{
	Name:     "sssp",
	Doc:      "single-source shortest paths (delta-stepping): distances from a source over integer weights",
	Weighted: true,
	Variants: pushVariantNames(), // pull is BFS only
	Params: []algorithms.Param{
		// delta_factor before delta: delta only matters where the factor is 0.
		{Key: "delta_factor", Doc: "SSSP delta factors: delta = factor x mean weight / mean out-degree per graph, 0 = the fixed delta", Tunable: true, Sweep: "0,2,4,8,16,32"},
		{Key: "delta", Doc: "SSSP bucket width for ordered variants (tune sweeps it where delta_factor is 0)", Tunable: true, Sweep: "1:1024:x4", Flag: true},
		{Key: "bucket_edges", Tunable: true, Doc: "out-edges of the adaptive SSSP's work-targeted buckets, 0 = fixed delta buckets"},
		{Key: "bucket_delta_factor", Tunable: true, Doc: "delta factors of the work-targeted buckets' narrowest bucket, 0 = the graph's delta"},
		{Key: "bucket_delta_min_skew", Tunable: true, Doc: "degree skews from which bucket_delta_factor applies, 0 = every graph"},
		{Key: "launch_delta_factor", Tunable: true, GPUOnly: true, Doc: "factors widening the adaptive SSSP's buckets inside GPU persistent launches to delta x factor / mean out-degree, 0 = delta"},
		{Key: "ordered_min_vertices", Tunable: true, Doc: "smallest graph (vertices) on which the adaptive SSSP runs ordered"},
		{Key: "ordered_min_degree", Tunable: true, Doc: "smallest average out-degree at which the adaptive SSSP runs ordered"},
		{Key: "bucket_min_skew", Doc: "degree skew from which the adaptive SSSP's buckets are work-targeted, and its order rule's skewed floor applies"},
		{Key: "ordered_min_vertices_skewed", Tunable: true, Doc: "smallest graph (vertices) of degree skew at least bucket_min_skew on which the adaptive SSSP runs ordered"},
	},
	ParamValues: func(l decider.KnobLayers, found bool) (decider.Knobs, error) {
		p, err := ParamsFrom(l, found)
		return decider.KnobsOf(p), err
	},
	ValueFor: func(key string, g *graph.Graph, opts ...runtime.Option) (uint64, error) {
		if key != "delta" {
			return 0, fmt.Errorf("sssp: no value for %q", key)
		}
		cfg := runtime.NewConfigFor("sssp", opts...)
		p, err := paramsFor(cfg)
		if err != nil {
			return 0, err
		}
		return deltaFor(cfg, p, g), nil
	},
	// alpha, beta and pull_min_edges steer pulls, which SSSP has none of.
	Reads:      []string{"T1", "T2", "T3", "sample_every", "bitmap_min_vertices", "jump_factor", "threads_per_block"},
	Statics:    statics(),
	CheckGraph: CheckGraph,
	Options: func(variant string, flags map[string]uint64) ([]runtime.Option, error) {
		opts, err := algorithms.VariantOptions(variant)
		if err != nil {
			return nil, err
		}
		if d := flags["delta"]; d > 0 {
			opts = append(opts, WithDelta(d))
		}
		return opts, nil
	},
	Reference: func(g *graph.Graph, src uint32) error {
		_, _, err := Reference(g, src)
		return err
	},
}, WithParents, Run, summary, Verify)

func init() { algorithms.Register(Spec) }

// summary is the registry's line about a run from src.
func summary(g *graph.Graph, src uint32, r *Result) string {
	max, _ := r.MaxDistance()
	return fmt.Sprintf("source %d: reached %d vertices, max distance %d, delta %d", g.IDs().External(src), r.NumReached(), max, r.Delta())
}

// pushVariantNames lists the eight push variants: SSSP has no pull
// direction, and refusing pull at flag parsing spares loading the graph.
func pushVariantNames() []string {
	var names []string
	for _, v := range decider.PushVariants() {
		names = append(names, v.String())
	}
	return names
}

// statics are bench's static configurations: the eight push variants, the
// ordered ones once per bucket width.
func statics() []algorithms.Static {
	var out []algorithms.Static
	for _, v := range decider.PushVariants() {
		st := algorithms.Static{Name: v.String(), Options: []runtime.Option{runtime.WithVariant(v)}}
		if v.Order == decider.Ordered {
			st.PerValue = "delta"
		}
		out = append(out, st)
	}
	return out
}
