// The definitions behind shim.h for one emulation binary (include it once,
// after shim.h and before the kernel): the launch (a std::thread per CUDA
// thread, blocks one after another), warp votes and shuffles that meet at
// a per-warp barrier (so every lane of a warp must make the same calls, as
// on the GPU with a full mask), and the atomics as sequentially consistent
// host atomics.
#pragma once
#include <thread>
#include <vector>

template <class T>
inline T __ldcg(const T* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
template <class T>
inline void __stcg(T* p, T v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
inline unsigned atomicCAS(unsigned* p, unsigned cmp, unsigned v) {
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return cmp;
}
inline unsigned atomicOr(unsigned* p, unsigned v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
inline unsigned atomicAnd(unsigned* p, unsigned v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

thread_local dim3v threadIdx;
dim3v blockIdx, blockDim, gridDim;
std::barrier<>* g_bar;
static std::barrier<>* g_wbar[32];
static unsigned long long g_slot[32][32];

// Lane src's v (this lane's own where src is outside the warp).
static unsigned long long exch(unsigned long long v, int src) {
    int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    g_slot[w][lane] = v;
    g_wbar[w]->arrive_and_wait();
    unsigned long long r = src >= 0 && src < 32 ? g_slot[w][src] : v;
    g_wbar[w]->arrive_and_wait();
    return r;
}
unsigned int __ballot_sync(unsigned int, bool pred) {
    int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    g_slot[w][lane] = pred;
    g_wbar[w]->arrive_and_wait();
    unsigned m = 0;
    for (int i = 0; i < 32; i++) m |= (unsigned)(g_slot[w][i] != 0) << i;
    g_wbar[w]->arrive_and_wait();
    return m;
}
unsigned int __shfl_sync(unsigned int, unsigned int v, int src) { return (unsigned)exch(v, src); }
unsigned long long __shfl_sync(unsigned int, unsigned long long v, int src) { return exch(v, src); }
unsigned int __shfl_down_sync(unsigned int, unsigned int v, int d) { return (unsigned)exch(v, threadIdx.x % 32 + d); }
unsigned long long __shfl_down_sync(unsigned int, unsigned long long v, int d) { return exch(v, threadIdx.x % 32 + d); }
unsigned int __shfl_up_sync(unsigned int, unsigned int v, int d) { return (unsigned)exch(v, (int)(threadIdx.x % 32) - d); }
unsigned long long __shfl_up_sync(unsigned int, unsigned long long v, int d) { return exch(v, (int)(threadIdx.x % 32) - d); }
int __ffs(unsigned int x) { return __builtin_ffs(x); }
int __popc(unsigned int x) { return __builtin_popcount(x); }
unsigned int atomicAdd(unsigned int* p, unsigned int v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
unsigned long long atomicMin(unsigned long long* p, unsigned long long v) {
    unsigned long long cur = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    while (v < cur && !__atomic_compare_exchange_n(p, &cur, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return cur;
}
unsigned int atomicMax(unsigned int* p, unsigned int v) {
    unsigned cur = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    while (v > cur && !__atomic_compare_exchange_n(p, &cur, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return cur;
}

// Runs f on grid x block threads: a block's threads at once, blocks in turn.
template <class F>
void launch(int grid, int block, F f) {
    gridDim.x = grid;
    blockDim.x = block;
    for (int b = 0; b < grid; b++) {
        blockIdx.x = b;
        std::barrier<> bar(block);
        g_bar = &bar;
        for (int w = 0; w < block / 32; w++) g_wbar[w] = new std::barrier<>(32);
        std::vector<std::thread> ts;
        for (int t = 0; t < block; t++) ts.emplace_back([=] { threadIdx.x = t; f(); });
        for (auto& t : ts) t.join();
        for (int w = 0; w < block / 32; w++) delete g_wbar[w];
    }
}
