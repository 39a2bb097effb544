//===- Valu.h - What the VALU instruction families share --------*- C++ -*-===//
//
// The templates and helpers of the vector ALU's instruction families, which
// live in one file each (Valu<Family>.cpp) and register their handlers in the
// OpTable (Ops.h). Each operation is a small functor over one lane's 32-bit
// source values; the `vop` template runs it over 64 lanes and handles operand
// fetch (DPP, SDWA, op_sel, neg/abs) and result write (omod, clamp, SDWA,
// EXEC). 64-bit operations (f64, 64-bit shifts, v_lshl_add_u64,
// v_mad_u64_u32) go through `vop64`, which widens operands by their
// per-source width. Source fetch and result write themselves are in
// VopCommon.h.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_VALU_H
#define KCC_RUNTIME_EMU_VALU_H

#include "runtime/emu/Ops.h"
#include "runtime/emu/VopCommon.h"

#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kcc::emu::valu {

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
/// The SDWA and DPP forms take their sources through fetchSrc (src_sel, the
/// DPP lane) and their result through writeSat (dst_sel, dst_unused, the DPP
/// write mask): LLVM selects "v_add_u16_sdwa ... clamp" for llvm.uadd.sat.i16
/// of a half-word (found by kcc-emu-fuzz; FuzzRegressionTests.cpp).
enum SatOp { SatAdd, SatSub, SatSubrev };

/// Writes a saturated integer result: through writeResult for SDWA (its
/// dst_sel and dst_unused; its clamp is the float one and leaves integer
/// types alone), else straight into the lanes of `mask`.
inline void writeSat(Wave &w, const Inst &in, uint32_t *r, Ty ty, uint64_t mask) {
  if (in.form & kFormSdwa)
    writeResult(w, in, r, ty, mask);
  else
    writeMasked(w.row(in.dst[0].reg), r, mask);
}

template <class Op, SatOp K, unsigned Bits> void vopSatU(Wave &w, const Inst &in) {
  if (!in.clamp || in.omod) {
    vop<Op>(w, in);
    return;
  }
  uint64_t mask = dppWriteMask(w, in, w.exec());
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Op::ty, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Op::ty1, b1);
  const int64_t max = (int64_t(1) << Bits) - 1;
  for (int l = 0; l < kLanes; ++l) {
    int64_t x = a[l] & max, y = b[l] & max;
    int64_t v = K == SatAdd ? x + y : K == SatSub ? x - y : y - x;
    r[l] = uint32_t(std::clamp<int64_t>(v, 0, max));
  }
  writeSat(w, in, r, Op::dty, mask);
}

//===----------------------------------------------------------------------===//
// Functor definitions
//===----------------------------------------------------------------------===//

/// VOP_OP(NAME, TY, TY1, DTY, N, BODY) defines the functor NAME of an N-source
/// operation: sources of type TY (source 1 of TY1), a result of type DTY, and
/// BODY computing the result from the lane values ua, ub, uc. The shorthands
/// below bind a, b, c as the typed values and convert the result back.
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
#define F16_1(NAME, ...) VOP_OP(NAME, F16, F16, F16, 1, float a = f16ToFloat(uint16_t(ua)); return floatToF16(__VA_ARGS__);)
#define F16_2(NAME, ...) VOP_OP(NAME, F16, F16, F16, 2, float a = f16ToFloat(uint16_t(ua)); float b = f16ToFloat(uint16_t(ub)); return floatToF16(__VA_ARGS__);)
#define U16_2(NAME, ...) VOP_OP(NAME, U16, U16, U16, 2, uint32_t a = ua & 0xffff; uint32_t b = ub & 0xffff; return (__VA_ARGS__) & 0xffff;)

//===----------------------------------------------------------------------===//
// Float helpers
//===----------------------------------------------------------------------===//

/// fma of f32 (or f16) values rounded once to f16. The product is exact in
/// double; the sum is rounded to double with round-to-odd (TwoSum gives the
/// lost part, which sets the last bit), so that the single rounding to f16
/// that follows is correct: going through an f32 fma rounded twice, e.g.
/// v_fma_f16(0x3c01, 0x3e00, 0x8001) gave 0x3e02 for 0x3e01.
inline uint16_t fmaToHalf(float a, float b, float c) {
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
inline uint32_t minMaxF16(uint32_t ua, uint32_t ub, bool isMax) {
  auto snan = [](uint16_t h) {
    return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) && !(h & 0x200);
  };
  uint16_t x = uint16_t(ua), y = uint16_t(ub);
  if (snan(x))
    return x | 0x200u;
  if (snan(y))
    return y | 0x200u;
  float a = f16ToFloat(x), b = f16ToFloat(y);
  return floatToF16(isMax ? fmaxIeee(a, b) : fminIeee(a, b));
}

/// Denormal flushing, as the f32 transcendentals do on their inputs and
/// results.
inline bool isDenorm(float x) { return std::fpclassify(x) == FP_SUBNORMAL; }
inline float flushIn(float x) { return isDenorm(x) ? std::copysign(0.0f, x) : x; }
inline float flushOut(float x) { return flushIn(x); }

/// Round to nearest even (the host's default rounding mode).
inline float rndne(float x) { return std::nearbyint(x); }

/// frexp's exponent and mantissa; inf and NaN give 0 and themselves.
inline int frexpExp(float x) {
  if (std::isnan(x) || std::isinf(x)) return 0;
  int e;
  std::frexp(x, &e);
  return e;
}
inline float frexpMant(float x) {
  if (std::isnan(x) || std::isinf(x)) return x;
  int e;
  return std::frexp(x, &e);
}

/// The biased exponent field of an f32.
inline int exponentOf(float x) { return int((asU(x) >> 23) & 0xff); }

/// r = fma(a ^ na, b ^ nb, c ^ nc) over 64 lanes (the n* flip sign bits).
/// Cloned for CPUs with FMA instructions: without them each fmaf is a libm
/// call, which dominated VALU emulation.
/// (Defined in ValuFloat.cpp; v_pk_fma_f32 uses it too.)
void fmaLanes(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *r,
              uint32_t na, uint32_t nb, uint32_t nc);

/// COMPUTE_PGM_RSRC1.FP16_OVFL (gfx9+) would make the conversions to FP8/BF8
/// saturate, which is not modelled: faults the wave and returns true when
/// the kernel's descriptor sets it. (Defined in ValuFp8.cpp.)
bool refuseFp16Overflow(Wave &w);

//===----------------------------------------------------------------------===//
// Lane-mask destinations
//===----------------------------------------------------------------------===//

/// The SGPR pair a VOP2/VOP3 carry or VOPC result goes to: VCC for e32
/// (implicit), else the explicit sdst.
inline const Opnd *maskDst(const Inst &in, unsigned explicitIndex) {
  if (in.ndst > explicitIndex && in.dst[explicitIndex].kind == OpndKind::Sgpr)
    return &in.dst[explicitIndex];
  return nullptr;
}
inline void writeMask(Wave &w, const Opnd *d, uint64_t m) {
  if (d)
    writeScalar64(w, *d, m);
  else
    w.setVcc(m);
}

//===----------------------------------------------------------------------===//
// 64-bit operation template
//===----------------------------------------------------------------------===//

struct Wide {
  uint64_t v[kLanes];
};

/// Fetches source `i` as 64-bit lane values: width 2 reads a register pair
/// (or a 64-bit constant), width 1 zero-extends a 32-bit value.
/// `f32` marks a 32-bit float source (v_cvt_f64_f32): its neg/abs act on
/// bit 31, not on the bit 63 of the zero-extended value.
inline void fetch64(Wave &w, const Inst &in, unsigned i, bool pair, bool isFloat,
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
inline void write64(Wave &w, const Opnd &d, const Wide &r, uint64_t exec) {
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
  uint64_t exec = w.exec();
  static Wide unused;
  Wide a, b, c, r;
  fetch64(w, in, 0, Op::w0 == 2, Op::fl, a, Op::f32in);
  // gfx90a+'s DPP of 64-bit operations (v_mov_b64_dpp, ...): src0 through
  // row_newbcast, the write mask narrowed (dpp64Lanes).
  if (in.form & kFormDpp) {
    int src[kLanes];
    if (!dpp64Lanes(w, in, src, exec))
      return;
    Wide moved;
    for (int l = 0; l < kLanes; ++l)
      moved.v[l] = src[l] >= 0 ? a.v[src[l]] : 0;
    a = moved;
  }
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

} // namespace kcc::emu::valu

#endif // KCC_RUNTIME_EMU_VALU_H
