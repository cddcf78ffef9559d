//go:build race

package msf

// raceEnabled trims the test tables under the race detector.
const raceEnabled = true
