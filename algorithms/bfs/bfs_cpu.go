package bfs

import (
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/workset"
)

// counters are per-worker tallies, padded to a cache line so workers do not
// share lines.
type counters struct {
	size, deg, edges int64
	_                [40]byte
}

// cpuOp is the BFS operator on the CPU backend. The frontier lives in curQ
// or curB (rep says which); compute writes the next frontier into nextQ (via
// per-worker buffers) or nextB.
type cpuOp struct {
	g     *graph.Graph
	gt    *graph.Graph // in-edges for pull, built on first use
	pool  *mapping.Pool
	off   []int64
	adj   []uint32
	depth []uint32
	srcs  []uint32
	level uint32 // depth of the current frontier

	rep         decider.Rep
	curQ, nextQ *workset.Queue
	curB, nextB *workset.Bitmap
	upd         *workset.Bitmap // update vector deduplicating unordered queue output
	outQ        bool            // compute writes to nextQ
	dedup       bool            // unordered queue output: nextQ items are set in upd
	bufs        []workset.Buffer
	cnt         []counters
	adv         *frontier.Advance
	done        bool
	// deg is the current working set's summed out-degree: a small
	// bitmap's thread mapping runs on the caller (Grains.SerialEdges).
	deg int64
}

func newCPU(b *runtime.CPU, g *graph.Graph, srcs []uint32) *cpuOp {
	n := g.NumVertices()
	pool := b.NewPool()
	o := &cpuOp{
		g: g, pool: pool, off: g.Offsets(), adj: g.Adj(), srcs: srcs,
		depth: hostmem.Slice[uint32](n)(), // reuses a released result's memory
		curQ:  workset.NewQueue(n), nextQ: workset.NewQueue(n),
		curB: workset.NewBitmap(n), nextB: workset.NewBitmap(n), upd: workset.NewBitmap(n),
		bufs: make([]workset.Buffer, pool.Workers()),
		cnt:  make([]counters, pool.Workers()),
		adv:  frontier.New(pool, g.Offsets(), grains),
	}
	pool.Thread(n, 1<<14, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			o.depth[i] = unreached
		}
	})
	return o
}

func (o *cpuOp) Info() runtime.OperatorInfo {
	n := o.g.NumVertices()
	return runtime.OperatorInfo{Info: decider.Info{N: n, M: o.g.NumEdges(), Universe: int64(n), InitialSize: int64(len(o.srcs)), CanPull: true,
		InDegrees: o.g.InDegreeProfile}}
}

// DeviceTimes is nil: the operator runs on the host.
func (o *cpuOp) DeviceTimes() *runtime.GPUTimes { return nil }

// Step computes one level with variant req.Variant and generates the next
// frontier.
func (o *cpuOp) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	e, err := o.compute(req.Variant)
	if err != nil {
		return runtime.StepResult{}, err
	}
	size, deg, err := o.generate(req.Variant.Rep)
	return runtime.StepResult{Edges: e, Size: size, Degree: deg}, err
}

func (o *cpuOp) Start(v decider.Variant) error {
	o.rep = v.Rep
	o.deg = 0
	for _, s := range o.srcs {
		if o.depth[s] == 0 {
			continue // a repeated source
		}
		o.depth[s] = 0
		o.deg += o.off[s+1] - o.off[s]
		if v.Rep == decider.Queue {
			o.curQ.Push(s)
		} else {
			o.curB.Set(s)
		}
	}
	return nil
}

func (o *cpuOp) Done() bool { return o.done }

func (o *cpuOp) Depths() hostmem.Values { return hostmem.ValuesOf(o.depth) }

func (o *cpuOp) Close() error {
	o.pool.Release()
	return nil
}

func (o *cpuOp) Convert(r decider.Rep) error {
	frontier.Convert(o.pool, o.rep, r, o.curQ, o.curB)
	o.rep = r
	return nil
}

func (o *cpuOp) Inspect(degree bool) (int64, int64) {
	return frontier.Count(o.pool, o.rep, o.curQ, o.curB, o.off, degree)
}

func (o *cpuOp) compute(v decider.Variant) (int64, error) {
	if v.Direction == decider.Pull && o.rep != decider.Bitmap || v.Rep != o.rep {
		// The engine converts before computing; this covers the first
		// iteration of a pull variant given a queue and direct callers.
		r := v.Rep
		if v.Direction == decider.Pull {
			r = decider.Bitmap
		}
		if err := o.Convert(r); err != nil {
			return 0, err
		}
	}
	clear(o.cnt)
	if v.Direction == decider.Pull {
		o.outQ, o.dedup = false, false
		o.pull()
	} else {
		o.outQ = v.Rep == decider.Queue
		o.dedup = o.outQ && v.Order == decider.Unordered
		o.push(v)
	}
	var e int64
	for i := range o.cnt {
		e += o.cnt[i].edges
	}
	return e, nil
}

func (o *cpuOp) generate(r decider.Rep) (int64, int64, error) {
	var size, deg int64
	for i := range o.cnt {
		size += o.cnt[i].size
		deg += o.cnt[i].deg
	}
	if o.outQ {
		for i := range o.bufs {
			o.bufs[i].Flush(o.nextQ)
		}
		o.curQ.Swap(o.nextQ)
		o.nextQ.Reset()
		if o.dedup {
			o.upd.ClearItems(o.pool, o.curQ.Items())
		}
		o.rep = decider.Queue
	} else {
		o.curB.Swap(o.nextB)
		o.nextB.Clear(o.pool)
		o.rep = decider.Bitmap
	}
	o.level++
	o.done = size == 0
	o.deg = deg
	if err := o.Convert(r); err != nil {
		return 0, 0, err
	}
	return size, deg, nil
}

// emit records a newly discovered (or lowered) vertex v for worker w.
func (o *cpuOp) emit(w int, v uint32) {
	c := &o.cnt[w]
	switch {
	case o.dedup:
		if !o.upd.SetAtomic(v) {
			return
		}
		o.bufs[w].Add(o.nextQ, v)
	case o.outQ:
		o.bufs[w].Add(o.nextQ, v)
	default:
		if !o.nextB.SetAtomic(v) {
			return
		}
	}
	c.size++
	c.deg += o.off[v+1] - o.off[v]
}

// loadDepth reads a depth that other workers may be lowering.
func (o *cpuOp) loadDepth(v uint32) uint32 { return atomic.LoadUint32(&o.depth[v]) }
