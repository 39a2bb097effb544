/* A C program that runs kcc's FP8 GEMM with 128-deep block scales through
 * the launcher `kcc --emit=launcher` wrote (gemm_fp8.h/.c: gfx950's e4m3fn
 * in, f32 out), linked with -lkcc_c only, and checks C exactly: the codes
 * are small integers and the scales powers of two, so every product, block
 * sum and scaled sum is exact in f32. Two K blocks with different scales per
 * row of A and per 128-row block of Bt: a scale applied to the wrong block
 * shows. */
#include "gemm_fp8.h"

#include <math.h>
#include <stdio.h>

#define M 70
#define N 150
#define K 256
#define KB (K / 128)
#define NB ((N + 127) / 128)

/* e4m3fn (OCP) codes of -3..3: sign, 4 exponent bits (bias 7), 3 mantissa. */
static uint8_t code(int v) {
  static const uint8_t mag[4] = {0x00, 0x38, 0x40, 0x44};
  return (uint8_t)(v < 0 ? 0x80 | mag[-v] : mag[v]);
}

int main(int argc, char **argv) {
  static uint8_t a[M * K], bt[N * K];
  static float sa[M * KB], sb[NB * KB], c[M * N];
  kcc_device *device;
  kcc_devptr da, db, dsa, dsb, dc;
  int i, j, k, wrong = 0;
  if (kcc_device_open(argc > 1 ? argv[1] : NULL, &device)) {
    fprintf(stderr, "open: %s\n", kcc_last_error());
    return 1;
  }
  for (i = 0; i < M * K; ++i)
    a[i] = code(i % 7 - 3);
  for (i = 0; i < N * K; ++i)
    bt[i] = code(i % 5 - 2);
  for (i = 0; i < M * KB; ++i)
    sa[i] = ldexpf(1.0f, i % 5 - 2);
  for (i = 0; i < NB * KB; ++i)
    sb[i] = ldexpf(1.0f, 3 - 2 * i);
  if (kcc_malloc(device, sizeof a, &da) || kcc_malloc(device, sizeof bt, &db) ||
      kcc_malloc(device, sizeof sa, &dsa) || kcc_malloc(device, sizeof sb, &dsb) ||
      kcc_malloc(device, sizeof c, &dc) || kcc_memcpy_to_device(device, da, a, sizeof a) ||
      kcc_memcpy_to_device(device, db, bt, sizeof bt) ||
      kcc_memcpy_to_device(device, dsa, sa, sizeof sa) ||
      kcc_memcpy_to_device(device, dsb, sb, sizeof sb)) {
    fprintf(stderr, "memory: %s\n", kcc_last_error());
    return 1;
  }
  /* 128x128 workgroup tiles of four waves; the bias pointer is never read. */
  kcc_dim3 grid = {(M + 127) / 128, (N + 127) / 128, 1}, block = {256, 1, 1};
  if (gemm_fp8_gemm_q8_launch(device, 0, grid, block, da, db, dc, dsa, dsb, da, M, N, K, K, K,
                               N) ||
      kcc_memcpy_to_host(device, c, dc, sizeof c)) {
    fprintf(stderr, "launch: %s\n", kcc_last_error());
    return 1;
  }
  for (i = 0; i < M; ++i)
    for (j = 0; j < N; ++j) {
      float ref = 0;
      int q;
      for (q = 0; q < KB; ++q) {
        float blk = 0;
        for (k = q * 128; k < q * 128 + 128; ++k)
          blk += (float)((i * K + k) % 7 - 3) * (float)((j * K + k) % 5 - 2);
        ref += blk * sa[i * KB + q] * sb[(j / 128) * KB + q];
      }
      wrong += c[i * N + j] != ref;
    }
  printf("%s on %s (%s): %d of %d wrong: %s\n", "gemm_fp8_gemm_q8_launch",
         kcc_device_spec(device), kcc_device_chip(device), wrong, M * N,
         wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
