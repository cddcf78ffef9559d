package runtime

import (
	"context"
	"errors"
	"fmt"

	"github.com/gearbox-graph/gearbox/graph"
)

// ErrBadArgument is wrapped when an exported entry point is given a nil
// context, graph or result, or an option value out of its range: the
// library returns an error where a panic or a silent default would hide
// the caller's mistake.
var ErrBadArgument = errors.New("bad argument")

// CheckArgs is the entry check every algorithm's Run shares: a nil
// context or graph is an error wrapping ErrBadArgument (and graph.ErrNil
// for the graph), named after alg.
func CheckArgs(alg string, ctx context.Context, g *graph.Graph) error {
	if ctx == nil {
		return fmt.Errorf("%s: %w: nil context (use context.Background())", alg, ErrBadArgument)
	}
	if g == nil {
		return fmt.Errorf("%s: %w: %w: nil graph", alg, ErrBadArgument, graph.ErrNil)
	}
	return nil
}
