package main

import (
	"context"
	"errors"
)

func cmdTune(ctx context.Context, e *env, args []string) error {
	return errors.New("tune: not implemented yet")
}
