//go:build !unix

package graph

import "time"

func processCPU() time.Duration { return 0 }
