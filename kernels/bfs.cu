// bfs.cu: BFS computation kernels.
//
// Push kernels, one per point of the decision space
//   bfs_push_{o,u}_{t,b}_{bm,qu}
//     o/u   ordered (level-synchronous: a plain store, all writers of a level
//           write the same value) / unordered (atomicMin, any order);
//     t/b   thread mapping (one thread per working-set element) / block
//           mapping (one block per element, its threads striding over the
//           neighbour list: coalesced adjacency reads);
//     bm/qu the working set is a bitmap / a queue of ctrl->count[par] ids.
// A push kernel reads the working set, lowers the level of each neighbour
// to level[v]+1 and marks it in the update vector; heavy vertices go to a
// piece list that bfs_pieces_{o,u} expands next (expand.cuh).
//
// bfs_pull_t: the bottom-up step (Beamer) over a bitmap frontier: each
// unvisited vertex scans its in-neighbours and stops at the first one in the
// frontier.
//
// bfs_persist_qu: a persistent launch (one block per multiprocessor, grid
// barriers between levels) runs many levels while the frontier stays
// small, saving the launches and the host round trip of each level on
// high-diameter graphs.
//
// bfs_pull_persist: bottom-up levels in a persistent launch, then, once
// the frontier shrinks (the adaptive policy's way back), bfs_persist_qu's
// push levels in the same launch: the direction switches without a host
// round trip.
#include "expand.cuh"
#include "persist.cuh"

// The BFS step of expand.cuh: lower each neighbour's level to level[v]+1.
// Only vertices whose level goes down are written, so a visited neighbour
// costs one read.
template <bool ORDERED>
struct BFSVisit {
    const u32* __restrict__ adj;
    u32* level;
    u8* upd;
    typedef u32 S;
    struct Item {
        u32 u, nl;
    };
    __device__ __forceinline__ u32 source(u32 v) const { return level[v] + 1; }
    __device__ __forceinline__ Item item(u32 nl, i64 e) const { return Item{adj[e], nl}; }
    __device__ __forceinline__ bool improves(const Item& it) const { return level[it.u] > it.nl; }
    __device__ __forceinline__ void commit(const Item& it) const {
        if (ORDERED) {
            // Level-synchronous: every writer in this launch writes the same nl.
            level[it.u] = it.nl;
            upd[it.u] = 1;
        } else if (atomicMin(&level[it.u], it.nl) > it.nl) {
            upd[it.u] = 1;
        }
    }
};

#define BFS_PUSH(NAME, ORD, BLK, BM)                                                                          \
    extern "C" __global__ void __launch_bounds__(1024)                                                        \
        NAME(const i64* __restrict__ off, const u32* __restrict__ adj, u32* level, u8* upd,                   \
             const u32* __restrict__ ws, u32 n, Ctrl* ctrl, u32 par, u64* pieces) {                           \
        expand<BFSVisit<ORD>, BLK, BM>(BFSVisit<ORD>{adj, level, upd}, off, ws, n, ctrl, par, pieces);        \
    }

BFS_PUSH(bfs_push_o_t_bm, true, false, true)
BFS_PUSH(bfs_push_o_t_qu, true, false, false)
BFS_PUSH(bfs_push_o_b_bm, true, true, true)
BFS_PUSH(bfs_push_o_b_qu, true, true, false)
BFS_PUSH(bfs_push_u_t_bm, false, false, true)
BFS_PUSH(bfs_push_u_t_qu, false, false, false)
BFS_PUSH(bfs_push_u_b_bm, false, true, true)
BFS_PUSH(bfs_push_u_b_qu, false, true, false)

// The pieces a push kernel listed (expand.cuh).
#define BFS_PIECES(NAME, ORD)                                                                                     \
    extern "C" __global__ void __launch_bounds__(1024)                                                            \
        NAME(const i64* __restrict__ off, const u32* __restrict__ adj, u32* level, u8* upd,                       \
             const u64* __restrict__ pieces, const Ctrl* ctrl) {                                                  \
        expand_pieces<BFSVisit<ORD>>(BFSVisit<ORD>{adj, level, upd}, off, pieces, ctrl);                          \
    }

BFS_PIECES(bfs_pieces_o, true)
BFS_PIECES(bfs_pieces_u, false)

// Bottom-up step. toff/tadj is the transpose (in-neighbours; the graph
// itself when undirected). frontier holds exactly the vertices of level cur
// (BFS working sets always do: every vertex a level discovers gets the same
// level). The in-edges it examines are added to ctrl->edges.
extern "C" __global__ void __launch_bounds__(1024)
    bfs_pull_t(const i64* __restrict__ toff, const u32* __restrict__ tadj, u32* level, u8* upd,
               const u32* __restrict__ frontier, u32 n, u32 cur, Ctrl* ctrl, u32 par) {
    reset_slots(ctrl, par);
    u64 scanned = 0;
    for (u64 v = gtid(); v < n; v += gstride()) {
        if (level[v] != INF32) continue;
        i64 beg = toff[v], end = toff[v + 1];
        for (i64 e = beg; e < end; e++) {
            if (bit_test(frontier, tadj[e])) {
                level[v] = cur + 1;
                upd[v] = 1;
                end = e + 1;
                break;
            }
        }
        scanned += (u64)(end - beg);
    }
    block_sum64(scanned, &ctrl->edges);
}

// bfs_persist_qu: BFS levels in one persistent launch (persist.cuh).
// Unvisited neighbours are claimed with atomicCAS, so each enters the next
// queue once; cur is the current frontier's depth. The update vector is not
// used.
struct BFSPersist {
    static constexpr bool kBuckets = false;
    typedef int S;
    u32* depth;
    u32 cur;  // the launch's first frontier's depth
    u32 nl;   // the depth this level assigns
    __device__ void level(u32 done) { nl = cur + done + 1; }
    __device__ S vertex(u32, u32) { return 0; }
    __device__ bool visit(S, i64, u32 u) {
        return depth[u] == INF32 && atomicCAS(&depth[u], INF32, nl) == INF32;
    }
    __device__ void finish(const u32*, u32) {}
};

extern "C" __global__ void __launch_bounds__(PERSIST_THREADS, 1)
    bfs_persist_qu(const i64* __restrict__ off, const u32* __restrict__ adj, u32* level, u32* qa, u32* qb,
                   Ctrl* ctrl, u32 par, u32 cur, u32 max_levels, u32 cap, u64 edge_cap, u32 local_e, Persist* ps) {
    BFSPersist vis{level, cur, 0};
    persist_levels(vis, off, adj, qa, qb, ctrl, par, max_levels, cap, edge_cap, local_e, ps, PersistStart::of(ctrl, par));
}

// The adaptive policy gives up a pull that examined more than this many
// times its frontier's out-edges (decider.PullLossFactor).
#define PULL_LOSS 4
// Vertices a thread of bfs_pull_persist scans side by side, and its blocks
// per multiprocessor (kernels.PersistBlocksPerSM): a pull step is a chain
// of dependent loads per vertex (its depth, an in-edge, that neighbour's
// frontier bit), and one block of 512 threads per multiprocessor left too
// few of them in flight.
#define PULL_ILP 4
#define PULL_BLOCKS 2

// bfs_pull_persist: pull levels, then push levels, in one persistent
// launch (persist.cuh's grid, barrier and count slots). Each pull level
// reads its frontier as a bitmap through L1, as the ordinary pull kernel
// does (testing the neighbours' depths instead, read past L1, pulled at
// half that kernel's speed): the first is the working set, in qa: a
// bitmap, or with from_queue a queue, which the launch sets into bitmap 1
// at fb itself (two grid barriers instead of the conversion's memset and
// kernel, and their host synchronisation where conversions are timed);
// level i writes the next into bitmap i%2 of the two of words words at
// fb. Each bitmap word covers 32 consecutive vertices, all a warp's, so
// the warp stores the whole word and no bitmap needs clearing. A pull
// level counts what it finds, with its out-degree sum and largest degree,
// but queues nothing: the frontier is listed from its bitmap once, when
// the pulls end (a queue push per found vertex cost urand:22 ~80 µs of
// atomics).
//
// After each pull level the launch goes back to push where
// decider.adaptiveRun.Next would: the frontier shrank below push_below
// (n / Beta) vertices, or the level examined more than PULL_LOSS times
// the out-edges push would have relaxed. It then runs push levels as
// bfs_persist_qu does. toff/tadj are the in-edges (the graph itself when
// undirected).
extern "C" __global__ void __launch_bounds__(PERSIST_THREADS, PULL_BLOCKS)
    bfs_pull_persist(const i64* __restrict__ off, const u32* __restrict__ adj, const i64* __restrict__ toff,
                     const u32* __restrict__ tadj, u32* level, u32* qa, u32* qb, Ctrl* ctrl, u32 par, u32 n,
                     u32 cur, u32 push_below, u32* fb, u32 words, u32 from_queue, u32 max_levels, u32 cap,
                     u64 edge_cap, u32 local_e, Persist* ps) {
    const u64 stride = gstride();
    const u64 wbase = gtid() - lane_id();  // the warp's first vertex
    u32 count = ctrl->count[par];
    u64 deg = ctrl->deg[par];
    u32 maxdeg = 0, k = 0, done = 0;
    u64 edges = 0;
    bool back = false;
    const u32* fr = qa;
    if (from_queue) {
        u32* bm = fb + words;  // the bitmap the first pull level reads, not writes
        for (u64 i = gtid(); i < words; i += stride) __stcg(bm + i, 0u);
        grid_sync(ps);
        for (u64 i = gtid(); i < count; i += stride) {
            const u32 v = qa[i];
            atomicOr(bm + (v >> 5), 1u << (v & 31));
        }
        grid_sync(ps);
        fr = bm;
    }
    for (;;) {
        const u32 nl = cur + done + 1;
        u32* next = fb + (u64)(done & 1) * words;
        const u32 k1 = k == 2 ? 0 : k + 1;
        const u32 k2 = k1 == 2 ? 0 : k1 + 1;
        if (gtid() == 0) {
            ps->count[k2] = 0;
            ps->deg[k2] = 0;
            ps->maxdeg[k2] = 0;
        }
        u64 mydeg = 0, scanned = 0;
        u32 mymax = 0, found_n = 0;
        // PULL_ILP vertices at a time, a grid stride apart (each load
        // stays coalesced across the warp); each round tests the next
        // in-edge of every vertex still looking, its loads issued for all
        // PULL_ILP vertices before any is tested. Whole warps run every
        // trip (the bitmap words are ballots).
        for (u64 w0 = wbase; w0 < n; w0 += PULL_ILP * stride) {
            i64 e[PULL_ILP], e1[PULL_ILP];
#pragma unroll
            for (int j = 0; j < PULL_ILP; j++) {
                const u64 v = w0 + lane_id() + j * stride;
                e[j] = e1[j] = 0;
                if (v < n && __ldcg(level + v) == INF32) e[j] = toff[v], e1[j] = toff[v + 1];
                scanned += (u64)(e1[j] - e[j]);
            }
            u32 found = 0;  // bit j: vertex j found its parent
            for (;;) {
                u32 u[PULL_ILP], w[PULL_ILP];
                bool any = false;
#pragma unroll
                for (int j = 0; j < PULL_ILP; j++) {
                    u[j] = e[j] < e1[j] ? tadj[e[j]] : 0u;
                    any |= e[j] < e1[j];
                }
                if (!any) break;
#pragma unroll
                for (int j = 0; j < PULL_ILP; j++) w[j] = e[j] < e1[j] ? fr[u[j] >> 5] : 0u;
#pragma unroll
                for (int j = 0; j < PULL_ILP; j++) {
                    if (e[j] >= e1[j]) continue;
                    if ((w[j] >> (u[j] & 31u)) & 1u) {
                        found |= 1u << j;
                        scanned -= (u64)(e1[j] - e[j] - 1);  // the in-edges after the parent are not examined
                        e1[j] = e[j];
                    } else {
                        e[j]++;
                    }
                }
            }
#pragma unroll
            for (int j = 0; j < PULL_ILP; j++) {
                const u64 v = w0 + lane_id() + j * stride;
                const bool f = (found >> j) & 1u;
                const u32 word = __ballot_sync(FULL_MASK, f);
                if (lane_id() == 0 && w0 + j * stride < n) __stcg(next + ((w0 + j * stride) >> 5), word);
                if (!f) continue;
                level[v] = nl;  // v is this thread's alone in this level
                const u32 d = (u32)(off[v + 1] - off[v]);
                mydeg += d;
                mymax = d > mymax ? d : mymax;
                found_n++;
            }
        }
        block_count(found_n, &ps->count[k1]);
        block_sum64(mydeg, &ps->deg[k1]);
        block_max(mymax, &ps->maxdeg[k1]);
        block_sum64(scanned, &ps->nmin[0]);  // the arcs examined so far (nmin is SSSP's)
        grid_sync(ps);
        const u32 prev = count;
        const u64 prevdeg = deg;
        count = *(volatile u32*)&ps->count[k1];
        deg = *(volatile u64*)&ps->deg[k1];
        maxdeg = *(volatile u32*)&ps->maxdeg[k1];
        const u64 arcs = *(volatile u64*)&ps->nmin[0] - edges;
        edges += arcs;
        k = k1;
        done++;
        fr = next;
        if (count == 0 || done >= max_levels) break;
        if (arcs > PULL_LOSS * prevdeg || (count < push_below && count <= prev)) {
            back = true;
            break;
        }
    }
    // The frontier's list, from its bitmap, into qb: one reservation per
    // warp and word.
    if (count > 0) {
        if (gtid() == 0) ps->nmin[1] = 0;
        grid_sync(ps);
        u32* list = (u32*)&ps->nmin[1];
        for (u64 i = gtid(); i < warp_round(words); i += stride) {
            const u32 word = i < words ? fr[i] : 0u;
            const u32 base = warp_reserve(__popc(word), list);
            u32 r = 0;
            for (u32 b = word; b; b &= b - 1) qb[base + r++] = (u32)(i * 32 + __ffs(b) - 1);
        }
        grid_sync(ps);
    }
    // Every thread read the pull levels' slots before the last barriers;
    // the push levels go on in the same rotation. At the level limit the
    // launch ends with no push level.
    BFSPersist vis{level, cur, 0};
    persist_levels(vis, off, adj, qa, qb, ctrl, par, back || count == 0 ? max_levels : done, cap, edge_cap, local_e,
                   ps, PersistStart{count, deg, count > 0, true, maxdeg, k, done, edges});
}
