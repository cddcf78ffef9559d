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
// to level[v]+1 and marks it in the update vector. Only vertices whose level
// goes down are written, so a visited neighbour costs one read.
//
// bfs_pull_t: the bottom-up step (Beamer) over a bitmap frontier: each
// unvisited vertex scans its in-neighbours and stops at the first one in the
// frontier.
//
// bfs_fused_qu: one block runs many levels in one launch while the frontier
// stays small (a queue of at most cap <= 4096 vertices), saving the launches
// and the host round trip of each level on high-diameter graphs.
#include "common.cuh"

template <bool ORDERED>
__device__ __forceinline__ void bfs_visit(u32* level, u8* upd, u32 u, u32 nl) {
    if (level[u] <= nl) return;
    if (ORDERED) {
        // Level-synchronous: every writer in this launch writes the same nl.
        level[u] = nl;
        upd[u] = 1;
    } else if (atomicMin(&level[u], nl) > nl) {
        upd[u] = 1;
    }
}

template <bool ORDERED, bool BLOCK, bool BITMAP>
__device__ __forceinline__ void bfs_push(const i64* __restrict__ off, const u32* __restrict__ adj, u32* level,
                                         u8* upd, const u32* __restrict__ ws, u32 n, Ctrl* ctrl, u32 par) {
    reset_slots(ctrl, par);
    if (!BLOCK) {
        u64 count = BITMAP ? (u64)n : (u64)ctrl->count[par];
        for (u64 i = gtid(); i < count; i += gstride()) {
            u32 v;
            if (BITMAP) {
                if (!bit_test(ws, i)) continue;
                v = (u32)i;
            } else {
                v = ws[i];
            }
            u32 nl = level[v] + 1;
            i64 end = off[v + 1];
            for (i64 e = off[v]; e < end; e++) bfs_visit<ORDERED>(level, upd, adj[e], nl);
        }
    } else if (BITMAP) {
        // One block per set bit: blocks take 32-vertex words in turn and walk
        // the word's set bits together (block-uniform control flow).
        u64 nwords = ((u64)n + 31) >> 5;
        for (u64 w = blockIdx.x; w < nwords; w += gridDim.x) {
            u32 bits = ws[w];
            while (bits) {
                u32 b = __ffs(bits) - 1;
                bits &= bits - 1;
                u32 v = (u32)(w * 32 + b);
                u32 nl = level[v] + 1;
                i64 end = off[v + 1];
                for (i64 e = off[v] + threadIdx.x; e < end; e += blockDim.x) bfs_visit<ORDERED>(level, upd, adj[e], nl);
            }
        }
    } else {
        u64 count = ctrl->count[par];
        for (u64 i = blockIdx.x; i < count; i += gridDim.x) {
            u32 v = ws[i];
            u32 nl = level[v] + 1;
            i64 end = off[v + 1];
            for (i64 e = off[v] + threadIdx.x; e < end; e += blockDim.x) bfs_visit<ORDERED>(level, upd, adj[e], nl);
        }
    }
}

#define BFS_PUSH(NAME, ORD, BLK, BM)                                                                          \
    extern "C" __global__ void __launch_bounds__(1024)                                                        \
        NAME(const i64* __restrict__ off, const u32* __restrict__ adj, u32* level, u8* upd,                   \
             const u32* __restrict__ ws, u32 n, Ctrl* ctrl, u32 par) {                                        \
        bfs_push<ORD, BLK, BM>(off, adj, level, upd, ws, n, ctrl, par);                                       \
    }

BFS_PUSH(bfs_push_o_t_bm, true, false, true)
BFS_PUSH(bfs_push_o_t_qu, true, false, false)
BFS_PUSH(bfs_push_o_b_bm, true, true, true)
BFS_PUSH(bfs_push_o_b_qu, true, true, false)
BFS_PUSH(bfs_push_u_t_bm, false, false, true)
BFS_PUSH(bfs_push_u_t_qu, false, false, false)
BFS_PUSH(bfs_push_u_b_bm, false, true, true)
BFS_PUSH(bfs_push_u_b_qu, false, true, false)

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

// Many levels in one launch, one block of 1024 threads (launch with
// gridDim 1, blockDim 1024). qa holds the current frontier
// (ctrl->count[par] vertices, all at level cur); qb is scratch of n entries.
// Each level is edge-parallel: the frontier's degrees are prefix-summed in
// shared memory and thread j takes edges j, j+1024, ... (a binary search
// finds the edge's source), so a level costs a few dependent memory
// accesses whatever the degrees. Unvisited neighbours are claimed with
// atomicCAS, so every vertex enters the next queue once. The loop stops
// when the frontier is empty, when it grows past cap (at most FUSED_CAP;
// the multi-block kernels take over), when its edges exceed FUSED_EDGES
// (one block would take long over a hub's edges), or after max_levels
// levels. On return ctrl->count[par^1] and ctrl->deg[par^1]
// describe the frontier, ctrl->fused_levels says how many levels ran,
// ctrl->fused_swap is 1 when the frontier ended in qb and ctrl->edges_out
// counts the edges examined. The update vector is not used: the frontier is
// the working set.
#define FUSED_CAP 4096
#define FUSED_EDGES (1u << 16)
#define FUSED_THREADS 1024

// Exclusive block-wide prefix sum of one value per thread (blockDim.x ==
// FUSED_THREADS); returns the thread's offset and sets *total.
__device__ __forceinline__ u32 block_exclusive_scan(u32 x, u32* s_warp, u32* total) {
    u32 lane = lane_id(), warp = threadIdx.x >> 5;
    u32 incl = x;
    for (int o = 1; o < 32; o <<= 1) {
        u32 t = __shfl_up_sync(FULL_MASK, incl, o);
        if (lane >= (u32)o) incl += t;
    }
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        u32 w = s_warp[lane];  // 32 warps of 1024 threads
        u32 wi = w;
        for (int o = 1; o < 32; o <<= 1) {
            u32 t = __shfl_up_sync(FULL_MASK, wi, o);
            if (lane >= (u32)o) wi += t;
        }
        s_warp[lane] = wi - w;  // exclusive warp offsets
        if (lane == 31) s_warp[32] = wi;
    }
    __syncthreads();
    u32 r = s_warp[warp] + incl - x;
    *total = s_warp[32];
    return r;
}

extern "C" __global__ void __launch_bounds__(FUSED_THREADS, 1)
    bfs_fused_qu(const i64* __restrict__ off, const u32* __restrict__ adj, u32* level, u32* qa, u32* qb, Ctrl* ctrl,
                 u32 par, u32 cur, u32 max_levels, u32 cap) {
    __shared__ u32 s_v[FUSED_CAP];
    __shared__ u32 s_pre[FUSED_CAP + 1];
    __shared__ u32 s_warp[33];
    __shared__ u32 s_next;
    __shared__ u64 s_deg;
    if (cap > FUSED_CAP) cap = FUSED_CAP;
    u32 count = ctrl->count[par];
    u64 deg = ctrl->deg[par];
    u32* in = qa;
    u32* out = qb;
    u32 done = 0;
    u64 edges = 0;
    const u32 tid = threadIdx.x;
    while (done < max_levels && count > 0 && count <= cap && deg <= FUSED_EDGES) {
        // Phase 1: the frontier and its degrees into shared memory; each
        // thread owns `per` consecutive slots (per <= FUSED_CAP/1024).
        u32 per = (count + FUSED_THREADS - 1) / FUSED_THREADS;
        u32 first = tid * per;
        u32 mine = 0;
#pragma unroll
        for (u32 k = 0; k < FUSED_CAP / FUSED_THREADS; k++) {
            u32 i = first + k;
            if (k < per && i < count) {
                u32 v = in[i];
                u32 d = (u32)(off[v + 1] - off[v]);
                s_v[i] = v;
                s_pre[i] = d;
                mine += d;
            }
        }
        if (tid == 0) {
            s_next = 0;
            s_deg = 0;
        }
        u32 total;
        u32 base = block_exclusive_scan(mine, s_warp, &total);
        for (u32 k = 0; k < per; k++) {
            u32 i = first + k;
            if (i < count) {
                u32 d = s_pre[i];
                s_pre[i] = base;
                base += d;
            }
        }
        if (tid == 0) s_pre[count] = total;
        __syncthreads();
        // Phase 2: edges j = tid + 1024*r; each round a thread takes four,
        // issuing the four edges' loads together (latency, not bandwidth,
        // limits one block).
        u32 nl = cur + 1;
        u64 mydeg = 0;
        for (u32 j0 = tid; j0 < total; j0 += 4 * FUSED_THREADS) {
            u32 vv[4], rel[4], u[4], lv[4];
            i64 eb[4];
#pragma unroll
            for (int k = 0; k < 4; k++) {
                u32 j = j0 + k * FUSED_THREADS;
                vv[k] = INF32;
                if (j < total) {
                    // Largest i with s_pre[i] <= j: the source of edge j
                    // (zero-degree vertices share their successor's prefix).
                    u32 lo = 0, hi = count - 1;
                    while (lo < hi) {
                        u32 mid = (lo + hi + 1) >> 1;
                        if (s_pre[mid] <= j) lo = mid;
                        else hi = mid - 1;
                    }
                    vv[k] = s_v[lo];
                    rel[k] = j - s_pre[lo];
                }
            }
#pragma unroll
            for (int k = 0; k < 4; k++)
                if (vv[k] != INF32) eb[k] = off[vv[k]];
#pragma unroll
            for (int k = 0; k < 4; k++)
                if (vv[k] != INF32) u[k] = adj[eb[k] + rel[k]];
#pragma unroll
            for (int k = 0; k < 4; k++)
                if (vv[k] != INF32) lv[k] = level[u[k]];
#pragma unroll
            for (int k = 0; k < 4; k++) {
                if (vv[k] != INF32 && lv[k] == INF32 && atomicCAS(&level[u[k]], INF32, nl) == INF32) {
                    out[atomicAdd(&s_next, 1u)] = u[k];
                    mydeg += (u64)(off[u[k] + 1] - off[u[k]]);
                }
            }
        }
        if (mydeg) atomicAdd(&s_deg, mydeg);
        // Makes this level's queue, level writes and counters visible.
        __syncthreads();
        edges += total;
        count = s_next;
        deg = s_deg;
        u32* t = in;
        in = out;
        out = t;
        cur = nl;
        done++;
        // Everyone has read s_next, s_deg and the shared arrays before the
        // next level overwrites them.
        __syncthreads();
    }
    if (tid == 0) {
        ctrl->count[par ^ 1] = count;
        ctrl->deg[par ^ 1] = deg;
        ctrl->fused_levels = done;
        ctrl->fused_swap = (in == qb) ? 1u : 0u;
        ctrl->edges_out = edges;
    }
}
