// msf.cu: minimum spanning forest, edge-centric Borůvka in the style of
// ECL-MST (Fallin, Gonzalez, Burtscher).
//
// State: the parent array p (n uint32, a union-find forest: parents only
// ever point at an ancestor), best[r] (n uint64: the lightest key
// weight<<32|arc seen crossing out of root r this round, INF64 otherwise),
// and chosen (a bitmap over arcs: the forest's edges). An edge is its
// canonical arc (undirected: u < v; directed, read as undirected: every arc
// but self-loops) and arcs are numbered in CSR order, so keys are unique
// and order edges by (weight, id) exactly like the CPU's edge ids: the
// forest is the unique one the CPU finds.
//
// A round is two launches:
//   msf_min_{bm_t,bm_e,qu}  every active edge whose endpoints' roots differ
//                           lowers both roots' best (64-bit atomicMin);
//                           edges inside one tree are hidden (bitmap) or
//                           dropped (queue: the survivors are compacted
//                           into the other buffer in the same pass);
//   msf_hook                every root with a key takes it out (resetting
//                           best for the next round), marks the edge and
//                           unites its endpoints (CAS, the larger root under
//                           the smaller). Each key is the minimum of its
//                           root's cut, so every marked edge belongs to the
//                           forest, whatever order the unions run in; a
//                           mutual pair marks its edge twice.
// Finds use path halving with plain loads and stores (a store only ever
// shortens a path to an ancestor), so no compression launch is needed.
// The counters (cnt, the cc control block's words): cnt[0] active edges
// seen by a bitmap pass, cnt[1] edges pushed into a queue, cnt[2] arcs
// examined, cnt[MSF_LISTED], cnt[MSF_WEIGHT] and cnt[MSF_DONE] the
// listing's.
//
// After the last round the forest is listed on the device, so that only
// its n - c edges cross to the host rather than a bitmap over every arc:
// the chosen arcs in arc order as the host's Edge {u, v, w} (three u32),
// by blocks of MSF_LIST_BLOCK threads over tiles of MSF_LIST_TILE bitmap
// words:
//   msf_list_count  each tile's number of chosen arcs, then (the last
//                   block) the tiles' exclusive prefix and the total
//                   (cnt[MSF_LISTED]);
//   msf_list_write  each chosen arc's record at its tile's offset plus its
//                   rank in the tile; the weights' sum (exact as integers)
//                   goes to cnt[MSF_WEIGHT].
//
// thresh admits only keys below it (ECL-MST's filter: a sampled weight<<32
// lets about 3n light edges in first; INF64 admits every edge). A bitmap
// pass hides the arcs above it too, so later passes of the light phase
// skip them; the host clears the bitmap when every edge joins.
#include "common.cuh"

// CCCtrl's listed, weight and done words (cc.cu), as cnt's indices.
#define MSF_LISTED 5
#define MSF_WEIGHT 6
#define MSF_DONE 7
// The listing kernels' block size (kernels.MSFListBlock) and bitmap words
// per thread; a block lists a tile of MSF_LIST_TILE words at a time. The
// CPU emulation's test lists smaller tiles.
#ifndef MSF_LIST_BLOCK
#define MSF_LIST_BLOCK 256
#define MSF_LIST_WORDS 4
#endif
#define MSF_LIST_TILE (MSF_LIST_BLOCK * MSF_LIST_WORDS)

__device__ __forceinline__ u32 msf_ld(const u32* p, u32 i) { return __ldcg(p + i); }

__device__ __forceinline__ bool msf_canonical(u32 u, u32 v, u32 directed) { return directed ? u != v : u < v; }

// Root of x, halving the path on the way.
__device__ __forceinline__ u32 msf_find(u32* p, u32 x) {
    u32 y = msf_ld(p, x);
    while (y != x) {
        u32 z = msf_ld(p, y);
        if (z == y) return y;
        __stcg(p + x, z);
        x = z;
        y = msf_ld(p, x);
    }
    return x;
}

// Joins the trees of a and b: the larger root is hooked under the smaller
// by a CAS, retried from the new roots when another union got there first.
__device__ __forceinline__ void msf_unite(u32* p, u32 a, u32 b) {
    for (;;) {
        a = msf_find(p, a);
        b = msf_find(p, b);
        if (a == b) return;
        u32 lo = a < b ? a : b, hi = a < b ? b : a;
        if (atomicCAS(p + hi, hi, lo) == hi) return;
    }
}

// Lowers best[r] to key; the load first skips the atomic when key cannot
// win (values only fall during a launch, so a stale load is never lower).
__device__ __forceinline__ void msf_lower(u64* best, u32 r, u64 key) {
    if (key < __ldcg(best + r)) atomicMin(best + r, key);
}

// Bitmap pass, one thread per vertex (thread mapping): the source's root is
// found once and its minimum reduced in a register before one atomic; the
// hidden bits of a word are gathered and set with one atomicOr.
extern "C" __global__ void __launch_bounds__(1024)
    msf_min_bm_t(const i64* __restrict__ off, const u32* __restrict__ adj, const u32* __restrict__ w, u32 n, u32* p,
                 u32* hidden, u64* best, u64 thresh, u64* cnt, u32 directed) {
    u64 active = 0, read = 0;
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 u = (u32)i;
        i64 e0 = off[u], e1 = off[u + 1];
        if (e0 == e1) continue;
        u32 ru = msf_find(p, u);
        u64 mine = INF64;
        u64 hw = INF64;
        u32 hm = 0, cur = 0;
        for (i64 e = e0; e < e1; e++) {
            u64 wi = (u64)e >> 5;
            u32 bit = 1u << ((u32)e & 31u);
            if (wi != hw) {
                if (hm) atomicOr(hidden + hw, hm);
                hw = wi;
                hm = 0;
                cur = hidden[wi];
            }
            if (cur & bit) continue;
            read++;
            u32 v = adj[e];
            if (!msf_canonical(u, v, directed)) {
                hm |= bit;
                continue;
            }
            u64 key = ((u64)w[e] << 32) | (u64)e;
            if (key >= thresh) {
                hm |= bit;
                continue;
            }
            u32 rv = msf_find(p, v);
            if (rv == ru) {
                hm |= bit;
                continue;
            }
            active++;
            if (key < mine) mine = key;
            msf_lower(best, rv, key);
        }
        if (hm) atomicOr(hidden + hw, hm);
        if (mine != INF64) msf_lower(best, ru, mine);
    }
    block_sum64(active, cnt);
    block_sum64(read, cnt + 2);
}

// Bitmap pass, one warp per 32-arc bitmap word, the arcs' sources from the
// COO array src (block mapping: balanced whatever the degrees). The warp
// owns its word: lane 0 stores the hidden bits without an atomic.
extern "C" __global__ void __launch_bounds__(1024)
    msf_min_bm_e(const u32* __restrict__ src, const u32* __restrict__ adj, const u32* __restrict__ w, u64 m, u32* p,
                 u32* hidden, u64* best, u64 thresh, u64* cnt, u32 directed) {
    u64 active = 0, read = 0;
    for (u64 e = gtid(); e < warp_round(m); e += gstride()) {
        bool hide = false;
        u32 word = 0;
        if (e < m) {
            word = hidden[e >> 5];
            if (!((word >> ((u32)e & 31u)) & 1u)) {
                read++;
                u32 u = src[e], v = adj[e];
                if (!msf_canonical(u, v, directed)) {
                    hide = true;
                } else {
                    u64 key = ((u64)w[e] << 32) | e;
                    if (key >= thresh) {
                        hide = true;
                    } else {
                        u32 ru = msf_find(p, u), rv = msf_find(p, v);
                        if (ru == rv) {
                            hide = true;
                        } else {
                            active++;
                            msf_lower(best, ru, key);
                            msf_lower(best, rv, key);
                        }
                    }
                }
            }
        }
        u32 hm = __ballot_sync(FULL_MASK, hide);
        if (lane_id() == 0 && hm) hidden[e >> 5] = word | hm;
    }
    block_sum64(active, cnt);
    block_sum64(read, cnt + 2);
}

// Queue pass over packed u<<32|arc: the edges whose endpoints still lie in
// different trees lower both roots' minima and are compacted into qout
// (cnt[1] counts them: the next working set's exact size).
extern "C" __global__ void __launch_bounds__(1024)
    msf_min_qu(const u64* __restrict__ qin, u64 count, u64* qout, u64 cap, const u32* __restrict__ adj,
               const u32* __restrict__ w, u32* p, u64* best, u64* cnt) {
    for (u64 i = gtid(); i < warp_round(count); i += gstride()) {
        bool keep = false;
        u64 x = 0;
        if (i < count) {
            x = qin[i];
            u32 u = (u32)(x >> 32), e = (u32)x;
            u32 ru = msf_find(p, u), rv = msf_find(p, adj[e]);
            if (ru != rv) {
                keep = true;
                u64 key = ((u64)w[e] << 32) | (u64)e;
                msf_lower(best, ru, key);
                msf_lower(best, rv, key);
            }
        }
        warp_push_cap(keep, x, qout, cnt + 1, cap);
    }
}

// Hook: every root with a key takes its edge into the forest and unites
// its endpoints. One thread per vertex; only roots of the last pass hold
// keys.
extern "C" __global__ void __launch_bounds__(1024)
    msf_hook(u64* best, u32 n, const u32* __restrict__ src, const u32* __restrict__ adj, u32* p, u32* chosen) {
    for (u64 i = gtid(); i < n; i += gstride()) {
        u64 k = best[i];
        if (k == INF64) continue;
        best[i] = INF64;
        u32 e = (u32)k;
        atomicOr(chosen + (e >> 5), 1u << (e & 31u));
        msf_unite(p, src[e], adj[e]);
    }
}

// Queue of the canonical arcs below thresh, not hidden (hidden may be
// null), whose endpoints lie in different trees, packed u<<32|arc (cnt[1]
// counts them).
extern "C" __global__ void __launch_bounds__(1024)
    msf_build_qu(const u32* __restrict__ src, const u32* __restrict__ adj, const u32* __restrict__ w, u64 m, u32* p,
                 const u32* hidden, u64* qout, u64 cap, u64 thresh, u64* cnt, u32 directed) {
    for (u64 e = gtid(); e < warp_round(m); e += gstride()) {
        bool keep = false;
        u64 x = 0;
        if (e < m && (hidden == nullptr || !bit_test(hidden, e))) {
            u32 u = src[e], v = adj[e];
            x = ((u64)u << 32) | e;
            keep = msf_canonical(u, v, directed) && (((u64)w[e] << 32) | e) < thresh && msf_find(p, u) != msf_find(p, v);
        }
        warp_push_cap(keep, x, qout, cnt + 1, cap);
    }
}

// Unhides the queued arcs (every bit set on entry).
extern "C" __global__ void __launch_bounds__(1024) msf_qu_to_bm(const u64* __restrict__ q, u64 count, u32* hidden) {
    for (u64 i = gtid(); i < count; i += gstride()) {
        u32 e = (u32)q[i];
        atomicAnd(hidden + (e >> 5), ~(1u << (e & 31u)));
    }
}

// The thread's MSF_LIST_WORDS bitmap words of tile t (zeros past the end)
// and their chosen arcs; returns the index of the first word.
__device__ __forceinline__ u64 msf_list_load(const u32* chosen, u64 words, u64 t, u32* x, u32* c) {
    const u64 first = (t * MSF_LIST_BLOCK + threadIdx.x) * MSF_LIST_WORDS;
    *c = 0;
    for (u32 k = 0; k < MSF_LIST_WORDS; k++) {
        x[k] = first + k < words ? chosen[first + k] : 0;
        *c += __popc(x[k]);
    }
    return first;
}

// Chosen arcs of each tile; the last block to finish turns the counts into
// their exclusive prefix, in place, and puts the total (fewer than n
// edges) in cnt[MSF_LISTED]. cnt[MSF_DONE] counts the finished blocks: the
// round before left it zero (the host clears the control block before
// every pass), and the last block zeroes it again. cnt[MSF_WEIGHT] is
// zeroed for msf_list_write, so the listing needs no memset.
extern "C" __global__ void __launch_bounds__(MSF_LIST_BLOCK)
    msf_list_count(const u32* __restrict__ chosen, u64 words, u32* __restrict__ tiles, u64* cnt) {
    __shared__ u32 s_last;
    const u64 ntiles = (words + MSF_LIST_TILE - 1) / MSF_LIST_TILE;
    if (blockIdx.x == 0 && threadIdx.x == 0) cnt[MSF_WEIGHT] = 0;
    for (u64 t = blockIdx.x; t < ntiles; t += gridDim.x) {
        u32 x[MSF_LIST_WORDS], c, total;
        msf_list_load(chosen, words, t, x, &c);
        block_scan(c, &total);
        if (threadIdx.x == 0) tiles[t] = total;
        __syncthreads();  // block_scan's shared words serve the next tile
    }
    // Publish this block's counts before it is counted finished.
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) s_last = atomicAdd(cnt + MSF_DONE, 1ull) == gridDim.x - 1;
    __syncthreads();
    if (!s_last) return;
    __threadfence();
    u32 carry = 0;
    for (u64 base = 0; base < ntiles; base += blockDim.x) {
        u64 i = base + threadIdx.x;
        u32 total;
        u32 before = block_scan(i < ntiles ? __ldcg(tiles + i) : 0, &total);  // L2: other blocks wrote them
        if (i < ntiles) tiles[i] = carry + before;
        carry += total;
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        cnt[MSF_LISTED] = carry;
        cnt[MSF_DONE] = 0;
    }
}

// Each chosen arc e as {src[e], adj[e], w[e]} at out[3*k] for its rank k
// among the chosen arcs; the weights summed into cnt[MSF_WEIGHT].
extern "C" __global__ void __launch_bounds__(MSF_LIST_BLOCK)
    msf_list_write(u32* out, u64* cnt, const u32* __restrict__ src, const u32* __restrict__ adj, const u32* __restrict__ w,
                   const u32* __restrict__ chosen, u64 words, const u32* __restrict__ tiles) {
    const u64 ntiles = (words + MSF_LIST_TILE - 1) / MSF_LIST_TILE;
    u64 sum = 0;
    for (u64 t = blockIdx.x; t < ntiles; t += gridDim.x) {
        u32 x[MSF_LIST_WORDS], c, total;
        u64 first = msf_list_load(chosen, words, t, x, &c);
        u64 k = (u64)tiles[t] + block_scan(c, &total);
        for (u32 j = 0; j < MSF_LIST_WORDS; j++) {
            for (u32 b = x[j]; b != 0; b &= b - 1, k++) {
                u64 e = (first + j) * 32 + (u32)(__ffs(b) - 1);
                u32 we = w[e];
                out[3 * k] = src[e];
                out[3 * k + 1] = adj[e];
                out[3 * k + 2] = we;
                sum += we;
            }
        }
        __syncthreads();
    }
    block_sum64(sum, cnt + MSF_WEIGHT);
}
