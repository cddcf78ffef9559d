//go:build race

package scc_test

// raceEnabled trims the test tables under the race detector.
const raceEnabled = true
