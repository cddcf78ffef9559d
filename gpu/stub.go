//go:build !cuda

package gpu

import "github.com/gearbox-graph/gearbox/decider"

// CUDA is the GPU backend; this build has none (build with -tags cuda).
type CUDA struct{ _ [0]func() }

// New returns ErrNoCUDA: gearbox was built without the cuda tag.
func New(opts ...Option) (*CUDA, error) { return nil, ErrNoCUDA }

// Built reports whether this build includes the cuda backend.
func Built() bool { return false }

// Name returns "cuda(unavailable)".
func (*CUDA) Name() string { return "cuda(unavailable)" }

// Device returns "".
func (*CUDA) Device() string { return "" }

// Configure does nothing.
func (*CUDA) Configure(decider.KnobLayers) error { return nil }

// Close does nothing.
func (*CUDA) Close() error { return nil }
