package sssp_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/algorithms/sssp"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// TestCompareVariants (GB_COMPARE=graph1,graph2 to run) times the adaptive
// policy against the static variants, interleaved, for the report.
func TestCompareVariants(t *testing.T) {
	env := os.Getenv("GB_COMPARE")
	if env == "" {
		t.Skip("set GB_COMPARE to a comma-separated list of benchmark graphs")
	}
	for _, name := range strings.Split(env, ",") {
		g := testgraphs.Bench(name).WithDerivedWeights(1)
		srcs := testgraphs.Sources(g, 4)
		configs := []string{"auto"}
		if extra := os.Getenv("GB_AUTO"); extra != "" {
			// e.g. GB_AUTO="T3=0.2;T3=0.5,T1=40": extra adaptive configs
			for _, e := range strings.Split(extra, ";") {
				configs = append(configs, "auto,"+e)
			}
		}
		for _, v := range decider.PushVariants() {
			if name == "grid2048" && v.Rep == decider.Bitmap {
				continue // 12-16 s per run on grid2048 (BenchmarkSSSP): not a contender
			}
			if os.Getenv("GB_ALL") == "" && v.Order == decider.Unordered {
				continue
			}
			configs = append(configs, v.String())
		}
		err := testgraphs.Compare(os.Stdout, "SSSP "+name, configs, len(srcs), 3, func(c string, s int) error {
			var opts []runtime.Option
			if strings.HasPrefix(c, "auto,") {
				th, err := decider.ParseThresholds("[cpu]\n" + strings.ReplaceAll(strings.TrimPrefix(c, "auto,"), ",", "\n"))
				if err != nil {
					return err
				}
				opts = append(opts, runtime.WithThresholds(th.CPU))
			} else if c != "auto" {
				v, _ := decider.ParseVariant(c)
				opts = append(opts, runtime.WithVariant(v))
			}
			_, err := sssp.Run(context.Background(), g, srcs[s], opts...)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
