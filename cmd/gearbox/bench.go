package main

import (
	"context"
	"errors"
)

func cmdBench(ctx context.Context, e *env, args []string) error {
	return errors.New("bench: not implemented yet")
}
