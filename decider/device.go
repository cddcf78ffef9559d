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
// the GPU a few launches or a grid-wide barrier whatever its size, and
// the host a few microseconds when the frontier is small; arcs cost the
// host far more each. DefaultDeviceCosts come from the recorded runs
// (docs/measured.md): rome99's BFS, 53 levels, takes 0.12 ms on one host
// core and 0.14 ms of device time (0.18 wall) on an H100.
type DeviceCosts struct {
	CPULevel        time.Duration // a level with a small frontier, on the host
	CPUArcsPerSec   float64       // arcs a worker visits per second
	GPULevel        time.Duration // a level on the device, whatever its size
	GPUFixed        time.Duration // per run: launches, result copy set-up
	GPUArcsPerSec   float64
	GPUBytesPerSec  float64 // host-to-device copies (upload, results)
	RoadDegree      float64 // graphs of lower mean degree and no hubs are road-like
	RoadLevelFactor float64 // road-like levels ~ factor * sqrt(n)
}

// DefaultDeviceCosts are the model's constants for a current data-centre
// GPU (H100/H200) and host.
var DefaultDeviceCosts = DeviceCosts{
	CPULevel:        2500 * time.Nanosecond,
	CPUArcsPerSec:   1.5e8,
	GPULevel:        3 * time.Microsecond,
	GPUFixed:        60 * time.Microsecond,
	GPUArcsPerSec:   5e9,
	GPUBytesPerSec:  1e10,
	RoadDegree:      8,
	RoadLevelFactor: 1.5,
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
	arcPasses := 1.0
	if !w.Sourced {
		arcPasses = float64(levels)
	}
	arcs := float64(w.Arcs) * arcPasses
	cpu := float64(levels)*c.CPULevel.Seconds() + arcs/(c.CPUArcsPerSec*workers)
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
// degree) otherwise; whole-graph passes take about log2(n).
func (c DeviceCosts) estimateLevels(w Work, mean float64) int {
	n := float64(max(w.Vertices, 2))
	if !w.Sourced {
		return int(math.Ceil(math.Log2(n)))
	}
	if mean < c.RoadDegree && float64(w.MaxDegree) <= 4*mean+8 {
		return int(math.Ceil(c.RoadLevelFactor * math.Sqrt(n)))
	}
	return int(math.Ceil(math.Log(n)/math.Log(max(mean, 2)))) + 4
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
