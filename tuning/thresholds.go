package tuning

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gearbox-graph/gearbox/algorithms"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/atomicfile"
	"github.com/gearbox-graph/gearbox/internal/smallfile"
)

// SectionName returns the thresholds-file section header for a device:
// "[cpu]" for "" or "cpu", `[gpu."<device>"]` otherwise.
func SectionName(device string) string { return SectionNameFor(device, "") }

// SectionNameFor returns the header of algorithm alg's section for a
// device: "[cpu.<alg>]" or `[gpu."<device>".<alg>]`; with alg "", the
// device section's (SectionName).
func SectionNameFor(device, alg string) string { return decider.SectionName(device, alg) }

// tunedMark starts the comment block Tune's callers write above a section;
// merging replaces such a block with the section.
const tunedMark = "# tuned by gearbox tune"

// RenderSection renders a complete device section (every decider key
// and the backend's, in the format decider.ParseThresholds reads),
// preceded by the comment lines given. The algorithms' keys of s belong to
// their own sections (WriteSection writes them there).
func RenderSection(device string, s Setting, comments ...string) string {
	return RenderSectionFor(device, "", s, comments...)
}

// RenderSectionFor is RenderSection for algorithm alg's section of the
// device (alg "": the device section): with alg, the keys of the
// algorithms reading that section too.
func RenderSectionFor(device, alg string, s Setting, comments ...string) string {
	keys := append(backendKeys(), sectionKeys(alg)...)
	return renderSection(device, alg, &s.Thresholds, s.Knobs, keys, comments)
}

// RenderSettingFor renders s as WriteSectionFor writes it: alg's section
// of the device (alg "": the device section) and, with alg "", each
// algorithm's keys in its own section (without the keys those sections
// have of their own in a file).
func RenderSettingFor(device, alg string, s Setting) string {
	out := RenderSectionFor(device, alg, s)
	if alg == "" {
		for _, sec := range algorithms.Sections() {
			if keys := sectionKeys(sec); len(keys) > 0 {
				out += "\n" + renderSection(device, sec, nil, s.Knobs, keys, nil)
			}
		}
	}
	return out
}

// backendKeys lists the backends' keys (algorithms.BackendParams).
func backendKeys() []string {
	var out []string
	for _, p := range algorithms.BackendParams {
		out = append(out, p.Key)
	}
	return out
}

// sectionKeys lists the keys of the algorithms reading section alg, in
// their declared order ("" = none).
func sectionKeys(alg string) []string {
	var out []string
	if alg == "" {
		return nil
	}
	for _, sp := range algorithms.All() {
		if sp.SectionName() != alg {
			continue
		}
		for _, p := range sp.Params {
			if !slices.Contains(out, p.Key) {
				out = append(out, p.Key)
			}
		}
	}
	return out
}

// renderSection renders a section: the decider's keys (t nil: none) and
// the keys given of k (those k lacks are left out).
func renderSection(device, alg string, t *decider.Thresholds, k decider.Knobs, keys, comments []string) string {
	var b strings.Builder
	for _, c := range comments {
		for _, l := range strings.Split(c, "\n") {
			b.WriteString("# " + l + "\n")
		}
	}
	// Every key is written: one a section left out would take another
	// section's value ([cpu]'s, or for a per-algorithm section its device
	// section's), which need not be 0 (bitmap_min_vertices is 4096 in
	// [cpu]).
	b.WriteString(SectionNameFor(device, alg) + "\n")
	if t != nil {
		fmt.Fprintf(&b, "T1 = %s\n", tomlFloat(t.T1))
		fmt.Fprintf(&b, "T2 = %d\n", t.T2)
		fmt.Fprintf(&b, "T3 = %s\n", tomlFloat(t.T3))
		fmt.Fprintf(&b, "bitmap_min_vertices = %d\n", t.BitmapMinVertices)
		fmt.Fprintf(&b, "sample_every = %d\n", t.SampleEvery)
		fmt.Fprintf(&b, "jump_factor = %s\n", tomlFloat(t.JumpFactor))
		fmt.Fprintf(&b, "alpha = %s\n", tomlFloat(t.Alpha))
		fmt.Fprintf(&b, "beta = %s\n", tomlFloat(t.Beta))
		fmt.Fprintf(&b, "pull_min_edges = %d\n", t.PullMinEdges)
	}
	for _, key := range keys {
		switch v := k[key].(type) {
		case int64:
			fmt.Fprintf(&b, "%s = %d\n", key, v)
		case float64:
			fmt.Fprintf(&b, "%s = %s\n", key, tomlFloat(v))
		}
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

// WriteSection writes s as the device's section of the thresholds file at
// path: an existing file keeps its other sections and comments and has
// the device's section (if any) replaced; a new file gets a header. The
// algorithms' keys of s go to their own sections of the device
// ([gpu."<device>".sssp]; see WriteSectionFor). The result is parsed back
// and must give s for the device before it replaces the file (written to
// a temporary file and renamed, so a failure leaves the old file intact).
func WriteSection(path, device string, s Setting, comments ...string) error {
	return WriteSectionFor(path, device, "", s, comments...)
}

// WriteSectionFor is WriteSection for algorithm alg's section of the
// device ([gpu."<device>".bfs]; alg "": the device section): that section
// is replaced (or added after the device's sections) with the decider's
// and the backend's keys, and with alg, its algorithms' keys. With alg "",
// each algorithm's keys go to its own section of the device: an existing
// one keeps its other keys (and the decider's where it sets its own), a
// new one has the algorithm's keys alone. A GPU's per-algorithm section
// needs the device's own section in the file (CheckSectionTarget).
func WriteSectionFor(path, device, alg string, s Setting, comments ...string) error {
	if err := s.Validate(); err != nil {
		return err
	}
	old, exists, err := readTarget(path, device, alg)
	if err != nil {
		return err
	}
	if !exists {
		old = "# gearbox thresholds (see thresholds.toml at the repository root for the keys),\n# written by gearbox tune.\n"
	}
	text, err := mergeSection(old, device, alg, RenderSectionFor(device, alg, s, comments...))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if alg == "" {
		// The comments go with the device section only: an algorithm's
		// section keeps the comments it has.
		if text, err = mergeAlgSections(text, device, s); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	set, err := algorithms.ParseThresholds(text)
	if err != nil {
		return fmt.Errorf("%s: merged file does not parse (a bug): %w", path, err)
	}
	got, err := SettingFor(set, device, alg, s.Thresholds)
	if err != nil {
		return fmt.Errorf("%s: merged file: %w (a bug)", path, err)
	}
	if got.Thresholds != s.Thresholds || !sameKeys(got.Knobs, s.Knobs, writtenKeys(alg)) {
		return fmt.Errorf("%s: merged file gives %+v for %s, want %+v (a bug)", path, got, SectionNameFor(device, alg), s)
	}
	// Atomic: a failed write leaves the old file whole; its mode and
	// symlinks are kept.
	if err := atomicfile.Write(path, func(w io.Writer) error { _, err := io.WriteString(w, text); return err }); err != nil {
		return fmt.Errorf("thresholds: %w", err)
	}
	return nil
}

// writtenKeys lists the owners' keys WriteSectionFor writes for section
// alg: the backend's and, with alg, its algorithms'; with alg "", every
// algorithm's (into their own sections).
func writtenKeys(alg string) []string {
	if alg != "" {
		return append(backendKeys(), sectionKeys(alg)...)
	}
	keys := backendKeys()
	for _, sec := range algorithms.Sections() {
		keys = append(keys, sectionKeys(sec)...)
	}
	return keys
}

// sameKeys reports whether a and b hold the same values under keys.
func sameKeys(a, b decider.Knobs, keys []string) bool {
	for _, k := range keys {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// mergeAlgSections writes s's algorithm keys into their sections of the
// device in text (see WriteSectionFor).
func mergeAlgSections(text, device string, s Setting) (string, error) {
	for _, sec := range algorithms.Sections() {
		keys := sectionKeys(sec)
		if len(keys) == 0 {
			continue
		}
		set, err := decider.ParseThresholds(text)
		if err != nil {
			return "", err
		}
		dev := lookupDevice(device)
		name := SectionNameFor(device, sec)
		k := maps.Clone(set.Knobs[name])
		if k == nil {
			k = decider.Knobs{}
		}
		for _, key := range keys {
			k[key] = s.Knobs[key]
		}
		var own *decider.Thresholds
		has := false
		for _, l := range strings.Split(text, "\n") {
			if d, a, _, ok := headerSection(l); ok && d == dev && a == sec {
				has = true
			}
		}
		if t, _ := set.LookupFor(dev, sec); has && t != set.For(dev) {
			own = &t
		}
		all := append(backendKeys(), keys...)
		for _, key := range slices.Sorted(maps.Keys(k)) {
			if !slices.Contains(all, key) {
				all = append(all, key)
			}
		}
		if text, err = mergeSection(text, device, sec, renderSection(device, sec, own, k, all, nil)); err != nil {
			return "", err
		}
	}
	return text, nil
}

func lookupDevice(device string) string {
	if device == "cpu" {
		return ""
	}
	return device
}

// CheckSectionTarget checks, before a long tune, that WriteSectionFor can
// merge a section into the file at path: if the file exists it must parse,
// and a GPU's per-algorithm section needs the device's section in it.
func CheckSectionTarget(path, device, alg string) error {
	_, _, err := readTarget(path, device, alg)
	return err
}

// readTarget reads the file a section is to be merged into, if it exists,
// and checks it as CheckSectionTarget says.
func readTarget(path, device, alg string) (text string, exists bool, err error) {
	if alg != "" && !slices.Contains(algorithms.Sections(), alg) {
		return "", false, fmt.Errorf("%w: no section for algorithm %q (per-algorithm sections: %s)", decider.ErrThresholds, alg, strings.Join(algorithms.Sections(), ", "))
	}
	old, err := smallfile.ReadFile(path, smallfile.Thresholds, "a thresholds file")
	set := &decider.ThresholdSet{} // no file: no GPU sections
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return "", false, fmt.Errorf("thresholds: %w", err)
	default:
		exists = true
		if set, err = algorithms.ParseThresholds(string(old)); err != nil {
			return "", false, fmt.Errorf("%s: cannot merge into it: %w", path, err)
		}
	}
	// A GPU's per-algorithm section builds on the device section (the
	// CPU's on [cpu], whose keys default to the built-in values).
	if _, ok := set.Lookup(device); alg != "" && !ok {
		return "", false, fmt.Errorf("%s: %w: %s builds on the device's %s, which the file lacks (write that first, or merge into a file that has it)",
			path, ErrNoSection, SectionNameFor(device, alg), SectionName(device))
	}
	return string(old), exists, nil
}

// mergeSection replaces the section of device and alg in text by section
// (with the comment lines right above the old header), or adds it: a
// per-algorithm section after the device's last section, any other at the
// end.
func mergeSection(text, device, alg, section string) (string, error) {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	dev := lookupDevice(device)
	start, end := -1, len(lines)
	after := -1 // the header of the device's last section so far
	for i, l := range lines {
		d, a, isHeader, ok := headerSection(l)
		if !isHeader {
			continue
		}
		if start >= 0 {
			end = i
			break
		}
		switch {
		case ok && d == dev && a == alg:
			start = i
		case ok && d == dev && alg != "":
			after = i
		}
	}
	if start < 0 && after >= 0 {
		// After the device's last section, before the next header and the
		// comments directly above it (they belong to that one).
		at := len(lines)
		for i := after + 1; i < len(lines); i++ {
			if _, _, isHeader, _ := headerSection(lines[i]); isHeader {
				at = i
				break
			}
		}
		for at > after+1 && isComment(lines[at-1]) {
			at--
		}
		for at > after+1 && strings.TrimSpace(lines[at-1]) == "" {
			at--
		}
		head := strings.Join(lines[:at], "")
		if !strings.HasSuffix(head, "\n") {
			head += "\n"
		}
		rest := strings.Join(lines[at:], "")
		if rest != "" && !strings.HasPrefix(rest, "\n") {
			rest = "\n" + rest
		}
		return head + "\n" + section + rest, nil
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
	for c > 0 && isComment(lines[c-1]) {
		c--
	}
	if c < start && strings.HasPrefix(strings.TrimSpace(lines[c]), tunedMark) {
		start = c
	}
	// Comments directly above the next header belong to that section.
	for end > start && end < len(lines) && isComment(lines[end-1]) {
		end--
	}
	rest := strings.Join(lines[end:], "")
	if rest != "" && !strings.HasPrefix(rest, "\n") {
		rest = "\n" + rest
	}
	return strings.Join(lines[:start], "") + section + rest, nil
}

func isComment(line string) bool { return strings.HasPrefix(strings.TrimSpace(line), "#") }

// headerSection parses a TOML table header line: isHeader says whether the
// line is one; ok whether it names a thresholds section, dev being "" for
// [cpu] and the GPU name for [gpu."name"] (any TOML quoting), and alg the
// algorithm of a per-algorithm section ([cpu.bfs], [gpu."name".bfs]; ""
// for a device section).
func headerSection(line string) (dev, alg string, isHeader, ok bool) {
	l := strings.TrimSpace(line)
	if !strings.HasPrefix(l, "[") {
		return "", "", false, false
	}
	var m map[string]any
	if _, err := toml.Decode(l+"\nk__ = 1\n", &m); err != nil {
		return "", "", true, false
	}
	// section reports whether t is the marked table itself (alg "") or
	// holds it as its one subtable (alg its name).
	section := func(t any) (alg string, ok bool) {
		tm, isMap := t.(map[string]any)
		if !isMap {
			return "", false
		}
		if tm["k__"] != nil {
			return "", true
		}
		if len(tm) != 1 {
			return "", false
		}
		for name, v := range tm {
			if sub, isMap := v.(map[string]any); isMap && sub["k__"] != nil {
				return name, true
			}
		}
		return "", false
	}
	if a, ok := section(m["cpu"]); ok {
		return "", a, true, true
	}
	if g, isMap := m["gpu"].(map[string]any); isMap && len(g) == 1 {
		for name, v := range g {
			if a, ok := section(v); ok {
				return name, a, true, true
			}
		}
	}
	return "", "", true, false
}

// ExistingSection returns the setting of the section of device and alg
// ("": the device section) in the thresholds file at path, as the
// runtime reads it (SettingFor), and whether the file has that section
// itself (a missing file has none; [cpu] is not had by default).
func ExistingSection(path, device, alg string) (Setting, bool, error) {
	text, exists, err := readTarget(path, device, alg)
	if err != nil || !exists {
		return Setting{}, false, err
	}
	set, err := algorithms.ParseThresholds(text)
	if err != nil {
		return Setting{}, false, fmt.Errorf("%s: %w", path, err)
	}
	for _, l := range strings.Split(text, "\n") {
		if dev, a, _, ok := headerSection(l); ok && dev == lookupDevice(device) && a == alg {
			st, err := SettingFor(set, device, alg, decider.Thresholds{})
			if err != nil {
				return Setting{}, false, fmt.Errorf("%s: %w", path, err)
			}
			return st, true, nil
		}
	}
	return Setting{}, false, nil
}

// ChangedKeys lists the keys whose values differ from old to new, but for
// the knobs in skip, as "key = old -> new": the decider's, then the
// owners' in key order.
func ChangedKeys(old, new Setting, skip []Param) []string {
	var out []string
	ov, nv := reflect.ValueOf(old.Thresholds), reflect.ValueOf(new.Thresholds)
	for i := range ov.NumField() {
		key := ov.Type().Field(i).Tag.Get("toml")
		if key == "" || slices.Contains(skip, Param(key)) || ov.Field(i).Equal(nv.Field(i)) {
			continue
		}
		out = append(out, fmt.Sprintf("%s = %v -> %v", key, ov.Field(i), nv.Field(i)))
	}
	keys := slices.Sorted(maps.Keys(old.Knobs))
	for _, key := range slices.Sorted(maps.Keys(new.Knobs)) {
		if !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
	}
	for _, key := range keys {
		if slices.Contains(skip, Param(key)) || old.Knobs[key] == new.Knobs[key] {
			continue
		}
		out = append(out, fmt.Sprintf("%s = %v -> %v", key, old.Knobs[key], new.Knobs[key]))
	}
	return out
}

// ErrNoSection means a thresholds file has no section for the device a
// sweep runs on.
var ErrNoSection = errors.New("no thresholds section for the device")

// LoadSection reads a thresholds file strictly (algorithms.LoadThresholds:
// sections, keys and values checked against the registry) and returns the
// setting of device ("" or "cpu" for [cpu]). Unlike ThresholdSet.For it
// does not fall back to [cpu]: a file without the device's own section
// was tuned for another device, and starting from it would be a silent
// mistake, so that is ErrNoSection naming the sections the file has.
func LoadSection(path, device string) (Setting, error) {
	return LoadSectionFor(path, device, "")
}

// LoadSectionFor is LoadSection for algorithm alg: it also needs the
// device's section, and returns the setting alg runs with on the device
// (SettingFor: its own section if the file has one).
func LoadSectionFor(path, device, alg string) (Setting, error) {
	set, err := algorithms.LoadThresholds(path)
	if err != nil {
		return Setting{}, err
	}
	text, err := smallfile.ReadFile(path, smallfile.Thresholds, "a thresholds file")
	if err != nil {
		return Setting{}, fmt.Errorf("thresholds: %w", err)
	}
	var found []string
	has := false
	for _, l := range strings.Split(string(text), "\n") {
		dev, a, _, ok := headerSection(l)
		if !ok {
			continue
		}
		found = append(found, SectionNameFor(dev, a))
		has = has || dev == lookupDevice(device) && a == ""
	}
	if !has {
		list := "none"
		if len(found) > 0 {
			list = strings.Join(found, ", ")
		}
		return Setting{}, fmt.Errorf("%s: %w: the backend's device needs %s, the file has %s (tune without --thresholds to start from the built-in defaults)",
			path, ErrNoSection, SectionName(device), list)
	}
	st, err := SettingFor(set, device, alg, decider.Thresholds{})
	if err != nil {
		return Setting{}, fmt.Errorf("%s: %w", path, err)
	}
	return st, nil
}
