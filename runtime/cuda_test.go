//go:build cuda

package runtime_test

// GPU tests of the device layer and of the working-set kernels in
// isolation. They skip when no CUDA driver or GPU is present.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
)

func TestCUDAOpen(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	major, minor := c.ComputeCapability()
	free, total, err := c.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	if c.Device() == "" || c.Multiprocessors() <= 0 || major < 8 || free <= 0 || total < free {
		t.Fatalf("device %q, %d SMs, cc %d.%d, free %d of %d", c.Device(), c.Multiprocessors(), major, minor, free, total)
	}
	t.Logf("%s: %d SMs, compute capability %d.%d, %d MiB free of %d", c.Device(), c.Multiprocessors(), major, minor, free>>20, total>>20)
}

// ctrl is the runtime's mirror of struct Ctrl (kernels/common.cuh).
type ctrl = runtime.CUDACtrlForTest

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
		err := c.Do(func(d *runtime.Dev) error {
			dUpd, err := runtime.UploadSlice(d, upd)
			if err != nil {
				return err
			}
			defer dUpd.Free(d)
			var dist runtime.DevicePointer
			if tc.d32 {
				s, err := runtime.UploadSlice(d, dist32)
				if err != nil {
					return err
				}
				defer s.Free(d)
				dist = s
			} else {
				s, err := runtime.UploadSlice(d, dist64(dist32))
				if err != nil {
					return err
				}
				defer s.Free(d)
				dist = s
			}
			dOff, err := runtime.UploadSlice(d, off)
			if err != nil {
				return err
			}
			defer dOff.Free(d)
			dHist, err := runtime.UploadSlice(d, make([]uint64, kernels.BucketBins+1))
			if err != nil {
				return err
			}
			defer dHist.Free(d)
			dCtrl, err := runtime.UploadSlice(d, []ctrl{{MinV: math.MaxUint64}})
			if err != nil {
				return err
			}
			defer dCtrl.Free(d)
			for range 2 {
				if err := dCtrl.Write(d, 0, []ctrl{{MinV: math.MaxUint64}}); err != nil {
					return err
				}
				if err := d.Launch(kernels.FindMin(tc.d32), d.Grid(n, 256), 256, dist, dUpd, uint32(n), dCtrl); err != nil {
					return err
				}
				if err := d.Launch(kernels.Bucket(tc.d32), d.Grid(n, 256), 256, dist, dUpd, uint32(n), dOff, dCtrl, dHist, tc.unit, tc.target); err != nil {
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
		name := kernels.Gen(gc.out, gc.sel, gc.d32)
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
		err := c.Do(func(d *runtime.Dev) error {
			dUpd, err := runtime.UploadSlice(d, upd)
			if err != nil {
				return err
			}
			defer dUpd.Free(d)
			dDist, err := runtime.UploadSlice(d, dist)
			if err != nil {
				return err
			}
			defer dDist.Free(d)
			dF, err := runtime.UploadSlice(d, dist32)
			if err != nil {
				return err
			}
			defer dF.Free(d)
			dOff, err := runtime.UploadSlice(d, off)
			if err != nil {
				return err
			}
			defer dOff.Free(d)
			dOut, err := runtime.AllocSlice[uint32](d, n)
			if err != nil {
				return err
			}
			defer dOut.Free(d)
			dCtrl, err := runtime.UploadSlice(d, []ctrl{{MinV: math.MaxUint64, Count: [2]uint32{7, 0}}})
			if err != nil {
				return err
			}
			defer dCtrl.Free(d)
			var distArg runtime.DevicePointer = dDist
			if gc.d32 {
				distArg = dF
			}
			if gc.sel != kernels.SelectAll {
				if err := d.Launch(kernels.FindMin(gc.d32), d.Grid(n, 256), 256, distArg, dUpd, uint32(n), dCtrl); err != nil {
					return err
				}
			}
			if gc.out == kernels.OutDual {
				// A sentinel shows what the cap kept unwritten.
				alt := make([]uint32, n)
				for i := range alt {
					alt[i] = math.MaxUint32
				}
				dAlt, err := runtime.UploadSlice(d, alt)
				if err != nil {
					return err
				}
				defer dAlt.Free(d)
				if err := d.Launch(name, d.Grid(n, 256), 256, dUpd, uint32(n), distArg, dOff, gc.delta, dOut, dCtrl, uint32(0), dAlt, qcap); err != nil {
					return err
				}
				gotAlt = make([]uint32, n)
				if err := dAlt.Read(d, 0, gotAlt); err != nil {
					return err
				}
			} else if err := d.Launch(name, d.Grid(n, 256), 256, dUpd, uint32(n), distArg, dOff, gc.delta, dOut, dCtrl, uint32(0)); err != nil {
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
		err := c.Do(func(d *runtime.Dev) error {
			dBm, err := runtime.UploadSlice(d, words)
			if err != nil {
				return err
			}
			defer dBm.Free(d)
			dQ, err := runtime.AllocSlice[uint32](d, n)
			if err != nil {
				return err
			}
			defer dQ.Free(d)
			dBm2, err := runtime.AllocSlice[uint32](d, len(words))
			if err != nil {
				return err
			}
			defer dBm2.Free(d)
			dCtrl, err := runtime.UploadSlice(d, []ctrl{{Count: [2]uint32{99, 0}}})
			if err != nil {
				return err
			}
			defer dCtrl.Free(d)
			// bitmap -> queue counts into slot 1, queue -> bitmap reads it.
			if err := d.Launch(kernels.BitmapToQu, d.Grid(int64(len(words)), 256), 256, dBm, uint32(len(words)), dQ, dCtrl, uint32(1)); err != nil {
				return err
			}
			if err := d.Memset32(dBm2, 0, 0, int64(len(words))); err != nil {
				return err
			}
			if err := d.Launch(kernels.QueueToBm, d.Grid(int64(n), 256), 256, dQ, dCtrl, uint32(1), dBm2); err != nil {
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

func TestCUDAErrors(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	// A bad launch configuration fails at launch, naming the kernel.
	err := c.Do(func(d *runtime.Dev) error {
		return d.Launch(kernels.QueueToBm, 1, 4096, nil, nil, uint32(0), nil)
	})
	var ce *runtime.CUDAError
	if !errors.As(err, &ce) || ce.Kernel != kernels.QueueToBm {
		t.Fatalf("oversized block: got %v, want a CUDAError naming %s", err, kernels.QueueToBm)
	}
	if err := c.Do(func(d *runtime.Dev) error { return d.Launch("no_such_kernel", 1, 32) }); !errors.Is(err, runtime.ErrKernels) {
		t.Fatalf("unknown kernel: got %v", err)
	}
	if err := c.Do(func(d *runtime.Dev) error { return d.Launch(kernels.QueueToBm, 1, 32, 42) }); err == nil {
		t.Fatal("a Go int argument was accepted")
	}
	// An allocation beyond the device's memory is ErrOutOfMemory.
	err = c.Do(func(d *runtime.Dev) error {
		s, err := runtime.AllocSlice[byte](d, int(c.TotalMemory()*2))
		s.Free(d)
		return err
	})
	if !errors.Is(err, runtime.ErrOutOfMemory) {
		t.Fatalf("huge allocation: got %v, want ErrOutOfMemory", err)
	}
	// The backend still works.
	if _, _, err := c.MemInfo(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Do(func(*runtime.Dev) error { return nil }); !errors.Is(err, runtime.ErrClosed) {
		t.Fatalf("after Close: got %v, want ErrClosed", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestCUDABadKernelsFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.fatbin")
	if err := os.WriteFile(p, []byte("not a fatbin"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := runtime.NewCUDA(runtime.WithKernelsFile(p))
	if errors.Is(err, runtime.ErrNoDriver) || errors.Is(err, runtime.ErrNoDevice) {
		t.Skipf("skipping GPU test: %v", err)
	}
	if err == nil {
		c.Close()
		t.Fatal("a bad fatbin was accepted")
	}
	if !errors.Is(err, runtime.ErrKernels) {
		t.Fatalf("got %v, want ErrKernels", err)
	}
}

// TestCUDALimits: the persistent launches' frontier limit (past
// MaxFusedLimit) and local-level edge limit (past
// kernels.PersistLocalMaxEdges, the block queue a local level pushes into),
// from the option or the environment, are refused with the limit and the
// value, as are a negative limit and an environment value that is not a
// number.
func TestCUDALimits(t *testing.T) {
	for _, l := range []struct {
		name, env string
		option    func(int) runtime.CUDAOption
		max       int
	}{
		{"frontier", runtime.EnvFusedLevels, runtime.WithFusedLevels, runtime.MaxFusedLimit},
		{"local", runtime.EnvLocalEdges, runtime.WithLocalLevels, kernels.PersistLocalMaxEdges},
	} {
		over := fmt.Sprint(l.max + 1)
		for name, open := range map[string]func() (*runtime.CUDA, error){
			"option": func() (*runtime.CUDA, error) { return runtime.NewCUDA(l.option(l.max + 1)) },
			"env": func() (*runtime.CUDA, error) {
				t.Setenv(l.env, over)
				return runtime.NewCUDA()
			},
		} {
			c, err := open()
			if err == nil {
				c.Close()
				t.Fatalf("%s/%s: limit %s accepted", l.name, name, over)
			}
			if !strings.Contains(err.Error(), over) || !strings.Contains(err.Error(), fmt.Sprint(l.max)) {
				t.Errorf("%s/%s: %v: want the value and the limit", l.name, name, err)
			}
		}
		t.Setenv(l.env, "")
		if c, err := runtime.NewCUDA(l.option(-1)); err == nil {
			c.Close()
			t.Fatalf("%s: limit -1 accepted", l.name)
		} else if !strings.Contains(err.Error(), "-1") {
			t.Errorf("%s: %v: want the value", l.name, err)
		}
		t.Setenv(l.env, "many")
		if c, err := runtime.NewCUDA(); err == nil {
			c.Close()
			t.Fatalf("%s=many accepted", l.env)
		} else if !strings.Contains(err.Error(), l.env) || !strings.Contains(err.Error(), "many") {
			t.Errorf("%v: want the variable and its value", err)
		}
		t.Setenv(l.env, "")
	}
}

// TestCUDAHostPool: freed page-locked buffers are reused by size (a fresh
// cuMemAllocHost per run cost about a millisecond) and Trim releases them.
func TestCUDAHostPool(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	if err := c.Do(func(d *runtime.Dev) error {
		p, err := d.AllocHost(64)
		if err != nil {
			return err
		}
		d.FreeHost(p)
		q, err := d.AllocHost(64)
		if err != nil {
			return err
		}
		if q != p {
			t.Errorf("AllocHost after FreeHost gave a new buffer %p, want the pooled %p", q, p)
		}
		r, err := d.AllocHost(128)
		if err != nil {
			return err
		}
		if r == p {
			t.Error("a 128-byte request reused a 64-byte buffer")
		}
		d.FreeHost(q)
		d.FreeHost(r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := c.Trim(); err != nil {
		t.Fatalf("Trim: %v", err)
	}
}

// TestCUDAWarm: a new backend holds the page-locked buffers of a
// traversal's copies in its pool (the first traversal allocates none), a
// result read takes them from it and gives them back, and Trim releases
// them.
func TestCUDAWarm(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	pooled := func() (stage, ctrl int) {
		if err := c.Do(func(d *runtime.Dev) error {
			stage, ctrl = runtime.HostPooled(d, runtime.StageBytes), runtime.HostPooled(d, runtime.CtrlBytes)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return
	}
	if s, k := pooled(); s != 2 || k != 1 {
		t.Fatalf("new backend: %d staging buffers and %d control-block mirrors pooled, want 2 and 1", s, k)
	}
	src := make([]uint32, 1000)
	got := make([]uint32, len(src))
	for i := range src {
		src[i] = uint32(i * 7)
	}
	if err := roundTrip(c, src, got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, src) {
		t.Fatal("staged copy differs")
	}
	if s, _ := pooled(); s != 2 {
		t.Errorf("after a staged read: %d staging buffers pooled, want the 2 back", s)
	}
	if err := c.Trim(); err != nil {
		t.Fatal(err)
	}
	if s, k := pooled(); s != 0 || k != 0 {
		t.Errorf("after Trim: %d staging buffers and %d mirrors pooled, want none", s, k)
	}
}

// roundTrip uploads src and copies it back into got through ReadStaged.
func roundTrip(c *runtime.CUDA, src, got []uint32) error {
	return c.Do(func(d *runtime.Dev) error {
		s, err := runtime.UploadSlice(d, src)
		if err != nil {
			return err
		}
		defer s.Free(d)
		return runtime.ReadStaged(d, s, got)
	})
}

// TestCUDAReadStaged copies arrays of several staging chunks (and a short
// one) through ReadStaged into HostSlice memory.
func TestCUDAReadStaged(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	for _, n := range []int{1, 1000, 3<<20 + 12345} {
		src := make([]uint32, n)
		for i := range src {
			src[i] = uint32(i*2654435761) >> 3
		}
		src[n/2] = math.MaxUint32
		got := runtime.HostSlice[uint32](n)()
		if err := roundTrip(c, src, got); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if !slices.Equal(got, src) {
			t.Fatalf("n=%d: staged copy differs", n)
		}
	}
}

// TestCUDAReadValues copies arrays through ReadValues: each at the fewest
// bits its largest value needs (8, 16, 32 at and around the boundaries;
// values of MaxUint32 as no value; lengths not a multiple of four; several
// staging chunks), in prepared memory of the right or the wrong width, and
// unnarrowed below NarrowMin; then again through ReadValuesUpTo with the
// largest value as the bound, into the first copy's released memory
// (reused: registered and copied in one DMA).
func TestCUDAReadValues(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	defer func(s int64) { runtime.StageBytes = s }(runtime.StageBytes)
	runtime.StageBytes = 1 << 20 // several chunks at these sizes
	cases := []struct {
		name     string
		n        int
		max      uint32 // the largest value other than MaxUint32
		prepared int    // width of the prepared memory (0: none)
		bits     int
	}{
		{"u8", 3<<20 + 13, 254, 8, 8},
		{"u8-unprepared", 1<<16 + 1, 7, 0, 8},
		{"u16-at-255", 1<<18 + 3, 255, 8, 16},
		{"u16", 1<<20 + 5, 4095, 16, 16},
		{"u16-top", 1<<18 + 1, 65534, 32, 16},
		{"u32-at-65535", 1<<18 + 2, 65535, 8, 32},
		{"u32", 1<<18 + 2, math.MaxUint32 - 1, 32, 32},
		{"small", 1000, 3, 8, 32},
		{"none", 1<<16 + 9, 0, 8, 8}, // nothing but unreached and zeros
	}
	for _, tc := range cases {
		src := make([]uint32, tc.n)
		for i := range src {
			src[i] = uint32(uint64(i) * 2654435761 % uint64(tc.max+1)) // up to max
			if i%7 == 3 {
				src[i] = math.MaxUint32
			}
		}
		src[tc.n-1] = tc.max
		readValuesTwice(t, c, tc.name, src, tc.prepared, tc.bits)
	}
}

// readValuesTwice copies src (its last value the largest) through
// ReadValues into memory prepared at width prepared (0: none), then
// through ReadValuesUpTo into the first copy's released memory, and
// checks each copy's width and values.
func readValuesTwice(t *testing.T, c *runtime.CUDA, name string, src []uint32, prepared, bits int) {
	t.Helper()
	n := len(src)
	var s, scratch runtime.DeviceSlice[uint32]
	if err := c.Do(func(d *runtime.Dev) (err error) {
		if s, err = runtime.UploadSlice(d, src); err != nil {
			return err
		}
		scratch, err = runtime.AllocSlice[uint32](d, n/2+1)
		return err
	}); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer c.Do(func(d *runtime.Dev) error { s.Free(d); scratch.Free(d); return nil })
	for _, upTo := range []bool{false, true} {
		label := name
		if upTo {
			label += "/up-to"
			prepared = bits // the first copy's released memory
		}
		var prep runtime.Values
		if prepared > 0 {
			prep = runtime.HostValues(prepared, n)
		}
		var got runtime.Values
		if err := c.Do(func(d *runtime.Dev) (err error) {
			if upTo {
				got, err = runtime.ReadValuesUpTo(d, s, scratch, prep, src[n-1])
			} else {
				got, err = runtime.ReadValues(d, s, scratch, prep)
			}
			return err
		}); err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		if got.Bits() != bits || got.Len() != n {
			t.Fatalf("%s: %d values of %d bits, want %d of %d", label, got.Len(), got.Bits(), n, bits)
		}
		for i, want := range src {
			x, ok := got.At(uint32(i))
			if ok != (want != math.MaxUint32) || (ok && x != uint64(want)) {
				t.Fatalf("%s: value %d is %d (has %v), want %d", label, i, x, ok, want)
			}
		}
		got.Release()
	}
}

// TestCUDADirectRead follows host memory registered for direct copies:
// a slice is copied into by staging when new, registered when HostSlice
// hands it out again, copied into directly from then on (the contents
// checked each time), unregistered by its cleanup once unreachable, and a
// registered slice outlives the backend that registered it.
func TestCUDADirectRead(t *testing.T) {
	const n = 1<<18 + 5
	src := make([]uint32, n)
	for i := range src {
		src[i] = uint32(i) * 2654435761
	}
	c := testgraphs.OpenCUDA(t)
	var dsrc runtime.DeviceSlice[uint32]
	if err := c.Do(func(d *runtime.Dev) (err error) { dsrc, err = runtime.UploadSlice(d, src); return err }); err != nil {
		t.Fatal(err)
	}
	read := func(dst []uint32, round int) {
		t.Helper()
		clear(dst)
		if err := c.Do(func(d *runtime.Dev) error { return runtime.ReadStaged(d, dsrc, dst) }); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !slices.Equal(dst, src) {
			t.Fatalf("round %d: the copy differs", round)
		}
	}
	registered := func() int64 {
		t.Helper()
		b, err := c.RegisteredBytes()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	base := registered()
	dst := runtime.HostSlice[uint32](n)()
	read(dst, 0)
	if got := registered(); got != base {
		t.Fatalf("a new slice was registered: %d bytes, want %d", got, base)
	}
	for round := 1; round <= 3; round++ {
		runtime.Recycle(dst)
		dst = runtime.HostSlice[uint32](n)()
		read(dst, round)
		if got := registered(); got != base+4*n {
			t.Fatalf("round %d: %d bytes registered, want %d", round, got, base+4*n)
		}
	}
	dst = nil
	deadline := time.Now().Add(10 * time.Second)
	for registered() != base {
		if time.Now().After(deadline) {
			t.Fatalf("the unreachable slice is still registered (%d bytes)", registered())
		}
		goruntime.GC()
		time.Sleep(10 * time.Millisecond)
	}

	// Registered when the backend closes: the memory stays the caller's.
	c2, err := runtime.NewCUDA()
	if err != nil {
		t.Fatal(err)
	}
	var s2 runtime.DeviceSlice[uint32]
	keep := runtime.HostSlice[uint32](n)()
	runtime.Recycle(keep)
	keep = runtime.HostSlice[uint32](n)()
	if err := c2.Do(func(d *runtime.Dev) (err error) {
		if s2, err = runtime.UploadSlice(d, src); err != nil {
			return err
		}
		return runtime.ReadStaged(d, s2, keep)
	}); err != nil {
		t.Fatal(err)
	}
	if b, err := c2.RegisteredBytes(); err != nil || b != 4*n {
		t.Fatalf("second backend: %d bytes registered (%v), want %d", b, err, 4*n)
	}
	if err := c2.Close(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(keep, src) {
		t.Fatal("the copy differs after the backend closed")
	}
	keep[0]++ // still ours to write
	keep = nil
	goruntime.GC() // its cleanup was stopped when the backend closed
	if err := c.Do(func(d *runtime.Dev) error { dsrc.Free(d); return nil }); err != nil {
		t.Fatal(err)
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
		err := c.Do(func(d *runtime.Dev) error {
			dOff, err := runtime.UploadSlice(d, off)
			if err != nil {
				return err
			}
			defer dOff.Free(d)
			w, err := runtime.NewCUDAWorkset(d, n, off[n])
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
			if err := w.Generate(d, dOff, tc.rep, runtime.CUDASelect{Mode: kernels.SelectAll}); err != nil {
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

// TestCUDAKernelFault makes a kernel read an invalid address: the failure
// surfaces at the next synchronising call, naming the kernel, and Close
// still succeeds (the backend holds device and page-locked memory, which
// the poisoned context cannot free one by one). A fault poisons the
// process's CUDA context, so GPU tests after it in this file cannot open
// the device: keep it last.
func TestCUDAKernelFault(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	err := c.Do(func(d *runtime.Dev) error {
		if _, err := runtime.AllocSlice[uint32](d, 1000); err != nil {
			return err
		}
		if err := d.Launch(kernels.QueueToBm, 1, 32, nil, bogus(16), uint32(0), nil); err != nil {
			return err
		}
		return d.Sync()
	})
	var ce *runtime.CUDAError
	if !errors.As(err, &ce) || ce.Kernel != kernels.QueueToBm {
		t.Fatalf("got %v, want a CUDAError after kernel %s", err, kernels.QueueToBm)
	}
	t.Logf("reported: %v", err)
	if err := c.Close(); err != nil {
		t.Errorf("Close after the fault: %v", err)
	}
	if err := c.Do(func(*runtime.Dev) error { return nil }); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("Do after Close: %v, want ErrClosed", err)
	}
}

type bogus uintptr

func (b bogus) DevicePtr() uintptr { return uintptr(b) }

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
			if err := c.Do(func(*runtime.Dev) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
	c := testgraphs.OpenCUDA(b)
	var (
		upd  runtime.DeviceSlice[uint8]
		off  runtime.DeviceSlice[int64]
		out  runtime.DeviceSlice[uint32]
		dc   runtime.DeviceSlice[ctrl]
		pin  unsafe.Pointer
		host = make([]ctrl, 1)
	)
	if err := c.Do(func(d *runtime.Dev) error {
		var err error
		if upd, err = runtime.AllocSlice[uint8](d, n); err != nil {
			return err
		}
		if err := d.Memset8(upd, 0, 0, n); err != nil {
			return err
		}
		if off, err = runtime.AllocSlice[int64](d, n+1); err != nil {
			return err
		}
		if out, err = runtime.AllocSlice[uint32](d, n); err != nil {
			return err
		}
		if dc, err = runtime.UploadSlice(d, make([]ctrl, 1)); err != nil {
			return err
		}
		pin, err = d.AllocHost(64)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	run := func(name string, f func(d *runtime.Dev) error) {
		b.Run("op="+name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := c.Do(f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run("launch-sync", func(d *runtime.Dev) error {
		if err := d.Launch(kernels.QueueToBm, 1, 256, out, dc, uint32(0), out); err != nil {
			return err
		}
		return d.Sync()
	})
	run("readback-pinned", func(d *runtime.Dev) error { return d.ReadRaw(pin, dc, 64) })
	run("readback-pageable", func(d *runtime.Dev) error { return dc.Read(d, 0, host) })
	gen := kernels.Gen(kernels.OutQueueWarp, kernels.SelectAll, false)
	run("gen-4M/grid=resident", func(d *runtime.Dev) error {
		if err := d.Launch(gen, c.Multiprocessors()*8, 256, upd, uint32(n), nil, off, uint64(0), out, dc, uint32(0)); err != nil {
			return err
		}
		return d.Sync()
	})
	run("gen-4M/grid=default", func(d *runtime.Dev) error {
		if err := d.Launch(gen, d.Grid(n, 256), 256, upd, uint32(n), nil, off, uint64(0), out, dc, uint32(0)); err != nil {
			return err
		}
		return d.Sync()
	})
	run("gen-4M-bitmap/grid=default", func(d *runtime.Dev) error {
		if err := d.Launch(kernels.Gen(kernels.OutBitmap, kernels.SelectAll, false), d.Grid(n, 256), 256, upd, uint32(n), nil, off, uint64(0), out, dc, uint32(0)); err != nil {
			return err
		}
		return d.Sync()
	})
	run("alloc-free-16MB/pool", func(d *runtime.Dev) error {
		s, err := runtime.AllocSlice[uint32](d, n)
		s.Free(d)
		return err
	})
	b.Run("op=alloc-free-16MB/nopool", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := c.Do(func(d *runtime.Dev) error {
				s, err := runtime.AllocSlice[uint32](d, n)
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

// BenchmarkCUDAReadValues measures a result copy of n uint32 through
// ReadValues into prepared memory, with values that fit 8, 16 or 32 bits:
// the last copy's memory passed back (reused=false: staged) or released
// and handed out again by HostSlice (reused=true: registered, one DMA).
func BenchmarkCUDAReadValues(b *testing.B) {
	c := testgraphs.OpenCUDA(b)
	for _, n := range []int{1 << 20, 1 << 22} {
		for _, bits := range []int{8, 16, 32} {
			src := make([]uint32, n)
			src[n/2] = 1<<(bits-1) + 1
			var dsrc, scratch runtime.DeviceSlice[uint32]
			if err := c.Do(func(d *runtime.Dev) error {
				var err error
				if dsrc, err = runtime.UploadSlice(d, src); err != nil {
					return err
				}
				scratch, err = runtime.AllocSlice[uint32](d, n)
				return err
			}); err != nil {
				b.Fatal(err)
			}
			for _, reused := range []bool{false, true} {
				prep := runtime.HostValues(bits, n)
				b.Run(fmt.Sprintf("n=%d/bits=%d/reused=%v", n, bits, reused), func(b *testing.B) {
					b.SetBytes(int64(4 * n))
					for i := 0; i < b.N; i++ {
						if reused {
							// As runs that release their results: the
							// memory comes back through HostSlice and is
							// registered for direct copies.
							prep.Release()
							prep = runtime.HostValues(bits, n)
						}
						if err := c.Do(func(d *runtime.Dev) error {
							var err error
							prep, err = runtime.ReadValues(d, dsrc, scratch, prep)
							return err
						}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			if err := c.Do(func(d *runtime.Dev) error { dsrc.Free(d); scratch.Free(d); return nil }); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkCUDAReadStaged measures a result copy of n uint32 into Go
// memory: through ReadStaged with each staging chunk size, into a
// HostSlice prepared beforehand (prepared=1) or one prepared during the
// copy as in a run (prepared=0, the wait counted), against the driver's
// pageable copy into a fresh slice.
func BenchmarkCUDAReadStaged(b *testing.B) {
	c := testgraphs.OpenCUDA(b)
	defer func(s int64) { runtime.StageBytes = s }(runtime.StageBytes)
	for _, n := range []int{1 << 20, 1 << 22} {
		var src runtime.DeviceSlice[uint32]
		if err := c.Do(func(d *runtime.Dev) error {
			var err error
			src, err = runtime.UploadSlice(d, make([]uint32, n))
			return err
		}); err != nil {
			b.Fatal(err)
		}
		for _, stage := range []int64{256 << 10, 1 << 20, 4 << 20} {
			for _, prepared := range []bool{false, true} {
				name := fmt.Sprintf("n=%d/stage=%dKiB/prepared=%d", n, stage>>10, map[bool]int{false: 0, true: 1}[prepared])
				b.Run(name, func(b *testing.B) {
					runtime.StageBytes = stage
					b.SetBytes(int64(4 * n))
					for i := 0; i < b.N; i++ {
						b.StopTimer()
						get := runtime.HostSlice[uint32](n)
						if prepared {
							s := get()
							get = func() []uint32 { return s }
						}
						b.StartTimer()
						if err := c.Do(func(d *runtime.Dev) error { return runtime.ReadStaged(d, src, get()) }); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
		b.Run(fmt.Sprintf("n=%d/pageable", n), func(b *testing.B) {
			b.SetBytes(int64(4 * n))
			for i := 0; i < b.N; i++ {
				dst := make([]uint32, n)
				if err := c.Do(func(d *runtime.Dev) error { return src.Read(d, 0, dst) }); err != nil {
					b.Fatal(err)
				}
			}
		})
		if err := c.Do(func(d *runtime.Dev) error { src.Free(d); return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
