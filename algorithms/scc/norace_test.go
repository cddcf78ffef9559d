//go:build !race

package scc_test

const raceEnabled = false
