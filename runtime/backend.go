package runtime

import (
	"fmt"
	"github.com/gearbox-graph/gearbox/decider"

	"github.com/gearbox-graph/gearbox/mapping"
)

// Backend is where operators run. Algorithms pick their implementation by
// the backend's concrete type (*CPU here; the CUDA backend behind the cuda
// build tag).
type Backend interface {
	// Name identifies the backend in statistics and logs ("cpu",
	// "cuda:<device>").
	Name() string
	// Device names the device for thresholds lookup: "" for the CPU (the
	// [cpu] section), the GPU's name for a [gpu."<name>"] section.
	Device() string
	// Configure adapts the backend to a run before it starts, from the
	// run's knobs (Config.Knobs: the keys the decider does not own): the
	// GPU decodes the block size of its thread-mapped kernels
	// (threads_per_block; 0: its default); the CPU has nothing to set.
	Configure(knobs decider.KnobLayers) error
}

// CPU is the pure-Go backend: operators run on a mapping.Pool of workers.
type CPU struct {
	workers int
}

// Configure takes nothing from the thresholds (the CPU has no backend
// keys); it refuses a negative worker count, which NewCPU cannot.
func (c *CPU) Configure(decider.KnobLayers) error {
	if c.workers < 0 {
		return fmt.Errorf("%w: %d CPU workers (0 = GOMAXPROCS)", ErrBadArgument, c.workers)
	}
	return nil
}

// NewCPU returns a CPU backend with the given number of workers
// (GOMAXPROCS when workers is 0; a negative count fails the run).
func NewCPU(workers int) *CPU { return &CPU{workers: workers} }

// Name returns "cpu".
func (c *CPU) Name() string { return fmt.Sprintf("cpu(%d workers)", c.Workers()) }

// Device returns "" (the [cpu] thresholds section).
func (c *CPU) Device() string { return "" }

// Workers returns the number of workers a run uses.
func (c *CPU) Workers() int {
	if c.workers > 0 {
		return c.workers
	}
	return mapping.DefaultWorkers()
}

// NewPool returns a worker pool for one run (an idle one when there is one); the
// operator releases it (Pool.Release).
func (c *CPU) NewPool() *mapping.Pool { return mapping.Acquire(c.workers) }
