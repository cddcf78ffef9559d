// Package tuning runs threshold-tuning sweeps and static-variant comparisons
// over lists of graphs and sources, and writes their reports (CSV, markdown,
// plots) and tuned thresholds sections. The CLI's `gearbox tune` and
// `gearbox bench` are thin layers over it.
//
// Tune is a coordinate descent: one knob (T1, T2, T3, sample_every, alpha,
// beta, delta_factor, delta, threads per block) at a time is swept over its
// values with the others at the best setting so far, scored by the
// geometric mean over graphs and algorithms of the median time over the
// sources, and fixed at its best value before the next knob. The time is
// the wall time, or with TuneConfig.Score = ScoreDevice (GPU backends only)
// the device time, which leaves out the set-up and the result copy that no
// threshold changes. A full cartesian product of the default ranges would
// be ~185,000 settings; the descent measures ~50 per pass. The knobs
// (Params) are the decider's and the tunable ones the registered
// algorithms declare (algorithms.Spec.Params: SSSP's delta_factor, delta,
// bucket and order keys), and a knob is measured only on the algorithms
// that read it (Spec.Reads: alpha and beta BFS; delta and delta_factor
// SSSP). The algorithms are the registry's benched ones (Spec.Benched),
// each run through its Spec. Threads per block is swept only on a backend
// implementing ThreadsPerBlockSetter (the GPU), delta only where
// delta_factor is 0; elsewhere they are recorded.
//
// Bench measures the serial reference (bfs.Reference, sssp.Reference), every
// static variant (the eight push variants, pull for BFS, the ordered SSSP
// variants once per delta) and the adaptive policy per graph: the paper's
// Tables 2 and 3 (speedups) and Fig. 15 (adaptive vs best and worst static).
//
// Every configuration warms up once from the first source, then is timed
// from each source (wall time around the whole call, as for the reference),
// the fastest of its repeats counting, and reports the median over the
// sources. The configurations compared on a graph (bench: the variants;
// tune: one knob's values) are timed interleaved, round by round, so that a
// drift of the machine falls on all of them alike. CSV rows are written and
// flushed as each graph completes, so an interrupted sweep keeps its
// finished rows.
//
// A Setting is the decider's thresholds plus the values of every key the
// algorithms and the backend own (algorithms.Values); runs get it through
// runtime.WithThresholds and runtime.WithKnobs. WriteSection merges a
// tuned section into a thresholds file (other sections and comments kept,
// the result checked with algorithms.ParseThresholds): the decider's and
// the backend's keys into the device's section, each algorithm's keys into
// its own section of the device ([gpu."<device>".sssp]). LoadSection reads
// the starting point and refuses a file without the backend's own
// section. Their For variants do the same for an algorithm's own section
// ([gpu."<device>".bfs]), which then also takes that algorithm's keys.
//
// It may import every gearbox package except cmd, and gonum.org/v1/plot for
// the PNG plots.
package tuning
