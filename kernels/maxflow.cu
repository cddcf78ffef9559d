// maxflow.cu: phase 1 of push-relabel (a maximum preflow) in synchronous
// passes, the shape of algorithms/maxflow's Sync solver (Hong & He's
// lock-free push-relabel made deterministic).
//
// State (MfNet, device pointers the host fills once): the residual network
// (off, head, rev, 64-bit residual capacities res), the excess exc (int64),
// the labels d (uint32, n = cannot reach the sink), the inboxes in (excess
// arriving during a pass), pend (labels computed by the pass, MF_NONE when
// none), and the working set of active vertices (excess > 0, label < n,
// neither terminal) as a bitmap act or a queue q[par].
//
// A pass of parity par is three launches:
//   mf_push_*     every active vertex u pushes, in arc order, along arcs
//                 u->x with d(x)+1 = d(u) and residual capacity, under the
//                 labels as the pass began. x never pushes back over the
//                 pair in the same pass (it would need d(u) = d(x)+1), so
//                 each arc pair is written by one vertex only: the residual
//                 updates need no atomics; the excess reaching x is added to
//                 in[x] with a 64-bit atomicAdd.
//   mf_relabel_*  every active vertex left with excess computes one plus
//                 its lowest residual neighbour's label (old labels: d is
//                 not written before the next launch) into pend.
//   mf_gen_*      applies inboxes and new labels and builds the next working
//                 set into parity par^1: over every vertex into the bitmap
//                 or a queue (mf_gen_dense), or over the candidates the pass
//                 listed (mf_gen_cand: vertices that received excess or
//                 relabelled, each listed once through the mark bitmap).
// The pass's result depends on no thread order: it is the CPU Sync pass's.
// _t kernels give a vertex to a thread; _w give it to a warp, whose lanes
// share its arcs in 32-arc chunks: a clamped prefix sum of the admissible
// residual capacities hands out the excess exactly as the serial arc-order
// loop does.
//
// The global relabel is a backward BFS from the sink over arcs with
// residual capacity (mf_bfs_init, then mf_bfs_level per level, one warp per
// frontier vertex), the blocked terminal never entered; vertices it does
// not reach keep label n (the gap heuristic's effect). Each level reads its
// frontier's size from level[k%3] on the device, so the host launches
// several levels between reads. mf_gen_dense then rebuilds the working set.
//
// The counters (MfCtrl) accumulate pushes, relabels, relabel work (12 plus
// the degree per relabel, hi_pr's measure that triggers global relabels)
// and arcs examined; size[p], deg[p] are the working set of parity p.
#include "common.cuh"

#define MF_NONE INF32
#define MF_RELABEL_COST 12

struct MfNet {
    u64 off;   // const i64*: CSR offsets (n+1)
    u64 head;  // const u32*: arc heads
    u64 rev;   // const i64*: reverse arc
    u64 res;   // i64*: residual capacities
    u64 exc;   // i64*: excess
    u64 in;    // u64*: excess arriving during a pass
    u64 d;     // u32*: labels
    u64 pend;  // u32*: labels computed by the pass (MF_NONE: none)
    u64 act;   // u32*: bitmap working set
    u64 mark;  // u32*: bitmap of listed candidates
    u64 cand;  // u32*: candidates of the next queue
    u64 q[2];  // u32*: queue working sets (ping-pong), BFS frontiers
    u32 n;     // vertices
    u32 sink;  // the terminal excess moves to
    u32 blocked;  // the other terminal (label n, never entered)
    u32 pad;
};

struct MfCtrl {
    u64 deg[2];      // summed out-degree of the working set of each parity
    u32 size[2];     // working-set sizes (ping-pong)
    u32 cand[2];     // candidates listed by the pass of each parity
    u64 pushes;      // accumulating counters
    u64 relabels;
    u64 work;        // relabel work
    u64 edges;       // arcs examined
    u32 level[3];    // BFS frontier sizes, rotating
    u32 maxlevel;    // the BFS's deepest label
};

// Typed view of MfNet.
struct MfView {
    const i64* off;
    const u32* head;
    const i64* rev;
    i64* res;
    i64* exc;
    u64* in;
    u32* d;
    u32* pend;
    u32* act;
    u32* mark;
    u32* cand;
    u32* q[2];
    u32 n, sink, blocked;
    __device__ explicit MfView(const MfNet* s)
        : off((const i64*)s->off), head((const u32*)s->head), rev((const i64*)s->rev), res((i64*)s->res),
          exc((i64*)s->exc), in((u64*)s->in), d((u32*)s->d), pend((u32*)s->pend), act((u32*)s->act),
          mark((u32*)s->mark), cand((u32*)s->cand), q{(u32*)s->q[0], (u32*)s->q[1]}, n(s->n), sink(s->sink),
          blocked(s->blocked) {}
    __device__ __forceinline__ bool terminal(u32 v) const { return v == sink || v == blocked; }
};

// Lists x as a candidate of the next queue once (queue mode).
__device__ __forceinline__ void mf_touch(const MfView& N, u32* count, u32 x) {
    const u32 bit = 1u << (x & 31u);
    if (!(atomicOr(N.mark + (x >> 5), bit) & bit)) N.cand[atomicAdd(count, 1u)] = x;
}

// Moves delta from u over arc e (to x): the pair is u's alone this pass.
__device__ __forceinline__ void mf_move(const MfView& N, u32* count, bool qu, i64 e, u32 x, i64 delta) {
    N.res[e] -= delta;
    N.res[N.rev[e]] += delta;
    atomicAdd(N.in + x, (u64)delta);
    if (qu && !N.terminal(x)) mf_touch(N, count, x);
}

// One thread discharges u along its admissible arcs in arc order.
__device__ __forceinline__ void mf_push_thread(const MfView& N, u32* count, bool qu, u32 u, u64& pushes, u64& edges) {
    i64 ex = N.exc[u];
    const u32 du = N.d[u];
    const i64 e0 = N.off[u], e1 = N.off[u + 1];
    i64 e = e0;
    for (; e < e1 && ex > 0; e++) {
        const u32 x = N.head[e];
        if (N.d[x] + 1u != du) continue;
        const i64 r = N.res[e];
        if (r == 0) continue;
        const i64 delta = r < ex ? r : ex;
        mf_move(N, count, qu, e, x, delta);
        ex -= delta;
        pushes++;
    }
    edges += (u64)(e - e0);
    N.exc[u] = ex;
}

// The warp discharges u: each chunk of 32 arcs hands out the excess by a
// prefix sum of the admissible capacities clamped at the excess (each term
// at most ex, so a sum of two never overflows 64 bits), which gives every
// arc what the serial loop would.
__device__ __forceinline__ void mf_push_warp(const MfView& N, u32* count, bool qu, u32 u, u64& pushes, u64& edges) {
    u64 ex = (u64)N.exc[u];
    const u32 du = N.d[u];
    const i64 e0 = N.off[u], e1 = N.off[u + 1];
    for (i64 base = e0; base < e1 && ex > 0; base += 32) {
        const i64 e = base + lane_id();
        u64 c = 0;
        u32 x = 0;
        if (e < e1) {
            edges++;
            x = N.head[e];
            if (N.d[x] + 1u == du) {
                const u64 r = (u64)N.res[e];
                c = r < ex ? r : ex;
            }
        }
        u64 incl = c;
        for (int o = 1; o < 32; o <<= 1) {
            const u64 y = __shfl_up_sync(FULL_MASK, incl, o);
            if ((int)lane_id() >= o) {
                incl += y;
                if (incl > ex) incl = ex;
            }
        }
        // What the arcs before this lane took: the clamped sum up to lane-1.
        u64 before = __shfl_up_sync(FULL_MASK, incl, 1);
        if (lane_id() == 0) before = 0;
        const u64 left = ex - before;
        const u64 delta = c < left ? c : left;
        if (delta > 0) {
            mf_move(N, count, qu, e, x, (i64)delta);
            pushes++;
        }
        ex -= __shfl_sync(FULL_MASK, incl, 31);
    }
    if (lane_id() == 0) N.exc[u] = (i64)ex;
}

// New label of u: one above its lowest residual neighbour (n at most).
__device__ __forceinline__ u32 mf_label_thread(const MfView& N, u32 u, u64& edges) {
    u32 nd = N.n;
    const i64 e0 = N.off[u], e1 = N.off[u + 1];
    for (i64 e = e0; e < e1; e++) {
        if (N.res[e] > 0) {
            const u32 l = N.d[N.head[e]] + 1u;
            if (l < nd) nd = l;
        }
    }
    edges += (u64)(e1 - e0);
    return nd;
}

__device__ __forceinline__ u32 mf_label_warp(const MfView& N, u32 u, u64& edges) {
    u32 nd = N.n;
    const i64 e0 = N.off[u], e1 = N.off[u + 1];
    for (i64 e = e0 + lane_id(); e < e1; e += 32) {
        edges++;
        if (N.res[e] > 0) {
            const u32 l = N.d[N.head[e]] + 1u;
            if (l < nd) nd = l;
        }
    }
    for (int o = 16; o > 0; o >>= 1) {
        const u32 y = __shfl_down_sync(FULL_MASK, nd, o);
        if (y < nd) nd = y;
    }
    return __shfl_sync(FULL_MASK, nd, 0);
}

// Calls f(u) for every vertex of the working set of parity par: by one
// thread each (WARP false) or by all lanes of a warp (WARP true; the loops
// are warp-uniform, as the shuffles inside f need).
template <bool QU, bool WARP, class F>
__device__ __forceinline__ void mf_for_set(const MfView& N, const MfCtrl* c, u32 par, F f) {
    const u64 unit = WARP ? gtid() >> 5 : gtid();
    const u64 stride = WARP ? gstride() >> 5 : gstride();
    if (QU) {
        const u64 size = c->size[par];
        const u32* q = N.q[par];
        for (u64 i = unit; i < size; i += stride) f(q[i]);
        return;
    }
    if (WARP) {
        const u64 words = ((u64)N.n + 31u) >> 5;
        for (u64 w = unit; w < words; w += stride) {
            for (u32 bits = N.act[w]; bits != 0; bits &= bits - 1u) f((u32)(w << 5) + (u32)(__ffs(bits) - 1));
        }
        return;
    }
    for (u64 v = unit; v < N.n; v += stride) {
        if (bit_test(N.act, v)) f((u32)v);
    }
}

template <bool QU, bool WARP>
__device__ __forceinline__ void mf_push(const MfNet* net, MfCtrl* c, u32 par) {
    const MfView N(net);
    if (gtid() == 0) {
        c->size[par ^ 1] = 0;
        c->deg[par ^ 1] = 0;
        c->cand[par ^ 1] = 0;
    }
    u64 pushes = 0, edges = 0;
    u32* count = &c->cand[par];
    mf_for_set<QU, WARP>(N, c, par, [&](u32 u) {
        if (WARP) mf_push_warp(N, count, QU, u, pushes, edges);
        else mf_push_thread(N, count, QU, u, pushes, edges);
    });
    block_sum64(pushes, &c->pushes);
    block_sum64(edges, &c->edges);
}

template <bool QU, bool WARP>
__device__ __forceinline__ void mf_relabel(const MfNet* net, MfCtrl* c, u32 par) {
    const MfView N(net);
    u64 relabels = 0, work = 0, edges = 0;
    u32* count = &c->cand[par];
    mf_for_set<QU, WARP>(N, c, par, [&](u32 u) {
        if (N.exc[u] == 0) return;
        const u32 nd = WARP ? mf_label_warp(N, u, edges) : mf_label_thread(N, u, edges);
        if (WARP && lane_id() != 0) return;
        N.pend[u] = nd;
        relabels++;
        work += MF_RELABEL_COST + (u64)(N.off[u + 1] - N.off[u]);
        if (QU) mf_touch(N, count, u);
    });
    block_sum64(relabels, &c->relabels);
    block_sum64(work, &c->work);
    block_sum64(edges, &c->edges);
}

#define MF_PASS(NAME, FN, QU, WARP)                                                      \
    extern "C" __global__ void __launch_bounds__(1024) NAME(const MfNet* net, MfCtrl* c, u32 par) { \
        FN<QU, WARP>(net, c, par);                                                       \
    }

MF_PASS(mf_push_t_bm, mf_push, false, false)
MF_PASS(mf_push_w_bm, mf_push, false, true)
MF_PASS(mf_push_t_qu, mf_push, true, false)
MF_PASS(mf_push_w_qu, mf_push, true, true)
MF_PASS(mf_relabel_t_bm, mf_relabel, false, false)
MF_PASS(mf_relabel_w_bm, mf_relabel, false, true)
MF_PASS(mf_relabel_t_qu, mf_relabel, true, false)
MF_PASS(mf_relabel_w_qu, mf_relabel, true, true)

// Applies u's inbox and new label; reports whether u is active.
__device__ __forceinline__ bool mf_apply(const MfView& N, u32 u) {
    const u64 x = N.in[u];
    if (x) {
        N.in[u] = 0;
        N.exc[u] += (i64)x;
    }
    const u32 p = N.pend[u];
    if (p != MF_NONE) {
        N.pend[u] = MF_NONE;
        N.d[u] = p;
    }
    return N.exc[u] > 0 && N.d[u] < N.n && !N.terminal(u);
}

__device__ __forceinline__ u64 mf_degree(const MfView& N, u32 u) { return (u64)(N.off[u + 1] - N.off[u]); }

// Every vertex: applies the pass and writes the working set of parity out
// as a bitmap (toq 0: a ballot per 32 vertices, one store a word) or a
// queue (toq 1). Also rebuilds the set after a global relabel or for a
// conversion (nothing pending then); the host zeroes size[out], deg[out]
// first there, the push kernel does within a pass.
extern "C" __global__ void __launch_bounds__(1024) mf_gen_dense(const MfNet* net, MfCtrl* c, u32 out, u32 toq) {
    const MfView N(net);
    u64 deg = 0;
    u32 count = 0;
    for (u64 v = gtid(); v < warp_round(N.n); v += gstride()) {
        bool a = false;
        if (v < N.n) {
            a = mf_apply(N, (u32)v);
            if (a) deg += mf_degree(N, (u32)v);
        }
        if (toq) {
            warp_push(a, (u32)v, N.q[out], &c->size[out]);
        } else {
            const u32 m = __ballot_sync(FULL_MASK, a);
            if (lane_id() == 0) {
                N.act[v >> 5] = m;
                count += __popc(m);
            }
        }
    }
    block_count(count, &c->size[out]);
    block_sum64(deg, &c->deg[out]);
}

// The candidates listed by the pass of parity out^1: clears their marks,
// applies the pass and queues the active ones as the set of parity out;
// thread 0 collects the terminals' inboxes (they are never listed).
extern "C" __global__ void __launch_bounds__(1024) mf_gen_cand(const MfNet* net, MfCtrl* c, u32 out) {
    const MfView N(net);
    const u64 listed = c->cand[out ^ 1];
    if (gtid() == 0) {
        mf_apply(N, N.sink);
        mf_apply(N, N.blocked);
    }
    u64 deg = 0;
    for (u64 i = gtid(); i < warp_round(listed); i += gstride()) {
        bool a = false;
        u32 u = 0;
        if (i < listed) {
            u = N.cand[i];
            atomicAnd(N.mark + (u >> 5), ~(1u << (u & 31u)));
            a = mf_apply(N, u);
            if (a) deg += mf_degree(N, u);
        }
        warp_push(a, u, N.q[out], &c->size[out]);
    }
    block_sum64(deg, &c->deg[out]);
}

// Global relabel, first launch: every label n but the sink's 0, the sink
// alone in the frontier q[0].
extern "C" __global__ void __launch_bounds__(1024) mf_bfs_init(const MfNet* net, MfCtrl* c) {
    const MfView N(net);
    for (u64 v = gtid(); v < N.n; v += gstride()) N.d[v] = v == N.sink ? 0u : N.n;
    if (gtid() == 0) {
        N.q[0][0] = N.sink;
        c->level[0] = 1;
        c->level[1] = 0;
        c->level[2] = 0;
        c->maxlevel = 0;
    }
}

// Level k of the global relabel: the frontier q[k&1] (level[k%3] vertices)
// labels k+1 every unlabelled vertex with a residual arc into it, once (a
// CAS), into q[(k&1)^1]. A warp per frontier vertex, its lanes over the
// arcs: the sink of a vision grid has an arc to every pixel. level[(k+2)%3]
// was last read by level k-1, which has ended: it is cleared for level k+1.
extern "C" __global__ void __launch_bounds__(1024) mf_bfs_level(const MfNet* net, MfCtrl* c, u32 k) {
    const MfView N(net);
    const u32* cur = N.q[k & 1u];
    u32* next = N.q[(k & 1u) ^ 1u];
    const u64 size = c->level[k % 3u];
    u32* count = &c->level[(k + 1u) % 3u];
    if (gtid() == 0) c->level[(k + 2u) % 3u] = 0;
    bool found = false;
    for (u64 i = gtid() >> 5; i < size; i += gstride() >> 5) {
        const u32 u = cur[i];
        for (i64 e = N.off[u] + lane_id(); e < N.off[u + 1]; e += 32) {
            const u32 w = N.head[e];
            if (w == N.blocked || N.d[w] != N.n || N.res[N.rev[e]] <= 0) continue;
            if (atomicCAS(N.d + w, N.n, k + 1u) == N.n) {
                next[atomicAdd(count, 1u)] = w;
                found = true;
            }
        }
    }
    if (found) atomicMax(&c->maxlevel, k + 1u);
}
