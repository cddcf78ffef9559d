// scc.cu: strongly connected components, the phases of algorithms/scc's
// CPU operator as vertex-parallel sweeps (one thread per vertex, grid-
// stride), driven by its cuda operator.
//
// State: label (n uint32: the SCC's smallest vertex, SCC_NONE while
// unknown), part (n uint32: the partition of an unlabelled vertex, named
// by one of its vertices; SCCs never cross partitions) and the counters
// cnt (uint64: [0] vertices reached or lowered, the host's "again" test;
// [1] vertices labelled; [2] arcs examined). Every sweep only follows arcs
// between unlabelled vertices of one partition (or, in colouring's
// backward search, of one colour).
//
//   scc_trim          one trimming sweep: an unlabelled vertex with no out-
//                     or no in-arc (the transpose's CSR) to another one of
//                     its partition is an SCC alone. A label written during
//                     the sweep may be missed by a neighbour, which then
//                     waits for the next sweep; the host repeats sweeps
//                     until one labels nothing.
//   scc_pivot         each partition's pivot: the largest (in- times out-
//                     degree)<<32 | ~v, by 64-bit atomicMax;
//   scc_seed          the pivots at level 1 of both searches, the rest 0;
//   scc_reach         one level of a search: every vertex at the level
//                     reaches the unreached vertices of its key (partition
//                     or colour) over its arcs (g's forward, the
//                     transpose's backward);
//   scc_split_min /   FW-BW's split: class 0 (reached both ways: the pivot's
//   scc_split_apply   SCC), 1 (forward only), 2 (backward only), 3 (neither);
//                     each class of a partition is named by its smallest
//                     vertex (atomicMin into low, 4 n words), class 0's
//                     name is the label, the others' the new partition;
//   scc_colour_init / colouring: every vertex starts with its own id and
//   scc_colour_prop   takes the smallest over its in-arcs (sweeps until none
//                     lowers anything);
//   scc_roots         vertices that kept their own id, at level 1 of the
//                     backward search over their colour;
//   scc_colour_apply  reached vertices take their colour as label, the rest
//                     their colour as partition.
// The labels are those of the CPU operator: every SCC's smallest vertex.
#include "common.cuh"

#define SCC_NONE 0xFFFFFFFFu

// Loads of values other threads of the launch write: past L1.
__device__ __forceinline__ u32 scc_ld(const u32* p, u64 i) { return __ldcg(p + i); }

__device__ __forceinline__ void scc_count(u64* cnt, u64 reached, u64 labelled, u64 arcs) {
    if (reached) atomicAdd(&cnt[0], reached);
    if (labelled) atomicAdd(&cnt[1], labelled);
    if (arcs) atomicAdd(&cnt[2], arcs);
}

// Whether v has an arc in lo..hi of heads to another unlabelled vertex of
// its partition pv; counts the arcs read.
__device__ __forceinline__ bool scc_inside(const u32* heads, i64 lo, i64 hi, u32 v, u32 pv, const u32* label,
                                           const u32* part, u64& arcs) {
    for (i64 e = lo; e < hi; e++) {
        u32 x = heads[e];
        arcs++;
        if (x != v && scc_ld(label, x) == SCC_NONE && part[x] == pv) return true;
    }
    return false;
}

extern "C" __global__ void __launch_bounds__(1024)
scc_trim(const i64* off, const u32* adj, const i64* toff, const u32* tadj, u32 n, u32* label, const u32* part, u64* cnt) {
    u64 lab = 0, arcs = 0;
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 v = (u32)i;
        if (scc_ld(label, v) != SCC_NONE) continue;
        u32 pv = part[v];
        if (!scc_inside(adj, off[v], off[v + 1], v, pv, label, part, arcs) ||
            !scc_inside(tadj, toff[v], toff[v + 1], v, pv, label, part, arcs)) {
            __stcg(label + v, v);
            lab++;
        }
    }
    scc_count(cnt, 0, lab, arcs);
}

extern "C" __global__ void __launch_bounds__(1024)
scc_pivot(const i64* off, const i64* toff, u32 n, const u32* label, const u32* part, u64* pivot) {
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 v = (u32)i;
        if (label[v] != SCC_NONE) continue;
        u64 d = (u64)(off[v + 1] - off[v]) * (u64)(toff[v + 1] - toff[v]);
        if (d > 0xFFFFFFFFull) d = 0xFFFFFFFFull;
        atomicMax(&pivot[part[v]], d << 32 | (u64)(u32)~v);
    }
}

extern "C" __global__ void __launch_bounds__(1024)
scc_seed(u32 n, const u32* label, const u32* part, const u64* pivot, u32* fw, u32* bw) {
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 v = (u32)i;
        u32 s = label[v] == SCC_NONE && (u32)~(u32)pivot[part[v]] == v ? 1u : 0u;
        fw[v] = s;
        bw[v] = s;
    }
}

// Vertices at level lv == level reach, over heads, the unlabelled
// vertices with their key that are unreached (0), at level+1. Only
// unreached vertices are written, so the test lv[v] == level is stable
// during the launch; two threads may both write one vertex, with the same
// value.
extern "C" __global__ void __launch_bounds__(1024)
scc_reach(const i64* off, const u32* heads, u32 n, const u32* label, const u32* key, u32* lv, u32 level, u64* cnt) {
    u64 got = 0, arcs = 0;
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 v = (u32)i;
        if (scc_ld(lv, v) != level) continue;
        u32 k = key[v];
        for (i64 e = off[v]; e < off[v + 1]; e++) {
            u32 x = heads[e];
            arcs++;
            if (label[x] == SCC_NONE && key[x] == k && scc_ld(lv, x) == 0) {
                __stcg(lv + x, level + 1);
                got++;
            }
        }
    }
    scc_count(cnt, got, 0, arcs);
}

__device__ __forceinline__ u32 scc_class(const u32* fw, const u32* bw, u32 v) {
    bool f = fw[v] != 0, b = bw[v] != 0;
    return f && b ? 0u : f ? 1u : b ? 2u : 3u;
}

extern "C" __global__ void __launch_bounds__(1024)
scc_split_min(u32 n, const u32* label, const u32* part, const u32* fw, const u32* bw, u32* low) {
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 v = (u32)i;
        if (label[v] == SCC_NONE) atomicMin(&low[(u64)scc_class(fw, bw, v) * n + part[v]], v);
    }
}

extern "C" __global__ void __launch_bounds__(1024)
scc_split_apply(u32 n, u32* label, u32* part, const u32* fw, const u32* bw, const u32* low, u64* cnt) {
    u64 lab = 0;
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 v = (u32)i;
        if (label[v] != SCC_NONE) continue;
        u32 c = scc_class(fw, bw, v);
        u32 r = low[(u64)c * n + part[v]];
        if (c == 0) {
            label[v] = r;
            lab++;
        } else {
            part[v] = r;
        }
    }
    scc_count(cnt, 0, lab, 0);
}

extern "C" __global__ void __launch_bounds__(1024) scc_colour_init(u32 n, u32* col) {
    for (u64 i = gtid(); i < n; i += gstride()) col[i] = (u32)i;
}

// Every unlabelled vertex lowers the colours of its partition's vertices
// it has arcs to; a colour only decreases, so sweeps until one lowers
// nothing leave every vertex the smallest id that reaches it.
extern "C" __global__ void __launch_bounds__(1024)
scc_colour_prop(const i64* off, const u32* adj, u32 n, const u32* label, const u32* part, u32* col, u64* cnt) {
    u64 lowered = 0, arcs = 0;
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 u = (u32)i;
        if (label[u] != SCC_NONE) continue;
        u32 c = scc_ld(col, u), pu = part[u];
        for (i64 e = off[u]; e < off[u + 1]; e++) {
            u32 x = adj[e];
            arcs++;
            if (c < scc_ld(col, x) && label[x] == SCC_NONE && part[x] == pu && atomicMin(&col[x], c) > c) lowered++;
        }
    }
    scc_count(cnt, lowered, 0, arcs);
}

extern "C" __global__ void __launch_bounds__(1024) scc_roots(u32 n, const u32* label, const u32* col, u32* lv) {
    for (u64 i = gtid(); i < n; i += gstride()) {
        u32 v = (u32)i;
        lv[v] = label[v] == SCC_NONE && col[v] == v ? 1u : 0u;
    }
}

extern "C" __global__ void __launch_bounds__(1024)
scc_colour_apply(u32 n, u32* label, u32* part, const u32* col, const u32* lv, u64* cnt) {
    u64 lab = 0;
    for (u64 i = gtid(); i < n; i += gstride()) {
        if (label[i] != SCC_NONE) continue;
        if (lv[i] != 0) {
            label[i] = col[i];
            lab++;
        } else {
            part[i] = col[i];
        }
    }
    scc_count(cnt, 0, lab, 0);
}
