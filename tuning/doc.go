// Package tuning runs threshold-tuning sweeps and static-variant comparisons
// over lists of graphs and sources, and writes their reports (CSV, markdown,
// plots) and tuned thresholds sections.
//
// It may import every gearbox package except cmd.
package tuning
