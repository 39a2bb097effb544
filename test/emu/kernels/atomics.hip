//===- atomics.hip - Global and LDS atomics --------------------------------===//
//
// Global atomics at agent scope (add u32/u64/f32, max, min, or, cmpswap,
// exchange) and LDS atomics (add, max, f32 add, cmpswap) from many waves of
// many workgroups. The host checks results that hold for every interleaving:
// final values, and the returned old values where they form a permutation.
// Compiled with -munsafe-fp-atomics so f32 add is global_atomic_add_f32, not
// a compare-and-swap loop.
//
//===----------------------------------------------------------------------===//
#include "common.h"

#define AGENT __HIP_MEMORY_SCOPE_AGENT
#define WG __HIP_MEMORY_SCOPE_WORKGROUP

KERNEL void global_atomics(const int *val, unsigned *sum32,
                           unsigned long long *sum64, float *fsum, int *imax,
                           unsigned *umin, unsigned long long *bits,
                           unsigned *addOld, int n) {
  int i = bidX() * 256 + tidX();
  if (i >= n)
    return;
  int v = val[i];
  // 7 counters so that lanes of one wave hit the same address.
  addOld[i] = __hip_atomic_fetch_add(&sum32[i % 7], (unsigned)v,
                                     __ATOMIC_RELAXED, AGENT);
  __hip_atomic_fetch_add(sum64, (unsigned long long)v << 20, __ATOMIC_RELAXED,
                         AGENT);
  // Small integers: every order of f32 additions is exact.
  __hip_atomic_fetch_add(&fsum[i % 3], (float)(v % 1024), __ATOMIC_RELAXED,
                         AGENT);
  __hip_atomic_fetch_max(imax, v - 500000, __ATOMIC_RELAXED, AGENT);
  __hip_atomic_fetch_min(umin, (unsigned)v, __ATOMIC_RELAXED, AGENT);
  __hip_atomic_fetch_or(bits, 1ull << (i % 64), __ATOMIC_RELAXED, AGENT);
}

// cmpswap: every work-item tries to claim slot i % slots (0 -> i + 1);
// exactly one per slot may see 0. exchange: the chain of returned values plus
// the final value is a permutation of 0..n.
KERNEL void cas_xchg(unsigned *slots, int nslots, unsigned *won,
                     unsigned *xchg, unsigned *xchgOld, int n) {
  int i = bidX() * 256 + tidX();
  if (i >= n)
    return;
  unsigned expected = 0;
  bool ok = __hip_atomic_compare_exchange_strong(
      &slots[i % nslots], &expected, (unsigned)i + 1, __ATOMIC_RELAXED,
      __ATOMIC_RELAXED, AGENT);
  won[i] = ok ? 1u : 0u;
  xchgOld[i] = __hip_atomic_exchange(xchg, (unsigned)i + 1, __ATOMIC_RELAXED,
                                     AGENT);
}

// LDS atomics: a 16-bin histogram (ds_add), a max, an f32 sum and a cmpswap
// claim, then the results are written out per workgroup.
KERNEL void lds_atomics(const int *val, unsigned *hist, int *mx, float *fs,
                        unsigned *claim) {
  __shared__ unsigned h[16];
  __shared__ int m;
  __shared__ float f;
  __shared__ unsigned c;
  unsigned t = tidX();
  if (t < 16)
    h[t] = 0;
  if (t == 0) {
    m = -2147483647 - 1;
    f = 0.0f;
    c = 0;
  }
  syncthreads();
  int v = val[bidX() * 256 + t];
  __hip_atomic_fetch_add(&h[v & 15], 1u, __ATOMIC_RELAXED, WG);
  __hip_atomic_fetch_max(&m, v, __ATOMIC_RELAXED, WG);
  __hip_atomic_fetch_add(&f, (float)(v & 255), __ATOMIC_RELAXED, WG);
  unsigned expected = 0;
  __hip_atomic_compare_exchange_strong(&c, &expected, t + 1, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED, WG);
  syncthreads();
  if (t < 16)
    hist[bidX() * 16 + t] = h[t];
  if (t == 0) {
    mx[bidX()] = m;
    fs[bidX()] = f;
    claim[bidX()] = c;
  }
}
