// expand.cuh: the push expansion shared by the BFS and SSSP computation
// kernels: a working set (bitmap or queue) mapped to threads (one thread per
// element) or blocks (one block per element), with heavy elements split
// into pieces that expand_pieces spreads over the whole grid.
//
// Why pieces: with one thread or one block per vertex, a hub of 10^5-10^6
// out-edges serialises on one thread or block while the GPU idles. On the
// H100, kron:22 SSSP spent 2.5 ms on a level of 3,873 vertices and 5.8M
// edges, and 0.9 ms on a level of 2 vertices. A vertex with more out-edges
// than HEAVY_T (thread mapping) or HEAVY_B (block mapping) is not expanded
// by its thread or block: the thread or block appends one piece per
// PIECE edges to a piece list (ctrl->pieces counts them), and the
// expand_pieces launch that follows gives each piece to one warp. The host
// skips that launch when the working set's largest degree (ctrl->maxdeg,
// from the generation kernel) is at most the mapping's threshold.
//
// A visitor V supplies the per-algorithm step:
//   typedef ... S;                        what a vertex gives its edges
//   struct Item;                          one edge's candidate update
//   S source(u32 v);                      read once per vertex
//   Item item(S s, i64 e);                reads the edge's arrays only
//   bool improves(const Item&);           a plain read of the target
//   void commit(const Item&);             the (atomic) write and the update flag
// Edges are taken in batches of B per thread: all items first, then all
// reads, then the writes, so that B independent loads are in flight.
#pragma once
#include "common.cuh"

// Edges per piece: one warp, eight per lane.
#define PIECE 256
// Out-degree above which a vertex is split into pieces.
#define HEAVY_T 64
#define HEAVY_B 1024

template <class V, int B>
__device__ __forceinline__ void expand_edges(const V& vis, typename V::S s, i64 beg, i64 end, u32 lane, u32 width) {
    typedef typename V::Item Item;
    for (i64 base = beg + lane; base < end; base += (i64)width * B) {
        Item it[B];
        bool ok[B];
#pragma unroll
        for (int j = 0; j < B; j++) {
            i64 e = base + (i64)j * width;
            ok[j] = e < end;
            if (ok[j]) it[j] = vis.item(s, e);
        }
#pragma unroll
        for (int j = 0; j < B; j++)
            if (ok[j]) ok[j] = vis.improves(it[j]);
#pragma unroll
        for (int j = 0; j < B; j++)
            if (ok[j]) vis.commit(it[j]);
    }
}

// A piece: vertex in the high 32 bits, piece index in the low ones.
__device__ __forceinline__ u64 piece(u32 v, u32 k) { return ((u64)v << 32) | k; }
__device__ __forceinline__ u32 pieces_of(i64 deg) { return (u32)((deg + PIECE - 1) / PIECE); }

// Called by one thread.
__device__ __forceinline__ void add_pieces_thread(u32 v, i64 deg, u64* pieces, u32* npieces) {
    u32 np = pieces_of(deg);
    u32 base = atomicAdd(npieces, np);
    for (u32 k = 0; k < np; k++) pieces[base + k] = piece(v, k);
}

// Called by every thread of the block, with the same v.
__device__ __forceinline__ void add_pieces_block(u32 v, i64 deg, u64* pieces, u32* npieces) {
    __shared__ u32 s_base;
    u32 np = pieces_of(deg);
    if (threadIdx.x == 0) s_base = atomicAdd(npieces, np);
    __syncthreads();
    u32 base = s_base;
    for (u32 k = threadIdx.x; k < np; k += blockDim.x) pieces[base + k] = piece(v, k);
    __syncthreads();  // s_base is reused for the next heavy vertex
}

template <class V, bool BLOCK, bool BITMAP>
__device__ __forceinline__ void expand(const V& vis, const i64* __restrict__ off, const u32* __restrict__ ws, u32 n,
                                       Ctrl* ctrl, u32 par, u64* pieces) {
    reset_slots(ctrl, par);
    u32* np = &ctrl->pieces;
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
            i64 beg = off[v], end = off[v + 1];
            if (end - beg > HEAVY_T) {
                add_pieces_thread(v, end - beg, pieces, np);
                continue;
            }
            expand_edges<V, 4>(vis, vis.source(v), beg, end, 0, 1);
        }
    } else {
        // One block per element; over a bitmap, blocks take 32-vertex words
        // in turn and walk the word's set bits together (block-uniform
        // control flow, as add_pieces_block needs).
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
                i64 beg = off[v], end = off[v + 1];
                if (end - beg > HEAVY_B) {
                    add_pieces_block(v, end - beg, pieces, np);
                    continue;
                }
                expand_edges<V, 4>(vis, vis.source(v), beg, end, threadIdx.x, blockDim.x);
            }
        }
    }
}

// One warp per piece of the list the computation kernel just built.
template <class V>
__device__ __forceinline__ void expand_pieces(const V& vis, const i64* __restrict__ off, const u64* __restrict__ pieces,
                                              const Ctrl* ctrl) {
    const u64 np = ctrl->pieces;
    const u32 lane = lane_id();
    for (u64 i = gtid() >> 5; i < np; i += gstride() >> 5) {
        u64 p = pieces[i];
        u32 v = (u32)(p >> 32);
        i64 beg = off[v] + (i64)(u32)p * PIECE;
        i64 end = off[v + 1];
        if (end > beg + PIECE) end = beg + PIECE;
        expand_edges<V, PIECE / 32>(vis, vis.source(v), beg, end, lane, 32);
    }
}
