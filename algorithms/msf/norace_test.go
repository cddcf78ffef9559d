//go:build !race

package msf

const raceEnabled = false
