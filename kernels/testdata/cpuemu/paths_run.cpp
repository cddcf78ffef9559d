// Runs kernels/paths.cu on the CPU (shim.h and emu.h with CPUEMU_GRID: a
// std::thread per CUDA thread, a grid's blocks at once, so that
// stcon_persist's grid barriers work) on a random graph with a few hubs
// (vertices of more arcs than a group expands) and checks
//   - bfs_parents and sssp_parents (both widths) against a serial scan by the
//     same rule (each vertex's first tight in-arc), vertex for vertex;
//   - stcon_persist on many (s, t) queries, one label array for all of
//     them (stamps), each query in launches of max_levels levels: reachable
//     and hops as a serial BFS says, the path one of g from s to t, and
//     as many levels as a serial search by the same rule.
// Arguments: n m directed(0|1) hubs seed queries max_levels.
// Built and run by TestPathsKernelsOnCPU (paths_emu_test.go).
#define CPUEMU_GRID
#include "shim.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "emu.h"
#include "paths.cu"

static const int G = 3, B = 64;  // small grid: the grid-stride loops wrap

struct CSR {
    std::vector<i64> off;
    std::vector<u32> adj, wt;
};

static CSR build(u32 n, const std::vector<std::vector<std::pair<u32, u32>>>& lists) {
    CSR g;
    g.off.assign(n + 1, 0);
    for (u32 u = 0; u < n; u++) {
        g.off[u] = g.adj.size();
        for (auto [v, w] : lists[u]) g.adj.push_back(v), g.wt.push_back(w);
    }
    g.off[n] = g.adj.size();
    return g;
}

static std::vector<u32> bfs(const CSR& g, u32 n, u32 s) {
    std::vector<u32> d(n, INF32), q{s};
    d[s] = 0;
    for (size_t h = 0; h < q.size(); h++)
        for (i64 e = g.off[q[h]]; e < g.off[q[h] + 1]; e++)
            if (d[g.adj[e]] == INF32) d[g.adj[e]] = d[q[h]] + 1, q.push_back(g.adj[e]);
    return d;
}

template <typename D>
static std::vector<D> dijkstra(const CSR& g, u32 n, u32 s) {
    std::vector<D> d(n, (D)~(D)0);
    std::vector<bool> done(n);
    d[s] = 0;
    for (;;) {  // O(n^2): the graphs are small
        u32 u = n;
        for (u32 v = 0; v < n; v++)
            if (!done[v] && d[v] != (D)~(D)0 && (u == n || d[v] < d[u])) u = v;
        if (u == n) return d;
        done[u] = true;
        for (i64 e = g.off[u]; e < g.off[u + 1]; e++)
            if ((u64)d[u] + g.wt[e] < (u64)d[g.adj[e]]) d[g.adj[e]] = d[u] + g.wt[e];
    }
}

// The rule, serially: v's first in-arc u->v with tight(u, arc).
template <typename T>
static long check_parents(const char* what, const CSR& in, u32 n, const std::vector<u32>& got, T tight,
                          const std::vector<bool>& wants) {
    long bad = 0;
    for (u32 v = 0; v < n; v++) {
        u32 want = NO_PARENT;
        if (wants[v])
            for (i64 e = in.off[v]; e < in.off[v + 1]; e++)
                if (tight(in.adj[e], e, v)) {
                    want = in.adj[e];
                    break;
                }
        if (got[v] != want && bad++ < 5) printf("%s: vertex %u parent %u, want %u\n", what, v, got[v], want);
    }
    return bad;
}

// The levels a two-sided search expands, serially, by the kernel's rule
// (expand the side whose frontier has fewer arcs on its graph; stop at the
// level whose arcs reach the other side, or when a side's frontier is
// empty): the kernel must count the frontiers' arcs right to match.
static u32 serial_levels(const CSR& g, const CSR& in, u32 n, u32 s, u32 t) {
    const CSR* gs[2] = {&g, &in};
    std::vector<int> side(n, -1);
    std::vector<u32> cur[2] = {{s}, {t}};
    side[s] = 0, side[t] = 1;
    u64 deg[2] = {(u64)(g.off[s + 1] - g.off[s]), (u64)(in.off[t + 1] - in.off[t])};
    for (u32 levels = 1;; levels++) {
        if (cur[0].empty() || cur[1].empty()) return levels - 1;
        const int i = deg[1] < deg[0] ? 1 : 0;
        const CSR& h = *gs[i];
        std::vector<u32> next;
        bool met = false;
        u64 nd = 0;
        for (u32 u : cur[i])
            for (i64 e = h.off[u]; e < h.off[u + 1]; e++) {
                const u32 x = h.adj[e];
                if (side[x] == 1 - i) met = true;
                else if (side[x] < 0) side[x] = i, next.push_back(x), nd += h.off[x + 1] - h.off[x];
            }
        if (met) return levels;
        cur[i] = next, deg[i] = nd;
    }
}

int main(int argc, char** argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: paths_run n m directed hubs seed queries max_levels\n");
        return 2;
    }
    u32 n = atoi(argv[1]);
    int m = atoi(argv[2]), directed = atoi(argv[3]), hubs = atoi(argv[4]), queries = atoi(argv[6]);
    u32 maxl = atoi(argv[7]);
    std::mt19937 rng(atoi(argv[5]));
    std::vector<std::vector<std::pair<u32, u32>>> out(n), inl(n);
    auto arc = [&](u32 u, u32 v, u32 w) {
        out[u].push_back({v, w});
        inl[v].push_back({u, w});
        if (!directed && u != v) out[v].push_back({u, w}), inl[u].push_back({v, w});
    };
    for (int i = 0; i < m; i++) arc(rng() % n, rng() % n, rng() % 4);  // zero weights too
    for (int h = 0; h < hubs; h++)  // more arcs than STCON_GROUP_MAXDEG, both ways
        for (u32 k = 0; k < 2 * STCON_GROUP_MAXDEG + 7; k++) {
            u32 hub = h * 7 % n, x = rng() % n;
            if (k % 2) arc(hub, x, 1 + rng() % 3);
            else arc(x, hub, 1 + rng() % 3);
        }
    CSR g = build(n, out), in = directed ? build(n, inl) : g;
    long bad = 0;

    // Parents of a BFS and of an SSSP at both widths from a few sources.
    std::vector<u32> parent(n);
    for (u32 s : {0u, n / 2, n - 1}) {
        std::vector<u32> lv = bfs(g, n, s);
        launch(G, B, [&] { bfs_parents(in.off.data(), in.adj.data(), lv.data(), parent.data(), n); });
        std::vector<bool> wants(n);
        for (u32 v = 0; v < n; v++) wants[v] = lv[v] != INF32 && lv[v] > 0;
        bad += check_parents("bfs", in, n, parent, [&](u32 u, i64, u32 v) { return lv[u] + 1 == lv[v]; }, wants);
        std::vector<u32> d32 = dijkstra<u32>(g, n, s);
        std::vector<u64> d64 = dijkstra<u64>(g, n, s);
        for (u32 v = 0; v < n; v++) wants[v] = d32[v] != INF32 && d32[v] > 0;
        launch(G, B, [&] { sssp_parents(in.off.data(), in.adj.data(), in.wt.data(), d32.data(), 1, parent.data(), n); });
        auto tight = [&](u32 u, i64 e, u32 v) { return d64[u] != INF64 && d64[u] + in.wt[e] == d64[v]; };
        bad += check_parents("sssp d32", in, n, parent, tight, wants);
        launch(G, B, [&] { sssp_parents(in.off.data(), in.adj.data(), in.wt.data(), d64.data(), 0, parent.data(), n); });
        bad += check_parents("sssp d64", in, n, parent, tight, wants);
    }

    // st-connectivity: one set of labels, stamps 1, 2, ...
    std::vector<u64> lab_s(n, 0), lab_t(n, 0);
    std::vector<u32> qs(3 * (size_t)n), hub(n), hub_chunk(n);
    Persist ps;
    StconCtrl st;
    int reach = 0, launches = 0;
    for (int q = 0; q < queries; q++) {
        u32 s = rng() % n, t = q % 5 == 0 ? hubs ? 0 : s : rng() % n;
        if (s == t) t = (t + 1) % n;  // the host answers s == t itself
        memset(&st, 0, sizeof st);
        for (u32 first = 1;; first = 0) {
            memset(&ps, 0, sizeof ps);
            launch(G, B, [&] {
                stcon_persist(&st, &ps, s, t, q + 1, first, maxl, g.off.data(), g.adj.data(), in.off.data(), in.adj.data(), n,
                              lab_s.data(), lab_t.data(), qs.data(), hub.data(), hub_chunk.data());
            });
            launches++;
            if (st.status != STCON_RUNNING) break;
        }
        if (u32 want = serial_levels(g, in, n, s, t); st.levels != want && bad++ < 5)
            printf("stcon %u -> %u: %u levels, the serial search %u\n", s, t, st.levels, want);
        std::vector<u32> d = bfs(g, n, s);
        const bool want = d[t] != INF32, got = st.status == STCON_MET;
        if (got != want) {
            if (bad++ < 5) printf("stcon %u -> %u: reachable %d, BFS says %d\n", s, t, got, want);
            continue;
        }
        if (!got) continue;
        reach++;
        const u32* p = st.pathlen <= STCON_PATH_INLINE ? st.path : qs.data() + (size_t)st.qf * n;
        bool ok = st.pathlen == d[t] + 1 && p[0] == s && p[st.pathlen - 1] == t;
        for (u32 j = 0; ok && j + 1 < st.pathlen; j++) {
            bool arc = false;
            for (i64 e = g.off[p[j]]; e < g.off[p[j] + 1]; e++) arc |= g.adj[e] == p[j + 1];
            ok = arc;
        }
        if (!ok && bad++ < 5) printf("stcon %u -> %u: a path of %u vertices is not a shortest path (%u hops)\n", s, t, st.pathlen, d[t]);
    }
    printf("n=%u arcs=%zu directed=%d hubs=%d max_levels=%u: %d queries (%d reachable) in %d launches, %ld differences\n", n,
           g.adj.size(), directed, hubs, maxl, queries, reach, launches, bad);
    return bad != 0;
}
