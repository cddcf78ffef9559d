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
#include "expand.cuh"

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

// bfs_persist_qu: many levels in one persistent launch of at most one
// block per multiprocessor (PERSIST_THREADS threads each; every block must
// be resident: levels are separated by grid_sync). qa holds the current
// frontier (ctrl->count[par] vertices at level cur), qb is scratch of n
// entries. Each frontier vertex is expanded by a group of PERSIST_GROUP
// lanes; unvisited neighbours are claimed with atomicCAS (each enters the
// next queue once) and queued through a block-local buffer. The launch
// stops before a level whose frontier is empty, larger than cap, has more
// than edge_cap out-edges or a vertex of more than PERSIST_MAXDEG, or after
// max_levels levels; on exit ctrl->count[par^1] and deg[par^1]
// describe the frontier left, fused_levels counts the levels run, fused_swap
// is 1 when that frontier is in qb and edges_out counts the edges examined. ps is
// zeroed by the host before the launch. The update vector is not used.
extern "C" __global__ void __launch_bounds__(PERSIST_THREADS, 1)
    bfs_persist_qu(const i64* __restrict__ off, const u32* __restrict__ adj, u32* level, u32* qa, u32* qb,
                   Ctrl* ctrl, u32 par, u32 cur, u32 max_levels, u32 cap, u64 edge_cap, Persist* ps) {
    __shared__ u32 s_q[PERSIST_SQ];
    __shared__ u32 s_n, s_base;
    if (threadIdx.x == 0) s_n = 0;
    u32 count = ctrl->count[par];
    u64 deg = ctrl->deg[par];
    u32* in = qa;
    u32* out = qb;
    const u64 gid = gtid();
    const u64 group = gid / PERSIST_GROUP;
    const u32 sub = (u32)(gid % PERSIST_GROUP);
    const u64 ngroups = gstride() / PERSIST_GROUP;
    // The first frontier's largest degree (later ones are measured as
    // their vertices are found).
    u32 md = 0;
    if (count <= cap && deg <= edge_cap) {
        for (u64 i = gid; i < count; i += gstride()) {
            u32 v = in[i];
            u32 d = (u32)(off[v + 1] - off[v]);
            md = d > md ? d : md;
        }
    }
    block_max(md, &ps->maxdeg[0]);
    grid_sync(ps);
    u32 maxdeg = *(volatile u32*)&ps->maxdeg[0];
    u32 k = 0, done = 0;
    u64 edges = 0;
    while (done < max_levels && count > 0 && count <= cap && deg <= edge_cap && maxdeg <= PERSIST_MAXDEG) {
        u32 k1 = k == 2 ? 0 : k + 1;
        u32 k2 = k1 == 2 ? 0 : k1 + 1;
        u32* ncount = &ps->count[k1];
        if (gid == 0) {
            ps->count[k2] = 0;
            ps->deg[k2] = 0;
            ps->maxdeg[k2] = 0;
        }
        u32 nl = cur + 1;
        u64 mydeg = 0;
        u32 mymax = 0;
        for (u64 i = group; i < count; i += ngroups) {
            u32 v = in[i];
            i64 end = off[v + 1];
            for (i64 e = off[v] + sub; e < end; e += PERSIST_GROUP) {
                u32 u = adj[e];
                if (level[u] == INF32 && atomicCAS(&level[u], INF32, nl) == INF32) {
                    u32 d = (u32)(off[u + 1] - off[u]);
                    mydeg += d;
                    mymax = d > mymax ? d : mymax;
                    persist_push(u, s_q, &s_n, out, ncount);
                }
            }
        }
        persist_flush(s_q, &s_n, &s_base, out, ncount);
        block_sum64(mydeg, &ps->deg[k1]);
        block_max(mymax, &ps->maxdeg[k1]);
        grid_sync(ps);
        edges += deg;
        count = *(volatile u32*)ncount;
        deg = *(volatile u64*)&ps->deg[k1];
        maxdeg = *(volatile u32*)&ps->maxdeg[k1];
        u32* t = in;
        in = out;
        out = t;
        cur = nl;
        done++;
        k = k1;
    }
    if (gid == 0) {
        ctrl->count[par ^ 1] = count;
        ctrl->deg[par ^ 1] = deg;
        ctrl->fused_levels = done;
        ctrl->fused_swap = (in == qb) ? 1u : 0u;
        ctrl->edges_out = edges;
        ctrl->maxdeg = done > 0 ? maxdeg : INF32;  // unknown when no level ran
    }
}
