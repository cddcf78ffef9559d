// Stand-ins so g++ can compile CUDA device code and run it with one
// std::thread per CUDA thread (blocks one after another); only what the
// kernels under test and common.cuh need. Not a CUDA emulator: no warps,
// no concurrency between blocks.
#pragma once
#include <algorithm>
#include <barrier>
#include <cstdint>
#define __global__
#define __device__
#define __host__
#define __shared__ static
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
struct uint4 { unsigned int x, y, z, w; };
struct uchar4 { unsigned char x, y, z, w; };
struct ushort4 { unsigned short x, y, z, w; };
struct dim3v { unsigned int x, y, z; };
extern thread_local dim3v threadIdx;
#ifdef CPUEMU_GRID
// grid.h runs a grid's blocks at once (for grid barriers): each thread
// knows its block and the block's barrier.
extern thread_local dim3v blockIdx;
extern thread_local std::barrier<>* g_bar;
extern dim3v blockDim, gridDim;
#else
extern dim3v blockIdx, blockDim, gridDim;
extern std::barrier<>* g_bar;
#endif
inline uint4 make_uint4(unsigned a, unsigned b, unsigned c, unsigned d) { return uint4{a, b, c, d}; }
inline void __syncthreads() { g_bar->arrive_and_wait(); }
inline int __viaddmin_s32(const int a, const int b, const int c) { return std::min(a + b, c); }
inline unsigned int __viaddmin_s16x2(const unsigned int a, const unsigned int b, const unsigned int c) {
    unsigned out = 0;
    for (int h = 0; h < 32; h += 16) {
        int16_t x = (int16_t)(uint16_t)(a >> h), y = (int16_t)(uint16_t)(b >> h), z = (int16_t)(uint16_t)(c >> h);
        int16_t s = (int16_t)(x + y);
        out |= (unsigned)(uint16_t)std::min(s, z) << h;
    }
    return out;
}
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
    uint64_t v = ((uint64_t)y << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++) r |= (unsigned)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xFF) << (8 * i);
    return r;
}
unsigned int __ballot_sync(unsigned int, bool);
unsigned int __shfl_sync(unsigned int, unsigned int, int);
unsigned long long __shfl_down_sync(unsigned int, unsigned long long, int);
unsigned int __shfl_down_sync(unsigned int, unsigned int, int);
int __ffs(unsigned int);
unsigned int __shfl_up_sync(unsigned int, unsigned int, int);
unsigned long long __shfl_up_sync(unsigned int, unsigned long long, int);
unsigned long long __shfl_sync(unsigned int, unsigned long long, int);
int __popc(unsigned int);
unsigned int atomicAdd(unsigned int*, unsigned int);
unsigned long long atomicAdd(unsigned long long*, unsigned long long);
unsigned int atomicMin(unsigned int*, unsigned int);
unsigned long long atomicMax(unsigned long long*, unsigned long long);
unsigned long long atomicMin(unsigned long long*, unsigned long long);
unsigned int atomicMax(unsigned int*, unsigned int);
using std::max;
using std::min;
