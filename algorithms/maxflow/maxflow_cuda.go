//go:build cuda

package maxflow

import (
	"context"
	"fmt"
	"math"
	"time"
	"unsafe"

	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/gpu"
	"github.com/gearbox-graph/gearbox/kernels"
	"github.com/gearbox-graph/gearbox/runtime"
)

func init() {
	backends.Register("cuda", newCUDAOp)
}

// mfBlock is the block size of the max-flow kernels.
const mfBlock = 256

// bfsBatchMax is the most global-relabel levels launched between two reads
// of the control block: the levels read their frontier's size on the
// device, so a launch after the BFS ended costs only the launch, and a deep
// BFS (AK's thousands of levels) needs few reads.
const bfsBatchMax = 64

// cudaOp is phase 1 of push-relabel on the GPU (kernels/maxflow.cu): the
// Sync solver's synchronous pass as three launches (push, relabel,
// generation of the next active set) and one read of the control block.
// The decider picks thread or warp per vertex (Thread, Block mapping) and a
// bitmap or queue for the active set from its exact size, which every pass
// reads. A global relabel (backward BFS from the sink, on the device) runs
// first and whenever the relabel work since the last passes Knobs'
// trigger; vertices it does not reach get label n, which is what the gap
// heuristic would give them. Once Knobs.HostAfter passes in a row leave at
// most Knobs.SerialBelow active vertices, the state goes back to the host
// and the serial solver finishes phase 1 there. Phase 2 runs on the host
// (Run).
type cudaOp struct {
	c     *gpu.CUDA
	f     *flow
	k     Knobs
	ctx   context.Context
	n     int
	m     int64
	words int

	off, rev, res, exc             gpu.DeviceSlice[int64]
	in                             gpu.DeviceSlice[uint64]
	head, d, pend, act, mark, cand gpu.DeviceSlice[uint32]
	q                              [2]gpu.DeviceSlice[uint32]
	net                            gpu.DeviceSlice[kernels.MfNet]
	ctrl                           gpu.DeviceSlice[kernels.MfCtrl]
	host                           []kernels.MfCtrl // one: its own allocation, which cgo may be handed (no Go pointers in it)

	par       uint32
	rep       decider.Rep
	size, deg int64
	workAt    uint64
	edgesAt   uint64
	trigger   int64
	tiny      int
	done      bool
	hostAt    int64 // the pass after which the host took over (-1: none)
	passes    int64
	globals   int64
	times     runtime.GPUTimes
	l0        int64
	initErr   error
}

func newCUDAOp(b runtime.Backend, r request) (deviceOp, bool) {
	c, ok := b.(*gpu.CUDA)
	if !ok {
		return nil, false
	}
	f := r.f
	o := &cudaOp{c: c, f: f, k: r.k, ctx: r.ctx, n: f.n, m: f.r.NumArcs(), words: (f.n + 31) / 32, hostAt: -1,
		trigger: r.k.trigger(f.n, f.r.NumArcs()), host: make([]kernels.MfCtrl, 1)}
	t0 := time.Now()
	o.initErr = c.Do(o.setup)
	o.times.Setup = time.Since(t0)
	return o, true
}

// setup allocates and uploads the network and the preflow the source's
// saturation left.
func (o *cudaOp) setup(d *gpu.Dev) error {
	o.l0 = d.Launches()
	if uint64(o.n) >= math.MaxUint32-1 {
		return fmt.Errorf("maxflow: %d vertices, limit %d (32-bit labels): %w", o.n, uint64(math.MaxUint32-2), runtime.ErrUnsupported)
	}
	n, m, w := int64(o.n), o.m, int64(max(o.words, 1))
	need := 8*(n+1) + 20*m + 8*3*n + 4*(5*n) + 4*2*w + int64(unsafe.Sizeof(kernels.MfNet{})+unsafe.Sizeof(kernels.MfCtrl{}))
	if err := d.CheckFits(need, "maxflow network and state"); err != nil {
		return err
	}
	var err error
	up := func(dst *gpu.DeviceSlice[int64], host []int64) {
		if err == nil {
			*dst, err = gpu.UploadSlice(d, host)
		}
	}
	up(&o.off, o.f.r.Off)
	up(&o.rev, o.f.r.Rev)
	up(&o.res, o.f.res)
	up(&o.exc, o.f.exc)
	if err != nil {
		return err
	}
	if o.head, err = gpu.UploadSlice(d, o.f.r.Head); err != nil {
		return err
	}
	if o.in, err = gpu.AllocSlice[uint64](d, max(o.n, 1)); err != nil {
		return err
	}
	for _, s := range []*gpu.DeviceSlice[uint32]{&o.d, &o.pend, &o.cand, &o.q[0], &o.q[1]} {
		if *s, err = gpu.AllocSlice[uint32](d, max(o.n, 1)); err != nil {
			return err
		}
	}
	for _, s := range []*gpu.DeviceSlice[uint32]{&o.act, &o.mark} {
		if *s, err = gpu.AllocSlice[uint32](d, int(w)); err != nil {
			return err
		}
		if err := d.Memset32(*s, 0, 0, w); err != nil {
			return err
		}
	}
	if err := d.Memset32(o.in, 0, 0, 2*int64(o.n)); err != nil {
		return err
	}
	if err := d.Memset32(o.pend, 0, math.MaxUint32, int64(o.n)); err != nil {
		return err
	}
	if o.ctrl, err = gpu.AllocSlice[kernels.MfCtrl](d, 1); err != nil {
		return err
	}
	if err := d.Memset32(o.ctrl, 0, 0, int64(unsafe.Sizeof(kernels.MfCtrl{})/4)); err != nil {
		return err
	}
	net := kernels.MfNet{
		Off: uint64(o.off.DevicePtr()), Head: uint64(o.head.DevicePtr()), Rev: uint64(o.rev.DevicePtr()),
		Res: uint64(o.res.DevicePtr()), Exc: uint64(o.exc.DevicePtr()), In: uint64(o.in.DevicePtr()),
		D: uint64(o.d.DevicePtr()), Pend: uint64(o.pend.DevicePtr()), Act: uint64(o.act.DevicePtr()),
		Mark: uint64(o.mark.DevicePtr()), Cand: uint64(o.cand.DevicePtr()),
		Q: [2]uint64{uint64(o.q[0].DevicePtr()), uint64(o.q[1].DevicePtr())},
		N: uint32(o.n), Sink: o.f.t, Blocked: o.f.s,
	}
	o.net, err = gpu.UploadSlice(d, []kernels.MfNet{net})
	return err
}

func (o *cudaOp) Info() runtime.OperatorInfo {
	var initial int64
	for v, x := range o.f.exc {
		if x > 0 && uint32(v) != o.f.t {
			initial++
		}
	}
	var maxDeg int64
	off := o.f.r.Off
	for v := 0; v < o.n; v++ {
		maxDeg = max(maxDeg, off[v+1]-off[v])
	}
	return runtime.OperatorInfo{Info: decider.Info{N: o.n, M: o.m, Universe: int64(o.n), InitialSize: initial, MaxDegree: maxDeg}}
}

func (o *cudaOp) DeviceTimes() *runtime.GPUTimes { return new(o.times) }

// Start runs the first global relabel, which builds the active set.
func (o *cudaOp) Start(v decider.Variant) error {
	if o.initErr != nil {
		return o.initErr
	}
	o.rep = v.Rep
	return o.device(func(d *gpu.Dev) error { return o.global(d) })
}

// device runs f on the device, timed as kernel time, then finishes on the
// host when phase 1 is over or its tail is due there.
func (o *cudaOp) device(f func(d *gpu.Dev) error) error {
	t0 := time.Now()
	var back time.Duration // the copy of the preflow to the host
	host := false
	err := o.c.Do(func(d *gpu.Dev) error {
		if err := f(d); err != nil {
			return err
		}
		if o.size > 0 && o.k.HostAfter > 0 && o.size <= int64(o.k.SerialBelow) {
			o.tiny++
		} else {
			o.tiny = 0
		}
		host = o.tiny >= o.k.HostAfter && o.k.HostAfter > 0
		if o.size > 0 && !host {
			return nil
		}
		o.done = true
		t1 := time.Now()
		defer func() { back = time.Since(t1) }()
		if err := o.res.Read(d, 0, o.f.res); err != nil {
			return err
		}
		return o.exc.Read(d, 0, o.f.exc)
	})
	o.times.Kernels += time.Since(t0) - back
	o.times.Transfers += back
	if err != nil || !host {
		return err
	}
	// The tail: the serial solver finishes phase 1 from the device's
	// preflow (it relabels globally first, so the labels need not come
	// back).
	o.hostAt = o.passes
	return newSeq(o.f, false, o.k).run(o.ctx, o.f.t, o.f.s)
}

// readCtrl waits for the launches and reads the counters.
func (o *cudaOp) readCtrl(d *gpu.Dev) error {
	if err := o.ctrl.Read(d, 0, o.host); err != nil {
		return err
	}
	h := &o.host[0]
	o.size, o.deg = int64(h.Size[o.par]), int64(h.Deg[o.par])
	return nil
}

// zeroSet clears the counters of the working set of parity par before a
// generation launch outside a pass writes them.
func (o *cudaOp) zeroSet(d *gpu.Dev) error {
	var c kernels.MfCtrl
	if err := d.Memset32(o.ctrl, int64(unsafe.Offsetof(c.Size))+4*int64(o.par), 0, 1); err != nil {
		return err
	}
	return d.Memset32(o.ctrl, int64(unsafe.Offsetof(c.Deg))+8*int64(o.par), 0, 2)
}

// global relabels from the sink and rebuilds the active set in o.rep.
func (o *cudaOp) global(d *gpu.Dev) error {
	net, ctrl := o.net.Ptr(), o.ctrl.Ptr()
	if err := kernels.LaunchMfBFSInit(d, d.Grid(int64(o.n), mfBlock), mfBlock, net, ctrl); err != nil {
		return err
	}
	grid := d.Grid(32*int64(o.n), mfBlock)
	for k, batch := uint32(0), uint32(4); ; batch = min(2*batch, bfsBatchMax) {
		for j := k; j < k+batch; j++ {
			if err := kernels.LaunchMfBFSLevel(d, grid, mfBlock, net, ctrl, j); err != nil {
				return err
			}
		}
		k += batch
		if err := o.readCtrl(d); err != nil {
			return err
		}
		if o.host[0].Level[k%3] == 0 {
			break
		}
	}
	o.globals++
	if err := o.generate(d); err != nil {
		return err
	}
	o.workAt = o.host[0].Work
	return nil
}

// generate rebuilds the active set of the current parity from the excesses
// and labels, over every vertex, in o.rep.
func (o *cudaOp) generate(d *gpu.Dev) error {
	if err := o.zeroSet(d); err != nil {
		return err
	}
	toq := gpu.Flag(o.rep == decider.Queue)
	if err := kernels.LaunchMfGenDense(d, d.Grid(int64(o.n), mfBlock), mfBlock, o.net.Ptr(), o.ctrl.Ptr(), o.par, toq); err != nil {
		return err
	}
	return o.readCtrl(d)
}

func (o *cudaOp) Convert(r decider.Rep) error {
	if o.done || r == o.rep {
		return nil
	}
	return o.c.Do(func(d *gpu.Dev) error {
		o.rep = r
		return o.generate(d)
	})
}

func (o *cudaOp) Inspect(bool) (int64, int64) { return o.size, o.deg }

// Step runs one pass.
func (o *cudaOp) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	g0 := o.globals
	err := o.device(func(d *gpu.Dev) error {
		if req.Variant.Rep != o.rep {
			o.rep = req.Variant.Rep
			if err := o.generate(d); err != nil {
				return err
			}
		}
		return o.pass(d, req.Variant.Mapping == decider.Block)
	})
	if err != nil {
		return runtime.StepResult{}, err
	}
	res := runtime.StepResult{Edges: int64(o.host[0].Edges - o.edgesAt), Size: o.size, Degree: o.deg}
	o.edgesAt = o.host[0].Edges
	if g := o.globals - g0; g > 0 || o.hostAt >= 0 {
		res.Counts = map[string]int64{"global_relabels": g}
		if o.hostAt >= 0 {
			res.Counts["host_tail"] = 1
		}
	}
	if o.done {
		res.Size = 0
	}
	return res, nil
}

// pass launches push, relabel and the generation of the next set (into
// the other parity), reads the counters, and relabels globally when due.
func (o *cudaOp) pass(d *gpu.Dev, warp bool) error {
	queue := o.rep == decider.Queue
	items := int64(o.n)
	if queue {
		items = o.size
	}
	if warp {
		items *= 32
	}
	grid, net, ctrl := d.Grid(items, mfBlock), o.net.Ptr(), o.ctrl.Ptr()
	for _, relabel := range []bool{false, true} {
		if err := kernels.LaunchMfPass(d, kernels.MfPassOf(relabel, warp, queue), grid, mfBlock, net, ctrl, o.par); err != nil {
			return err
		}
	}
	out := o.par ^ 1
	var err error
	if queue {
		err = kernels.LaunchMfGenCand(d, d.Grid(int64(o.n), mfBlock), mfBlock, net, ctrl, out)
	} else {
		err = kernels.LaunchMfGenDense(d, d.Grid(int64(o.n), mfBlock), mfBlock, net, ctrl, out, 0)
	}
	if err != nil {
		return err
	}
	o.par = out
	o.passes++
	if err := o.readCtrl(d); err != nil {
		return err
	}
	if o.size > 0 && int64(o.host[0].Work-o.workAt) > o.trigger {
		return o.global(d)
	}
	return nil
}

func (o *cudaOp) Done() bool { return o.done }

// Close adds the device's counts to the run's and frees the device state.
func (o *cudaOp) Close() error {
	h := &o.host[0]
	o.f.pushes += int64(h.Pushes)
	o.f.relabels += int64(h.Relabels)
	o.f.globals += o.globals
	o.f.passes += o.passes
	return o.c.Do(func(d *gpu.Dev) error {
		o.times.Launches = d.Launches() - o.l0
		for _, s := range []*gpu.DeviceSlice[int64]{&o.off, &o.rev, &o.res, &o.exc} {
			s.Free(d)
		}
		for _, s := range []*gpu.DeviceSlice[uint32]{&o.head, &o.d, &o.pend, &o.act, &o.mark, &o.cand, &o.q[0], &o.q[1]} {
			s.Free(d)
		}
		o.in.Free(d)
		o.net.Free(d)
		o.ctrl.Free(d)
		return nil
	})
}

// placement says where phase 1 ran.
func (o *cudaOp) placement() string {
	s := fmt.Sprintf("phase 1 on %s: %d passes, %d global relabels on the device", o.c.Name(), o.passes, o.globals)
	if o.hostAt >= 0 {
		s += fmt.Sprintf(", finished on the host after pass %d (at most %d active vertices for %d passes)", o.hostAt, o.k.SerialBelow, o.k.HostAfter)
	}
	return s
}

var _ deviceOp = (*cudaOp)(nil)
