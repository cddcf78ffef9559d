//go:build race

package bfs_test

// raceEnabled trims the test tables under the race detector.
const raceEnabled = true
