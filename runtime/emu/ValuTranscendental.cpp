//===- ValuTranscendental.cpp - VALU transcendentals ----------------------===//
//
// v_exp, v_log, v_rcp, v_rsq, v_sqrt, v_sin and v_cos in f32, f16 and f64, and
// v_trig_preop_f64. The f32 ones (v_exp_f32 = 2^x, v_log_f32 = log2 x) are
// computed in double and rounded once: within hardware's 1 ulp. Like hardware
// they flush denormal inputs and results, which is why compilers scale around
// them.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Valu.h"

namespace kcc::emu {
namespace {

using namespace valu;

//===----------------------------------------------------------------------===//
// f32
//===----------------------------------------------------------------------===//

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

F32_1(ExpF32, exp2Hw(a))
F32_1(LogF32, log2Hw(a))
F32_1(RcpF32, rcpHw(a))
F32_1(RsqF32, rsqHw(a))
F32_1(SqrtF32, sqrtHw(a))
F32_1(SinF32, sinHw(a))
F32_1(CosF32, cosHw(a))

//===----------------------------------------------------------------------===//
// f16
//===----------------------------------------------------------------------===//

F16_1(ExpF16, float(std::exp2(double(a))))
F16_1(LogF16, float(std::log2(double(a))))
F16_1(RcpF16, 1.0f / a)
F16_1(SqrtF16, std::sqrt(a))
F16_1(RsqF16, 1.0f / std::sqrt(a))

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

//===----------------------------------------------------------------------===//
// f64
//===----------------------------------------------------------------------===//

F64_1(RcpF64, 1.0 / x)
F64_1(RsqF64, 1.0 / std::sqrt(x))
F64_1(SqrtF64, std::sqrt(x))

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

} // namespace

void registerValuTranscendentalOps(OpTable &t) {
  const Layout V = Layout::Vop;
#define REG(NAME, OP) t.add(NAME, vop<OP>, V);
  REG("V_EXP_F32", ExpF32) REG("V_LOG_F32", LogF32) REG("V_RCP_F32", RcpF32)
  // V_EXP_LEGACY_F32 / V_LOG_LEGACY_F32 (gfx9 VOP1 0x4b/0x4c, decoded for
  // gfx942 and gfx950; the CDNA4 guide no longer lists them): the Vega guide
  // gives them V_EXP_F32's and V_LOG_F32's pseudocode (pow(2, S0),
  // APPROX_LOG2 with log(1) = 0 and -NaN below 0) and says only that the
  // results differ slightly in the last bits, which both approximations'
  // error bounds cover. They run as v_exp_f32 / v_log_f32, in every
  // encoding.
  REG("V_EXP_LEGACY_F32", ExpF32) REG("V_LOG_LEGACY_F32", LogF32)
  REG("V_RCP_IFLAG_F32", RcpF32) REG("V_RSQ_F32", RsqF32) REG("V_SQRT_F32", SqrtF32)
  REG("V_SIN_F32", SinF32) REG("V_COS_F32", CosF32)
  REG("V_EXP_F16", ExpF16) REG("V_LOG_F16", LogF16) REG("V_RCP_F16", RcpF16)
  REG("V_SQRT_F16", SqrtF16) REG("V_RSQ_F16", RsqF16)
  REG("V_SIN_F16", SinF16) REG("V_COS_F16", CosF16)
#undef REG
#define REG64(NAME, OP) t.add(NAME, vop64<OP>, V);
  REG64("V_RCP_F64", RcpF64) REG64("V_RSQ_F64", RsqF64) REG64("V_SQRT_F64", SqrtF64)
  REG64("V_TRIG_PREOP_F64", TrigPreopF64)
#undef REG64
}

} // namespace kcc::emu
