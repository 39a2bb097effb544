//===- Valu16.cpp - VALU 16-bit operations --------------------------------===//
//
// The unpacked 16-bit operations of the vector ALU: f16 arithmetic, u16/i16
// integer ops with their saturating forms, the three-source VOP3 ops (mad,
// fma, min3/max3/med3, div_fixup) in their gfx9 op_sel and VI-era forms, and
// frexp of f16. (Packed two-halves math is in ValuPacked.cpp, 16-bit
// conversions in ValuConvert.cpp, f16 transcendentals in
// ValuTranscendental.cpp.)
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Valu.h"

namespace kcc::emu {
namespace {

using namespace valu;

//===----------------------------------------------------------------------===//
// Two-source operations
//===----------------------------------------------------------------------===//

/// v_add_i16 / v_sub_i16 (gfx9 VOP3, no op_sel): signed; with clamp the
/// result saturates to the int16 range (LLVM selects "v_add_i16 ... clamp"
/// for llvm.sadd.sat.i16), without it the sum wraps. The high half is
/// written with zeros as the VI-era 16-bit VOP3 ops do.
template <class Op, SatOp K> void vopSatI16(Wave &w, const Inst &in) {
  if (!in.clamp || in.omod) {
    vop<Op>(w, in);
    return;
  }
  uint64_t mask = dppWriteMask(w, in, w.exec()); // SDWA and DPP as vopSatU
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::I16, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::I16, b1);
  for (int l = 0; l < kLanes; ++l) {
    int32_t x = int16_t(a[l]), y = int16_t(b[l]);
    int32_t v = K == SatAdd ? x + y : x - y;
    r[l] = uint32_t(std::clamp(v, -32768, 32767)) & 0xffff;
  }
  writeSat(w, in, r, Ty::I16, mask);
}

// f16 (results in the low half; the high half is zeroed as gfx9 does for
// these encodings).
F16_2(AddF16, a + b)
F16_2(SubF16, a - b)
F16_2(SubrevF16, b - a)
F16_2(MulF16, a * b)
VOP_OP(MaxF16, F16, F16, F16, 2, return minMaxF16(ua, ub, true);)
VOP_OP(MinF16, F16, F16, F16, 2, return minMaxF16(ua, ub, false);)
F16_1(FloorF16, std::floor(a))
F16_1(CeilF16, std::ceil(a))
F16_1(TruncF16, std::trunc(a))
F16_1(RndneF16, rndne(a))
// As v_fract_f32: S0 - floor(S0), at most the largest f16 below 1 (the
// minimum is taken before the f16 rounding); inf gives NaN.
F16_1(FractF16, std::isinf(a) ? std::numeric_limits<float>::quiet_NaN()
                              : std::isnan(a) ? a : std::fmin(a - std::floor(a), 0x1.ffcp-1f))
VOP_OP(LdexpF16, F16, B32, F16, 2,
       return floatToF16(std::ldexp(f16ToFloat(uint16_t(ua)), int16_t(ub)));)
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

//===----------------------------------------------------------------------===//
// Three-source VOP3 operations
//===----------------------------------------------------------------------===//

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
  float m = f16ToFloat(uint16_t(max3F16(a, b, c)));
  if (m == f16ToFloat(uint16_t(a)))
    return minMaxF16(b, c, true);
  if (m == f16ToFloat(uint16_t(b)))
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
  return floatToF16(frexpMant(f16ToFloat(h)));
})
VOP_OP(FrexpExpI16F16, F16, F16, I16, 1,
       return uint32_t(frexpExp(f16ToFloat(uint16_t(ua)))) & 0xffff;)

/// gfx9 VOP3 16-bit ops with op_sel: result goes to the half op_sel[3]
/// selects and the other half is preserved.
struct FmaF16 {
  static constexpr Ty ty = Ty::F16, ty1 = Ty::F16, dty = Ty::F16;
  static constexpr int n = 3;
  static constexpr bool opselDst = true;
  static uint32_t f(uint32_t a, uint32_t b, uint32_t c) {
    return fmaToHalf(f16ToFloat(uint16_t(a)), f16ToFloat(uint16_t(b)),
                     f16ToFloat(uint16_t(c)));
  }
};
struct FmacF16 : FmaF16 {
  static constexpr bool opselDst = false;
};

/// The VI-era f16 multiply-adds (CDNA3 ISA, VOP2/VOP3A). An f16 product is
/// exact in the f32 datapath (11-bit significands), so an unfused f16 mad
/// and a fused one round the same value once; they differ in what they do
/// with the halves of D and with denormals:
///   V_MAD_F16           gfx9 op_sel form: the half op_sel[3] selects is
///                       written, the other kept; "denormals are flushed"
///                       (inputs and result, sign kept).
///   V_MAD_LEGACY_F16,   IEEE rules (denormals kept); the result goes to
///   V_FMA_LEGACY_F16    the low half and the high half is zeroed.
///   V_MAC_F16           D = S0 * S1 + D, IEEE rules, high half zeroed.
///   V_MADMK/MADAK_F16   D = S0 * K + S1 and S0 * S1 + K with K a 16-bit
///                       literal, IEEE rules, high half zeroed (madK16).
inline uint32_t flushF16(uint32_t h) {
  h &= 0xffff;
  return (h & 0x7c00) ? h : h & 0x8000;
}
inline uint32_t madHalf(uint32_t a, uint32_t b, uint32_t c) {
  return fmaToHalf(f16ToFloat(uint16_t(a)), f16ToFloat(uint16_t(b)),
                   f16ToFloat(uint16_t(c)));
}
OP16_3(MadF16, F16, true,
       return flushF16(madHalf(flushF16(ua), flushF16(ub), flushF16(uc)));)
OP16_3(MadLegacyF16, F16, false, return madHalf(ua, ub, uc);)

enum KOp16 : uint16_t { MadMk16, MadAk16 };
void madK16(Wave &w, const Inst &in) {
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::F16, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::F16, b1);
  // K is the literal the MC operand list carries as a control immediate.
  uint32_t k = uint32_t(in.nctrl ? in.ctrl[0] : 0) & 0xffff;
  for (int l = 0; l < kLanes; ++l)
    r[l] = in.op == MadMk16 ? madHalf(a[l], k, b[l]) : madHalf(a[l], b[l], k);
  writeMasked(w.row(in.dst[0].reg), r, w.exec());
}

} // namespace

void registerValu16Ops(OpTable &t) {
  const Layout V = Layout::Vop;
#define REG(NAME, OP) t.add(NAME, vop<OP>, V);
  REG("V_ADD_F16", AddF16) REG("V_SUB_F16", SubF16) REG("V_SUBREV_F16", SubrevF16)
  REG("V_MUL_F16", MulF16) REG("V_MAX_F16", MaxF16) REG("V_MIN_F16", MinF16)
  REG("V_FLOOR_F16", FloorF16) REG("V_CEIL_F16", CeilF16) REG("V_TRUNC_F16", TruncF16)
  REG("V_RNDNE_F16", RndneF16) REG("V_FRACT_F16", FractF16) REG("V_LDEXP_F16", LdexpF16)
  t.add("V_ADD_U16", vopSatU<AddU16, SatAdd, 16>, V);
  t.add("V_SUB_U16", vopSatU<SubU16, SatSub, 16>, V);
  t.add("V_SUBREV_U16", vopSatU<SubrevU16, SatSubrev, 16>, V);
  REG("V_MUL_LO_U16", MulLoU16) REG("V_LSHLREV_B16", LshlrevB16)
  REG("V_LSHRREV_B16", LshrrevB16) REG("V_ASHRREV_I16", AshrrevI16)
  REG("V_MAX_U16", MaxU16) REG("V_MIN_U16", MinU16) REG("V_MAX_I16", MaxI16)
  REG("V_MIN_I16", MinI16)
  REG("V_FMA_F16", FmaF16) REG("V_FMAC_F16", FmacF16)
  REG("V_MAD_F16", MadF16) REG("V_MAD_LEGACY_F16", MadLegacyF16)
  REG("V_FMA_LEGACY_F16", MadLegacyF16) REG("V_MAC_F16", MadLegacyF16)
  t.add("V_MADMK_F16", madK16, V, MadMk16);
  t.add("V_MADAK_F16", madK16, V, MadAk16);
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
#undef REG
}

} // namespace kcc::emu
