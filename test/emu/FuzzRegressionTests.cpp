//===- FuzzRegressionTests.cpp - What kcc-emu-fuzz found, kept as tests ---===//
//
// Each test runs a kernel of ll/fuzz_regressions.ll (llc's code for both
// chips) on the inputs with which the differential fuzzer (docs/testing.md,
// "Differential fuzzing") showed the emulator disagreeing with the host, and
// on random inputs of the same kind, and compares with the host's result of
// the same IR operation.
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include <cmath>

using namespace kcc;
using namespace kcc::emutest;

namespace {

class FuzzRegression : public EmuTest {};

/// A random f32 anywhere in the finite range, denormals included.
float anyFinite(std::mt19937_64 &rng) {
  uint64_t r = rng();
  uint32_t exponent = uint32_t(r % 255); // 0 (denormals) .. 254
  uint32_t bits = (exponent << 23) | uint32_t((r >> 8) & 0x7fffff) | uint32_t((r >> 40) & 1) << 31;
  return floatOf(bits);
}

// LLVM's f32 division is correctly rounded (AMDGPUUsage); its expansion
// relies on v_div_scale_f32 scaling a divisor with a denormal reciprocal
// down, and classifying the quotient before it underflows (divScale in
// runtime/emu/ValuFloat.cpp). The emulator turned 1 / 3.4e38 into inf (the
// divisor scaled up to inf) and 1e-33 / 6.4e27 into inf; 4 / 3.4e38 was an
// ulp off while the reciprocal was left denormal.
TEST_P(FuzzRegression, FdivF32) {
  auto m = load("fuzz_regressions");
  ASSERT_TRUE(m);
  std::vector<float> in = {1.0f, 3.4028234663852886e38f, 1.0f, 1.5e38f, 3.0f, 1e38f,
                           1.057718908584014e-33f, 6.411603016865325e27f,
                           -2.0223375485215434e-38f, 4.4876219799910525e25f,
                           1.25f, 2.0f, 5e-39f, 3.0f, -7.75f, 9.39e32f,
                           4.0f, 3.4028234663852886e38f};
  while (in.size() < 128)
    in.push_back(anyFinite(rng));
  uint64_t din = upload(in), dout = alloc(64 * 4);
  EMU_LAUNCH(*m, "fdiv_f32", {1, 1, 1}, {64, 1, 1}, ArgPack().add(din).add(dout));
  auto out = download<uint32_t>(dout, 64);
  std::vector<uint32_t> want(64);
  for (unsigned l = 0; l < 64; ++l)
    want[l] = bitsOf(in[2 * l] / in[2 * l + 1]); // the host's division, rounded once
  Report("fdiv f32 (a / b per lane)").expectEqual(out, want);
}

/// A random f64 anywhere in the finite range, denormals included.
double anyFiniteF64(std::mt19937_64 &rng) {
  uint64_t r = rng();
  uint64_t exponent = rng() % 2047; // 0 (denormals) .. 2046
  return doubleOf((exponent << 52) | (r & 0xfffffffffffffull) | (r & (1ull << 63)));
}

// The f64 sequence's v_div_scale_f64 made the same mistake as the f32 one
// on a quotient below the normal range that an f64 division rounds to zero,
// scaled a divisor above 2^1022 to infinity when the quotient was below the
// normal range (1 / DBL_MAX), and v_div_fmas_f64 rounded a denormal
// quotient twice, or lost the bits that decide a quotient next to a tie.
TEST_P(FuzzRegression, FdivF64) {
  auto m = load("fuzz_regressions");
  ASSERT_TRUE(m);
  std::vector<double> in = {doubleOf(0x86260aabe4d00ull), doubleOf(0xfc7c884ea6810c32ull),
                            1.0, 1.7976931348623157e308, 3.0, 1e308, 1e-300, 1e300,
                            -2.5e-310, 7.0, 1.25, 2.0,
                            // a denormal quotient, rounded twice it was an ulp off
                            1.476023611717856e-70, 2.0947599967410843e+238,
                            // a quotient next to a tie: the fma summed in
                            // binary128 lost the bits that break it
                            0x1p63, doubleOf(0x84ffffffffffffffull)};
  while (in.size() < 128)
    in.push_back(anyFiniteF64(rng));
  uint64_t din = upload(in), dout = alloc(64 * 8);
  EMU_LAUNCH(*m, "fdiv_f64", {1, 1, 1}, {64, 1, 1}, ArgPack().add(din).add(dout));
  auto out = download<uint64_t>(dout, 64);
  std::vector<uint64_t> want(64);
  for (unsigned l = 0; l < 64; ++l)
    want[l] = bitsOf(in[2 * l] / in[2 * l + 1]);
  Report("fdiv f64 (a / b per lane)").expectEqual(out, want);
}

// llvm.uadd.sat/usub.sat/sadd.sat/ssub.sat on i16 and i8 parts of dwords:
// LLVM selects the SDWA forms of v_add_u16/v_sub_u16 with clamp (and VOP3
// v_add_i16/v_sub_i16 clamp), which the emulator refused ("clamp on an
// integer VALU operation is not modelled").
TEST_P(FuzzRegression, SaturatingNarrowAddSub) {
  auto m = load("fuzz_regressions");
  ASSERT_TRUE(m);
  std::vector<uint32_t> in = {0xffff0001, 0x00000002, 0x80007fff, 0x7fff8000,
                              0x000000ff, 0x0000ff01, 0x12345678, 0x9abcdef0};
  while (in.size() < 128)
    in.push_back(uint32_t(rng()));
  uint64_t din = upload(in), dout = alloc(64 * 6 * 4);
  EMU_LAUNCH(*m, "sat_narrow", {1, 1, 1}, {64, 1, 1}, ArgPack().add(din).add(dout));
  auto out = download<uint32_t>(dout, 64 * 6);
  std::vector<uint32_t> want(64 * 6);
  auto clampTo = [](int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; };
  for (unsigned l = 0; l < 64; ++l) {
    uint32_t a = in[2 * l], b = in[2 * l + 1];
    int64_t ah = a >> 16, al = a & 0xffff, bl = b & 0xffff, a8 = a & 0xff, b8 = (b >> 8) & 0xff;
    int64_t sah = int16_t(ah), sbl = int16_t(bl);
    uint32_t *w = &want[6 * l];
    w[0] = uint32_t(clampTo(al + ah, 0, 0xffff));
    w[1] = uint32_t(clampTo(bl - ah, 0, 0xffff));
    w[2] = uint32_t(clampTo(sah + sbl, -32768, 32767)) & 0xffff;
    w[3] = uint32_t(clampTo(sbl - sah, -32768, 32767)) & 0xffff;
    w[4] = uint32_t(clampTo(a8 + b8, 0, 0xff));
    w[5] = uint32_t(clampTo(b8 - a8, 0, 0xff));
  }
  Report("uadd.sat.i16, usub.sat.i16, sadd.sat.i16, ssub.sat.i16, uadd.sat.i8, usub.sat.i8")
      .expectEqual(out, want);
}

} // namespace

INSTANTIATE_TEST_SUITE_P(Chips, FuzzRegression,
                         ::testing::Values(Chip::gfx942, Chip::gfx950),
                         chipParamName);
