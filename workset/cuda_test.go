//go:build cuda

package workset_test

// GPU tests of the working-set kernels in isolation. They skip when no CUDA driver or GPU is present.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/workset"
)

// ctrl is the runtime's mirror of struct Ctrl (kernels/common.cuh).
type ctrl = workset.CUDACtrlForTest

// deviceSlices uploads and allocates one test step's device slices: after
// a failure the later calls do nothing and err keeps the first error;
// Free frees them all.
type deviceSlices struct {
	d    *gpu.Dev
	err  error
	free []func()
}

func upload[T any](s *deviceSlices, host []T) gpu.DeviceSlice[T] {
	return keep(s, func() (gpu.DeviceSlice[T], error) { return gpu.UploadSlice(s.d, host) })
}

func alloc[T any](s *deviceSlices, n int) gpu.DeviceSlice[T] {
	return keep(s, func() (gpu.DeviceSlice[T], error) { return gpu.AllocSlice[T](s.d, n) })
}

func keep[T any](s *deviceSlices, get func() (gpu.DeviceSlice[T], error)) gpu.DeviceSlice[T] {
	var x gpu.DeviceSlice[T]
	if s.err != nil {
		return x
	}
	if x, s.err = get(); s.err == nil {
		s.free = append(s.free, func() { x.Free(s.d) })
	}
	return x
}

// Free frees the slices, the last allocated first.
func (s *deviceSlices) Free() {
	for i := len(s.free) - 1; i >= 0; i-- {
		s.free[i]()
	}
}

// findMin launches sssp_findmin over dist, of uint32 values when d32, else
// of uint64 ones.
func findMin(d *gpu.Dev, d32 bool, grid int, dist gpu.DevicePointer, upd kernels.DevPtr[uint8], n uint32, c kernels.DevPtr[kernels.Ctrl]) error {
	if d32 {
		return kernels.LaunchSSSPFindminU32(d, grid, 256, kernels.PtrAt[uint32](dist.DevicePtr()), upd, n, c)
	}
	return kernels.LaunchSSSPFindminU64(d, grid, 256, kernels.PtrAt[uint64](dist.DevicePtr()), upd, n, c)
}

// TestCUDABucketKernel checks sssp_bucket's bound (after findmin) against
// the host: the end of the first bin of width unit, counted from the
// minimum's bin, at which the updated vertices' out-degrees reach the
// target; the end of bin BucketBins-2 when only the far bin reaches it;
// every vertex (MaxUint64) when none does. Its
// histogram must be zero again after each launch (it runs twice per case).
func TestCUDABucketKernel(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	r := rand.New(rand.NewPCG(3, 4))
	const n = 20011
	upd := make([]uint8, (n+15)&^15)
	dist := make([]uint64, n)
	dist32 := make([]uint32, n)
	off := make([]int64, n+1)
	var total uint64
	for v := 0; v < n; v++ {
		if r.IntN(4) == 0 {
			upd[v] = 1
		}
		dist[v] = 1000 + uint64(r.IntN(5000))
		dist32[v] = uint32(dist[v])
		off[v+1] = off[v] + int64(r.IntN(9))
		if upd[v] == 1 {
			total += uint64(off[v+1] - off[v])
		}
	}
	want := func(unit, target uint64) uint64 {
		m := uint64(math.MaxUint64)
		for v := 0; v < n; v++ {
			if upd[v] == 1 {
				m = min(m, dist[v])
			}
		}
		lo := m - m%unit
		var hist [kernels.BucketBins]uint64
		for v := 0; v < n; v++ {
			if upd[v] == 1 {
				hist[min((dist[v]-lo)/unit, kernels.BucketBins-1)] += uint64(off[v+1] - off[v])
			}
		}
		var sum uint64
		for i, h := range hist {
			sum += h
			if sum >= target {
				bins := uint64(min(i+1, kernels.BucketBins-1))
				if unit > (math.MaxUint64-lo)/bins {
					return math.MaxUint64
				}
				return lo + unit*bins - 1
			}
		}
		return math.MaxUint64
	}
	for _, tc := range []struct {
		d32          bool
		unit, target uint64
	}{
		{false, 7, 0}, {true, 7, 0}, // the minimum's bin
		{false, 7, 5000}, {true, 3, 20000}, // some bins
		{false, 1, total / 2},  // reached in the far bin: bin 62's end
		{true, 50, total},      // all of it: bin 62's end again
		{false, 50, total + 1}, // never: every vertex
		{false, 1 << 62, 1},    // one huge bin
	} {
		name := fmt.Sprintf("d32=%v/unit=%d/target=%d", tc.d32, tc.unit, tc.target)
		var h [1]ctrl
		var hist []uint64
		err := c.Do(func(d *gpu.Dev) error {
			ds := &deviceSlices{d: d}
			defer ds.Free()
			dUpd := upload(ds, upd)
			var dist gpu.DevicePointer
			if tc.d32 {
				dist = upload(ds, dist32)
			} else {
				dist = upload(ds, dist64(dist32))
			}
			dOff := upload(ds, off)
			dHist := upload(ds, make([]uint64, kernels.BucketBins+1))
			dCtrl := upload(ds, []ctrl{{MinV: math.MaxUint64}})
			if ds.err != nil {
				return ds.err
			}
			for range 2 {
				if err := dCtrl.Write(d, 0, []ctrl{{MinV: math.MaxUint64}}); err != nil {
					return err
				}
				if err := findMin(d, tc.d32, d.Grid(n, 256), dist, dUpd.Ptr(), uint32(n), dCtrl.Ptr()); err != nil {
					return err
				}
				var err error
				if tc.d32 {
					err = kernels.LaunchSSSPBucketU32(d, d.Grid(n, 256), 256, kernels.PtrAt[uint32](dist.DevicePtr()), dUpd.Ptr(), uint32(n), dOff.Ptr(), dCtrl.Ptr(), dHist.Ptr(), tc.unit, tc.target)
				} else {
					err = kernels.LaunchSSSPBucketU64(d, d.Grid(n, 256), 256, kernels.PtrAt[uint64](dist.DevicePtr()), dUpd.Ptr(), uint32(n), dOff.Ptr(), dCtrl.Ptr(), dHist.Ptr(), tc.unit, tc.target)
				}
				if err != nil {
					return err
				}
				if err := dCtrl.Read(d, 0, h[:]); err != nil {
					return err
				}
				if w := want(tc.unit, tc.target); h[0].MinV != w {
					return fmt.Errorf("bound %d, want %d", h[0].MinV, w)
				}
			}
			hist = make([]uint64, kernels.BucketBins+1)
			return dHist.Read(d, 0, hist)
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if slices.ContainsFunc(hist, func(x uint64) bool { return x != 0 }) {
			t.Fatalf("%s: histogram not cleared: %v", name, hist)
		}
	}
}

// dist64 widens 32-bit distances.
func dist64(d []uint32) []uint64 {
	out := make([]uint64, len(d))
	for i, x := range d {
		out[i] = uint64(x)
	}
	return out
}

func TestCtrlLayout(t *testing.T) {
	if unsafe.Sizeof(ctrl{}) != 72 || unsafe.Offsetof(ctrl{}.Deg) != 16 || unsafe.Offsetof(ctrl{}.MinV) != 32 ||
		unsafe.Offsetof(ctrl{}.Pieces) != 56 || unsafe.Offsetof(ctrl{}.LocalLevels) != 64 || unsafe.Offsetof(ctrl{}.PullLevels) != 68 {
		t.Fatal("ctrl layout does not match kernels/common.cuh")
	}
}

// genCase is one generation kernel run on random input.
type genCase struct {
	out, sel string
	d32      bool   // uint32 distances
	delta    uint64 // bucket width
	cap      uint32 // OutDual: the queue's capacity (0: n)
}

func TestCUDAGenerationKernels(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	r := rand.New(rand.NewPCG(1, 2))
	const n = 10007                  // not a multiple of 32
	upd := make([]uint8, (n+15)&^15) // padded like the workset's update vector
	dist := make([]uint64, n)
	dist32 := make([]uint32, n)
	off := make([]int64, n+1)
	for v := 0; v < n; v++ {
		if r.IntN(10) < 3 {
			upd[v] = 1
		}
		dist[v] = uint64(r.IntN(1000)) + 50
		dist32[v] = uint32(r.IntN(100000)) + 3
		off[v+1] = off[v] + int64(r.IntN(6))
	}
	var cases []genCase
	for _, out := range []string{kernels.OutBitmap, kernels.OutQueueAtomic, kernels.OutQueueWarp} {
		cases = append(cases,
			genCase{out, kernels.SelectAll, false, 0, 0},
			genCase{out, kernels.SelectMin, false, 0, 0},
			genCase{out, kernels.SelectDelta, false, 7, 0},
			genCase{out, kernels.SelectDelta, false, 1 << 40, 0},
			genCase{out, kernels.SelectMin, true, 0, 0},
			genCase{out, kernels.SelectDelta, true, 700, 0},
			genCase{out, kernels.SelectDelta, true, 1 << 40, 0},
		)
	}
	// The dual generation with its queue whole and cut off (a few hundred
	// of ~3000 selected) by the cap.
	for _, qc := range []uint32{0, 200} {
		cases = append(cases,
			genCase{kernels.OutDual, kernels.SelectAll, false, 0, qc},
			genCase{kernels.OutDual, kernels.SelectMin, false, 0, qc},
			genCase{kernels.OutDual, kernels.SelectDelta, false, 7, qc},
			genCase{kernels.OutDual, kernels.SelectDelta, true, 700, qc},
		)
	}
	for _, gc := range cases {
		name := string(kernels.GenOf(gc.out, gc.sel, gc.d32))
		if gc.out == kernels.OutDual {
			name = string(kernels.GenDualOf(gc.sel, gc.d32))
		}
		// Expected selection, computed on the host.
		m := uint64(math.MaxUint64)
		for v := 0; v < n; v++ {
			if upd[v] == 1 {
				d := dist[v]
				if gc.d32 {
					d = uint64(dist32[v])
				}
				m = min(m, d)
			}
		}
		sel := func(v int) bool {
			if upd[v] == 0 {
				return false
			}
			d := dist[v]
			if gc.d32 {
				d = uint64(dist32[v])
			}
			switch gc.sel {
			case kernels.SelectAll:
				return true
			case kernels.SelectMin:
				return d <= m
			}
			if d <= m {
				return true
			}
			lo := m - m%gc.delta
			end := lo + gc.delta - 1
			if end < lo {
				end = math.MaxUint64
			}
			return d <= end
		}
		var want []uint32
		var wantDeg uint64
		for v := 0; v < n; v++ {
			if sel(v) {
				want = append(want, uint32(v))
				wantDeg += uint64(off[v+1] - off[v])
			}
		}
		qcap := uint32(n)
		if gc.cap > 0 {
			qcap = gc.cap
		}
		var gotUpd []uint8
		var gotOut, gotAlt []uint32
		var h [1]ctrl
		err := c.Do(func(d *gpu.Dev) error {
			ds := &deviceSlices{d: d}
			defer ds.Free()
			dUpd := upload(ds, upd)
			dDist := upload(ds, dist)
			dF := upload(ds, dist32)
			dOff := upload(ds, off)
			dOut := alloc[uint32](ds, n)
			dCtrl := upload(ds, []ctrl{{MinV: math.MaxUint64, Count: [2]uint32{7, 0}}})
			if ds.err != nil {
				return ds.err
			}
			var distArg gpu.DevicePointer = dDist
			if gc.d32 {
				distArg = dF
			}
			if gc.sel != kernels.SelectAll {
				if err := findMin(d, gc.d32, d.Grid(n, 256), distArg, dUpd.Ptr(), uint32(n), dCtrl.Ptr()); err != nil {
					return err
				}
			}
			if gc.out == kernels.OutDual {
				// A sentinel shows what the cap kept unwritten.
				alt := make([]uint32, n)
				for i := range alt {
					alt[i] = math.MaxUint32
				}
				dAlt, err := gpu.UploadSlice(d, alt)
				if err != nil {
					return err
				}
				defer dAlt.Free(d)
				if err := kernels.LaunchWSGenDual(d, kernels.GenDualOf(gc.sel, gc.d32), d.Grid(n, 256), 256, dUpd.Ptr(), uint32(n), kernels.PtrAt[byte](distArg.DevicePtr()).Void(), dOff.Ptr(), gc.delta, dOut.Ptr(), dCtrl.Ptr(), uint32(0), dAlt.Ptr(), qcap); err != nil {
					return err
				}
				gotAlt = make([]uint32, n)
				if err := dAlt.Read(d, 0, gotAlt); err != nil {
					return err
				}
			} else if err := kernels.LaunchWSGen(d, kernels.GenOf(gc.out, gc.sel, gc.d32), d.Grid(n, 256), 256, dUpd.Ptr(), uint32(n), kernels.PtrAt[byte](distArg.DevicePtr()).Void(), dOff.Ptr(), gc.delta, dOut.Ptr(), dCtrl.Ptr(), uint32(0)); err != nil {
				return err
			}
			gotUpd = make([]uint8, n)
			gotOut = make([]uint32, n)
			if err := dUpd.Read(d, 0, gotUpd); err != nil {
				return err
			}
			if err := dOut.Read(d, 0, gotOut); err != nil {
				return err
			}
			return dCtrl.Read(d, 0, h[:])
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if gc.sel != kernels.SelectAll && h[0].MinV != m {
			t.Errorf("%s: findmin %d, want %d", name, h[0].MinV, m)
		}
		if int(h[0].Count[1]) != len(want) || h[0].Deg[1] != wantDeg || h[0].Count[0] != 7 {
			t.Fatalf("%s: count %d deg %d (slot 0 %d), want %d and %d (slot 0 untouched)", name, h[0].Count[1], h[0].Deg[1], h[0].Count[0], len(want), wantDeg)
		}
		if gc.out == kernels.OutBitmap || gc.out == kernels.OutDual {
			words := make([]uint32, (n+31)/32)
			for _, v := range want {
				words[v/32] |= 1 << (v % 32)
			}
			if !slices.Equal(gotOut[:len(words)], words) {
				t.Fatalf("%s: bitmap differs", name)
			}
		}
		if gc.out == kernels.OutDual {
			kept := min(len(want), int(qcap))
			if int(qcap) < len(want) && (len(want) < 2*int(qcap) || kept != int(qcap)) {
				t.Fatalf("%s: test set-up: %d selected, cap %d", name, len(want), qcap)
			}
			q := slices.Clone(gotAlt[:kept])
			slices.Sort(q)
			if len(slices.Compact(slices.Clone(q))) != kept {
				t.Fatalf("%s: queue holds duplicates", name)
			}
			for _, v := range q {
				if _, ok := slices.BinarySearch(want, v); !ok {
					t.Fatalf("%s: queue holds %d, not selected", name, v)
				}
			}
			if kept == len(want) && !slices.Equal(q, want) {
				t.Fatalf("%s: queue differs", name)
			}
			for i := kept; i < n; i++ {
				if gotAlt[i] != math.MaxUint32 {
					t.Fatalf("%s: queue entry %d written beyond the cap %d", name, i, qcap)
				}
			}
		} else if gc.out != kernels.OutBitmap {
			q := slices.Clone(gotOut[:len(want)])
			slices.Sort(q)
			if !slices.Equal(q, want) {
				t.Fatalf("%s: queue holds other vertices", name)
			}
		}
		for v := 0; v < n; v++ {
			wantU := upd[v]
			if sel(v) {
				wantU = 0
			}
			if gotUpd[v] != wantU {
				t.Fatalf("%s: update flag of %d is %d, want %d", name, v, gotUpd[v], wantU)
			}
		}
	}
}

func TestCUDAConversionKernels(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 31, 32, 33, 100000} {
		words := make([]uint32, (n+31)/32)
		var set []uint32
		for v := 0; v < n; v++ {
			if r.IntN(4) == 0 || v == n-1 {
				words[v/32] |= 1 << (v % 32)
				set = append(set, uint32(v))
			}
		}
		var q []uint32
		var bm []uint32
		var h [1]ctrl
		err := c.Do(func(d *gpu.Dev) error {
			ds := &deviceSlices{d: d}
			defer ds.Free()
			dBm := upload(ds, words)
			dQ := alloc[uint32](ds, n)
			dBm2 := alloc[uint32](ds, len(words))
			dCtrl := upload(ds, []ctrl{{Count: [2]uint32{99, 0}}})
			if ds.err != nil {
				return ds.err
			}
			// bitmap -> queue counts into slot 1, queue -> bitmap reads it.
			if err := kernels.LaunchWSBmToQu(d, d.Grid(int64(len(words)), 256), 256, dBm.Ptr(), uint32(len(words)), dQ.Ptr(), dCtrl.Ptr(), uint32(1)); err != nil {
				return err
			}
			if err := d.Memset32(dBm2, 0, 0, int64(len(words))); err != nil {
				return err
			}
			if err := kernels.LaunchWSQuToBm(d, d.Grid(int64(n), 256), 256, dQ.Ptr(), dCtrl.Ptr(), uint32(1), dBm2.Ptr()); err != nil {
				return err
			}
			if err := dCtrl.Read(d, 0, h[:]); err != nil {
				return err
			}
			q = make([]uint32, h[0].Count[1])
			if err := dQ.Read(d, 0, q); err != nil {
				return err
			}
			bm = make([]uint32, len(words))
			return dBm2.Read(d, 0, bm)
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(q)
		if !slices.Equal(q, set) || h[0].Count[0] != 99 {
			t.Fatalf("n=%d: bitmap->queue gave %d ids (want %d), slot 0 %d", n, len(q), len(set), h[0].Count[0])
		}
		if !slices.Equal(bm, words) {
			t.Fatalf("n=%d: queue->bitmap differs", n)
		}
	}
}

// TestCUDAWorksetDual checks that a dual generation leaves both
// representations, so that converting launches nothing, and that a bitmap
// too large for its queue's cap, or a generation that SetDualFrom left
// single, still converts with the kernel.
func TestCUDAWorksetDual(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	const n = 4099
	off := make([]int64, n+1)
	for v := range n {
		off[v+1] = off[v] + int64(v%5)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		name  string
		rep   decider.Rep
		every int   // one vertex in every selected
		from  int64 // SetDualFrom
		free  bool
	}{
		{"queue", decider.Queue, 3, 0, true},
		{"queue-below-from", decider.Queue, 3, 1, false},          // the start vertex's degree is 0
		{"queue-never", decider.Queue, 3, math.MaxInt64, false},   // a static policy
		{"bitmap-under-cap", decider.Bitmap, 7, 0, true},          // n/7 < n/4
		{"bitmap-over-cap", decider.Bitmap, 2, 0, false},          // n/2 > n/4
		{"bitmap-never", decider.Bitmap, 7, math.MaxInt64, false}, // a static policy
	} {
		upd := make([]uint8, n)
		var want []uint32
		for v := range n {
			if r.IntN(tc.every) == 0 {
				upd[v] = 1
				want = append(want, uint32(v))
			}
		}
		words := make([]uint32, (n+31)/32)
		for _, v := range want {
			words[v/32] |= 1 << (v % 32)
		}
		other := decider.Bitmap
		if tc.rep == decider.Bitmap {
			other = decider.Queue
		}
		err := c.Do(func(d *gpu.Dev) error {
			dOff, err := gpu.UploadSlice(d, off)
			if err != nil {
				return err
			}
			defer dOff.Free(d)
			w, err := workset.NewCUDA(d, n, off[n])
			if err != nil {
				return err
			}
			defer w.Free(d)
			w.SetDualFrom(tc.from)
			if err := w.StartSingle(d, 0, 0, tc.rep); err != nil {
				return err
			}
			if err := w.Update().Write(d, 0, upd); err != nil {
				return err
			}
			if err := w.Generate(d, dOff.Ptr(), tc.rep, workset.Select{Mode: kernels.SelectAll}); err != nil {
				return err
			}
			if w.Size() != int64(len(want)) {
				return fmt.Errorf("size %d, want %d", w.Size(), len(want))
			}
			check := func(rep decider.Rep) error {
				if rep == decider.Bitmap {
					got := make([]uint32, len(words))
					if err := w.Current().Read(d, 0, got); err != nil {
						return err
					}
					if !slices.Equal(got, words) {
						return fmt.Errorf("bitmap differs")
					}
					return nil
				}
				got := make([]uint32, len(want))
				if err := w.Current().Read(d, 0, got); err != nil {
					return err
				}
				slices.Sort(got)
				if !slices.Equal(got, want) {
					return fmt.Errorf("queue differs")
				}
				return nil
			}
			if err := check(tc.rep); err != nil {
				return fmt.Errorf("generated: %w", err)
			}
			for i, rep := range []decider.Rep{other, tc.rep, other} {
				l0 := d.Launches()
				if err := w.Convert(d, rep); err != nil {
					return err
				}
				if launched := d.Launches() - l0; tc.free && launched != 0 || !tc.free && i == 0 && launched == 0 {
					return fmt.Errorf("conversion %d to %v launched %d kernels (free: %v)", i, rep, launched, tc.free)
				}
				if err := check(rep); err != nil {
					return fmt.Errorf("conversion %d to %v: %w", i, rep, err)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
	}
}

// BenchmarkCUDAOverhead measures the fixed costs of one iteration's parts:
// an empty Do (lock, thread and current context), a launch plus synchronisation, the
// control block's read (page-locked or pageable), a generation pass over
// 4M vertices, and an allocation.
func BenchmarkCUDAOverhead(b *testing.B) {
	const n = 1 << 22
	b.Run("op=do-empty", func(b *testing.B) {
		c := testgraphs.OpenCUDA(b)
		b.ResetTimer() // not the context's creation
		for i := 0; i < b.N; i++ {
			if err := c.Do(func(*gpu.Dev) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
	c := testgraphs.OpenCUDA(b)
	var (
		upd  gpu.DeviceSlice[uint8]
		off  gpu.DeviceSlice[int64]
		out  gpu.DeviceSlice[uint32]
		dc   gpu.DeviceSlice[ctrl]
		pin  unsafe.Pointer
		host = make([]ctrl, 1)
	)
	if err := c.Do(func(d *gpu.Dev) error {
		var err error
		if upd, err = gpu.AllocSlice[uint8](d, n); err != nil {
			return err
		}
		if err := d.Memset8(upd, 0, 0, n); err != nil {
			return err
		}
		if off, err = gpu.AllocSlice[int64](d, n+1); err != nil {
			return err
		}
		if out, err = gpu.AllocSlice[uint32](d, n); err != nil {
			return err
		}
		if dc, err = gpu.UploadSlice(d, make([]ctrl, 1)); err != nil {
			return err
		}
		pin, err = d.AllocHost(64)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	run := func(name string, f func(d *gpu.Dev) error) {
		b.Run("op="+name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := c.Do(f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run("launch-sync", func(d *gpu.Dev) error {
		if err := kernels.LaunchWSQuToBm(d, 1, 256, out.Ptr(), dc.Ptr(), uint32(0), out.Ptr()); err != nil {
			return err
		}
		return d.Sync()
	})
	run("readback-pinned", func(d *gpu.Dev) error { return d.ReadRaw(pin, dc, 64) })
	run("readback-pageable", func(d *gpu.Dev) error { return dc.Read(d, 0, host) })
	gen := kernels.GenOf(kernels.OutQueueWarp, kernels.SelectAll, false)
	run("gen-4M/grid=resident", func(d *gpu.Dev) error {
		if err := kernels.LaunchWSGen(d, gen, c.Multiprocessors()*8, 256, upd.Ptr(), uint32(n), kernels.VoidPtr{}, off.Ptr(), uint64(0), out.Ptr(), dc.Ptr(), uint32(0)); err != nil {
			return err
		}
		return d.Sync()
	})
	run("gen-4M/grid=default", func(d *gpu.Dev) error {
		if err := kernels.LaunchWSGen(d, gen, d.Grid(n, 256), 256, upd.Ptr(), uint32(n), kernels.VoidPtr{}, off.Ptr(), uint64(0), out.Ptr(), dc.Ptr(), uint32(0)); err != nil {
			return err
		}
		return d.Sync()
	})
	run("gen-4M-bitmap/grid=default", func(d *gpu.Dev) error {
		if err := kernels.LaunchWSGen(d, kernels.GenOf(kernels.OutBitmap, kernels.SelectAll, false), d.Grid(n, 256), 256, upd.Ptr(), uint32(n), kernels.VoidPtr{}, off.Ptr(), uint64(0), out.Ptr(), dc.Ptr(), uint32(0)); err != nil {
			return err
		}
		return d.Sync()
	})
	run("alloc-free-16MB/pool", func(d *gpu.Dev) error {
		s, err := gpu.AllocSlice[uint32](d, n)
		s.Free(d)
		return err
	})
	b.Run("op=alloc-free-16MB/nopool", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := c.Do(func(d *gpu.Dev) error {
				s, err := gpu.AllocSlice[uint32](d, n)
				s.Free(d)
				return err
			}); err != nil {
				b.Fatal(err)
			}
			if err := c.Trim(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
