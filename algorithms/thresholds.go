package algorithms

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gearbox-graph/gearbox/decider"
)

// SectionName is the per-algorithm thresholds section the spec's runs read
// ([cpu.<section>]): Spec.Section, else its name.
func (s *Spec) SectionName() string {
	if s.Section != "" {
		return s.Section
	}
	return s.Name
}

// Sections lists the per-algorithm thresholds sections the registered
// algorithms read, in order.
func Sections() []string {
	set := map[string]bool{}
	for _, s := range All() {
		set[s.SectionName()] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// CheckSections reports a per-algorithm section of set that no registered
// algorithm reads (a misspelt [cpu.bfss] would otherwise be ignored).
func CheckSections(set *decider.ThresholdSet) error {
	known := Sections()
	check := func(dev, alg string) error {
		if !slices.Contains(known, alg) {
			return fmt.Errorf("%w: %s: unknown algorithm %q (per-algorithm sections: %s)", decider.ErrThresholds, decider.SectionName(dev, alg), alg, strings.Join(known, ", "))
		}
		return nil
	}
	for _, alg := range slices.Sorted(maps.Keys(set.CPUAlg)) {
		if err := check("", alg); err != nil {
			return err
		}
	}
	for _, dev := range slices.Sorted(maps.Keys(set.GPUAlg)) {
		for _, alg := range slices.Sorted(maps.Keys(set.GPUAlg[dev])) {
			if err := check(dev, alg); err != nil {
				return err
			}
		}
	}
	return nil
}

// BackendParams are the keys the backends own (a thresholds section's
// keys besides the decider's and the algorithms'): the GPU decodes
// threads_per_block itself (gpu.Knobs); the CPU ignores it.
var BackendParams = []Param{
	{Key: "threads_per_block", GPUOnly: true, Tunable: true, Sweep: "64,128,256,512,1024",
		Doc: "GPU threads per block for thread mapping (no effect on the cpu backend)"},
}

// backendKnobs are the backends' keys (gpu.Knobs decodes the same).
type backendKnobs struct {
	TPB int64 `toml:"threads_per_block"`
}

// BackendValues decodes the backends' keys from the layers of one lookup
// and returns their effective values, or the error for a value out of
// range, naming the key.
func BackendValues(layers decider.KnobLayers) (decider.Knobs, error) {
	var k backendKnobs
	if err := decider.DecodeKnobs(&k, layers.All()...); err != nil {
		return nil, err
	}
	if k.TPB < 0 || k.TPB > 1024 || k.TPB%32 != 0 {
		return nil, fmt.Errorf("%w: threads_per_block = %d, want a multiple of 32 in 32..1024 (0 = the backend's default)", decider.ErrThresholds, k.TPB)
	}
	return decider.KnobsOf(k), nil
}

// Values returns the effective values of the keys the algorithms and the
// backend own for a lookup of section ("" = the device section, else a
// per-algorithm section) on device in set: the backend's from the
// section's layers, and every registered algorithm's from its own
// section's (the keys a run of it reads).
func Values(set *decider.ThresholdSet, device, section string) (decider.Knobs, error) {
	layers, _ := set.KnobsFor(device, section)
	out, err := BackendValues(layers)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", decider.SectionName(device, section), err)
	}
	for _, s := range All() {
		if s.ParamValues == nil {
			continue
		}
		l, found := set.KnobsFor(device, s.SectionName())
		k, err := s.ParamValues(l, found)
		if err != nil {
			if errors.Is(err, decider.ErrThresholds) {
				return nil, fmt.Errorf("%s: %w", lookupName(device, s.SectionName()), err)
			}
			return nil, fmt.Errorf("%w: %s: %w", decider.ErrThresholds, lookupName(device, s.SectionName()), err)
		}
		maps.Copy(out, k)
	}
	return out, nil
}

// CheckValues checks complete values of the owned keys (Values' form):
// each owner decodes them as its only layer.
func CheckValues(k decider.Knobs) error {
	l := decider.KnobLayers{CPU: []decider.Knobs{k}}
	if _, err := BackendValues(l); err != nil {
		return err
	}
	for _, s := range All() {
		if s.ParamValues == nil {
			continue
		}
		if _, err := s.ParamValues(l, true); err != nil {
			if errors.Is(err, decider.ErrThresholds) {
				return err
			}
			return fmt.Errorf("%w: %w", decider.ErrThresholds, err)
		}
	}
	return nil
}

// Owners returns the keys the decider does not own that a section
// accepts, with the names of their owners: every registered algorithm's
// Params and BackendParams. Any section takes any of them (files written
// before the algorithms' keys moved to their own sections hold SSSP's
// keys in [gpu."<device>".bfs]); only the owner reads them.
func Owners() map[string]string {
	out := map[string]string{}
	for _, p := range BackendParams {
		out[p.Key] = "backend"
	}
	for _, s := range All() {
		for _, p := range s.Params {
			if _, ok := out[p.Key]; !ok {
				out[p.Key] = s.SectionName()
			}
		}
	}
	return out
}

// CheckKnobs reports a key of set that no owner takes (a misspelt key),
// naming the key and its section, and a value an owner refuses
// (Spec.ParamValues, BackendValues) in any lookup of a device and
// algorithm.
func CheckKnobs(set *decider.ThresholdSet) error {
	devices := append([]string{""}, slices.Sorted(maps.Keys(set.GPU))...)
	for _, dev := range devices {
		algs := slices.Sorted(maps.Keys(set.CPUAlg))
		if dev != "" {
			algs = slices.Sorted(maps.Keys(set.GPUAlg[dev]))
		}
		for _, alg := range append([]string{""}, algs...) {
			name := decider.SectionName(dev, alg)
			owners := Owners()
			for _, key := range slices.Sorted(maps.Keys(set.Knobs[name])) {
				if _, ok := owners[key]; !ok {
					return fmt.Errorf("%w: %s: unknown key %s (the decider's: %s; the algorithms' and the backend's: %s)", decider.ErrThresholds, name, key,
						strings.Join(decider.DeciderKeys(), ", "), strings.Join(slices.Sorted(maps.Keys(owners)), ", "))
				}
			}
		}
		for _, alg := range append([]string{""}, algs...) {
			if _, err := Values(set, dev, alg); err != nil {
				return err
			}
		}
	}
	return nil
}

// lookupName names the sections of one lookup for an error: the
// algorithm's section, and the device section it builds on.
func lookupName(dev, alg string) string {
	return decider.SectionName(dev, alg) + " (over " + decider.SectionName(dev, "") + ")"
}

// ParseThresholds is decider.ParseThresholds with the per-algorithm
// sections, the keys' owners and their values checked against the
// registry (CheckSections, CheckKnobs).
func ParseThresholds(text string) (*decider.ThresholdSet, error) {
	set, err := decider.ParseThresholds(text)
	if err != nil {
		return nil, err
	}
	if err := check(set); err != nil {
		return nil, err
	}
	return set, nil
}

func check(set *decider.ThresholdSet) error {
	if err := CheckSections(set); err != nil {
		return err
	}
	return CheckKnobs(set)
}

// LoadThresholds is decider.LoadThresholds checked as ParseThresholds
// checks; errors name the file.
func LoadThresholds(path string) (*decider.ThresholdSet, error) {
	set, err := decider.LoadThresholds(path)
	if err != nil {
		return nil, err
	}
	if err := check(set); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return set, nil
}
