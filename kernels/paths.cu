// paths.cu: parent trees after a traversal, and st-connectivity.
//
// bfs_parents, sssp_parents: the parent pass after a BFS or an
// SSSP, whatever variants ran. Every reached vertex v but the sources takes
// the first in-arc u->v, in the in-CSR's order (the transpose's, or the
// graph's own when undirected), that is tight: level[u] + 1 == level[v], or
// dist[u] + w(u,v) == dist[v]. That is the CPU backend's rule
// (frontier.ParentsByLevel, sssp's tightTree), so both give the same tree.
// Vertices without a parent get NO_PARENT. One pass over the in-arcs, with
// no atomics: a lane scans its own vertex's first PARENT_LANE_ARCS in-arcs;
// vertices left unresolved with more in-arcs are then scanned by their
// whole warp in turn, 32 arcs a step (a ballot finds the first tight one),
// so a hub's long scan does not hold the other 31 lanes one arc a step.
//
// stcon_persist: one st-connectivity query in one persistent launch; see
// below.
#include "common.cuh"

#define NO_PARENT 0xFFFFFFFFu
#define PARENT_LANE_ARCS 8

// The rule of each pass: whether a vertex gets a parent, and whether an
// in-arc from u (arc e of the in-CSR) is tight.
struct LevelTight {
    const u32* level;
    __device__ __forceinline__ u64 key(u32 v) const { return level[v]; }
    __device__ __forceinline__ bool wants(u64 k) const { return k != INF32 && k > 0; }
    // An unreached u gives INF32 + 1 == 0, never a level of a wanted v.
    __device__ __forceinline__ bool tight(u64 k, u32 u, i64) const { return (u32)(level[u] + 1) == (u32)k; }
};

template <typename D>
struct DistTight {
    const D* dist;
    const u32* wt;
    __device__ __forceinline__ u64 key(u32 v) const { return dist[v]; }
    __device__ __forceinline__ bool wants(u64 k) const { return k != (u64)(D)~(D)0 && k > 0; }
    __device__ __forceinline__ bool tight(u64 k, u32 u, i64 e) const {
        const D du = dist[u];
        return du != (D)~(D)0 && (u64)du + wt[e] == k;
    }
};

template <typename R>
__device__ __forceinline__ void parents(const i64* __restrict__ ioff, const u32* __restrict__ iadj, R rule, u32* parent,
                                        u32 n) {
    const u32 lane = lane_id();
    // base is the warp's first vertex: the same on every lane, so the
    // votes below have the whole warp.
    for (u64 base = gtid() - lane; base < n; base += gstride()) {
        const u64 v = base + lane;
        u32 p = NO_PARENT;
        i64 e = 0, end = 0;
        u64 k = 0;
        if (v < n) {
            k = rule.key((u32)v);
            if (rule.wants(k)) {
                e = ioff[v];
                end = ioff[v + 1];
                const i64 stop = e + PARENT_LANE_ARCS < end ? e + PARENT_LANE_ARCS : end;
                for (; e < stop; e++) {
                    const u32 u = iadj[e];
                    if (rule.tight(k, u, e)) {
                        p = u;
                        break;
                    }
                }
            }
        }
        u32 todo = __ballot_sync(FULL_MASK, p == NO_PARENT && e < end);
        while (todo) {
            const u32 l = __ffs(todo) - 1;
            todo &= todo - 1;
            const i64 lo = (i64)__shfl_sync(FULL_MASK, (u64)e, l), hi = (i64)__shfl_sync(FULL_MASK, (u64)end, l);
            const u64 lk = __shfl_sync(FULL_MASK, k, l);
            u32 found = NO_PARENT;
            for (i64 f0 = lo; f0 < hi; f0 += 32) {
                const i64 f = f0 + lane;
                const u32 u = f < hi ? iadj[f] : 0;
                const u32 hit = __ballot_sync(FULL_MASK, f < hi && rule.tight(lk, u, f));
                if (hit) {
                    found = __shfl_sync(FULL_MASK, u, __ffs(hit) - 1);
                    break;
                }
            }
            if (lane == l) p = found;
        }
        if (v < n) parent[v] = p;
    }
}

extern "C" __global__ void bfs_parents(const i64* __restrict__ ioff, const u32* __restrict__ iadj, const u32* level,
                                       u32* parent, u32 n) {
    parents(ioff, iadj, LevelTight{level}, parent, n);
}

// dist holds uint32 distances when d32, else uint64.
extern "C" __global__ void sssp_parents(const i64* __restrict__ ioff, const u32* __restrict__ iadj,
                                        const u32* __restrict__ iwt, const void* dist, u32 d32, u32* parent, u32 n) {
    if (d32) parents(ioff, iadj, DistTight<u32>{(const u32*)dist, iwt}, parent, n);
    else parents(ioff, iadj, DistTight<u64>{(const u64*)dist, iwt}, parent, n);
}

// st-connectivity: a search from s along out-arcs (off/adj) and one from t
// along in-arcs (toff/tadj: the transpose, or the graph when undirected),
// one level of one side at a time, the side whose frontier has fewer arcs
// on its own graph (the CPU's rule, algorithms/stcon). Every thread of the
// persistent grid keeps the same copy of the control state and takes the
// same decisions, so a level costs two grid barriers and no host round
// trip; the launch ends when an arc of the expanding side reaches a vertex
// the other side labelled (the sides meet: that arc closes a shortest
// path), when a side's frontier is empty (t unreachable), or after
// max_levels levels (the host launches again: the state lives in st).
//
// Labels need no reset between queries: lab_s[v] and lab_t[v] are
// stamp<<32 | parent, and a label of another query's stamp is no label
// (the host numbers the queries from 1 and clears the labels when the
// stamp wraps). One compare-and-swap sets label and parent together.
//
// Queues: three buffers of n entries in qs; qi[side] is the side's
// frontier, qf the free one the expanding side fills. A frontier vertex of
// at most STCON_GROUP_MAXDEG arcs is expanded by a group of STCON_GROUP
// lanes; a larger one is listed as a hub with its chunks of
// STCON_GROUP_MAXDEG arcs (one 64-bit atomic gives its list slot and its
// first chunk), and after a barrier every group of the grid takes chunks.
//
// When the sides met, thread 0 walks the parents and writes the path, s
// first, into st->path when it fits (STCON_PATH_INLINE vertices, read back
// with st), else into the free queue buffer.
#define STCON_GROUP 8
#define STCON_GROUP_MAXDEG 256
#define STCON_PATH_INLINE 256
#define STCON_RUNNING 0
#define STCON_MET 1
#define STCON_APART 2
#define STCON_CTRL_BYTES 1184

struct StconCtrl {
    u32 status;     // STCON_RUNNING, STCON_MET or STCON_APART
    u32 met;        // 1 when the sides met
    u32 meet_a;     // the meeting arc a->b of the graph: a labelled by s's side,
    u32 meet_b;     // b by t's
    u32 levels;     // levels expanded (both sides)
    u32 pathlen;    // vertices on the path (status STCON_MET)
    u32 count[2];   // frontier sizes (s side, t side)
    u32 depth[2];   // frontier depths
    u32 qi[2];      // frontier buffers
    u32 qf;         // the free buffer
    u32 ncount[3];  // the next frontier's size, rotating per level
    u32 metk[3];    // the meeting flag, set once by compare-and-swap, rotating per level
    u32 pad;
    u64 deg[2];     // frontier arcs, each side on its own graph
    u64 ndeg[3];    // the next frontier's arcs, rotating per level
    u64 hubs[3];    // hubs listed << 32 | their chunks, rotating per level
    u64 arcs;       // arcs examined
    u64 visited;    // vertices labelled
    u32 path[STCON_PATH_INLINE];
};
static_assert(sizeof(StconCtrl) == STCON_CTRL_BYTES, "StconCtrl's size is mirrored by the host");

__device__ __forceinline__ u32 stcon_deg(const i64* off, u32 v) { return (u32)(off[v + 1] - off[v]); }

// One side's expansion of a level: the arcs of its frontier vertices, the
// labels it sets and the vertices it queues.
struct StconSide {
    const i64* off;
    const u32* adj;
    u64* mine;         // this side's labels
    const u64* other;  // the other side's
    u32* next;
    u32* ncount;
    u32* met;
    StconCtrl* st;
    u32 stamp, side;
    u64 deg, arcs;  // this thread's share of the next frontier's arcs and of the arcs examined

    // Arc u->x (x in this side's direction). Called by every lane of the
    // warp at once (ok false on lanes without an arc): the queue push is
    // one atomic per warp.
    __device__ __forceinline__ void visit(bool ok, u32 u, u32 x) {
        bool push = false;
        if (ok) {
            arcs++;
            const u64 o = __ldcg(other + x);
            if ((u32)(o >> 32) == stamp) {
                if (atomicCAS(met, 0u, 1u) == 0u) {
                    st->meet_a = side == 0 ? u : x;
                    st->meet_b = side == 0 ? x : u;
                }
            } else {
                const u64 w = __ldcg(mine + x);
                if ((u32)(w >> 32) != stamp && atomicCAS((unsigned long long*)(mine + x), w, (u64)stamp << 32 | u) == w) {
                    push = true;
                    deg += stcon_deg(off, x);
                }
            }
        }
        warp_push(push, x, next, ncount);
    }
};

// The flag is per level: a thread that leaves a level's barrier late
// must not see the next level's meeting (it would leave the loop that the
// others stay in, and their next barrier would wait for it forever).
__device__ __forceinline__ bool stcon_met(const u32* met) { return *(volatile const u32*)met != 0; }

extern "C" __global__ void __launch_bounds__(PERSIST_THREADS)
    stcon_persist(StconCtrl* st, Persist* ps, u32 s, u32 t, u32 stamp, u32 first, u32 max_levels,
                  const i64* __restrict__ off, const u32* __restrict__ adj, const i64* __restrict__ toff,
                  const u32* __restrict__ tadj, u32 n, u64* lab_s, u64* lab_t, u32* qs, u32* hub, u32* hub_chunk) {
    const u64 gid = gtid();
    if (first) {
        if (gid == 0) {
            lab_s[s] = (u64)stamp << 32 | NO_PARENT;
            lab_t[t] = (u64)stamp << 32 | NO_PARENT;
            qs[0] = s;
            qs[n] = t;
            st->count[0] = st->count[1] = 1;
            st->deg[0] = stcon_deg(off, s);
            st->deg[1] = stcon_deg(toff, t);
            st->qi[0] = 0;
            st->qi[1] = 1;
            st->qf = 2;
            st->visited = 2;
        }
        grid_sync(ps);
    }
    // Every thread's copy of the state.
    u32 count[2] = {__ldcg(&st->count[0]), __ldcg(&st->count[1])};
    u64 deg[2] = {__ldcg(&st->deg[0]), __ldcg(&st->deg[1])};
    u32 depth[2] = {__ldcg(&st->depth[0]), __ldcg(&st->depth[1])};
    u32 qi[2] = {__ldcg(&st->qi[0]), __ldcg(&st->qi[1])};
    u32 qf = __ldcg(&st->qf), levels = __ldcg(&st->levels);
    u64 visited = __ldcg(&st->visited), arcs = 0;
    const u32 lane = lane_id(), sub = lane % STCON_GROUP;
    const u64 group = gid / STCON_GROUP, groups = gstride() / STCON_GROUP;
    bool met = false;  // the host launches again only while the search runs
    for (u32 done = 0; !met && count[0] && count[1] && done < max_levels; done++) {
        const u32 i = deg[1] < deg[0] ? 1 : 0, k = levels % 3;
        const u32* cur = qs + (u64)qi[i] * n;
        StconSide sd{i ? toff : off, i ? tadj : adj, i ? lab_t : lab_s, i ? lab_s : lab_t, qs + (u64)qf * n,
                     &st->ncount[k], &st->metk[k], st, stamp, i, 0, 0};
        if (gid == 0) {
            const u32 k1 = k == 2 ? 0 : k + 1;
            st->ncount[k1] = 0;
            st->ndeg[k1] = 0;
            st->hubs[k1] = 0;
            st->metk[k1] = 0;
        }
        // Small vertices, a group each; the loop's trip count is the same
        // on every lane of a warp (the votes in visit need all 32).
        for (u64 g0 = group - lane / STCON_GROUP; g0 < count[i]; g0 += groups) {
            if (__ballot_sync(FULL_MASK, stcon_met(sd.met))) break;
            const u64 j = g0 + lane / STCON_GROUP;
            u32 u = 0, d = 0;
            i64 e0 = 0;
            if (j < count[i]) {
                u = __ldcg(cur + j);  // other blocks queued it: past L1
                e0 = sd.off[u];
                d = (u32)(sd.off[u + 1] - e0);
                if (d > STCON_GROUP_MAXDEG) {
                    if (sub == 0) {
                        const u32 chunks = (d + STCON_GROUP_MAXDEG - 1) / STCON_GROUP_MAXDEG;
                        const u64 h = atomicAdd((unsigned long long*)&st->hubs[k], (u64)1 << 32 | chunks);
                        hub[h >> 32] = u;
                        hub_chunk[h >> 32] = (u32)h;
                    }
                    d = 0;
                }
            }
            for (u32 r = sub; __ballot_sync(FULL_MASK, r < d); r += STCON_GROUP) {
                const bool ok = r < d;
                sd.visit(ok, u, ok ? sd.adj[e0 + r] : 0);
            }
        }
        grid_sync(ps);
        const u64 hubs = __ldcg(&st->hubs[k]);
        const u32 nh = (u32)(hubs >> 32), chunks = (u32)hubs;
        // Hubs' chunks, a group each; hub_chunk is ascending in the list.
        for (u64 c0 = group - lane / STCON_GROUP; c0 < chunks; c0 += groups) {
            if (__ballot_sync(FULL_MASK, stcon_met(sd.met))) break;
            const u64 c = c0 + lane / STCON_GROUP;
            u32 u = 0;
            i64 lo = 0, hi = 0;
            if (c < chunks) {
                u32 a = 0, b = nh - 1;  // the last hub whose first chunk is <= c
                while (a < b) {
                    const u32 mid = (a + b + 1) >> 1;
                    if (__ldcg(hub_chunk + mid) <= c) a = mid;
                    else b = mid - 1;
                }
                u = __ldcg(hub + a);
                lo = sd.off[u] + (i64)(c - __ldcg(hub_chunk + a)) * STCON_GROUP_MAXDEG;
                hi = sd.off[u + 1];
                hi = lo + STCON_GROUP_MAXDEG < hi ? lo + STCON_GROUP_MAXDEG : hi;
            }
            for (i64 f = lo + sub; __ballot_sync(FULL_MASK, f < hi); f += STCON_GROUP) {
                const bool ok = f < hi;
                sd.visit(ok, u, ok ? sd.adj[f] : 0);
            }
        }
        block_sum64(sd.deg, &st->ndeg[k]);
        arcs += sd.arcs;
        grid_sync(ps);
        met = stcon_met(sd.met);
        levels++;
        const u32 nc = __ldcg(&st->ncount[k]);
        visited += nc;
        if (!met) {
            count[i] = nc;
            deg[i] = __ldcg(&st->ndeg[k]);
            depth[i]++;
            const u32 q = qi[i];
            qi[i] = qf;
            qf = q;
        }
    }
    block_sum64(arcs, &st->arcs);
    grid_sync(ps);
    if (gid != 0) return;
    st->count[0] = count[0];
    st->count[1] = count[1];
    st->deg[0] = deg[0];
    st->deg[1] = deg[1];
    st->depth[0] = depth[0];
    st->depth[1] = depth[1];
    st->qi[0] = qi[0];
    st->qi[1] = qi[1];
    st->qf = qf;
    st->levels = levels;
    st->visited = visited;
    st->met = met;
    if (!met) {
        st->status = count[0] && count[1] ? STCON_RUNNING : STCON_APART;
        return;
    }
    st->status = STCON_MET;
    // s .. meet_a backwards along s's parents, then meet_b .. t along t's
    // (each of which is the next vertex towards t).
    const u32 a = __ldcg(&st->meet_a), b = __ldcg(&st->meet_b);
    u32 na = 0, nb = 0;
    for (u32 v = a;; v = (u32)__ldcg(lab_s + v)) {
        na++;
        if (v == s) break;
    }
    for (u32 v = b;; v = (u32)__ldcg(lab_t + v)) {
        nb++;
        if (v == t) break;
    }
    u32* path = na + nb <= STCON_PATH_INLINE ? st->path : qs + (u64)qf * n;
    u32 v = a;
    for (u32 j = na; j-- > 0; v = (u32)__ldcg(lab_s + v)) path[j] = v;
    v = b;
    for (u32 j = na; j < na + nb; j++, v = (u32)__ldcg(lab_t + v)) path[j] = v;
    st->pathlen = na + nb;
}
