// sssp.cu: SSSP computation kernels and the findmin reduction.
//
// sssp_{d64,d32}_{t,b}_{bm,qu}
//     d64/d32  uint64 / uint32 distances (the host picks uint32 when no
//              path can reach 2^32-1: (n-1) * max weight < 2^32-1; half the
//              bytes in the randomly accessed distance array, which then
//              stays in the H100's L2 for 4M-vertex graphs);
//     t/b      thread / block mapping; bm/qu bitmap / queue working set.
// Relaxation is the same for ordered and unordered SSSP; what differs is
// which updated vertices the generation kernel selects (see workset.cu:
// SEL_ALL unordered, SEL_MIN ordered, SEL_DELTA delta-stepping buckets).
// A nil weight array means unit weights. Heavy vertices go to a piece list
// that sssp_pieces_{d64,d32} expands next (expand.cuh).
//
// sssp_findmin_{u32,u64}: the minimum distance over updated vertices, folded
// into ctrl->minv (reset to INF64 by the preceding computation kernel).
//
// sssp_bucket_{u32,u64}: the adaptive policy's work-targeted bucket, run
// after findmin: it widens the minimum's bucket over whole bins of width
// unit until the updated vertices it holds have at least target out-edges,
// and stores its last distance in ctrl->minv for a SEL_MIN generation
// (which selects dist <= minv). Fixed delta-stepping must pick one width
// for every iteration: a narrow one makes hundreds of nearly empty
// iterations, each with the fixed cost of its launches and control-block
// read, a wide one relaxes the hubs of a skewed graph again and again
// within one bucket.
#include "expand.cuh"
#include "persist.cuh"

// The SSSP step of expand.cuh: relax with atomicMin, flag improved vertices.
template <typename D>
struct SSSPVisit {
    const u32* __restrict__ adj;
    const u32* __restrict__ wt;
    D* dist;
    u8* upd;
    typedef D S;
    struct Item {
        u32 u;
        D nd;
    };
    __device__ __forceinline__ D source(u32 v) const { return dist[v]; }
    __device__ __forceinline__ Item item(D dv, i64 e) const { return Item{adj[e], dv + (D)(wt ? wt[e] : 1u)}; }
    __device__ __forceinline__ bool improves(const Item& it) const { return dist[it.u] > it.nd; }
    __device__ __forceinline__ void commit(const Item& it) const {
        if (atomicMin(&dist[it.u], it.nd) > it.nd) upd[it.u] = 1;
    }
};

#define SSSP_PUSH(NAME, D, BLK, BM)                                                                           \
    extern "C" __global__ void __launch_bounds__(1024)                                                        \
        NAME(const i64* __restrict__ off, const u32* __restrict__ adj, const u32* __restrict__ wt, D* dist,   \
             u8* upd, const u32* __restrict__ ws, u32 n, Ctrl* ctrl, u32 par, u64* pieces) {                  \
        expand<SSSPVisit<D>, BLK, BM>(SSSPVisit<D>{adj, wt, dist, upd}, off, ws, n, ctrl, par, pieces);       \
    }

SSSP_PUSH(sssp_d64_t_bm, u64, false, true)
SSSP_PUSH(sssp_d64_t_qu, u64, false, false)
SSSP_PUSH(sssp_d64_b_bm, u64, true, true)
SSSP_PUSH(sssp_d64_b_qu, u64, true, false)
SSSP_PUSH(sssp_d32_t_bm, u32, false, true)
SSSP_PUSH(sssp_d32_t_qu, u32, false, false)
SSSP_PUSH(sssp_d32_b_bm, u32, true, true)
SSSP_PUSH(sssp_d32_b_qu, u32, true, false)

#define SSSP_PIECES(NAME, D)                                                                                  \
    extern "C" __global__ void __launch_bounds__(1024)                                                        \
        NAME(const i64* __restrict__ off, const u32* __restrict__ adj, const u32* __restrict__ wt, D* dist,   \
             u8* upd, const u64* __restrict__ pieces, const Ctrl* ctrl) {                                     \
        expand_pieces<SSSPVisit<D>>(SSSPVisit<D>{adj, wt, dist, upd}, off, pieces, ctrl);                     \
    }

SSSP_PIECES(sssp_pieces_d64, u64)
SSSP_PIECES(sssp_pieces_d32, u32)

template <typename D>
__device__ __forceinline__ void findmin(const D* __restrict__ dist, const u8* __restrict__ upd, u32 n, u64* minslot) {
    u64 mine = INF64;
    // Four flags per 32-bit load: the update vector is padded to 16 bytes.
    const u32* upd4 = (const u32*)upd;
    const u64 nq = ((u64)n + 3) >> 2;
    for (u64 q = gtid(); q < nq; q += gstride()) {
        u32 w = upd4[q];
        if (!w) continue;
#pragma unroll
        for (int k = 0; k < 4; k++) {
            u64 v = q * 4 + k;
            if (((w >> (8 * k)) & 0xFFu) && v < n) {
                u64 d = (u64)dist[v];
                mine = d < mine ? d : mine;
            }
        }
    }
    block_min(mine, minslot);
}

extern "C" __global__ void __launch_bounds__(1024)
    sssp_findmin_u64(const u64* __restrict__ dist, const u8* __restrict__ upd, u32 n, Ctrl* ctrl) {
    findmin<u64>(dist, upd, n, &ctrl->minv);
}

extern "C" __global__ void __launch_bounds__(1024)
    sssp_findmin_u32(const u32* __restrict__ dist, const u8* __restrict__ upd, u32 n, Ctrl* ctrl) {
    findmin<u32>(dist, upd, n, &ctrl->minv);
}

// The degree histogram of sssp_bucket: BUCKET_BINS bins of width unit from
// the minimum's bin (the last one collects every farther vertex); the last
// block to finish (hist[BUCKET_BINS] counts the blocks) picks the bound:
// the end of the first bin at which the summed degrees reach target; if
// only the far bin reaches it, the end of the bin before; if all of them
// stay below it, no bound (every updated vertex: an unordered step). hist
// must be zero on entry and is zero again on exit.
template <typename D>
__device__ __forceinline__ void bucket_bound(const D* __restrict__ dist, const u8* __restrict__ upd, u32 n,
                                             const i64* __restrict__ off, Ctrl* ctrl, u64* hist, u64 unit, u64 target) {
    __shared__ u64 s_hist[BUCKET_BINS];
    __shared__ u32 s_last;
    for (u32 i = threadIdx.x; i < BUCKET_BINS; i += blockDim.x) s_hist[i] = 0;
    __syncthreads();
    const u64 m = ctrl->minv;
    const u64 lo = m - m % unit;
    const u32* upd4 = (const u32*)upd;
    const u64 nq = ((u64)n + 3) >> 2;
    // Warp-uniform trips: the lanes of a warp add their bins' degrees
    // together (pending vertices of one warp mostly share a bin or two).
    for (u64 q = gtid(); q < warp_round(nq); q += gstride()) {
        u32 w = q < nq ? upd4[q] : 0u;
        if (!__any_sync(FULL_MASK, w)) continue;
#pragma unroll
        for (int k = 0; k < 4; k++) {
            u64 v = q * 4 + k;
            u32 b = BUCKET_BINS;  // none
            u64 dg = 0;
            if (((w >> (8 * k)) & 0xFFu) && v < n) {
                u64 d = (u64)dist[v];
                u64 bin = (d - lo) / unit;
                b = bin < BUCKET_BINS - 1 ? (u32)bin : BUCKET_BINS - 1;
                dg = (u64)(off[v + 1] - off[v]);
            }
            u32 todo = __ballot_sync(FULL_MASK, b != BUCKET_BINS);
            while (todo) {
                const int leader = __ffs(todo) - 1;
                const u32 bl = __shfl_sync(FULL_MASK, b, leader);
                todo &= ~__ballot_sync(FULL_MASK, b == bl);
                u64 s = b == bl ? dg : 0;
                for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL_MASK, s, o);
                if (lane_id() == 0) atomicAdd((unsigned long long*)&s_hist[bl], (unsigned long long)s);
            }
        }
    }
    __syncthreads();
    for (u32 i = threadIdx.x; i < BUCKET_BINS; i += blockDim.x)
        if (s_hist[i]) atomicAdd((unsigned long long*)&hist[i], (unsigned long long)s_hist[i]);
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) s_last = atomicAdd((unsigned long long*)&hist[BUCKET_BINS], 1ull) == gridDim.x - 1;
    __syncthreads();
    if (!s_last || threadIdx.x != 0) return;
    __threadfence();
    u64 sum = 0, bound = INF64;
    bool found = false;
    for (u32 i = 0; i < BUCKET_BINS; i++) {
        sum += *(volatile u64*)&hist[i];
        if (!found && sum >= target) {
            found = true;
            const u64 bins = i < BUCKET_BINS - 1 ? i + 1 : BUCKET_BINS - 1;
            bound = unit > (INF64 - lo) / bins ? INF64 : lo + unit * bins - 1;  // saturating
        }
        hist[i] = 0;
    }
    hist[BUCKET_BINS] = 0;
    if (m != INF64) ctrl->minv = bound;
}

extern "C" __global__ void __launch_bounds__(1024)
    sssp_bucket_u64(const u64* __restrict__ dist, const u8* __restrict__ upd, u32 n, const i64* __restrict__ off,
                    Ctrl* ctrl, u64* hist, u64 unit, u64 target) {
    bucket_bound<u64>(dist, upd, n, off, ctrl, hist, unit, target);
}

extern "C" __global__ void __launch_bounds__(1024)
    sssp_bucket_u32(const u32* __restrict__ dist, const u8* __restrict__ upd, u32 n, const i64* __restrict__ off,
                    Ctrl* ctrl, u64* hist, u64 unit, u64 target) {
    bucket_bound<u32>(dist, upd, n, off, ctrl, hist, unit, target);
}

// sssp_persist_{qu,nf}_{d64,d32}: SSSP levels in one persistent launch, the
// counterpart of bfs_persist_qu (same launch shape, exits and ctrl report):
// qu unordered; nf ordered, near-far delta-stepping (Davidson et al.,
// "Work-efficient parallel GPU methods for single-source shortest paths",
// IPDPS 2014) with the far pile kept as flags in the update vector
// (persist.cuh: bucketed visitors).
//
// A vertex lowered into the current bucket (distance <= end; unordered:
// every lowered vertex, end = INF64) enters the next queue once: bit
// 2 << p of its update-vector byte means "in the queue built at a level of
// parity p" (atomicOr on the byte's word decides who pushes). One lowered
// beyond the bucket gets bit 1, the pending flag of the ordinary kernels,
// so that an ordered launch may start on, and leave, an update vector that
// an ordered generation left pending vertices in. A vertex clears its
// queue's bit and the pending bit when it is expanded: its distance is
// then in the current bucket and can only fall. On exit the final
// frontier's bytes are cleared, so an unordered launch, which starts on an
// all-zero update vector (unordered generation selects every updated
// vertex), leaves it all zero. Buckets are delta wide and aligned as
// SEL_DELTA's (delta 1: SEL_MIN's minimum).
__device__ __forceinline__ u32* upd_word(u8* upd, u32 v) { return (u32*)(upd + (v & ~3u)); }

template <typename D, bool Buckets>
struct SSSPLevels {
    static constexpr bool kBuckets = Buckets;
    struct S {
        D dv;
    };
    const u32* wt;
    D* dist;
    u8* upd;
    u32 n;
    u64 delta;
    u64 end;   // the current bucket's last distance
    u32 qbit;  // flag of the queue being built
    u64 far;   // bucketed: smallest distance this thread sent beyond a bucket
    __device__ u64 dist_of(u32 v) const { return (u64)__ldcg(dist + v); }
    __device__ void set_end(u64 m) {
        u64 lo = m - m % delta;
        u64 e = lo + (delta - 1);
        end = e < lo ? INF64 : e;  // saturate
    }
    __device__ void level(u32 done) { qbit = 2u << (done & 1u); }
    __device__ S vertex(u32 v, u32 sub) {
        if (sub == 0) atomicAnd(upd_word(upd, v), ~(((qbit ^ 6u) | 1u) << (8 * (v & 3u))));
        return S{dist[v]};
    }
    __device__ bool visit(S s, i64 e, u32 u) {
        D nd = s.dv + (D)(wt ? wt[e] : 1u);
        if (!(dist[u] > nd && atomicMin(&dist[u], nd) > nd)) return false;
        u32 sh = 8 * (u & 3u);
        if ((u64)nd > end) {
            far = (u64)nd < far ? (u64)nd : far;
            // A stale 1 is harmless: a cleared flag is never needed again.
            if (!(upd[u] & 1u)) atomicOr(upd_word(upd, u), 1u << sh);
            return false;
        }
        return !((atomicOr(upd_word(upd, u), qbit << sh) >> sh) & qbit);
    }
    // The frontier left is the next iteration's working set: its flags go.
    __device__ void finish(const u32* in, u32 count) {
        for (u64 i = gtid(); i < count; i += gstride()) upd[in[i]] = 0;
    }
};

#define SSSP_PERSIST(NAME, D)                                                                                   \
    extern "C" __global__ void __launch_bounds__(PERSIST_THREADS, 1)                                            \
        NAME(const i64* __restrict__ off, const u32* __restrict__ adj, const u32* __restrict__ wt, D* dist,     \
             u8* upd, u32* qa, u32* qb, Ctrl* ctrl, u32 par, u32 max_levels, u32 cap, u64 edge_cap, u32 local_e,   \
             Persist* ps) {                                                                                      \
        SSSPLevels<D, false> vis{wt, dist, upd, 0, 1, INF64, 0, INF64};                                                 \
        persist_levels(vis, off, adj, qa, qb, ctrl, par, max_levels, cap, edge_cap, local_e, ps,               \
                       PersistStart::of(ctrl, par));                                                      \
    }

SSSP_PERSIST(sssp_persist_qu_d64, u64)
SSSP_PERSIST(sssp_persist_qu_d32, u32)

#define SSSP_PERSIST_NF(NAME, D)                                                                                 \
    extern "C" __global__ void __launch_bounds__(PERSIST_THREADS, 1)                                            \
        NAME(const i64* __restrict__ off, const u32* __restrict__ adj, const u32* __restrict__ wt, D* dist,     \
             u8* upd, u32* qa, u32* qb, Ctrl* ctrl, u32 par, u32 n, u64 delta, u32 max_levels, u32 cap,          \
             u64 edge_cap, u32 local_e, Persist* ps) {                                                           \
        SSSPLevels<D, true> vis{wt, dist, upd, n, delta, INF64, 0, INF64};                                              \
        persist_levels(vis, off, adj, qa, qb, ctrl, par, max_levels, cap, edge_cap, local_e, ps,               \
                       PersistStart::of(ctrl, par));                                                      \
    }

SSSP_PERSIST_NF(sssp_persist_nf_d64, u64)
SSSP_PERSIST_NF(sssp_persist_nf_d32, u32)
