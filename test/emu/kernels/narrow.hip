//===- narrow.hip - 16-bit integer and f16 math, f64 trig_preop ----------===//
//
// Ordinary HIP arithmetic on short, unsigned short and _Float16 that
// clang-22 lowers to the gfx9 16-bit VOP3 ops (v_add_i16/v_sub_i16 with
// clamp for saturating math, v_mad_legacy_u16 or v_mad_u16, v_min3/max3/
// med3 on 16-bit values, f16 division through v_div_fixup_f16, v_sin_f16,
// v_cos_f16, v_frexp_*_f16), the byte SADs and v_lerp_u8 through their
// builtins, __builtin_amdgcn_trig_preop (v_trig_preop_f64, the range
// reduction of the device library's f64 sin/cos/tan), and NaN-propagating
// maximum/minimum (gfx950's v_maximum3_f32, v_pk_maximum3_f16).
//
//===----------------------------------------------------------------------===//
#include "common.h"

// Per element 12 shorts: saturating add/sub (signed, unsigned), x * y + z,
// min/max/median of three (signed, unsigned), and a clamp to [z, 100] as
// max(min(...)), which LLVM also turns into v_med3.
KERNEL void i16_ops(const short *a, const short *b, const short *c, short *out,
                    int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  short x = a[i], y = b[i], z = c[i];
  unsigned short ux = x, uy = y, uz = z;
  short *o = out + 12 * i;
  o[0] = __builtin_elementwise_add_sat(x, y);
  o[1] = __builtin_elementwise_sub_sat(x, y);
  o[2] = (short)__builtin_elementwise_add_sat(ux, uy);
  o[3] = (short)__builtin_elementwise_sub_sat(ux, uy);
  o[4] = (short)(x * y + z);
  o[5] = (short)(ux * uy + uz);
  o[6] = __builtin_elementwise_min(__builtin_elementwise_min(x, y), z);
  o[7] = __builtin_elementwise_max(__builtin_elementwise_max(x, y), z);
  o[8] = __builtin_elementwise_max(__builtin_elementwise_min(x, y),
                                   __builtin_elementwise_min(__builtin_elementwise_max(x, y), z));
  o[9] = (short)__builtin_elementwise_min(__builtin_elementwise_min(ux, uy), uz);
  o[10] = (short)__builtin_elementwise_max(__builtin_elementwise_max(ux, uy), uz);
  o[11] = (short)__builtin_elementwise_max(__builtin_elementwise_min(ux, uy),
                                           __builtin_elementwise_min(__builtin_elementwise_max(ux, uy), uz));
}

// Per element 8 halves: x / y, sin x, cos x, frexp's mantissa, min and max
// of three, div_fixup(x, y, z) directly, and an eighth slot left untouched;
// plus frexp's exponent as an int.
KERNEL void f16_ops(const _Float16 *a, const _Float16 *b, const _Float16 *c,
                    _Float16 *out, int *exps, int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  _Float16 x = a[i], y = b[i], z = c[i];
  _Float16 *o = out + 8 * i;
  o[0] = x / y;
  o[1] = __builtin_elementwise_sin(x);
  o[2] = __builtin_elementwise_cos(x);
  int e;
  o[3] = __builtin_frexpf16(x, &e);
  exps[i] = e;
  o[4] = __builtin_elementwise_min(__builtin_elementwise_min(x, y), z);
  o[5] = __builtin_elementwise_max(__builtin_elementwise_max(x, y), z);
  o[6] = __builtin_amdgcn_div_fixuph(x, y, z);
}

// Per element 6 words: the byte SADs and the byte lerp on random words.
KERNEL void sad_ops(const unsigned *a, const unsigned *b, const unsigned *c,
                    unsigned *out, int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  unsigned x = a[i], y = b[i], z = c[i];
  unsigned *o = out + 6 * i;
  o[0] = __builtin_amdgcn_sad_u8(x, y, z);
  o[1] = __builtin_amdgcn_msad_u8(x, y, z);
  o[2] = __builtin_amdgcn_sad_hi_u8(x, y, z);
  o[3] = __builtin_amdgcn_sad_u16(x, y, z);
  o[4] = __builtin_amdgcn_lerp(x, y, z);
  o[5] = (x > y ? x - y : y - x) + z;
}

// Segments 0..2 of 2/pi for x, as the device library's f64 sin/cos reduce
// their argument.
KERNEL void trig_preop(const double *x, double *out, int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  for (int k = 0; k < 3; ++k)
    out[3 * i + k] = __builtin_amdgcn_trig_preop(x[i], k);
}

// NaN-propagating maximum/minimum (llvm.maximum/llvm.minimum) of three
// floats and of three half pairs: gfx950 has v_maximum3_f32,
// v_minimum3_f32 and v_pk_maximum3_f16/v_pk_minimum3_f16 for them, gfx942
// compares and selects.
KERNEL void fmaximum(const float *a, const float *b, const float *c,
                     const v2h *ha, const v2h *hb, const v2h *hc, float *out,
                     v2h *hout, int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  out[2 * i] = __builtin_elementwise_maximum(__builtin_elementwise_maximum(a[i], b[i]), c[i]);
  out[2 * i + 1] = __builtin_elementwise_minimum(__builtin_elementwise_minimum(a[i], b[i]), c[i]);
  hout[2 * i] = __builtin_elementwise_maximum(__builtin_elementwise_maximum(ha[i], hb[i]), hc[i]);
  hout[2 * i + 1] = __builtin_elementwise_minimum(__builtin_elementwise_minimum(ha[i], hb[i]), hc[i]);
}
