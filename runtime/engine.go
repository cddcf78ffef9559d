package runtime

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/inspector"
)

// ErrUnsupported is wrapped when a variant or backend is not implemented by
// an operator.
var ErrUnsupported = errors.New("unsupported")

// Run drives op to completion under cfg's policy and returns the run's
// statistics. Cancellation of ctx takes effect between iterations and is
// returned wrapped. op is closed before Run returns.
func Run(ctx context.Context, name string, op Operator, cfg *Config) (st Stats, err error) {
	t0 := time.Now()
	var preUpload time.Duration // uploaded when the operator was created
	if g := op.DeviceTimes(); g != nil {
		preUpload = g.Upload
	}
	defer func() {
		if cerr := op.Close(); err == nil && cerr != nil {
			err = cerr
		}
		st.Wall = time.Since(t0)
		if g := op.DeviceTimes(); g != nil {
			st.GPU = g
			// A graph uploaded during the run (a transpose for pull) is
			// one-time work, not the run's: Wall excludes it.
			st.Wall -= g.Upload - preUpload
		}
	}()
	th := cfg.Thresholds()
	if err := th.Validate(); err != nil {
		return Stats{Algorithm: name}, fmt.Errorf("%s: %w", name, err)
	}
	if err := cfg.backend.Configure(knobLayers(cfg)); err != nil {
		return Stats{Algorithm: name}, fmt.Errorf("%s: %w", name, err)
	}
	oi := op.Info()
	info := oi.Info
	pol := cfg.Policy()
	st = Stats{Algorithm: name, Backend: cfg.backend.Name(), Policy: pol.String(), Variants: map[string]int{}}
	log := cfg.logger.With().Str("alg", name).Logger()
	dec := pol.Begin(info)
	v := dec.Initial()
	if err := check(v, info); err != nil {
		return st, fmt.Errorf("%s: %w", name, err)
	}
	every := decider.SampleEvery(pol, th.SampleEvery) // 0: the policy never looks at samples
	sampler := inspector.NewSampler(every, false)
	defer func() { st.Inspection, st.Samples = sampler.Cost(), sampler.Count() }()
	if err := op.Start(v); err != nil {
		return st, fmt.Errorf("%s: start: %w", name, err)
	}
	size := info.InitialSize
	for it := 0; !op.Done(); it++ {
		if err := ctx.Err(); err != nil {
			return st, fmt.Errorf("%s: cancelled after %d iterations: %w", name, it, err)
		}
		ti := time.Now()
		req := StepRequest{Variant: v, DualFrom: math.MaxInt64, ExactTiming: cfg.trace}
		if oi.DualGeneration {
			req.DualFrom = decider.DualFrom(pol, info, sampler.Due(it))
		}
		res, err := op.Step(req)
		if err != nil {
			return st, fmt.Errorf("%s: iteration %d (%v): %w", name, it, v, err)
		}
		levels, hidden := 1, int64(0)
		if res.Levels > 1 {
			levels, hidden = res.Levels, res.HiddenDegree
		}
		edges := res.Edges
		obs := decider.Observation{Iteration: it, Current: v, Size: res.Size, Degree: res.Degree, HiddenDegree: hidden, Edges: edges}
		if (sampler.Due(it) || levels > 1 && every > 0) && !op.Done() {
			obs.Sampled = true
			obs.Sample = sampler.Take(it, op.Inspect)
		}
		next := dec.Next(obs)
		if err := check(next, info); err != nil {
			return st, fmt.Errorf("%s: iteration %d: %w", name, it, err)
		}
		var conv time.Duration
		if next.Rep != v.Rep && !op.Done() && !(oi.PullConverts && next.Direction == decider.Pull) {
			tc := time.Now()
			if err := op.Convert(next.Rep); err != nil {
				return st, fmt.Errorf("%s: iteration %d: convert to %v: %w", name, it, next.Rep, err)
			}
			conv = time.Since(tc)
			st.Conversion += conv
		}
		dt := time.Since(ti)
		st.Iterations++
		st.EdgesRelaxed += edges
		st.Variants[v.String()]++
		for k, c := range res.Counts {
			if st.Counters == nil {
				st.Counters = map[string]int64{}
			}
			st.Counters[k] += c
		}
		if next != v && !op.Done() {
			st.Switches++
		}
		if cfg.trace {
			st.Trace = append(st.Trace, IterationRecord{Iteration: it, Variant: v, Size: size, Edges: edges, Time: dt, Sampled: obs.Sampled, Levels: levels, Counts: res.Counts})
		}
		if e := log.Debug(); e.Enabled() {
			e.Int("iter", it).Stringer("variant", v).Int64("size", size).Int64("next_size", res.Size).
				Int64("edges", edges).Int("levels", levels)
			for _, k := range slices.Sorted(maps.Keys(res.Counts)) {
				e.Int64(k, res.Counts[k])
			}
			e.Dur("dur_ms", dt).Bool("sampled", obs.Sampled).Dur("convert_ms", conv).Stringer("next", next).Msg("iteration")
		}
		size = res.Size
		v = next
	}
	return st, nil
}

func check(v decider.Variant, info decider.Info) error {
	if v.Direction == decider.Pull && !info.CanPull {
		return fmt.Errorf("variant %v: %w: this algorithm has no pull direction (valid: the eight push variants)", v, ErrUnsupported)
	}
	return nil
}

// knobLayers returns the run's knobs for its backend.
func knobLayers(cfg *Config) decider.KnobLayers {
	l, _ := cfg.Knobs()
	return l
}
