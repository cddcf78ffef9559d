// common.cuh: types, constants and warp helpers shared by every gearbox
// kernel family. Conventions (the Go side relies on them):
//   - vertex ids and weights are uint32; CSR offsets are int64 (edges may
//     exceed 2^32);
//   - BFS levels are uint32, unreached = INF32;
//   - integer SSSP distances are uint64 (a path of at most n-1 < 2^32 edges
//     of weight < 2^32 cannot overflow), unreached = INF64;
//   - real (float32) SSSP distances are float32 bit patterns in uint32
//     (non-negative floats order like their bits), unreached = INF32;
//   - the update vector is one byte per vertex (1 = updated this iteration);
//   - a bitmap working set is ceil(n/32) uint32 words, bit v%32 of word v/32;
//   - a queue working set is a uint32 array with its length in a device
//     counter; a vertex appears at most once;
//   - every kernel uses grid-stride loops, so any grid size is correct and
//     the host sizes grids only for speed.
#pragma once

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long i64;

#define INF32 0xFFFFFFFFu
#define INF64 0xFFFFFFFFFFFFFFFFull
#define FULL_MASK 0xFFFFFFFFu

// Working-set selection modes of the generation kernels.
#define SEL_ALL 0    // every updated vertex (unordered, BFS)
#define SEL_MIN 1    // updated vertices at the minimum distance (ordered)
#define SEL_DELTA 2  // updated vertices in the minimum's delta bucket

// Bins of sssp_bucket's degree histogram (kernels.BucketBins).
#define BUCKET_BINS 64

__device__ __forceinline__ u32 lane_id() { return threadIdx.x & 31u; }

// Bits of the lanes below this one.
__device__ __forceinline__ u32 lanemask_lt() { return (1u << lane_id()) - 1u; }

// Global thread index and stride as 64-bit values: n may be close to 2^32.
__device__ __forceinline__ u64 gtid() { return (u64)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ u64 gstride() { return (u64)gridDim.x * blockDim.x; }

// Rounds x up to a multiple of 32 so that every lane of a warp runs the same
// number of loop trips (needed by the full-mask warp votes below).
__device__ __forceinline__ u64 warp_round(u64 x) { return (x + 31u) & ~(u64)31u; }

// Warp-aggregated queue push: one atomic per warp instead of one per
// element. Positions at or past cap are counted but not written (the host
// checks the count against the capacity). Must be called by all 32 lanes
// of the warp.
template <typename T, typename C>
__device__ __forceinline__ void warp_push_cap(bool pred, T x, T* queue, C* count, C cap) {
    u32 m = __ballot_sync(FULL_MASK, pred);
    if (m == 0) return;
    u32 leader = __ffs(m) - 1;
    C base = 0;
    if (lane_id() == leader) base = atomicAdd(count, (C)__popc(m));
    base = __shfl_sync(FULL_MASK, base, leader);
    C pos = base + __popc(m & lanemask_lt());
    if (pred && pos < cap) queue[pos] = x;
}

// warp_push_cap into a queue that cannot overflow.
__device__ __forceinline__ void warp_push(bool pred, u32 v, u32* queue, u32* count) { warp_push_cap(pred, v, queue, count, INF32); }

// Adds a per-thread count to a global counter with one atomic per block.
// Must be called by every thread of the block.
__device__ __forceinline__ void block_count(u32 mine, u32* count) {
    __shared__ u32 s_sum;
    if (threadIdx.x == 0) s_sum = 0;
    __syncthreads();
    for (int o = 16; o > 0; o >>= 1) mine += __shfl_down_sync(FULL_MASK, mine, o);
    if (lane_id() == 0 && mine) atomicAdd(&s_sum, mine);
    __syncthreads();
    if (threadIdx.x == 0 && s_sum) atomicAdd(count, s_sum);
}

// Block-wide minimum folded into a global 64-bit slot with one atomic per
// block. Must be called by every thread of the block.
__device__ __forceinline__ void block_min(u64 mine, u64* slot) {
    __shared__ u64 s_min;
    if (threadIdx.x == 0) s_min = INF64;
    __syncthreads();
    for (int o = 16; o > 0; o >>= 1) {
        u64 other = __shfl_down_sync(FULL_MASK, mine, o);
        mine = other < mine ? other : mine;
    }
    if (lane_id() == 0 && mine != INF64) atomicMin(&s_min, mine);
    __syncthreads();
    if (threadIdx.x == 0 && s_min != INF64) atomicMin(slot, s_min);
}

// Ctrl is the per-run control block in device memory (72 bytes; the Go
// side mirrors its layout). Iterations alternate between two slots: an
// iteration of parity p reads its working set's size from count[p] and
// writes the next working set's size and degree into count[p^1] and
// deg[p^1]. The host reads the whole block back once per iteration.
struct Ctrl {
    u32 count[2];     // working-set sizes (ping-pong)
    u32 fused_levels; // persistent launches: levels run
    u32 fused_swap;   // persistent launches: 1 when the frontier ended in the scratch queue
    u64 deg[2];       // summed out-degree of the working set (ping-pong)
    u64 minv;         // findmin's result
    u64 edges;        // edges examined by a pull step (accumulating)
    u64 edges_out;    // edges moved here by the generation kernel
    u32 pieces;       // heavy-vertex pieces listed by a computation kernel (expand.cuh)
    u32 maxdeg;       // largest out-degree in the working set the generation kernel built
    u32 local_levels; // persistent launches: levels of those run by one block alone
    u32 pull_levels;  // bfs_pull_persist: levels it pulled (before the ones fused_levels also counts)
};
static_assert(sizeof(Ctrl) == 72, "Ctrl's layout is mirrored by the host (runtime.cudaCtrl, TestCtrlLayout)");

// Per-iteration bookkeeping done by thread 0 of block 0 of a computation
// kernel: it clears the slots the following findmin and generation kernels
// add into (ctrl->pieces is cleared by the generation kernel, after the
// pieces were expanded), so no memset launch is needed between kernels (stream order
// makes it safe: they start after this kernel ends).
__device__ __forceinline__ void reset_slots(Ctrl* ctrl, u32 par) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        ctrl->count[par ^ 1] = 0;
        ctrl->deg[par ^ 1] = 0;
        ctrl->minv = INF64;
        ctrl->maxdeg = 0;
    }
}

// 64-bit block sum folded into a global slot with one atomic per block.
// Must be called by every thread of the block.
__device__ __forceinline__ void block_sum64(u64 mine, u64* slot) {
    __shared__ u64 s_sum64;
    if (threadIdx.x == 0) s_sum64 = 0;
    __syncthreads();
    for (int o = 16; o > 0; o >>= 1) mine += __shfl_down_sync(FULL_MASK, mine, o);
    if (lane_id() == 0 && mine) atomicAdd(&s_sum64, mine);
    __syncthreads();
    if (threadIdx.x == 0 && s_sum64) atomicAdd(slot, s_sum64);
}

__device__ __forceinline__ bool bit_test(const u32* bm, u64 v) { return (bm[v >> 5] >> (v & 31)) & 1u; }

// Persist is the state of a persistent multi-level launch (bfs_persist_qu,
// sssp_persist_{qu,nf}): a grid barrier and rotating per-level counters. The
// host zeroes it before each launch (PERSIST_BYTES; the Go side mirrors it).
// Level k reads its frontier's size from count[k%3], counts the next one
// into count[(k+1)%3] and clears count[(k+2)%3] for level k+1: that slot
// was last read during level k-1, which every block has left.
#define PERSIST_BYTES 1160
// Hubs a level of a persistent launch lists for the whole grid (persist_hubs).
#define PERSIST_HUBS 256
struct Persist {
    u64 bar;        // grid_sync's arrivals (bit 31 flips once per barrier)
    u32 count[3];   // frontier sizes
    u32 maxdeg[3];  // largest out-degree in the frontier
    u32 pad;
    u64 deg[3];     // summed out-degree of the frontier
    u64 nmin[2];    // bucketed SSSP: ~(smallest pending distance), two alternating slots (0: none)
    // Small-frontier phases run by block 0 alone (persist_local): the
    // phases it finished, and the state it leaves.
    u32 lgen;
    u32 lcount;
    u32 lmax;
    u32 ldone;
    u64 ldeg;
    u64 ledges;
    // grid_sync_count's two alternating words: arrivals in the low 32 bits
    // (as bar), the levels' pushes summed in the high 32.
    u64 barc[2];
    // A level's hubs (persist_hubs): how many the blocks listed, in two
    // alternating slots, and the list.
    u32 nhub[2];
    u32 hub[PERSIST_HUBS];
};
static_assert(sizeof(Persist) == PERSIST_BYTES, "Persist's size is mirrored by the host");

// Grid-wide barrier for a persistent launch. Every block must be resident
// at once: the host launches one block per multiprocessor, with resources
// that always fit one, or as many as the kernel's registers and shared
// memory let fit (runtime.residentBlocks). Called by every thread of every
// block.
// Writes before it are visible to every thread after it: thread 0's
// arrival is a release at GPU scope (it covers the block's writes, which
// __syncthreads ordered before it) and its wait an acquire.
//
// One atomic per block and one word (barrier_wait): block 0 adds
// 2^31 - (blocks - 1), the others 1, so the word's low 31 bits, 0 between
// barriers, carry into bit 31 exactly when the last block arrives,
// whichever it is; a block waits for bit 31 to differ from what its own
// add found. The host zeroes the word with the rest of Persist. An earlier
// barrier (a counter reset by the last arrival, then a generation bump)
// put three more round trips to L2 on every level's path: read the
// generation, the reset's fence and the bump (kernels/NOTES.md v10).
//
// barrier_wait is thread 0's part, on a 64-bit word whose high 32 bits
// also sum the blocks' hi (grid_sync_count; grid_sync adds 0 there, and
// the low half's wrap every other barrier carries into them unread). It
// returns the word as the wait ended.
#ifdef CPUEMU_GRID
// The CPU emulation's (testdata/cpuemu/grid.h), where blocks run at once.
u64 barrier_wait(u64* word, u32 hi);
#else
__device__ __forceinline__ u64 barrier_wait(u64* word, u32 hi) {
    const u64 add = (u64)hi << 32 | (blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1) : 1u);
    u64 old, now;
    asm volatile("atom.release.gpu.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(word), "l"(add) : "memory");
    do {
        asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(now) : "l"(word) : "memory");
    } while (((old ^ now) & 0x80000000ull) == 0);
    return now;
}
#endif

__device__ __forceinline__ void grid_sync(Persist* ps) {
    __syncthreads();
    if (threadIdx.x == 0) barrier_wait(&ps->bar, 0);
    __syncthreads();
}

// grid_sync that also sums mine over the blocks and returns the sum to
// every thread: a level's pushes ride on the arrival, so the next
// frontier's size needs no read of its own after the barrier (a round trip
// to L2 on every grid-wide level; kernels/NOTES.md v10). It alternates
// between two words per call; barrier_wait's high halves sum the pushes.
// A block's wait ends on the episode's final value: nobody adds to that
// word again before every block has arrived at the other one, after its
// read. When bit 31 was set before the episode, the low half wraps and
// carries one into the high half, which the difference takes off.
// BarCount is thread 0's record of its calls and of each word's last
// final value (0 at the launch's start, as the host zeroes Persist).
// Called by every thread of every block, the same number of times.
struct BarCount {
    u32 uses;
    u64 prev0, prev1;
};
__device__ __forceinline__ u32 grid_sync_count(Persist* ps, u32 mine, BarCount& bc) {
    __shared__ u32 s_total;
    const u32 w = bc.uses++ & 1u;
    __syncthreads();
    if (threadIdx.x == 0) {
        const u64 now = barrier_wait(&ps->barc[w], mine);
        const u64 p = w ? bc.prev1 : bc.prev0;
        s_total = (u32)(now >> 32) - (u32)(p >> 32) - (u32)((p >> 31) & 1u);
        if (w) bc.prev1 = now;
        else bc.prev0 = now;
    }
    __syncthreads();
    return s_total;
}

// Lanes per frontier vertex in persistent launches: a group of GROUP lanes
// strides over one vertex's edges.
#define PERSIST_GROUP 8
#define PERSIST_THREADS 512
// In persistent launches a group expands a vertex of up to
// PERSIST_GROUP_MAXDEG out-edges; larger ones, up to PERSIST_HEAVY per block
// and level, are expanded by the whole block, and those of more than
// PERSIST_MAXDEG, up to PERSIST_HUBS per level, by the whole grid (one
// block would take long over such a hub while the rest of the GPU waits).
#define PERSIST_GROUP_MAXDEG 64
#define PERSIST_HEAVY 512
#define PERSIST_MAXDEG 8192
// Block-local output queue before one global reservation per block.
#define PERSIST_SQ 2048
// A frontier of at most PERSIST_LOCAL_V vertices and local_e (a launch
// argument, at most PERSIST_SQ) out-edges is expanded by block 0 alone,
// its levels separated by __syncthreads instead of grid barriers
// (persist_local).
#define PERSIST_LOCAL_V 512
static_assert(PERSIST_LOCAL_V <= PERSIST_THREADS && PERSIST_LOCAL_V <= PERSIST_HEAVY, "one list entry per thread");

// Out-degree of u, loaded here rather than where it is used: a visit's
// found vertex needs it, and issued beside the visit's own loads it costs
// no round trip of its own; left to the compiler, the loads sank into the
// visit's branch, one more dependent trip to L2 on every level's path
// (kernels/NOTES.md v10). The wasted loads of vertices not found are cheap
// where it matters: persistent launches run the small levels.
__device__ __forceinline__ u32 degree_early(const i64* off, u32 u) {
    i64 b, e;
    asm volatile("ld.global.nc.s64 %0, [%2];\n\tld.global.nc.s64 %1, [%2+8];" : "=l"(b), "=l"(e) : "l"(off + u));
    return (u32)(e - b);
}

// Appends u to the level's output: a shared-memory queue, flushed by
// persist_flush with one global atomic per block (overflow goes straight
// to the global queue).
__device__ __forceinline__ void persist_push(u32 u, u32* s_q, u32* s_n, u32* out, u32* ncount) {
    u32 p = atomicAdd(s_n, 1u);
    if (p < PERSIST_SQ) s_q[p] = u;
    else out[atomicAdd(ncount, 1u)] = u;
}

// Called by every thread of the block after the level's pushes; returns
// the block's pushes (queued here or overflowed).
__device__ __forceinline__ u32 persist_flush(u32* s_q, u32* s_n, u32* s_base, u32* out, u32* ncount) {
    __syncthreads();
    const u32 pushed = *s_n;
    u32 nloc = pushed < PERSIST_SQ ? pushed : PERSIST_SQ;
    if (threadIdx.x == 0 && nloc) *s_base = atomicAdd(ncount, nloc);
    __syncthreads();
    for (u32 j = threadIdx.x; j < nloc; j += blockDim.x) out[*s_base + j] = s_q[j];
    __syncthreads();
    if (threadIdx.x == 0) *s_n = 0;
    return pushed;
}

// Inclusive prefix sum of x over the warp's lanes. Called by all 32 lanes.
__device__ __forceinline__ u32 warp_scan(u32 x) {
    for (int o = 1; o < 32; o <<= 1) {
        u32 t = __shfl_up_sync(FULL_MASK, x, o);
        if (lane_id() >= (u32)o) x += t;
    }
    return x;
}

// Reserves c slots per lane of *count with one atomicAdd per warp (none
// when the warp wants none) and returns the lane's first slot; slots follow
// lane order. Called by all 32 lanes.
__device__ __forceinline__ u32 warp_reserve(u32 c, u32* count) {
    u32 incl = warp_scan(c);
    u32 total = __shfl_sync(FULL_MASK, incl, 31);
    u32 base = 0;
    if (lane_id() == 31 && total) base = atomicAdd(count, total);
    return __shfl_sync(FULL_MASK, base, 31) + incl - c;
}

// Thread 0 only, once the block's warps have put their totals in
// s_warp[0..warps): turns them into their exclusive prefix and returns the
// block's total.
__device__ __forceinline__ u32 warp_offsets(u32* s_warp) {
    u32 sum = 0;
    for (u32 i = 0; i < (blockDim.x >> 5); i++) {
        u32 t = s_warp[i];
        s_warp[i] = sum;
        sum += t;
    }
    return sum;
}

// Exclusive prefix sum of mine over the block (at most 32 warps); the
// block's total goes to *total. Called by every thread of the block.
__device__ __forceinline__ u32 block_scan(u32 mine, u32* total) {
    __shared__ u32 s_warp[33];
    u32 incl = warp_scan(mine);
    const u32 wid = threadIdx.x >> 5;
    if (lane_id() == 31) s_warp[wid] = incl;
    __syncthreads();
    if (threadIdx.x == 0) s_warp[32] = warp_offsets(s_warp);
    __syncthreads();
    *total = s_warp[32];
    return s_warp[wid] + incl - mine;
}

// Block-wide maximum (u32 or u64) folded into a global slot with one
// atomic per block; a minimum is the maximum of complements, into a zeroed
// slot.
template <typename T>
__device__ __forceinline__ void block_max(T mine, T* slot) {
    __shared__ T s_max;
    if (threadIdx.x == 0) s_max = 0;
    __syncthreads();
    for (int o = 16; o > 0; o >>= 1) {
        T other = __shfl_down_sync(FULL_MASK, mine, o);
        mine = other > mine ? other : mine;
    }
    if (lane_id() == 0 && mine) atomicMax(&s_max, mine);
    __syncthreads();
    if (threadIdx.x == 0 && s_max) atomicMax(slot, s_max);
}
