//===- fp8.hip - FP8/BF8 conversions through clang's builtins ------------===//
//
// __builtin_amdgcn_cvt_f32_fp8/bf8 (every byte), cvt_pk_f32_fp8/bf8 (both
// words), cvt_pk_fp8/bf8_f32 (both words, keeping the other) and
// cvt_sr_fp8/bf8_f32 (into a byte of an old value), as clang-22 selects them
// for gfx942 (FNUZ formats) and gfx950 (OCP formats): v_cvt_f32_fp8 with
// SDWA byte selects, v_cvt_pk_f32_fp8 with SDWA WORD_1, and the VOP3
// conversions with op_sel. On gfx950 also the scaled builtins
// (__builtin_amdgcn_cvt_scalef32_*: v_cvt_scalef32_f32_fp8/bf8,
// pk_f32_fp8/bf8/fp4, pk_fp8/bf8/fp4_f32, sr_fp8/bf8_f32).
//
//===----------------------------------------------------------------------===//
#include "common.h"

// Per element: 16 floats (the 4 bytes of codes[i] as fp8 then as bf8, the
// two words as fp8 pairs, then as bf8 pairs, high word first) and 4 words
// (x, y packed as fp8 into word 0 of codes[i]; as bf8 into word 1 of that;
// x stochastically rounded to fp8 into byte 2 of codes[i], y to bf8 into
// byte 1, with the random bits rnd[i]).
KERNEL void fp8_cvt(const int *codes, const float *x, const float *y,
                    const int *rnd, float *fout, int *out, int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  int c = codes[i];
  float *f = fout + 16 * i;
  f[0] = __builtin_amdgcn_cvt_f32_fp8(c, 0);
  f[1] = __builtin_amdgcn_cvt_f32_fp8(c, 1);
  f[2] = __builtin_amdgcn_cvt_f32_fp8(c, 2);
  f[3] = __builtin_amdgcn_cvt_f32_fp8(c, 3);
  f[4] = __builtin_amdgcn_cvt_f32_bf8(c, 0);
  f[5] = __builtin_amdgcn_cvt_f32_bf8(c, 1);
  f[6] = __builtin_amdgcn_cvt_f32_bf8(c, 2);
  f[7] = __builtin_amdgcn_cvt_f32_bf8(c, 3);
  v2f p0 = __builtin_amdgcn_cvt_pk_f32_fp8(c, false);
  v2f p1 = __builtin_amdgcn_cvt_pk_f32_fp8(c, true);
  v2f q1 = __builtin_amdgcn_cvt_pk_f32_bf8(c, true);
  v2f q0 = __builtin_amdgcn_cvt_pk_f32_bf8(c, false);
  f[8] = p0.x;
  f[9] = p0.y;
  f[10] = p1.x;
  f[11] = p1.y;
  f[12] = q1.x;
  f[13] = q1.y;
  f[14] = q0.x;
  f[15] = q0.y;
  int *o = out + 4 * i;
  int w0 = __builtin_amdgcn_cvt_pk_fp8_f32(x[i], y[i], c, false);
  o[0] = w0;
  o[1] = __builtin_amdgcn_cvt_pk_bf8_f32(x[i], y[i], w0, true);
  o[2] = __builtin_amdgcn_cvt_sr_fp8_f32(x[i], rnd[i], c, 2);
  o[3] = __builtin_amdgcn_cvt_sr_bf8_f32(y[i], rnd[i], c, 1);
}

#if defined(__gfx950__)
typedef short v2s __attribute__((ext_vector_type(2)));

// gfx950's scaled conversions (v_cvt_scalef32_*), per element with the scale
// scale[i]: 8 floats (byte 1 of codes[i] as fp8, byte 2 as bf8, word 1 as
// an fp8 pair, byte 3 as an fp4 pair, word 0 as a bf8 pair) and 4 words (x, y
// packed as fp8 into word 0 and as bf8 into word 1 of zero; xf, yf (x and y
// clamped to +-1e6, NaN to -1e6) as fp4 into byte 2 of codes[i]; x
// stochastically rounded to fp8 into byte 3 of codes[i], y to bf8 into byte
// 0, with rnd[i]).
KERNEL void fp8_scaled(const int *codes, const float *x, const float *y,
                       const int *rnd, const float *scale, float *fout,
                       int *out, int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  int c = codes[i];
  float s = scale[i];
  float *f = fout + 8 * i;
  f[0] = __builtin_amdgcn_cvt_scalef32_f32_fp8(c, s, 1);
  f[1] = __builtin_amdgcn_cvt_scalef32_f32_bf8(c, s, 2);
  v2f p = __builtin_amdgcn_cvt_scalef32_pk_f32_fp8(c, s, true);
  v2f q = __builtin_amdgcn_cvt_scalef32_pk_f32_fp4(c, s, 3);
  v2f r = __builtin_amdgcn_cvt_scalef32_pk_f32_bf8(c, s, false);
  f[2] = p.x;
  f[3] = p.y;
  f[4] = q.x;
  f[5] = q.y;
  f[6] = r.x;
  f[7] = r.y;
  int *o = out + 4 * i;
  v2s w = {0, 0};
  w = __builtin_amdgcn_cvt_scalef32_pk_fp8_f32(w, x[i], y[i], s, false);
  w = __builtin_amdgcn_cvt_scalef32_pk_bf8_f32(w, x[i], y[i], s, true);
  o[0] = __builtin_bit_cast(int, w);
  float xf = __builtin_fminf(__builtin_fmaxf(x[i], -1e6f), 1e6f);
  float yf = __builtin_fminf(__builtin_fmaxf(y[i], -1e6f), 1e6f);
  o[1] = __builtin_amdgcn_cvt_scalef32_pk_fp4_f32(c, xf, yf, s, 2);
  o[2] = __builtin_amdgcn_cvt_scalef32_sr_fp8_f32(c, x[i], rnd[i], s, 3);
  o[3] = __builtin_amdgcn_cvt_scalef32_sr_bf8_f32(c, y[i], rnd[i], s, 0);
}
#endif
