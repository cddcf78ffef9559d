package tuning

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gearbox-graph/gearbox/decider"
)

// SectionName returns the thresholds-file section header for a device:
// "[cpu]" for "" or "cpu", `[gpu."<device>"]` otherwise.
func SectionName(device string) string {
	if device == "" || device == "cpu" {
		return "[cpu]"
	}
	return "[gpu." + strconv.Quote(device) + "]"
}

// tunedMark starts the comment block Tune's callers write above a section;
// merging replaces such a block with the section.
const tunedMark = "# tuned by gearbox tune"

// RenderSection renders a complete thresholds section (every key, in the
// strict format decider.ParseThresholds reads), preceded by the comment
// lines given.
func RenderSection(device string, t decider.Thresholds, comments ...string) string {
	var b strings.Builder
	for _, c := range comments {
		for _, l := range strings.Split(c, "\n") {
			b.WriteString("# " + l + "\n")
		}
	}
	b.WriteString(SectionName(device) + "\n")
	fmt.Fprintf(&b, "T1 = %s\n", tomlFloat(t.T1))
	fmt.Fprintf(&b, "T2 = %d\n", t.T2)
	fmt.Fprintf(&b, "T3 = %s\n", tomlFloat(t.T3))
	if t.BitmapMinVertices != 0 {
		fmt.Fprintf(&b, "bitmap_min_vertices = %d\n", t.BitmapMinVertices)
	}
	fmt.Fprintf(&b, "sample_every = %d\n", t.SampleEvery)
	// Always written: a section that left it out would take [cpu]'s.
	fmt.Fprintf(&b, "jump_factor = %s\n", tomlFloat(t.JumpFactor))
	fmt.Fprintf(&b, "alpha = %s\n", tomlFloat(t.Alpha))
	fmt.Fprintf(&b, "beta = %s\n", tomlFloat(t.Beta))
	if t.PullMinEdges != 0 {
		fmt.Fprintf(&b, "pull_min_edges = %d\n", t.PullMinEdges)
	}
	fmt.Fprintf(&b, "delta = %d\n", t.Delta)
	// Always written: a section that left it out would take [cpu]'s.
	fmt.Fprintf(&b, "delta_factor = %s\n", tomlFloat(t.DeltaFactor))
	fmt.Fprintf(&b, "ordered_min_vertices = %d\n", t.OrderedMinVertices)
	fmt.Fprintf(&b, "ordered_min_degree = %s\n", tomlFloat(t.OrderedMinDegree))
	if t.ThreadsPerBlock != 0 {
		fmt.Fprintf(&b, "threads_per_block = %d\n", t.ThreadsPerBlock)
	}
	return b.String()
}

// tomlFloat writes a float TOML reads back as a float (always with a
// decimal point or exponent).
func tomlFloat(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

// WriteSection writes t as the device's section of the thresholds file at
// path: an existing file keeps its other sections and comments and has
// the device's section (if any) replaced; a new file gets a header. The
// result is parsed back with decider.ParseThresholds and must give t for
// the device before it replaces the file (written to a temporary file and
// renamed, so a failure leaves the old file intact).
func WriteSection(path, device string, t decider.Thresholds, comments ...string) error {
	if err := t.Validate(); err != nil {
		return err
	}
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		old = []byte("# gearbox thresholds (see thresholds.toml at the repository root for the keys),\n# written by gearbox tune.\n")
	case err != nil:
		return fmt.Errorf("thresholds: %w", err)
	default:
		if _, err := decider.ParseThresholds(string(old)); err != nil {
			return fmt.Errorf("%s: cannot merge into it: %w", path, err)
		}
	}
	text, err := mergeSection(string(old), device, RenderSection(device, t, comments...))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	set, err := decider.ParseThresholds(text)
	if err != nil {
		return fmt.Errorf("%s: merged file does not parse (a bug): %w", path, err)
	}
	if got := set.For(lookupDevice(device)); got != t {
		return fmt.Errorf("%s: merged file gives %+v for %s, want %+v (a bug)", path, got, SectionName(device), t)
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".thresholds-*.toml")
	if err != nil {
		return fmt.Errorf("thresholds: %w", err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("thresholds: %w", err)
	}
	if _, err := tmp.WriteString(text); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("thresholds: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("thresholds: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("thresholds: %w", err)
	}
	return nil
}

func lookupDevice(device string) string {
	if device == "cpu" {
		return ""
	}
	return device
}

// mergeSection replaces the device's section in text by section (with the
// comment lines right above the old header), or appends it.
func mergeSection(text, device, section string) (string, error) {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	start, end := -1, len(lines)
	for i, l := range lines {
		dev, isHeader, ok := headerDevice(l)
		if !isHeader {
			continue
		}
		if start >= 0 {
			end = i
			break
		}
		if ok && dev == lookupDevice(device) {
			start = i
		}
	}
	if start < 0 {
		var b strings.Builder
		b.WriteString(strings.Join(lines, ""))
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
		b.WriteString("\n" + section)
		return b.String(), nil
	}
	// The comments a previous tune wrote above the header go with the old
	// section; other comments (the user's) stay.
	c := start
	for c > 0 && strings.HasPrefix(strings.TrimSpace(lines[c-1]), "#") {
		c--
	}
	if c < start && strings.HasPrefix(strings.TrimSpace(lines[c]), tunedMark) {
		start = c
	}
	// Comments directly above the next header belong to that section.
	for end > start && end < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[end-1]), "#") {
		end--
	}
	rest := strings.Join(lines[end:], "")
	if rest != "" && !strings.HasPrefix(rest, "\n") {
		rest = "\n" + rest
	}
	return strings.Join(lines[:start], "") + section + rest, nil
}

// headerDevice parses a TOML table header line: isHeader says whether the
// line is one; ok whether it names a thresholds section, dev being "" for
// [cpu] and the GPU name for [gpu."name"] (any TOML quoting).
func headerDevice(line string) (dev string, isHeader, ok bool) {
	l := strings.TrimSpace(line)
	if !strings.HasPrefix(l, "[") {
		return "", false, false
	}
	var m map[string]any
	if _, err := toml.Decode(l+"\nk__ = 1\n", &m); err != nil {
		return "", true, false
	}
	if c, isMap := m["cpu"].(map[string]any); isMap && c["k__"] != nil {
		return "", true, true
	}
	if g, isMap := m["gpu"].(map[string]any); isMap && len(g) == 1 {
		for name, v := range g {
			if s, isMap := v.(map[string]any); isMap && s["k__"] != nil {
				return name, true, true
			}
		}
	}
	return "", true, false
}

// ErrNoSection means a thresholds file has no section for the device a
// sweep runs on.
var ErrNoSection = errors.New("no thresholds section for the device")

// LoadSection reads a thresholds file strictly (decider.LoadThresholds)
// and returns the section of device ("" or "cpu" for [cpu]). Unlike
// ThresholdSet.For it does not fall back to [cpu]: a file without the
// device's own section was tuned for another device, and starting from it
// would be a silent mistake, so that is ErrNoSection naming the sections
// the file has.
func LoadSection(path, device string) (decider.Thresholds, error) {
	set, err := decider.LoadThresholds(path)
	if err != nil {
		return decider.Thresholds{}, err
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return decider.Thresholds{}, fmt.Errorf("thresholds: %w", err)
	}
	var found []string
	has := false
	for _, l := range strings.Split(string(text), "\n") {
		dev, _, ok := headerDevice(l)
		if !ok {
			continue
		}
		found = append(found, SectionName(dev))
		has = has || dev == lookupDevice(device)
	}
	if !has {
		list := "none"
		if len(found) > 0 {
			list = strings.Join(found, ", ")
		}
		return decider.Thresholds{}, fmt.Errorf("%s: %w: the backend's device needs %s, the file has %s (tune without --thresholds to start from the built-in defaults)",
			path, ErrNoSection, SectionName(device), list)
	}
	return set.For(lookupDevice(device)), nil
}
