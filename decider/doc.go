// Package decider defines the decision space of the adaptive runtime (order,
// mapping, working-set representation and traversal direction, after Li &
// Becchi), the policies that choose a variant between iterations (Static and
// Adaptive), and the thresholds they use, loaded from thresholds.toml.
//
// It may import inspector (for the statistics it decides on), graph and
// BurntSushi/toml; it must not import runtime or any algorithm.
package decider
