// Package gearbox is the module root. It holds only the default
// thresholds.toml, embedded so the library and the CLI use the very values
// the repository ships (tuned GPU sections included) without reading a file
// at run time. The packages are graph, runtime, decider, algorithms/... (see
// README.md).
//
// It imports only the standard library, so every package may import it.
package gearbox

import _ "embed"

// ThresholdsTOML is the content of the repository's thresholds.toml.
//
//go:embed thresholds.toml
var ThresholdsTOML string
