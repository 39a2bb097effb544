//===- MiniFloat.h - 8-, 6- and 4-bit float formats of CDNA3/CDNA4 -*- C++ -*-===//
//
// The narrow float formats the conversion instructions read and write, as
// one parameterised description (sign, exponent and mantissa widths, bias,
// and how the format spends its top codes):
//
//   gfx942 (CDNA3) FP8/BF8 are the "FNUZ" formats: e4m3 with bias 8 and e5m2
//   with bias 16, no infinities, no negative zero, and 0x80 the only NaN.
//   gfx950 (CDNA4) FP8/BF8 are OCP's: e4m3fn (bias 7, no infinity, NaN is
//   S.1111.111, largest 448) and e5m2 (bias 15, IEEE-like: S.11111.00 is
//   infinity, S.11111.xx others NaN). OCP MX's FP6 (e2m3 bias 1, e3m2 bias 3)
//   and FP4 (e2m1 bias 1) have neither infinity nor NaN.
//
// Decoding is exact into f32 (every narrow value is an f32). Encoding rounds
// a value (held exactly in a double) to the format, to nearest even or
// stochastically, and says what happens beyond the largest finite value.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_MINIFLOAT_H
#define KCC_RUNTIME_EMU_MINIFLOAT_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace kcc::emu {

struct MiniFloat {
  enum Kind : uint8_t {
    Fnuz,    // 0x80 is NaN; no infinity, no -0
    OcpE4m3, // all-ones exponent and mantissa is NaN; no infinity
    Ieee,    // all-ones exponent: infinity (mantissa 0) or NaN
    Finite,  // every code is a number (FP6, FP4)
  };
  uint8_t expBits, manBits;
  int bias;
  Kind kind;

  unsigned width() const { return 1u + expBits + manBits; }
  uint32_t signBit() const { return 1u << (expBits + manBits); }
  /// The largest finite magnitude's code.
  uint32_t maxFinite() const {
    uint32_t all = signBit() - 1;
    switch (kind) {
    case OcpE4m3: return all - 1;
    case Ieee: return (((1u << expBits) - 2) << manBits) | ((1u << manBits) - 1);
    default: return all;
    }
  }
};

// Field-reading order: {expBits, manBits, bias, kind}.
constexpr MiniFloat kFp8Fnuz{4, 3, 8, MiniFloat::Fnuz};
constexpr MiniFloat kBf8Fnuz{5, 2, 16, MiniFloat::Fnuz};
constexpr MiniFloat kFp8Ocp{4, 3, 7, MiniFloat::OcpE4m3};
constexpr MiniFloat kBf8Ocp{5, 2, 15, MiniFloat::Ieee};
constexpr MiniFloat kFp6E2m3{2, 3, 1, MiniFloat::Finite};
constexpr MiniFloat kBf6E3m2{3, 2, 3, MiniFloat::Finite};
constexpr MiniFloat kFp4E2m1{2, 1, 1, MiniFloat::Finite};

inline float miniFloatNaNValue(bool negative) {
  uint32_t u = negative ? 0xffc00000u : 0x7fc00000u;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// The value of `code` (its low width() bits). NaN codes give a quiet f32
/// NaN of the code's sign (the hardware's payload is not documented).
inline float decodeMiniFloat(uint32_t code, const MiniFloat &f) {
  code &= (1u << f.width()) - 1;
  bool negative = code & f.signBit();
  uint32_t e = (code >> f.manBits) & ((1u << f.expBits) - 1);
  uint32_t m = code & ((1u << f.manBits) - 1);
  uint32_t expMax = (1u << f.expBits) - 1;
  switch (f.kind) {
  case MiniFloat::Fnuz:
    if (code == f.signBit())
      return miniFloatNaNValue(true);
    break;
  case MiniFloat::OcpE4m3:
    if (e == expMax && m == (1u << f.manBits) - 1)
      return miniFloatNaNValue(negative);
    break;
  case MiniFloat::Ieee:
    if (e == expMax)
      return m ? miniFloatNaNValue(negative)
               : (negative ? -INFINITY : INFINITY);
    break;
  case MiniFloat::Finite:
    break;
  }
  // Normal: (2^M + m) * 2^(e - bias - M); denormal: m * 2^(1 - bias - M).
  double mag = e ? std::ldexp(double((1u << f.manBits) + m), int(e) - f.bias - f.manBits)
                 : std::ldexp(double(m), 1 - f.bias - f.manBits);
  return float(negative ? -mag : mag);
}

/// How encodeMiniFloat rounds.
struct MiniRounding {
  bool stochastic = false;
  /// Stochastic rounding: the random bits, and the mantissa width of the
  /// source the hardware rounds from (23 for f32). The part of the value
  /// below the destination's last bit, as the `srcManBits - manBits` bits
  /// that a source mantissa holds there, is added to the top as many bits
  /// of `random`; a carry rounds up. That is what AMD's host model of the
  /// gfx950 conversions (HIP's amd_hip_ocp_host.hpp, from_float_sr) does;
  /// it has not been compared with hardware.
  uint32_t random = 0;
  unsigned srcManBits = 23;
  /// Beyond the largest finite value: the largest finite value (saturate)
  /// or the format's overflow code (infinity where there is one, else NaN;
  /// a Finite format always saturates).
  bool saturate = false;
};

/// The codes of NaN, of a value beyond the largest finite one, and of a
/// value rounded to zero, with the sign of `negative`.
inline uint32_t miniFloatNaN(const MiniFloat &f, bool negative) {
  uint32_t sign = negative ? f.signBit() : 0;
  uint32_t expMax = (1u << f.expBits) - 1;
  switch (f.kind) {
  case MiniFloat::Fnuz: return f.signBit();
  case MiniFloat::OcpE4m3: return sign | (f.signBit() - 1);
  case MiniFloat::Ieee: return sign | (expMax << f.manBits) | (1u << (f.manBits - 1));
  case MiniFloat::Finite: return sign | f.maxFinite();
  }
  return 0;
}
inline uint32_t miniFloatOverflow(const MiniFloat &f, bool negative, const MiniRounding &r) {
  uint32_t sign = negative ? f.signBit() : 0;
  if (r.saturate || f.kind == MiniFloat::Finite)
    return sign | f.maxFinite();
  if (f.kind == MiniFloat::Ieee)
    return sign | (((1u << f.expBits) - 1) << f.manBits);
  return miniFloatNaN(f, negative);
}
inline uint32_t miniFloatZero(const MiniFloat &f, bool negative) {
  return f.kind == MiniFloat::Fnuz || !negative ? 0 : f.signBit();
}

/// The code of a rounded magnitude: `units` steps of 2^(E - manBits), E the
/// binade's exponent (or the least normal one for a denormal).
inline uint32_t miniFloatCode(uint64_t units, int E, bool negative, const MiniFloat &f,
                              const MiniRounding &r) {
  if (units == 0)
    return miniFloatZero(f, negative);
  if (units >> (f.manBits + 1)) { // rounded up into the next binade
    units >>= 1;
    ++E;
  }
  uint64_t code = units < (1u << f.manBits)
                      ? units // denormal (E is the least normal exponent)
                      : (uint64_t(E + f.bias) << f.manBits) | (units - (1u << f.manBits));
  if (code > f.maxFinite())
    return miniFloatOverflow(f, negative, r);
  return (negative ? f.signBit() : 0) | uint32_t(code);
}

/// `x` rounded to the format `f`, as its code.
inline uint32_t encodeMiniFloat(double x, const MiniFloat &f, const MiniRounding &r) {
  bool negative = std::signbit(x);
  if (std::isnan(x))
    return miniFloatNaN(f, negative);
  if (std::isinf(x))
    return miniFloatOverflow(f, negative, r);
  double a = std::fabs(x);
  if (a == 0)
    return miniFloatZero(f, negative);
  // The binade of a (or the denormal range) fixes the grid spacing q; a / q
  // is exact (a power-of-two scaling of a double holding a narrower value).
  int e;
  std::frexp(a, &e); // a in [2^(e-1), 2^e)
  int E = std::max(e - 1, 1 - f.bias);
  double n = std::ldexp(a, f.manBits - E);
  double whole = std::floor(n);
  if (r.stochastic) {
    unsigned k = r.srcManBits - f.manBits;
    uint64_t frac = uint64_t(std::ldexp(n - whole, int(k))); // truncated
    uint64_t rnd = uint64_t(r.random) >> (32 - k);
    if (frac + rnd >= (uint64_t(1) << k))
      whole += 1;
  } else {
    double rest = n - whole;
    if (rest > 0.5 || (rest == 0.5 && std::fmod(whole, 2.0) != 0))
      whole += 1;
  }
  return miniFloatCode(uint64_t(whole), E, negative, f, r);
}

/// encodeMiniFloat of the f32 `bits` divided by 2^k (k = 0 unscaled), for a
/// format of at most 22 mantissa bits, in integer arithmetic: the same
/// rounding, several times faster than through double, for the conversion
/// instructions' common case (a normal f32, or an f16/bf16 widened to one).
inline uint32_t encodeMiniFloatF32(uint32_t bits, int k, const MiniFloat &f,
                                   const MiniRounding &r) {
  uint32_t exp8 = (bits >> 23) & 0xff;
  int E = int(exp8) - 127 - k, emin = 1 - f.bias;
  // NaN, infinity, zero, f32 denormals and values far below the format's
  // least denormal take the general path.
  if (exp8 == 0 || exp8 == 0xff || E < emin - 7) {
    float x;
    std::memcpy(&x, &bits, 4);
    return encodeMiniFloat(std::ldexp(double(x), -k), f, r);
  }
  bool negative = bits >> 31;
  uint32_t sig = (bits & 0x7fffff) | 0x800000; // |x| = sig * 2^(E - 23)
  unsigned shift = 23 - f.manBits + unsigned(std::max(emin - E, 0));
  E = std::max(E, emin);
  uint64_t units = sig >> shift;
  uint32_t rest = sig & ((1u << shift) - 1);
  if (r.stochastic) {
    unsigned kBits = r.srcManBits - f.manBits;
    uint64_t frac = rest >> (shift - kBits); // the position, truncated
    if (frac + (uint64_t(r.random) >> (32 - kBits)) >= (uint64_t(1) << kBits))
      ++units;
  } else {
    uint32_t half = 1u << (shift - 1);
    if (rest > half || (rest == half && (units & 1)))
      ++units;
  }
  return miniFloatCode(units, E, negative, f, r);
}

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_MINIFLOAT_H
