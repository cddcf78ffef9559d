// workset.cu: working-set generation and conversion.
//
// ws_gen_{bm,qa,qw}_{all | min_d64 | min_d32 | delta_d64 | delta_d32}
//     read the update vector (padded with zeros to a multiple of 16 bytes;
//     four flags per 32-bit load) and build the next working set, clearing
//     the update flag of every vertex they select:
//     bm  a bitmap (every word written, so no clearing pass is needed);
//     qa  a queue, one atomicAdd per element (Li & Becchi's generation);
//     qw  a queue, one atomicAdd per warp (warp-aggregated compaction);
//     dual  both: the bitmap into out and the queue into alt, one atomicAdd
//         per block and loop trip, the queue's entries written only below
//         cap and no more atomics once it is full (the count stays exact,
//         so the host knows whether the queue is whole). The adaptive
//         policy then changes representation without a conversion kernel:
//         a queue's bitmap costs n/8 bytes of stores, and a bitmap's queue
//         is capped to the sizes at which the policy goes back to a queue.
//         (A first version pushed per warp: on the H100 the ~30K
//         same-address atomics of a 2M-vertex bitmap cost more kernel time
//         on kron:22 and urand:22 BFS than the conversions it saved.)
//     all     select every updated vertex (BFS, unordered SSSP);
//     min     select updated vertices at the minimum distance ctrl->minv
//             (ordered SSSP; the rest stay in the update vector);
//     delta   select updated vertices below the end of the minimum's
//             delta-stepping bucket: dist <= floor(m/d)*d + d-1;
//     _d64/_d32  uint64 / uint32 distances.
//     Each adds the working set's size, summed out-degree and largest
//     out-degree to ctrl->count[par^1], ctrl->deg[par^1] and ctrl->maxdeg
//     (zeroed by the preceding computation kernel): the inspector's numbers
//     cost no extra pass. Thread 0 also moves ctrl->edges (a pull step's
//     count) to ctrl->edges_out and clears ctrl->pieces (expand.cuh).
//
// ws_bm_to_qu: bitmap -> queue (warp prefix sum, ascending ids within a
//     warp, one atomic per warp) counting into ctrl->count[par], which must
//     be zero on entry.
// ws_qu_to_bm: queue -> bitmap (atomicOr); the bitmap must be zero on entry.
#include "common.cuh"

#define OUT_BM 0
#define OUT_QA 1
#define OUT_QW 2
#define OUT_DUAL 3

template <int SEL, typename D>
__device__ __forceinline__ bool selected(const void* dist, u64 v, u64 m, u64 delta) {
    if (SEL == SEL_ALL) return true;
    u64 d = (u64)((const D*)dist)[v];
    if (SEL == SEL_MIN || d <= m) return d <= m;
    u64 lo = m - m % delta;
    u64 end = lo + (delta - 1);
    if (end < lo) end = INF64;  // saturate
    return d <= end;
}

// Warp-aggregated push of up to four vertices per lane (bits of nib are
// vertices v4+0..3): a warp prefix sum of the lanes' counts, one atomicAdd
// per warp, ascending ids within the warp. Must be called by all 32 lanes.
__device__ __forceinline__ void warp_push4(u32 nib, u64 v4, u32* queue, u32* count) {
    u32 pos = warp_reserve(__popc(nib), count);
    for (int k = 0; k < 4; k++)
        if ((nib >> k) & 1u) queue[pos++] = (u32)(v4 + k);
}

// Block-aggregated push of up to four vertices per thread for the dual
// generation: one atomicAdd per block, none once the queue holds cap
// entries (then the vertices are only counted, in skipped, for the caller
// to add after its loop: a block skips only when the count already reached
// cap, so the total then exceeds cap and the host discards the queue).
// Must be called by every thread of the block the same number of times.
__device__ __forceinline__ void block_push4(u32 nib, u64 v4, u32* queue, u32* count, u32 cap, u32& skipped) {
    __shared__ u32 s_warp[32];
    __shared__ u32 s_base;
    u32 c = __popc(nib);
    u32 incl = warp_scan(c);
    const u32 wid = threadIdx.x >> 5;
    if (lane_id() == 31) s_warp[wid] = incl;
    __syncthreads();
    if (threadIdx.x == 0) {
        u32 sum = warp_offsets(s_warp);
        u32 base = INF32;
        if (sum && *(volatile u32*)count < cap) base = atomicAdd(count, sum);
        s_base = base;
    }
    __syncthreads();
    const u32 base = s_base;
    if (c) {
        if (base == INF32) {
            skipped += c;
        } else {
            u32 pos = base + s_warp[wid] + incl - c;
            for (int k = 0; k < 4; k++)
                if ((nib >> k) & 1u) {
                    if (pos < cap) queue[pos] = (u32)(v4 + k);
                    pos++;
                }
        }
    }
    __syncthreads();  // s_warp and s_base are rewritten by the next call
}

// Each thread takes four update flags with one 32-bit load (the update
// vector is padded with zeros to a multiple of 16 bytes), so a warp covers
// 128 vertices: four bitmap words, built by OR-ing the lanes' nibbles over
// groups of eight lanes.
template <int SEL, typename D, int OUT>
__device__ __forceinline__ void ws_gen(u8* upd, u32 n, const void* dist, const i64* __restrict__ off, u64 delta, u32* out,
                                       Ctrl* ctrl, u32 par, u32* alt, u32 cap) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        ctrl->edges_out = ctrl->edges;
        ctrl->edges = 0;
        ctrl->pieces = 0;
    }
    u64 m = (SEL == SEL_ALL) ? 0 : ctrl->minv;
    u32* count = &ctrl->count[par ^ 1];
    u32* upd4 = (u32*)upd;
    const u64 nq = ((u64)n + 3) >> 2;
    const u64 nwords = ((u64)n + 31) >> 5;
    u32 mine = 0, maxdeg = 0;
    u64 deg = 0;
    // Warp-uniform trip count: every lane takes part in the warp votes
    // (block-uniform for the dual generation's block-wide push).
    const u64 trips = OUT == OUT_DUAL ? (nq + blockDim.x - 1) / blockDim.x * blockDim.x : warp_round(nq);
    for (u64 q = gtid(); q < trips; q += gstride()) {
        u32 w = q < nq ? upd4[q] : 0u;
        u32 nib = 0;
        if (w) {
            u32 keep = w;
#pragma unroll
            for (int k = 0; k < 4; k++) {
                u64 v = q * 4 + k;
                if (((w >> (8 * k)) & 0xFFu) && v < n && selected<SEL, D>(dist, v, m, delta)) {
                    nib |= 1u << k;
                    keep &= ~(0xFFu << (8 * k));
                    u64 dv = (u64)(off[v + 1] - off[v]);
                    deg += dv;
                    u32 d32 = dv > INF32 ? INF32 : (u32)dv;
                    maxdeg = d32 > maxdeg ? d32 : maxdeg;
                }
            }
            if (nib) upd4[q] = keep;
        }
        if (OUT == OUT_BM || OUT == OUT_DUAL) {
            u32 word = nib << (4 * (lane_id() & 7));
            word |= __shfl_xor_sync(FULL_MASK, word, 1);
            word |= __shfl_xor_sync(FULL_MASK, word, 2);
            word |= __shfl_xor_sync(FULL_MASK, word, 4);
            if ((lane_id() & 7) == 0 && (q >> 3) < nwords) {
                out[q >> 3] = word;
                if (OUT == OUT_BM) mine += __popc(word);
            }
        }
        if (OUT == OUT_QA) {
            for (int k = 0; k < 4; k++)
                if ((nib >> k) & 1u) out[atomicAdd(count, 1u)] = (u32)(q * 4 + k);
        } else if (OUT == OUT_QW) {
            warp_push4(nib, q * 4, out, count);
        } else if (OUT == OUT_DUAL) {
            block_push4(nib, q * 4, alt, count, cap, mine);  // counts the size
        }
    }
    if (OUT == OUT_BM || OUT == OUT_DUAL) block_count(mine, count);  // dual: the skipped
    block_sum64(deg, &ctrl->deg[par ^ 1]);
    block_max(maxdeg, &ctrl->maxdeg);
}

#define WS_GEN(NAME, SEL, D, OUT)                                                                           \
    extern "C" __global__ void __launch_bounds__(1024) NAME(u8* upd, u32 n, const void* dist,                 \
                                                            const i64* __restrict__ off, u64 delta, u32* out, \
                                                            Ctrl* ctrl, u32 par) {                            \
        ws_gen<SEL, D, OUT>(upd, n, dist, off, delta, out, ctrl, par, nullptr, 0);                          \
    }

// The dual generation: out gets the bitmap, alt the queue (see above).
#define WS_GEN_DUAL(NAME, SEL, D)                                                                                \
    extern "C" __global__ void __launch_bounds__(1024)                                                           \
        NAME(u8* upd, u32 n, const void* dist, const i64* __restrict__ off, u64 delta, u32* out, Ctrl* ctrl,     \
             u32 par, u32* alt, u32 cap) {                                                                       \
        ws_gen<SEL, D, OUT_DUAL>(upd, n, dist, off, delta, out, ctrl, par, alt, cap);                           \
    }

WS_GEN(ws_gen_bm_all, SEL_ALL, u64, OUT_BM)
WS_GEN(ws_gen_qa_all, SEL_ALL, u64, OUT_QA)
WS_GEN(ws_gen_qw_all, SEL_ALL, u64, OUT_QW)
WS_GEN(ws_gen_bm_min_d64, SEL_MIN, u64, OUT_BM)
WS_GEN(ws_gen_bm_min_d32, SEL_MIN, u32, OUT_BM)
WS_GEN(ws_gen_qa_min_d64, SEL_MIN, u64, OUT_QA)
WS_GEN(ws_gen_qa_min_d32, SEL_MIN, u32, OUT_QA)
WS_GEN(ws_gen_qw_min_d64, SEL_MIN, u64, OUT_QW)
WS_GEN(ws_gen_qw_min_d32, SEL_MIN, u32, OUT_QW)
WS_GEN(ws_gen_bm_delta_d64, SEL_DELTA, u64, OUT_BM)
WS_GEN(ws_gen_bm_delta_d32, SEL_DELTA, u32, OUT_BM)
WS_GEN(ws_gen_qa_delta_d64, SEL_DELTA, u64, OUT_QA)
WS_GEN(ws_gen_qa_delta_d32, SEL_DELTA, u32, OUT_QA)
WS_GEN(ws_gen_qw_delta_d64, SEL_DELTA, u64, OUT_QW)
WS_GEN(ws_gen_qw_delta_d32, SEL_DELTA, u32, OUT_QW)
WS_GEN_DUAL(ws_gen_dual_all, SEL_ALL, u64)
WS_GEN_DUAL(ws_gen_dual_min_d64, SEL_MIN, u64)
WS_GEN_DUAL(ws_gen_dual_min_d32, SEL_MIN, u32)
WS_GEN_DUAL(ws_gen_dual_delta_d64, SEL_DELTA, u64)
WS_GEN_DUAL(ws_gen_dual_delta_d32, SEL_DELTA, u32)

extern "C" __global__ void __launch_bounds__(1024)
    ws_bm_to_qu(const u32* __restrict__ bm, u32 nwords, u32* queue, Ctrl* ctrl, u32 par) {
    u32* count = &ctrl->count[par];
    for (u64 w = gtid(); w < warp_round(nwords); w += gstride()) {
        u32 bits = w < nwords ? bm[w] : 0u;
        u32 pos = warp_reserve(__popc(bits), count);
        while (bits) {
            u32 b = __ffs(bits) - 1;
            bits &= bits - 1;
            queue[pos++] = (u32)(w * 32 + b);
        }
    }
}

extern "C" __global__ void __launch_bounds__(1024)
    ws_qu_to_bm(const u32* __restrict__ queue, const Ctrl* ctrl, u32 par, u32* bm) {
    u64 c = ctrl->count[par];
    for (u64 i = gtid(); i < c; i += gstride()) {
        u32 v = queue[i];
        atomicOr(&bm[v >> 5], 1u << (v & 31));
    }
}
