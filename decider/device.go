package decider

import (
	"fmt"
	"math"
	"time"
)

// Work describes a run for the device choice: the graph's size and shape
// and whether the operator advances level by level from a source.
type Work struct {
	Vertices  int
	Arcs      int64
	MaxDegree int64
	// GraphBytes is what the GPU backend uploads once (CSR arrays).
	GraphBytes int64
	// Sourced: a traversal from a source (bfs, sssp, stcon), whose level
	// count follows the graph's diameter; otherwise whole-graph passes
	// (cc, msf), about log2(n) of them.
	Sourced bool
	// Runs is how many runs share one upload (sources x repeats).
	Runs int
	// Workers is the CPU backend's worker count.
	Workers int
}

// DeviceCosts are the constants of the device cost model. A level costs
// the GPU a few microseconds whatever its size; the host a few when the
// level is small enough to run on one worker, and far more when it wakes
// every worker (a barrier and hand-offs), while arcs cost the host far more
// each. DefaultDeviceCosts were fitted to BFS, SSSP and CC on nine graphs
// measured on an H100 and its 16-core host (results/h100-2026-11-28-s26-auto/).
type DeviceCosts struct {
	CPULevel       time.Duration // a level small enough for one worker
	CPUParLevel    time.Duration // a level spread over the workers
	CPUParMin      int           // elements a level needs to be spread
	CPUArcsPerSec  float64       // arcs a worker relaxes per second
	GPULevel       time.Duration // a level on the device, whatever its size
	GPUFixed       time.Duration // per run: launches, result copy
	GPUArcsPerSec  float64
	GPUBytesPerSec float64 // host-to-device copies (upload, results)
	// Graphs of lower mean degree and no hubs are road-like: about
	// RoadLevelFactor * sqrt(n) levels.
	RoadDegree, RoadLevelFactor float64
	// WholePasses is the passes a whole-graph operator (cc) makes.
	WholePasses int
}

// DefaultDeviceCosts are the model's constants for an H100-class GPU and
// its host.
var DefaultDeviceCosts = DeviceCosts{
	CPULevel:        4 * time.Microsecond,
	CPUParLevel:     45 * time.Microsecond,
	CPUParMin:       256,
	CPUArcsPerSec:   3e7,
	GPULevel:        4500 * time.Nanosecond,
	GPUFixed:        70 * time.Microsecond,
	GPUArcsPerSec:   2e10,
	GPUBytesPerSec:  1e10,
	RoadDegree:      8,
	RoadLevelFactor: 1.5,
	WholePasses:     4,
}

// DeviceChoice is the cost model's answer and its reason.
type DeviceChoice struct {
	GPU      bool
	Levels   int           // estimated levels (or passes)
	CPU, Dev time.Duration // estimated time per run on each
	Reason   string
}

// ChooseDevice says whether a run of w is expected to be faster on the GPU
// than on the host, from the graph's statistics alone (no probe run): the
// GPU pays a fixed cost per level and an upload shared by w.Runs runs,
// the host pays per arc. Small graphs of long paths (road networks,
// meshes) stay on the host; large or low-diameter graphs go to the GPU.
func (c DeviceCosts) ChooseDevice(w Work) DeviceChoice {
	n := max(w.Vertices, 1)
	mean := float64(w.Arcs) / float64(n)
	levels := c.estimateLevels(w, mean)
	workers := float64(max(w.Workers, 1))
	runs := float64(max(w.Runs, 1))
	// A traversal touches each arc about once over all its levels; a
	// whole-graph pass touches every arc each time.
	arcs, perLevel := float64(w.Arcs), float64(n)/float64(levels)
	if !w.Sourced {
		arcs, perLevel = float64(w.Arcs)*float64(levels), float64(w.Arcs)
	}
	level := c.CPULevel
	if perLevel >= float64(c.CPUParMin) && workers > 1 {
		level = c.CPUParLevel
	}
	cpu := float64(levels)*level.Seconds() + arcs/(c.CPUArcsPerSec*workers)
	dev := c.GPUFixed.Seconds() + float64(levels)*c.GPULevel.Seconds() + arcs/c.GPUArcsPerSec +
		float64(w.GraphBytes)/c.GPUBytesPerSec/runs + 4*float64(n)/c.GPUBytesPerSec
	ch := DeviceChoice{GPU: dev < cpu, Levels: levels, CPU: seconds(cpu), Dev: seconds(dev)}
	what := "levels"
	if !w.Sourced {
		what = "passes"
	}
	side := "the host"
	if ch.GPU {
		side = "the GPU"
	}
	ch.Reason = fmt.Sprintf("%s is expected faster: %v on the GPU against %v on %d host workers (%d vertices, %d arcs, ~%d %s; a GPU level costs ~%v whatever its size)",
		side, ch.Dev.Round(time.Microsecond), ch.CPU.Round(time.Microsecond), max(w.Workers, 1), w.Vertices, w.Arcs, levels, what, c.GPULevel)
	return ch
}

// estimateLevels guesses a traversal's level count: about sqrt(n) on
// road-like graphs (low mean degree, no hubs), about log(n)/log(mean
// degree) otherwise; a whole-graph operator makes WholePasses passes.
func (c DeviceCosts) estimateLevels(w Work, mean float64) int {
	n := float64(max(w.Vertices, 2))
	if !w.Sourced {
		return max(c.WholePasses, 1)
	}
	if mean < c.RoadDegree && float64(w.MaxDegree) <= 4*mean+8 {
		return int(math.Ceil(c.RoadLevelFactor * math.Sqrt(n)))
	}
	return int(math.Ceil(math.Log(n)/math.Log(max(mean, 2)))) + 4
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
