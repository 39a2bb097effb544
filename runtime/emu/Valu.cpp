//===- Valu.cpp - Vector ALU: VOP1, VOP2, VOP3, VOPC, packed math ---------===//
//
// Each operation is a small functor over one lane's 32-bit source values;
// the `vop` template runs it over 64 lanes and handles operand fetch (DPP,
// SDWA, op_sel, neg/abs) and result write (omod, clamp, SDWA, EXEC). 64-bit
// operations (f64, 64-bit shifts, v_lshl_add_u64, v_mad_u64_u32) go through
// `vop64`, which widens operands by their per-source width.
//
// Transcendentals (v_exp_f32 = 2^x, v_log_f32 = log2 x, v_rcp/v_rsq/v_sqrt)
// are computed in double and rounded once: within hardware's 1 ulp. Like
// hardware they flush denormal inputs and results, which is why compilers
// scale around them.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Ops.h"
#include "runtime/emu/VopCommon.h"

#include "llvm/ADT/bit.h"

#include <cfenv>
#include <cmath>
#include <limits>

namespace kcc::emu {
namespace {

//===----------------------------------------------------------------------===//
// 32-bit operation template
//===----------------------------------------------------------------------===//

template <class Op> void vop(Wave &w, const Inst &in) {
  // Integer clamp saturates the exact result, which the functors (and
  // writeResult, whose clamp is the float one) do not see: refuse it rather
  // than wrap silently. vopSatU handles the add/sub forms LLVM emits.
  constexpr bool intOp = (Op::ty == Ty::B32 || Op::ty == Ty::U16 || Op::ty == Ty::I16) &&
                         (Op::dty == Ty::B32 || Op::dty == Ty::U16 || Op::dty == Ty::I16);
  if (intOp && in.clamp) {
    w.fault("clamp on an integer VALU operation is not modelled");
    return;
  }
  uint64_t exec = w.exec();
  uint64_t mask = dppWriteMask(w, in, exec);
  alignas(64) uint32_t b0[kLanes], b1[kLanes], b2[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Op::ty, b0);
  const uint32_t *b = a, *c = a;
  if (Op::n >= 2)
    b = fetchSrc(w, in, 1, Op::ty1, b1);
  if (Op::n >= 3)
    c = in.nsrc >= 3 ? fetchSrc(w, in, 2, Op::ty, b2) : w.row(in.dst[0].reg);
  for (int l = 0; l < kLanes; ++l)
    r[l] = Op::f(a[l], b[l], c[l]);
  if (Op::dty == Ty::F16 || Op::dty == Ty::U16 || Op::dty == Ty::I16) {
    const uint32_t *old = w.row(in.dst[0].reg);
    bool hi = Op::opselDst && (in.src[0].mods & kModOpSel1);
    if (Op::opselDst) {
      for (int l = 0; l < kLanes; ++l)
        r[l] = hi ? (old[l] & 0xffff) | (r[l] << 16)
                  : (old[l] & 0xffff0000u) | (r[l] & 0xffff);
    } else {
      for (int l = 0; l < kLanes; ++l)
        r[l] &= 0xffff;
    }
  }
  if (!needsGeneralPath(in) || (in.form & kFormDpp && !in.clamp && !in.omod &&
                                !(in.form & kFormSdwa))) {
    writeMasked(w.row(in.dst[0].reg), r, mask);
    return;
  }
  writeResult(w, in, r, Op::dty, mask);
}

/// v_add/sub/subrev_u32 and _u16 with the VOP3 clamp bit: the result
/// saturates to [0, 2^Bits - 1] instead of wrapping (LLVM selects
/// "v_add_u32 ... clamp" for llvm.uadd.sat and v_sub_u32 clamp for usub.sat).
/// writeResult's clamp is the float one, so integer clamp is done here.
enum SatOp { SatAdd, SatSub, SatSubrev };
template <class Op, SatOp K, unsigned Bits> void vopSatU(Wave &w, const Inst &in) {
  if (!in.clamp || (in.form & (kFormDpp | kFormSdwa)) || in.omod) {
    vop<Op>(w, in);
    return;
  }
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Op::ty, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Op::ty1, b1);
  const int64_t max = (int64_t(1) << Bits) - 1;
  for (int l = 0; l < kLanes; ++l) {
    int64_t x = a[l] & max, y = b[l] & max;
    int64_t v = K == SatAdd ? x + y : K == SatSub ? x - y : y - x;
    r[l] = uint32_t(std::clamp<int64_t>(v, 0, max));
  }
  writeMasked(w.row(in.dst[0].reg), r, w.exec());
}

/// v_add_i32 / v_sub_i32 (gfx9 VOP3): signed; with clamp the result
/// saturates to the int32 range (LLVM selects "v_add_i32 ... clamp" for
/// llvm.sadd.sat.i32), without it the sum wraps like v_add_u32.
template <class Op, SatOp K> void vopSatI32(Wave &w, const Inst &in) {
  if (!in.clamp || (in.form & (kFormDpp | kFormSdwa)) || in.omod) {
    vop<Op>(w, in);
    return;
  }
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::B32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::B32, b1);
  for (int l = 0; l < kLanes; ++l) {
    int64_t x = int32_t(a[l]), y = int32_t(b[l]);
    int64_t v = K == SatAdd ? x + y : K == SatSub ? x - y : y - x;
    r[l] = uint32_t(int32_t(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)));
  }
  writeMasked(w.row(in.dst[0].reg), r, w.exec());
}

/// v_add_i16 / v_sub_i16 (gfx9 VOP3, no op_sel): signed; with clamp the
/// result saturates to the int16 range (LLVM selects "v_add_i16 ... clamp"
/// for llvm.sadd.sat.i16), without it the sum wraps. The high half is
/// written with zeros as the VI-era 16-bit VOP3 ops do.
template <class Op, SatOp K> void vopSatI16(Wave &w, const Inst &in) {
  if (!in.clamp || (in.form & (kFormDpp | kFormSdwa)) || in.omod) {
    vop<Op>(w, in);
    return;
  }
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::I16, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::I16, b1);
  for (int l = 0; l < kLanes; ++l) {
    int32_t x = int16_t(a[l]), y = int16_t(b[l]);
    int32_t v = K == SatAdd ? x + y : x - y;
    r[l] = uint32_t(std::clamp(v, -32768, 32767)) & 0xffff;
  }
  writeMasked(w.row(in.dst[0].reg), r, w.exec());
}

/// Integer dot products (v_dot4_i32_i8, v_dot4_u32_u8, v_dot2_i32_i16,
/// v_dot2_u32_u16, v_dot8_i32_i4, v_dot8_u32_u4 and the VOP2 "c" forms
/// that accumulate into the destination): the exact sum of the element
/// products plus S2; clamp saturates it to the 32-bit (un)signed range,
/// else it wraps. Op id: element bits (4, 8, 16) | signed << 8.
int64_t dotInt(uint32_t a, uint32_t b, unsigned bits, bool isSigned) {
  int64_t sum = 0;
  for (unsigned i = 0; i < 32; i += bits) {
    int64_t x = (a >> i) & ((1u << bits) - 1), y = (b >> i) & ((1u << bits) - 1);
    if (isSigned) {
      x -= (x >> (bits - 1)) << bits;
      y -= (y >> (bits - 1)) << bits;
    }
    sum += x * y;
  }
  return sum;
}
void dotIntOp(Wave &w, const Inst &in) {
  unsigned bits = in.op & 0xff;
  bool isSigned = in.op >> 8;
  if (in.opSel || in.negLo || in.negHi || (in.form & kFormSdwa)) {
    w.fault("op_sel, neg or SDWA on an integer dot product is not modelled");
    return;
  }
  uint64_t mask = dppWriteMask(w, in, w.exec());
  alignas(64) uint32_t b0[kLanes], b1[kLanes], b2[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::B32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::B32, b1);
  const uint32_t *c = in.nsrc >= 3 ? fetchSrc(w, in, 2, Ty::B32, b2) : w.row(in.dst[0].reg);
  for (int l = 0; l < kLanes; ++l) {
    int64_t v = dotInt(a[l], b[l], bits, isSigned) +
                (isSigned ? int64_t(int32_t(c[l])) : int64_t(c[l]));
    if (in.clamp)
      v = isSigned ? std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)
                   : std::clamp<int64_t>(v, 0, UINT32_MAX);
    r[l] = uint32_t(v);
  }
  writeMasked(w.row(in.dst[0].reg), r, mask);
}

/// v_alignbit_b32 / v_alignbyte_b32: gfx9 MC gives them op_sel operands
/// (V_*_opsel_gfx9). Without op_sel they are the plain 32-bit ops; what the
/// op_sel bits would select is not modelled, so they are refused, not
/// ignored.
template <class Op> void vopNoOpsel(Wave &w, const Inst &in) {
  for (unsigned i = 0; i < in.nsrc; ++i)
    if (in.src[i].mods & (kModOpSel0 | kModOpSel1)) {
      w.fault("op_sel on v_alignbit_b32/v_alignbyte_b32 is not modelled");
      return;
    }
  vop<Op>(w, in);
}

#define VOP_OP(NAME, TY, TY1, DTY, N, ...)                                    \
  struct NAME {                                                                \
    static constexpr Ty ty = Ty::TY, ty1 = Ty::TY1, dty = Ty::DTY;             \
    static constexpr int n = N;                                                \
    static constexpr bool opselDst = false;                                    \
    static inline uint32_t f(uint32_t ua, uint32_t ub, uint32_t uc) {          \
      (void)ua; (void)ub; (void)uc;                                            \
      __VA_ARGS__                                                              \
    }                                                                          \
  };
#define F32_1(NAME, ...) VOP_OP(NAME, F32, F32, F32, 1, float a = asF(ua); return asU(__VA_ARGS__);)
#define F32_2(NAME, ...) VOP_OP(NAME, F32, F32, F32, 2, float a = asF(ua); float b = asF(ub); return asU(__VA_ARGS__);)
#define F32_3(NAME, ...) VOP_OP(NAME, F32, F32, F32, 3, float a = asF(ua); float b = asF(ub); float c = asF(uc); return asU(__VA_ARGS__);)
#define B32_1(NAME, ...) VOP_OP(NAME, B32, B32, B32, 1, uint32_t a = ua; return (__VA_ARGS__);)
#define B32_2(NAME, ...) VOP_OP(NAME, B32, B32, B32, 2, uint32_t a = ua; uint32_t b = ub; return (__VA_ARGS__);)
#define B32_3(NAME, ...) VOP_OP(NAME, B32, B32, B32, 3, uint32_t a = ua; uint32_t b = ub; uint32_t c = uc; return (__VA_ARGS__);)
#define F16_1(NAME, ...) VOP_OP(NAME, F16, F16, F16, 1, float a = halfToFloat(uint16_t(ua)); return floatToHalf(__VA_ARGS__);)
#define F16_2(NAME, ...) VOP_OP(NAME, F16, F16, F16, 2, float a = halfToFloat(uint16_t(ua)); float b = halfToFloat(uint16_t(ub)); return floatToHalf(__VA_ARGS__);)
#define U16_2(NAME, ...) VOP_OP(NAME, U16, U16, U16, 2, uint32_t a = ua & 0xffff; uint32_t b = ub & 0xffff; return (__VA_ARGS__) & 0xffff;)

/// fma of f32 (or f16) values rounded once to f16. The product is exact in
/// double; the sum is rounded to double with round-to-odd (TwoSum gives the
/// lost part, which sets the last bit), so that the single rounding to f16
/// that follows is correct: going through an f32 fma rounded twice, e.g.
/// v_fma_f16(0x3c01, 0x3e00, 0x8001) gave 0x3e02 for 0x3e01.
uint16_t fmaToHalf(float a, float b, float c) {
  double p = double(a) * double(b), s = p + double(c);
  if (std::isfinite(s) && s != 0) {
    double bb = s - p, err = (p - (s - bb)) + (double(c) - bb);
    uint64_t u = llvm::bit_cast<uint64_t>(s);
    if (err != 0 && !(u & 1))
      s = llvm::bit_cast<double>((err > 0) == (s > 0) ? u + 1 : u - 1);
  }
  return llvm::bit_cast<uint16_t>(_Float16(s));
}

/// IEEE-mode f16 min/max on bit patterns. Widening a signalling NaN to f32
/// quiets it, after which fmaxIeee would return the other operand instead
/// of the quieted NaN.
uint32_t minMaxF16(uint32_t ua, uint32_t ub, bool isMax) {
  auto snan = [](uint16_t h) {
    return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) && !(h & 0x200);
  };
  uint16_t x = uint16_t(ua), y = uint16_t(ub);
  if (snan(x))
    return x | 0x200u;
  if (snan(y))
    return y | 0x200u;
  float a = halfToFloat(x), b = halfToFloat(y);
  return floatToHalf(isMax ? fmaxIeee(a, b) : fminIeee(a, b));
}

/// IEEE 754-2019 maximum/minimum (gfx950's V_MAXIMUM3_F32, V_MINIMUM3_F32,
/// V_PK_MAXIMUM3_F16, V_PK_MINIMUM3_F16, which LLVM selects for
/// llvm.maximum/llvm.minimum): a NaN operand gives a quiet NaN (the first
/// NaN, quieted), and -0 orders below +0. The 3-operand forms are the
/// 2-operand op applied twice.
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
uint16_t maximumF16(uint16_t a, uint16_t b, bool isMax) {
  auto nan = [](uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); };
  if (nan(a)) return a | 0x200;
  if (nan(b)) return b | 0x200;
  float x = halfToFloat(a), y = halfToFloat(b);
  if (x == y)
    return isMax ? (std::signbit(x) ? b : a) : (std::signbit(x) ? a : b);
  return (isMax ? x > y : x < y) ? a : b;
}
uint16_t maximum3F16(uint16_t a, uint16_t b, uint16_t c, bool isMax) {
  return maximumF16(maximumF16(a, b, isMax), c, isMax);
}

bool isDenorm(float x) { return std::fpclassify(x) == FP_SUBNORMAL; }
float flushIn(float x) { return isDenorm(x) ? std::copysign(0.0f, x) : x; }
float flushOut(float x) { return flushIn(x); }

float exp2Hw(float x) { return flushOut(float(std::exp2(double(x)))); }
float log2Hw(float x) {
  x = flushIn(x);
  return float(std::log2(double(x)));
}
float rcpHw(float x) { return flushOut(float(1.0 / double(flushIn(x)))); }
float rsqHw(float x) { return flushOut(float(1.0 / std::sqrt(double(flushIn(x))))); }
float sqrtHw(float x) { return float(std::sqrt(double(flushIn(x)))); }
float sinHw(float x) { return float(std::sin(double(x) * 6.283185307179586)); }
float cosHw(float x) { return float(std::cos(double(x) * 6.283185307179586)); }
float fractF(float x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return std::numeric_limits<float>::quiet_NaN();
  return std::fmin(x - std::floor(x), 0x1.fffffep-1f);
}
float rndne(float x) { return std::nearbyint(x); }
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
uint32_t cvtU32(float x) {
  if (std::isnan(x) || x <= 0) return 0;
  if (x >= 4294967296.0f) return ~0u;
  return uint32_t(x);
}
uint32_t cvtI32(float x) {
  if (std::isnan(x)) return 0;
  if (x <= -2147483648.0f) return 0x80000000u;
  if (x >= 2147483648.0f) return 0x7fffffffu;
  return uint32_t(int32_t(x));
}
int frexpExp(float x) {
  if (std::isnan(x) || std::isinf(x)) return 0;
  int e;
  std::frexp(x, &e);
  return e;
}
float frexpMant(float x) {
  if (std::isnan(x) || std::isinf(x)) return x;
  int e;
  return std::frexp(x, &e);
}
int exponentOf(float x) { return int((asU(x) >> 23) & 0xff); }

// f32 -> f16 rounding toward zero by truncating the mantissa. Finite values
// at or beyond 65536 give 65504 (0x7bff), never an infinity (LLVM folds
// cvt.pkrtz(65536.0) to 0x7bff); switching the host's rounding mode around
// a _Float16 conversion overflowed to infinity.
uint16_t toHalfRtz(float x) {
  if (std::isnan(x))
    return floatToHalf(x);
  uint16_t sign = uint16_t((asU(x) >> 16) & 0x8000);
  float m = std::fabs(x);
  if (std::isinf(x))
    return sign | 0x7c00;
  if (m >= 65536.0f)
    return sign | 0x7bff;
  if (m >= 0x1p-14f) { // a normal f16: keep the top 10 mantissa bits
    uint32_t e = uint32_t(exponentOf(m) - 127 + 15);
    return uint16_t(sign | e << 10 | ((asU(m) >> 13) & 0x3ff));
  }
  // A denormal f16 counts units of 2^-24; the scaling is exact and the
  // conversion to an integer truncates.
  return uint16_t(sign | uint16_t(m * 0x1p24f));
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
  bool invDenorm = std::fabs(1.0 / double(s1)) < double(std::numeric_limits<float>::min());
  bool quotDenorm = isDenorm(float(double(s2) / double(s1)));
  if (invDenorm && quotDenorm) {
    vcc = true;
    return s0 == s1 ? std::ldexp(s0, 64) : s0;
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

/// r = fma(a ^ na, b ^ nb, c ^ nc) over 64 lanes (the n* flip sign bits).
/// Cloned for CPUs with FMA instructions: without them each fmaf is a libm
/// call, which dominated VALU emulation.
__attribute__((target_clones("fma", "default"))) void
fmaLanes(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *r,
         uint32_t na, uint32_t nb, uint32_t nc) {
  for (int l = 0; l < kLanes; ++l)
    r[l] = asU(__builtin_fmaf(asF(a[l] ^ na), asF(b[l] ^ nb), asF(c[l] ^ nc)));
}

// f32.
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
F32_1(ExpF32, exp2Hw(a))
F32_1(LogF32, log2Hw(a))
F32_1(RcpF32, rcpHw(a))
F32_1(RsqF32, rsqHw(a))
F32_1(SqrtF32, sqrtHw(a))
F32_1(SinF32, sinHw(a))
F32_1(CosF32, cosHw(a))
F32_1(FloorF32, std::floor(a))
F32_1(CeilF32, std::ceil(a))
F32_1(TruncF32, std::trunc(a))
F32_1(RndneF32, rndne(a))
F32_1(FractF32, fractF(a))
F32_1(FrexpMantF32, frexpMant(a))
VOP_OP(FrexpExpF32, F32, F32, B32, 1, return uint32_t(frexpExp(asF(ua)));)
VOP_OP(LdexpF32, F32, B32, F32, 2, return asU(std::ldexp(asF(ua), int32_t(ub)));)
F32_3(DivFixupF32, divFixup(a, b, c))
VOP_OP(DivFmasDummy, F32, F32, F32, 3, return ua;)
// Conversions.
VOP_OP(CvtF32U32, B32, B32, F32, 1, return asU(float(ua));)
VOP_OP(CvtF32I32, B32, B32, F32, 1, return asU(float(int32_t(ua)));)
VOP_OP(CvtU32F32, F32, F32, B32, 1, return cvtU32(asF(ua));)
VOP_OP(CvtI32F32, F32, F32, B32, 1, return cvtI32(asF(ua));)
VOP_OP(CvtRpiI32F32, F32, F32, B32, 1, return cvtI32(std::floor(asF(ua) + 0.5f));)
VOP_OP(CvtFlrI32F32, F32, F32, B32, 1, return cvtI32(std::floor(asF(ua)));)
VOP_OP(CvtF16F32, F32, F32, F16, 1, return floatToHalf(asF(ua));)
VOP_OP(CvtF32F16, F16, F16, F32, 1, return asU(halfToFloat(uint16_t(ua)));)
VOP_OP(CvtF32Ubyte0, B32, B32, F32, 1, return asU(float(ua & 0xff));)
VOP_OP(CvtF32Ubyte1, B32, B32, F32, 1, return asU(float((ua >> 8) & 0xff));)
VOP_OP(CvtF32Ubyte2, B32, B32, F32, 1, return asU(float((ua >> 16) & 0xff));)
VOP_OP(CvtF32Ubyte3, B32, B32, F32, 1, return asU(float(ua >> 24));)
VOP_OP(CvtPkrtzF16F32, F32, F32, B32, 2,
       return uint32_t(toHalfRtz(asF(ua))) | (uint32_t(toHalfRtz(asF(ub))) << 16);)
// gfx950: two f32 to packed f16, rounding as the MODE register says (round
// to nearest even, the default kcc's kernels run with).
VOP_OP(CvtPkF16F32, F32, F32, B32, 2,
       return uint32_t(floatToHalf(asF(ua))) | (uint32_t(floatToHalf(asF(ub))) << 16);)
VOP_OP(CvtPkBf16F32, F32, F32, B32, 2,
       return uint32_t(floatToBf16(asF(ua))) | (uint32_t(floatToBf16(asF(ub))) << 16);)
VOP_OP(CvtF32Bf16, B32, B32, F32, 1, return asU(bf16ToFloat(uint16_t(ua)));)
VOP_OP(PackB32F16, F16, F16, B32, 2, return (ua & 0xffff) | (ub << 16);)
VOP_OP(CvtPkU16U32, B32, B32, B32, 2,
       return std::min(ua, 0xffffu) | (std::min(ub, 0xffffu) << 16);)
VOP_OP(CvtPkI16I32, B32, B32, B32, 2,
       return (uint32_t(std::clamp(int32_t(ua), -32768, 32767)) & 0xffff) |
              (uint32_t(std::clamp(int32_t(ub), -32768, 32767)) << 16);)
// Integer and bitwise.
B32_1(MovB32, a)
B32_1(NotB32, ~a)
B32_1(BfrevB32, llvm::reverseBits(a))
B32_1(FfbhU32, a ? uint32_t(llvm::countl_zero(a)) : ~0u)
B32_1(FfblB32, a ? uint32_t(llvm::countr_zero(a)) : ~0u)
// The index, from the MSB, of the first bit that differs from the sign bit
// (as S_FLBIT_I32): 0x0000cccc -> 16, 1 -> 31. LLVM's i64 -> f32 lowering
// shifts by v_ffbh_i32(hi) - 1 to keep one sign bit.
B32_1(FfbhI32, (a == 0 || a == ~0u) ? ~0u
                   : uint32_t(llvm::countl_zero(int32_t(a) < 0 ? ~a : a)))
B32_2(AndB32, a & b)
B32_2(OrB32, a | b)
B32_2(XorB32, a ^ b)
B32_2(XnorB32, ~(a ^ b))
B32_2(LshlrevB32, b << (a & 31))
B32_2(LshrrevB32, b >> (a & 31))
B32_2(AshrrevI32, uint32_t(int32_t(b) >> (a & 31)))
B32_2(AddU32, a + b)
B32_2(SubU32, a - b)
B32_2(SubrevU32, b - a)
B32_2(MulLoU32, a * b)
B32_2(MulHiU32, uint32_t((uint64_t(a) * b) >> 32))
B32_2(MulHiI32, uint32_t(uint64_t(int64_t(int32_t(a)) * int32_t(b)) >> 32))
B32_2(MulU32U24, (a & 0xffffff) * (b & 0xffffff))
B32_2(MulHiU32U24, uint32_t((uint64_t(a & 0xffffff) * (b & 0xffffff)) >> 32))
B32_2(MulI32I24, uint32_t(int32_t(a << 8) >> 8) * uint32_t(int32_t(b << 8) >> 8))
B32_2(MulHiI32I24, uint32_t(uint64_t(int64_t(int32_t(a << 8) >> 8) *
                                     int64_t(int32_t(b << 8) >> 8)) >> 32))
B32_3(MadU32U24, (a & 0xffffff) * (b & 0xffffff) + c)
B32_3(MadI32I24, uint32_t(int32_t(a << 8) >> 8) * uint32_t(int32_t(b << 8) >> 8) + c)
B32_2(MinU32, std::min(a, b))
B32_2(MaxU32, std::max(a, b))
B32_2(MinI32, uint32_t(std::min(int32_t(a), int32_t(b))))
B32_2(MaxI32, uint32_t(std::max(int32_t(a), int32_t(b))))
B32_3(Min3U32, std::min(std::min(a, b), c))
B32_3(Max3U32, std::max(std::max(a, b), c))
B32_3(Med3U32, std::max(std::min(a, b), std::min(std::max(a, b), c)))
B32_3(Min3I32, uint32_t(std::min(std::min(int32_t(a), int32_t(b)), int32_t(c))))
B32_3(Max3I32, uint32_t(std::max(std::max(int32_t(a), int32_t(b)), int32_t(c))))
B32_3(Med3I32, uint32_t(std::max(std::min(int32_t(a), int32_t(b)),
                                 std::min(std::max(int32_t(a), int32_t(b)), int32_t(c)))))
B32_3(BfeU32, (c & 31) == 0 ? 0 : (a >> (b & 31)) & ((c & 31) == 32 ? ~0u : (1u << (c & 31)) - 1))
B32_3(BfeI32, (c & 31) == 0 ? 0 : ((b & 31) + (c & 31) >= 32
          ? uint32_t(int32_t(a) >> (b & 31))
          : uint32_t(int32_t(a << (32 - (b & 31) - (c & 31))) >> (32 - (c & 31)))))
B32_3(BfiB32, (a & b) | (~a & c))
B32_2(BfmB32, ((1u << (a & 31)) - 1) << (b & 31))
B32_3(AlignbitB32, uint32_t(((uint64_t(a) << 32) | b) >> (c & 31)))
B32_3(AlignbyteB32, uint32_t(((uint64_t(a) << 32) | b) >> (8 * (c & 3))))
B32_2(BcntU32B32, uint32_t(llvm::popcount(a)) + b)
B32_3(LshlAddU32, (a << (b & 31)) + c)
B32_3(AddLshlU32, (a + b) << (c & 31))
B32_3(LshlOrB32, (a << (b & 31)) | c)
B32_3(AndOrB32, (a & b) | c)
B32_3(Or3B32, a | b | c)
B32_3(Xor3B32, a ^ b ^ c)
B32_3(Add3U32, a + b + c)
B32_3(XadU32, (a ^ b) + c)
B32_3(MadU32U16, (a & 0xffff) * (b & 0xffff) + c)

uint32_t permByte(uint64_t src, unsigned sel) {
  if (sel < 8) return (src >> (8 * sel)) & 0xff;
  switch (sel) {
  case 8: return (src >> 15 & 1) ? 0xff : 0;
  case 9: return (src >> 31 & 1) ? 0xff : 0;
  case 10: return (src >> 47 & 1) ? 0xff : 0;
  case 11: return (src >> 63 & 1) ? 0xff : 0;
  case 12: return 0;
  default: return 0xff;
  }
}
B32_3(PermB32, permByte((uint64_t(a) << 32) | b, c & 0xff) |
                   (permByte((uint64_t(a) << 32) | b, (c >> 8) & 0xff) << 8) |
                   (permByte((uint64_t(a) << 32) | b, (c >> 16) & 0xff) << 16) |
                   (permByte((uint64_t(a) << 32) | b, c >> 24) << 24))

// f16 (results in the low half; the high half is zeroed as gfx9 does for
// these encodings).
F16_2(AddF16, a + b)
F16_2(SubF16, a - b)
F16_2(SubrevF16, b - a)
F16_2(MulF16, a * b)
VOP_OP(MaxF16, F16, F16, F16, 2, return minMaxF16(ua, ub, true);)
VOP_OP(MinF16, F16, F16, F16, 2, return minMaxF16(ua, ub, false);)
F16_1(ExpF16, float(std::exp2(double(a))))
F16_1(LogF16, float(std::log2(double(a))))
F16_1(RcpF16, 1.0f / a)
F16_1(SqrtF16, std::sqrt(a))
F16_1(RsqF16, 1.0f / std::sqrt(a))
F16_1(FloorF16, std::floor(a))
F16_1(CeilF16, std::ceil(a))
F16_1(TruncF16, std::trunc(a))
F16_1(RndneF16, rndne(a))
// As v_fract_f32: S0 - floor(S0), at most the largest f16 below 1 (the
// minimum is taken before the f16 rounding); inf gives NaN.
F16_1(FractF16, std::isinf(a) ? std::numeric_limits<float>::quiet_NaN()
                              : std::isnan(a) ? a : std::fmin(a - std::floor(a), 0x1.ffcp-1f))
VOP_OP(LdexpF16, F16, B32, F16, 2,
       return floatToHalf(std::ldexp(halfToFloat(uint16_t(ua)), int16_t(ub)));)
VOP_OP(CvtF16U16, U16, U16, F16, 1, return floatToHalf(float(ua & 0xffff));)
VOP_OP(CvtF16I16, I16, I16, F16, 1, return floatToHalf(float(int16_t(ua)));)
VOP_OP(CvtU16F16, F16, F16, U16, 1, {
  float x = halfToFloat(uint16_t(ua));
  return std::isnan(x) || x <= 0 ? 0u : x >= 65535.0f ? 0xffffu : uint32_t(x);
})
VOP_OP(CvtI16F16, F16, F16, I16, 1, {
  float x = halfToFloat(uint16_t(ua));
  return std::isnan(x) ? 0u : uint32_t(int32_t(std::clamp(x, -32768.0f, 32767.0f))) & 0xffff;
})
U16_2(AddU16, a + b)
U16_2(SubU16, a - b)
U16_2(SubrevU16, b - a)
U16_2(MulLoU16, a * b)
U16_2(LshlrevB16, b << (a & 15))
U16_2(LshrrevB16, b >> (a & 15))
U16_2(AshrrevI16, uint32_t(int16_t(b) >> (a & 15)))
U16_2(MaxU16, std::max(a, b))
U16_2(MinU16, std::min(a, b))
U16_2(MaxI16, uint32_t(std::max(int16_t(a), int16_t(b))))
U16_2(MinI16, uint32_t(std::min(int16_t(a), int16_t(b))))
U16_2(AddI16, uint32_t(int16_t(a) + int16_t(b)))
U16_2(SubI16, uint32_t(int16_t(a) - int16_t(b)))

/// 16-bit VOP3 ops with three sources. OPSEL: the gfx9 op_sel form (the
/// result goes to the half op_sel[3] selects, the other half is kept, as
/// for v_fma_f16); otherwise the VI-era form that zeroes the high half
/// (v_mad_legacy_u16/i16: LLVM's zeroesHigh16BitsOfDest keeps the zeroing
/// for the old encodings, preserving only for the gfx9 op_sel ones).
#define OP16_3(NAME, TY, OPSEL, ...)                                           \
  struct NAME {                                                                \
    static constexpr Ty ty = Ty::TY, ty1 = Ty::TY, dty = Ty::TY;               \
    static constexpr int n = 3;                                                \
    static constexpr bool opselDst = OPSEL;                                    \
    static inline uint32_t f(uint32_t ua, uint32_t ub, uint32_t uc) {          \
      (void)ua; (void)ub; (void)uc;                                            \
      __VA_ARGS__                                                              \
    }                                                                          \
  };
#define I16_3(NAME, OPSEL, ...)                                                \
  OP16_3(NAME, I16, OPSEL, int32_t a = int16_t(ua); int32_t b = int16_t(ub);   \
         int32_t c = int16_t(uc); return uint32_t(__VA_ARGS__) & 0xffff;)
#define U16_3(NAME, OPSEL, ...)                                                \
  OP16_3(NAME, U16, OPSEL, uint32_t a = ua & 0xffff; uint32_t b = ub & 0xffff; \
         uint32_t c = uc & 0xffff; return uint32_t(__VA_ARGS__) & 0xffff;)

// V_MAD_U16 / V_MAD_I16: D.u16 = S0.u16 * S1.u16 + S2.u16, wrapping (the
// low 16 bits are the same signed or unsigned). The _legacy forms are the
// VI encodings LLVM still selects on gfx9 when no op_sel is needed.
U16_3(MadU16, true, a * b + c)
U16_3(MadLegacyU16, false, a * b + c)
I16_3(MadI16, true, a * b + c)
I16_3(MadLegacyI16, false, a * b + c)
// V_MIN3/MAX3/MED3 on 16-bit integers (gfx9 VOP3 with op_sel).
I16_3(Min3I16, true, std::min(std::min(a, b), c))
I16_3(Max3I16, true, std::max(std::max(a, b), c))
I16_3(Med3I16, true, std::max(std::min(a, b), std::min(std::max(a, b), c)))
U16_3(Min3U16, true, std::min(std::min(a, b), c))
U16_3(Max3U16, true, std::max(std::max(a, b), c))
U16_3(Med3U16, true, std::max(std::min(a, b), std::min(std::max(a, b), c)))
// V_MAD_I32_I16: D.i32 = S0.i16 * S1.i16 + S2.i32 (V_MAD_U32_U16 exists).
B32_3(MadI32I16, uint32_t(int32_t(int16_t(a)) * int32_t(int16_t(b))) + c)

/// V_MIN3/MAX3/MED3_F16 as V_MIN_F16/V_MAX_F16 composed (IEEE mode: a
/// signalling NaN gives the quieted NaN). V_MED3_F16 follows the ISA's
/// pseudocode as V_MED3_F32 does: with any NaN operand it is V_MIN3_F16 of
/// the three, else the max of the two operands other than the first one
/// equal to the max of all three.
uint32_t min3F16(uint32_t a, uint32_t b, uint32_t c) {
  return minMaxF16(minMaxF16(a, b, false), c, false);
}
uint32_t max3F16(uint32_t a, uint32_t b, uint32_t c) {
  return minMaxF16(minMaxF16(a, b, true), c, true);
}
uint32_t med3F16(uint32_t a, uint32_t b, uint32_t c) {
  auto nan = [](uint32_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); };
  if (nan(a & 0xffff) || nan(b & 0xffff) || nan(c & 0xffff))
    return min3F16(a, b, c);
  float m = halfToFloat(uint16_t(max3F16(a, b, c)));
  if (m == halfToFloat(uint16_t(a)))
    return minMaxF16(b, c, true);
  if (m == halfToFloat(uint16_t(b)))
    return minMaxF16(a, c, true);
  return minMaxF16(a, b, true);
}
OP16_3(Min3F16, F16, true, return min3F16(ua, ub, uc);)
OP16_3(Max3F16, F16, true, return max3F16(ua, ub, uc);)
OP16_3(Med3F16, F16, true, return med3F16(ua, ub, uc);)

/// V_DIV_FIXUP_F16 per the ISA pseudocode (q = S0, denominator S1,
/// numerator S2): NaN operands propagate (quieted), 0/0 and inf/inf give
/// the default NaN 0xfe00, x/0 and inf/y infinities, x/inf and 0/y zeros
/// (signed by sign(S1) ^ sign(S2)), anything else |S0| with that sign.
/// Everything is decided on the bit patterns: f16 denormals are ordinary
/// nonzero values here (the f16 denormal mode is on by default).
uint32_t divFixupF16(uint32_t uq, uint32_t uden, uint32_t unum) {
  uint16_t q = uint16_t(uq), den = uint16_t(uden), num = uint16_t(unum);
  auto isNaN = [](uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); };
  auto isInf = [](uint16_t h) { return (h & 0x7fff) == 0x7c00; };
  auto isZero = [](uint16_t h) { return (h & 0x7fff) == 0; };
  uint16_t sign = (den ^ num) & 0x8000;
  if (isNaN(num)) return num | 0x200u;
  if (isNaN(den)) return den | 0x200u;
  if ((isZero(den) && isZero(num)) || (isInf(den) && isInf(num))) return 0xfe00u;
  if (isZero(den) || isInf(num)) return sign | 0x7c00u;
  if (isInf(den) || isZero(num)) return sign;
  return sign | (q & 0x7fffu);
}
OP16_3(DivFixupF16, F16, true, return divFixupF16(ua, ub, uc);)
OP16_3(DivFixupLegacyF16, F16, false, return divFixupF16(ua, ub, uc);)

/// V_FREXP_MANT_F16 / V_FREXP_EXP_I16_F16: exact (f16 denormals are
/// normalised); inf and NaN give themselves (mantissa) or 0 (exponent).
VOP_OP(FrexpMantF16, F16, F16, F16, 1, {
  uint16_t h = uint16_t(ua);
  if ((h & 0x7c00) == 0x7c00) return uint32_t(h & 0x7c00 && h & 0x3ff ? h | 0x200 : h);
  return floatToHalf(frexpMant(halfToFloat(h)));
})
VOP_OP(FrexpExpI16F16, F16, F16, I16, 1,
       return uint32_t(frexpExp(halfToFloat(uint16_t(ua)))) & 0xffff;)

/// V_SIN_F16 / V_COS_F16: sin(2 pi S0), cos(2 pi S0). The argument is
/// reduced exactly (S0 minus the nearest integer is exact in double), so
/// the results at multiples of 1/4 are exact (+-1, +-0) and the rest is the
/// correctly rounded f16 of a double evaluation: within the ISA's ulp.
/// Infinities and NaN give NaN.
double sinCos2Pi(float x, bool cosine) {
  if (!std::isfinite(x))
    return std::numeric_limits<double>::quiet_NaN();
  double r = double(x) - std::nearbyint(double(x)); // in [-0.5, 0.5], exact
  double q = r * 4;
  if (q == std::nearbyint(q)) { // a multiple of a quarter turn: exact
    int k = int(q) & 3;
    double s = k == 0 ? 0.0 : k == 1 ? 1.0 : k == 2 ? 0.0 : -1.0;
    double c = k == 0 ? 1.0 : k == 1 ? 0.0 : k == 2 ? -1.0 : 0.0;
    if (!cosine && k == 0)
      return std::copysign(0.0, x); // sin(+-0) = +-0
    return cosine ? c : s;
  }
  const double twoPi = 6.283185307179586476925286766559;
  return cosine ? std::cos(twoPi * r) : std::sin(twoPi * r);
}
F16_1(SinF16, float(sinCos2Pi(a, false)))
F16_1(CosF16, float(sinCos2Pi(a, true)))

/// Byte sums of absolute differences and the byte lerp (CDNA3 ISA VOP3A):
/// V_SAD_U8 = sum |S0.u8[i] - S1.u8[i]| + S2, V_SAD_HI_U8 the sum shifted
/// left 16, V_SAD_U16 over the two halves, V_SAD_U32 = |S0 - S1| + S2,
/// V_MSAD_U8 skips the bytes where the reference S1.u8[i] is 0. All wrap
/// at 32 bits (clamp is refused by vop like other integer clamps).
uint32_t sadBytes(uint32_t a, uint32_t b, bool masked) {
  uint32_t s = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (a >> i) & 0xff, y = (b >> i) & 0xff;
    if (!masked || y != 0)
      s += uint32_t(std::abs(x - y));
  }
  return s;
}
B32_3(SadU8, sadBytes(a, b, false) + c)
B32_3(SadHiU8, (sadBytes(a, b, false) << 16) + c)
B32_3(MsadU8, sadBytes(a, b, true) + c)
B32_3(SadU16, uint32_t(std::abs(int(a & 0xffff) - int(b & 0xffff)) +
                       std::abs(int(a >> 16) - int(b >> 16))) + c)
B32_3(SadU32, (a > b ? a - b : b - a) + c)
/// V_LERP_U8: per byte (S0.u8 + S1.u8 + (S2.u8 & 1)) >> 1, the rounding
/// bit taken from bit 0 of S2's byte.
uint32_t lerpU8(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i += 8)
    r |= (((a >> i & 0xff) + (b >> i & 0xff) + (c >> i & 1)) >> 1) << i;
  return r;
}
B32_3(LerpU8, lerpU8(a, b, c))
/// V_CVT_PK_U8_F32: S0.f32 converted to u8 goes into byte S1[1:0] of S2.
/// The conversion saturates to [0, 255] (NaN -> 0) and truncates like
/// V_CVT_U32_F32; the guide's f32_to_u8 names no rounding, so the
/// fractional case is unverified (integral values are exact either way).
uint32_t cvtU8(float x) {
  if (std::isnan(x) || x <= 0) return 0;
  if (x >= 255.0f) return 255;
  return uint32_t(x);
}
/// V_CVT_PKNORM_I16_F32 / V_CVT_PKNORM_U16_F32: two f32 to packed 16-bit
/// normalised integers, f32_to_snorm = clamp(x, -1, 1) * 32767 and
/// f32_to_unorm = clamp(x, 0, 1) * 65535, rounded to nearest even (as
/// GLSL's packSnorm2x16/packUnorm2x16, which compilers map onto them; the
/// tie case is unverified on hardware). NaN gives 0.
uint32_t toSnorm16(float x) {
  if (std::isnan(x)) return 0;
  double v = std::nearbyint(double(std::clamp(x, -1.0f, 1.0f)) * 32767.0);
  return uint32_t(int32_t(v)) & 0xffff;
}
uint32_t toUnorm16(float x) {
  if (std::isnan(x)) return 0;
  return uint32_t(std::nearbyint(double(std::clamp(x, 0.0f, 1.0f)) * 65535.0));
}
VOP_OP(CvtPknormI16F32, F32, F32, B32, 2,
       return toSnorm16(asF(ua)) | (toSnorm16(asF(ub)) << 16);)
VOP_OP(CvtPknormU16F32, F32, F32, B32, 2,
       return toUnorm16(asF(ua)) | (toUnorm16(asF(ub)) << 16);)
VOP_OP(CvtPkU8F32, F32, B32, B32, 3, {
  unsigned sh = 8 * (ub & 3);
  return (uc & ~(0xffu << sh)) | (cvtU8(asF(ua)) << sh);
})

/// gfx9 VOP3 16-bit ops with op_sel: result goes to the half op_sel[3]
/// selects and the other half is preserved.
struct FmaF16 {
  static constexpr Ty ty = Ty::F16, ty1 = Ty::F16, dty = Ty::F16;
  static constexpr int n = 3;
  static constexpr bool opselDst = true;
  static uint32_t f(uint32_t a, uint32_t b, uint32_t c) {
    return fmaToHalf(halfToFloat(uint16_t(a)), halfToFloat(uint16_t(b)),
                     halfToFloat(uint16_t(c)));
  }
};
struct FmacF16 : FmaF16 {
  static constexpr bool opselDst = false;
};

//===----------------------------------------------------------------------===//
// Ops with a lane mask result or input
//===----------------------------------------------------------------------===//

void cndmask(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  uint64_t mask = dppWriteMask(w, in, exec);
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::F32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::F32, b1);
  uint64_t sel = in.nsrc >= 3 ? readScalar64(w, in.src[2]) : w.vcc();
  for (int l = 0; l < kLanes; ++l)
    r[l] = ((sel >> l) & 1) ? b[l] : a[l];
  if (in.form & kFormSdwa)
    writeResult(w, in, r, Ty::B32, mask);
  else
    writeMasked(w.row(in.dst[0].reg), r, mask);
}

/// The SGPR pair a VOP2/VOP3 carry or VOPC result goes to: VCC for e32
/// (implicit), else the explicit sdst.
const Opnd *maskDst(const Inst &in, unsigned explicitIndex) {
  if (in.ndst > explicitIndex && in.dst[explicitIndex].kind == OpndKind::Sgpr)
    return &in.dst[explicitIndex];
  return nullptr;
}
void writeMask(Wave &w, const Opnd *d, uint64_t m) {
  if (d)
    writeScalar64(w, *d, m);
  else
    w.setVcc(m);
}

enum CarryOp : uint16_t { AddCo, SubCo, SubrevCo, Addc, Subb, Subbrev };
void carryOp(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::B32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::B32, b1);
  bool hasCarryIn = in.op >= Addc;
  uint64_t cin = 0;
  if (hasCarryIn)
    cin = in.nsrc >= 3 ? readScalar64(w, in.src[2]) : w.vcc();
  uint64_t cout = 0;
  for (int l = 0; l < kLanes; ++l) {
    uint64_t x = a[l], y = b[l], ci = (cin >> l) & 1, res;
    bool c;
    switch (CarryOp(in.op)) {
    case AddCo: res = x + y; c = res >> 32; break;
    case SubCo: res = x - y; c = y > x; break;
    case SubrevCo: res = y - x; c = x > y; break;
    case Addc: res = x + y + ci; c = res >> 32; break;
    case Subb: res = x - y - ci; c = y + ci > x; break;
    default: res = y - x - ci; c = x + ci > y; break;
    }
    r[l] = uint32_t(res);
    cout |= uint64_t(c) << l;
  }
  if (in.clamp) {
    w.fault("clamp on a carry-out integer operation is not modelled");
    return;
  }
  // DPP forms (v_add_co_u32_dpp ..., which LLVM's DPP combine produces)
  // leave lanes their row/bank mask or an invalid source without bound_ctrl
  // disables unwritten, and SDWA forms write through dst_sel/dst_unused;
  // both were written as plain e32 results.
  uint64_t mask = dppWriteMask(w, in, exec);
  if (in.form & kFormSdwa)
    writeResult(w, in, r, Ty::B32, mask);
  else
    writeMasked(w.row(in.dst[0].reg), r, mask);
  writeMask(w, maskDst(in, 1), cout & mask);
}

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

void divFmasF32(Wave &w, const Inst &in) {
  uint64_t exec = w.exec(), vcc = w.vcc();
  alignas(64) uint32_t b0[kLanes], b1[kLanes], b2[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::F32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::F32, b1);
  const uint32_t *c = fetchSrc(w, in, 2, Ty::F32, b2);
  for (int l = 0; l < kLanes; ++l) {
    float x = std::fma(asF(a[l]), asF(b[l]), asF(c[l]));
    if ((vcc >> l) & 1)
      x = float(std::ldexp(double(std::fma(double(asF(a[l])), double(asF(b[l])),
                                           double(asF(c[l])))),
                           exponentOf(asF(c[l])) > 127 ? 64 : -64));
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

/// gfx950 v_bitop3_b32/b16: a bitwise function of three sources given by an
/// 8-entry truth table indexed by (src0 bit << 2 | src1 bit << 1 | src2 bit),
/// the convention under which LLVM builds the table from 0xf0/0xcc/0xaa.
inline uint32_t bitop3(uint32_t a, uint32_t b, uint32_t c, unsigned table) {
  uint32_t r = 0;
  for (unsigned i = 0; i < 8; ++i)
    if ((table >> i) & 1)
      r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  return r;
}
void bitop3Op(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t b[3][kLanes], r[kLanes];
  const uint32_t *s[3];
  for (unsigned i = 0; i < 3; ++i)
    s[i] = lanes(w, in.src[i], b[i]);
  unsigned table = in.nctrl ? unsigned(in.ctrl[0]) & 0xff : 0;
  if (in.op == 32) {
    for (int l = 0; l < kLanes; ++l)
      r[l] = bitop3(s[0][l], s[1][l], s[2][l], table);
  } else {
    // b16: op_sel picks each source's half and the destination half; the
    // other destination half is preserved.
    const uint32_t *old = w.row(in.dst[0].reg);
    bool hiDst = in.src[0].mods & kModOpSel1;
    for (int l = 0; l < kLanes; ++l) {
      uint32_t x[3];
      for (unsigned i = 0; i < 3; ++i)
        x[i] = (in.src[i].mods & kModOpSel0) ? s[i][l] >> 16 : s[i][l];
      uint32_t y = bitop3(x[0], x[1], x[2], table) & 0xffff;
      r[l] = hiDst ? (old[l] & 0xffff) | (y << 16) : (old[l] & 0xffff0000u) | y;
    }
  }
  writeMasked(w.row(in.dst[0].reg), r, exec);
}

void mbcnt(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = lanes(w, in.src[0], b0);
  const uint32_t *b = lanes(w, in.src[1], b1);
  bool hi = in.op == 1;
  for (int l = 0; l < kLanes; ++l) {
    uint64_t below = l == 0 ? 0 : (~0ull >> (64 - l));
    uint32_t part = hi ? uint32_t(below >> 32) : uint32_t(below);
    r[l] = uint32_t(llvm::popcount(a[l] & part)) + b[l];
  }
  writeMasked(w.row(in.dst[0].reg), r, exec);
}

void swap(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  uint32_t *x = w.row(in.dst[0].reg), *y = w.row(in.dst[1].reg);
  for (int l = 0; l < kLanes; ++l)
    if ((exec >> l) & 1)
      std::swap(x[l], y[l]);
}

//===----------------------------------------------------------------------===//
// VOPC
//===----------------------------------------------------------------------===//

enum Cmp : uint8_t { CF, CLt, CEq, CLe, CGt, CLg, CGe, CO, CU, CNge, CNlg, CNgt,
                     CNle, CNeq, CNlt, CTru, CNe };

template <class T> bool compareF(T a, T b, Cmp c) {
  switch (c) {
  case CF: return false;
  case CLt: return a < b;
  case CEq: return a == b;
  case CLe: return a <= b;
  case CGt: return a > b;
  case CLg: return a < b || a > b;
  case CGe: return a >= b;
  case CO: return !std::isnan(a) && !std::isnan(b);
  case CU: return std::isnan(a) || std::isnan(b);
  case CNge: return !(a >= b);
  case CNlg: return !(a < b || a > b);
  case CNgt: return !(a > b);
  case CNle: return !(a <= b);
  case CNeq: return !(a == b);
  case CNlt: return !(a < b);
  case CTru: return true;
  default: return false;
  }
}
template <class T> bool compareI(T a, T b, Cmp c) {
  switch (c) {
  case CF: return false;
  case CLt: return a < b;
  case CEq: return a == b;
  case CLe: return a <= b;
  case CGt: return a > b;
  case CNe: return a != b;
  case CGe: return a >= b;
  case CTru: return true;
  default: return false;
  }
}

enum CmpType : uint8_t { TF16, TF32, TF64, TI16, TU16, TI32, TU32, TI64, TU64,
                         TClassF32, TClassF64, TClassF16 };

bool classify(double x, uint32_t mask, bool isSubnormal) {
  bool r = false;
  if (std::isnan(x)) {
    // bit 0 signalling, bit 1 quiet; double NaNs here are already classed by
    // the caller's width, treat all as quiet unless flagged.
    r |= (mask & 2) != 0;
  } else if (std::isinf(x)) {
    r |= (mask & (std::signbit(x) ? 4 : 512)) != 0;
  } else if (x == 0) {
    r |= (mask & (std::signbit(x) ? 32 : 64)) != 0;
  } else if (isSubnormal) {
    r |= (mask & (std::signbit(x) ? 16 : 128)) != 0;
  } else {
    r |= (mask & (std::signbit(x) ? 8 : 256)) != 0;
  }
  return r;
}

template <bool X> void vcmp(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  Cmp c = Cmp(in.op & 0xff);
  CmpType t = CmpType(in.op >> 8);
  Ty ty = t == TF32 || t == TClassF32 ? Ty::F32 : t == TF16 || t == TClassF16 ? Ty::F16 : Ty::B32;
  alignas(64) uint32_t b0[kLanes], b1[kLanes], b2[kLanes], b3[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, ty, b0);
  const uint32_t *b = fetchSrc(w, in, 1, t == TClassF32 || t == TClassF64 || t == TClassF16 ? Ty::B32 : ty, b1);
  const uint32_t *ah = a, *bh = b;
  bool wide = t == TF64 || t == TI64 || t == TU64 || t == TClassF64;
  if (wide) {
    ah = lanes(w, in.src[0], b2, 1);
    if (t != TClassF64)
      bh = lanes(w, in.src[1], b3, 1);
  }
  uint64_t m = 0;
  for (int l = 0; l < kLanes; ++l) {
    bool r = false;
    switch (t) {
    case TF32: r = compareF(asF(a[l]), asF(b[l]), c); break;
    case TF16: r = compareF(halfToFloat(uint16_t(a[l])), halfToFloat(uint16_t(b[l])), c); break;
    case TF64: {
      uint64_t x = uint64_t(a[l]) | (uint64_t(ah[l]) << 32);
      uint64_t y = uint64_t(b[l]) | (uint64_t(bh[l]) << 32);
      if (in.src[0].mods & kModAbs) x &= ~(1ull << 63);
      if (in.src[0].mods & kModNeg) x ^= 1ull << 63;
      if (in.src[1].mods & kModAbs) y &= ~(1ull << 63);
      if (in.src[1].mods & kModNeg) y ^= 1ull << 63;
      r = compareF(asD(x), asD(y), c);
      break;
    }
    case TI16: r = compareI(int16_t(a[l]), int16_t(b[l]), c); break;
    case TU16: r = compareI(uint16_t(a[l]), uint16_t(b[l]), c); break;
    case TI32: r = compareI(int32_t(a[l]), int32_t(b[l]), c); break;
    case TU32: r = compareI(a[l], b[l], c); break;
    case TI64: r = compareI(int64_t(uint64_t(a[l]) | (uint64_t(ah[l]) << 32)),
                            int64_t(uint64_t(b[l]) | (uint64_t(bh[l]) << 32)), c); break;
    case TU64: r = compareI(uint64_t(a[l]) | (uint64_t(ah[l]) << 32),
                            uint64_t(b[l]) | (uint64_t(bh[l]) << 32), c); break;
    case TClassF32: {
      float x = asF(a[l]);
      bool snan = std::isnan(x) && !(a[l] & 0x400000);
      r = snan ? (b[l] & 1) : classify(x, b[l], isDenorm(x));
      break;
    }
    case TClassF16: {
      uint16_t h = uint16_t(a[l]);
      float x = halfToFloat(h);
      bool snan = std::isnan(x) && !(h & 0x200);
      bool sub = (h & 0x7c00) == 0 && (h & 0x3ff);
      r = snan ? (b[l] & 1) : classify(x, b[l], sub);
      break;
    }
    case TClassF64: {
      uint64_t bits = uint64_t(a[l]) | (uint64_t(ah[l]) << 32);
      double x = asD(bits);
      bool snan = std::isnan(x) && !(bits & (1ull << 51));
      r = snan ? (b[l] & 1) : classify(x, b[l], std::fpclassify(x) == FP_SUBNORMAL);
      break;
    }
    }
    m |= uint64_t(r) << l;
  }
  m &= exec;
  // e32/SDWA write VCC (SDWA may name an SGPR pair), e64 the explicit sdst.
  const Opnd *d = maskDst(in, 0);
  if (X) {
    if (d)
      writeScalar64(w, *d, m);
    else if (!(in.form & kFormE64))
      w.setVcc(m);
    w.setExec(m);
  } else {
    writeMask(w, d, m);
  }
}

//===----------------------------------------------------------------------===//
// 64-bit operations
//===----------------------------------------------------------------------===//

struct Wide {
  uint64_t v[kLanes];
};

/// Fetches source `i` as 64-bit lane values: width 2 reads a register pair
/// (or a 64-bit constant), width 1 zero-extends a 32-bit value.
/// `f32` marks a 32-bit float source (v_cvt_f64_f32): its neg/abs act on
/// bit 31, not on the bit 63 of the zero-extended value.
void fetch64(Wave &w, const Inst &in, unsigned i, bool pair, bool isFloat,
             Wide &out, bool f32 = false) {
  alignas(64) uint32_t lo[kLanes], hi[kLanes];
  const uint32_t *pl = lanes(w, in.src[i], lo);
  const uint32_t *ph = pair ? lanes(w, in.src[i], hi, 1) : nullptr;
  uint8_t mods = in.src[i].mods;
  for (int l = 0; l < kLanes; ++l) {
    uint64_t x = pl[l] | (ph ? uint64_t(ph[l]) << 32 : 0);
    if (isFloat) {
      uint64_t sign = f32 ? 1ull << 31 : 1ull << 63;
      if (mods & kModAbs) x &= ~sign;
      if (mods & kModNeg) x ^= sign;
    }
    out.v[l] = x;
  }
}

/// Writes 64-bit lane values to a register pair, or the low dwords to a
/// single register when the destination is 32-bit.
void write64(Wave &w, const Opnd &d, const Wide &r, uint64_t exec) {
  uint32_t *lo = w.row(d.reg);
  uint32_t *hi = d.width >= 2 ? w.row(d.reg + 1) : nullptr;
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    lo[l] = uint32_t(r.v[l]);
    if (hi)
      hi[l] = uint32_t(r.v[l] >> 32);
  }
}

template <class Op> void vop64(Wave &w, const Inst &in) {
  // gfx90a+'s v_mov_b64_dpp (row_newbcast) would otherwise run as a plain
  // move: refuse it instead.
  if (in.form & kFormDpp) {
    w.fault("DPP on a 64-bit operation (v_mov_b64_dpp) is not modelled");
    return;
  }
  uint64_t exec = w.exec();
  static Wide unused;
  Wide a, b, c, r;
  fetch64(w, in, 0, Op::w0 == 2, Op::fl, a, Op::f32in);
  if (Op::n >= 2)
    fetch64(w, in, 1, Op::w1 == 2, Op::fl, b);
  if (Op::n >= 3)
    fetch64(w, in, 2, Op::w2 == 2, Op::fl, c);
  for (int l = 0; l < kLanes; ++l)
    r.v[l] = Op::f(a.v[l], Op::n >= 2 ? b.v[l] : 0, Op::n >= 3 ? c.v[l] : 0);
  if (Op::fl && (in.omod || in.clamp)) {
    static const double scale[4] = {1.0, 2.0, 4.0, 0.5};
    for (int l = 0; l < kLanes; ++l) {
      double x = asD(r.v[l]) * scale[in.omod & 3];
      if (in.clamp)
        x = std::isnan(x) ? 0.0 : std::fmin(std::fmax(x, 0.0), 1.0);
      r.v[l] = asU64(x);
    }
  }
  (void)unused;
  write64(w, in.dst[0], r, exec);
}

#define OP64(NAME, N, W0, W1, W2, FL, ...)                                    \
  struct NAME {                                                                \
    static constexpr int n = N, w0 = W0, w1 = W1, w2 = W2;                     \
    static constexpr bool fl = FL, f32in = false;                              \
    static inline uint64_t f(uint64_t a, uint64_t b, uint64_t c) {             \
      (void)a; (void)b; (void)c;                                               \
      __VA_ARGS__                                                              \
    }                                                                          \
  };
#define F64_1(NAME, ...) OP64(NAME, 1, 2, 2, 2, true, double x = asD(a); return asU64(__VA_ARGS__);)
#define F64_2(NAME, ...) OP64(NAME, 2, 2, 2, 2, true, double x = asD(a), y = asD(b); return asU64(__VA_ARGS__);)

double fractD(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return std::numeric_limits<double>::quiet_NaN();
  return std::fmin(x - std::floor(x), 0x1.fffffffffffffp-1);
}
uint32_t cvtI32D(double x) {
  if (std::isnan(x)) return 0;
  if (x <= -2147483648.0) return 0x80000000u;
  if (x >= 2147483647.0) return 0x7fffffffu;
  return uint32_t(int32_t(x));
}
uint32_t cvtU32D(double x) {
  if (std::isnan(x) || x <= 0) return 0;
  if (x >= 4294967295.0) return ~0u;
  return uint32_t(x);
}

F64_2(AddF64, x + y)
F64_2(MulF64, x * y)
F64_2(MaxF64, fmaxIeee64(x, y))
F64_2(MinF64, fminIeee64(x, y))
OP64(FmaF64, 3, 2, 2, 2, true, return asU64(std::fma(asD(a), asD(b), asD(c)));)
// v_fmac_f64: the accumulator is the destination (MC lists it as a tied
// third source).
using FmacF64 = FmaF64;
F64_1(RcpF64, 1.0 / x)
F64_1(RsqF64, 1.0 / std::sqrt(x))
F64_1(SqrtF64, std::sqrt(x))
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
// The source is an f32: neg/abs apply to it (LLVM folds fpext(fneg x) into
// v_cvt_f64_f32 -x); they were ignored when the op was marked non-float.
struct CvtF64F32 {
  static constexpr int n = 1, w0 = 1, w1 = 1, w2 = 1;
  static constexpr bool fl = true, f32in = true;
  static uint64_t f(uint64_t a, uint64_t, uint64_t) {
    return asU64(double(asF(uint32_t(a))));
  }
};
OP64(CvtF32F64, 1, 2, 2, 2, true, return asU(float(asD(a)));)
OP64(CvtF64I32, 1, 1, 1, 1, false, return asU64(double(int32_t(uint32_t(a))));)
OP64(CvtF64U32, 1, 1, 1, 1, false, return asU64(double(uint32_t(a)));)
OP64(CvtI32F64, 1, 2, 2, 2, true, return cvtI32D(asD(a));)
OP64(CvtU32F64, 1, 2, 2, 2, true, return cvtU32D(asD(a));)
OP64(LshlrevB64, 2, 1, 2, 2, false, return b << (a & 63);)
OP64(LshrrevB64, 2, 1, 2, 2, false, return b >> (a & 63);)
OP64(AshrrevI64, 2, 1, 2, 2, false, return uint64_t(int64_t(b) >> (a & 63));)
OP64(LshlAddU64, 3, 2, 1, 2, false, return (a << (b & 7)) + c;)
OP64(MovB64, 1, 2, 2, 2, false, return a;)
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

/// 2/pi as the ISA defines it for V_TRIG_PREOP_F64: a 1201-bit binary
/// fraction 0.b1200 b1199 ... b0, most significant bits first (the last
/// word holds the 17 bits b16..b0 at its top). Generated here from pi by
/// Machin's formula in exact integer arithmetic (floor(2^1201 * 2/pi)).
const uint32_t kTwoOverPi[38] = {
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041,
    0xfe5163ab, 0xdebbc561, 0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c,
    0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484, 0xe99c7026, 0xb45f7e41,
    0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
    0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d,
    0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08,
    0x56033046, 0xfc7b0000};

/// V_TRIG_PREOP_F64 (CDNA3 ISA): the 53 bits of 2/pi starting `shift` bits
/// below its MSB, shift = 53 * S1[4:0] plus, for S0 exponents above 1077,
/// the excess (so that S0 times the segment keeps its integer bits
/// small), scaled to their place value 2^(-53 - shift) and by 2^128 more
/// when S0's exponent is 1968 or more (the f64 sin/cos code scales such
/// arguments down by 2^128). Bits past b0 are zero. The result is exact
/// unless it underflows. NaN S0 is returned quieted, like every f64 op.
uint64_t trigPreop(uint64_t src, uint32_t sel) {
  if (std::isnan(asD(src)))
    return src | (1ull << 51);
  int exponent = int((src >> 52) & 0x7ff);
  int shift = 53 * int(sel & 31) + (exponent > 1077 ? exponent - 1077 : 0);
  uint64_t seg = 0;
  for (int i = 0; i < 53; ++i) {
    int pos = shift + i; // bit b(1200 - pos)
    uint64_t b = pos < 1201 ? (kTwoOverPi[pos / 32] >> (31 - pos % 32)) & 1 : 0;
    seg = seg << 1 | b;
  }
  int scale = -53 - shift + (exponent >= 1968 ? 128 : 0);
  return asU64(std::ldexp(double(seg), scale));
}
OP64(TrigPreopF64, 2, 2, 1, 1, true, return trigPreop(a, uint32_t(b));)

void divScaleF64(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  Wide a, b, c, r;
  fetch64(w, in, 0, true, true, a);
  fetch64(w, in, 1, true, true, b);
  fetch64(w, in, 2, true, true, c);
  uint64_t vcc = 0;
  auto expo = [](double x) { return int((asU64(x) >> 52) & 0x7ff); };
  for (int l = 0; l < kLanes; ++l) {
    double s0 = asD(a.v[l]), s1 = asD(b.v[l]), s2 = asD(c.v[l]), d = s0;
    bool v = false;
    const double dmin = std::numeric_limits<double>::min();
    if (s2 == 0 || s1 == 0) {
      d = std::numeric_limits<double>::quiet_NaN();
    } else if (expo(s2) - expo(s1) >= 768) {
      v = true;
      if (s0 == s1) d = std::ldexp(s0, 128);
    } else if (std::fpclassify(s1) == FP_SUBNORMAL) {
      d = std::ldexp(s0, 128);
    } else if (std::fabs(1.0 / s1) < dmin && std::fpclassify(s2 / s1) == FP_SUBNORMAL) {
      v = true;
      if (s0 == s1) d = std::ldexp(s0, 128);
    } else if (std::fabs(1.0 / s1) < dmin) {
      d = std::ldexp(s0, -128);
    } else if (std::fpclassify(s2 / s1) == FP_SUBNORMAL) {
      v = true;
      if (s0 == s2) d = std::ldexp(s0, 128);
    } else if (expo(s2) <= 53) {
      d = std::ldexp(s0, 128);
    }
    (void)dmin;
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
      x = std::ldexp(x, ((asU64(asD(c.v[l])) >> 52) & 0x7ff) > 1023 ? 128 : -128);
    r.v[l] = asU64(x);
  }
  write64(w, in.dst[0], r, exec);
}

/// v_mad_u64_u32 / v_mad_i64_i32: 64-bit multiply-add with a carry-out mask.
template <bool Signed> void madWide(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  Wide a, b, c, r;
  fetch64(w, in, 0, false, false, a);
  fetch64(w, in, 1, false, false, b);
  fetch64(w, in, 2, true, false, c);
  uint64_t carry = 0;
  for (int l = 0; l < kLanes; ++l) {
    if (Signed) {
      __int128 p = __int128(int64_t(int32_t(uint32_t(a.v[l])))) *
                       int64_t(int32_t(uint32_t(b.v[l]))) +
                   __int128(int64_t(c.v[l]));
      r.v[l] = uint64_t(p);
      carry |= uint64_t(p != __int128(int64_t(r.v[l]))) << l;
    } else {
      unsigned __int128 p = (unsigned __int128)(a.v[l] & 0xffffffff) *
                                (b.v[l] & 0xffffffff) +
                            c.v[l];
      r.v[l] = uint64_t(p);
      carry |= uint64_t(p >> 64) << l;
    }
  }
  write64(w, in.dst[0], r, exec);
  if (in.ndst >= 2)
    writeScalar64(w, in.dst[1], carry & exec);
}

//===----------------------------------------------------------------------===//
// Packed math (VOP3P)
//===----------------------------------------------------------------------===//

/// Half `hi` of packed source `i` with op_sel/op_sel_hi and neg_lo/neg_hi.
inline uint16_t pkHalf(const Inst &in, unsigned i, uint32_t x, bool hi) {
  bool sel = hi ? (in.opSelHi >> i) & 1 : (in.opSel >> i) & 1;
  uint16_t h = uint16_t(sel ? x >> 16 : x);
  return h;
}
inline bool pkNeg(const Inst &in, unsigned i, bool hi) {
  return hi ? (in.negHi >> i) & 1 : (in.negLo >> i) & 1;
}

enum PkOp : uint16_t { PkAddF16, PkMulF16, PkFmaF16, PkMaxF16, PkMinF16,
                       PkMaximum3F16, PkMinimum3F16, // float ops end here
                       PkAddU16, PkSubU16, PkMulLoU16, PkLshlrevB16,
                       PkLshrrevB16, PkAshrrevI16, PkMaxU16, PkMinU16,
                       PkMaxI16, PkMinI16, PkAddI16, PkSubI16, PkMadU16 };

void pk16(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t b0[kLanes], b1[kLanes], b2[kLanes], r[kLanes];
  const uint32_t *s[3] = {lanes(w, in.src[0], b0),
                          in.nsrc > 1 ? lanes(w, in.src[1], b1) : b0,
                          in.nsrc > 2 ? lanes(w, in.src[2], b2) : b0};
  bool isFloat = in.op <= PkMinimum3F16;
  for (int l = 0; l < kLanes; ++l) {
    uint32_t out = 0;
    for (int h = 0; h < 2; ++h) {
      uint16_t x[3];
      for (unsigned i = 0; i < in.nsrc && i < 3; ++i) {
        x[i] = pkHalf(in, i, s[i][l], h);
        if (isFloat && pkNeg(in, i, h))
          x[i] ^= 0x8000;
      }
      uint32_t y = 0;
      float fa = isFloat ? halfToFloat(x[0]) : 0, fb = isFloat ? halfToFloat(x[1]) : 0;
      switch (PkOp(in.op)) {
      case PkAddF16: y = floatToHalf(fa + fb); break;
      case PkMulF16: y = floatToHalf(fa * fb); break;
      case PkFmaF16:
        y = fmaToHalf(fa, fb, halfToFloat(x[2]));
        break;
      case PkMaxF16: y = minMaxF16(x[0], x[1], true); break;
      case PkMinF16: y = minMaxF16(x[0], x[1], false); break;
      case PkMaximum3F16: y = maximum3F16(x[0], x[1], x[2], true); break;
      case PkMinimum3F16: y = maximum3F16(x[0], x[1], x[2], false); break;
      case PkAddU16: case PkAddI16: y = x[0] + x[1]; break;
      case PkSubU16: case PkSubI16: y = x[0] - x[1]; break;
      case PkMulLoU16: y = x[0] * x[1]; break;
      case PkMadU16: y = x[0] * x[1] + x[2]; break;
      case PkLshlrevB16: y = x[1] << (x[0] & 15); break;
      case PkLshrrevB16: y = x[1] >> (x[0] & 15); break;
      case PkAshrrevI16: y = uint16_t(int16_t(x[1]) >> (x[0] & 15)); break;
      case PkMaxU16: y = std::max(x[0], x[1]); break;
      case PkMinU16: y = std::min(x[0], x[1]); break;
      case PkMaxI16: y = uint16_t(std::max(int16_t(x[0]), int16_t(x[1]))); break;
      case PkMinI16: y = uint16_t(std::min(int16_t(x[0]), int16_t(x[1]))); break;
      }
      if (in.clamp && isFloat) {
        float f = halfToFloat(uint16_t(y));
        y = floatToHalf(std::isnan(f) ? 0.0f : std::fmin(std::fmax(f, 0.0f), 1.0f));
      }
      // Integer clamp saturates the exact result to the element type (LLVM
      // selects v_pk_add_u16 clamp for uadd.sat on v2i16, and so on); it
      // was ignored, leaving the wrapped value.
      if (in.clamp && !isFloat) {
        int64_t u0 = x[0], u1 = in.nsrc > 1 ? x[1] : 0, u2 = in.nsrc > 2 ? x[2] : 0;
        int64_t s0 = int16_t(x[0]), s1 = in.nsrc > 1 ? int16_t(x[1]) : 0;
        switch (PkOp(in.op)) {
        case PkAddU16: y = uint32_t(std::clamp<int64_t>(u0 + u1, 0, 0xffff)); break;
        case PkSubU16: y = uint32_t(std::clamp<int64_t>(u0 - u1, 0, 0xffff)); break;
        case PkMadU16: y = uint32_t(std::clamp<int64_t>(u0 * u1 + u2, 0, 0xffff)); break;
        case PkAddI16: y = uint32_t(std::clamp<int64_t>(s0 + s1, -32768, 32767)); break;
        case PkSubI16: y = uint32_t(std::clamp<int64_t>(s0 - s1, -32768, 32767)); break;
        default:
          w.fault("clamp on this packed integer operation is not modelled");
          return;
        }
      }
      out |= (y & 0xffff) << (16 * h);
    }
    r[l] = out;
  }
  writeMasked(w.row(in.dst[0].reg), r, exec);
}

/// v_pk_{fma,mul,add}_f32 and v_pk_mov_b32: each source is a 64-bit pair;
/// op_sel picks which dword feeds the low result, op_sel_hi the high one.
enum PkF32Op : uint16_t { PkFmaF32, PkMulF32, PkAddF32, PkMovB32 };
void pkF32(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t lo[3][kLanes], hi[3][kLanes], r[2][kLanes];
  static const uint32_t zero[kLanes] = {};
  const uint32_t *sl[3] = {zero, zero, zero}, *sh[3] = {zero, zero, zero};
  for (unsigned i = 0; i < in.nsrc && i < 3; ++i) {
    sl[i] = lanes(w, in.src[i], lo[i], 0);
    // A 32-bit constant's second dword is zero (LLVM selects op_sel_hi:0
    // for constants so that both halves read the value).
    sh[i] = lanes(w, in.src[i], hi[i], 1);
  }
  for (int h = 0; h < 2; ++h) {
    const uint32_t *x[3];
    uint32_t neg[3];
    for (unsigned i = 0; i < 3; ++i) {
      bool sel = h ? (in.opSelHi >> i) & 1 : (in.opSel >> i) & 1;
      x[i] = sel ? sh[i] : sl[i];
      neg[i] = i < in.nsrc && pkNeg(in, i, h) && in.op != PkMovB32 ? 0x80000000u : 0;
    }
    uint32_t *out = r[h];
    switch (PkF32Op(in.op)) {
    case PkFmaF32:
      fmaLanes(x[0], x[1], x[2], out, neg[0], neg[1], neg[2]);
      break;
    case PkMulF32:
      for (int l = 0; l < kLanes; ++l)
        out[l] = asU(asF(x[0][l] ^ neg[0]) * asF(x[1][l] ^ neg[1]));
      break;
    case PkAddF32:
      for (int l = 0; l < kLanes; ++l)
        out[l] = asU(asF(x[0][l] ^ neg[0]) + asF(x[1][l] ^ neg[1]));
      break;
    case PkMovB32:
      // v_pk_mov_b32: the low result takes src0's selected dword, the high
      // result src1's.
      std::memcpy(out, x[h], sizeof(r[h]));
      break;
    }
    if (in.clamp && in.op != PkMovB32)
      for (int l = 0; l < kLanes; ++l) {
        float y = asF(out[l]);
        out[l] = asU(std::isnan(y) ? 0.0f : std::fmin(std::fmax(y, 0.0f), 1.0f));
      }
  }
  writeMasked(w.row(in.dst[0].reg), r[0], exec);
  writeMasked(w.row(in.dst[0].reg + 1), r[1], exec);
}

/// v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16: op_sel_hi[i] says
/// whether source i is f16 (then op_sel[i] picks its half) or f32.
void fmaMix(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t b[3][kLanes], r[kLanes];
  const uint32_t *s[3];
  for (unsigned i = 0; i < 3; ++i)
    s[i] = lanes(w, in.src[i], b[i]);
  const uint32_t *old = w.row(in.dst[0].reg);
  for (int l = 0; l < kLanes; ++l) {
    float x[3];
    for (unsigned i = 0; i < 3; ++i) {
      uint8_t m = in.src[i].mods;
      if ((in.opSelHi >> i) & 1) {
        uint16_t h = uint16_t(((in.opSel >> i) & 1) ? s[i][l] >> 16 : s[i][l]);
        x[i] = halfToFloat(h);
      } else {
        x[i] = asF(s[i][l]);
      }
      if (m & kModAbs) x[i] = std::fabs(x[i]);
      if (m & kModNeg) x[i] = -x[i];
    }
    float y = std::fma(x[0], x[1], x[2]);
    // The f16 forms round the exact result once (not through the f32 fma).
    uint16_t yh = fmaToHalf(x[0], x[1], x[2]);
    if (in.clamp) {
      y = std::isnan(y) ? 0.0f : std::fmin(std::fmax(y, 0.0f), 1.0f);
      yh = floatToHalf(y == 0.0f || y == 1.0f ? y : halfToFloat(yh));
    }
    if (in.op == 0)
      r[l] = asU(y);
    else if (in.op == 1)
      r[l] = (old[l] & 0xffff0000u) | yh;
    else
      r[l] = (old[l] & 0xffffu) | (uint32_t(yh) << 16);
  }
  writeMasked(w.row(in.dst[0].reg), r, exec);
}

/// v_dot2_f32_f16 / v_dot2_f32_bf16 / v_dot2c_f32_f16.
void dot2F32(Wave &w, const Inst &in) {
  // DPP (v_dot2c_f32_f16_dpp) moves src0 and masks the write; neg_lo/neg_hi
  // negate the low/high products' factors and neg_lo of src2 the addend.
  // Both were ignored.
  uint64_t exec = dppWriteMask(w, in, w.exec());
  alignas(64) uint32_t b[3][kLanes], r[kLanes];
  const uint32_t *s0 = fetchSrc(w, in, 0, Ty::B32, b[0]), *s1 = lanes(w, in.src[1], b[1]);
  const uint32_t *s2 = in.nsrc >= 3 ? lanes(w, in.src[2], b[2]) : w.row(in.dst[0].reg);
  bool bf = in.op == 1;
  if (in.form & kFormSdwa) {
    w.fault("SDWA on v_dot2 is not modelled");
    return;
  }
  for (int l = 0; l < kLanes; ++l) {
    double acc = (in.negLo & 4) ? -double(asF(s2[l])) : double(asF(s2[l]));
    for (int h = 0; h < 2; ++h) {
      uint16_t x = uint16_t(((in.opSel >> 0 & 1) && !h) || ((in.opSelHi & 1) && h) ? s0[l] >> 16 : s0[l]);
      uint16_t y = uint16_t(((in.opSel >> 1 & 1) && !h) || ((in.opSelHi >> 1 & 1) && h) ? s1[l] >> 16 : s1[l]);
      if (in.form & (kFormE32 | kFormDpp)) { // VOP2 v_dot2c: no op_sel
        x = uint16_t(s0[l] >> (16 * h));
        y = uint16_t(s1[l] >> (16 * h));
      }
      float fx = bf ? bf16ToFloat(x) : halfToFloat(x);
      float fy = bf ? bf16ToFloat(y) : halfToFloat(y);
      unsigned neg = h ? in.negHi : in.negLo;
      if (neg & 1)
        fx = -fx;
      if (neg & 2)
        fy = -fy;
      acc += double(fx) * double(fy);
    }
    r[l] = asU(float(acc));
  }
  writeMasked(w.row(in.dst[0].reg), r, exec);
}

} // namespace

void registerValuOps(OpTable &t) {
  const Layout V = Layout::Vop;
#define REG(NAME, OP) t.add(NAME, vop<OP>, V);
  REG("V_ADD_F32", AddF32) REG("V_SUB_F32", SubF32) REG("V_SUBREV_F32", SubrevF32)
  REG("V_MUL_F32", MulF32) REG("V_MUL_LEGACY_F32", MulLegacyF32)
  REG("V_MAD_LEGACY_F32", MadF32) REG("V_MAD_F32", MadF32)
  REG("V_MAC_F32", MadF32) REG("V_MAX_F32", MaxF32) REG("V_MIN_F32", MinF32)
  REG("V_MAX3_F32", Max3F32) REG("V_MIN3_F32", Min3F32) REG("V_MED3_F32", Med3F32)
  REG("V_MAXIMUM3_F32", Maximum3F32) REG("V_MINIMUM3_F32", Minimum3F32)
  REG("V_EXP_F32", ExpF32) REG("V_LOG_F32", LogF32) REG("V_RCP_F32", RcpF32)
  REG("V_RCP_IFLAG_F32", RcpF32) REG("V_RSQ_F32", RsqF32) REG("V_SQRT_F32", SqrtF32)
  REG("V_SIN_F32", SinF32) REG("V_COS_F32", CosF32)
  REG("V_FLOOR_F32", FloorF32) REG("V_CEIL_F32", CeilF32) REG("V_TRUNC_F32", TruncF32)
  REG("V_RNDNE_F32", RndneF32) REG("V_FRACT_F32", FractF32)
  REG("V_FREXP_MANT_F32", FrexpMantF32) REG("V_FREXP_EXP_I32_F32", FrexpExpF32)
  REG("V_LDEXP_F32", LdexpF32) REG("V_DIV_FIXUP_F32", DivFixupF32)
  REG("V_CVT_F32_U32", CvtF32U32) REG("V_CVT_F32_I32", CvtF32I32)
  REG("V_CVT_U32_F32", CvtU32F32) REG("V_CVT_I32_F32", CvtI32F32)
  REG("V_CVT_RPI_I32_F32", CvtRpiI32F32) REG("V_CVT_FLR_I32_F32", CvtFlrI32F32)
  REG("V_CVT_F16_F32", CvtF16F32) REG("V_CVT_F32_F16", CvtF32F16)
  REG("V_CVT_F32_UBYTE0", CvtF32Ubyte0) REG("V_CVT_F32_UBYTE1", CvtF32Ubyte1)
  REG("V_CVT_F32_UBYTE2", CvtF32Ubyte2) REG("V_CVT_F32_UBYTE3", CvtF32Ubyte3)
  REG("V_CVT_PKRTZ_F16_F32", CvtPkrtzF16F32) REG("V_CVT_PK_BF16_F32", CvtPkBf16F32)
  REG("V_CVT_PK_F16_F32", CvtPkF16F32)
  REG("V_CVT_F32_BF16", CvtF32Bf16) REG("V_PACK_B32_F16", PackB32F16)
  REG("V_CVT_PK_U16_U32", CvtPkU16U32) REG("V_CVT_PK_I16_I32", CvtPkI16I32)
  REG("V_MOV_B32", MovB32) REG("V_ACCVGPR_READ_B32", MovB32)
  REG("V_ACCVGPR_WRITE_B32", MovB32) REG("V_ACCVGPR_MOV_B32", MovB32)
  REG("V_NOT_B32", NotB32) REG("V_BFREV_B32", BfrevB32)
  REG("V_FFBH_U32", FfbhU32) REG("V_FFBL_B32", FfblB32) REG("V_FFBH_I32", FfbhI32)
  REG("V_AND_B32", AndB32) REG("V_OR_B32", OrB32) REG("V_XOR_B32", XorB32)
  REG("V_XNOR_B32", XnorB32)
  REG("V_LSHLREV_B32", LshlrevB32) REG("V_LSHRREV_B32", LshrrevB32)
  REG("V_ASHRREV_I32", AshrrevI32)
  t.add("V_ADD_U32", vopSatU<AddU32, SatAdd, 32>, V);
  t.add("V_SUB_U32", vopSatU<SubU32, SatSub, 32>, V);
  t.add("V_ADD_I32", vopSatI32<AddU32, SatAdd>, V);
  t.add("V_SUB_I32", vopSatI32<SubU32, SatSub>, V);
  t.add("V_SUBREV_U32", vopSatU<SubrevU32, SatSubrev, 32>, V);
  REG("V_MUL_LO_U32", MulLoU32) REG("V_MUL_HI_U32", MulHiU32) REG("V_MUL_HI_I32", MulHiI32)
  REG("V_MUL_U32_U24", MulU32U24) REG("V_MUL_HI_U32_U24", MulHiU32U24)
  REG("V_MUL_I32_I24", MulI32I24) REG("V_MUL_HI_I32_I24", MulHiI32I24)
  REG("V_MAD_U32_U24", MadU32U24) REG("V_MAD_I32_I24", MadI32I24)
  REG("V_MIN_U32", MinU32) REG("V_MAX_U32", MaxU32) REG("V_MIN_I32", MinI32)
  REG("V_MAX_I32", MaxI32) REG("V_MIN3_U32", Min3U32) REG("V_MAX3_U32", Max3U32)
  REG("V_MED3_U32", Med3U32) REG("V_MIN3_I32", Min3I32) REG("V_MAX3_I32", Max3I32)
  REG("V_MED3_I32", Med3I32)
  REG("V_BFE_U32", BfeU32) REG("V_BFE_I32", BfeI32) REG("V_BFI_B32", BfiB32)
  REG("V_BFM_B32", BfmB32)
  t.add("V_ALIGNBIT_B32", vopNoOpsel<AlignbitB32>, V);
  t.add("V_ALIGNBYTE_B32", vopNoOpsel<AlignbyteB32>, V);
  REG("V_BCNT_U32_B32", BcntU32B32)
  REG("V_LSHL_ADD_U32", LshlAddU32) REG("V_ADD_LSHL_U32", AddLshlU32)
  REG("V_LSHL_OR_B32", LshlOrB32) REG("V_AND_OR_B32", AndOrB32)
  REG("V_OR3_B32", Or3B32) REG("V_XOR3_B32", Xor3B32) REG("V_ADD3_U32", Add3U32)
  REG("V_XAD_U32", XadU32) REG("V_MAD_U32_U16", MadU32U16) REG("V_PERM_B32", PermB32)
  REG("V_ADD_F16", AddF16) REG("V_SUB_F16", SubF16) REG("V_SUBREV_F16", SubrevF16)
  REG("V_MUL_F16", MulF16) REG("V_MAX_F16", MaxF16) REG("V_MIN_F16", MinF16)
  REG("V_EXP_F16", ExpF16) REG("V_LOG_F16", LogF16) REG("V_RCP_F16", RcpF16)
  REG("V_SQRT_F16", SqrtF16) REG("V_RSQ_F16", RsqF16)
  REG("V_FLOOR_F16", FloorF16) REG("V_CEIL_F16", CeilF16) REG("V_TRUNC_F16", TruncF16)
  REG("V_RNDNE_F16", RndneF16) REG("V_FRACT_F16", FractF16) REG("V_LDEXP_F16", LdexpF16)
  REG("V_CVT_F16_U16", CvtF16U16) REG("V_CVT_F16_I16", CvtF16I16)
  REG("V_CVT_U16_F16", CvtU16F16) REG("V_CVT_I16_F16", CvtI16F16)
  t.add("V_ADD_U16", vopSatU<AddU16, SatAdd, 16>, V);
  t.add("V_SUB_U16", vopSatU<SubU16, SatSub, 16>, V);
  t.add("V_SUBREV_U16", vopSatU<SubrevU16, SatSubrev, 16>, V);
  REG("V_MUL_LO_U16", MulLoU16) REG("V_LSHLREV_B16", LshlrevB16)
  REG("V_LSHRREV_B16", LshrrevB16) REG("V_ASHRREV_I16", AshrrevI16)
  REG("V_MAX_U16", MaxU16) REG("V_MIN_U16", MinU16) REG("V_MAX_I16", MaxI16)
  REG("V_MIN_I16", MinI16)
  REG("V_FMA_F16", FmaF16) REG("V_FMAC_F16", FmacF16)
  t.add("V_ADD_I16", vopSatI16<AddI16, SatAdd>, V);
  t.add("V_SUB_I16", vopSatI16<SubI16, SatSub>, V);
  REG("V_MAD_U16", MadU16) REG("V_MAD_LEGACY_U16", MadLegacyU16)
  REG("V_MAD_I16", MadI16) REG("V_MAD_LEGACY_I16", MadLegacyI16)
  REG("V_MAD_I32_I16", MadI32I16)
  REG("V_MIN3_I16", Min3I16) REG("V_MAX3_I16", Max3I16) REG("V_MED3_I16", Med3I16)
  REG("V_MIN3_U16", Min3U16) REG("V_MAX3_U16", Max3U16) REG("V_MED3_U16", Med3U16)
  REG("V_MIN3_F16", Min3F16) REG("V_MAX3_F16", Max3F16) REG("V_MED3_F16", Med3F16)
  REG("V_DIV_FIXUP_F16", DivFixupF16) REG("V_DIV_FIXUP_LEGACY_F16", DivFixupLegacyF16)
  REG("V_FREXP_MANT_F16", FrexpMantF16) REG("V_FREXP_EXP_I16_F16", FrexpExpI16F16)
  REG("V_SIN_F16", SinF16) REG("V_COS_F16", CosF16)
  REG("V_SAD_U8", SadU8) REG("V_SAD_HI_U8", SadHiU8) REG("V_SAD_U16", SadU16)
  REG("V_SAD_U32", SadU32) REG("V_MSAD_U8", MsadU8) REG("V_LERP_U8", LerpU8)
  REG("V_CVT_PK_U8_F32", CvtPkU8F32)
  REG("V_CVT_PKNORM_I16_F32", CvtPknormI16F32) REG("V_CVT_PKNORM_U16_F32", CvtPknormU16F32)
#undef REG
  t.add("V_CNDMASK_B32", cndmask, V);
  t.add("V_FMA_F32", fmaF32, V);
  t.add("V_FMAC_F32", fmaF32, V);
  t.add("V_ADD_CO_U32", carryOp, V, AddCo);
  t.add("V_SUB_CO_U32", carryOp, V, SubCo);
  t.add("V_SUBREV_CO_U32", carryOp, V, SubrevCo);
  t.add("V_ADDC_CO_U32", carryOp, V, Addc);
  t.add("V_SUBB_CO_U32", carryOp, V, Subb);
  t.add("V_SUBBREV_CO_U32", carryOp, V, Subbrev);
  t.add("V_DIV_SCALE_F32", divScaleF32, V);
  t.add("V_DIV_FMAS_F32", divFmasF32, V);
  t.add("V_MBCNT_LO_U32_B32", mbcnt, V, 0);
  t.add("V_MBCNT_HI_U32_B32", mbcnt, V, 1);
  t.add("V_SWAP_B32", swap, V);
  t.add("V_BITOP3_B32", bitop3Op, Layout::Plain, 32);
  t.add("V_BITOP3_B16", bitop3Op, Layout::Plain, 16);
  t.add("V_FMAMK_F32", fmaK, V, FmaMk);
  t.add("V_FMAAK_F32", fmaK, V, FmaAk);
  t.add("V_MADMK_F32", fmaK, V, MadMk);
  t.add("V_MADAK_F32", fmaK, V, MadAk);

  // 64-bit.
#define REG64(NAME, OP) t.add(NAME, vop64<OP>, V);
  REG64("V_ADD_F64", AddF64) REG64("V_MUL_F64", MulF64) REG64("V_FMA_F64", FmaF64)
  REG64("V_FMAC_F64", FmacF64)
  REG64("V_MAX_F64", MaxF64) REG64("V_MIN_F64", MinF64) REG64("V_RCP_F64", RcpF64)
  REG64("V_RSQ_F64", RsqF64) REG64("V_SQRT_F64", SqrtF64)
  REG64("V_FLOOR_F64", FloorF64) REG64("V_CEIL_F64", CeilF64)
  REG64("V_TRUNC_F64", TruncF64) REG64("V_RNDNE_F64", RndneF64)
  REG64("V_FRACT_F64", FractF64) REG64("V_FREXP_MANT_F64", FrexpMantF64)
  REG64("V_FREXP_EXP_I32_F64", FrexpExpF64) REG64("V_LDEXP_F64", LdexpF64)
  REG64("V_CVT_F64_F32", CvtF64F32) REG64("V_CVT_F32_F64", CvtF32F64)
  REG64("V_CVT_F64_I32", CvtF64I32) REG64("V_CVT_F64_U32", CvtF64U32)
  REG64("V_CVT_I32_F64", CvtI32F64) REG64("V_CVT_U32_F64", CvtU32F64)
  REG64("V_LSHLREV_B64", LshlrevB64) REG64("V_LSHRREV_B64", LshrrevB64)
  REG64("V_ASHRREV_I64", AshrrevI64) REG64("V_LSHL_ADD_U64", LshlAddU64)
  REG64("V_MOV_B64", MovB64) REG64("V_DIV_FIXUP_F64", DivFixupF64)
  REG64("V_TRIG_PREOP_F64", TrigPreopF64)
#undef REG64
  t.add("V_DIV_SCALE_F64", divScaleF64, V);
  t.add("V_DIV_FMAS_F64", divFmasF64, V);
  t.add("V_MAD_U64_U32", madWide<false>, V);
  t.add("V_MAD_I64_I32", madWide<true>, V);

  // VOPC. Op id: type << 8 | condition.
  struct CmpName {
    const char *cond;
    Cmp c;
  };
  static const CmpName fconds[] = {
      {"F", CF}, {"LT", CLt}, {"EQ", CEq}, {"LE", CLe}, {"GT", CGt},
      {"LG", CLg}, {"GE", CGe}, {"O", CO}, {"U", CU}, {"NGE", CNge},
      {"NLG", CNlg}, {"NGT", CNgt}, {"NLE", CNle}, {"NEQ", CNeq},
      {"NLT", CNlt}, {"TRU", CTru}};
  static const CmpName iconds[] = {{"F", CF}, {"LT", CLt}, {"EQ", CEq},
                                   {"LE", CLe}, {"GT", CGt}, {"NE", CNe},
                                   {"GE", CGe}, {"T", CTru}};
  struct TypeName {
    const char *name;
    CmpType t;
  };
  static const TypeName ftypes[] = {{"F16", TF16}, {"F32", TF32}, {"F64", TF64}};
  static const TypeName itypes[] = {{"I16", TI16}, {"U16", TU16}, {"I32", TI32},
                                    {"U32", TU32}, {"I64", TI64}, {"U64", TU64}};
  for (bool x : {false, true}) {
    std::string prefix = x ? "V_CMPX_" : "V_CMP_";
    Handler h = x ? vcmp<true> : vcmp<false>;
    for (auto &ty : ftypes)
      for (auto &c : fconds)
        t.add(prefix + c.cond + "_" + ty.name, h, V, uint16_t(ty.t << 8 | c.c));
    for (auto &ty : itypes)
      for (auto &c : iconds)
        t.add(prefix + c.cond + "_" + ty.name, h, V, uint16_t(ty.t << 8 | c.c));
    t.add(prefix + "CLASS_F32", h, V, uint16_t(TClassF32 << 8));
    t.add(prefix + "CLASS_F64", h, V, uint16_t(TClassF64 << 8));
    t.add(prefix + "CLASS_F16", h, V, uint16_t(TClassF16 << 8));
  }

  // Packed.
  const Layout P = Layout::Vop3p;
  struct {
    const char *name;
    PkOp op;
  } pks[] = {{"V_PK_ADD_F16", PkAddF16}, {"V_PK_MUL_F16", PkMulF16},
             {"V_PK_FMA_F16", PkFmaF16}, {"V_PK_MAX_F16", PkMaxF16},
             {"V_PK_MIN_F16", PkMinF16}, {"V_PK_MAXIMUM3_F16", PkMaximum3F16},
             {"V_PK_MINIMUM3_F16", PkMinimum3F16}, {"V_PK_ADD_U16", PkAddU16},
             {"V_PK_SUB_U16", PkSubU16}, {"V_PK_MUL_LO_U16", PkMulLoU16},
             {"V_PK_LSHLREV_B16", PkLshlrevB16}, {"V_PK_LSHRREV_B16", PkLshrrevB16},
             {"V_PK_ASHRREV_I16", PkAshrrevI16}, {"V_PK_MAX_U16", PkMaxU16},
             {"V_PK_MIN_U16", PkMinU16}, {"V_PK_MAX_I16", PkMaxI16},
             {"V_PK_MIN_I16", PkMinI16}, {"V_PK_ADD_I16", PkAddI16},
             {"V_PK_SUB_I16", PkSubI16}, {"V_PK_MAD_U16", PkMadU16}};
  for (auto &e : pks)
    t.add(e.name, pk16, P, e.op);
  t.add("V_PK_FMA_F32", pkF32, P, PkFmaF32);
  t.add("V_PK_MUL_F32", pkF32, P, PkMulF32);
  t.add("V_PK_ADD_F32", pkF32, P, PkAddF32);
  t.add("V_PK_MOV_B32", pkF32, P, PkMovB32);
  t.add("V_FMA_MIX_F32", fmaMix, P, 0);
  t.add("V_FMA_MIXLO_F16", fmaMix, P, 1);
  t.add("V_FMA_MIXHI_F16", fmaMix, P, 2);
  t.add("V_DOT2_F32_F16", dot2F32, P, 0);
  t.add("V_DOT2_F32_BF16", dot2F32, P, 1);
  t.add("V_DOT2C_F32_F16", dot2F32, V, 0);
  t.add("V_DOT4_I32_I8", dotIntOp, P, 8 | 1 << 8);
  t.add("V_DOT4_U32_U8", dotIntOp, P, 8);
  t.add("V_DOT2_I32_I16", dotIntOp, P, 16 | 1 << 8);
  t.add("V_DOT2_U32_U16", dotIntOp, P, 16);
  t.add("V_DOT8_I32_I4", dotIntOp, P, 4 | 1 << 8);
  t.add("V_DOT8_U32_U4", dotIntOp, P, 4);
  t.add("V_DOT4C_I32_I8", dotIntOp, V, 8 | 1 << 8);
  t.add("V_DOT2C_I32_I16", dotIntOp, V, 16 | 1 << 8);
  t.add("V_DOT8C_I32_I4", dotIntOp, V, 4 | 1 << 8);
}

} // namespace kcc::emu
