//go:build cuda

package maxflow

// GPU tests: the cuda operator (phase 1 on the device, phase 2 on the
// host) under the policy, every static variant and a switch every pass,
// with and without the host tail, checked like the CPU solvers: the value
// against Edmonds-Karp, the known DIMACS values or the serial solver,
// Verify's properties and the cut's capacity. They skip when no CUDA
// driver or GPU is present.

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/runtime"
)

// deviceOnly never hands the tail to the host.
var deviceOnly = Knobs{GlobalFreq: DefaultKnobs().GlobalFreq}

// gpuVariants are the device runs: the policy, the four static variants
// and a cycle through them, on the device alone; withTail adds the policy
// and the queue with the default knobs (the tail on the host).
func gpuVariants(c runtime.Backend, withTail bool) []variant {
	var vs []variant
	for _, f := range syncForced {
		name := "gpu-" + f
		if f == "" {
			name = "gpu-policy"
		}
		vs = append(vs, variant{name: name, alg: Sync, force: f, backend: c, knobs: &deviceOnly})
	}
	// A switch of representation and mapping every pass.
	cycle := runtime.WithPolicy(testgraphs.Cycle(
		decider.Variant{Mapping: decider.Block, Rep: decider.Queue},
		decider.Variant{Mapping: decider.Thread, Rep: decider.Bitmap},
		decider.Variant{Mapping: decider.Thread, Rep: decider.Queue},
		decider.Variant{Mapping: decider.Block, Rep: decider.Bitmap}))
	vs = append(vs, variant{name: "gpu-cycle", alg: Sync, backend: c, knobs: &deviceOnly, extra: []runtime.Option{cycle}})
	if withTail {
		def := DefaultKnobs()
		vs = append(vs, variant{name: "gpu-tail", backend: c, knobs: &def},
			variant{name: "gpu-tail-U_T_QU", alg: Sync, force: "U_T_QU", backend: c, knobs: &def})
	}
	return vs
}

func TestCUDARandomAgainstReference(t *testing.T) {
	checkRandom(t, 21, 40, gpuVariants(testgraphs.OpenCUDA(t), true))
}

func TestCUDASpecialCases(t *testing.T) {
	checkSpecial(t, gpuVariants(testgraphs.OpenCUDA(t), true))
}

func TestCUDAGeneratedAgainstReference(t *testing.T) {
	checkGenerated(t, gpuVariants(testgraphs.OpenCUDA(t), true))
}

// TestCUDADatasets: the DIMACS files with their known values; AK only with
// the host tail (its path takes millions of passes on the device alone).
func TestCUDADatasets(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	checkDatasets(t, func(ak bool) []variant {
		if ak {
			def := DefaultKnobs()
			return []variant{{name: "gpu-tail", backend: c, knobs: &def}}
		}
		return gpuVariants(c, true)
	})
}

// TestCUDALarger runs generated networks large enough for many blocks and
// long BFS levels on the device, against the serial solver's value.
func TestCUDALarger(t *testing.T) {
	checkAgainstSerial(t, gpuVariants(testgraphs.OpenCUDA(t), true), []string{"vision:150:150", "rmf:16:32", "rlg:128:128"}, 5)
}

// TestCUDAPlacement: the result says where the phases ran, and the host
// takes the tail only when the knobs let it.
func TestCUDAPlacement(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	r, s, tt := genNetwork(t, "rlg:64:64", 2)
	for _, k := range []struct {
		knobs Knobs
		tail  bool
	}{{deviceOnly, false}, {Knobs{GlobalFreq: 0.5, SerialBelow: 1 << 30, HostAfter: 1}, true}} {
		res, err := Run(context.Background(), r, s, tt, WithKnobs(k.knobs), WithRuntime(runtime.WithBackend(c)))
		if err != nil {
			t.Fatal(err)
		}
		p := res.Placement()
		if !strings.Contains(p, "phase 1 on "+c.Name()) || !strings.HasSuffix(p, "phase 2 on the host") ||
			strings.Contains(p, "finished on the host") != k.tail {
			t.Errorf("knobs %+v: placement %q", k.knobs, p)
		}
		if res.Algorithm() != Sync {
			t.Errorf("algorithm %v, want sync", res.Algorithm())
		}
	}
}

// TestCUDASerialOnHost: the serial solvers run on the host whatever the
// backend (bench's statics), and bad terminals are refused before anything
// is uploaded.
func TestCUDASerialOnHost(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	r, err := graph.NewResidualArcs(3, []uint32{0, 1}, []uint32{1, 2}, []int64{4, 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []Algorithm{HighestLabel, FIFO} {
		res, err := Run(context.Background(), r, 0, 2, WithAlgorithm(a), WithRuntime(runtime.WithBackend(c)))
		if err != nil {
			t.Fatalf("%v with the GPU backend: %v", a, err)
		}
		if res.Value() != 3 || res.Placement() != "host" || res.Algorithm() != a {
			t.Errorf("%v with the GPU backend: value %d, placement %q, algorithm %v", a, res.Value(), res.Placement(), res.Algorithm())
		}
	}
	for _, st := range [][2]uint32{{1, 1}, {0, 3}} {
		if _, err := Run(context.Background(), r, st[0], st[1], WithRuntime(runtime.WithBackend(c))); !errors.Is(err, ErrTerminal) {
			t.Errorf("s=%d t=%d: got %v, want ErrTerminal", st[0], st[1], err)
		}
	}
}

// TestCUDACancel: a cancelled context stops the run with its error and the
// device state is released (OpenCUDA's Close reports leaks).
func TestCUDACancel(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	r, s, tt := genNetwork(t, "rlg:32:32", 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, r, s, tt, WithRuntime(runtime.WithBackend(c))); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}
