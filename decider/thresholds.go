package decider

import (
	"errors"
	"fmt"
	"github.com/gearbox-graph/gearbox/internal/smallfile"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/gearbox-graph/gearbox"
)

// Thresholds parameterise the Adaptive policy (Li & Becchi, Fig. 11) and the
// direction rule: the decider's own axes. The keys of an algorithm's own
// parameters (SSSP's delta, CC's afforest_min_*) and of the backend
// (threads_per_block) sit in the same sections of a thresholds file, but
// the decider keeps them as Knobs for their owners to decode.
type Thresholds struct {
	// T1 is the average out-degree at or above which block mapping is
	// chosen for medium and large working sets.
	T1 float64 `toml:"T1"`
	// T2 is the working-set size below which block mapping and a queue
	// are chosen.
	T2 int64 `toml:"T2"`
	// T3 is the working-set size, as a fraction of the number of possible
	// elements (n for vertex-centric operators), at or above which a
	// bitmap is chosen.
	T3 float64 `toml:"T3"`
	// BitmapMinVertices is the smallest graph (in vertices) on which the
	// adaptive policy uses a bitmap. On smaller graphs every iteration is
	// bound by its fixed cost, and a bitmap only adds conversions and
	// forgoes the persistent launch that runs a queue's small tail levels.
	// 0 on the CPU.
	BitmapMinVertices int64 `toml:"bitmap_min_vertices"`
	// SampleEvery is the inspection period in iterations.
	SampleEvery int `toml:"sample_every"`
	// JumpFactor, when > 0, re-chooses the structure between samples
	// once the working set's size (a free by-product of generating it)
	// has grown or shrunk by this factor since the structure was chosen
	// (0: only at samples).
	JumpFactor float64 `toml:"jump_factor"`
	// Alpha and Beta are Beamer's direction-switch parameters: go to pull
	// when the frontier's out-edges exceed unexplored edges / Alpha, back
	// to push when the frontier holds fewer than n / Beta vertices.
	Alpha float64 `toml:"alpha"`
	Beta  float64 `toml:"beta"`
	// PullMinEdges is the fewest frontier out-edges for which push goes to
	// pull. Where an iteration has a fixed cost that covers the relaxation
	// of many edges (a GPU: tens of microseconds, about a million edges),
	// pull saves nothing on smaller frontiers, and it keeps the tail of the
	// traversal from running as one persistent launch. 0 on the CPU.
	PullMinEdges int64 `toml:"pull_min_edges"`
}

// DefaultThresholds returns the built-in CPU thresholds, the same values as
// the [cpu] section of the thresholds.toml shipped at the repository root.
func DefaultThresholds() Thresholds {
	return Thresholds{T1: 64, T2: 16, T3: 0.005, BitmapMinVertices: 4096, SampleEvery: 6, JumpFactor: 16, Alpha: 15, Beta: 18}
}

// ErrThresholds is wrapped by every thresholds-file error.
var ErrThresholds = errors.New("invalid thresholds")

// Validate checks every value's range; the error names the key.
func (t Thresholds) Validate() error {
	switch {
	// Finite throughout: no key gives infinity a meaning (a large value
	// already means never), and the renderer's +Inf would not read back.
	case !finitePos(t.T1):
		return fmt.Errorf("%w: T1 = %v, want a finite value > 0", ErrThresholds, t.T1)
	case t.T2 < 0:
		return fmt.Errorf("%w: T2 = %d, want >= 0", ErrThresholds, t.T2)
	case !(t.T3 > 0 && t.T3 <= 1):
		return fmt.Errorf("%w: T3 = %v, want a fraction of n in (0, 1]", ErrThresholds, t.T3)
	case t.SampleEvery < 1:
		return fmt.Errorf("%w: sample_every = %d, want >= 1", ErrThresholds, t.SampleEvery)
	case !finitePos(t.Alpha):
		return fmt.Errorf("%w: alpha = %v, want a finite value > 0", ErrThresholds, t.Alpha)
	case !finitePos(t.Beta):
		return fmt.Errorf("%w: beta = %v, want a finite value > 0", ErrThresholds, t.Beta)
	case t.BitmapMinVertices < 0:
		return fmt.Errorf("%w: bitmap_min_vertices = %d, want >= 0", ErrThresholds, t.BitmapMinVertices)
	case t.PullMinEdges < 0:
		return fmt.Errorf("%w: pull_min_edges = %d, want >= 0", ErrThresholds, t.PullMinEdges)
	case t.JumpFactor != 0 && !(t.JumpFactor > 1 && !math.IsInf(t.JumpFactor, 1)):
		return fmt.Errorf("%w: jump_factor = %v, want 0 (off) or a factor > 1", ErrThresholds, t.JumpFactor)
	}
	return nil
}

// finitePos reports whether x is a finite value > 0 (not NaN).
func finitePos(x float64) bool { return x > 0 && !math.IsInf(x, 1) }

// Knobs are the keys of one section that the decider does not own (an
// algorithm's parameters, the backend's block size), as the file gives
// them: int64 for a TOML integer, float64 for a float. Their owners decode
// them strictly (DecodeKnobs); algorithms.ParseThresholds checks that each
// key has an owner.
type Knobs map[string]any

// KnobLayers are the sections an owner's keys come from for one
// (device, algorithm) lookup, lowest first: a key of a later section
// overrides an earlier one's. CPU holds [cpu] and [cpu.<alg>], GPU (on a
// GPU only) [gpu."<device>"] and [gpu."<device>".<alg>]; an owner may
// reset keys between the two (SSSP's work-targeted buckets count per
// worker on the CPU, per device on a GPU).
type KnobLayers struct {
	CPU []Knobs
	GPU []Knobs
	// OnGPU reports whether the lookup was for a GPU.
	OnGPU bool
}

// All returns the layers in order.
func (l KnobLayers) All() []Knobs { return append(slices.Clip(l.CPU), l.GPU...) }

// DecodeKnobs decodes the layers into v, a pointer to a struct whose
// fields carry toml tags (int64, int, uint64 and float64 fields), over
// its current values: only the keys in keys (the owner's) are read, an
// integer is accepted for a float field, a float for an integer field is
// an error, and so is a negative value for an unsigned field. Errors name
// the key.
func DecodeKnobs(v any, layers ...Knobs) error {
	rv := reflect.ValueOf(v).Elem()
	rt := rv.Type()
	for _, k := range layers {
		for i := range rt.NumField() {
			key := rt.Field(i).Tag.Get("toml")
			raw, ok := k[key]
			if key == "" || !ok {
				continue
			}
			f := rv.Field(i)
			switch f.Kind() {
			case reflect.Float64:
				switch x := raw.(type) {
				case float64:
					f.SetFloat(x)
				case int64:
					f.SetFloat(float64(x))
				default:
					return fmt.Errorf("%s = %v, want a number", key, raw)
				}
			case reflect.Int, reflect.Int64:
				x, ok := raw.(int64)
				if !ok {
					return fmt.Errorf("%s = %v, want an integer", key, raw)
				}
				if f.OverflowInt(x) {
					return fmt.Errorf("%s = %d, out of range", key, x)
				}
				f.SetInt(x)
			case reflect.Uint64:
				x, ok := raw.(int64)
				if !ok || x < 0 {
					return fmt.Errorf("%s = %v, want an integer >= 0", key, raw)
				}
				f.SetUint(uint64(x))
			default:
				return fmt.Errorf("%s: field of kind %s cannot hold a thresholds value", key, f.Kind())
			}
		}
	}
	return nil
}

// KnobsOf returns the fields of v (a struct or a pointer to one, fields
// tagged as for DecodeKnobs) as Knobs, for rendering and WithKnobs.
func KnobsOf(v any) Knobs {
	rv := reflect.Indirect(reflect.ValueOf(v))
	rt := rv.Type()
	out := Knobs{}
	for i := range rt.NumField() {
		key := rt.Field(i).Tag.Get("toml")
		if key == "" {
			continue
		}
		f := rv.Field(i)
		switch f.Kind() {
		case reflect.Float64:
			out[key] = f.Float()
		case reflect.Int, reflect.Int64:
			out[key] = f.Int()
		case reflect.Uint64:
			out[key] = int64(f.Uint())
		}
	}
	return out
}

// KnobKeys returns the toml keys of v's fields (a struct or a pointer to
// one), in field order.
func KnobKeys(v any) []string {
	rt := reflect.Indirect(reflect.ValueOf(v)).Type()
	var keys []string
	for i := range rt.NumField() {
		if key := rt.Field(i).Tag.Get("toml"); key != "" {
			keys = append(keys, key)
		}
	}
	return keys
}

// ThresholdSet is the content of a thresholds file: a [cpu] section, one
// [gpu."<device name>"] section per tuned GPU, and per-algorithm sections
// ([cpu.bfs], [gpu."<device name>".sssp]) whose keys override their device
// section's values for that algorithm only (BFS and SSSP have different
// optima on one device). The decider does not know the algorithms: any
// name is kept, and algorithms.ParseThresholds checks the names, and each
// key's owner, against the registry.
type ThresholdSet struct {
	CPU Thresholds
	GPU map[string]Thresholds
	// CPUAlg and GPUAlg hold the per-algorithm sections, keyed by
	// algorithm (the name runtime.NewConfigFor is given), GPUAlg first by
	// device. Their values
	// are complete: keys a section leaves out have its device section's.
	CPUAlg map[string]Thresholds
	GPUAlg map[string]map[string]Thresholds
	// Knobs holds each section's keys the decider does not own, by
	// section header (SectionName), as written: not layered (KnobsFor
	// gives the layers of a lookup).
	Knobs map[string]Knobs
}

// DefaultThresholdSet returns the built-in set: the repository's
// thresholds.toml, embedded (its [cpu] section and any tuned GPU and
// per-algorithm sections).
func DefaultThresholdSet() *ThresholdSet {
	embeddedOnce.Do(func() { embedded, embeddedErr = ParseThresholds(gearbox.ThresholdsTOML) })
	if embeddedErr != nil {
		// Unreachable in a released build: TestEmbeddedThresholds parses
		// the embedded file.
		return newThresholdSet(DefaultThresholds())
	}
	return embedded.clone()
}

var (
	embeddedOnce sync.Once
	embedded     *ThresholdSet
	embeddedErr  error
)

func newThresholdSet(cpu Thresholds) *ThresholdSet {
	return &ThresholdSet{CPU: cpu, GPU: map[string]Thresholds{}, CPUAlg: map[string]Thresholds{}, GPUAlg: map[string]map[string]Thresholds{}, Knobs: map[string]Knobs{}}
}

// clone copies the set, so callers may change their copy of the embedded one.
func (s *ThresholdSet) clone() *ThresholdSet {
	c := newThresholdSet(s.CPU)
	maps.Copy(c.GPU, s.GPU)
	maps.Copy(c.CPUAlg, s.CPUAlg)
	for dev, algs := range s.GPUAlg {
		c.GPUAlg[dev] = maps.Clone(algs)
	}
	for sec, k := range s.Knobs {
		c.Knobs[sec] = maps.Clone(k)
	}
	return c
}

// Lookup returns the section for a device ("" or "cpu" for the CPU) and
// whether the set has one; a GPU without a section should use its
// device-derived defaults rather than the CPU's.
func (s *ThresholdSet) Lookup(device string) (Thresholds, bool) {
	if device == "" || device == "cpu" {
		return s.CPU, true
	}
	t, ok := s.GPU[device]
	return t, ok
}

// LookupFor returns the thresholds of algorithm alg on a device: its
// per-algorithm section if the set has one, else Lookup(device).
func (s *ThresholdSet) LookupFor(device, alg string) (Thresholds, bool) {
	if device == "" || device == "cpu" {
		if t, ok := s.CPUAlg[alg]; ok {
			return t, true
		}
	} else if t, ok := s.GPUAlg[device][alg]; ok {
		return t, true
	}
	return s.Lookup(device)
}

// KnobsFor returns the layers of the keys the decider does not own for
// algorithm alg on a device, and whether the set has a section for the
// device (a GPU without one should use its owners' device-derived
// defaults). Unlike the decider's keys, [cpu.<alg>] is a layer of a GPU's
// lookup too: an algorithm's keys live in its own section, and a GPU's
// sections build on it as they build on [cpu].
func (s *ThresholdSet) KnobsFor(device, alg string) (KnobLayers, bool) {
	var l KnobLayers
	add := func(to *[]Knobs, dev, a string) {
		if k, ok := s.Knobs[SectionName(dev, a)]; ok {
			*to = append(*to, k)
		}
	}
	add(&l.CPU, "", "")
	if alg != "" {
		add(&l.CPU, "", alg)
	}
	if device == "" || device == "cpu" {
		return l, true
	}
	l.OnGPU = true
	if _, ok := s.GPU[device]; !ok {
		return KnobLayers{OnGPU: true}, false
	}
	add(&l.GPU, device, "")
	if alg != "" {
		add(&l.GPU, device, alg)
	}
	return l, true
}

// For returns the thresholds for a device: the GPU section named exactly
// device if there is one, else the CPU section. Device "" or "cpu" means
// the CPU.
func (s *ThresholdSet) For(device string) Thresholds {
	if t, ok := s.GPU[device]; ok && device != "" {
		return t
	}
	return s.CPU
}

// ForAlgorithm is For for one algorithm: the device's thresholds for alg
// (LookupFor) if the set has a section for the device, else the CPU's.
func (s *ThresholdSet) ForAlgorithm(device, alg string) Thresholds {
	if t, ok := s.LookupFor(device, alg); ok {
		return t
	}
	t, _ := s.LookupFor("", alg)
	return t
}

// LoadThresholds reads a thresholds file. Keys missing from the [cpu]
// section keep the built-in defaults, keys missing from a GPU section the
// [cpu] section's; wrong types and out-of-range values of the decider's
// keys are errors naming the file and key. Other keys are kept as Knobs
// (algorithms.LoadThresholds checks their owners).
func LoadThresholds(path string) (*ThresholdSet, error) {
	b, err := smallfile.ReadFile(path, smallfile.Thresholds, "a thresholds file")
	if err != nil {
		return nil, fmt.Errorf("thresholds: %w", err)
	}
	s, err := ParseThresholds(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ParseThresholds decodes thresholds TOML text (see LoadThresholds).
func ParseThresholds(text string) (*ThresholdSet, error) {
	var raw struct {
		CPU toml.Primitive            `toml:"cpu"`
		GPU map[string]toml.Primitive `toml:"gpu"`
	}
	md, err := toml.Decode(text, &raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrThresholds, err)
	}
	if err := checkAlgSections(&md); err != nil {
		return nil, err
	}
	// A file stands alone: keys it leaves out take the built-in CPU values.
	s := newThresholdSet(DefaultThresholds())
	if md.IsDefined("cpu") {
		t, algs, err := s.decodeDevice(&md, raw.CPU, s.CPU, "")
		if err != nil {
			return nil, err
		}
		s.CPU, s.CPUAlg = t, algs
	}
	names := make([]string, 0, len(raw.GPU))
	for name := range raw.GPU {
		names = append(names, name)
	}
	sort.Strings(names)
	// A GPU section's missing keys take the [cpu] section's values.
	for _, name := range names {
		t, algs, err := s.decodeDevice(&md, raw.GPU[name], s.CPU, name)
		if err != nil {
			return nil, err
		}
		s.GPU[name] = t
		if len(algs) > 0 {
			s.GPUAlg[name] = algs
		}
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("%w: unknown key %s (sections: [cpu], [gpu.\"<device>\"], and per algorithm [cpu.<alg>], [gpu.\"<device>\".<alg>])",
			ErrThresholds, strings.Join(keys, ", "))
	}
	check := func(dev, alg string, t Thresholds) error {
		if err := t.Validate(); err != nil {
			return fmt.Errorf("%s: %w", SectionName(dev, alg), err)
		}
		return nil
	}
	if err := check("", "", s.CPU); err != nil {
		return nil, err
	}
	for _, alg := range slices.Sorted(maps.Keys(s.CPUAlg)) {
		if err := check("", alg, s.CPUAlg[alg]); err != nil {
			return nil, err
		}
	}
	for _, name := range names {
		if err := check(name, "", s.GPU[name]); err != nil {
			return nil, err
		}
		for _, alg := range slices.Sorted(maps.Keys(s.GPUAlg[name])) {
			if err := check(name, alg, s.GPUAlg[name][alg]); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// DeciderKeys lists the keys the decider owns (Thresholds' fields).
func DeciderKeys() []string { return KnobKeys(section{}) }

// SectionName is the header of a section: [cpu] (device "" or "cpu"),
// [gpu."<device>"], or with alg, [cpu.<alg>] or [gpu."<device>".<alg>].
func SectionName(device, alg string) string {
	name := "cpu"
	if device != "" && device != "cpu" {
		name = "gpu." + strconv.Quote(device)
	}
	if alg != "" {
		name += "." + alg
	}
	return "[" + name + "]"
}

// checkAlgSections checks the tables within device sections before any is
// decoded: each must be one table deep (its name a bare key), and a GPU's
// needs the device's own section. Without one, [gpu."X".bfs] would build on the [cpu]
// values rather than the device-derived defaults the GPU runs with when it
// has no section, silently. (TOML defines gpu."X" implicitly by
// [gpu."X".bfs]; the metadata's keys hold only tables with a header of
// their own, and keys.)
func checkAlgSections(md *toml.MetaData) error {
	own := map[string]bool{} // GPUs with a section of their own
	type sub struct{ dev, alg string }
	var subs []sub
	for _, k := range md.Keys() {
		var dev, alg string
		switch {
		case len(k) == 2 && k[0] == "gpu":
			own[k[1]] = true
			continue
		case len(k) == 3 && k[0] == "gpu" && md.Type(k...) != "Hash":
			own[k[1]] = true // a key of the device section
			continue
		case len(k) >= 2 && k[0] == "cpu" && (len(k) > 2 || md.Type(k...) == "Hash"):
			alg = k[1]
		case len(k) >= 3 && k[0] == "gpu":
			dev, alg = k[1], k[2]
		default:
			continue
		}
		if !ValidAlgName(alg) {
			return fmt.Errorf("%w: %s: %q is not an algorithm's name (lower-case letters, digits and _)", ErrThresholds, SectionName(dev, alg), alg)
		}
		if dev != "" {
			subs = append(subs, sub{dev, alg})
		}
	}
	for _, s := range subs {
		if !own[s.dev] {
			return fmt.Errorf("%w: %s needs a %s section: its keys override the device section's values (without one, they would build on [cpu] instead of the device-derived defaults)",
				ErrThresholds, SectionName(s.dev, s.alg), SectionName(s.dev, ""))
		}
	}
	return nil
}

// ValidAlgName reports whether name can be an algorithm's section:
// lower-case letters, digits and _, a bare TOML key (algorithms.Register
// requires it of names).
func ValidAlgName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// algSections returns the primitives of the per-algorithm tables of the
// device section at key, by algorithm. They are decoded through a struct
// with one Primitive field per table, so that the device section's other
// keys stay undecoded until section claims them (an unknown key stays an
// error).
func algSections(md *toml.MetaData, p toml.Primitive, key []string) (map[string]toml.Primitive, error) {
	var algs []string
	for _, k := range md.Keys() {
		if len(k) == len(key)+1 && slices.Equal(k[:len(key)], key) && md.Type(k...) == "Hash" {
			algs = append(algs, k[len(key)])
		}
	}
	if len(algs) == 0 {
		return nil, nil
	}
	fields := make([]reflect.StructField, len(algs))
	for i, alg := range algs {
		fields[i] = reflect.StructField{Name: fmt.Sprintf("A%d", i), Type: reflect.TypeFor[toml.Primitive](), Tag: reflect.StructTag(`toml:"` + alg + `"`)}
	}
	v := reflect.New(reflect.StructOf(fields))
	if err := md.PrimitiveDecode(p, v.Interface()); err != nil {
		return nil, err
	}
	out := make(map[string]toml.Primitive, len(algs))
	for i, alg := range algs {
		out[alg] = v.Elem().Field(i).Interface().(toml.Primitive)
	}
	return out, nil
}

// decodeDevice decodes a device's section over base, and its per-algorithm
// sections over the result; the keys the decider does not own go to
// s.Knobs. Errors name the section.
func (s *ThresholdSet) decodeDevice(md *toml.MetaData, p toml.Primitive, base Thresholds, device string) (Thresholds, map[string]Thresholds, error) {
	t, err := s.decodeSection(md, p, base, device, "")
	if err != nil {
		return base, nil, err
	}
	algs := map[string]Thresholds{}
	key := []string{"cpu"}
	if device != "" {
		key = []string{"gpu", device}
	}
	prims, err := algSections(md, p, key)
	if err != nil {
		return base, nil, fmt.Errorf("%w: %s: %v", ErrThresholds, SectionName(device, ""), err)
	}
	for _, alg := range slices.Sorted(maps.Keys(prims)) {
		a, err := s.decodeSection(md, prims[alg], t, device, alg)
		if err != nil {
			return base, nil, err
		}
		algs[alg] = a
	}
	return t, algs, nil
}

// section mirrors Thresholds with signed integers, so a negative value is
// reported instead of wrapping around in an unsigned field.
type section struct {
	T1          float64 `toml:"T1"`
	T2          int64   `toml:"T2"`
	T3          float64 `toml:"T3"`
	BitmapMinV  int64   `toml:"bitmap_min_vertices"`
	SampleEvery int64   `toml:"sample_every"`
	Jump        float64 `toml:"jump_factor"`
	Alpha       float64 `toml:"alpha"`
	Beta        float64 `toml:"beta"`
	PullMin     int64   `toml:"pull_min_edges"`
}

// sectionOf returns t's values as a section.
func sectionOf(t Thresholds) section {
	return section{T1: t.T1, T2: t.T2, T3: t.T3, BitmapMinV: t.BitmapMinVertices, SampleEvery: int64(t.SampleEvery), Jump: t.JumpFactor,
		Alpha: t.Alpha, Beta: t.Beta, PullMin: t.PullMinEdges}
}

// thresholds converts a decoded section, checking the values that do not
// fit Thresholds' types.
func (s section) thresholds() (Thresholds, error) {
	if s.SampleEvery < 1 || s.SampleEvery > 1<<30 {
		return Thresholds{}, fmt.Errorf("sample_every = %d, want 1..%d", s.SampleEvery, 1<<30)
	}
	return Thresholds{T1: s.T1, T2: s.T2, T3: s.T3, BitmapMinVertices: s.BitmapMinV, SampleEvery: int(s.SampleEvery), JumpFactor: s.Jump,
		Alpha: s.Alpha, Beta: s.Beta, PullMinEdges: s.PullMin}, nil
}

// decodeSection decodes one section over the values of base, and keeps
// its other scalar keys as the section's Knobs.
func (s *ThresholdSet) decodeSection(md *toml.MetaData, p toml.Primitive, base Thresholds, device, alg string) (Thresholds, error) {
	name := SectionName(device, alg)
	d := sectionOf(base)
	if err := md.PrimitiveDecode(p, &d); err != nil {
		return base, fmt.Errorf("%w: %s: %v", ErrThresholds, name, err)
	}
	t, err := d.thresholds()
	if err != nil {
		return base, fmt.Errorf("%w: %s: %v", ErrThresholds, name, err)
	}
	var all map[string]any
	if err := md.PrimitiveDecode(p, &all); err != nil {
		return base, fmt.Errorf("%w: %s: %v", ErrThresholds, name, err)
	}
	own := DeciderKeys()
	k := Knobs{}
	for key, v := range all {
		if slices.Contains(own, key) {
			continue
		}
		switch v.(type) {
		case int64, float64:
			k[key] = v
		case map[string]any: // a per-algorithm section, decoded on its own
		default:
			return base, fmt.Errorf("%w: %s: %s = %v, want a number", ErrThresholds, name, key, v)
		}
	}
	if len(k) > 0 {
		s.Knobs[name] = k
	}
	return t, nil
}
