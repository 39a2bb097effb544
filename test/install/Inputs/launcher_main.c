/* A C program (no C++ in it) that runs kcc's GEMM through the launcher
 * `kcc --emit=launcher` wrote (gemm_bf16.h/.c: bf16 in, f32 out, 64x64
 * workgroup tiles, gfx950), linked with -lkcc_c only, and checks
 * C = A * Bt^T exactly (small integers). Then the launch errors a C caller
 * sees: a wrong block and another chip's device. */
#include "gemm_bf16.h"

#include <stdio.h>
#include <string.h>

static uint16_t bf16(float f) { /* exact for the small integers used here */
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)(u >> 16);
}

#define M 70
#define N 50
#define K 40

int main(int argc, char **argv) {
  static uint16_t a[M * K], bt[N * K], bias[N];
  static float c[M * N];
  kcc_device *device, *other;
  kcc_devptr da, db, dc, dbias;
  int i, j, k, wrong = 0;
  if (kcc_device_open(argc > 1 ? argv[1] : NULL, &device)) {
    fprintf(stderr, "open: %s\n", kcc_last_error());
    return 1;
  }
  for (i = 0; i < M * K; ++i)
    a[i] = bf16((float)(i % 7) - 3);
  for (i = 0; i < N * K; ++i)
    bt[i] = bf16((float)(i % 5) - 2);
  if (kcc_malloc(device, sizeof a, &da) || kcc_malloc(device, sizeof bt, &db) ||
      kcc_malloc(device, sizeof c, &dc) || kcc_malloc(device, sizeof bias, &dbias) ||
      kcc_memcpy_to_device(device, da, a, sizeof a) ||
      kcc_memcpy_to_device(device, db, bt, sizeof bt) ||
      kcc_memcpy_to_device(device, dbias, bias, sizeof bias)) {
    fprintf(stderr, "memory: %s\n", kcc_last_error());
    return 1;
  }
  kcc_dim3 grid = {(M + 63) / 64, (N + 63) / 64, 1}, block = {256, 1, 1};
  if (gemm_bf16_gemm_launch(device, 0, grid, block, da, db, dc, dbias, M, N, K,
                            K, K, N) ||
      kcc_memcpy_to_host(device, c, dc, sizeof c)) {
    fprintf(stderr, "launch: %s\n", kcc_last_error());
    return 1;
  }
  for (i = 0; i < M; ++i)
    for (j = 0; j < N; ++j) {
      float ref = 0;
      for (k = 0; k < K; ++k)
        ref += (float)((i * K + k) % 7 - 3) * (float)((j * K + k) % 5 - 2);
      wrong += c[i * N + j] != ref;
    }
  printf("%s on %s (%s): %d of %d wrong: %s\n", "gemm_bf16_gemm_launch",
         kcc_device_spec(device), kcc_device_chip(device), wrong, M * N,
         wrong ? "FAIL" : "PASS");

  kcc_dim3 bad = {100, 1, 1};
  if (gemm_bf16_gemm_launch(device, 0, grid, bad, da, db, dc, dbias, M, N, K,
                            K, K, N) == 0)
    return 1;
  printf("wrong block: %s\n", kcc_last_error());
  if (kcc_device_open("emu:gfx942", &other) == 0 &&
      gemm_bf16_gemm_launch(other, 0, grid, block, 0, 0, 0, 0, M, N, K, K, K,
                            N) == 0)
    return 1;
  printf("other chip: %s\n", kcc_last_error());
  return wrong ? 1 : 0;
}
