package main

import (
	"flag"
	"fmt"
	goruntime "runtime"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"

	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/runtime"
)

// runCommon are the flags that `gearbox run` and `gearbox run maxflow`
// share: the input, the backend, the result file and the check (each
// command registers --out and --verify with its own help).
type runCommon struct {
	in inputFlags
	backendFlags
	out    string
	verify bool
}

// register adds the input's flags and the backend's (deviceDoc: --device's
// help for the command).
func (c *runCommon) register(fs *flag.FlagSet, deviceDoc string) {
	c.in.register(fs)
	c.backendFlags.register(fs, deviceDoc)
}

// backendFlags are --device and --workers, which every command that runs
// an algorithm takes; doc is --device's help, which says what the command
// runs where.
type backendFlags struct {
	device  string
	workers int
}

func (b *backendFlags) register(fs *flag.FlagSet, doc string) {
	fs.StringVar(&b.device, "device", "cpu", doc)
	registerWorkers(fs, &b.workers)
}

// openBackend returns the backend --device names and a function releasing
// it. "auto" opens the GPU when one is usable and says why not otherwise;
// `run` then asks the cost model (autoDevice) once the graph is loaded.
func openBackend(e *env, device string, workers int) (runtime.Backend, func(), error) {
	cpu := func() (runtime.Backend, func(), error) { return runtime.NewCPU(workers), func() {}, nil }
	switch device {
	case "cpu":
		return cpu()
	case "cuda", "auto":
		cuda, err := gpu.New(gpu.WithLogger(e.log))
		if err == nil {
			return cuda, func() {
				if err := cuda.Close(); err != nil {
					e.log.Warn().Err(err).Msg("closing the GPU backend")
				}
			}, nil
		}
		if device == "cuda" {
			return nil, nil, fmt.Errorf("--device cuda: %w", err)
		}
		e.log.Info().Err(err).Msg("no usable GPU; --device auto runs on the CPU")
		return cpu()
	}
	return nil, nil, fmt.Errorf("%w: --device %q: want cpu, cuda or auto", errUsage, device)
}

// autoDevice applies --device auto's cost model once the graph is loaded:
// when the host is expected faster than the GPU it closes the GPU backend
// and returns a CPU one. It returns the line saying why.
func autoDevice(backend runtime.Backend, closeBackend func(), g *graph.Graph, sourced bool, runs, workers int) (runtime.Backend, func(), string) {
	if backend.Device() == "" { // already the host: no GPU was usable
		return backend, closeBackend, ""
	}
	if workers <= 0 {
		workers = goruntime.GOMAXPROCS(0)
	}
	ch := decider.DefaultDeviceCosts.ChooseDevice(decider.Work{
		Vertices: g.NumVertices(), Arcs: g.NumEdges(), MaxDegree: g.MaxDegree(),
		GraphBytes: g.Bytes(), Sourced: sourced, Runs: runs, Workers: workers,
	})
	line := "device auto: " + ch.Reason
	if ch.GPU {
		return backend, closeBackend, line
	}
	closeBackend()
	return runtime.NewCPU(workers), func() {}, line
}
