// ds_append / ds_consume through clang's builtins (both chips), and gfx950's
// v_prng_b32 and v_cvt_sr_bf16_f32 / v_cvt_sr_f16_f32 the same way
// (EmuTests.cpp, Append.*).
#include "common.h"

// One wave per workgroup, each with its own LDS counter starting at 10:
// lanes with an odd input append (all get the old 10), then every lane
// appends (10 + the odd count), then every lane consumes (that + 64); the
// counter ends at 10 + the odd count.
KERNEL void append_consume(const int *in, int *first, int *second, int *third,
                           int *final) {
  __shared__ int counter;
  unsigned t = tidX(), g = bidX() * 64 + t;
  if (t == 0)
    counter = 10;
  syncthreads();
  int a = -1;
  if (in[g] & 1)
    a = __builtin_amdgcn_ds_append(&counter);
  first[g] = a;
  second[g] = __builtin_amdgcn_ds_append(&counter);
  third[g] = __builtin_amdgcn_ds_consume(&counter);
  syncthreads();
  if (t == 0)
    final[bidX()] = counter;
}

#if defined(__gfx950__)
// v_prng_b32 of rnd, and x rounded stochastically with rnd to bf16 (low
// half) and to f16 (high half of the same word).
KERNEL void prng_sr(const float *x, const unsigned *rnd, unsigned *prng,
                    unsigned *sr) {
  unsigned g = bidX() * 64 + tidX();
  prng[g] = __builtin_amdgcn_prng_b32(rnd[g]);
  v2bf b = {};
  b = __builtin_amdgcn_cvt_sr_bf16_f32(b, x[g], rnd[g], false);
  v2h h = __builtin_bit_cast(v2h, __builtin_bit_cast(unsigned, b));
  h = __builtin_amdgcn_cvt_sr_f16_f32(h, x[g], rnd[g], true);
  sr[g] = __builtin_bit_cast(unsigned, h);
}
#endif
