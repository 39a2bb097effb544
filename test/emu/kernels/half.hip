//===- half.hip - f16 and bf16 arithmetic and conversions -----------------===//
//
// Scalar and packed (v_pk_*) f16 math, f32<->f16 and f32<->bf16 conversions
// (gfx950 has v_cvt_pk_bf16_f32; gfx942 rounds to bf16 with integer VALU), and
// bf16 arithmetic done in f32 and rounded back.
//
//===----------------------------------------------------------------------===//
#include "common.h"

// Packed f16: one work-item handles two halves through v2h operations.
KERNEL void pk_f16(const v2h *a, const v2h *b, const v2h *c, v2h *fma,
                   v2h *mul, v2h *add, v2h *mx, int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  v2h x = a[i], y = b[i], z = c[i];
  fma[i] = __builtin_elementwise_fma(x, y, z);
  mul[i] = x * y;
  add[i] = x + y;
  mx[i] = __builtin_elementwise_max(x, y);
}

// Scalar f16 and conversions. out32 receives f16->f32 of a product computed in
// f16 (v_mul_f16, v_cvt_f32_f16); h receives the f32->f16 rounding of f
// (v_cvt_f16_f32, round to nearest even); hfma is v_fma_f16.
KERNEL void cvt_f16(const float *f, const _Float16 *a, const _Float16 *b,
                    _Float16 *h, float *out32, _Float16 *hfma, int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  h[i] = (_Float16)f[i];
  out32[i] = (float)(a[i] * b[i]);
  hfma[i] = __builtin_fmaf16(a[i], b[i], h[i]);
}

// bf16: f32 -> bf16 round to nearest even (NaN stays NaN), pairs packed into
// one dword as v_cvt_pk_bf16_f32 does on gfx950; bf16 add/mul are computed in
// f32 and rounded once.
KERNEL void cvt_bf16(const float *f, const __bf16 *a, const __bf16 *b,
                     v2bf *packed, __bf16 *sum, __bf16 *prod, float *widened,
                     int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  v2bf p;
  p.x = (__bf16)f[2 * i];
  p.y = (__bf16)f[2 * i + 1];
  packed[i] = p;
  sum[i] = a[i] + b[i];
  prod[i] = a[i] * b[i];
  widened[i] = (float)a[i];
}
