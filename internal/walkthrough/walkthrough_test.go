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
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	prog := string(src[strings.Index(string(src), "package main"):])
	if !strings.Contains(string(readme), "```go\n"+prog+"```\n") {
		t.Errorf("README.md does not show internal/walkthrough/main.go from `package main` on in a ```go block; copy it there")
	}
}
