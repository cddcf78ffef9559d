// Command gearbox loads, generates, converts and inspects graphs and runs
// gearbox's adaptive traversals on them. See README.md for the reference.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gearbox:", err)
		os.Exit(1)
	}
}
