//go:build race

package sssp_test

// raceEnabled trims the test tables under the race detector.
const raceEnabled = true
