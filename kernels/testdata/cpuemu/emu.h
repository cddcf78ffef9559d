// What a CPU-emulation runner needs besides shim.h, shared by the runners
// that use warp votes and atomics (msf_run.cpp, apsp_run.cpp, mf_run.cpp,
// paths_run.cpp): the
// device functions below, the warps' meeting places, and launch. The 32
// lanes of a warp exchange values at a barrier of their own. With
// CPUEMU_GRID defined (before shim.h) launch starts a grid's blocks at
// once, each thread knowing its block, and they take turns between grid
// barriers (common.cuh's barrier_wait); without it blocks run one after
// another.
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
inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long cmp, unsigned long long v) {
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return cmp;
}
inline unsigned atomicOr(unsigned* p, unsigned v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
inline unsigned atomicAnd(unsigned* p, unsigned v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
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
int __ffs(unsigned int x) { return __builtin_ffs(x); }
int __popc(unsigned int x) { return __builtin_popcount(x); }

thread_local dim3v threadIdx;
dim3v blockDim, gridDim;
#ifdef CPUEMU_GRID
#include <condition_variable>
#include <mutex>
thread_local dim3v blockIdx;
thread_local std::barrier<>* g_bar;
// Blocks take turns: one block runs at a time, from one grid barrier to
// the next (or to its end), then hands the turn to the next block; the
// last one to arrive opens the next phase. So __shared__ variables (static
// here, shared by every block) serve one block at a time, as long as a
// block's use of one does not span a grid barrier.
static std::mutex g_turn_m;
static std::condition_variable g_turn_cv;
static unsigned g_turn, g_phase;
static void pass_turn() {  // the running block's turn ends
    std::lock_guard<std::mutex> l(g_turn_m);
    if (++g_turn == gridDim.x) g_turn = 0, g_phase++;
    g_turn_cv.notify_all();
}
static void wait_turn(unsigned phase) {
    std::unique_lock<std::mutex> l(g_turn_m);
    g_turn_cv.wait(l, [&] { return g_phase == phase && g_turn == blockIdx.x; });
}
unsigned long long barrier_wait(unsigned long long* word, unsigned hi) {
    __atomic_fetch_add(word, (unsigned long long)hi << 32, __ATOMIC_SEQ_CST);
    unsigned phase;
    {
        std::lock_guard<std::mutex> l(g_turn_m);
        phase = g_phase + 1;
    }
    pass_turn();
    wait_turn(phase);
    return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}
#else
dim3v blockIdx;
std::barrier<>* g_bar;
#endif

// One meeting place per warp of the launch.
static std::vector<std::barrier<>*> g_wbar;
static std::vector<unsigned long long> g_slot;  // 32 per warp

static size_t emu_warp() { return ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; }

static unsigned long long exch(unsigned long long v, int src, bool down) {
    size_t w = emu_warp();
    int lane = threadIdx.x % 32;
    g_slot[w * 32 + lane] = v;
    g_wbar[w]->arrive_and_wait();
    unsigned long long r = down ? (src < 32 ? g_slot[w * 32 + src] : v) : g_slot[w * 32 + src];
    g_wbar[w]->arrive_and_wait();
    return r;
}
unsigned int __ballot_sync(unsigned int, bool pred) {
    size_t w = emu_warp();
    g_slot[w * 32 + threadIdx.x % 32] = pred;
    g_wbar[w]->arrive_and_wait();
    unsigned m = 0;
    for (int i = 0; i < 32; i++) m |= (unsigned)(g_slot[w * 32 + i] != 0) << i;
    g_wbar[w]->arrive_and_wait();
    return m;
}
unsigned int __shfl_sync(unsigned int, unsigned int v, int src) { return (unsigned)exch(v, src, false); }
unsigned long long __shfl_sync(unsigned int, unsigned long long v, int src) { return exch(v, src, false); }
unsigned int __shfl_down_sync(unsigned int, unsigned int v, int d) { return (unsigned)exch(v, threadIdx.x % 32 + d, true); }
unsigned long long __shfl_down_sync(unsigned int, unsigned long long v, int d) { return exch(v, threadIdx.x % 32 + d, true); }
// Lane lane-d's v, or this lane's own below d.
unsigned int __shfl_up_sync(unsigned int, unsigned int v, int d) {
    int lane = threadIdx.x % 32;
    return (unsigned)exch(v, lane >= d ? lane - d : lane, false);
}
unsigned long long __shfl_up_sync(unsigned int, unsigned long long v, int d) {
    int lane = threadIdx.x % 32;
    return exch(v, lane >= d ? lane - d : lane, false);
}

// Runs f as a grid of grid blocks of block threads (a multiple of 32).
template <class F>
void launch(int grid, int block, F f) {
    gridDim.x = grid;
    blockDim.x = block;
    const int warps = grid * block / 32;
    g_wbar.assign(warps, nullptr);
    for (auto& b : g_wbar) b = new std::barrier<>(32);
    g_slot.assign((size_t)warps * 32, 0);
#ifdef CPUEMU_GRID
    g_turn = g_phase = 0;
    std::vector<std::barrier<>*> bars;
    for (int b = 0; b < grid; b++) bars.push_back(new std::barrier<>(block));
    std::vector<std::thread> ts;
    for (int b = 0; b < grid; b++)
        for (int t = 0; t < block; t++)
            ts.emplace_back([=] {
                blockIdx.x = b;
                g_bar = bars[b];
                threadIdx.x = t;
                wait_turn(0);
                f();
                g_bar->arrive_and_wait();  // the whole block is done
                if (t == 0) pass_turn();
            });
    for (auto& t : ts) t.join();
    for (auto* b : bars) delete b;
#else
    for (int b = 0; b < grid; b++) {
        blockIdx.x = b;
        std::barrier<> bar(block);
        g_bar = &bar;
        std::vector<std::thread> ts;
        for (int t = 0; t < block; t++) ts.emplace_back([=] { threadIdx.x = t; f(); });
        for (auto& t : ts) t.join();
    }
#endif
    for (auto* b : g_wbar) delete b;
}
