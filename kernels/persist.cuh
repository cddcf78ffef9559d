// persist.cuh: the persistent multi-level loop shared by bfs_persist_qu and
// sssp_persist_qu_*: many levels of a queue frontier in one launch of at
// most one block per multiprocessor (PERSIST_THREADS threads each; every
// block must be resident: levels are separated by grid_sync). qa holds the
// current frontier (ctrl->count[par] vertices), qb is scratch of n entries.
// Each frontier vertex is expanded by a group of PERSIST_GROUP lanes; the
// vertices a level discovers are queued through a block-local buffer. The
// launch stops before a level whose frontier is empty, larger than cap, has
// more than edge_cap out-edges or a vertex of more than PERSIST_MAXDEG, or
// after max_levels levels; a vertex of more than PERSIST_GROUP_MAXDEG
// out-edges is expanded by its whole block instead of a group, its edges
// spread evenly over the block's threads (so that a hub costs a level a few
// steps, not hundreds); on exit ctrl->count[par^1] and deg[par^1]
// describe the frontier left, fused_levels counts the levels run,
// fused_swap is 1 when that frontier is in qb, edges_out counts the edges
// examined and maxdeg is the frontier's largest degree. ps is zeroed by the
// host before the launch.
//
// A visitor V supplies the per-algorithm step:
//   typedef ... S;                    what a vertex gives its edges
//   void level(u32 done);             at the start of each level
//   S vertex(u32 v, u32 sub);         once per frontier vertex and lane
//   bool visit(S s, i64 e, u32 u);    true when u enters the next frontier
//                                     (exactly once per level)
//   void finish(const u32* in, u32 count); the frontier left, before exit
#pragma once
#include "common.cuh"

static_assert(PERSIST_HEAVY <= PERSIST_THREADS, "a block scans its heavy list one entry per thread");

template <typename V>
__device__ __forceinline__ void persist_levels(V& vis, const i64* __restrict__ off, const u32* __restrict__ adj,
                                               u32* qa, u32* qb, Ctrl* ctrl, u32 par, u32 max_levels, u32 cap,
                                               u64 edge_cap, Persist* ps) {
    __shared__ u32 s_q[PERSIST_SQ];
    __shared__ u32 s_n, s_base;
    // The block's heavy vertices of the level: ids, first edges, degrees
    // and then their exclusive prefix sum (s_hx[s_hn] is the total).
    __shared__ u32 s_hv[PERSIST_HEAVY], s_hd[PERSIST_HEAVY], s_hx[PERSIST_HEAVY + 1];
    __shared__ i64 s_hb[PERSIST_HEAVY];
    __shared__ u32 s_hn;
    if (threadIdx.x == 0) s_n = 0, s_hn = 0;
    u32 count = ctrl->count[par];
    u64 deg = ctrl->deg[par];
    u32* in = qa;
    u32* out = qb;
    const u64 gid = gtid();
    // Groups are numbered across blocks first, so that consecutive frontier
    // entries go to different blocks: a small frontier of hubs is spread
    // over the grid's blocks and their heavy lists, not piled on the first
    // (on the H100, kron:18's 67 first-level hubs on two blocks took 287 µs).
    const u64 group = (u64)(threadIdx.x / PERSIST_GROUP) * gridDim.x + blockIdx.x;
    const u32 sub = threadIdx.x % PERSIST_GROUP;
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
        // Three rotating slots: k is read, k1 written, k2 cleared for the
        // level after.
        u32 k1 = k == 2 ? 0 : k + 1;
        u32 k2 = k1 == 2 ? 0 : k1 + 1;
        u32* ncount = &ps->count[k1];
        if (gid == 0) {
            ps->count[k2] = 0;
            ps->deg[k2] = 0;
            ps->maxdeg[k2] = 0;
        }
        vis.level(done);
        u64 mydeg = 0;
        u32 mymax = 0;
        // Visits edge e of a frontier vertex (what it gives is s).
        auto edge = [&](typename V::S s, i64 e) {
            u32 u = adj[e];
            if (vis.visit(s, e, u)) {
                u32 d = (u32)(off[u + 1] - off[u]);
                mydeg += d;
                mymax = d > mymax ? d : mymax;
                persist_push(u, s_q, &s_n, out, ncount);
            }
        };
        for (u64 i = group; i < count; i += ngroups) {
            u32 v = in[i];
            i64 beg = off[v], end = off[v + 1];
            if (end - beg > PERSIST_GROUP_MAXDEG) {
                // To the block's list; the group expands it itself only
                // when the list is full.
                const u32 gmask = 0xffu << (lane_id() & ~(u32)(PERSIST_GROUP - 1));
                u32 p = 0;
                if (sub == 0) {
                    p = atomicAdd(&s_hn, 1u);
                    if (p < PERSIST_HEAVY) s_hv[p] = v, s_hb[p] = beg, s_hd[p] = (u32)(end - beg);
                }
                if (__shfl_sync(gmask, p, 0, PERSIST_GROUP) < PERSIST_HEAVY) continue;
            }
            typename V::S s = vis.vertex(v, sub);
            for (i64 e = beg + sub; e < end; e += PERSIST_GROUP) edge(s, e);
        }
        // The block's heavy vertices: an exclusive scan of their degrees,
        // then each thread takes every blockDim-th edge of the lot and
        // finds its vertex by binary search.
        __syncthreads();
        if (s_hn > 0) {
            const u32 nh = s_hn < PERSIST_HEAVY ? s_hn : PERSIST_HEAVY;
            u32 total;
            u32 ex = block_scan(threadIdx.x < nh ? s_hd[threadIdx.x] : 0u, &total);
            if (threadIdx.x < nh) s_hx[threadIdx.x] = ex;
            if (threadIdx.x == 0) s_hx[nh] = total;
            __syncthreads();
            for (u32 j = threadIdx.x; j < total; j += blockDim.x) {
                u32 lo = 0, hi = nh - 1;  // the last k with s_hx[k] <= j
                while (lo < hi) {
                    u32 mid = (lo + hi + 1) >> 1;
                    if (s_hx[mid] <= j) lo = mid;
                    else hi = mid - 1;
                }
                u32 r = j - s_hx[lo];  // the edge's rank at its vertex: 0 once per vertex
                edge(vis.vertex(s_hv[lo], r), s_hb[lo] + r);
            }
            __syncthreads();
            if (threadIdx.x == 0) s_hn = 0;
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
        done++;
        k = k1;
    }
    vis.finish(in, count);
    if (gid == 0) {
        ctrl->count[par ^ 1] = count;
        ctrl->deg[par ^ 1] = deg;
        ctrl->fused_levels = done;
        ctrl->fused_swap = (in == qb) ? 1u : 0u;
        ctrl->edges_out = edges;
        ctrl->maxdeg = done > 0 ? maxdeg : INF32;  // unknown when no level ran
    }
}
