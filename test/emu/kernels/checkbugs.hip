//===- checkbugs.hip - Deliberately broken kernels for check mode ---------===//
//
// Each kernel carries one bug of the kind hardware hides until a rare
// interleaving shows it; CheckTests.cpp runs them in check mode and expects
// the finding of the right class at the right instruction. The `_ok`
// variants are the fixed kernels and must run clean (no false positives on
// the same patterns).
//
//===----------------------------------------------------------------------===//
#include "common.h"

// Two waves share an LDS array with no barrier: wave 1 reads what wave 0
// writes. Launch: one workgroup of 128.
KERNEL void lds_race(int *out) {
  __shared__ int buf[64];
  unsigned t = tidX();
  if (t < 64)
    buf[t] = int(t) * 3;
  else
    out[t - 64] = buf[t - 64];
}

// The same with the barrier: clean.
KERNEL void lds_race_ok(int *out) {
  __shared__ int buf[64];
  unsigned t = tidX();
  if (t < 64)
    buf[t] = int(t) * 3;
  syncthreads();
  if (t >= 64)
    out[t - 64] = buf[t - 64];
}

// Fused producer/consumer (the all-gather + GEMM fetcher bug): workgroup 0
// stores a 256-element tile with all four waves, then wave 0 releases the
// ready flag at agent scope - without a workgroup barrier first, so the
// other waves' stores are not ordered before the release. Workgroup 1
// acquires the flag and reads the tile. Launch: 2 workgroups of 256.
template <bool Barrier>
__device__ static void producerConsumer(float *tile, int *flag, float *out) {
  unsigned t = tidX();
  if (bidX() == 0) {
    tile[t] = float(t) + 0.5f;
    if (Barrier)
      syncthreads();
    if (t == 0)
      __hip_atomic_store(flag, 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
  } else {
    if (t == 0)
      while (__hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT) == 0)
        __builtin_amdgcn_s_sleep(1);
    syncthreads();
    out[t] = tile[t] * 2.0f;
  }
}
KERNEL void release_no_barrier(float *tile, int *flag, float *out) {
  producerConsumer<false>(tile, flag, out);
}
KERNEL void release_with_barrier(float *tile, int *flag, float *out) {
  producerConsumer<true>(tile, flag, out);
}

// Barrier-count mismatch: wave 1 leaves the loop one iteration early, so
// wave 0 waits at a barrier wave 1 never reaches. Launch: one workgroup of
// 128, n >= 1.
KERNEL void barrier_mismatch(int *out, int n) {
  __shared__ int acc[128];
  unsigned t = tidX();
  int limit = t < 64 ? n : n - 1;
  acc[t] = 0;
  for (int i = 0; i < limit; ++i) {
    acc[t] += i;
    syncthreads();
  }
  out[t] = acc[t];
}

// A flag re-armed while a peer still spins on it (the multi-block attention
// bug): workgroup 0 publishes the flag and immediately resets it with a
// plain store, racing with workgroup 1's acquire loads; the peer gives up
// after a bounded spin so that the run ends. Launch: 2 workgroups of 64.
KERNEL void flag_reset_race(int *flag, int *out) {
  if (bidX() == 0) {
    if (tidX() == 0) {
      __hip_atomic_store(flag, 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
      *(volatile int *)flag; // keep the two stores apart
      flag[0] = 0;           // re-arm: a plain store
    }
  } else if (tidX() == 0) {
    int seen = 0;
    for (int i = 0; i < 200 && !seen; ++i)
      seen = __hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
    out[0] = seen;
  }
}

// Stores past the end of an allocation: a bad address. Launch: 1 x 64.
KERNEL void out_of_bounds(int *out, int offset) {
  out[tidX() + offset] = 1;
}

// Lane 63 reads buf[64], which nothing wrote: an uninitialised LDS read
// (reported only with --check=uninit). Launch: one workgroup of 64.
KERNEL void lds_uninit(int *out) {
  __shared__ int buf[65];
  unsigned t = tidX();
  buf[t] = int(t);
  syncthreads();
  out[t] = buf[t + 1];
}
