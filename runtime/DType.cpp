//===- DType.cpp - Element types of device buffers ------------------------===//
#include "runtime/DType.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace kcc {

unsigned dtypeSize(DType type) {
  switch (type) {
  case DType::bf16:
  case DType::f16:
    return 2;
  case DType::f32:
  case DType::i32:
    return 4;
  case DType::e4m3fn:
  case DType::e4m3fnuz:
  case DType::i8:
    return 1;
  }
  return 0;
}

llvm::StringRef dtypeName(DType type) {
  switch (type) {
  case DType::bf16: return "bf16";
  case DType::f16: return "f16";
  case DType::f32: return "f32";
  case DType::i32: return "i32";
  case DType::e4m3fn: return "e4m3fn";
  case DType::e4m3fnuz: return "e4m3fnuz";
  case DType::i8: return "i8";
  }
  return "?";
}

bool isFp8(DType type) { return type == DType::e4m3fn || type == DType::e4m3fnuz; }

llvm::StringRef dtypeKernelName(DType type) {
  switch (type) {
  case DType::e4m3fn: return "f8E4M3FN";
  case DType::e4m3fnuz: return "f8E4M3FNUZ";
  default: return dtypeName(type);
  }
}

// Both encodings: 1 sign, 4 exponent and 3 mantissa bits; OCP's bias is 7
// (0x7f/0xff are NaN, the rest of the top binade finite: max 448), FNUZ's 8
// (0x80 is the only NaN, 0x00 the only zero: max 240).
float fp8ToFloat(DType type, uint8_t bits) {
  bool fnuz = type == DType::e4m3fnuz;
  if (fnuz ? bits == 0x80 : (bits & 0x7f) == 0x7f)
    return std::numeric_limits<float>::quiet_NaN();
  int exp = (bits >> 3) & 0xf, man = bits & 7;
  int bias = fnuz ? 8 : 7;
  float mag = exp ? std::ldexp(float(8 + man), exp - bias - 3)
                  : std::ldexp(float(man), 1 - bias - 3);
  return bits & 0x80 ? -mag : mag;
}

uint8_t floatToFp8(DType type, float value) {
  bool fnuz = type == DType::e4m3fnuz;
  if (std::isnan(value))
    return fnuz ? 0x80 : 0x7f;
  // The nearest code by search over the 127 non-negative finite codes
  // (ordered by value), ties to the even code: exact, and fast enough for
  // host-side test data.
  float mag = std::fabs(value);
  uint8_t maxCode = fnuz ? 0x7f : 0x7e;
  uint8_t best = 0;
  if (mag >= fp8ToFloat(type, maxCode)) {
    best = maxCode;
  } else {
    uint8_t lo = 0;
    while (lo < maxCode && fp8ToFloat(type, uint8_t(lo + 1)) <= mag)
      ++lo;
    float a = fp8ToFloat(type, lo), b = fp8ToFloat(type, uint8_t(lo + 1));
    if (mag - a < b - mag || (mag - a == b - mag && lo % 2 == 0))
      best = lo;
    else
      best = uint8_t(lo + 1);
  }
  if (std::signbit(value) && (best || !fnuz))
    best |= 0x80;
  return best;
}

std::optional<DType> parseDType(llvm::StringRef name) {
  if (name == "bf16") return DType::bf16;
  if (name == "f16") return DType::f16;
  if (name == "f32") return DType::f32;
  if (name == "i32") return DType::i32;
  if (name == "e4m3fn") return DType::e4m3fn;
  if (name == "e4m3fnuz") return DType::e4m3fnuz;
  if (name == "i8") return DType::i8;
  return std::nullopt;
}


} // namespace kcc
