// Runs kernels/scc.cu on the CPU (shim.h: a std::thread per CUDA thread,
// blocks one after another) on a random directed multigraph and compares
// the labels with the SCCs of a transitive closure (u and v share an SCC
// iff each reaches the other; the label is the SCC's smallest vertex). The
// host loop mirrors algorithms/scc's cuda operator: trimming sweeps until
// one labels nothing, FW-BW rounds (pivots, level-by-level searches over g
// and its transpose, the split), colouring rounds (propagation sweeps, the
// backward search from the roots over their colours).
// Arguments: n m seed schedule. schedule is f (FW-BW only), c (colouring
// only) or m (one FW-BW round, then colouring). Built and run by
// TestSCCKernelOnCPU (scc_emu_test.go).
#include "shim.h"
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

template <class T>
inline T __ldcg(const T* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
template <class T>
inline void __stcg(T* p, T v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
// Compare-and-swap loops for the atomic minimum and maximum.
template <class T, class Better>
T atomic_pick(T* p, T v, Better better) {
    T cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (better(v, cur) && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return cur;
}
unsigned int atomicMin(unsigned int* p, unsigned int v) { return atomic_pick(p, v, [](auto a, auto b) { return a < b; }); }
unsigned long long atomicMax(unsigned long long* p, unsigned long long v) {
    return atomic_pick(p, v, [](auto a, auto b) { return a > b; });
}

#include "scc.cu"

thread_local dim3v threadIdx;
dim3v blockIdx, blockDim, gridDim;
std::barrier<>* g_bar;

static const int G = 3, B = 64;  // small grid: the grid-stride loops wrap

template <class F>
void launch(F f) {
    gridDim.x = G;
    blockDim.x = B;
    for (int b = 0; b < G; b++) {
        blockIdx.x = b;
        std::vector<std::thread> ts;
        for (int t = 0; t < B; t++) ts.emplace_back([=] { threadIdx.x = t; f(); });
        for (auto& t : ts) t.join();
    }
}

struct CSR {
    std::vector<i64> off;
    std::vector<u32> adj;
};

static CSR csr(u32 n, const std::vector<std::pair<u32, u32>>& arcs, bool reverse) {
    CSR c{std::vector<i64>(n + 1, 0), std::vector<u32>(arcs.size())};
    for (auto [u, v] : arcs) c.off[(reverse ? v : u) + 1]++;
    for (u32 v = 0; v < n; v++) c.off[v + 1] += c.off[v];
    std::vector<i64> fill(c.off.begin(), c.off.end() - 1);
    for (auto [u, v] : arcs) c.adj[fill[reverse ? v : u]++] = reverse ? u : v;
    return c;
}

int main(int argc, char** argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: scc_run n m seed schedule\n");
        return 2;
    }
    u32 n = atoi(argv[1]);
    int m = atoi(argv[2]);
    std::mt19937 rng(atoi(argv[3]));
    char sched = argv[4][0];
    std::vector<std::pair<u32, u32>> arcs;
    for (int i = 0; i < m; i++) {
        u32 u = rng() % n, v = rng() % n;
        if (i % 3 == 0) v = (u + 1 + rng() % 4) % n;  // short arcs: rings of a few vertices
        arcs.push_back({u, v});
    }
    CSR g = csr(n, arcs, false), t = csr(n, arcs, true);
    std::vector<u32> label(n, SCC_NONE), part(n, 0), fw(n), bw(n), low(4 * (size_t)n), col(n);
    std::vector<u64> pivot(n), cnt(3);
    auto zero = [&] { cnt.assign(3, 0); };
    auto trim = [&] {
        do {
            zero();
            launch([&] { scc_trim(g.off.data(), g.adj.data(), t.off.data(), t.adj.data(), n, label.data(), part.data(), cnt.data()); });
        } while (cnt[1] > 0);
    };
    // Level-by-level search over c from the vertices at level 1 of lv.
    auto search = [&](const CSR& c, const u32* key, u32* lv) {
        for (u32 level = 1;; level++) {
            zero();
            launch([&] { scc_reach(c.off.data(), c.adj.data(), n, label.data(), key, lv, level, cnt.data()); });
            if (cnt[0] == 0) break;
        }
    };
    auto fwbw = [&] {
        pivot.assign(n, 0);
        launch([&] { scc_pivot(g.off.data(), t.off.data(), n, label.data(), part.data(), pivot.data()); });
        launch([&] { scc_seed(n, label.data(), part.data(), pivot.data(), fw.data(), bw.data()); });
        search(g, part.data(), fw.data());
        search(t, part.data(), bw.data());
        low.assign(low.size(), SCC_NONE);
        launch([&] { scc_split_min(n, label.data(), part.data(), fw.data(), bw.data(), low.data()); });
        zero();
        launch([&] { scc_split_apply(n, label.data(), part.data(), fw.data(), bw.data(), low.data(), cnt.data()); });
    };
    auto colour = [&] {
        launch([&] { scc_colour_init(n, col.data()); });
        do {
            zero();
            launch([&] { scc_colour_prop(g.off.data(), g.adj.data(), n, label.data(), part.data(), col.data(), cnt.data()); });
        } while (cnt[0] > 0);
        launch([&] { scc_roots(n, label.data(), col.data(), bw.data()); });
        search(t, col.data(), bw.data());
        zero();
        launch([&] { scc_colour_apply(n, label.data(), part.data(), col.data(), bw.data(), cnt.data()); });
    };
    auto live = [&] {
        u32 k = 0;
        for (u32 x : label) k += x == SCC_NONE;
        return k;
    };
    int rounds = 0;
    for (trim(); live() > 0; trim(), rounds++) {
        if (sched == 'f' || sched == 'm' && rounds == 0) {
            fwbw();
        } else {
            colour();
        }
        if (rounds > (int)n) {
            fprintf(stderr, "no progress after %d rounds\n", rounds);
            return 1;
        }
    }
    // The reference: reach[u][v] by a BFS from every vertex.
    std::vector<std::vector<char>> reach(n, std::vector<char>(n, 0));
    for (u32 s = 0; s < n; s++) {
        std::vector<u32> q{s};
        reach[s][s] = 1;
        for (size_t h = 0; h < q.size(); h++)
            for (i64 e = g.off[q[h]]; e < g.off[q[h] + 1]; e++)
                if (!reach[s][g.adj[e]]) reach[s][g.adj[e]] = 1, q.push_back(g.adj[e]);
    }
    int bad = 0;
    u32 comps = 0;
    for (u32 v = 0; v < n; v++) {
        u32 want = v;
        for (u32 u = 0; u < v && want == v; u++)
            if (reach[u][v] && reach[v][u]) want = u;
        comps += want == v;
        if (label[v] != want && bad++ < 5) fprintf(stderr, "vertex %u: label %u, want %u\n", v, label[v], want);
    }
    if (bad) {
        fprintf(stderr, "%d of %u labels wrong\n", bad, n);
        return 1;
    }
    printf("n=%u m=%d schedule=%c: %u SCCs in %d rounds, all labels match\n", n, m, sched, comps, rounds);
    return 0;
}
