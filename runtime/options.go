package runtime

import (
	"slices"

	"github.com/rs/zerolog"

	"github.com/gearbox-graph/gearbox/decider"
)

// Option configures a run (functional options shared by every algorithm).
type Option func(*Config)

// Config is the resolved configuration of a run. Algorithms build it with
// NewConfigFor; users only pass Options.
type Config struct {
	// alg names the algorithm, whose per-algorithm thresholds section
	// applies (decider.ThresholdSet.LookupFor); "" for none.
	alg        string
	policy     decider.Policy
	variant    *decider.Variant
	thresholds *decider.Thresholds
	set        *decider.ThresholdSet
	knobs      decider.Knobs
	order      *decider.Order
	// values holds algorithm-owned options (WithValue): the engine reads
	// none of them, so an algorithm's knobs (SSSP's delta, CC's variant)
	// need no field here.
	values  map[any]any
	logger  zerolog.Logger
	trace   bool
	backend Backend
}

// WithVariant runs one variant throughout (the Static policy).
func WithVariant(v decider.Variant) Option {
	return func(c *Config) { c.variant = &v; c.policy = nil }
}

// WithPolicy sets the policy (default: Adaptive with the backend's
// thresholds).
func WithPolicy(p decider.Policy) Option {
	return func(c *Config) { c.policy = p; c.variant = nil }
}

// WithThresholds sets the thresholds of the default Adaptive policy, for
// every algorithm. Algorithms' own parameters have options of their own
// (sssp.WithParams), or WithKnobs.
func WithThresholds(t decider.Thresholds) Option { return func(c *Config) { c.thresholds = &t } }

// WithThresholdSet gives the thresholds of a whole file (see
// decider.LoadThresholds): the run uses the section of its backend's
// device ([cpu] for the CPU), or the algorithm's own section of it where
// the file has one ([gpu."<device>".bfs]). WithThresholds takes
// precedence.
func WithThresholdSet(s *decider.ThresholdSet) Option { return func(c *Config) { c.set = s } }

// WithKnobs sets keys the decider does not own (algorithms' parameters,
// the backend's threads_per_block) over those of the thresholds, for every
// algorithm and backend that reads them: each owner decodes the keys it
// owns (Knobs' top layer) and ignores the rest. gearbox tune runs each
// point of its sweep with them.
func WithKnobs(k decider.Knobs) Option {
	return func(c *Config) {
		if c.knobs == nil {
			c.knobs = decider.Knobs{}
		}
		for key, v := range k {
			c.knobs[key] = v
		}
	}
}

// WithOrder sets the order the Adaptive policy keeps (default Ordered).
func WithOrder(o decider.Order) Option { return func(c *Config) { c.order = &o } }

// WithValue sets an algorithm-owned option under key (as context.WithValue:
// the key should be a type of the algorithm's own). Algorithms wrap it in
// their options (sssp.WithDelta, cc.WithVariant); the engine ignores it.
func WithValue(key, value any) Option {
	return func(c *Config) {
		if c.values == nil {
			c.values = map[any]any{}
		}
		c.values[key] = value
	}
}

// WithLogger sets the logger (default zerolog.Nop()); each iteration is
// logged at debug level.
func WithLogger(l zerolog.Logger) Option { return func(c *Config) { c.logger = l } }

// WithTrace records the per-iteration trace in Stats.Trace.
func WithTrace(on bool) Option { return func(c *Config) { c.trace = on } }

// WithBackend sets the backend (default: CPU with GOMAXPROCS workers).
func WithBackend(b Backend) Option { return func(c *Config) { c.backend = b } }

// WithWorkers is shorthand for WithBackend(NewCPU(n)).
func WithWorkers(n int) Option { return WithBackend(NewCPU(n)) }

// NewConfig applies the options over the defaults, for a run that no
// per-algorithm thresholds section applies to (see NewConfigFor).
func NewConfig(opts ...Option) *Config { return NewConfigFor("", opts...) }

// NewConfigFor is NewConfig for algorithm alg (one of decider.Algorithms):
// its thresholds come from its per-algorithm section where the thresholds
// file has one.
func NewConfigFor(alg string, opts ...Option) *Config {
	c := &Config{alg: alg, logger: zerolog.Nop()}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.backend == nil {
		c.backend = NewCPU(0)
	}
	return c
}

// Backend returns the backend.
func (c *Config) Backend() Backend { return c.backend }

// Logger returns the logger.
func (c *Config) Logger() zerolog.Logger { return c.logger }

// Trace reports whether the per-iteration trace is kept.
func (c *Config) Trace() bool { return c.trace }

// Thresholds returns the thresholds: those set by WithThresholds, else the
// backend device's section of WithThresholdSet's set (the algorithm's own
// section of it if any), else likewise the shipped thresholds.toml's, else
// the defaults the backend derives from its device (DeviceThresholder),
// else the CPU section.
func (c *Config) Thresholds() decider.Thresholds {
	if c.thresholds != nil {
		return *c.thresholds
	}
	if c.set != nil {
		if t, ok := c.set.LookupFor(c.backend.Device(), c.alg); ok {
			return t
		}
	}
	return DefaultThresholdsFor(c.backend, c.alg)
}

// Knobs returns the layers of the keys the decider does not own for this
// run's algorithm and device (decider.ThresholdSet.KnobsFor): those of
// WithThresholdSet's set where it has a section for the device, else the
// shipped thresholds.toml's, with WithKnobs' keys as the top layer. found
// is false where neither set has a section for the device (a GPU without
// one): owners then start from their device-derived defaults, under
// WithKnobs' keys still.
func (c *Config) Knobs() (layers decider.KnobLayers, found bool) {
	dev := c.backend.Device()
	if c.set != nil {
		layers, found = c.set.KnobsFor(dev, c.alg)
	}
	if !found {
		layers, found = decider.DefaultThresholdSet().KnobsFor(dev, c.alg)
	}
	if len(c.knobs) > 0 {
		if layers.OnGPU {
			layers.GPU = append(slices.Clip(layers.GPU), c.knobs)
		} else {
			layers.CPU = append(slices.Clip(layers.CPU), c.knobs)
		}
	}
	return layers, found
}

// Algorithm returns the name the configuration was built for
// (NewConfigFor): its per-algorithm thresholds section.
func (c *Config) Algorithm() string { return c.alg }

// DeviceThresholder is implemented by backends that derive default
// thresholds from their device (the GPU: T1 = warp size, T2 = threads per
// block x multiprocessors, as in Li & Becchi).
type DeviceThresholder interface {
	DeviceThresholds() decider.Thresholds
}

// DefaultThresholds returns the thresholds a backend uses when none are
// given: the shipped section for its device, else its device-derived
// defaults, else the CPU section.
func DefaultThresholds(b Backend) decider.Thresholds { return DefaultThresholdsFor(b, "") }

// DefaultThresholdsFor is DefaultThresholds for algorithm alg: the
// shipped per-algorithm section for the backend's device where there is
// one (decider.ThresholdSet.LookupFor).
func DefaultThresholdsFor(b Backend, alg string) decider.Thresholds {
	set := decider.DefaultThresholdSet()
	if t, ok := set.LookupFor(b.Device(), alg); ok {
		return t
	}
	if d, ok := b.(DeviceThresholder); ok {
		return d.DeviceThresholds()
	}
	return set.ForAlgorithm("", alg)
}

// Key is a typed key of an algorithm-owned option: Option(v) sets it (as
// WithValue) and Into reads it, so the value's type is checked at compile
// time instead of by an assertion. Each NewKey is a distinct key.
type Key[T any] struct{ name string }

// NewKey returns a new key; name labels it (the algorithm and option).
func NewKey[T any](name string) *Key[T] { return &Key[T]{name: name} }

// Option sets k's value.
func (k *Key[T]) Option(v T) Option { return WithValue(k, v) }

// Into sets *dst to k's value in c, where an option set one.
func (k *Key[T]) Into(c *Config, dst *T) {
	if v, ok := c.values[k]; ok {
		*dst = v.(T)
	}
}

// String returns the key's name.
func (k *Key[T]) String() string { return k.name }

// Value returns the value WithValue set under key (the last one given),
// and whether one was.
func (c *Config) Value(key any) (any, bool) {
	v, ok := c.values[key]
	return v, ok
}

// Forced reports whether the caller fixed the policy, variant or order
// (WithPolicy, WithVariant, WithOrder), so an algorithm must not choose its
// own order.
func (c *Config) Forced() bool { return c.variant != nil || c.policy != nil || c.order != nil }

// Adaptive reports whether the built-in adaptive policy runs (neither
// WithVariant nor WithPolicy; WithOrder may restrict its order).
func (c *Config) Adaptive() bool { return c.variant == nil && c.policy == nil }

// Policy returns the policy: WithVariant's Static, WithPolicy's, else
// Adaptive with Thresholds() and the order of WithOrder (Ordered).
func (c *Config) Policy() decider.Policy {
	switch {
	case c.variant != nil:
		return decider.Static(*c.variant)
	case c.policy != nil:
		return c.policy
	}
	o := decider.Ordered
	if c.order != nil {
		o = *c.order
	}
	return decider.Adaptive(c.Thresholds(), o)
}
