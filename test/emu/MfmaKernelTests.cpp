//===- MfmaKernelTests.cpp - Every host path of the MFMA block product ----===//
//
// The MFMA block product (runtime/emu/MfmaKernels.h) runs on AVX-512, AVX2
// or portable code, whichever the host has: every path this host runs gives
// the portable path's bits, on the shapes of the MFMA instructions, for
// 16-bit-like inputs (products added after rounding) and f32 (fused), with
// subnormals, infinities and NaNs in the accumulator. Inputs with NaNs take
// one loop on every path, so they are the same by construction.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/MfmaKernels.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>
#include <vector>

using namespace kcc::emu;

namespace {

float fromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// A value of one of the classes that round differently: ordinary,
/// subnormal (as bf16 holds them), tiny products, infinities.
float pick(std::mt19937_64 &rng, bool withInf) {
  uint32_t r = uint32_t(rng());
  switch (r % 8) {
  case 0: return fromBits(r & 0x807f0000u);            // bf16 subnormal
  case 1: return fromBits((r & 0x80ff0000u) | 0x00800000u); // tiny normal
  case 2: return withInf ? fromBits((r & 0x80000000u) | 0x7f800000u) : 1.0f;
  default: return fromBits((r & 0x81ff0000u) | 0x3c000000u); // near 1
  }
}

TEST(MfmaKernels, EveryHostPathGivesThePortableBits) {
  struct Shape {
    int m, n, k;
  } shapes[] = {{32, 32, 8}, {32, 32, 16}, {16, 16, 16}, {16, 16, 32},
                {32, 32, 2}, {16, 16, 4},  {4, 4, 4}};
  std::mt19937_64 rng(2026);
  int compared = 0;
  for (MfmaVectors v : {MfmaVectors::Avx2, MfmaVectors::Avx512}) {
    if (!mfmaHostRuns(v))
      continue;
    for (const Shape &s : shapes)
      for (MfmaSum sum : {MfmaSum::MulAdd, MfmaSum::Fma})
        for (int trial = 0; trial < 40; ++trial) {
          // Infinities in A and B only without NaNs in C: the case in which
          // the caller passes nanInputs = false (Mfma.cpp).
          bool inf = trial % 2, cNaN = !inf && trial % 4 == 0;
          std::vector<float> a(s.k * s.m), b(s.k * s.n), c(s.m * s.n);
          for (float &x : a)
            x = pick(rng, inf);
          for (float &x : b)
            x = pick(rng, inf);
          for (float &x : c)
            x = cNaN && rng() % 16 == 0 ? fromBits(0x7fa00000u | uint32_t(rng() & 0x1fffff))
                                        : pick(rng, false) * 3.0f;
          std::vector<float> want = c, got = c;
          mfmaBlockF32On(MfmaVectors::Portable, a.data(), b.data(), want.data(),
                         s.m, s.n, s.k, sum, false);
          mfmaBlockF32On(v, a.data(), b.data(), got.data(), s.m, s.n, s.k, sum,
                         false);
          ASSERT_EQ(std::memcmp(want.data(), got.data(), want.size() * 4), 0)
              << "path " << int(v) << ", " << s.m << "x" << s.n << "x" << s.k
              << (sum == MfmaSum::Fma ? " fused" : " mul+add") << ", trial "
              << trial;
          ++compared;
        }
  }
  if (!compared)
    GTEST_SKIP() << "this host runs only the portable path";
}

} // namespace
