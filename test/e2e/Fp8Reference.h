//===- Fp8Reference.h - FP8 values and rounding, from the specs -*- C++ -*-===//
//
// The host reference of the FP8 tests, written from the format definitions
// and nothing else (not the emulator's MiniFloat.h, which the kernels run
// on): OCP's 8-bit floating point specification (OFP8) for E4M3 (bias 7,
// S.1111.111 is NaN, no infinities) and E5M2 (bias 15, exponent 11111 is
// infinity with mantissa 0 and NaN otherwise), and the FNUZ variants of
// gfx942 (E4M3 bias 8, E5M2 bias 16; 0x80 is the only NaN, there is no
// negative zero and no infinity).
//
// Decoding builds the value from sign, exponent and mantissa fields.
// Encoding does not manipulate bits at all: it searches every finite code
// for the nearest value, ties going to the even code, which is round to
// nearest even; a value beyond the largest finite one finds that one,
// which is saturation (infinities included). So the two directions share
// no arithmetic that could hide the same mistake.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TEST_E2E_FP8REFERENCE_H
#define KCC_TEST_E2E_FP8REFERENCE_H

#include <cmath>
#include <cstdint>
#include <string>

namespace kcc::e2e {

struct Fp8Spec {
  const char *name; // the MLIR type
  int expBits, manBits, bias;
  bool fnuz;
};

inline constexpr Fp8Spec kE4M3FN{"f8E4M3FN", 4, 3, 7, false};
inline constexpr Fp8Spec kE5M2{"f8E5M2", 5, 2, 15, false};
inline constexpr Fp8Spec kE4M3FNUZ{"f8E4M3FNUZ", 4, 3, 8, true};
inline constexpr Fp8Spec kE5M2FNUZ{"f8E5M2FNUZ", 5, 2, 16, true};

inline bool fp8IsNan(uint8_t code, const Fp8Spec &f) {
  if (f.fnuz)
    return code == 0x80;
  unsigned e = (code >> f.manBits) & ((1u << f.expBits) - 1);
  unsigned m = code & ((1u << f.manBits) - 1);
  unsigned eMax = (1u << f.expBits) - 1;
  if (f.expBits == 4) // E4M3: only all-ones exponent and mantissa
    return e == eMax && m == (1u << f.manBits) - 1;
  return e == eMax && m != 0; // E5M2: IEEE-like
}

/// The value of `code`; NaN for the NaN codes.
inline double fp8Decode(uint8_t code, const Fp8Spec &f) {
  if (fp8IsNan(code, f))
    return NAN;
  bool negative = code & 0x80;
  int e = (code >> f.manBits) & ((1 << f.expBits) - 1);
  int m = code & ((1 << f.manBits) - 1);
  if (!f.fnuz && f.expBits == 5 && e == 31)
    return negative ? -INFINITY : INFINITY;
  double mag = e == 0 ? std::ldexp(double(m), 1 - f.bias - f.manBits)
                      : std::ldexp(double((1 << f.manBits) | m), e - f.bias - f.manBits);
  return negative ? -mag : mag;
}

/// `x` rounded to nearest even with saturation: the nearest finite code,
/// ties to the even code; a NaN gives -1 (any NaN code is right).
inline int fp8EncodeSaturating(double x, const Fp8Spec &f) {
  if (std::isnan(x))
    return -1;
  bool negative = std::signbit(x);
  double a = std::fabs(x);
  // Non-negative codes in order of value: 0x00 .. 0x7f, less the ones that
  // are not finite numbers; the last of them is the largest finite value.
  // Past it (infinity included) it is the nearest, taken directly: far
  // beyond it the distances to all codes round to the same double.
  int best = 0, largest = 0;
  for (int c = 0; c < 0x80; ++c) {
    double v = fp8Decode(uint8_t(c), f);
    if (!std::isnan(v) && !std::isinf(v))
      largest = c;
  }
  if (a >= fp8Decode(uint8_t(largest), f)) {
    best = largest;
  } else {
    double bestDist = INFINITY;
    for (int c = 0; c <= largest; ++c) {
      double v = fp8Decode(uint8_t(c), f);
      if (std::isnan(v) || std::isinf(v))
        continue;
      double d = std::fabs(v - a);
      if (d < bestDist || (d == bestDist && (c & 1) == 0)) {
        best = c;
        bestDist = d;
      }
    }
  }
  if (!negative)
    return best;
  // FNUZ has no negative zero: -0 and negatives that round to zero are 0.
  if (best == 0 && f.fnuz)
    return 0;
  return best | 0x80;
}

/// `x` rounded to nearest even without saturation, as OCP's non-saturating
/// mode (and the conversion instructions without a clamp) define it: a
/// value whose rounding leaves the finite range becomes infinity where the
/// format has one (OCP E5M2), else NaN (-1: any NaN code). The rounding
/// leaves the range when |x| passes the midpoint between the largest
/// finite value and the next value of its binade's spacing, or meets it
/// with the largest finite code odd (the tie then goes to that next value).
inline int fp8EncodeNonSaturating(double x, const Fp8Spec &f) {
  int code = fp8EncodeSaturating(x, f);
  if (code < 0)
    return code;
  int largest = 0;
  for (int c = 0; c < 0x80; ++c) {
    double v = fp8Decode(uint8_t(c), f);
    if (!std::isnan(v) && !std::isinf(v))
      largest = c;
  }
  double max = fp8Decode(uint8_t(largest), f);
  double step = max - fp8Decode(uint8_t(largest - 1), f);
  double a = std::fabs(x), edge = max + step / 2;
  if (a < edge || (a == edge && (largest & 1) == 0))
    return code;
  if (!f.fnuz && f.expBits == 5) // infinity: exponent all ones, mantissa 0
    return (std::signbit(x) ? 0x80 : 0) | 0x7c;
  return -1;
}

} // namespace kcc::e2e

#endif // KCC_TEST_E2E_FP8REFERENCE_H
