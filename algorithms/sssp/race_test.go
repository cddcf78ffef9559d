//go:build race

package sssp_test

// raceEnabled trims the variant x delta table under the race detector.
const raceEnabled = true
