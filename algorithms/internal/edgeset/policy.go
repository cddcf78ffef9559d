package edgeset

import (
	"fmt"

	"github.com/gearbox-graph/gearbox/decider"
)

// Policy is the working-set policy of edge-centric operators (a
// decider.Policy): Li & Becchi's rule applied to the active edges,
// re-decided after every iteration from the exact active-edge count that
// the operator's pass produces for free, not only on sampled iterations,
// because these operators run few iterations and their working set
// collapses in the first of them.
//
//   - fewer than T3 x edges (Info.Universe) active: a queue of edges (each
//     element is one edge, so mapping does not matter there);
//   - otherwise a bitmap, with block mapping when the average degree is at
//     least T1 (long adjacency lists are split), else thread mapping.
//
// name labels the policy in traces (its String is name(T1=..,T3=..)).
func Policy(name string, t decider.Thresholds) decider.Policy { return policy{name, t} }

type policy struct {
	name string
	t    decider.Thresholds
}

func (p policy) String() string {
	return fmt.Sprintf("%s(T1=%g,T3=%g)", p.name, p.t.T1, p.t.T3)
}

// SampleEvery is 0: the pass counts the active edges exactly as a
// by-product, so the engine need not inspect the working set.
func (p policy) SampleEvery() int { return 0 }

func (p policy) Begin(info decider.Info) decider.Decider {
	return &run{p: p, info: info}
}

type run struct {
	p    policy
	info decider.Info
}

func (d *run) pick(size int64) decider.Variant {
	v := decider.Variant{Order: decider.Unordered, Mapping: decider.Thread, Rep: decider.Bitmap}
	if d.info.AvgDegree() >= d.p.t.T1 {
		v.Mapping = decider.Block
	}
	if float64(size) < d.p.t.T3*float64(d.info.Universe) {
		v.Mapping, v.Rep = decider.Block, decider.Queue
	}
	return v
}

func (d *run) Initial() decider.Variant { return d.pick(d.info.InitialSize) }

func (d *run) Next(o decider.Observation) decider.Variant {
	size := o.Size
	if o.Sampled {
		size = o.Sample.Size
	}
	if size < 0 {
		return o.Current
	}
	return d.pick(size)
}
