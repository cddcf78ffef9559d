// Runs kernels/maxflow.cu on the CPU (shim.h and emu.h: a std::thread per
// CUDA thread, blocks one after another, warp shuffles at a per-warp
// barrier) through phase 1 of push-relabel, the host loop of
// algorithms/maxflow's cuda operator: a global relabel (its levels
// launched three at a time between reads of the counters), passes of
// push, relabel and generation, conversions between bitmap and queue, a
// global relabel whenever the relabel work passes the trigger. At the end
// it checks the preflow (pairs conserve their capacity, excess = inflow -
// outflow and >= 0, no active vertex, labels valid, scratch state clean)
// and its value against Edmonds-Karp.
// Arguments: kind n m maxcap seed schedule trigger.
//   kind: rand (n vertices, m random arcs, s = 0, t = n-1) or grid (an n x m
//         grid of 4-neighbour arcs, every pixel joined to both terminals);
//   maxcap: capacities are uniform in 0..maxcap (merged pairs at most
//         2^62-1, the source's arcs scaled so their sum fits 63 bits);
//   schedule: one letter a pass, cycled: t (bitmap, thread per vertex),
//         w (bitmap, warp per vertex), q (queue, thread), Q (queue, warp);
//   trigger: relabel work between global relabels.
// Built and run by TestMaxflowKernelOnCPU (maxflow_emu_test.go).
#include "shim.h"
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "emu.h"
#include "maxflow.cu"

static const int G = 3, B = 64;  // small grid: the grid-stride loops wrap
static const i64 CAPMAX = (i64)((1ull << 62) - 1);

int main(int argc, char** argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: mf_run kind n m maxcap seed schedule trigger\n");
        return 2;
    }
    std::string kind = argv[1], sched = argv[6];
    u32 a1 = atoi(argv[2]), a2 = atoi(argv[3]);
    u64 maxcap = strtoull(argv[4], nullptr, 10), trigger = strtoull(argv[7], nullptr, 10);
    std::mt19937_64 rng(atoi(argv[5]));
    auto cap = [&] { return (i64)(rng() % (maxcap + 1)); };
    std::vector<std::map<u32, i64>> adj;
    u32 n, s, t;
    auto arc = [&](u32 u, u32 v, i64 c) {
        if (u == v) return;
        i64& x = adj[u][v];
        x = x > CAPMAX - c ? CAPMAX : x + c;
        adj[v][u] += 0;
    };
    if (kind == "grid") {
        n = a1 * a2 + 2, s = n - 2, t = n - 1;
        adj.resize(n);
        for (u32 y = 0; y < a2; y++)
            for (u32 x = 0; x < a1; x++) {
                u32 v = y * a1 + x;
                if (x + 1 < a1) arc(v, v + 1, cap()), arc(v + 1, v, cap());
                if (y + 1 < a2) arc(v, v + a1, cap()), arc(v + a1, v, cap());
                if (rng() % 3) arc(s, v, cap());
                if (rng() % 3) arc(v, t, cap());
            }
    } else {
        n = a1, s = 0, t = n - 1;
        adj.resize(n);
        for (u32 i = 0; i < a2; i++) {
            u32 u = rng() % n, v = rng() % n;
            if (i % 7 == 0) u = s;
            if (i % 7 == 1) v = t;
            arc(u, v, cap());
        }
    }
    // Pairs may not sum past 63 bits; the source's arcs together neither.
    for (u32 u = 0; u < n; u++)
        for (auto& [v, c] : adj[u])
            if (u < v && c > CAPMAX - adj[v][u]) c = CAPMAX - adj[v][u];
    if (!adj[s].empty())
        for (auto& [v, c] : adj[s]) c = std::min(c, (i64)(INT64_MAX / adj[s].size()));
    std::vector<i64> off(n + 1), rev, res, cap0;
    std::vector<u32> head;
    for (u32 u = 0; u < n; u++) {
        off[u] = head.size();
        for (auto [v, c] : adj[u]) head.push_back(v), cap0.push_back(c);
    }
    off[n] = head.size();
    u64 m = head.size();
    rev.resize(m);
    for (u32 u = 0; u < n; u++)
        for (i64 e = off[u]; e < off[u + 1]; e++) {
            u32 v = head[e];
            rev[e] = off[v] + std::distance(adj[v].begin(), adj[v].find(u));
        }
    res = cap0;
    std::vector<i64> exc(n, 0);
    for (i64 e = off[s]; e < off[s + 1]; e++) {
        exc[head[e]] += res[e];
        res[rev[e]] += res[e];
        res[e] = 0;
    }
    u32 words = (n + 31) / 32;
    std::vector<u64> in(n, 0);
    std::vector<u32> d(n), pend(n, MF_NONE), act(words), mark(words, 0), cand(n), q0(n), q1(n);
    MfNet net{(u64)off.data(), (u64)head.data(), (u64)rev.data(), (u64)res.data(), (u64)exc.data(), (u64)in.data(),
              (u64)d.data(), (u64)pend.data(), (u64)act.data(), (u64)mark.data(), (u64)cand.data(),
              {(u64)q0.data(), (u64)q1.data()}, n, t, s, 0};
    MfCtrl c{};
    u64 workAt = 0;
    int globals = 0, passes = 0, conversions = 0;
    u32 par = 0, toq = 0;
    auto global = [&] {
        launch(G, B, [&] { mf_bfs_init(&net, &c); });
        for (u32 k = 0;; k += 3) {
            for (u32 j = k; j < k + 3; j++) launch(G, B, [&] { mf_bfs_level(&net, &c, j); });
            if (c.level[(k + 3) % 3] == 0) break;
        }
        c.size[par] = 0, c.deg[par] = 0;
        launch(G, B, [&] { mf_gen_dense(&net, &c, par, toq); });
        workAt = c.work;
        globals++;
    };
    global();
    while (c.size[par] > 0) {
        if (passes > 100000) {
            printf("no convergence\n");
            return 1;
        }
        char ch = sched[passes % sched.size()];
        u32 wantq = ch == 'q' || ch == 'Q', warp = ch == 'w' || ch == 'Q';
        if (wantq != toq) {
            u32 before = c.size[par];
            u64 dbefore = c.deg[par];
            toq = wantq;
            c.size[par] = 0, c.deg[par] = 0;
            launch(G, B, [&] { mf_gen_dense(&net, &c, par, toq); });
            if (c.size[par] != before || c.deg[par] != dbefore) {
                printf("conversion changed the set: %u -> %u vertices\n", before, c.size[par]);
                return 1;
            }
            conversions++;
        }
        if (toq) {
            if (warp) launch(G, B, [&] { mf_push_w_qu(&net, &c, par); }), launch(G, B, [&] { mf_relabel_w_qu(&net, &c, par); });
            else launch(G, B, [&] { mf_push_t_qu(&net, &c, par); }), launch(G, B, [&] { mf_relabel_t_qu(&net, &c, par); });
            launch(G, B, [&] { mf_gen_cand(&net, &c, par ^ 1); });
        } else {
            if (warp) launch(G, B, [&] { mf_push_w_bm(&net, &c, par); }), launch(G, B, [&] { mf_relabel_w_bm(&net, &c, par); });
            else launch(G, B, [&] { mf_push_t_bm(&net, &c, par); }), launch(G, B, [&] { mf_relabel_t_bm(&net, &c, par); });
            launch(G, B, [&] { mf_gen_dense(&net, &c, par ^ 1, 0); });
        }
        par ^= 1;
        passes++;
        if (c.size[par] > 0 && c.work - workAt > trigger) global();
    }
    // The preflow's properties.
    long bad = 0;
    std::vector<i64> net_in(n, 0);
    for (u32 u = 0; u < n; u++)
        for (i64 e = off[u]; e < off[u + 1]; e++) {
            if (res[e] < 0 || res[e] + res[rev[e]] != cap0[e] + cap0[rev[e]]) bad++;
            net_in[u] -= cap0[e] - res[e];
            if (res[e] > 0 && d[u] < n && d[u] > d[head[e]] + 1) bad++;
        }
    for (u32 v = 0; v < n; v++) {
        if (v == s) continue;
        if (exc[v] != net_in[v] || exc[v] < 0) bad++;
        if (v != t && exc[v] > 0 && d[v] < n) bad++;
        if (in[v] != 0 || pend[v] != MF_NONE) bad++;
    }
    for (u32 w : mark) bad += w != 0;
    // Edmonds-Karp on a copy of the initial residual network.
    std::vector<i64> r = cap0;
    i64 want = 0;
    for (;;) {
        std::vector<i64> via(n, -1);
        std::vector<u32> bfs{s};
        via[s] = -2;
        for (size_t i = 0; i < bfs.size() && via[t] == -1; i++)
            for (i64 e = off[bfs[i]]; e < off[bfs[i] + 1]; e++)
                if (r[e] > 0 && via[head[e]] == -1) via[head[e]] = e, bfs.push_back(head[e]);
        if (via[t] == -1) break;
        i64 b = INT64_MAX;
        for (u32 v = t; v != s; v = head[rev[via[v]]]) b = std::min(b, r[via[v]]);
        for (u32 v = t; v != s; v = head[rev[via[v]]]) r[via[v]] -= b, r[rev[via[v]]] += b;
        want += b;
    }
    printf("%s %u x %u maxcap=%llu schedule=%s: %u vertices, %llu arcs, %d passes, %d global relabels, %d conversions, "
           "%llu pushes, %llu relabels, flow %lld (Edmonds-Karp %lld), %ld bad\n",
           kind.c_str(), a1, a2, (unsigned long long)maxcap, sched.c_str(), n, (unsigned long long)m, passes, globals,
           conversions, (unsigned long long)c.pushes, (unsigned long long)c.relabels, (long long)exc[t], (long long)want, bad);
    return bad != 0 || exc[t] != want;
}
