// sssp.cu: SSSP computation kernels and the findmin reduction.
//
// sssp_{i,f}_{t,b}_{bm,qu}
//     i/f   integer weights (uint64 distances) / float32 weights (float32
//           distances as bit patterns in uint32);
//     t/b   thread / block mapping; bm/qu bitmap / queue working set.
// Relaxation is the same for ordered and unordered SSSP; what differs is
// which updated vertices the generation kernel selects (see workset.cu:
// SEL_ALL unordered, SEL_MIN ordered, SEL_DELTA delta-stepping buckets).
// A nil weight array means unit weights.
//
// sssp_findmin_{u32,u64}: the minimum distance over updated vertices, folded
// into ctrl->minv (reset to INF64 by the preceding computation kernel).
#include "common.cuh"

struct IntDist {
    typedef u64 D;
    static __device__ __forceinline__ D add(D d, u32 w) { return d + w; }
    static __device__ __forceinline__ u32 unit() { return 1; }  // unit weight
};

struct FloatDist {
    typedef u32 D;
    static __device__ __forceinline__ D add(D d, u32 w) { return __float_as_uint(__uint_as_float(d) + __uint_as_float(w)); }
    static __device__ __forceinline__ u32 unit() { return 0x3F800000u; }  // unit weight 1.0f
};

template <typename K>
__device__ __forceinline__ void sssp_relax(typename K::D* dist, u8* upd, u32 u, typename K::D nd) {
    if (dist[u] <= nd) return;
    if (atomicMin(&dist[u], nd) > nd) upd[u] = 1;
}

template <typename K, bool BLOCK, bool BITMAP>
__device__ __forceinline__ void sssp_push(const i64* __restrict__ off, const u32* __restrict__ adj,
                                          const u32* __restrict__ wt, typename K::D* dist, u8* upd,
                                          const u32* __restrict__ ws, u32 n, Ctrl* ctrl, u32 par) {
    typedef typename K::D D;
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
            D dv = dist[v];
            i64 end = off[v + 1];
            for (i64 e = off[v]; e < end; e++) {
                sssp_relax<K>(dist, upd, adj[e], K::add(dv, wt ? wt[e] : K::unit()));
            }
        }
    } else {
        u64 count = BITMAP ? (((u64)n + 31) >> 5) : (u64)ctrl->count[par];
        for (u64 i = blockIdx.x; i < count; i += gridDim.x) {
            u32 bits = BITMAP ? ws[i] : 1u;
            while (bits) {
                u32 v;
                if (BITMAP) {
                    u32 b = __ffs(bits) - 1;
                    bits &= bits - 1;
                    v = (u32)(i * 32 + b);
                } else {
                    bits = 0;
                    v = ws[i];
                }
                D dv = dist[v];
                i64 end = off[v + 1];
                for (i64 e = off[v] + threadIdx.x; e < end; e += blockDim.x) {
                    sssp_relax<K>(dist, upd, adj[e], K::add(dv, wt ? wt[e] : K::unit()));
                }
            }
        }
    }
}

#define SSSP_PUSH(NAME, K, BLK, BM)                                                                           \
    extern "C" __global__ void __launch_bounds__(1024)                                                        \
        NAME(const i64* __restrict__ off, const u32* __restrict__ adj, const u32* __restrict__ wt,            \
             K::D* dist, u8* upd, const u32* __restrict__ ws, u32 n, Ctrl* ctrl, u32 par) {                      \
        sssp_push<K, BLK, BM>(off, adj, wt, dist, upd, ws, n, ctrl, par);                                     \
    }

SSSP_PUSH(sssp_i_t_bm, IntDist, false, true)
SSSP_PUSH(sssp_i_t_qu, IntDist, false, false)
SSSP_PUSH(sssp_i_b_bm, IntDist, true, true)
SSSP_PUSH(sssp_i_b_qu, IntDist, true, false)
SSSP_PUSH(sssp_f_t_bm, FloatDist, false, true)
SSSP_PUSH(sssp_f_t_qu, FloatDist, false, false)
SSSP_PUSH(sssp_f_b_bm, FloatDist, true, true)
SSSP_PUSH(sssp_f_b_qu, FloatDist, true, false)

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
