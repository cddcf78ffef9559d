package algorithms

import (
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

// ParseThresholds is decider.ParseThresholds with the per-algorithm
// sections checked against the registry (CheckSections).
func ParseThresholds(text string) (*decider.ThresholdSet, error) {
	set, err := decider.ParseThresholds(text)
	if err != nil {
		return nil, err
	}
	if err := CheckSections(set); err != nil {
		return nil, err
	}
	return set, nil
}

// LoadThresholds is decider.LoadThresholds with the per-algorithm sections
// checked against the registry (CheckSections); errors name the file.
func LoadThresholds(path string) (*decider.ThresholdSet, error) {
	set, err := decider.LoadThresholds(path)
	if err != nil {
		return nil, err
	}
	if err := CheckSections(set); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return set, nil
}
