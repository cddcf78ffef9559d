package runtime

import (
	"context"
	"errors"
	"fmt"
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
	gt, _ := op.(GPUTimer)
	var preUpload time.Duration // uploaded when the operator was created
	if gt != nil {
		gt.SetExactTiming(cfg.trace)
		preUpload = gt.GPUTimes().Upload
	}
	defer func() {
		if cerr := op.Close(); err == nil && cerr != nil {
			err = cerr
		}
		st.Wall = time.Since(t0)
		if gt != nil {
			g := gt.GPUTimes()
			st.GPU = &g
			// A graph uploaded during the run (a transpose for pull) is
			// one-time work, not the run's: Wall excludes it.
			st.Wall -= g.Upload - preUpload
		}
	}()
	if err := cfg.Thresholds().Validate(); err != nil {
		return Stats{Algorithm: name}, fmt.Errorf("%s: %w", name, err)
	}
	if s, ok := cfg.backend.(interface{ SetThreadsPerBlock(int) error }); ok {
		if err := s.SetThreadsPerBlock(cfg.Thresholds().ThreadsPerBlock); err != nil {
			return Stats{Algorithm: name}, fmt.Errorf("%s: %w", name, err)
		}
	}
	info := op.Info()
	pol := cfg.Policy()
	dual, _ := op.(DualGenerator)
	fuser, _ := op.(LevelFuser)
	st = Stats{Algorithm: name, Backend: cfg.backend.Name(), Policy: pol.String(), Variants: map[string]int{}}
	log := cfg.logger.With().Str("alg", name).Logger()
	dec := pol.Begin(info)
	v := dec.Initial()
	if err := check(v, info); err != nil {
		return st, fmt.Errorf("%s: %w", name, err)
	}
	every := cfg.Thresholds().SampleEvery
	if p, ok := pol.(interface{ SampleEvery() int }); ok {
		every = p.SampleEvery() // 0: the policy never looks at samples
	}
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
		if dual != nil {
			dual.SetDualFrom(decider.DualFrom(pol, info, sampler.Due(it)))
		}
		edges, err := op.Compute(v)
		if err != nil {
			return st, fmt.Errorf("%s: iteration %d (%v): %w", name, it, v, err)
		}
		nsize, ndeg, err := op.Generate(v.Rep)
		if err != nil {
			return st, fmt.Errorf("%s: iteration %d (%v): generate: %w", name, it, v, err)
		}
		levels, hidden, pulled := 1, int64(0), 0
		if fuser != nil {
			f := fuser.Fused()
			if f.Levels > 1 {
				levels, hidden = f.Levels, f.HiddenDegree
			}
			pulled = f.Pulled
		}
		obs := decider.Observation{Iteration: it, Current: v, Size: nsize, Degree: ndeg, HiddenDegree: hidden, Edges: edges}
		if (sampler.Due(it) || levels > 1 && every > 0) && !op.Done() {
			obs.Sampled = true
			obs.Sample = sampler.Take(it, op.Inspect)
		}
		next := dec.Next(obs)
		if err := check(next, info); err != nil {
			return st, fmt.Errorf("%s: iteration %d: %w", name, it, err)
		}
		var conv time.Duration
		if next.Rep != v.Rep && !op.Done() && !defers(op, next) {
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
		if next != v && !op.Done() {
			st.Switches++
		}
		if cfg.trace {
			st.Trace = append(st.Trace, IterationRecord{Iteration: it, Variant: v, Size: size, Edges: edges, Time: dt, Sampled: obs.Sampled, Levels: levels, Pulled: pulled})
		}
		if e := log.Debug(); e.Enabled() {
			e.Int("iter", it).Stringer("variant", v).Int64("size", size).Int64("next_size", nsize).
				Int64("edges", edges).Int("levels", levels).Int("pulled", pulled).Dur("time", dt).Bool("sampled", obs.Sampled).
				Dur("convert", conv).Stringer("next", next).Msg("iteration")
		}
		size = nsize
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

// defers reports whether op takes the working set as it is into an
// iteration of variant v (ConvertDeferrer).
func defers(op Operator, v decider.Variant) bool {
	d, ok := op.(ConvertDeferrer)
	return ok && d.DefersConvert(v)
}
