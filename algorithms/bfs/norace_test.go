//go:build !race

package bfs_test

const raceEnabled = false
