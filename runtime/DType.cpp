//===- DType.cpp - Element types of device buffers ------------------------===//
#include "runtime/DType.h"

#include <cstring>

namespace kcc {

unsigned dtypeSize(DType type) {
  switch (type) {
  case DType::bf16:
  case DType::f16:
    return 2;
  case DType::f32:
  case DType::i32:
    return 4;
  }
  return 0;
}

llvm::StringRef dtypeName(DType type) {
  switch (type) {
  case DType::bf16: return "bf16";
  case DType::f16: return "f16";
  case DType::f32: return "f32";
  case DType::i32: return "i32";
  }
  return "?";
}

std::optional<DType> parseDType(llvm::StringRef name) {
  if (name == "bf16") return DType::bf16;
  if (name == "f16") return DType::f16;
  if (name == "f32") return DType::f32;
  if (name == "i32") return DType::i32;
  return std::nullopt;
}

uint16_t floatToBf16(float value) {
  uint32_t b;
  std::memcpy(&b, &value, 4);
  if ((b & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((b >> 16) | 0x40); // keep NaN a NaN after truncation
  b += 0x7fffu + ((b >> 16) & 1);
  return uint16_t(b >> 16);
}

float bf16ToFloat(uint16_t bits) {
  uint32_t b = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// Bit-level conversions: portable, and exact by construction (the hardware
// formats are the IEEE ones).
uint16_t floatToF16(float value) {
  uint32_t b;
  std::memcpy(&b, &value, 4);
  uint16_t sign = uint16_t((b >> 16) & 0x8000);
  uint32_t absBits = b & 0x7fffffffu;
  if (absBits > 0x7f800000u)
    return sign | 0x7e00;                 // NaN
  if (absBits >= 0x477ff000u)             // rounds to >= 65520: infinity
    return sign | 0x7c00;
  if (absBits < 0x38800000u) {            // below 2^-14: subnormal or zero
    if (absBits < 0x33000000u)            // below half the smallest subnormal
      return sign;
    uint32_t mant = (absBits & 0x7fffff) | 0x800000;
    int shift = 126 - int(absBits >> 23); // 14 + (113 - exp)
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1)))
      ++half;
    return sign | uint16_t(half);
  }
  uint32_t exp = (absBits >> 23) - 112;
  uint32_t mant = absBits & 0x7fffff;
  uint32_t h = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; // may carry into the exponent, which is the correct rounding
  return sign | uint16_t(h);
}

float f16ToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exp = (bits >> 10) & 0x1f;
  uint32_t mant = bits & 0x3ff;
  uint32_t out;
  if (exp == 0x1f) {
    out = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    out = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    out = sign;
  } else {
    // Subnormal: normalise.
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while (!(mant & 0x400));
    out = sign | uint32_t(112 - e) << 23 | ((mant & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &out, 4);
  return f;
}

} // namespace kcc
