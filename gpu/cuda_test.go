//go:build cuda

package gpu_test

// GPU tests of the device layer. They skip when no CUDA driver or GPU is
// present.

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/internal/testgraphs"
	"github.com/gearbox-graph/gearbox/kernels"
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

func TestCUDAErrors(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	// A bad launch configuration fails at launch, naming the kernel.
	err := c.Do(func(d *gpu.Dev) error {
		return kernels.LaunchWSQuToBm(d, 1, 4096, kernels.DevPtr[uint32]{}, kernels.DevPtr[kernels.Ctrl]{}, 0, kernels.DevPtr[uint32]{})
	})
	var ce *gpu.Error
	if !errors.As(err, &ce) || ce.Kernel != kernels.QueueToBm {
		t.Fatalf("oversized block: got %v, want a CUDAError naming %s", err, kernels.QueueToBm)
	}
	if err := c.Do(func(d *gpu.Dev) error { return d.LaunchKernel("no_such_kernel", 1, 32, nil) }); !errors.Is(err, gpu.ErrKernels) {
		t.Fatalf("unknown kernel: got %v", err)
	}
	// An allocation beyond the device's memory is ErrOutOfMemory.
	err = c.Do(func(d *gpu.Dev) error {
		s, err := gpu.AllocSlice[byte](d, int(c.TotalMemory()*2))
		s.Free(d)
		return err
	})
	if !errors.Is(err, gpu.ErrOutOfMemory) {
		t.Fatalf("huge allocation: got %v, want ErrOutOfMemory", err)
	}
	// The backend still works.
	if _, _, err := c.MemInfo(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Do(func(*gpu.Dev) error { return nil }); !errors.Is(err, gpu.ErrClosed) {
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
	c, err := gpu.New(gpu.WithKernelsFile(p))
	if errors.Is(err, gpu.ErrNoDriver) || errors.Is(err, gpu.ErrNoDevice) {
		t.Skipf("skipping GPU test: %v", err)
	}
	if err == nil {
		c.Close()
		t.Fatal("a bad fatbin was accepted")
	}
	if !errors.Is(err, gpu.ErrKernels) {
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
		option    func(int) gpu.Option
		max       int
	}{
		{"frontier", gpu.EnvFusedLevels, gpu.WithFusedLevels, gpu.MaxFusedLimit},
		{"local", gpu.EnvLocalEdges, gpu.WithLocalLevels, kernels.PersistLocalMaxEdges},
	} {
		over := fmt.Sprint(l.max + 1)
		for name, open := range map[string]func() (*gpu.CUDA, error){
			"option": func() (*gpu.CUDA, error) { return gpu.New(l.option(l.max + 1)) },
			"env": func() (*gpu.CUDA, error) {
				t.Setenv(l.env, over)
				return gpu.New()
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
		if c, err := gpu.New(l.option(-1)); err == nil {
			c.Close()
			t.Fatalf("%s: limit -1 accepted", l.name)
		} else if !strings.Contains(err.Error(), "-1") {
			t.Errorf("%s: %v: want the value", l.name, err)
		}
		t.Setenv(l.env, "many")
		if c, err := gpu.New(); err == nil {
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
	if err := c.Do(func(d *gpu.Dev) error {
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
		if err := c.Do(func(d *gpu.Dev) error {
			stage, ctrl = gpu.HostPooled(d, d.StageBytes()), gpu.HostPooled(d, kernels.CtrlBytes)
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
func roundTrip(c *gpu.CUDA, src, got []uint32) error {
	return c.Do(func(d *gpu.Dev) error {
		s, err := gpu.UploadSlice(d, src)
		if err != nil {
			return err
		}
		defer s.Free(d)
		return gpu.ReadStaged(d, s, got)
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
		got := hostmem.Slice[uint32](n)()
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
	c := testgraphs.OpenCUDA(t, gpu.WithStageBytes(1<<20)) // several chunks at these sizes
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
func readValuesTwice(t *testing.T, c *gpu.CUDA, name string, src []uint32, prepared, bits int) {
	t.Helper()
	n := len(src)
	var s, scratch gpu.DeviceSlice[uint32]
	if err := c.Do(func(d *gpu.Dev) (err error) {
		if s, err = gpu.UploadSlice(d, src); err != nil {
			return err
		}
		scratch, err = gpu.AllocSlice[uint32](d, n/2+1)
		return err
	}); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer c.Do(func(d *gpu.Dev) error { s.Free(d); scratch.Free(d); return nil })
	for _, upTo := range []bool{false, true} {
		label := name
		if upTo {
			label += "/up-to"
			prepared = bits // the first copy's released memory
		}
		var prep hostmem.Values
		if prepared > 0 {
			prep = hostmem.NewValues(prepared, n)
		}
		var got hostmem.Values
		if err := c.Do(func(d *gpu.Dev) (err error) {
			if upTo {
				got, err = gpu.ReadValuesUpTo(d, s, scratch, prep, src[n-1])
			} else {
				got, err = gpu.ReadValues(d, s, scratch, prep)
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
	var dsrc gpu.DeviceSlice[uint32]
	if err := c.Do(func(d *gpu.Dev) (err error) { dsrc, err = gpu.UploadSlice(d, src); return err }); err != nil {
		t.Fatal(err)
	}
	read := func(dst []uint32, round int) {
		t.Helper()
		clear(dst)
		if err := c.Do(func(d *gpu.Dev) error { return gpu.ReadStaged(d, dsrc, dst) }); err != nil {
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
	dst := hostmem.Slice[uint32](n)()
	read(dst, 0)
	if got := registered(); got != base {
		t.Fatalf("a new slice was registered: %d bytes, want %d", got, base)
	}
	for round := 1; round <= 3; round++ {
		hostmem.Recycle(dst)
		dst = hostmem.Slice[uint32](n)()
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
	c2, err := gpu.New()
	if err != nil {
		t.Fatal(err)
	}
	var s2 gpu.DeviceSlice[uint32]
	keep := hostmem.Slice[uint32](n)()
	hostmem.Recycle(keep)
	keep = hostmem.Slice[uint32](n)()
	if err := c2.Do(func(d *gpu.Dev) (err error) {
		if s2, err = gpu.UploadSlice(d, src); err != nil {
			return err
		}
		return gpu.ReadStaged(d, s2, keep)
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
	if err := c.Do(func(d *gpu.Dev) error { dsrc.Free(d); return nil }); err != nil {
		t.Fatal(err)
	}
}

// TestCUDASources: AcquireSources gives every arc's source vertex, once
// per cached graph (the second call returns the same array), refuses a
// graph not acquired, and goes with the graph when it is evicted.
func TestCUDASources(t *testing.T) {
	c := testgraphs.OpenCUDA(t)
	for _, g := range []*graph.Graph{testgraphs.RMAT(12, 8, 3), testgraphs.Grid(1, 1)} {
		err := c.Do(func(d *gpu.Dev) error {
			if _, err := d.AcquireSources(g); err == nil {
				return errors.New("sources of a graph not acquired: no error")
			}
			if _, err := d.AcquireGraph(g, 0); err != nil {
				return err
			}
			defer d.ReleaseGraph(g)
			s, err := d.AcquireSources(g)
			if err != nil {
				return err
			}
			again, err := d.AcquireSources(g)
			if err != nil || again.DevicePtr() != s.DevicePtr() {
				return fmt.Errorf("second call: %v, same array %v", err, again.DevicePtr() == s.DevicePtr())
			}
			got := make([]uint32, s.Len())
			if err := s.Read(d, 0, got); err != nil {
				return err
			}
			off := g.Offsets()
			want := make([]uint32, g.NumEdges())
			for u := range g.NumVertices() {
				for e := off[u]; e < off[u+1]; e++ {
					want[e] = uint32(u)
				}
			}
			if !slices.Equal(got, want) {
				return fmt.Errorf("%d sources differ from the CSR's rows", len(got))
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%d vertices: %v", g.NumVertices(), err)
		}
		testgraphs.CheckNoDeviceMemory(t, c, g)
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
	err := c.Do(func(d *gpu.Dev) error {
		if _, err := gpu.AllocSlice[uint32](d, 1000); err != nil {
			return err
		}
		if err := kernels.LaunchWSQuToBm(d, 1, 32, kernels.DevPtr[uint32]{}, kernels.PtrAt[kernels.Ctrl](16), 0, kernels.DevPtr[uint32]{}); err != nil {
			return err
		}
		return d.Sync()
	})
	var ce *gpu.Error
	if !errors.As(err, &ce) || ce.Kernel != kernels.QueueToBm {
		t.Fatalf("got %v, want a CUDAError after kernel %s", err, kernels.QueueToBm)
	}
	t.Logf("reported: %v", err)
	if err := c.Close(); err != nil {
		t.Errorf("Close after the fault: %v", err)
	}
	if err := c.Do(func(*gpu.Dev) error { return nil }); !errors.Is(err, gpu.ErrClosed) {
		t.Errorf("Do after Close: %v, want ErrClosed", err)
	}
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
			var dsrc, scratch gpu.DeviceSlice[uint32]
			if err := c.Do(func(d *gpu.Dev) error {
				var err error
				if dsrc, err = gpu.UploadSlice(d, src); err != nil {
					return err
				}
				scratch, err = gpu.AllocSlice[uint32](d, n)
				return err
			}); err != nil {
				b.Fatal(err)
			}
			for _, reused := range []bool{false, true} {
				prep := hostmem.NewValues(bits, n)
				b.Run(fmt.Sprintf("n=%d/bits=%d/reused=%v", n, bits, reused), func(b *testing.B) {
					b.SetBytes(int64(4 * n))
					for i := 0; i < b.N; i++ {
						if reused {
							// As runs that release their results: the
							// memory comes back through HostSlice and is
							// registered for direct copies.
							prep.Release()
							prep = hostmem.NewValues(bits, n)
						}
						if err := c.Do(func(d *gpu.Dev) error {
							var err error
							prep, err = gpu.ReadValues(d, dsrc, scratch, prep)
							return err
						}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			if err := c.Do(func(d *gpu.Dev) error { dsrc.Free(d); scratch.Free(d); return nil }); err != nil {
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
	// One backend per staging size (WithStageBytes), the source uploaded
	// to each.
	upload := func(c *gpu.CUDA, n int) gpu.DeviceSlice[uint32] {
		var src gpu.DeviceSlice[uint32]
		if err := c.Do(func(d *gpu.Dev) error {
			var err error
			src, err = gpu.UploadSlice(d, make([]uint32, n))
			return err
		}); err != nil {
			b.Fatal(err)
		}
		return src
	}
	free := func(c *gpu.CUDA, src gpu.DeviceSlice[uint32]) {
		if err := c.Do(func(d *gpu.Dev) error { src.Free(d); return nil }); err != nil {
			b.Fatal(err)
		}
	}
	backends := map[int64]*gpu.CUDA{}
	for _, stage := range []int64{256 << 10, 1 << 20, 4 << 20} {
		backends[stage] = testgraphs.OpenCUDA(b, gpu.WithStageBytes(stage))
	}
	for _, n := range []int{1 << 20, 1 << 22} {
		for _, stage := range []int64{256 << 10, 1 << 20, 4 << 20} {
			c := backends[stage]
			src := upload(c, n)
			for _, prepared := range []bool{false, true} {
				name := fmt.Sprintf("n=%d/stage=%dKiB/prepared=%d", n, stage>>10, map[bool]int{false: 0, true: 1}[prepared])
				b.Run(name, func(b *testing.B) {
					b.SetBytes(int64(4 * n))
					for i := 0; i < b.N; i++ {
						b.StopTimer()
						get := hostmem.Slice[uint32](n)
						if prepared {
							s := get()
							get = func() []uint32 { return s }
						}
						b.StartTimer()
						if err := c.Do(func(d *gpu.Dev) error { return gpu.ReadStaged(d, src, get()) }); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			free(c, src)
		}
		c := backends[gpu.DefaultStageBytes]
		src := upload(c, n)
		b.Run(fmt.Sprintf("n=%d/pageable", n), func(b *testing.B) {
			b.SetBytes(int64(4 * n))
			for i := 0; i < b.N; i++ {
				dst := make([]uint32, n)
				if err := c.Do(func(d *gpu.Dev) error { return src.Read(d, 0, dst) }); err != nil {
					b.Fatal(err)
				}
			}
		})
		free(c, src)
	}
}

// TestCUDAStageBytesOption: New refuses a staging buffer too small for a
// control block, before touching the driver.
func TestCUDAStageBytesOption(t *testing.T) {
	c, err := gpu.New(gpu.WithStageBytes(8))
	if err == nil {
		c.Close()
		t.Fatal("New accepted 8-byte staging buffers")
	}
	if !strings.Contains(err.Error(), "staging buffer of 8 bytes") {
		t.Fatalf("error %q does not name the size", err)
	}
}
