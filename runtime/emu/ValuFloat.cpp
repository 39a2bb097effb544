//===- ValuFloat.cpp - VALU f32 and f64 arithmetic ------------------------===//
//
// The f32 and f64 arithmetic of the vector ALU: add, multiply, fma and mad
// (with the FMA-cloned fast path of v_fma_f32), min/max/med3 in IEEE mode and
// the IEEE 754-2019 maximum/minimum, rounding to integral values, frexp and
// ldexp, and the division helpers v_div_scale/v_div_fmas/v_div_fixup.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Valu.h"

#include "llvm/ADT/APFloat.h"

namespace kcc::emu {

/// The FMA-cloned loop declared in Valu.h: r = fma(a ^ na, b ^ nb, c ^ nc)
/// over 64 lanes.
__attribute__((target_clones("fma", "default"))) void
valu::fmaLanes(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *r,
               uint32_t na, uint32_t nb, uint32_t nc) {
  for (int l = 0; l < kLanes; ++l)
    r[l] = asU(__builtin_fmaf(asF(a[l] ^ na), asF(b[l] ^ nb), asF(c[l] ^ nc)));
}

namespace {

using namespace valu;

//===----------------------------------------------------------------------===//
// f32 helpers
//===----------------------------------------------------------------------===//

/// IEEE 754-2019 maximum/minimum (gfx950's V_MAXIMUM3_F32 and V_MINIMUM3_F32,
/// which LLVM selects for llvm.maximum/llvm.minimum; the f16 forms are in
/// ValuPacked.cpp): a NaN operand gives a quiet NaN (the first NaN,
/// quieted), and -0 orders below +0. The 3-operand form is the 2-operand op
/// applied twice.
uint32_t maximumF32(uint32_t a, uint32_t b, bool isMax) {
  float x = asF(a), y = asF(b);
  if (std::isnan(x)) return a | 0x400000u;
  if (std::isnan(y)) return b | 0x400000u;
  if (x == y) // equal values; only the zeros' signs can differ
    return isMax ? (std::signbit(x) ? b : a) : (std::signbit(x) ? a : b);
  return (isMax ? x > y : x < y) ? a : b;
}
uint32_t maximum3F32(uint32_t a, uint32_t b, uint32_t c, bool isMax) {
  return maximumF32(maximumF32(a, b, isMax), c, isMax);
}

/// v_fract_f32: x - floor(x), at most the largest f32 below 1; inf gives NaN.
float fractF(float x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return std::numeric_limits<float>::quiet_NaN();
  return std::fmin(x - std::floor(x), 0x1.fffffep-1f);
}
float mad(float a, float b, float c) {
  volatile float p = a * b; // the multiply rounds before the add (v_mad)
  return p + c;
}
// V_MED3_F32 as the CDNA3 pseudocode defines it: with a NaN operand the
// result is V_MIN3_F32 of the three (med3(NaN, 2, 1) = 1; LLVM folds
// fmed3(NaN, x, y) to minnum(x, y)), else the V_MAX_F32 of the two operands
// other than the first one equal (==, so -0 == +0) to V_MAX3_F32.
float med3(float a, float b, float c) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(c))
    return fminIeee(fminIeee(a, b), c);
  float m = fmaxIeee(fmaxIeee(a, b), c);
  if (m == a)
    return fmaxIeee(b, c);
  if (m == b)
    return fmaxIeee(a, c);
  return fmaxIeee(a, b);
}

// v_div_scale_f32 per the ISA pseudocode (CDNA3 guide, VOP3A opcodes):
// operands whose quotient would overflow, underflow or whose reciprocal would
// be denormal are scaled by 2^+-64; VCC tells v_div_fmas to undo the scale.
float divScale(float s0, float s1, float s2, bool &vcc) {
  vcc = false;
  if (s2 == 0.0f || s1 == 0.0f)
    return std::numeric_limits<float>::quiet_NaN();
  if (exponentOf(s2) - exponentOf(s1) >= 96) {
    vcc = true;
    return s0 == s1 ? std::ldexp(s0, 64) : s0;
  }
  if (isDenorm(s1))
    return std::ldexp(s0, 64);
  // Two departures from the guide's pseudocode, both needed for LLVM's f32
  // division (v_div_scale, v_rcp, fma refinement, v_div_fmas, v_div_fixup)
  // to be correctly rounded over the whole range, as LLVM documents it and
  // kcc-emu-fuzz checks (FuzzRegressionTests.cpp has the inputs):
  // - A quotient counts as denormal when it lies below the normal range,
  //   also where an f32 division would round it to zero; else a tiny
  //   numerator over a huge divisor (1e-33 / 6.4e27) took the "numerator is
  //   tiny" case, whose 2^64 overflows the divisor (the result was inf).
  // - A divisor whose reciprocal is denormal and whose quotient is too is
  //   scaled by 2^-64 (the guide writes 2^64, which sent 3.4e38 to inf and
  //   1 / 3.4e38 with it); v_div_fmas then undoes it with its own 2^-64
  //   (VCC set, a small quotient), which only a 2^-64 here matches. The
  //   reciprocal is classified as the f32 it becomes (the guide's "DENORM.
  //   f64" would leave v_rcp a denormal reciprocal with too few bits: 4 /
  //   3.4e38 was an ulp off).
  bool invDenorm = std::fabs(1.0 / double(s1)) < double(std::numeric_limits<float>::min());
  bool quotDenorm =
      std::fabs(double(s2) / double(s1)) < double(std::numeric_limits<float>::min());
  if (invDenorm && quotDenorm) {
    vcc = true;
    return s0 == s1 ? std::ldexp(s0, -64) : s0;
  }
  if (invDenorm)
    return std::ldexp(s0, -64);
  if (quotDenorm) {
    vcc = true;
    return s0 == s2 ? std::ldexp(s0, 64) : s0;
  }
  if (exponentOf(s2) <= 23)
    return std::ldexp(s0, 64);
  return s0;
}

float divFixup(float q, float den, float num) {
  bool signOut = std::signbit(den) != std::signbit(num);
  if (std::isnan(num)) return quietNaN(num);
  if (std::isnan(den)) return quietNaN(den);
  if (den == 0 && num == 0) return asF(0xffc00000u);
  if (std::isinf(den) && std::isinf(num)) return asF(0xffc00000u);
  if (den == 0 || std::isinf(num))
    return signOut ? -INFINITY : INFINITY;
  if (std::isinf(den) || num == 0)
    return signOut ? -0.0f : 0.0f;
  // A NaN quotient left at this point is an overflow of the scaled
  // iteration: the result is an infinity.
  if (std::isnan(q))
    return signOut ? -INFINITY : INFINITY;
  return signOut ? -std::fabs(q) : std::fabs(q);
}

//===----------------------------------------------------------------------===//
// f32 operations
//===----------------------------------------------------------------------===//

F32_2(AddF32, a + b)
F32_2(SubF32, a - b)
F32_2(SubrevF32, b - a)
F32_2(MulF32, a * b)
F32_2(MulLegacyF32, (a == 0 || b == 0) ? 0.0f : a * b)
F32_3(FmaF32, std::fma(a, b, c))

/// v_fma_f32 / v_fmac_f32 without DPP/SDWA/abs/clamp/omod: the common case,
/// through the FMA-cloned loop.
void fmaF32(Wave &w, const Inst &in) {
  bool simple = !(in.form & (kFormDpp | kFormSdwa)) && !in.clamp && !in.omod &&
                !((in.src[0].mods | in.src[1].mods | in.src[2].mods) & kModAbs);
  if (!simple) {
    vop<FmaF32>(w, in);
    return;
  }
  alignas(64) uint32_t b0[kLanes], b1[kLanes], b2[kLanes], r[kLanes];
  const uint32_t *a = lanes(w, in.src[0], b0), *b = lanes(w, in.src[1], b1);
  const uint32_t *c = in.nsrc >= 3 ? lanes(w, in.src[2], b2) : w.row(in.dst[0].reg);
  auto neg = [&](unsigned i) {
    return i < in.nsrc && (in.src[i].mods & kModNeg) ? 0x80000000u : 0u;
  };
  fmaLanes(a, b, c, r, neg(0), neg(1), neg(2));
  writeMasked(w.row(in.dst[0].reg), r, w.exec());
}

F32_3(MadF32, mad(a, b, c))
F32_2(MaxF32, fmaxIeee(a, b))
F32_2(MinF32, fminIeee(a, b))
F32_3(Max3F32, fmaxIeee(fmaxIeee(a, b), c))
F32_3(Min3F32, fminIeee(fminIeee(a, b), c))
F32_3(Med3F32, med3(a, b, c))
VOP_OP(Maximum3F32, F32, F32, F32, 3, return maximum3F32(ua, ub, uc, true);)
VOP_OP(Minimum3F32, F32, F32, F32, 3, return maximum3F32(ua, ub, uc, false);)
F32_1(FloorF32, std::floor(a))
F32_1(CeilF32, std::ceil(a))
F32_1(TruncF32, std::trunc(a))
F32_1(RndneF32, rndne(a))
F32_1(FractF32, fractF(a))
F32_1(FrexpMantF32, frexpMant(a))
VOP_OP(FrexpExpF32, F32, F32, B32, 1, return uint32_t(frexpExp(asF(ua)));)
VOP_OP(LdexpF32, F32, B32, F32, 2, return asU(std::ldexp(asF(ua), int32_t(ub)));)
F32_3(DivFixupF32, divFixup(a, b, c))

void divScaleF32(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t b0[kLanes], b1[kLanes], b2[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::F32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::F32, b1);
  const uint32_t *c = fetchSrc(w, in, 2, Ty::F32, b2);
  uint64_t vcc = 0;
  for (int l = 0; l < kLanes; ++l) {
    bool v;
    r[l] = asU(divScale(asF(a[l]), asF(b[l]), asF(c[l]), v));
    vcc |= uint64_t(v) << l;
  }
  writeMasked(w.row(in.dst[0].reg), r, exec);
  writeMask(w, maskDst(in, 1), vcc & exec);
}

/// 2^scale * (a * b + c) rounded once to `sem` (IEEEsingle or IEEEdouble),
/// as v_div_fmas computes it. The division sequence hands it a quotient
/// whose correction lands next to half an ulp, so the rounding must see
/// every bit: rounding the fma first and the scaled value again missed by
/// an ulp where the scale took the quotient into the denormal range (1.5e-70
/// / 2.1e238), and so did an exact product summed in binary128 (2^63 /
/// -1.3e-284: the bits past 113 decided the tie). The fma is computed in
/// binary128 rounded to odd (toward zero, then the last bit set when
/// inexact), which keeps a single rounding exact for any format of at most
/// 111 bits; the scale is exact in binary128's range (found by
/// kcc-emu-fuzz; FuzzRegressionTests.cpp).
static llvm::APFloat scaledFma(double a, double b, double c, int scale,
                               const llvm::fltSemantics &sem) {
  using llvm::APFloat;
  const llvm::fltSemantics &quad = APFloat::IEEEquad();
  bool lost;
  auto wide = [&](double v) {
    APFloat x(v);
    x.convert(quad, APFloat::rmNearestTiesToEven, &lost); // exact
    return x;
  };
  APFloat x = wide(a);
  APFloat::opStatus status = x.fusedMultiplyAdd(wide(b), wide(c), APFloat::rmTowardZero);
  if ((status & APFloat::opInexact) && x.isFiniteNonZero()) {
    llvm::APInt bits = x.bitcastToAPInt();
    bits.setBit(0);
    x = APFloat(quad, bits);
  }
  x = llvm::scalbn(x, scale, APFloat::rmNearestTiesToEven);
  x.convert(sem, APFloat::rmNearestTiesToEven, &lost);
  return x;
}

void divFmasF32(Wave &w, const Inst &in) {
  uint64_t exec = w.exec(), vcc = w.vcc();
  alignas(64) uint32_t b0[kLanes], b1[kLanes], b2[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::F32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::F32, b1);
  const uint32_t *c = fetchSrc(w, in, 2, Ty::F32, b2);
  for (int l = 0; l < kLanes; ++l) {
    float x = std::fma(asF(a[l]), asF(b[l]), asF(c[l]));
    if ((vcc >> l) & 1)
      x = scaledFma(asF(a[l]), asF(b[l]), asF(c[l]), exponentOf(asF(c[l])) > 127 ? 64 : -64,
                    llvm::APFloat::IEEEsingle())
              .convertToFloat();
    r[l] = asU(x);
  }
  writeResult(w, in, r, Ty::F32, exec);
}

/// v_fmamk_f32 (D = S0 * K + S1) and v_fmaak_f32 (D = S0 * S1 + K), and the
/// unfused v_madmk/v_madak. K is a literal the MC operand list carries as a
/// control immediate.
enum KOp : uint16_t { FmaMk, FmaAk, MadMk, MadAk };
void fmaK(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::F32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::F32, b1);
  float k = asF(uint32_t(in.nctrl ? in.ctrl[0] : 0));
  for (int l = 0; l < kLanes; ++l) {
    float x = asF(a[l]), y = asF(b[l]);
    switch (KOp(in.op)) {
    case FmaMk: r[l] = asU(std::fma(x, k, y)); break;
    case FmaAk: r[l] = asU(std::fma(x, y, k)); break;
    case MadMk: r[l] = asU(mad(x, k, y)); break;
    case MadAk: r[l] = asU(mad(x, y, k)); break;
    }
  }
  writeMasked(w.row(in.dst[0].reg), r, exec);
}

//===----------------------------------------------------------------------===//
// f64 operations
//===----------------------------------------------------------------------===//

/// v_fract_f64: x - floor(x), at most the largest f64 below 1; inf gives NaN.
double fractD(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return std::numeric_limits<double>::quiet_NaN();
  return std::fmin(x - std::floor(x), 0x1.fffffffffffffp-1);
}

F64_2(AddF64, x + y)
F64_2(MulF64, x * y)
F64_2(MaxF64, fmaxIeee64(x, y))
F64_2(MinF64, fminIeee64(x, y))
OP64(FmaF64, 3, 2, 2, 2, true, return asU64(std::fma(asD(a), asD(b), asD(c)));)
// v_fmac_f64: the accumulator is the destination (MC lists it as a tied
// third source).
using FmacF64 = FmaF64;
F64_1(FloorF64, std::floor(x))
F64_1(CeilF64, std::ceil(x))
F64_1(TruncF64, std::trunc(x))
F64_1(RndneF64, std::nearbyint(x))
F64_1(FractF64, fractD(x))
OP64(FrexpMantF64, 1, 2, 2, 2, true, {
  double x = asD(a);
  if (std::isnan(x) || std::isinf(x)) return a;
  int e;
  return asU64(std::frexp(x, &e));
})
OP64(FrexpExpF64, 1, 2, 2, 2, true, {
  double x = asD(a);
  if (std::isnan(x) || std::isinf(x)) return 0;
  int e;
  std::frexp(x, &e);
  return uint32_t(e);
})
OP64(LdexpF64, 2, 2, 1, 1, true, return asU64(std::ldexp(asD(a), int32_t(uint32_t(b))));)
OP64(DivFixupF64, 3, 2, 2, 2, true, {
  double q = asD(a), den = asD(b), num = asD(c);
  bool signOut = std::signbit(den) != std::signbit(num);
  if (std::isnan(num)) return c | (1ull << 51);
  if (std::isnan(den)) return b | (1ull << 51);
  if ((den == 0 && num == 0) || (std::isinf(den) && std::isinf(num)))
    return 0xfff8000000000000ull;
  if (den == 0 || std::isinf(num)) return asU64(signOut ? -INFINITY : INFINITY);
  if (std::isinf(den) || num == 0) return asU64(signOut ? -0.0 : 0.0);
  if (std::isnan(q)) return asU64(signOut ? -INFINITY : INFINITY);
  return asU64(signOut ? -std::fabs(q) : std::fabs(q));
})

void divScaleF64(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  Wide a, b, c, r;
  fetch64(w, in, 0, true, true, a);
  fetch64(w, in, 1, true, true, b);
  fetch64(w, in, 2, true, true, c);
  uint64_t vcc = 0;
  auto expo = [](double x) { return int((asU64(x) >> 52) & 0x7ff); };
  // Whether s2 / s1 lies below the normal range, also where an f64 division
  // would round it to zero (see divScale; long double's exponent range
  // holds every quotient of two doubles).
  auto quotDenorm = [](double s2, double s1) {
    return std::fabs((long double)s2 / (long double)s1) <
           (long double)std::numeric_limits<double>::min();
  };
  const double dmin = std::numeric_limits<double>::min();
  for (int l = 0; l < kLanes; ++l) {
    double s0 = asD(a.v[l]), s1 = asD(b.v[l]), s2 = asD(c.v[l]), d = s0;
    bool v = false;
    if (s2 == 0 || s1 == 0) {
      d = std::numeric_limits<double>::quiet_NaN();
    } else if (expo(s2) - expo(s1) >= 768) {
      v = true;
      if (s0 == s1) d = std::ldexp(s0, 128);
    } else if (std::fpclassify(s1) == FP_SUBNORMAL) {
      d = std::ldexp(s0, 128);
    } else if (std::fabs(1.0 / s1) < dmin && quotDenorm(s2, s1)) {
      // 2^-128, not the guide's 2^128 (which sent the divisor to infinity:
      // x / DBL_MAX was inf); see divScale.
      v = true;
      if (s0 == s1) d = std::ldexp(s0, -128);
    } else if (std::fabs(1.0 / s1) < dmin) {
      d = std::ldexp(s0, -128);
    } else if (quotDenorm(s2, s1)) {
      v = true;
      if (s0 == s2) d = std::ldexp(s0, 128);
    } else if (expo(s2) <= 53) {
      d = std::ldexp(s0, 128);
    }
    r.v[l] = asU64(d);
    vcc |= uint64_t(v) << l;
  }
  write64(w, in.dst[0], r, exec);
  writeMask(w, maskDst(in, 1), vcc & exec);
}

void divFmasF64(Wave &w, const Inst &in) {
  uint64_t exec = w.exec(), vcc = w.vcc();
  Wide a, b, c, r;
  fetch64(w, in, 0, true, true, a);
  fetch64(w, in, 1, true, true, b);
  fetch64(w, in, 2, true, true, c);
  for (int l = 0; l < kLanes; ++l) {
    double x = std::fma(asD(a.v[l]), asD(b.v[l]), asD(c.v[l]));
    if ((vcc >> l) & 1)
      x = scaledFma(asD(a.v[l]), asD(b.v[l]), asD(c.v[l]),
                    ((asU64(asD(c.v[l])) >> 52) & 0x7ff) > 1023 ? 128 : -128,
                    llvm::APFloat::IEEEdouble())
              .convertToDouble();
    r.v[l] = asU64(x);
  }
  write64(w, in.dst[0], r, exec);
}

} // namespace

void registerValuFloatOps(OpTable &t) {
  const Layout V = Layout::Vop;
#define REG(NAME, OP) t.add(NAME, vop<OP>, V);
  REG("V_ADD_F32", AddF32) REG("V_SUB_F32", SubF32) REG("V_SUBREV_F32", SubrevF32)
  REG("V_MUL_F32", MulF32) REG("V_MUL_LEGACY_F32", MulLegacyF32)
  REG("V_MAD_LEGACY_F32", MadF32) REG("V_MAD_F32", MadF32)
  REG("V_MAC_F32", MadF32) REG("V_MAX_F32", MaxF32) REG("V_MIN_F32", MinF32)
  REG("V_MAX3_F32", Max3F32) REG("V_MIN3_F32", Min3F32) REG("V_MED3_F32", Med3F32)
  REG("V_MAXIMUM3_F32", Maximum3F32) REG("V_MINIMUM3_F32", Minimum3F32)
  REG("V_FLOOR_F32", FloorF32) REG("V_CEIL_F32", CeilF32) REG("V_TRUNC_F32", TruncF32)
  REG("V_RNDNE_F32", RndneF32) REG("V_FRACT_F32", FractF32)
  REG("V_FREXP_MANT_F32", FrexpMantF32) REG("V_FREXP_EXP_I32_F32", FrexpExpF32)
  REG("V_LDEXP_F32", LdexpF32) REG("V_DIV_FIXUP_F32", DivFixupF32)
#undef REG
  t.add("V_FMA_F32", fmaF32, V);
  t.add("V_FMAC_F32", fmaF32, V);
  t.add("V_DIV_SCALE_F32", divScaleF32, V);
  t.add("V_DIV_FMAS_F32", divFmasF32, V);
  t.add("V_FMAMK_F32", fmaK, V, FmaMk);
  t.add("V_FMAAK_F32", fmaK, V, FmaAk);
  t.add("V_MADMK_F32", fmaK, V, MadMk);
  t.add("V_MADAK_F32", fmaK, V, MadAk);

#define REG64(NAME, OP) t.add(NAME, vop64<OP>, V);
  REG64("V_ADD_F64", AddF64) REG64("V_MUL_F64", MulF64) REG64("V_FMA_F64", FmaF64)
  REG64("V_FMAC_F64", FmacF64)
  REG64("V_MAX_F64", MaxF64) REG64("V_MIN_F64", MinF64)
  REG64("V_FLOOR_F64", FloorF64) REG64("V_CEIL_F64", CeilF64)
  REG64("V_TRUNC_F64", TruncF64) REG64("V_RNDNE_F64", RndneF64)
  REG64("V_FRACT_F64", FractF64) REG64("V_FREXP_MANT_F64", FrexpMantF64)
  REG64("V_FREXP_EXP_I32_F64", FrexpExpF64) REG64("V_LDEXP_F64", LdexpF64)
  REG64("V_DIV_FIXUP_F64", DivFixupF64)
#undef REG64
  t.add("V_DIV_SCALE_F64", divScaleF64, V);
  t.add("V_DIV_FMAS_F64", divFmasF64, V);
}

} // namespace kcc::emu
