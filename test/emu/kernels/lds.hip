//===- lds.hip - LDS tiling with barriers ---------------------------------===//
//
// A tiled transpose (32x33 padded tile, 2-D blocks of 32x8 work-items, four
// rows per work-item) and a tiled f32 matmul (16x16 tiles, two barriers per
// K step), both through static LDS, and a reversal through dynamic LDS sized
// at launch. The writes of one wave are read by other waves after a
// barrier, so the emulator's LDS sharing and barrier are what is tested.
//
//===----------------------------------------------------------------------===//
#include "common.h"

// out (cols x rows) = transpose of in (rows x cols); grid (cols/32, rows/32),
// block (32, 8).
KERNEL void transpose(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[32][33];
  unsigned tx = tidX(), ty = tidY();
  unsigned x = bidX() * 32 + tx;
  for (unsigned r = ty; r < 32; r += 8)
    tile[r][tx] = in[(bidY() * 32 + r) * cols + x];
  syncthreads();
  unsigned ox = bidY() * 32 + tx;
  for (unsigned r = ty; r < 32; r += 8)
    out[(bidX() * 32 + r) * rows + ox] = tile[tx][r];
}

// c (m x n) = a (m x k) * b (k x n), row-major; grid (n/16, m/16), block
// (16, 16); k a multiple of 16.
KERNEL void matmul(const float *a, const float *b, float *c, int m, int n,
                   int k) {
  __shared__ float as[16][16];
  __shared__ float bs[16][16];
  unsigned tx = tidX(), ty = tidY();
  unsigned row = bidY() * 16 + ty, col = bidX() * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += 16) {
    as[ty][tx] = a[row * k + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * n + col];
    syncthreads();
    for (int kk = 0; kk < 16; ++kk)
      acc += as[ty][kk] * bs[kk][tx];
    syncthreads();
  }
  c[row * n + col] = acc;
}

// Dynamic LDS: the block writes in[] into LDS and reads it back reversed, so
// each value crosses from one wave to another.
extern __shared__ int dynLds[];
KERNEL void reverse_dynamic(const int *in, int *out) {
  unsigned t = tidX(), n = blockDimX();
  dynLds[t] = in[bidX() * n + t];
  syncthreads();
  out[bidX() * n + t] = dynLds[n - 1 - t];
}
