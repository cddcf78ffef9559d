// narrow.cu: narrowing a uint32 result before it crosses PCIe.
//
// max_below_u32: the largest value of in other than 0xFFFFFFFF (a vertex
//     with no value) into *out (block_max: one atomic per block), which
//     must be zero on entry; the host picks the copy's width from it.
// narrow_u8 / narrow_u16: out[i] = min(in[i], all-ones of the narrow
//     type), so 0xFFFFFFFF becomes all-ones, the host's mark for no value,
//     and every other value, below all-ones as max_below_u32 showed, stays
//     as it is. A BFS's depths on kron:22 cross as 4 MB instead of 16 (the
//     copy, not the traversal, was most of its wall time).
// Four elements per thread per trip (16-byte loads); in and out are
// cuMemAlloc'd (256-byte aligned).
#include "common.cuh"

extern "C" __global__ void __launch_bounds__(256) max_below_u32(const u32* __restrict__ in, u32 n, u32* out) {
    const u64 i = gtid(), stride = gstride();
    u64 n4 = n / 4;
    u32 m = 0;
    for (u64 k = i; k < n4; k += stride) {
        uint4 v = ((const uint4*)in)[k];
        m = max(m, v.x == 0xFFFFFFFFu ? 0u : v.x);
        m = max(m, v.y == 0xFFFFFFFFu ? 0u : v.y);
        m = max(m, v.z == 0xFFFFFFFFu ? 0u : v.z);
        m = max(m, v.w == 0xFFFFFFFFu ? 0u : v.w);
    }
    for (u64 k = n4 * 4 + i; k < n; k += stride) {
        u32 v = in[k];
        m = max(m, v == 0xFFFFFFFFu ? 0u : v);
    }
    block_max(m, out);
}

template <typename N, typename N4>
__device__ __forceinline__ void narrow(const u32* __restrict__ in, N* __restrict__ out, u32 n) {
    const u32 top = (u32)(N)~(N)0;  // all-ones of N
    const u64 i = gtid(), stride = gstride();
    u64 n4 = n / 4;
    for (u64 k = i; k < n4; k += stride) {
        uint4 v = ((const uint4*)in)[k];
        N4 o;
        o.x = (N)min(v.x, top);
        o.y = (N)min(v.y, top);
        o.z = (N)min(v.z, top);
        o.w = (N)min(v.w, top);
        ((N4*)out)[k] = o;
    }
    for (u64 k = n4 * 4 + i; k < n; k += stride) out[k] = (N)min(in[k], top);
}

extern "C" __global__ void __launch_bounds__(256) narrow_u8(const u32* __restrict__ in, u8* __restrict__ out, u32 n) {
    narrow<u8, uchar4>(in, out, n);
}

extern "C" __global__ void __launch_bounds__(256) narrow_u16(const u32* __restrict__ in, unsigned short* __restrict__ out,
                                                             u32 n) {
    narrow<unsigned short, ushort4>(in, out, n);
}
