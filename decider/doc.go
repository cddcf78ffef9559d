// Package decider defines the decision space of the adaptive runtime (order,
// mapping, working-set representation and traversal direction, after Li &
// Becchi), the policies that choose a variant between iterations (Static and
// Adaptive), and the thresholds they use, loaded from thresholds.toml.
//
// Thresholds holds the decider's axes only: T1, T2, T3, sample_every,
// jump_factor, bitmap_min_vertices, and the direction's alpha, beta and
// pull_min_edges. The other keys of a section (an algorithm's parameters,
// the backend's threads_per_block) are kept as Knobs, by section, for
// their owners to decode (DecodeKnobs): ThresholdSet.KnobsFor gives the
// layers of one device and algorithm lookup ([cpu], [cpu.<alg>], then on a
// GPU [gpu."<device>"], [gpu."<device>".<alg>]), and algorithms.ParseThresholds
// checks that every key has an owner.
//
// It may import inspector (for the statistics it decides on), graph and
// BurntSushi/toml; it must not import runtime or any algorithm.
package decider
