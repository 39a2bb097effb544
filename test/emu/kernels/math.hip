//===- math.hip - Transcendental and correctly rounded f32/f64 math -------===//
//
// The raw hardware approximations (v_exp_f32, v_log_f32, v_rcp_f32,
// v_rsq_f32, v_sqrt_f32, v_sin_f32, v_cos_f32, v_rcp_f16, v_fract_f32,
// v_ldexp_f32, v_frexp_*) through __builtin_amdgcn_*, and IEEE division and
// square root, which clang expands into v_div_scale/v_div_fmas/v_div_fixup
// and a refined v_sqrt sequence that must be correctly rounded.
//
//===----------------------------------------------------------------------===//
#include "common.h"

// out[k * n + i]: k-th function of x[i] (the host's MathFns table order).
KERNEL void transcendental(const float *x, float *out, int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  float v = x[i];
  out[0 * n + i] = __builtin_amdgcn_exp2f(v);
  out[1 * n + i] = __builtin_amdgcn_logf(v);
  out[2 * n + i] = __builtin_amdgcn_rcpf(v);
  out[3 * n + i] = __builtin_amdgcn_rsqf(v);
  out[4 * n + i] = __builtin_amdgcn_sqrtf(v);
  // v_sin_f32/v_cos_f32 take revolutions (sin(2*pi*x)).
  out[5 * n + i] = __builtin_amdgcn_sinf(v);
  out[6 * n + i] = __builtin_amdgcn_cosf(v);
  out[7 * n + i] = __builtin_amdgcn_fractf(v);
  out[8 * n + i] = __builtin_amdgcn_ldexpf(v, (int)(i % 17) - 8);
  out[9 * n + i] = __builtin_amdgcn_frexp_mantf(v);
  out[10 * n + i] = (float)__builtin_amdgcn_frexp_expf(v);
}

// v_rcp_f16 and v_sqrt_f16 on the f16 rounding of x.
KERNEL void transcendental_f16(const _Float16 *x, _Float16 *out, int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  _Float16 v = x[i];
  out[i] = __builtin_amdgcn_rcph(v);
  out[n + i] = __builtin_amdgcn_sqrth(v);
}

// IEEE f32/f64 division and square root (not fast-math): correctly rounded,
// so the host result must match bit for bit.
KERNEL void ieee_div_sqrt(const float *a, const float *b, const double *da,
                          const double *db, float *q, float *s, double *dq,
                          double *ds, int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  q[i] = a[i] / b[i];
  s[i] = __builtin_sqrtf(__builtin_fabsf(a[i]));
  dq[i] = da[i] / db[i];
  ds[i] = __builtin_sqrt(__builtin_fabs(da[i]));
}
