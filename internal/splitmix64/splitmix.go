// Package splitmix64 holds the splitmix64 finaliser that the graph
// generators and the test graphs hash with.
package splitmix64

// Mix is the splitmix64 finaliser: a cheap, well-spread hash.
func Mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
