package main

import (
	"os"
	"strings"
	"testing"
)

// The walkthrough runs (a failure ends the test binary through log.Fatal).
func TestWalkthroughRuns(t *testing.T) {
	stdout := os.Stdout
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	os.Stdout = null
	defer func() { os.Stdout = stdout }()
	main()
}

// The README shows this program, from `package main` on, to the letter.
func TestREADMEShowsWalkthrough(t *testing.T) {
	var text [2]string // the program, the README
	for i, name := range []string{"main.go", "../../README.md"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		text[i] = string(b)
	}
	src, readme := text[0], text[1]
	prog := src[strings.Index(src, "package main"):]
	if !strings.Contains(readme, "```go\n"+prog+"```\n") {
		t.Errorf("README.md does not show internal/walkthrough/main.go from `package main` on in a ```go block; copy it there")
	}
}
