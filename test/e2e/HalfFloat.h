//===- HalfFloat.h - bf16/f16 rounding for the end-to-end references -*- C++ -*-===//
//
// The tests' own conversions, written from the IEEE / bfloat16 definitions
// rather than taken from the runtime, so that a rounding bug in kcc's host
// code cannot hide in its own reference.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TEST_E2E_HALFFLOAT_H
#define KCC_TEST_E2E_HALFFLOAT_H

#include <cstdint>
#include <cstring>

namespace kcc::test {

/// Round to nearest even (finite inputs).
inline uint16_t toBf16(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  b += 0x7fff + ((b >> 16) & 1);
  return b >> 16;
}

inline float fromBf16(uint16_t h) {
  uint32_t b = uint32_t(h) << 16;
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

/// Round to nearest even (the compiler's _Float16 conversion).
inline uint16_t toF16(float x) {
  _Float16 h = _Float16(x);
  uint16_t r;
  std::memcpy(&r, &h, 2);
  return r;
}

inline float fromF16(uint16_t h) {
  _Float16 v;
  std::memcpy(&v, &h, 2);
  return float(v);
}

} // namespace kcc::test

#endif // KCC_TEST_E2E_HALFFLOAT_H
