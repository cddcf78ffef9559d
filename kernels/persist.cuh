// persist.cuh: the persistent multi-level loop shared by bfs_persist_qu,
// bfs_pull_persist (after its pull levels) and sssp_persist_*: many levels
// of a queue frontier in one launch of one block per multiprocessor (two
// for bfs_pull_persist where they fit; PERSIST_THREADS threads each; every
// block must be resident: levels are separated by grid_sync). qa holds the
// current frontier (ctrl->count[par] vertices), qb is scratch of n entries.
// Each frontier vertex is expanded by a group of PERSIST_GROUP lanes; the
// vertices a level discovers are queued through a block-local buffer. The
// launch stops before a level whose frontier is empty, larger than cap or
// has more than edge_cap out-edges, or after max_levels levels; a vertex of
// more than PERSIST_GROUP_MAXDEG out-edges is expanded by its whole block
// instead of a group, its edges spread evenly over the block's threads (so
// that a hub costs a level a few steps, not hundreds), and one of more than
// PERSIST_MAXDEG by the whole grid (persist_hubs); on exit
// ctrl->count[par^1] and deg[par^1] describe the frontier left,
// fused_levels counts the levels run, fused_swap is 1 when that frontier
// is in qb, edges_out counts the edges
// examined, maxdeg is the frontier's largest degree and local_levels counts
// the levels block 0 ran alone (persist_local: a frontier of at most
// PERSIST_LOCAL_V vertices and local_e out-edges). ps is zeroed by the
// host before the launch.
//
// A visitor V supplies the per-algorithm step:
//   typedef ... S;                    what a vertex gives its edges
//   void level(u32 done);             at the start of each level
//   S vertex(u32 v, u32 sub);         once per frontier vertex and lane
//   bool visit(S s, i64 e, u32 u);    true when u enters the next frontier
//                                     (exactly once per level)
//   void finish(const u32* in, u32 count); the frontier left, before exit
//   static constexpr bool kBuckets;   true for bucketed SSSP (below)
//
// Bucketed visitors (sssp_persist_nf_*) run near-far delta-stepping: visit
// queues only vertices of the current bucket (distance <= vis.end) and
// flags later ones in the update vector; when a level leaves the frontier
// empty, persist_refill fills the next bucket from those flags in the same
// launch, so a bucket costs one scan of the update vector and two grid
// barriers, not an iteration of the host's (kernels, findmin, generation
// and a control-block read, ~40 us on the H100). They also supply
//   u8* upd; u32 n; u64 end;          update vector, its length, bucket end
//   u64 far;                          this thread's smallest distance sent
//                                     beyond the bucket (visit lowers it)
//   u64 dist_of(u32 v);               v's distance, read past L1
//   void set_end(u64 m);              end of m's bucket
// The first frontier's bucket is that of its smallest distance.
#pragma once
#include "common.cuh"

static_assert(PERSIST_HEAVY <= PERSIST_THREADS, "a block scans its heavy list one entry per thread");
static_assert(PERSIST_HUBS <= PERSIST_HEAVY, "every block scans the hub list one entry per thread, into its heavy list's arrays");

// Calls f(k, r) for each of the total edges of a block's list of count
// vertices, the edges spread evenly over the block's threads: k is the
// edge's vertex in the list (found by binary search in s_hx, the exclusive
// prefix of the vertices' degrees) and r its rank there (0 once per vertex
// with edges). A hub's edges then cost a level a few steps, not hundreds.
// The threads take j = first, first + step, ...: (threadIdx.x, blockDim.x)
// spreads the list over a block, (gtid(), gstride()) over the grid.
template <typename F>
__device__ __forceinline__ void list_edges(const u32* s_hx, u32 count, u32 total, u32 first, u32 step, F f) {
    for (u32 j = first; j < total; j += step) {
        u32 lo = 0, hi = count - 1;  // the last k with s_hx[k] <= j
        while (lo < hi) {
            const u32 mid = (lo + hi + 1) >> 1;
            if (s_hx[mid] <= j) lo = mid;
            else hi = mid - 1;
        }
        f(lo, j - s_hx[lo]);
    }
}

// A list of nh vertices' edges spread over the threads j = first,
// first + step, ... (list_edges): thread t < nh gives entry t's degree d,
// which the block scans into s_hx. Called by every thread of the block.
template <typename F>
__device__ __forceinline__ void expand_list(u32 d, u32 nh, u32* s_hx, u32 first, u32 step, F f) {
    u32 total;
    const u32 ex = block_scan(d, &total);
    if (threadIdx.x < nh) s_hx[threadIdx.x] = ex;
    __syncthreads();
    list_edges(s_hx, nh, total, first, step, f);
}

// Bucketed SSSP: the next bucket, once a level left the frontier empty:
// the smallest pending distance, then every flagged vertex of its bucket,
// unflagged and queued into in. Called by every thread of the grid with
// the same arguments; returns false when nothing is pending (the run is
// over). k is the slot the last level counted into (its successor was
// cleared at that level's start); refills numbers the refills (nmin[0]
// took the first frontier's minimum; two slots alternate).
//
// The smallest pending distance comes without a scan: each thread keeps
// the smallest distance it sent beyond the bucket (vis.far, lowered by
// visit) and the smallest it kept flagged in the last refill's scan. That
// is at most the true minimum: a kept or sent vertex may since have been
// lowered into a bucket and expanded. If that leaves the next bucket
// empty, the scan's own minimum (exact: no visit runs during a refill)
// picks again. Only the launch's first refill scans for it, for the
// vertices an ordinary ordered iteration left pending. Flags and
// distances are read past L1 (__ldcg): other blocks set them during the
// last level.
template <typename V>
__device__ __forceinline__ bool persist_refill(V& vis, const i64* __restrict__ off, u32* in, u32* s_q, u32* s_n,
                                               u32* s_base, Persist* ps, u32& k, u32& refills, u32& count, u64& deg,
                                               u32& maxdeg) {
    const u64 gid = gtid();
    const u32* upd4 = (const u32*)vis.upd;
    const u64 nq = ((u64)vis.n + 3) >> 2;  // the update vector is padded with zeros
    const u32 k1 = k == 2 ? 0 : k + 1;
    // The level after the refill counts into the slot after k1, as a
    // level clears it for the next: every block read it before the last
    // barrier.
    if (gid == 0) {
        const u32 k2 = k1 == 2 ? 0 : k1 + 1;
        ps->count[k2] = 0;
        ps->deg[k2] = 0;
        ps->maxdeg[k2] = 0;
    }
    for (;;) {
        const u32 r = ++refills;
        u64* slot = &ps->nmin[r & 1];
        // Refill r+1's slot; refill r-1 read it before a later barrier.
        if (gid == 0) ps->nmin[(r + 1) & 1] = 0;
        u64 mn = vis.far;
        if (r == 1) {
            for (u64 q = gid; q < nq; q += gstride()) {
                u32 w = __ldcg(upd4 + q);
                for (int b = 0; w && b < 4; b++, w >>= 8)
                    if (w & 0xFFu) {
                        u64 d = vis.dist_of((u32)(q * 4 + b));
                        mn = d < mn ? d : mn;
                    }
            }
        }
        block_max(~mn, slot);
        grid_sync(ps);
        const u64 nm = *(volatile u64*)slot;
        if (nm == 0) return false;
        vis.set_end(~nm);
        vis.far = INF64;
        u64 mydeg = 0;
        u32 mymax = 0;
        for (u64 q = gid; q < nq; q += gstride()) {
            const u32 w = __ldcg(upd4 + q);
            if (!w) continue;
            u32 keep = w;
            for (int b = 0; b < 4; b++) {
                if (!((w >> (8 * b)) & 0xFFu)) continue;
                const u32 v = (u32)(q * 4 + b);
                const u64 dv = vis.dist_of(v);
                if (dv > vis.end) {
                    vis.far = dv < vis.far ? dv : vis.far;
                    continue;
                }
                keep &= ~(0xFFu << (8 * b));
                u32 d = (u32)(off[v + 1] - off[v]);
                mydeg += d;
                mymax = d > mymax ? d : mymax;
                persist_push(v, s_q, s_n, in, &ps->count[k1]);
            }
            // One thread owns the word: no visit runs during a refill.
            if (keep != w) ((u32*)vis.upd)[q] = keep;
        }
        persist_flush(s_q, s_n, s_base, in, &ps->count[k1]);
        block_sum64(mydeg, &ps->deg[k1]);
        block_max(mymax, &ps->maxdeg[k1]);
        grid_sync(ps);
        count = *(volatile u32*)&ps->count[k1];
        if (count == 0) continue;  // nothing was pushed: slot k1 is still clear
        deg = *(volatile u64*)&ps->deg[k1];
        maxdeg = *(volatile u32*)&ps->maxdeg[k1];
        k = k1;
        return true;
    }
}

// Levels of a small frontier, run by block 0 alone while the rest of the
// grid waits: a level of a few hundred edges then costs one pass of the
// block with __syncthreads between levels, not a grid barrier and the
// global queue's round trips (on the H100 a persistent level cost ~5 us
// even for a single vertex). Called by every thread of the grid with the
// same state, when count <= local_v (PERSIST_LOCAL_V, or the launch's
// frontier cap where that is smaller) and deg <= local_e;
// in holds the frontier. Block 0 expands it as its heavy list (a block
// scan of the degrees, then list_edges),
// queues what it finds in s_q, and goes on while the next frontier is as
// small, done < max_levels and it is not empty. It then leaves that
// frontier in in, publishes the state in ps and releases the others
// (lphase numbers the phases; ps->lgen counts the finished ones), so every
// thread returns with the same count, deg, maxdeg, done and edges. The
// slots of ps->count etc. are untouched: the level after a phase finds
// its slots as the level before left them.
template <typename V>
__device__ __forceinline__ void persist_local(V& vis, const i64* __restrict__ off, const u32* __restrict__ adj,
                                              u32* in, u32* s_q, u32* s_n, u32* s_hv, u32* s_hx, i64* s_hb,
                                              Persist* ps, u32 max_levels, u32 local_v, u32 local_e, u32& lphase,
                                              u32& count, u64& deg, u32& maxdeg, u32& done, u64& edges) {
    __shared__ u64 s_ldeg;
    __shared__ u32 s_lmax, s_lc, s_ldone;
    __shared__ u64 s_ledges;
    lphase++;
    if (blockIdx.x != 0) {
        if (threadIdx.x == 0) {
            while (*(volatile u32*)&ps->lgen < lphase) __nanosleep(128);
            __threadfence();
            s_lc = *(volatile u32*)&ps->lcount;
            s_lmax = *(volatile u32*)&ps->lmax;
            s_ldone = *(volatile u32*)&ps->ldone;
            s_ldeg = *(volatile u64*)&ps->ldeg;
            s_ledges = *(volatile u64*)&ps->ledges;
        }
        __syncthreads();
        count = s_lc, maxdeg = s_lmax, done = s_ldone, deg = s_ldeg, edges = s_ledges;
        __syncthreads();  // the shared copies are read before any reuse
        return;
    }
    u32 c = count;
    const u32* src = in;
    for (;;) {
        vis.level(done);
        // The frontier as a list: ids, first edges and the prefix of the
        // degrees. A vertex without edges is still expanded (a visitor may
        // clear its state on its first lane).
        u32 d = 0;
        if (threadIdx.x < c) {
            const u32 v = src[threadIdx.x];
            const i64 b = off[v];
            d = (u32)(off[v + 1] - b);
            s_hv[threadIdx.x] = v;
            s_hb[threadIdx.x] = b;
            if (d == 0) vis.vertex(v, 0);
        }
        u32 total;
        const u32 ex = block_scan(d, &total);  // its barriers end the reads of src (s_q)
        if (threadIdx.x < c) s_hx[threadIdx.x] = ex;
        if (threadIdx.x == 0) *s_n = 0, s_ldeg = 0, s_lmax = 0;
        __syncthreads();
        u64 mydeg = 0;
        u32 mymax = 0;
        list_edges(s_hx, c, total, threadIdx.x, blockDim.x, [&](u32 k, u32 r) {
            const i64 e = s_hb[k] + r;
            const u32 u = adj[e];
            const u32 ud = degree_early(off, u);
            if (vis.visit(vis.vertex(s_hv[k], r), e, u)) {
                mydeg += ud;
                mymax = ud > mymax ? ud : mymax;
                s_q[atomicAdd(s_n, 1u)] = u;  // at most total <= local_e <= PERSIST_SQ pushes
            }
        });
        for (int o = 16; o > 0; o >>= 1) {
            mydeg += __shfl_down_sync(FULL_MASK, mydeg, o);
            const u32 m = __shfl_down_sync(FULL_MASK, mymax, o);
            mymax = m > mymax ? m : mymax;
        }
        if (lane_id() == 0 && mydeg) atomicAdd(&s_ldeg, mydeg), atomicMax(&s_lmax, mymax);
        __syncthreads();
        done++;
        edges += total;
        c = *s_n, deg = s_ldeg, maxdeg = s_lmax;
        src = s_q;
        if (c == 0 || c > local_v || deg > local_e || done >= max_levels) break;
        __syncthreads();  // every thread has read s_n and the sums before thread 0 clears them
    }
    for (u32 j = threadIdx.x; j < c; j += blockDim.x) in[j] = s_q[j];
    __syncthreads();
    if (threadIdx.x == 0) {
        *s_n = 0;  // the grid's levels push into an empty block queue
        ps->lcount = c, ps->lmax = maxdeg, ps->ldone = done, ps->ldeg = deg, ps->ledges = edges;
        __threadfence();
        atomicExch(&ps->lgen, lphase);
    }
    count = c;
    __syncthreads();
}

// The grid's hubs of a level (vertices of more than PERSIST_MAXDEG
// out-edges, listed in ps->hub by the blocks that met them, nhub of them):
// after a barrier, every block reads the list, scans its degrees and the
// grid spreads all their edges evenly over its threads (list_edges), so a
// hub of 10^5 out-edges costs a few steps of every thread instead of
// ending the launch (the ordinary kernels' pieces did it before, at the
// price of a launch, a control-block read and a new persistent launch).
// Called by every thread of the grid; edge is persist_levels' visit of
// one edge (pushing into the block's queue).
template <typename V, typename E>
__device__ __forceinline__ void persist_hubs(V& vis, const i64* __restrict__ off, E& edge, u32* s_hv, u32* s_hx,
                                             i64* s_hb, Persist* ps, const u32* nhub) {
    grid_sync(ps);
    u32 nh = *(volatile const u32*)nhub;
    nh = nh < PERSIST_HUBS ? nh : PERSIST_HUBS;
    u32 d = 0;
    if (threadIdx.x < nh) {
        const u32 v = __ldcg(&ps->hub[threadIdx.x]);  // other blocks listed it: past L1
        const i64 b = off[v];
        d = (u32)(off[v + 1] - b);
        s_hv[threadIdx.x] = v;
        s_hb[threadIdx.x] = b;
    }
    expand_list(d, nh, s_hx, (u32)gtid(), (u32)gstride(),
                [&](u32 k, u32 r) { edge(vis.vertex(s_hv[k], r), s_hb[k] + r); });
}

// Where persist_levels starts: by default (PersistStart::of) from the
// frontier in qa that ctrl describes; bfs_pull_persist hands over its
// pull levels' frontier instead, with its largest degree known (no first
// scan), in the slot rotation it left (k) and its levels and edges counted.
struct PersistStart {
    u32 count;
    u64 deg;
    bool in_qb;     // the frontier is in qb
    bool known;     // maxdeg is the frontier's largest degree
    u32 maxdeg;
    u32 k;          // the slot the frontier was counted into
    u32 done;       // levels already run (pull levels, reported as ctrl->pull_levels)
    u64 edges;      // edges already examined
    __device__ static PersistStart of(const Ctrl* ctrl, u32 par) {
        return PersistStart{ctrl->count[par], ctrl->deg[par], false, false, 0, 0, 0, 0};
    }
};

template <typename V>
__device__ __forceinline__ void persist_levels(V& vis, const i64* __restrict__ off, const u32* __restrict__ adj,
                                               u32* qa, u32* qb, Ctrl* ctrl, u32 par, u32 max_levels, u32 cap,
                                               u64 edge_cap, u32 local_e, Persist* ps, PersistStart st) {
    __shared__ u32 s_q[PERSIST_SQ];
    __shared__ u32 s_n, s_base;
    // The block's heavy vertices of the level: ids, first edges, degrees
    // and then their exclusive prefix sum.
    __shared__ u32 s_hv[PERSIST_HEAVY], s_hd[PERSIST_HEAVY], s_hx[PERSIST_HEAVY];
    __shared__ i64 s_hb[PERSIST_HEAVY];
    __shared__ u32 s_hn;
    if (threadIdx.x == 0) s_n = 0, s_hn = 0;
    __syncthreads();  // before any push: a start without the first scan reaches one without a barrier
    u32 count = st.count;
    u64 deg = st.deg;
    u32* in = st.in_qb ? qb : qa;
    u32* out = st.in_qb ? qa : qb;
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
    u64 mn = INF64;  // bucketed: the first frontier's smallest distance
    // A small first frontier starts in block 0 alone, without the scan and
    // its barrier: its largest degree is at most its degree sum. Bucketed
    // visitors need the scan's smallest distance for their first bucket.
    local_e = local_e < PERSIST_SQ ? local_e : PERSIST_SQ;  // 0: no local phases
    // A level's hubs are listed with a 32-bit scan of their degrees.
    edge_cap = edge_cap < 0x7fffffffull ? edge_cap : 0x7fffffffull;
    const u32 local_v = cap < PERSIST_LOCAL_V ? cap : PERSIST_LOCAL_V;
    const bool local0 = !V::kBuckets && local_e > 0 && count > 0 && count <= local_v && deg <= local_e;
    const bool noscan = local0 || st.known;
    if (st.known) {
        md = st.maxdeg;
    } else if (local0) {
        md = (u32)deg;
    } else if (count <= cap && deg <= edge_cap) {
        for (u64 i = gid; i < count; i += gstride()) {
            u32 v = in[i];
            u32 d = (u32)(off[v + 1] - off[v]);
            md = d > md ? d : md;
            if constexpr (V::kBuckets) {
                u64 dv = vis.dist_of(v);
                mn = dv < mn ? dv : mn;
            }
        }
    }
    u32 maxdeg = md;
    if (!noscan) {
        block_max(md, &ps->maxdeg[0]);
        if constexpr (V::kBuckets) block_max(~mn, &ps->nmin[0]);
        grid_sync(ps);
        maxdeg = *(volatile u32*)&ps->maxdeg[0];
        if constexpr (V::kBuckets) vis.set_end(~*(volatile u64*)&ps->nmin[0]);
    }
    u32 k = st.k, done = st.done, refills = 0, lphase = 0, local = 0;
    u32 glev = 0;  // grid-wide levels run: ps->nhub[glev & 1] counts this one's hubs
    BarCount bc{0, 0, 0};
    // After a grid-wide level: the group's first entry of the frontier it
    // counted and that vertex's edges, loaded right after the barrier
    // beside the reads of the frontier's degree sum and largest degree
    // (which decide whether the level runs), so the level starts with them
    // in hand instead of after those reads.
    bool pre = false;
    u32 v0 = 0;
    i64 b0 = 0, e0 = 0;
    u64 edges = st.edges;
    while (done < max_levels && count > 0 && count <= cap && deg <= edge_cap) {
        if (local_e > 0 && count <= local_v && deg <= local_e) {
            pre = false;  // the phase leaves another frontier in in
            local -= done;
            persist_local(vis, off, adj, in, s_q, &s_n, s_hv, s_hx, s_hb, ps, max_levels, local_v, local_e, lphase,
                          count, deg, maxdeg, done, edges);
            local += done;
            if constexpr (V::kBuckets) {
                if (count == 0 && !persist_refill(vis, off, in, s_q, &s_n, &s_base, ps, k, refills, count, deg, maxdeg))
                    break;
            }
            continue;
        }
        // Three rotating slots: k is read, k1 written, k2 cleared for the
        // level after.
        u32 k1 = k == 2 ? 0 : k + 1;
        u32 k2 = k1 == 2 ? 0 : k1 + 1;
        u32* ncount = &ps->count[k1];
        // The frontier may hold a vertex of more than PERSIST_MAXDEG
        // out-edges (maxdeg is exact or, for a first frontier, an upper
        // bound; the same in every thread): such hubs go to the grid's list
        // (persist_hubs). Its count alternates between two slots; the one
        // cleared here was last read before the previous grid-wide level's
        // final barrier.
        const bool hubs = maxdeg > PERSIST_MAXDEG;
        u32* nhub = &ps->nhub[glev & 1];
        if (gid == 0) {
            ps->count[k2] = 0;
            ps->deg[k2] = 0;
            ps->maxdeg[k2] = 0;
            ps->nhub[(glev + 1) & 1] = 0;
        }
        vis.level(done);
        u64 mydeg = 0;
        u32 mymax = 0;
        // Visits edge e of a frontier vertex (what it gives is s).
        auto edge = [&](typename V::S s, i64 e) {
            u32 u = adj[e];
            const u32 d = degree_early(off, u);
            if (vis.visit(s, e, u)) {
                mydeg += d;
                mymax = d > mymax ? d : mymax;
                persist_push(u, s_q, &s_n, out, ncount);
            }
        };
        for (u64 i = group; i < count; i += ngroups) {
            u32 v;
            i64 beg, end;
            if (pre && i == group) {
                v = v0, beg = b0, end = e0;
            } else {
                v = in[i];
                beg = off[v], end = off[v + 1];
            }
            if (end - beg > PERSIST_GROUP_MAXDEG) {
                // A hub to the grid's list, others to the block's; the
                // group expands it itself only when its list is full.
                const u32 gmask = 0xffu << (lane_id() & ~(u32)(PERSIST_GROUP - 1));
                u32 listed = 0;
                if (sub == 0) {
                    if (hubs && end - beg > PERSIST_MAXDEG) {
                        const u32 h = atomicAdd(nhub, 1u);
                        if (h < PERSIST_HUBS) ps->hub[h] = v, listed = 1;
                    }
                    if (!listed) {
                        const u32 p = atomicAdd(&s_hn, 1u);
                        if (p < PERSIST_HEAVY) s_hv[p] = v, s_hb[p] = beg, s_hd[p] = (u32)(end - beg), listed = 1;
                    }
                }
                if (__shfl_sync(gmask, listed, 0, PERSIST_GROUP)) continue;
            }
            typename V::S s = vis.vertex(v, sub);
            for (i64 e = beg + sub; e < end; e += PERSIST_GROUP) edge(s, e);
        }
        // The block's heavy vertices: an exclusive scan of their degrees,
        // then their edges spread over the block (list_edges).
        __syncthreads();
        if (s_hn > 0) {
            const u32 nh = s_hn < PERSIST_HEAVY ? s_hn : PERSIST_HEAVY;
            expand_list(threadIdx.x < nh ? s_hd[threadIdx.x] : 0u, nh, s_hx, threadIdx.x, blockDim.x,
                        [&](u32 k, u32 r) { edge(vis.vertex(s_hv[k], r), s_hb[k] + r); });
            __syncthreads();
            if (threadIdx.x == 0) s_hn = 0;
        }
        if (hubs) persist_hubs(vis, off, edge, s_hv, s_hx, s_hb, ps, nhub);
        const u32 pushed = persist_flush(s_q, &s_n, &s_base, out, ncount);
        block_sum64(mydeg, &ps->deg[k1]);
        block_max(mymax, &ps->maxdeg[k1]);
        count = grid_sync_count(ps, pushed, bc);
        edges += deg;
        pre = group < count;
        if (pre) {
            v0 = out[group];
            b0 = off[v0], e0 = off[v0 + 1];
        }
        deg = *(volatile u64*)&ps->deg[k1];
        maxdeg = *(volatile u32*)&ps->maxdeg[k1];
        u32* t = in;
        in = out;
        out = t;
        done++;
        glev++;
        k = k1;
        if constexpr (V::kBuckets) {
            if (count == 0 && !persist_refill(vis, off, in, s_q, &s_n, &s_base, ps, k, refills, count, deg, maxdeg))
                break;
        }
    }
    vis.finish(in, count);
    if (gid == 0) {
        ctrl->count[par ^ 1] = count;
        ctrl->deg[par ^ 1] = deg;
        ctrl->fused_levels = done;
        ctrl->local_levels = local;
        ctrl->pull_levels = st.done;
        ctrl->fused_swap = (in == qb) ? 1u : 0u;
        ctrl->edges_out = edges;
        ctrl->maxdeg = done > 0 || st.known ? maxdeg : INF32;  // unknown when no level ran
    }
}
