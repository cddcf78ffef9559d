package kernels

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The wrappers first: they need no nvcc.
//go:generate go run ./internal/cmd/wrapgen
//go:generate go run gen.go

// FatbinFile is the generated kernel image, committed next to its sources.
const FatbinFile = "gearbox.fatbin"

// ManifestFile records the SHA-256 of every source and of the fatbin built
// from them.
const ManifestFile = "manifest.txt"

// EnvKernels names an environment variable: when set, the cuda backend
// loads the fatbin from that path instead of the embedded one (development:
// try new kernels without rebuilding the Go program).
const EnvKernels = "GEARBOX_KERNELS"

// MainSource is the translation unit nvcc compiles; it includes the family
// files.
const MainSource = "gearbox.cu"

// NVCCFlags are the nvcc flags of the committed fatbin: sm_80 and sm_90
// machine code plus compute_80 PTX that newer GPUs compile at load time.
var NVCCFlags = []string{
	"-fatbin", "-O3", "-std=c++17",
	"-gencode", "arch=compute_80,code=sm_80",
	"-gencode", "arch=compute_90,code=sm_90",
	"-gencode", "arch=compute_80,code=compute_80",
}

// IsSource reports whether a file name is a kernel source (.cu or .cuh).
func IsSource(name string) bool {
	return strings.HasSuffix(name, ".cu") || strings.HasSuffix(name, ".cuh")
}

// Entry is one line of the manifest.
type Entry struct {
	Name string // file name relative to the kernels directory
	Hash string // hex SHA-256
}

// HashFile returns the hex SHA-256 of a file.
func HashFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), nil
}

// Sources lists the kernel sources under dir (sorted, relative names).
func Sources(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && IsSource(d.Name()) {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// BuildManifest hashes the sources and the fatbin under dir.
func BuildManifest(dir string) ([]Entry, error) {
	names, err := Sources(dir)
	if err != nil {
		return nil, err
	}
	names = append(names, FatbinFile)
	var out []Entry
	for _, n := range names {
		h, err := HashFile(filepath.Join(dir, filepath.FromSlash(n)))
		if err != nil {
			return nil, err
		}
		out = append(out, Entry{Name: n, Hash: h})
	}
	return out, nil
}

// FormatManifest renders entries in sha256sum's format under a header.
func FormatManifest(entries []Entry) []byte {
	var b bytes.Buffer
	b.WriteString("# SHA-256 of the kernel sources and of the fatbin nvcc built from them.\n")
	b.WriteString("# Regenerate with `go generate ./kernels` (needs nvcc); for a fatbin built\n")
	b.WriteString("# elsewhere from these sources: `cd kernels && go run gen.go -manifest`.\n")
	fmt.Fprintf(&b, "# nvcc %s %s\n", strings.Join(NVCCFlags, " "), MainSource)
	for _, e := range entries {
		fmt.Fprintf(&b, "%s  %s\n", e.Hash, e.Name)
	}
	return b.Bytes()
}

// ParseManifest reads a manifest written by FormatManifest.
func ParseManifest(data []byte) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Fields(t)
		if len(f) != 2 || len(f[0]) != 64 {
			return nil, fmt.Errorf("%s:%d: want \"<sha256>  <file>\", got %q", ManifestFile, line, t)
		}
		out = append(out, Entry{Name: f[1], Hash: f[0]})
	}
	return out, sc.Err()
}

// CheckManifest compares the manifest under dir with the files there and
// returns one problem per stale, missing or unlisted file (nil when the
// fatbin is up to date with its sources).
func CheckManifest(dir string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	want, err := ParseManifest(data)
	if err != nil {
		return nil, err
	}
	have, err := BuildManifest(dir)
	if err != nil {
		return nil, err
	}
	hm := map[string]string{}
	for _, e := range have {
		hm[e.Name] = e.Hash
	}
	wm := map[string]string{}
	var problems []string
	for _, e := range want {
		wm[e.Name] = e.Hash
		h, ok := hm[e.Name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s is listed in %s but missing", e.Name, ManifestFile))
		case h != e.Hash:
			problems = append(problems, fmt.Sprintf("%s changed since %s was built (sha256 %s, manifest %s)", e.Name, FatbinFile, h[:12], e.Hash[:12]))
		}
	}
	for _, e := range have {
		if _, ok := wm[e.Name]; !ok {
			problems = append(problems, fmt.Sprintf("%s is not listed in %s", e.Name, ManifestFile))
		}
	}
	return problems, nil
}
