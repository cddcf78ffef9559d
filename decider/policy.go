package decider

import (
	"fmt"
	"math"

	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/inspector"
)

// Info describes a run to a policy before it starts.
type Info struct {
	// N is the number of vertices and M the number of stored arcs.
	N int
	M int64
	// Universe is the number of possible working-set elements (N for
	// vertex-centric operators, M for edge-centric ones); T3 is a fraction
	// of it.
	Universe int64
	// InitialSize is the size of the first working set (1 for a
	// single-source traversal).
	InitialSize int64
	// CanPull reports whether the operator implements the pull direction.
	CanPull bool
	// MaxDegree is the graph's largest out-degree (0: unknown).
	MaxDegree int64
	// InDegrees returns the graph's in-degree distribution, from which the
	// adaptive policy predicts a pull step's cost (PullScan). It is called
	// only when Beamer's rule first proposes a pull; nil: no prediction.
	InDegrees func() *graph.DegreeProfile
}

// AvgDegree returns M/N (0 for an empty graph).
func (i Info) AvgDegree() float64 {
	if i.N == 0 {
		return 0
	}
	return float64(i.M) / float64(i.N)
}

// Observation is what the engine tells a policy after each iteration.
type Observation struct {
	// Iteration is the index of the iteration just finished (from 0).
	Iteration int
	// Current is the variant that ran it.
	Current Variant
	// Size and Degree are the cheap counts of the generated working set
	// that the operator produced as a by-product of computing it (size,
	// summed out-degree); -1 when unknown.
	Size, Degree int64
	// HiddenDegree is the summed out-degree of the working sets generated
	// and consumed inside the iteration when it ran several levels at once
	// (a persistent GPU launch): the policy sees them only through it.
	HiddenDegree int64
	// Edges is the number of arcs the iteration examined (a push step its
	// working set's out-edges, a pull step the in-arcs it scanned before
	// finding parents); 0 when unknown.
	Edges int64
	// Sampled reports whether the inspector sampled the working set this
	// iteration; Sample holds the result.
	Sampled bool
	Sample  inspector.Sample
}

// Policy chooses variants. It is immutable and safe for concurrent use;
// Begin returns the per-run state. A policy may also have a method
// SampleEvery() int giving the inspection period the engine should use
// (0: never inspect); Static returns 0, Adaptive its thresholds' period.
// The engine asks through the package function SampleEvery.
type Policy interface {
	Begin(info Info) Decider
	String() string
}

// Decider is one run's instance of a policy.
type Decider interface {
	// Initial returns the variant of the first iteration.
	Initial() Variant
	// Next returns the variant of the next iteration.
	Next(o Observation) Variant
}

// Static always uses one variant.
func Static(v Variant) Policy { return staticPolicy{v} }

type staticPolicy struct{ v Variant }

func (p staticPolicy) Begin(Info) Decider       { return p }
func (p staticPolicy) Initial() Variant         { return p.v }
func (p staticPolicy) Next(Observation) Variant { return p.v }
func (p staticPolicy) String() string           { return "static(" + p.v.String() + ")" }

// SampleEvery is 0: a static policy never looks at samples, so the
// engine does not inspect.
func (p staticPolicy) SampleEvery() int         { return 0 }
func (p staticPolicy) Variant() (Variant, bool) { return p.v, true }

// StaticVariant returns the fixed variant of a Static policy.
func StaticVariant(p Policy) (Variant, bool) {
	s, ok := p.(staticPolicy)
	return s.v, ok
}

// SampleEvery returns the inspection period a run of policy p uses: the
// policy's own where it has a method SampleEvery() int (0: it never looks
// at samples), else fallback (the thresholds' sample_every).
func SampleEvery(p Policy, fallback int) int {
	if m, ok := p.(interface{ SampleEvery() int }); ok {
		return m.SampleEvery()
	}
	return fallback
}

// DualFrom returns, for the next iteration of a run of policy p described
// by info (sampled: the inspector samples the working set it generates),
// the smallest summed out-degree of the current working set from which the
// generated one may be wanted in the other representation: math.MaxInt64
// (never) for a Static policy; for a policy with a method DualFrom(Info,
// bool) int64, its answer; otherwise 0 (always). Operators that can
// generate both representations at once (which makes a conversion free,
// but costs a bitmap's n/8 bytes of stores) use it to do so only where a
// change is possible: a generated working set has at most the current
// one's summed out-degree elements (push steps; an ordered SSSP's pending
// vertices can exceed it, and then a conversion runs its kernel).
func DualFrom(p Policy, info Info, sampled bool) int64 {
	if _, ok := StaticVariant(p); ok {
		return math.MaxInt64
	}
	if m, ok := p.(interface{ DualFrom(Info, bool) int64 }); ok {
		return m.DualFrom(info, sampled)
	}
	return 0
}

// Adaptive returns the policy of Li & Becchi, Fig. 11, with Beamer's
// direction rule for operators that can pull:
//
//   - working set below T2: block mapping, queue;
//   - between T2 and T3·Universe: queue, block mapping if the graph's
//     average out-degree is at least T1, else thread mapping;
//   - at or above T3·Universe: bitmap (on graphs of at least
//     BitmapMinVertices vertices; a queue below), mapping by T1 as above.
//
// Push goes to pull when the frontier's out-edges exceed both the
// unexplored edges / Alpha (Beamer) and N / Beta (the cost of the pull
// step's scan over all vertices), and reach PullMinEdges (below which a
// GPU iteration's fixed cost dominates); pull goes back to push when the
// frontier shrinks below N / Beta. A pull step that examined more than
// PullLossFactor times its frontier's out-edges (what push would have
// relaxed) lost to push: the run goes back to push at once, and pulls
// again only for a frontier of more than twice those out-edges. Beamer's
// test assumes most unvisited vertices find a parent early; on graphs
// where few do (p2p-Gnutella31: a pull scanned 94K arcs for a frontier of
// about 13K out-edges), it pulls level after level at several times push's
// cost.
//
// The structure (mapping and representation) changes on iterations the
// inspector sampled (every SampleEvery), and, where JumpFactor > 0, as soon
// as the working set's cheap size has grown or shrunk by that factor since
// the size the structure was chosen for: an SSSP frontier grows from one
// vertex to 10^5 within the first sampling period, which the structure
// chosen for one vertex (block mapping, a queue) then ran. The direction
// test runs every iteration on the operator's cheap counts (frontier size
// and out-degree sum, by-products of the compute step, so free): BFS on low-diameter
// graphs lasts fewer levels than SampleEvery, and waiting would miss the
// switch. A direction switch forces a conversion anyway, so at a switch
// back to push the structure is re-decided from the cheap size.
//
// The order is that of order (Ordered: level-synchronous BFS,
// delta-stepping SSSP); the adaptive policy does not change it mid-run.
func Adaptive(t Thresholds, order Order) Policy { return adaptivePolicy{t: t, order: order} }

type adaptivePolicy struct {
	t     Thresholds
	order Order
}

func (p adaptivePolicy) String() string {
	jump := ""
	if p.t.JumpFactor > 0 {
		jump = fmt.Sprintf(",jump=%g", p.t.JumpFactor)
	}
	return fmt.Sprintf("adaptive(T1=%g,T2=%d,T3=%g,every=%d%s,alpha=%g,beta=%g,order=%v)",
		p.t.T1, p.t.T2, p.t.T3, p.t.SampleEvery, jump, p.t.Alpha, p.t.Beta, p.order)
}

// Thresholds returns the thresholds of an Adaptive policy.
func (p adaptivePolicy) Thresholds() Thresholds { return p.t }

// SampleEvery returns the inspection period the engine uses for this
// policy (policies without the method get the thresholds' sample_every).
func (p adaptivePolicy) SampleEvery() int { return p.t.SampleEvery }

// DualFrom implements the bound of the package function DualFrom. A
// bitmap needs a working set of T3 x Universe elements on a graph of at
// least BitmapMinVertices vertices, and the structure changes only on
// sampled iterations (or any, with a JumpFactor); BFS's pull (a bitmap),
// decided every iteration, needs a frontier of max(PullMinEdges, N/Beta)
// out-edges, at most the current degree sum times the largest degree, and
// never on a graph of fewer arcs than PullMinEdges.
func (p adaptivePolicy) DualFrom(info Info, sampled bool) int64 {
	t := p.t
	from := float64(math.MaxInt64)
	if (sampled || t.JumpFactor > 0) && int64(info.N) >= t.BitmapMinVertices {
		from = math.Ceil(t.T3 * float64(info.Universe))
	}
	if info.CanPull && p.order == Ordered && info.M >= t.PullMinEdges {
		md := info.MaxDegree
		if md <= 0 { // unknown: no bound
			md = max(info.M, 1)
		}
		from = min(from, math.Ceil(max(float64(t.PullMinEdges), float64(info.N)/t.Beta)/float64(md)))
	}
	if from >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(max(from, 0))
}

func (p adaptivePolicy) Begin(info Info) Decider {
	d := &adaptiveRun{p: p, info: info, unexplored: info.M}
	d.choose(info.InitialSize)
	return d
}

// PullLossFactor is how many more arcs than its frontier's out-edges a
// pull step may examine before the adaptive policy counts it as lost to
// push. An arc costs a pull a bit test and a push an atomic update: on
// p2p-Gnutella31 on two CPU cores 3.6 ns against 10.8 per arc, on the H100
// (urand:22 BFS) 20 ps against 91. Where Beamer's rule pays, a pull
// examines fewer arcs than push would: urand:22's first pull on the H100
// scanned 13.6M arcs for a frontier of 971K vertices of 32 out-edges each.
const PullLossFactor = 4

// PullScan predicts how many in-arcs a pull step examines in all, if every
// vertex of profile scans its in-arcs until one comes from the frontier
// and each does so with probability p independently: a vertex of in-degree
// d scans (1-(1-p)^d)/p of them in expectation. Each term is capped at its
// vertex's in-degree d by construction, so p <= 0 gives a full scan.
func PullScan(profile *graph.DegreeProfile, p float64) float64 {
	var s float64
	if p <= 0 {
		for i := range profile.Len() {
			d, c := profile.At(i)
			s += float64(d) * float64(c)
		}
		return s
	}
	if p >= 1 {
		return float64(profile.AtLeast(0))
	}
	q := math.Log1p(-p)
	for i := range profile.Len() {
		d, c := profile.At(i)
		miss := math.Exp(float64(d) * q) // (1-p)^d
		if miss < 1e-9 {
			// Every vertex from here on finds a parent within its first
			// arcs: 1/p each. Stopping here bounds the loop at degrees of
			// about 21/p.
			return s + float64(profile.AtLeast(i))/p
		}
		s += float64(c) * (1 - miss) / p
	}
	return s
}

type adaptiveRun struct {
	p          adaptivePolicy
	info       Info
	structure  Variant // last push variant decided from a sample
	unexplored int64   // arcs not yet scanned by push (Beamer's edges_to_check)
	pulling    bool
	degree     int64 // the current working set's out-edges (the last observation's Degree)
	pullFloor  int64 // pull only for frontiers of more out-edges (after a pull lost to push)
	lastSize   int64
	decided    int64 // the size structure was chosen for
	inDegrees  *graph.DegreeProfile
}

// pullLoses predicts whether pulling the next level from a frontier of
// frontier out-edges would cost more than pushing it. In units of a push's
// arc, a pull costs N/Beta for its pass over every vertex (the rule in
// Next already demands that much) plus 1/PullLossFactor per in-arc it
// examines. Those arcs: the arcs into unreached vertices are about the
// unexplored ones less the frontier's own; each comes from the frontier
// with probability frontier / those (uniform mixing), and the unreached
// vertices hold that share of the in-degree profile (PullScan).
//
// Beamer's alpha rule alone ignores how the frontier's edges spread over
// the unreached vertices' in-arcs: on p2p-Gnutella31 (CPU, 2 cores) it
// pulled a frontier of 9.9K out-edges, which scanned 110K arcs in 359 µs
// against push's 146 (this model predicts 120K); on rome99, a frontier of
// 267 out-edges late in the search, where a pull scanned 1081 arcs and
// every vertex in 6.8 µs against push's 1.7.
func (d *adaptiveRun) pullLoses(frontier int64) bool {
	if d.info.InDegrees == nil || d.info.M <= 0 {
		return false
	}
	into := d.unexplored - frontier
	if into <= 0 {
		return false
	}
	if d.inDegrees == nil {
		d.inDegrees = d.info.InDegrees()
	}
	p := min(1, float64(frontier)/float64(into))
	scan := float64(into) / float64(d.info.M) * PullScan(d.inDegrees, p)
	return float64(d.info.N)/d.p.t.Beta+scan/PullLossFactor > float64(frontier)
}

// choose sets the structure for a working set of size elements.
func (d *adaptiveRun) choose(size int64) { d.structure, d.decided = d.structural(size), size }

// structural applies Fig. 11 to a working-set size.
func (d *adaptiveRun) structural(size int64) Variant {
	t := d.p.t
	v := Variant{Order: d.p.order, Mapping: Thread, Rep: Queue}
	if d.info.AvgDegree() >= t.T1 {
		v.Mapping = Block
	}
	switch {
	case size < t.T2:
		v.Mapping, v.Rep = Block, Queue
	case float64(size) >= t.T3*float64(d.info.Universe) && int64(d.info.N) >= t.BitmapMinVertices:
		v.Rep = Bitmap
	}
	return v
}

func (d *adaptiveRun) Initial() Variant { return d.structure }

func (d *adaptiveRun) Next(o Observation) Variant {
	switch f := d.p.t.JumpFactor; {
	case o.Sampled:
		d.choose(o.Sample.Size)
	case f > 0 && o.Size >= 0 && (float64(o.Size) >= f*float64(max(d.decided, 1)) || f*float64(o.Size) <= float64(d.decided)):
		d.choose(o.Size)
	}
	if d.info.CanPull && d.p.order == Ordered {
		t := d.p.t
		if !d.pulling {
			if o.Degree >= 0 {
				// Frontiers expanded inside the iteration are explored.
				d.unexplored -= o.HiddenDegree
				// Beamer's test, plus: the frontier's out-edges must
				// also outweigh n/beta, because a pull step scans every
				// vertex, which the alpha rule (edges only) ignores. On
				// high-diameter graphs the unexplored edges shrink near
				// the end and the alpha rule alone pulls for tiny
				// frontiers, each pull costing an O(n) scan.
				if float64(o.Degree) > float64(d.unexplored)/t.Alpha && float64(o.Degree) > float64(d.info.N)/t.Beta &&
					o.Degree >= t.PullMinEdges && o.Degree > d.pullFloor && !d.pullLoses(o.Degree) {
					d.pulling = true
				}
				d.unexplored -= o.Degree
			}
		} else if o.Current.Direction == Pull && d.degree > 0 && float64(o.Edges) > PullLossFactor*float64(d.degree) {
			// This pull cost more than push would have.
			d.pulling, d.pullFloor = false, 2*d.degree
			d.choose(o.Size)
		} else if o.Size >= 0 && float64(o.Size) < float64(d.info.N)/t.Beta && o.Size <= d.lastSize {
			d.pulling = false
			d.choose(o.Size)
		}
		d.lastSize, d.degree = o.Size, o.Degree
		if d.pulling {
			return PullVariant
		}
	}
	return d.structure
}
