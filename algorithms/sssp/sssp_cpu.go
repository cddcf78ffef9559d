package sssp

import (
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/internal/hostmem"
	"github.com/gearbox-graph/gearbox/mapping"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/workset"
)

// ringSize is the number of consecutive buckets kept in each worker's ring
// of bins; lowerings further ahead go to the worker's far list and are
// re-bucketed when the ring runs dry (so huge distances / small Delta cost
// no memory per empty bucket).
const ringSize = 1 << 12

// noBucket marks a worker's ring as empty (worker.low).
const noBucket = math.MaxUint64

// maxMerged bounds the width of one work-targeted iteration: a merged
// iteration is a bucket up to 8 times the graph's delta wide, made of
// bins of the bucket delta (narrower on skewed graphs). The GPU's
// histogram holds 63 bins (kernels.BucketBins-1). On the CPU a cap of 16
// was within noise of 8 on the 512x512 grid, and 63 was slower there on
// a 2-core VM.
const maxMerged = 8

// mergedBins returns how many bins of width bucketDelta one merged
// iteration may take: maxMerged x delta wide, at least one bin, at most
// the ring.
func mergedBins(delta, bucketDelta uint64) uint64 {
	if bucketDelta == 0 {
		return maxMerged
	}
	return min(max(maxMerged*delta/bucketDelta, 1), ringSize)
}

// farItem is a pending lowering beyond the ring: vertex and the bucket it
// was lowered into (stale when the vertex's distance has moved since).
type farItem struct {
	v   uint32
	idx uint64
}

// worker is one worker's private state, padded against false sharing.
type worker struct {
	bins [][]uint32 // bins[i % ringSize] holds bucket i
	// low bounds the buckets with entries in bins from below (noBucket:
	// none), so findMin skips an empty ring instead of reading its 4096
	// slices: that scan of 16 workers' rings cost 0.2-0.4 ms on 16 cores,
	// each time most rings were empty (a run's first and last iterations,
	// and whenever one worker had filed everything).
	low uint64
	// filed counts the entries in bins, so that findMin skips an emptied
	// ring at once: low alone let the first findMin after a ring emptied
	// read its 4096 bins, which ended every 16-core email-Enron run with
	// about 0.1 ms of reads of 16 empty rings.
	filed            int
	far              []farItem
	scratch          []uint32
	buf              workset.Buffer
	size, deg, edges int64
	_                [64]byte
}

// cpuOp is the SSSP operator on the CPU backend.
type cpuOp[D distance] struct {
	g     *graph.Graph
	pool  *mapping.Pool
	off   []int64
	adj   []uint32
	wts   []uint32
	dist  []D
	srcs  []uint32
	delta uint64
	shift int // log2(delta) when delta is a power of two, else -1
	// target is the adaptive policy's bucket_edges times the workers
	// (0: one bucket per ordered iteration); merge bounds the buckets one
	// iteration takes.
	target int64
	merge  uint64

	rep         decider.Rep
	curQ, nextQ *workset.Queue
	curB, nextB *workset.Bitmap
	upd         *workset.Bitmap
	adv         *frontier.Advance
	ws          []worker

	cur      uint64 // bucket index of the current working set
	last     uint64 // its last bucket (cur unless buckets were merged)
	bucketed bool   // the current working set is exactly bucket cur
	ordered  bool   // mode of the last step
	outQ     bool   // unordered output goes to nextQ (else nextB)
	done     bool
	binsUsed bool // ordered iterations filed vertices in bins since the last gatherAll
}

// fits32 reports whether every distance of a graph of n vertices with
// arc weights up to maxW stays below math.MaxUint32 (the unreached value):
// a shortest path has at most n-1 arcs.
func fits32(n int, maxW uint32) bool {
	return n == 0 || uint64(n-1)*uint64(maxW) < math.MaxUint32
}

// newCPU returns the CPU operator, with 32-bit distances when no simple
// path can reach 2^32-1 ((n-1) * max weight below it: half the memory
// traffic of the random distance accesses), else 64-bit ones. Ordered
// iterations take buckets of width delta; with a bucket target they take
// consecutive ones until their out-edges reach it, up to merge of them.
func newCPU(b *runtime.CPU, g *graph.Graph, srcs []uint32, delta uint64, target int64, merge uint64) operator {
	if fits32(g.NumVertices(), g.MaxWeight()) {
		return newCPUOp[uint32](b, g, srcs, delta, target, merge)
	}
	return newCPUOp[uint64](b, g, srcs, delta, target, merge)
}

func newCPUOp[D distance](b *runtime.CPU, g *graph.Graph, srcs []uint32, delta uint64, target int64, merge uint64) *cpuOp[D] {
	n := g.NumVertices()
	pool := b.NewPool()
	o := &cpuOp[D]{
		g: g, pool: pool, off: g.Offsets(), adj: g.Adj(), wts: g.Weights(), srcs: srcs, delta: max(delta, 1), target: target * int64(pool.Workers()), merge: max(merge, 1),
		dist: hostmem.Slice[D](n)(), // reuses a released result's memory
		curQ: workset.NewQueue(n), nextQ: workset.NewQueue(n),
		curB: workset.NewBitmap(n), nextB: workset.NewBitmap(n), upd: workset.NewBitmap(n),
		ws:  takeWorkers(pool.Workers()),
		adv: frontier.New(pool, g.Offsets(), grains),
	}
	o.shift = -1
	if o.delta&(o.delta-1) == 0 {
		o.shift = bits.TrailingZeros64(o.delta)
	}
	pool.Thread(n, 1<<14, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			o.dist[i] = ^D(0)
		}
	})
	return o
}

func (o *cpuOp[D]) Info() runtime.OperatorInfo {
	n := o.g.NumVertices()
	return runtime.OperatorInfo{Info: decider.Info{N: n, M: o.g.NumEdges(), Universe: int64(n), InitialSize: int64(len(o.srcs))}}
}

// DeviceTimes is nil: the operator runs on the host.
func (o *cpuOp[D]) DeviceTimes() *runtime.GPUTimes { return nil }

// Step relaxes the working set with variant req.Variant and generates the
// next one.
func (o *cpuOp[D]) Step(req runtime.StepRequest) (runtime.StepResult, error) {
	e, err := o.compute(req.Variant)
	if err != nil {
		return runtime.StepResult{}, err
	}
	size, deg, err := o.generate(req.Variant.Rep)
	return runtime.StepResult{Edges: e, Size: size, Degree: deg}, err
}

func (o *cpuOp[D]) Start(v decider.Variant) error {
	o.rep = v.Rep
	for _, s := range o.srcs {
		if o.dist[s] == 0 {
			continue // a repeated source
		}
		o.dist[s] = 0
		if v.Rep == decider.Queue {
			o.curQ.Push(s)
		} else {
			o.curB.Set(s)
		}
	}
	o.cur, o.last, o.bucketed = 0, 0, true
	return nil
}

func (o *cpuOp[D]) Done() bool { return o.done }

// Distances returns the distances in the width the run used.
func (o *cpuOp[D]) Distances() hostmem.Values {
	switch d := any(o.dist).(type) {
	case []uint32:
		return hostmem.ValuesOf(d)
	case []uint64:
		return hostmem.ValuesOf(d)
	}
	panic("sssp: distance type") // D is uint32 or uint64
}
func (o *cpuOp[D]) Close() error {
	o.pool.Release()
	if o.ws != nil {
		releaseWorkers(o.ws, o.done)
		o.ws = nil
	}
	return nil
}

// workerSets keeps finished runs' worker state for the next run: making a
// ring of 4096 bins per worker, and growing the bins again, took a tenth of
// a 16-core SSSP run on email-Enron.
var workerSets sync.Pool // of *[]worker

// takeWorkers returns n workers with empty rings.
func takeWorkers(n int) []worker {
	if p, ok := workerSets.Get().(*[]worker); ok && len(*p) == n {
		return *p
	}
	ws := make([]worker, n)
	for i := range ws {
		ws[i].bins = make([][]uint32, ringSize)
		ws[i].low = noBucket
	}
	return ws
}

// releaseWorkers empties ws and keeps it for takeWorkers. A finished run
// has drained every bin already; a stopped one (cancelled, failed) may not.
func releaseWorkers(ws []worker, drained bool) {
	for i := range ws {
		w := &ws[i]
		if !drained {
			for k := range w.bins {
				w.bins[k] = w.bins[k][:0]
			}
		}
		w.far, w.scratch = w.far[:0], w.scratch[:0]
		w.size, w.deg, w.edges = 0, 0, 0
		w.low, w.filed = noBucket, 0
	}
	workerSets.Put(&ws)
}

// bucket returns d's bucket index; a power-of-two Delta (the common case)
// shifts instead of dividing.
func (o *cpuOp[D]) bucket(d uint64) uint64 {
	if o.shift >= 0 {
		return d >> uint(o.shift)
	}
	return d / o.delta
}

func (o *cpuOp[D]) Convert(r decider.Rep) error {
	frontier.Convert(o.pool, o.rep, r, o.curQ, o.curB)
	o.rep = r
	return nil
}

func (o *cpuOp[D]) Inspect(degree bool) (int64, int64) {
	return frontier.Count(o.pool, o.rep, o.curQ, o.curB, o.off, degree)
}

func (o *cpuOp[D]) compute(v decider.Variant) (int64, error) {
	if err := o.Convert(v.Rep); err != nil {
		return 0, err
	}
	for i := range o.ws {
		w := &o.ws[i]
		w.size, w.deg, w.edges = 0, 0, 0
	}
	o.ordered = v.Order == decider.Ordered
	o.outQ = v.Rep == decider.Queue
	if o.ordered {
		o.computeOrdered(v.Mapping)
	} else {
		o.computeUnordered(v.Mapping)
	}
	var e int64
	for i := range o.ws {
		e += o.ws[i].edges
	}
	return e, nil
}

// generate builds the next working set: in ordered mode the minimum
// non-empty bucket (found by a reduction over the workers' rings), in
// unordered mode every pending vertex.
func (o *cpuOp[D]) generate(r decider.Rep) (int64, int64, error) {
	var size int64
	if o.ordered {
		// Buckets whose entries all went stale are skipped.
		for size == 0 {
			next, ok := o.findMin()
			if !ok && o.rebucket() {
				next, ok = o.findMin()
			}
			if !ok {
				o.done = true
				return 0, -1, nil
			}
			size = o.gatherBuckets(next, r)
			o.cur = next
		}
	} else {
		size = o.gatherAll(r)
		o.bucketed = false
	}
	o.done = size == 0
	return size, -1, nil
}

// findMin returns the smallest bucket index with pending vertices in any
// worker's ring (the paper's findmin, as a reduction over workers).
// Every entry of a ring lies in buckets [cur, cur+ringSize): later ones go
// to the far list, earlier ones have been gathered.
func (o *cpuOp[D]) findMin() (uint64, bool) {
	best, found := uint64(0), false
	for i := range o.ws {
		w := &o.ws[i]
		if w.filed == 0 {
			w.low = noBucket
		}
		if w.low == noBucket {
			continue
		}
		end := o.cur + ringSize
		if found {
			end = best
		}
		idx := max(o.cur, w.low)
		for ; idx < end; idx++ {
			if len(w.bins[idx%ringSize]) > 0 {
				best, found = idx, true
				break
			}
		}
		switch {
		case idx < end: // found at idx
			w.low = idx
		case end == o.cur+ringSize: // the whole window is empty
			w.low = noBucket
		default: // empty below best
			w.low = max(w.low, end)
		}
	}
	return best, found
}

// rebucket moves far items into the rings once the ring is empty: stale
// items are dropped, the window restarts at the smallest live bucket.
func (o *cpuOp[D]) rebucket() bool {
	minIdx, any := uint64(0), false
	for i := range o.ws {
		w := &o.ws[i]
		live := w.far[:0]
		for _, it := range w.far {
			if o.bucket(uint64(o.dist[it.v])) == it.idx {
				live = append(live, it)
				if !any || it.idx < minIdx {
					minIdx, any = it.idx, true
				}
			}
		}
		w.far = live
	}
	if !any {
		return false
	}
	o.cur = minIdx
	for i := range o.ws {
		w := &o.ws[i]
		keep := w.far[:0]
		for _, it := range w.far {
			if it.idx < minIdx+ringSize {
				w.bins[it.idx%ringSize] = append(w.bins[it.idx%ringSize], it.v)
				w.low = min(w.low, it.idx)
				w.filed++
			} else {
				keep = append(keep, it)
			}
		}
		w.far = keep
	}
	return true
}

// gatherBuckets makes bucket first the current working set in
// representation r and empties its bins; with a bucket target (the
// adaptive policy's bucket_edges per worker) it goes on with the buckets
// after it while the set's out-edges stay below the target, up to
// merge buckets. bucketed records whether the set is exactly one
// bucket, last its last bucket. Stale entries (moved to a lower bucket
// since they were filed) are dropped and duplicates merged; it returns
// the working set's size.
func (o *cpuOp[D]) gatherBuckets(first uint64, r decider.Rep) int64 {
	if r == decider.Queue {
		o.curQ.Reset()
	} else {
		o.curB.Clear(o.pool)
	}
	var size, deg int64
	idx := first
	for {
		s, d := o.gatherBucket(idx, r)
		size, deg = size+s, deg+d
		idx++
		if o.target <= 0 || deg >= o.target || idx-first >= o.merge || idx-o.cur >= ringSize {
			break
		}
	}
	if r == decider.Queue {
		o.upd.ClearItems(o.pool, o.curQ.Items())
	}
	o.bucketed = idx == first+1
	o.last = idx - 1
	o.rep = r
	return size
}

// gatherBucket adds bucket idx to the current working set (in
// representation r, reset by the caller) and empties its bins; it returns
// the vertices it added and their out-edges. Each worker gathers its own
// bin, which it filled. Gathering all bins as one list cut evenly among
// the workers took 1.05-1.12x the time on 2 cores and gained nothing clear
// on 16.
func (o *cpuOp[D]) gatherBucket(idx uint64, r decider.Rep) (int64, int64) {
	slot := idx % ringSize
	pending := o.pendingIn(idx, idx+1)
	if pending == 0 {
		return 0, 0
	}
	par := pending >= smallWork
	var total, edges atomic.Int64
	if r == decider.Queue {
		o.pool.RunIf(par, func(w int) {
			ws := &o.ws[w]
			var c, e int64
			for _, v := range ws.bins[slot] {
				if o.bucket(o.load(v)) == idx && o.upd.SetAtomic(v) {
					ws.buf.Add(o.curQ, v)
					c++
					e += o.off[v+1] - o.off[v]
				}
			}
			ws.buf.Flush(o.curQ)
			total.Add(c)
			edges.Add(e)
		})
	} else {
		o.pool.RunIf(par, func(w int) {
			var c, e int64
			for _, v := range o.ws[w].bins[slot] {
				if o.bucket(o.load(v)) == idx && o.curB.SetAtomic(v) {
					c++
					e += o.off[v+1] - o.off[v]
				}
			}
			total.Add(c)
			edges.Add(e)
		})
	}
	for i := range o.ws {
		w := &o.ws[i]
		w.filed -= len(w.bins[slot])
		w.bins[slot] = w.bins[slot][:0]
	}
	return total.Load(), edges.Load()
}

// pendingIn returns the entries filed in the workers' bins of buckets
// [first, end).
func (o *cpuOp[D]) pendingIn(first, end uint64) int {
	n := 0
	for i := range o.ws {
		for idx := first; idx < end; idx++ {
			n += len(o.ws[i].bins[idx%ringSize])
		}
	}
	return n
}

// gatherAll makes every pending vertex (the unordered update vector plus
// anything left in rings and far lists) the current working set.
func (o *cpuOp[D]) gatherAll(r decider.Rep) int64 {
	// Pending bins from earlier ordered iterations join the update vector.
	if o.binsUsed {
		o.binsUsed = false
		o.pool.Run(func(w int) {
			ws := &o.ws[w]
			for s := range ws.bins {
				for _, v := range ws.bins[s] {
					o.emitUnordered(w, v)
				}
				ws.bins[s] = ws.bins[s][:0]
			}
			for _, it := range ws.far {
				o.emitUnordered(w, it.v)
			}
			ws.far = ws.far[:0]
			ws.low, ws.filed = noBucket, 0
		})
	}
	var size int64
	for i := range o.ws {
		size += o.ws[i].size
	}
	if o.outQ {
		for i := range o.ws {
			o.ws[i].buf.Flush(o.nextQ)
		}
		o.curQ.Swap(o.nextQ)
		o.nextQ.Reset()
		o.upd.ClearItems(o.pool, o.curQ.Items())
		o.rep = decider.Queue
	} else {
		o.curB.Swap(o.nextB)
		o.nextB.Clear(o.pool)
		o.rep = decider.Bitmap
	}
	if err := o.Convert(r); err != nil {
		return 0
	}
	return size
}

// emitUnordered adds a lowered vertex to the unordered update vector once.
func (o *cpuOp[D]) emitUnordered(w int, v uint32) {
	if o.outQ {
		if o.upd.SetAtomic(v) {
			o.ws[w].buf.Add(o.nextQ, v)
			o.ws[w].size++
		}
	} else if o.nextB.SetAtomic(v) {
		o.ws[w].size++
	}
}

// emitOrdered files a lowered vertex in worker w's bin for its new
// distance's bucket (duplicates allowed; stale entries skipped later).
func (o *cpuOp[D]) emitOrdered(w int, v uint32, d uint64) {
	idx := o.bucket(d)
	ws := &o.ws[w]
	if idx-o.cur < ringSize {
		ws.bins[idx%ringSize] = append(ws.bins[idx%ringSize], v)
		ws.low = min(ws.low, idx)
		ws.filed++
	} else {
		ws.far = append(ws.far, farItem{v, idx})
	}
	ws.size++
}

// lower atomically sets dist[v] = min(dist[v], d) and reports whether it
// lowered it.
func (o *cpuOp[D]) lower(v uint32, d uint64) bool {
	p := &o.dist[v]
	if unsafe.Sizeof(*p) == 4 {
		q := (*uint32)(unsafe.Pointer(p))
		for {
			old := atomic.LoadUint32(q)
			if uint64(old) <= d {
				return false
			}
			if atomic.CompareAndSwapUint32(q, old, uint32(d)) {
				return true
			}
		}
	}
	q := (*uint64)(unsafe.Pointer(p))
	for {
		old := atomic.LoadUint64(q)
		if old <= d {
			return false
		}
		if atomic.CompareAndSwapUint64(q, old, d) {
			return true
		}
	}
}

// load reads dist[v] atomically as a uint64 (an unreached 32-bit distance
// reads as 2^32-1, above every real distance by newCPU's bound).
func (o *cpuOp[D]) load(v uint32) uint64 {
	p := &o.dist[v]
	if unsafe.Sizeof(*p) == 4 {
		return uint64(atomic.LoadUint32((*uint32)(unsafe.Pointer(p))))
	}
	return atomic.LoadUint64((*uint64)(unsafe.Pointer(p)))
}

// distance is the integer type of a run's distances.
type distance interface{ ~uint32 | ~uint64 }
