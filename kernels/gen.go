//go:build ignore

// gen.go builds gearbox.fatbin with nvcc and rewrites manifest.txt
// (`go generate ./kernels`). With -manifest it only rewrites the manifest,
// for a fatbin built from the same sources on another machine.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gearbox-graph/gearbox/kernels"
)

func main() {
	only := flag.Bool("manifest", false, "only rewrite manifest.txt for the fatbin already present")
	flag.Parse()
	if !*only {
		nvcc := "nvcc"
		if h := os.Getenv("CUDA_HOME"); h != "" {
			if _, err := os.Stat(filepath.Join(h, "bin", "nvcc")); err == nil {
				nvcc = filepath.Join(h, "bin", "nvcc")
			}
		}
		args := append(append([]string{}, kernels.NVCCFlags...), "-o", kernels.FatbinFile, kernels.MainSource)
		cmd := exec.Command(nvcc, args...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		fmt.Fprintln(os.Stderr, nvcc, args)
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "gen: nvcc failed: %v (the fatbin can only be built where the CUDA toolkit is installed)\n", err)
			os.Exit(1)
		}
	}
	entries, err := kernels.BuildManifest(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(kernels.ManifestFile, kernels.FormatManifest(entries), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
