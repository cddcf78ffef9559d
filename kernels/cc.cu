// cc.cu: connected components and spanning forests.
//
// Shared state: the parent array p (n uint32; parents only ever point at an
// ancestor, so walking p ends at a root) and, for spanning forests, hook[v]
// (n uint64): the arc u->v whose hook made the vertex a non-root, stored as
// v<<32|u (hook_edge), CC_NO_HOOK while it is a root. A hook is a CAS of p[r] from r, and a non-root never becomes a
// root again, so each vertex is hooked at most once and the arcs recorded
// are the forest's n - c edges. Parent reads inside a launch bypass L1
// (__ldcg): other blocks' hooks must become visible, or a CAS retry loop
// could spin on a stale line.
//
// SV (Soman et al.): hooking with alternating orientation over the active
// edges, then multilevel pointer jumping (cc_compress: every tree a star).
//   cc_sv_bm_t   bitmap of hidden arcs, one thread per vertex (thread mapping);
//   cc_sv_bm_e   bitmap of hidden arcs, one warp per 32-arc bitmap word, the
//                arcs' sources from a COO array (cc_fill_src): edge-balanced
//                whatever the degrees (block mapping);
//   cc_sv_qu     queue of packed edges u<<32|v, compacted while hooking into
//                the other queue buffer (warp-aggregated), whose length is
//                the active-edge count;
//   cc_sv_build_qu / cc_sv_qu_to_bm   the conversions;
//   cc_low_min / cc_low_apply         labels = smallest vertex of each star.
// An arc whose endpoints share a root is hidden (bit set) and never read
// again; an arc that is not canonical (undirected: u >= v; directed: a
// self-loop) is hidden on first read. Each pass adds the edges it saw
// joining two trees to ctrl->active.
//
// Afforest (Sutton et al.) and union-find (ECL-CC, Jaiganesh & Burtscher)
// hook the larger root under the smaller, so every root is its tree's
// smallest vertex and the compressed parents are the labels.
//   cc_aff_round0, cc_aff_round   neighbour sampling rounds;
//   cc_aff_mode                   most frequent root among 1024 samples;
//   cc_link_t / cc_link_b         remaining arcs, thread per vertex, with
//                                 vertices of many arcs queued for a block
//                                 each (ctrl->heavy counts them);
//   cc_uf_init                    every vertex points at its smallest
//                                 neighbour below it.
#include "common.cuh"

#define CC_NO_HOOK 0xFFFFFFFFFFFFFFFFull
// Vertices with more arcs than this go to the block-per-vertex kernel.
#define CC_HEAVY 32

// CCCtrl is the cc control block (64 bytes; algorithms/cc mirrors it). The
// host clears it before each pass that counts into it.
struct CCCtrl {
    u64 active;  // edges seen joining two trees / vertices linked
    u64 qcount;  // edges pushed into the output queue
    u64 edges;   // arcs examined
    u32 root;    // cc_aff_mode's answer
    u32 heavy;   // vertices queued for the block kernels
    u64 hooks;   // successful hooks
    u64 listed;  // msf_list_count: forest edges listed
    u64 weight;  // msf_list_write: their summed weight
    u64 done;    // msf_list_count: blocks finished (zero between launches)
};

__device__ __forceinline__ u32 ldp(const u32* p, u32 i) { return __ldcg(p + i); }
__device__ __forceinline__ void stp(u32* p, u32 i, u32 v) { __stcg(p + i, v); }
__device__ __forceinline__ u64 pack_edge(u32 u, u32 v) { return ((u64)u << 32) | (u64)v; }
// A forest arc as the host's Edge{U, V} (two uint32, U first, little-endian).
__device__ __forceinline__ u64 hook_edge(u32 u, u32 v) { return ((u64)v << 32) | (u64)u; }
__device__ __forceinline__ bool cc_canonical(u32 u, u32 v, u32 directed) { return directed ? u != v : u < v; }

extern "C" __global__ void __launch_bounds__(1024) cc_init(u32* p, u64* hook, u32 n) {
    for (u64 v = gtid(); v < n; v += gstride()) {
        p[v] = (u32)v;
        if (hook) hook[v] = CC_NO_HOOK;
    }
}

// Multilevel pointer jumping: afterwards every vertex points at its root.
// Roots do not change during the launch, and concurrent writes only
// shorten paths, so one walk per vertex suffices.
extern "C" __global__ void __launch_bounds__(1024) cc_compress(u32* p, u32 n) {
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 v = (u32)i;
        u32 x = ldp(p, v);
        u32 y = ldp(p, x);
        if (x == y) continue;
        for (;;) {
            u32 z = ldp(p, y);
            if (z == y) break;
            y = z;
        }
        stp(p, v, y);
    }
}

// src[e] = the source of arc e: each thread takes CC_SRC_CHUNK consecutive
// arcs, finds the first one's source by binary search and walks on.
#define CC_SRC_CHUNK 64
extern "C" __global__ void __launch_bounds__(1024)
    cc_fill_src(const i64* __restrict__ off, u32 n, u64 m, u32* src) {
    u64 chunks = (m + CC_SRC_CHUNK - 1) / CC_SRC_CHUNK;
    for (u64 c = gtid(); c < chunks; c += gstride()) {
        u64 e0 = c * CC_SRC_CHUNK;
        u64 e1 = e0 + CC_SRC_CHUNK < m ? e0 + CC_SRC_CHUNK : m;
        u32 lo = 0, hi = n - 1;  // largest u with off[u] <= e0
        while (lo < hi) {
            u32 mid = lo + (hi - lo + 1) / 2;
            if ((u64)off[mid] <= e0) lo = mid;
            else hi = mid - 1;
        }
        u32 u = lo;
        u64 next = (u64)off[u + 1];
        for (u64 e = e0; e < e1; e++) {
            while (next <= e) next = (u64)off[++u + 1];
            src[e] = u;
        }
    }
}

// SV hook of edge u-v seen in trees pu != pv. Orientation alternates
// between iterations (down: larger root under smaller; up: the reverse), so
// within a launch every new pointer goes the same way and no cycle forms.
// The corrected hook also re-points the endpoint on the hooked side at the
// new root, so its later arcs see the merged tree within the same pass.
__device__ __forceinline__ void sv_hook(u32* p, u64* hook, u32 pu, u32 pv, u32 u, u32 v, u32 down) {
    u32 src = pu, dst = pv, x = u;
    if ((pu < pv) == (down != 0)) {
        src = pv;
        dst = pu;
        x = v;
    }
    if (ldp(p, src) != src || atomicCAS(&p[src], src, dst) != src) return;
    if (hook) hook[src] = hook_edge(u, v);
    if (x != src) stp(p, x, dst);
}

// Thread mapping: one thread per vertex over its own arcs; hidden bits are
// gathered per 32-bit word and set with one atomicOr each.
extern "C" __global__ void __launch_bounds__(1024)
    cc_sv_bm_t(const i64* __restrict__ off, const u32* __restrict__ adj, u32 n, u32* p, u32* hidden, u64* hook,
               CCCtrl* ctrl, u32 down, u32 directed) {
    u64 active = 0;
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 u = (u32)i;
        i64 beg = off[u], end = off[u + 1];
        i64 word = -1;
        u32 have = 0, bits = 0;
        for (i64 e = beg; e < end; e++) {
            i64 w = e >> 5;
            u32 b = 1u << (e & 31);
            if (w != word) {
                if (bits) atomicOr(&hidden[word], bits);
                word = w;
                bits = 0;
                have = hidden[w];
            }
            if (have & b) continue;
            u32 v = adj[e];
            if (!cc_canonical(u, v, directed)) {
                bits |= b;
                continue;
            }
            u32 pu = ldp(p, u), pv = ldp(p, v);
            if (pu == pv) {
                bits |= b;
                continue;
            }
            active++;
            sv_hook(p, hook, pu, pv, u, v, down);
        }
        if (bits) atomicOr(&hidden[word], bits);
    }
    block_sum64(active, &ctrl->active);
}

// Edge-balanced: warp k takes bitmap words k, k+W, ...; lane j the arc
// 32w+j. A word is written by one warp only, so the new bits are a plain
// store of the ballot.
extern "C" __global__ void __launch_bounds__(1024)
    cc_sv_bm_e(const u32* __restrict__ src, const u32* __restrict__ adj, u64 m, u32* p, u32* hidden, u64* hook,
               CCCtrl* ctrl, u32 down, u32 directed) {
    u64 nwords = (m + 31) >> 5;
    u64 active = 0;
    const u32 lane = lane_id();
    for (u64 w = gtid() >> 5; w < nwords; w += gstride() >> 5) {
        u32 h = hidden[w];
        if (h == FULL_MASK) continue;  // warp-uniform
        u64 e = w * 32 + lane;
        bool hide = true;
        if (e < m && !((h >> lane) & 1u)) {
            u32 u = src[e], v = adj[e];
            if (cc_canonical(u, v, directed)) {
                u32 pu = ldp(p, u), pv = ldp(p, v);
                if (pu != pv) {
                    hide = false;
                    active++;
                    sv_hook(p, hook, pu, pv, u, v, down);
                }
            }
        }
        u32 nh = __ballot_sync(FULL_MASK, hide);
        if (lane == 0 && nh != h) hidden[w] = nh | h;
    }
    block_sum64(active, &ctrl->active);
}

// Queue pass: hooks the queued edges whose endpoints still lie in different
// trees and compacts exactly those into qout (ctrl->qcount counts them).
extern "C" __global__ void __launch_bounds__(1024)
    cc_sv_qu(const u64* __restrict__ qin, u64 count, u64* qout, u64 cap, u32* p, u64* hook, CCCtrl* ctrl, u32 down) {
    for (u64 i = gtid(); i < warp_round(count); i += gstride()) {
        bool keep = false;
        u64 x = 0;
        if (i < count) {
            x = qin[i];
            u32 u = (u32)(x >> 32), v = (u32)x;
            u32 pu = ldp(p, u), pv = ldp(p, v);
            if (pu != pv) {
                keep = true;
                sv_hook(p, hook, pu, pv, u, v, down);
            }
        }
        warp_push_cap(keep, x, qout, &ctrl->qcount, cap);
    }
}

// Queue of the canonical arcs not hidden (hidden may be null) whose
// endpoints lie in different trees; exact between iterations (stars).
extern "C" __global__ void __launch_bounds__(1024)
    cc_sv_build_qu(const u32* __restrict__ src, const u32* __restrict__ adj, u64 m, const u32* p,
                   const u32* hidden, u64* qout, u64 cap, CCCtrl* ctrl, u32 directed) {
    for (u64 e = gtid(); e < warp_round(m); e += gstride()) {
        bool keep = false;
        u64 x = 0;
        if (e < m && (hidden == nullptr || !bit_test(hidden, e))) {
            u32 u = src[e], v = adj[e];
            x = pack_edge(u, v);
            keep = cc_canonical(u, v, directed) && p[u] != p[v];
        }
        warp_push_cap(keep, x, qout, &ctrl->qcount, cap);
    }
}

// Unhides the queued edges (every bit set on entry): each edge's arcs are
// found by binary search in its source's sorted list (duplicates included).
extern "C" __global__ void __launch_bounds__(1024)
    cc_sv_qu_to_bm(const u64* __restrict__ q, u64 count, const i64* __restrict__ off, const u32* __restrict__ adj,
                   u32* hidden) {
    for (u64 i = gtid(); i < count; i += gstride()) {
        u64 x = q[i];
        u32 u = (u32)(x >> 32), v = (u32)x;
        i64 lo = off[u], hi = off[u + 1];
        while (lo < hi) {
            i64 mid = lo + (hi - lo) / 2;
            if (adj[mid] < v) lo = mid + 1;
            else hi = mid;
        }
        for (i64 e = lo; e < off[u + 1] && adj[e] == v; e++) atomicAnd(&hidden[e >> 5], ~(1u << (e & 31)));
    }
}

// low[r] = the smallest vertex of star r (low filled with INF32 first).
extern "C" __global__ void __launch_bounds__(1024) cc_low_min(const u32* p, u32 n, u32* low) {
    for (u64 v = gtid(); v < n; v += gstride()) atomicMin(&low[p[v]], (u32)v);
}

// p[v] = low[p[v]]: each thread reads only its own parent, so in place.
extern "C" __global__ void __launch_bounds__(1024) cc_low_apply(u32* p, u32 n, const u32* low) {
    for (u64 v = gtid(); v < n; v += gstride()) p[v] = low[p[v]];
}

// Afforest's Link: hooks the larger of the two roots under the smaller with
// a CAS and records arc u->v when this call performed the hook. Parents
// only decrease, so every root is its tree's smallest vertex.
__device__ __forceinline__ bool cc_link(u32* p, u64* hook, u32 u, u32 v) {
    u32 p1 = ldp(p, u), p2 = ldp(p, v);
    while (p1 != p2) {
        u32 high = p1 > p2 ? p1 : p2;
        u32 low = p1 ^ p2 ^ high;
        u32 ph = ldp(p, high);
        if (ph == low) return false;
        if (ph == high && atomicCAS(&p[high], high, low) == high) {
            if (hook) hook[high] = hook_edge(u, v);
            return true;
        }
        p1 = ldp(p, ldp(p, high));
        p2 = ldp(p, low);
    }
    return false;
}

// Round 0 of Afforest (with at least two rounds) and union-find's start:
// every vertex whose first (smallest) neighbour is smaller points at it, a
// plain store in a launch where nothing else writes parents.
extern "C" __global__ void __launch_bounds__(1024)
    cc_aff_round0(const i64* __restrict__ off, const u32* __restrict__ adj, u32 n, u32* p, u64* hook, CCCtrl* ctrl) {
    u64 a = 0;
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 u = (u32)i;
        i64 b = off[u];
        if (b < off[u + 1]) {
            a++;
            u32 x = adj[b];
            if (x < u) {
                p[u] = x;
                if (hook) hook[u] = hook_edge(u, x);
            }
        }
    }
    block_sum64(a, &ctrl->active);
}

// Round r: link every vertex to its r-th neighbour; round 1 after round 0
// also links the first neighbours that round 0 left out (local minima).
extern "C" __global__ void __launch_bounds__(1024)
    cc_aff_round(const i64* __restrict__ off, const u32* __restrict__ adj, u32 n, u32* p, u64* hook, CCCtrl* ctrl,
                 u32 r, u32 deferred) {
    u64 a = 0;
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 u = (u32)i;
        i64 b = off[u], end = off[u + 1];
        if (deferred && b < end && adj[b] > u) cc_link(p, hook, u, adj[b]);
        if (b + (i64)r < end) {
            a++;
            cc_link(p, hook, u, adj[b + r]);
        }
    }
    block_sum64(a, &ctrl->active);
}

// The most frequent root among 1024 sampled vertices (ties to the smaller
// id) into ctrl->root. One block of 1024 threads; p must be compressed.
extern "C" __global__ void __launch_bounds__(1024) cc_aff_mode(const u32* p, u32 n, u64 seed, CCCtrl* ctrl) {
    __shared__ u32 s[1024];
    __shared__ u64 best;
    u32 t = threadIdx.x;
    u64 x = seed + (u64)(t + 1) * 0x9E3779B97F4A7C15ull;  // splitmix64
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    s[t] = p[x % n];
    if (t == 0) best = 0;
    __syncthreads();
    u32 c = 0;
    for (int j = 0; j < 1024; j++) c += s[j] == s[t];
    atomicMax(&best, ((u64)c << 32) | (u64)(FULL_MASK - s[t]));
    __syncthreads();
    if (t == 0) ctrl->root = FULL_MASK - (u32)best;
}

// Union-find's union of arc v->u: both roots found with intermediate
// pointer jumping, the larger hooked under the smaller by CAS.
__device__ __forceinline__ u32 cc_find(u32* p, u32 v) {
    u32 cur = ldp(p, v);
    if (cur == v) return cur;
    u32 prev = v;
    for (;;) {
        u32 next = ldp(p, cur);
        if (next >= cur) return cur;
        stp(p, prev, next);
        prev = cur;
        cur = next;
    }
}

__device__ __forceinline__ void cc_union(u32* p, u64* hook, u32 v, u32 u) {
    u32 vr = cc_find(p, v), ur = cc_find(p, u);
    while (vr != ur) {
        if (vr < ur) {
            if (ldp(p, ur) == ur && atomicCAS(&p[ur], ur, vr) == ur) {
                if (hook) hook[ur] = hook_edge(v, u);
                return;
            }
            ur = cc_find(p, ur);
        } else {
            if (ldp(p, vr) == vr && atomicCAS(&p[vr], vr, ur) == vr) {
                if (hook) hook[vr] = hook_edge(v, u);
                return;
            }
            vr = cc_find(p, vr);
        }
    }
}

// mode CC_MODE_LINK (Afforest's last pass): arcs from off[u]+start of every
// vertex outside the tree of root ctrl->root (all vertices when skip is 0),
// linked with cc_link;
// CC_MODE_UF: union-find over the arcs v->u with u < v (undirected; lists
// are sorted, so a prefix) or every arc but self-loops (directed).
#define CC_MODE_LINK 0
#define CC_MODE_UF 1

__device__ __forceinline__ bool cc_arc_wanted(u32 mode, u32 directed, u32 v, u32 u) {
    if (mode == CC_MODE_LINK) return true;
    return directed ? u != v : u < v;
}

__device__ __forceinline__ void cc_arc(u32 mode, u32* p, u64* hook, u32 v, u32 u) {
    if (mode == CC_MODE_LINK) cc_link(p, hook, v, u);
    else cc_union(p, hook, v, u);
}

// Thread per vertex; vertices with more than CC_HEAVY arcs to do are queued
// (warp-aggregated) for cc_link_b. ctrl->edges counts the arcs examined,
// ctrl->active the vertices with arcs to do.
extern "C" __global__ void __launch_bounds__(1024)
    cc_link_t(const i64* __restrict__ off, const u32* __restrict__ adj, u32 n, u32* p, u64* hook, u32* heavy,
              CCCtrl* ctrl, u32 mode, u32 directed, u32 skip, u32 start) {
    const u32 c = skip ? ctrl->root : 0u;  // cc_aff_mode's answer, from the launch before
    u64 a = 0, edges = 0;
    for (u64 i = gtid(); i < warp_round(n); i += gstride()) {
        bool big = false;
        u32 v = (u32)i;
        if (i < n && !(skip && ldp(p, v) == c)) {
            i64 from = off[v] + (i64)start, to = off[v + 1];
            if (from < to) {
                a++;
                if (to - from > CC_HEAVY) {
                    big = true;
                } else {
                    for (i64 e = from; e < to; e++) {
                        u32 u = adj[e];
                        edges++;
                        if (!cc_arc_wanted(mode, directed, v, u)) {
                            if (mode == CC_MODE_UF && !directed) break;  // sorted: no smaller ones follow
                            continue;
                        }
                        cc_arc(mode, p, hook, v, u);
                    }
                }
            }
        }
        warp_push(big, v, heavy, &ctrl->heavy);
    }
    block_sum64(a, &ctrl->active);
    block_sum64(edges, &ctrl->edges);
}

// One block per queued heavy vertex, its threads striding over the arcs.
extern "C" __global__ void __launch_bounds__(1024)
    cc_link_b(const i64* __restrict__ off, const u32* __restrict__ adj, const u32* __restrict__ heavy, u32* p,
              u64* hook, CCCtrl* ctrl, u32 mode, u32 directed, u32 start) {
    u32 count = ctrl->heavy;
    u64 edges = 0;
    for (u32 i = blockIdx.x; i < count; i += gridDim.x) {
        u32 v = heavy[i];
        i64 to = off[v + 1];
        for (i64 e = off[v] + (i64)start + threadIdx.x; e < to; e += blockDim.x) {
            u32 u = adj[e];
            edges++;
            if (cc_arc_wanted(mode, directed, v, u)) cc_arc(mode, p, hook, v, u);
        }
    }
    block_sum64(edges, &ctrl->edges);
}
