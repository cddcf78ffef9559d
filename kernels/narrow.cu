// narrow.cu: narrowing a uint32 result before it crosses PCIe.
//
// narrow_u8 / narrow_u16: out[i] = min(in[i], all-ones of the narrow type),
// so unreached (0xFFFFFFFF) becomes all-ones and the host widens it back.
// A BFS's depths are below its level count: on kron:22 a 16 MB depth array
// crosses as 4 MB (the copy, not the traversal, was most of the wall time).
// A value that does not fit (all-ones or more, other than 0xFFFFFFFF) sets
// *overflow, and the host copies the array unnarrowed: the bound the host
// passes is a promise the device checks, never a silent clamp.
// Four elements per thread per trip (16-byte loads); in and out are
// cuMemAlloc'd (256-byte aligned).
#include "common.cuh"

template <typename N, typename N4>
__device__ __forceinline__ void narrow(const u32* __restrict__ in, N* __restrict__ out, u32 n,
                                       u32* overflow) {
    const u32 top = (u32)(N)~(N)0;  // all-ones of N
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    u64 stride = (u64)gridDim.x * blockDim.x;
    u64 n4 = n / 4;
    bool bad = false;
    for (u64 k = i; k < n4; k += stride) {
        uint4 v = ((const uint4*)in)[k];
        bad |= (v.x >= top && v.x != 0xFFFFFFFFu) | (v.y >= top && v.y != 0xFFFFFFFFu) |
               (v.z >= top && v.z != 0xFFFFFFFFu) | (v.w >= top && v.w != 0xFFFFFFFFu);
        N4 o;
        o.x = (N)min(v.x, top);
        o.y = (N)min(v.y, top);
        o.z = (N)min(v.z, top);
        o.w = (N)min(v.w, top);
        ((N4*)out)[k] = o;
    }
    for (u64 k = n4 * 4 + i; k < n; k += stride) {
        u32 v = in[k];
        bad |= v >= top && v != 0xFFFFFFFFu;
        out[k] = (N)min(v, top);
    }
    if (bad) *overflow = 1;
}

extern "C" __global__ void __launch_bounds__(256) narrow_u8(const u32* __restrict__ in, u8* __restrict__ out, u32 n, u32* overflow) {
    narrow<u8, uchar4>(in, out, n, overflow);
}

extern "C" __global__ void __launch_bounds__(256) narrow_u16(const u32* __restrict__ in, unsigned short* __restrict__ out, u32 n,
                                      u32* overflow) {
    narrow<unsigned short, ushort4>(in, out, n, overflow);
}
