package cc

import (
	"context"
	"fmt"
	"testing"

	"github.com/gearbox-graph/gearbox/decider"
)

func TestItTmp(t *testing.T) {
	g := benchGraph(&testing.B{}, "file:email-Enron.txt")
	for _, r := range []decider.Rep{decider.Queue} {
		for i := 0; i < 5; i++ {
			res, _ := Run(context.Background(), g, WithVariant(SV), WithWorkset(r), WithTrace(true))
			fmt.Print(r, " ", res.Stats().Wall, ": ")
			for _, x := range res.Stats().Trace {
				fmt.Print(x.Size, "/", x.Time, " ")
			}
			fmt.Println()
		}
	}
}
