// Runs kernels/apsp.cu on the CPU (testdata/cpuemu/shim.h: a std::thread per
// CUDA thread, blocks one after another, __syncthreads a std::barrier) on a
// random graph and compares every distance with the textbook
// Floyd-Warshall. Arguments: n m maxweight packed(0|1) seed. Built and run
// by TestAPSPKernelOnCPU (apsp_emu_test.go) where g++ is installed.
#include "shim.h"
#include "emu.h"
#include "apsp.cu"
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>
int main(int argc, char** argv) {
    int n = atoi(argv[1]), m = atoi(argv[2]), maxw = atoi(argv[3]), packed = atoi(argv[4]);
    unsigned seed = atoi(argv[5]);
    std::mt19937 rng(seed);
    std::vector<i64> off(n + 1);
    std::vector<std::vector<std::pair<u32, u32>>> adj(n);
    for (int e = 0; e < m; e++) {
        u32 u = rng() % n, v = rng() % n, w = 1 + rng() % maxw;
        adj[u].push_back({v, w});
    }
    std::vector<u32> A, W;
    for (int u = 0; u < n; u++) {
        off[u] = A.size();
        for (auto [v, w] : adj[u]) A.push_back(v), W.push_back(w);
    }
    off[n] = A.size();
    const u32 INF = packed ? 0x3FFF : 0x3FFFFFFF;
    int p = (n + 63) / 64 * 64, L = packed ? 2 : 1, pw = p / L, nb = p / 64;
    std::vector<u32> d((size_t)p * pw, packed ? 0x3FFF3FFFu : 0x3FFFFFFFu);
    launch(1, 256, [&] { apsp_init(d.data(), pw, p, off.data(), A.data(), maxw == 1 ? nullptr : W.data(), n, packed); });
    for (int r = 0; r <= nb; r++) {
        int grid = r == 0 ? 2 * nb - 1 : nb * nb;
        if (packed) launch(grid, 128, [&] { apsp_fw_s16(d.data(), nb, pw, r); });
        else launch(grid, 256, [&] { apsp_fw_s32(d.data(), nb, pw, r); });
    }
    // Reference: textbook FW.
    std::vector<u32> ref((size_t)n * n, INF);
    for (int u = 0; u < n; u++) {
        ref[(size_t)u * n + u] = 0;
        for (auto [v, w] : adj[u]) ref[(size_t)u * n + v] = std::min(ref[(size_t)u * n + v], maxw == 1 ? 1u : w);
    }
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                ref[(size_t)i * n + j] = std::min(ref[(size_t)i * n + j], std::min(INF, ref[(size_t)i * n + k] + ref[(size_t)k * n + j]));
    long bad = 0, finite = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            u32 x = packed ? (d[(size_t)i * pw + (j >> 1)] >> (16 * (j & 1))) & 0xFFFF : d[(size_t)i * pw + j];
            if (x != ref[(size_t)i * n + j]) {
                if (bad < 5) printf("mismatch %d %d: %u want %u\n", i, j, x, ref[(size_t)i * n + j]);
                bad++;
            }
            finite += x < INF;
        }
    printf("n=%d m=%d maxw=%d packed=%d: %ld mismatches, %ld finite pairs\n", n, m, maxw, packed, bad, finite);
    return bad != 0;
}
