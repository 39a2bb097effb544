//===- ValuConvert.cpp - VALU conversions ---------------------------------===//
//
// The v_cvt_* family and the packing conversions: between f32, f16, bf16,
// f64 and integers (saturating, NaN to 0), the rounding-toward-zero
// v_cvt_pkrtz_f16_f32, the normalised v_cvt_pknorm_*, and v_pack_b32_f16.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Valu.h"

namespace kcc::emu {
namespace {

using namespace valu;

//===----------------------------------------------------------------------===//
// f32 and 32-bit integers
//===----------------------------------------------------------------------===//

/// f32 to u32/i32: saturating, NaN gives 0.
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

// f32 -> f16 rounding toward zero by truncating the mantissa. Finite values
// at or beyond 65536 give 65504 (0x7bff), never an infinity (LLVM folds
// cvt.pkrtz(65536.0) to 0x7bff); switching the host's rounding mode around
// a _Float16 conversion overflowed to infinity.
uint16_t toHalfRtz(float x) {
  if (std::isnan(x))
    return floatToF16(x);
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

VOP_OP(CvtF32U32, B32, B32, F32, 1, return asU(float(ua));)
VOP_OP(CvtF32I32, B32, B32, F32, 1, return asU(float(int32_t(ua)));)
VOP_OP(CvtU32F32, F32, F32, B32, 1, return cvtU32(asF(ua));)
VOP_OP(CvtI32F32, F32, F32, B32, 1, return cvtI32(asF(ua));)
VOP_OP(CvtRpiI32F32, F32, F32, B32, 1, return cvtI32(std::floor(asF(ua) + 0.5f));)
VOP_OP(CvtFlrI32F32, F32, F32, B32, 1, return cvtI32(std::floor(asF(ua)));)
VOP_OP(CvtF16F32, F32, F32, F16, 1, return floatToF16(asF(ua));)
VOP_OP(CvtF32F16, F16, F16, F32, 1, return asU(f16ToFloat(uint16_t(ua)));)
VOP_OP(CvtF32Ubyte0, B32, B32, F32, 1, return asU(float(ua & 0xff));)
VOP_OP(CvtF32Ubyte1, B32, B32, F32, 1, return asU(float((ua >> 8) & 0xff));)
VOP_OP(CvtF32Ubyte2, B32, B32, F32, 1, return asU(float((ua >> 16) & 0xff));)
VOP_OP(CvtF32Ubyte3, B32, B32, F32, 1, return asU(float(ua >> 24));)
VOP_OP(CvtPkrtzF16F32, F32, F32, B32, 2,
       return uint32_t(toHalfRtz(asF(ua))) | (uint32_t(toHalfRtz(asF(ub))) << 16);)
// gfx950: two f32 to packed f16, rounding as the MODE register says (round
// to nearest even, the default kcc's kernels run with).
VOP_OP(CvtPkF16F32, F32, F32, B32, 2,
       return uint32_t(floatToF16(asF(ua))) | (uint32_t(floatToF16(asF(ub))) << 16);)
VOP_OP(CvtPkBf16F32, F32, F32, B32, 2,
       return uint32_t(floatToBf16(asF(ua))) | (uint32_t(floatToBf16(asF(ub))) << 16);)
VOP_OP(CvtF32Bf16, B32, B32, F32, 1, return asU(bf16ToFloat(uint16_t(ua)));)
VOP_OP(PackB32F16, F16, F16, B32, 2, return (ua & 0xffff) | (ub << 16);)
VOP_OP(CvtPkU16U32, B32, B32, B32, 2,
       return std::min(ua, 0xffffu) | (std::min(ub, 0xffffu) << 16);)
VOP_OP(CvtPkI16I32, B32, B32, B32, 2,
       return (uint32_t(std::clamp(int32_t(ua), -32768, 32767)) & 0xffff) |
              (uint32_t(std::clamp(int32_t(ub), -32768, 32767)) << 16);)

//===----------------------------------------------------------------------===//
// 16-bit and packed
//===----------------------------------------------------------------------===//

VOP_OP(CvtF16U16, U16, U16, F16, 1, return floatToF16(float(ua & 0xffff));)
VOP_OP(CvtF16I16, I16, I16, F16, 1, return floatToF16(float(int16_t(ua)));)
VOP_OP(CvtU16F16, F16, F16, U16, 1, {
  float x = f16ToFloat(uint16_t(ua));
  return std::isnan(x) || x <= 0 ? 0u : x >= 65535.0f ? 0xffffu : uint32_t(x);
})
VOP_OP(CvtI16F16, F16, F16, I16, 1, {
  float x = f16ToFloat(uint16_t(ua));
  return std::isnan(x) ? 0u : uint32_t(int32_t(std::clamp(x, -32768.0f, 32767.0f))) & 0xffff;
})

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
// The f16 forms: the same normalisation of an f16 (exact in f32).
VOP_OP(CvtNormI16F16, F16, F16, I16, 1, return toSnorm16(f16ToFloat(uint16_t(ua)));)
VOP_OP(CvtNormU16F16, F16, F16, U16, 1, return toUnorm16(f16ToFloat(uint16_t(ua)));)
VOP_OP(CvtPknormI16F16, F16, F16, B32, 2,
       return toSnorm16(f16ToFloat(uint16_t(ua))) | (toSnorm16(f16ToFloat(uint16_t(ub))) << 16);)
VOP_OP(CvtPknormU16F16, F16, F16, B32, 2,
       return toUnorm16(f16ToFloat(uint16_t(ua))) | (toUnorm16(f16ToFloat(uint16_t(ub))) << 16);)
/// V_SAT_PK_U8_I16: each signed 16-bit half saturated to [0, 255], the two
/// bytes packed into the low half, the high half zero.
uint32_t sat8(uint32_t half) {
  int32_t v = int16_t(uint16_t(half));
  return uint32_t(std::clamp(v, 0, 255));
}
VOP_OP(SatPkU8I16, B32, B32, B32, 1, return sat8(ua) | (sat8(ua >> 16) << 8);)
VOP_OP(CvtPknormI16F32, F32, F32, B32, 2,
       return toSnorm16(asF(ua)) | (toSnorm16(asF(ub)) << 16);)
VOP_OP(CvtPknormU16F32, F32, F32, B32, 2,
       return toUnorm16(asF(ua)) | (toUnorm16(asF(ub)) << 16);)
VOP_OP(CvtPkU8F32, F32, B32, B32, 3, {
  unsigned sh = 8 * (ub & 3);
  return (uc & ~(0xffu << sh)) | (cvtU8(asF(ua)) << sh);
})

//===----------------------------------------------------------------------===//
// f64
//===----------------------------------------------------------------------===//

/// f64 to i32/u32: saturating, NaN gives 0.
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

} // namespace

void registerValuConvertOps(OpTable &t) {
  const Layout V = Layout::Vop;
#define REG(NAME, OP) t.add(NAME, vop<OP>, V);
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
  REG("V_CVT_F16_U16", CvtF16U16) REG("V_CVT_F16_I16", CvtF16I16)
  REG("V_CVT_U16_F16", CvtU16F16) REG("V_CVT_I16_F16", CvtI16F16)
  REG("V_CVT_PK_U8_F32", CvtPkU8F32)
  // V_CVT_PKACCUM_U8_F32 (VOP3, "uses src_c to pass destination in as a
  // source"): the same byte insert into the destination's own value, which
  // vop<> reads as the third source when the instruction names only two.
  REG("V_CVT_PKACCUM_U8_F32", CvtPkU8F32)
  REG("V_CVT_PKNORM_I16_F32", CvtPknormI16F32) REG("V_CVT_PKNORM_U16_F32", CvtPknormU16F32)
  REG("V_CVT_NORM_I16_F16", CvtNormI16F16) REG("V_CVT_NORM_U16_F16", CvtNormU16F16)
  REG("V_CVT_PKNORM_I16_F16", CvtPknormI16F16) REG("V_CVT_PKNORM_U16_F16", CvtPknormU16F16)
  REG("V_SAT_PK_U8_I16", SatPkU8I16)
#undef REG
#define REG64(NAME, OP) t.add(NAME, vop64<OP>, V);
  REG64("V_CVT_F64_F32", CvtF64F32) REG64("V_CVT_F32_F64", CvtF32F64)
  REG64("V_CVT_F64_I32", CvtF64I32) REG64("V_CVT_F64_U32", CvtF64U32)
  REG64("V_CVT_I32_F64", CvtI32F64) REG64("V_CVT_U32_F64", CvtU32F64)
#undef REG64
}

} // namespace kcc::emu
