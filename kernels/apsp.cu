// apsp.cu: all-pairs shortest paths by blocked Floyd-Warshall on a dense
// matrix in device memory (package algorithms/apsp).
//
// The matrix is p x p distances, p = n padded to a multiple of the 64-vertex
// tile (padding vertices are isolated), row-major, pw 32-bit words a row. Two
// element widths, chosen by the host from the largest possible distance:
//   s32: one distance a word, "no path" = 0x3FFFFFFF;
//   s16: two distances a word (column 2w in the low half, 2w+1 in the high
//        half), "no path" = 0x3FFF; half the bytes and half the instructions.
// Either way a + b of two entries never overflows the signed lane, so one
// DPX add-min (__viaddmin_s32 / __viaddmin_s16x2: min(a + b, c), one
// instruction on Hopper) is a whole relaxation.
//
// apsp_init: the matrix, pre-filled with "no path" (cuMemsetD32), gets 0 on
//     its diagonal and the least weight of each arc (1 unweighted), one
//     thread per row, which it alone writes.
// apsp_fw_s32 / apsp_fw_s16: one launch per round r = 0..nb (nb tiles a
//     side), the three phases of blocked Floyd-Warshall fused:
//   - every tile outside row and column r-1 takes round r-1's phase 3,
//     C = min(C, A(i,r-1) x B(r-1,j)) (min-plus product);
//   - the tiles of row r and column r then take round r's phases 1 and 2:
//     each of those blocks recomputes the diagonal tile (r,r) itself (its
//     phase 3 of round r-1, then its closure, 64 dependent steps), so no
//     launch waits on a single-block phase 1; a row tile then takes
//     C = min(C, D x C), a column tile C = min(C, C x D): with D closed (and
//     a zero diagonal) one product is the whole phase 2.
//   Round r's tiles of row/column r read tiles (r,r-1), (r-1,r) and (r,r)
//   while their own blocks rewrite them in the same launch. That race is
//   benign: every entry only ever decreases and is always the length of a
//   real path, so reading the new value instead of the old one keeps both
//   invariants of the recurrence (an upper bound on the distance, at most
//   the round's value); 32-bit reads are atomic, so a half read of a packed
//   word is never torn. The blocks of row and column r come first in the
//   grid, so their longer work starts in the first wave.
// Each block owns one 64 x 64 tile, each thread a 4 x 4 block of distances
// (s32: 4 rows x 4 words, 256 threads; s16: 4 rows x 4 words = 8 columns,
// 128 threads) kept in registers; A (4 rows x 4 k, one 16-byte load a row,
// in s16 with each distance already duplicated into both halves) and B
// (4 k x 4 words) come from shared memory: 8 LDS.128 per 64 add-mins.
#include "common.cuh"

#define APSP_T 64   // tile side, in vertices
#define APSP_SA 68  // A tile row stride in words: 64 k + 4, so the two (s32) row groups of a warp hit distinct banks

// Per-width constants: L distances a word.
template <int L>
struct ApspW {
    static constexpr int W = APSP_T / L;  // words in a tile row
    static constexpr int SB = W + 4;      // B tile row stride in words (16-byte aligned)
    static constexpr int TX = 16 / L;     // threads across a tile row (4 words each)
    static constexpr int NT = 16 * TX;    // threads per block (16 row groups of 4 rows)
};

template <int L>
__device__ __forceinline__ u32 addmin(u32 a, u32 b, u32 c);
template <>
__device__ __forceinline__ u32 addmin<1>(u32 a, u32 b, u32 c) {
    return (u32)__viaddmin_s32((int)a, (int)b, (int)c);
}
template <>
__device__ __forceinline__ u32 addmin<2>(u32 a, u32 b, u32 c) {
    return __viaddmin_s16x2(a, b, c);
}

// The low or high half of w in both halves.
__device__ __forceinline__ u32 dup_lo(u32 w) { return __byte_perm(w, 0u, 0x1010); }
__device__ __forceinline__ u32 dup_hi(u32 w) { return __byte_perm(w, 0u, 0x3232); }

// First word of tile (I, J).
template <int L>
__device__ __forceinline__ u32* apsp_tile(u32* d, u32 pw, u32 I, u32 J) {
    return d + (u64)I * APSP_T * pw + (u64)J * ApspW<L>::W;
}

// Copies a tile as it is into s (row stride S words): 4 16-byte loads a
// thread. No __restrict__/__ldg: other blocks may be writing the tile.
template <int L, int S>
__device__ __forceinline__ void apsp_load_tile(u32* s, const u32* g, u32 pw) {
    constexpr int Q = ApspW<L>::W / 4;  // 16-byte pieces in a row
#pragma unroll
    for (int it = 0; it < 4; it++) {
        const int t = threadIdx.x + it * ApspW<L>::NT;
        const int row = t / Q, q = t % Q;
        const uint4 v = ((const uint4*)(g + (u64)row * pw))[q];
        *(uint4*)(s + row * S + 4 * q) = v;
    }
}

// Copies a tile into the A layout: row i, column k at s[i * APSP_SA + k],
// one word a distance (s16: duplicated into both halves).
template <int L>
__device__ __forceinline__ void apsp_load_a(u32* s, const u32* g, u32 pw) {
    if constexpr (L == 1) {
        apsp_load_tile<1, APSP_SA>(s, g, pw);
    } else {
#pragma unroll
        for (int it = 0; it < 4; it++) {
            const int t = threadIdx.x + it * ApspW<2>::NT;
            const int row = t / 8, q = t % 8;  // 8 pieces of 4 words (8 distances) a row
            const uint4 v = ((const uint4*)(g + (u64)row * pw))[q];
            u32* o = s + row * APSP_SA + 8 * q;
            *(uint4*)o = make_uint4(dup_lo(v.x), dup_hi(v.x), dup_lo(v.y), dup_hi(v.y));
            *(uint4*)(o + 4) = make_uint4(dup_lo(v.z), dup_hi(v.z), dup_lo(v.w), dup_hi(v.w));
        }
    }
}

// The thread's 4 x 4 words of a tile in global memory, to and from registers.
__device__ __forceinline__ void apsp_get(u32 (&c)[4][4], const u32* g, u32 pw, int ty, int tx) {
#pragma unroll
    for (int rr = 0; rr < 4; rr++) {
        const uint4 v = *(const uint4*)(g + (u64)(4 * ty + rr) * pw + 4 * tx);
        c[rr][0] = v.x;
        c[rr][1] = v.y;
        c[rr][2] = v.z;
        c[rr][3] = v.w;
    }
}

__device__ __forceinline__ void apsp_put(u32* g, const u32 (&c)[4][4], u32 pw, int ty, int tx) {
#pragma unroll
    for (int rr = 0; rr < 4; rr++)
        *(uint4*)(g + (u64)(4 * ty + rr) * pw + 4 * tx) = make_uint4(c[rr][0], c[rr][1], c[rr][2], c[rr][3]);
}

// The thread's words into a shared tile of row stride S (the B layout).
template <int S>
__device__ __forceinline__ void apsp_to_b(u32* s, const u32 (&c)[4][4], int ty, int tx) {
#pragma unroll
    for (int rr = 0; rr < 4; rr++)
        *(uint4*)(s + (4 * ty + rr) * S + 4 * tx) = make_uint4(c[rr][0], c[rr][1], c[rr][2], c[rr][3]);
}

// The thread's words into the A layout.
template <int L>
__device__ __forceinline__ void apsp_to_a(u32* s, const u32 (&c)[4][4], int ty, int tx) {
    if constexpr (L == 1) {
        apsp_to_b<APSP_SA>(s, c, ty, tx);
    } else {
#pragma unroll
        for (int rr = 0; rr < 4; rr++) {
            u32* o = s + (4 * ty + rr) * APSP_SA + 8 * tx;
            *(uint4*)o = make_uint4(dup_lo(c[rr][0]), dup_hi(c[rr][0]), dup_lo(c[rr][1]), dup_hi(c[rr][1]));
            *(uint4*)(o + 4) = make_uint4(dup_lo(c[rr][2]), dup_hi(c[rr][2]), dup_lo(c[rr][3]), dup_hi(c[rr][3]));
        }
    }
}

// c = min(c, A x B) over the tile's 64 k: A in the A layout, B in the B
// layout; neither changes during the call.
template <int L>
__device__ __forceinline__ void apsp_mp(u32 (&c)[4][4], const u32* As, const u32* Bs, int ty, int tx) {
    constexpr int SB = ApspW<L>::SB;
#pragma unroll
    for (int k = 0; k < APSP_T; k += 4) {
        u32 a[4][4];
#pragma unroll
        for (int rr = 0; rr < 4; rr++) {
            const uint4 v = *(const uint4*)(As + (4 * ty + rr) * APSP_SA + k);
            a[rr][0] = v.x;
            a[rr][1] = v.y;
            a[rr][2] = v.z;
            a[rr][3] = v.w;
        }
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const uint4 w = *(const uint4*)(Bs + (k + q) * SB + 4 * tx);
            const u32 b[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
            for (int rr = 0; rr < 4; rr++) {
#pragma unroll
                for (int cc = 0; cc < 4; cc++) c[rr][cc] = addmin<L>(a[rr][q], b[cc], c[rr][cc]);
            }
        }
    }
}

// Closes the tile c (Floyd-Warshall over its own 64 vertices): Bs holds c
// in the B layout on entry; the registers stay the master copy and every
// step stores them. Step k reads only row k and column k, which step k
// leaves unchanged (the diagonal is 0), so the stores of step k race only
// with reads of equal values, and one barrier a step orders the rest.
template <int L>
__device__ __forceinline__ void apsp_close(u32 (&c)[4][4], u32* Bs, int ty, int tx) {
    constexpr int SB = ApspW<L>::SB;
#pragma unroll 2
    for (int k = 0; k < APSP_T; k++) {
        __syncthreads();
        const uint4 w = *(const uint4*)(Bs + k * SB + 4 * tx);
        const u32 b[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
        for (int rr = 0; rr < 4; rr++) {
            u32 a;
            if constexpr (L == 1) {
                a = Bs[(4 * ty + rr) * SB + k];
            } else {
                const u32 x = Bs[(4 * ty + rr) * SB + (k >> 1)];
                a = (k & 1) ? dup_hi(x) : dup_lo(x);
            }
#pragma unroll
            for (int cc = 0; cc < 4; cc++) c[rr][cc] = addmin<L>(a, b[cc], c[rr][cc]);
        }
        apsp_to_b<SB>(Bs, c, ty, tx);
    }
    __syncthreads();
}

// Round r of the fused schedule (see the top of the file).
template <int L>
__device__ __forceinline__ void apsp_round(u32* d, u32 nb, u32 pw, u32 r, u32* As, u32* Bs) {
    constexpr int SB = ApspW<L>::SB, TX = ApspW<L>::TX;
    const u32 b = blockIdx.x;
    if (b >= nb * nb) return;
    u32 i, j;
    if (r < nb) {
        // Row and column r first: block 0 the diagonal, then row r, then column r.
        if (b == 0) {
            i = r;
            j = r;
        } else if (b < nb) {
            i = r;
            j = (r + b) % nb;
        } else if (b < 2 * nb - 1) {
            i = (r + b - nb + 1) % nb;
            j = r;
        } else {
            const u32 t = b - (2 * nb - 1);
            i = t / (nb - 1);
            j = t % (nb - 1);
            i += (i >= r) ? 1u : 0u;
            j += (j >= r) ? 1u : 0u;
        }
    } else {
        i = b / nb;
        j = b % nb;
    }
    const bool p3 = r > 0 && i != r - 1 && j != r - 1;  // round r-1's phase 3
    const bool p12 = r < nb && (i == r || j == r);      // round r's phases 1 and 2
    if (!p3 && !p12) return;                            // the whole block: no barrier is skipped
    const int ty = threadIdx.x / TX, tx = threadIdx.x % TX;

    u32 c[4][4];
    apsp_get(c, apsp_tile<L>(d, pw, i, j), pw, ty, tx);
    if (p3) {
        apsp_load_a<L>(As, apsp_tile<L>(d, pw, i, r - 1), pw);
        apsp_load_tile<L, SB>(Bs, apsp_tile<L>(d, pw, r - 1, j), pw);
        __syncthreads();
        apsp_mp<L>(c, As, Bs, ty, tx);
        __syncthreads();
    }
    if (p12) {
        const bool diag = i == r && j == r;
        u32 dg[4][4];
        if (diag) {
#pragma unroll
            for (int rr = 0; rr < 4; rr++)
#pragma unroll
                for (int cc = 0; cc < 4; cc++) dg[rr][cc] = c[rr][cc];
        } else {
            apsp_get(dg, apsp_tile<L>(d, pw, r, r), pw, ty, tx);
            if (r > 0) {
                apsp_load_a<L>(As, apsp_tile<L>(d, pw, r, r - 1), pw);
                apsp_load_tile<L, SB>(Bs, apsp_tile<L>(d, pw, r - 1, r), pw);
                __syncthreads();
                apsp_mp<L>(dg, As, Bs, ty, tx);
                __syncthreads();
            }
        }
        apsp_to_b<SB>(Bs, dg, ty, tx);
        apsp_close<L>(dg, Bs, ty, tx);  // barriers before and after
        if (diag) {
#pragma unroll
            for (int rr = 0; rr < 4; rr++)
#pragma unroll
                for (int cc = 0; cc < 4; cc++) c[rr][cc] = dg[rr][cc];
        } else if (i == r) {
            // Row tile: C = min(C, D x C).
            apsp_to_a<L>(As, dg, ty, tx);
            apsp_to_b<SB>(Bs, c, ty, tx);
            __syncthreads();
            apsp_mp<L>(c, As, Bs, ty, tx);
        } else {
            // Column tile: C = min(C, C x D), D still in Bs.
            apsp_to_a<L>(As, c, ty, tx);
            __syncthreads();
            apsp_mp<L>(c, As, Bs, ty, tx);
        }
    }
    apsp_put(apsp_tile<L>(d, pw, i, j), c, pw, ty, tx);
}

// One round of the fused schedule on a 32-bit matrix: nb x nb blocks of 256
// threads (2nb-1 suffice for r = 0), rounds r = 0..nb in order.
extern "C" __global__ void __launch_bounds__(256, 2) apsp_fw_s32(u32* d, u32 nb, u32 pw, u32 r) {
    __shared__ __align__(16) u32 As[APSP_T * APSP_SA];
    __shared__ __align__(16) u32 Bs[APSP_T * ApspW<1>::SB];
    apsp_round<1>(d, nb, pw, r, As, Bs);
}

// The same on a matrix of packed 16-bit distances: blocks of 128 threads.
extern "C" __global__ void __launch_bounds__(128, 4) apsp_fw_s16(u32* d, u32 nb, u32 pw, u32 r) {
    __shared__ __align__(16) u32 As[APSP_T * APSP_SA];
    __shared__ __align__(16) u32 Bs[APSP_T * ApspW<2>::SB];
    apsp_round<2>(d, nb, pw, r, As, Bs);
}

// Diagonal and arcs into a matrix pre-filled with "no path": thread per row
// u < p (p: padded size); rows of real vertices (u < n) take their out-arcs'
// least weights (w null: weight 1). packed: 16-bit distances (two a word).
// Weights are below the host-checked bound, so no lane overflows.
extern "C" __global__ void __launch_bounds__(256) apsp_init(u32* d, u32 pw, u32 p, const i64* off, const u32* adj,
                                                            const u32* w, u32 n, u32 packed) {
    for (u64 u = gtid(); u < p; u += gstride()) {
        u32* row = d + u * pw;
        if (packed) {
            u32* x = row + (u >> 1);
            *x &= (u & 1) ? 0x0000FFFFu : 0xFFFF0000u;
        } else {
            row[u] = 0;
        }
        if (u >= n) continue;
        for (i64 e = off[u]; e < off[u + 1]; e++) {
            const u32 v = adj[e];
            const u32 wt = w ? w[e] : 1u;
            if (packed) {
                const u32 sh = (v & 1u) * 16u;
                const u32 old = row[v >> 1];
                if (wt < ((old >> sh) & 0xFFFFu)) row[v >> 1] = (old & ~(0xFFFFu << sh)) | (wt << sh);
            } else if (wt < row[v]) {
                row[v] = wt;
            }
        }
    }
}
