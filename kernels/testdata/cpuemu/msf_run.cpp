// Runs kernels/msf.cu on the CPU (testdata/cpuemu/shim.h: a std::thread per
// CUDA thread, blocks one after another; the warp votes and shuffles of
// emu.h meet at a per-warp barrier) on a random multigraph and compares the
// forest with a serial Kruskal's ordered by (weight, arc id). The host loop
// mirrors algorithms/msf's cuda operator: per round one minimum pass and
// the hook, conversions between bitmap and queue, the light-edge phase.
// Arguments: n m maxweight directed(0|1) seed schedule thresh-weight.
// schedule is a string of t (bitmap, thread per vertex), e (bitmap, warp per
// word) and q (queue), one per round, cycled; thresh-weight 0 means no
// filter. Built and run by TestMSFKernelOnCPU (msf_emu_test.go).
#include "shim.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "emu.h"
#define MSF_LIST_BLOCK 32  // several tiles on small graphs, more than a
#define MSF_LIST_WORDS 2   // block's threads on the largest
#include "msf.cu"

static const int G = 3, B = 64;  // small grid: the grid-stride loops wrap

int main(int argc, char** argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: msf_run n m maxweight directed seed schedule thresh-weight\n");
        return 2;
    }
    u32 n = atoi(argv[1]);
    int m = atoi(argv[2]), maxw = atoi(argv[3]), directed = atoi(argv[4]);
    std::mt19937 rng(atoi(argv[5]));
    std::string sched = argv[6];
    u32 tw = atoi(argv[7]);
    std::vector<std::vector<std::pair<u32, u32>>> lists(n);
    for (int i = 0; i < m; i++) {
        u32 u = rng() % n, v = rng() % n, w = 1 + rng() % maxw;
        if (i % 17 == 0) v = u;  // self-loops
        lists[u].push_back({v, w});
        if (!directed && u != v) lists[v].push_back({u, w});
    }
    std::vector<i64> off(n + 1);
    std::vector<u32> adj, wt, src;
    for (u32 u = 0; u < n; u++) {
        off[u] = adj.size();
        for (auto [v, w] : lists[u]) adj.push_back(v), wt.push_back(w), src.push_back(u);
    }
    off[n] = adj.size();
    u64 M = adj.size();
    u32 words = (u32)((M + 31) / 32) + 1;
    std::vector<u32> p(n), hidden(words, 0), chosen(words, 0);
    std::iota(p.begin(), p.end(), 0u);
    std::vector<u64> best(n, INF64), q[2] = {std::vector<u64>(M + 1), std::vector<u64>(M + 1)}, cnt(8);
    u64 thresh = tw ? (u64)tw << 32 : INF64;
    u32 rep = 0;  // 0 bitmap, 1 queue
    int cur = 0;
    u64 qlen = 0, active = M;
    auto build = [&] {
        std::fill(cnt.begin(), cnt.end(), 0);
        launch(G, B, [&] {
            msf_build_qu(src.data(), adj.data(), wt.data(), M, p.data(), hidden.data(), q[0].data(), M + 1, thresh, cnt.data(), directed);
        });
        cur = 0, qlen = active = cnt[1], rep = 1;
    };
    int rounds = 0;
    for (bool done = M == 0; !done; rounds++) {
        if (rounds > 200) {
            printf("no convergence\n");
            return 1;
        }
        char c = sched[rounds % sched.size()];
        u32 want = c == 'q';
        if (want != rep) {
            if (want) build();
            else {
                std::fill(hidden.begin(), hidden.end(), 0xFFFFFFFFu);
                launch(G, B, [&] { msf_qu_to_bm(q[cur].data(), qlen, hidden.data()); });
                rep = 0;
            }
        }
        std::fill(cnt.begin(), cnt.end(), 0);
        if (rep) launch(G, B, [&] { msf_min_qu(q[cur].data(), qlen, q[1 - cur].data(), M + 1, adj.data(), wt.data(), p.data(), best.data(), cnt.data()); });
        else if (c == 'e') launch(G, B, [&] { msf_min_bm_e(src.data(), adj.data(), wt.data(), M, p.data(), hidden.data(), best.data(), thresh, cnt.data(), directed); });
        else launch(G, B, [&] { msf_min_bm_t(off.data(), adj.data(), wt.data(), n, p.data(), hidden.data(), best.data(), thresh, cnt.data(), directed); });
        launch(G, B, [&] { msf_hook(best.data(), n, src.data(), adj.data(), p.data(), chosen.data()); });
        if (rep) cur = 1 - cur, qlen = active = cnt[1];
        else active = cnt[0];
        if (active > 0) continue;
        if (thresh == INF64) done = true;
        else {
            thresh = INF64;
            std::fill(hidden.begin(), hidden.end(), 0);
            if (rep) build();
            else active = M;
        }
    }
    // Reference: Kruskal over the canonical arcs by (weight, arc id).
    std::vector<u64> keys;
    for (u64 e = 0; e < M; e++)
        if (directed ? src[e] != adj[e] : src[e] < adj[e]) keys.push_back(((u64)wt[e] << 32) | e);
    std::sort(keys.begin(), keys.end());
    std::vector<u32> uf(n);
    std::iota(uf.begin(), uf.end(), 0u);
    auto find = [&](u32 x) {
        while (uf[x] != x) x = uf[x] = uf[uf[x]];
        return x;
    };
    std::vector<u32> want(words, 0);
    long picked = 0;
    for (u64 k : keys) {
        u32 e = (u32)k, a = find(src[e]), b = find(adj[e]);
        if (a == b) continue;
        uf[a] = b;
        want[e >> 5] |= 1u << (e & 31);
        picked++;
    }
    long bad = 0;
    for (u32 i = 0; i < words; i++) bad += __builtin_popcount(want[i] ^ chosen[i]);
    for (u32 v = 0; v < n; v++)  // one tree per component
        if (find(v) != find(p[v]) ) bad++;
    // The listing: the chosen arcs as {u, v, w} in arc order, their count
    // and summed weight (the largest graph has more tiles than a block has
    // threads: the last block's scan loops).
    u64 ntiles = (words + MSF_LIST_TILE - 1) / MSF_LIST_TILE;
    std::vector<u32> tiles(ntiles), out(3 * (size_t)picked + 3, 0xDEADBEEFu);
    cnt[MSF_WEIGHT] = 12345;  // msf_list_count zeroes it
    launch(G, MSF_LIST_BLOCK, [&] { msf_list_count(chosen.data(), words, tiles.data(), cnt.data()); });
    launch(G, MSF_LIST_BLOCK, [&] { msf_list_write(out.data(), cnt.data(), src.data(), adj.data(), wt.data(), chosen.data(), words, tiles.data()); });
    u64 k = 0, sum = 0;
    for (u64 e = 0; e < M; e++) {
        if (!((want[e >> 5] >> (e & 31)) & 1)) continue;
        if (out[3 * k] != src[e] || out[3 * k + 1] != adj[e] || out[3 * k + 2] != wt[e]) bad++;
        sum += wt[e], k++;
    }
    if (cnt[MSF_LISTED] != (u64)picked || cnt[MSF_WEIGHT] != sum || cnt[MSF_DONE] != 0 || out[3 * k] != 0xDEADBEEFu) bad++;
    printf("n=%u arcs=%llu maxw=%d directed=%d schedule=%s thresh=%u: %d rounds, %ld forest edges (%llu tiles, weight %llu), %ld differences\n", n,
           (unsigned long long)M, maxw, directed, sched.c_str(), tw, rounds, picked, (unsigned long long)ntiles, (unsigned long long)sum, bad);
    return bad != 0;
}
