package testgraphs

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// Compare runs every config on every source round-robin, rounds times, so
// that load from other processes hits all configs alike, and writes per
// config the median and minimum wall time per run (a run = one source) and
// the median CPU time. run returns an error for a failed run.
func Compare(w io.Writer, title string, configs []string, sources int, rounds int, run func(config string, source int) error) error {
	wall := map[string][]time.Duration{}
	cpu := map[string][]time.Duration{}
	for r := 0; r < rounds; r++ {
		for s := 0; s < sources; s++ {
			for _, c := range configs {
				c0, t0 := CPUTime(), time.Now()
				if err := run(c, s); err != nil {
					return fmt.Errorf("%s %s source %d: %w", title, c, s, err)
				}
				wall[c] = append(wall[c], time.Since(t0))
				cpu[c] = append(cpu[c], CPUTime()-c0)
			}
		}
	}
	fmt.Fprintf(w, "%s (%d sources x %d rounds, interleaved)\n", title, sources, rounds)
	for _, c := range configs {
		ws, cs := wall[c], cpu[c]
		slices.Sort(ws)
		slices.Sort(cs)
		fmt.Fprintf(w, "  %-22s wall median %8.1f ms  min %8.1f ms   cpu median %8.1f ms\n", c,
			ms(ws[len(ws)/2]), ms(ws[0]), ms(cs[len(cs)/2]))
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
