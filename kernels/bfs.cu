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
    persist_levels(vis, off, adj, qa, qb, ctrl, par, max_levels, cap, edge_cap, local_e, ps);
}
