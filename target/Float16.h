//===- Float16.h - bf16 and IEEE half conversions ---------------*- C++ -*-===//
//
// The one set of 16-bit float conversions in kcc: the runtime's host data
// (.npy, references), the tools and the emulator's VALU and MFMA all convert
// with these, so a value cannot round one way on the host and another in
// the emulator. Widening is exact; narrowing rounds to nearest even, keeps a
// NaN a (quiet) NaN and overflows to infinity, as the hardware's conversions
// do (v_cvt_f16_f32, v_cvt_pk_bf16_f32).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TARGET_FLOAT16_H
#define KCC_TARGET_FLOAT16_H

#include <cstdint>
#include <cstring>

namespace kcc {

inline float bf16ToFloat(uint16_t bits) {
  uint32_t b = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

inline uint16_t floatToBf16(float value) {
  uint32_t b;
  std::memcpy(&b, &value, 4);
  if ((b & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((b >> 16) | 0x40); // keep NaN a NaN after truncation
  b += 0x7fffu + ((b >> 16) & 1);
  return uint16_t(b >> 16);
}

// Bit-level, so that the header needs no compiler extension (_Float16):
// the formats are the IEEE ones, and these are exact by construction.

inline float f16ToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exp = (bits >> 10) & 0x1f;
  uint32_t mant = bits & 0x3ff;
  uint32_t out;
  if (exp == 0x1f) {
    // Infinity, or a NaN with its payload, quieted as the hardware's
    // conversion (and the host's) quiets a signalling one.
    out = sign | 0x7f800000u | (mant << 13) | (mant ? 0x400000u : 0);
  } else if (exp != 0) {
    out = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    out = sign;
  } else { // subnormal: normalise
    int e = 113;
    while (!(mant & 0x400)) {
      mant <<= 1;
      --e;
    }
    out = sign | (uint32_t(e) << 23) | ((mant & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &out, 4);
  return f;
}

inline uint16_t floatToF16(float value) {
  uint32_t b;
  std::memcpy(&b, &value, 4);
  uint16_t sign = uint16_t((b >> 16) & 0x8000);
  uint32_t absBits = b & 0x7fffffffu;
  if (absBits > 0x7f800000u) // NaN: quieted, the payload's top bits kept
    return uint16_t(sign | 0x7e00 | ((absBits >> 13) & 0x3ff));
  if (absBits >= 0x477ff000u) // rounds to >= 65520: infinity
    return sign | 0x7c00;
  if (absBits < 0x38800000u) { // below 2^-14: subnormal or zero
    if (absBits < 0x33000000u) // at most half the smallest subnormal
      return sign;
    uint32_t mant = (absBits & 0x7fffff) | 0x800000;
    int shift = 126 - int(absBits >> 23);
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t h = ((absBits >> 23) - 112) << 10 | ((absBits & 0x7fffff) >> 13);
  uint32_t rest = absBits & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; // may carry into the exponent, which is the correct rounding
  return uint16_t(sign | h);
}

} // namespace kcc

#endif // KCC_TARGET_FLOAT16_H
