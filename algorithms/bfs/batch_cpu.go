package bfs

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/gearbox-graph/gearbox/algorithms/internal/frontier"
	"github.com/gearbox-graph/gearbox/decider"
	"github.com/gearbox-graph/gearbox/graph"
	"github.com/gearbox-graph/gearbox/runtime"
	"github.com/gearbox-graph/gearbox/workset"
)

// BatchWidth is the most sources RunBatch takes: one bit each of a uint64
// per vertex.
const BatchWidth = 64

// ErrBatch is wrapped for a batch of no sources or more than BatchWidth.
var ErrBatch = errors.New("bad BFS batch")

// BatchUnreached is a batch row's depth of a vertex its source does not
// reach.
const BatchUnreached = unreached

// RunBatch runs an independent BFS from each of sources (at most
// BatchWidth) in one traversal and hands over source i's depths as row(i,
// depth), in order; depth holds one value per vertex (BatchUnreached
// where unreached) and is reused after row returns. It is the multi-source
// BFS of Then et al. ("The More the Merrier: Efficient Multi-Source Graph
// Traversal", VLDB 2014): each vertex keeps one bit per source for "seen"
// and "in the frontier", so a vertex that several searches reach at the
// same level is expanded once for all of them, and its arcs are read once
// per level instead of once per source. Sources close to each other (a
// block of consecutive ids on a mesh, a community) share most of their
// levels. The CPU backend only (others: runtime.ErrUnsupported); options
// set the backend and workers. A row error stops the batch and is
// returned.
func RunBatch(ctx context.Context, g *graph.Graph, sources []uint32, row func(i int, depth []uint32) error, opts ...runtime.Option) error {
	if err := runtime.CheckArgs("bfs", ctx, g); err != nil {
		return err
	}
	if len(sources) == 0 || len(sources) > BatchWidth {
		return fmt.Errorf("bfs: %w: %d sources (1 to %d)", ErrBatch, len(sources), BatchWidth)
	}
	n := g.NumVertices()
	for _, s := range sources {
		if int64(s) >= int64(n) {
			return fmt.Errorf("bfs: %w: source %d, graph has %d vertices", ErrSource, s, n)
		}
	}
	cfg := runtime.NewConfigFor("bfs", opts...)
	cpu, ok := cfg.Backend().(*runtime.CPU)
	if !ok {
		return fmt.Errorf("bfs: batch on backend %s: %w", cfg.Backend().Name(), runtime.ErrUnsupported)
	}
	if err := cpu.Configure(decider.KnobLayers{}); err != nil { // a negative worker count
		return fmt.Errorf("bfs: %w", err)
	}
	b := NewBatcher(cpu, g)
	defer b.Close()
	return b.Run(ctx, sources, row)
}

// Batcher runs batches of RunBatch on one graph, keeping its buffers
// between batches (apsp's sources). Not safe for concurrent use.
type Batcher struct {
	g                 *graph.Graph
	cpu               *runtime.CPU
	seen, front, next []uint64
	depth             []uint32 // BatchWidth rows of n
	cur, nxt          *workset.Queue
	bufs              []workset.Buffer
	adv               *frontier.Advance
	pool              interface{ Release() }
}

// NewBatcher returns a batcher over g on cpu's workers.
func NewBatcher(cpu *runtime.CPU, g *graph.Graph) *Batcher {
	n := g.NumVertices()
	pool := cpu.NewPool()
	return &Batcher{g: g, cpu: cpu,
		seen: make([]uint64, n), front: make([]uint64, n), next: make([]uint64, n),
		cur: workset.NewQueue(n), nxt: workset.NewQueue(n),
		bufs: make([]workset.Buffer, pool.Workers()),
		adv:  frontier.New(pool, g.Offsets(), frontier.DefaultGrains),
		pool: pool,
	}
}

// Close releases the batcher's workers.
func (b *Batcher) Close() { b.pool.Release() }

// Run is RunBatch on the batcher's graph.
func (b *Batcher) Run(ctx context.Context, sources []uint32, row func(i int, depth []uint32) error) error {
	if len(sources) == 0 || len(sources) > BatchWidth {
		return fmt.Errorf("bfs: %w: %d sources (1 to %d)", ErrBatch, len(sources), BatchWidth)
	}
	n := b.g.NumVertices()
	k := len(sources)
	if len(b.depth) < k*n {
		b.depth = make([]uint32, k*n)
	}
	depth := b.depth[:k*n]
	pool := b.adv.Pool()
	pool.Thread(len(depth), 1<<15, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			depth[i] = unreached
		}
	})
	pool.Thread(n, 1<<14, func(_, lo, hi int) {
		clear(b.seen[lo:hi])
		clear(b.front[lo:hi])
		clear(b.next[lo:hi])
	})
	b.cur.Reset()
	for i, s := range sources {
		if b.seen[s] == 0 {
			b.cur.Push(s)
		}
		b.seen[s] |= 1 << i
		b.front[s] |= 1 << i
		depth[i*n+int(s)] = 0
	}
	adj := b.g.Adj()
	seen, front, next := b.seen, b.front, b.next
	for level := uint32(1); b.cur.Len() > 0; level++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("bfs: batch cancelled at level %d: %w", level, err)
		}
		// Expand: each frontier vertex offers its frontier bits to its
		// out-neighbours; seen is read-only during the level.
		b.adv.ForFrontier(frontier.QueueSet(b.cur.Items(), -1), decider.Thread, func(w int, u uint32, lo, hi int64) {
			f := front[u]
			for _, x := range adj[lo:hi] {
				nb := f &^ seen[x]
				if nb == 0 || atomic.LoadUint64(&next[x])&nb == nb {
					continue
				}
				if atomic.OrUint64(&next[x], nb) == 0 {
					b.bufs[w].Add(b.nxt, x)
				}
			}
		})
		for i := range b.bufs {
			b.bufs[i].Flush(b.nxt)
		}
		// Settle: the newly reached bits become seen, the next frontier
		// and depths of the level.
		for _, u := range b.cur.Items() {
			front[u] = 0
		}
		items := b.nxt.Items()
		pool.Thread(len(items), 256, func(_, lo, hi int) {
			for _, x := range items[lo:hi] {
				nb := next[x]
				next[x] = 0
				seen[x] |= nb
				front[x] = nb
				for m := nb; m != 0; m &= m - 1 {
					depth[bits.TrailingZeros64(m)*n+int(x)] = level
				}
			}
		})
		b.cur.Swap(b.nxt)
		b.nxt.Reset()
	}
	for i := range k {
		if err := row(i, depth[i*n:(i+1)*n]); err != nil {
			return err
		}
	}
	return nil
}
