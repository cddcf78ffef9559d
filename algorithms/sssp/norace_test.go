//go:build !race

package sssp_test

const raceEnabled = false
