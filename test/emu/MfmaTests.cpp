//===- MfmaTests.cpp - Every MFMA instruction against the layout model ----===//
//
// For each kernel of mfma.hip: random operand registers for all 64 lanes, the
// instruction run by the emulator, and every element of every result
// register compared with MfmaReference's product of the matrices that the
// documented layouts give. Float results are allowed the rounding error of a
// K-term f32 (f64) accumulation bounded by the magnitudes of the terms; a
// wrong lane layout, block order, broadcast or format decode moves entries by
// far more than that. Integer results are exact.
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"
#include "MfmaReference.h"

#include <cmath>

using namespace kcc;
using namespace kcc::emutest;

namespace {

enum class On { Both, Gfx942, Gfx950 };

struct MfmaCase {
  MfmaDesc d;
  On on;
  /// The code object holding kernel mfma_<d.kernel>: mfma.hip, or an
  /// llvm-mc kernel of asm/.
  const char *module = "mfma";
};

using I = MfmaIn;
using O = MfmaOut;

// name, M, N, K, blocks, K values per lane, A type, B type, D type,
// cbsz, abid, blgp.
const MfmaCase kCases[] = {
    {{"f32_32x32x1f32", 32, 32, 1, 2, 1, I::F32, I::F32, O::F32}, On::Both},
    {{"f32_16x16x1f32", 16, 16, 1, 4, 1, I::F32, I::F32, O::F32}, On::Both},
    {{"f32_4x4x1f32", 4, 4, 1, 16, 1, I::F32, I::F32, O::F32}, On::Both},
    {{"f32_32x32x2f32", 32, 32, 2, 1, 1, I::F32, I::F32, O::F32}, On::Both},
    {{"f32_16x16x4f32", 16, 16, 4, 1, 1, I::F32, I::F32, O::F32}, On::Both},
    {{"f32_32x32x4f16", 32, 32, 4, 2, 4, I::F16, I::F16, O::F32}, On::Both},
    {{"f32_16x16x4f16", 16, 16, 4, 4, 4, I::F16, I::F16, O::F32}, On::Both},
    {{"f32_4x4x4f16", 4, 4, 4, 16, 4, I::F16, I::F16, O::F32}, On::Both},
    {{"f32_32x32x8f16", 32, 32, 8, 1, 4, I::F16, I::F16, O::F32}, On::Both},
    {{"f32_16x16x16f16", 16, 16, 16, 1, 4, I::F16, I::F16, O::F32}, On::Both},
    {{"f32_32x32x4bf16_1k", 32, 32, 4, 2, 4, I::BF16, I::BF16, O::F32}, On::Both},
    {{"f32_16x16x4bf16_1k", 16, 16, 4, 4, 4, I::BF16, I::BF16, O::F32}, On::Both},
    {{"f32_4x4x4bf16_1k", 4, 4, 4, 16, 4, I::BF16, I::BF16, O::F32}, On::Both},
    {{"f32_32x32x8bf16_1k", 32, 32, 8, 1, 4, I::BF16, I::BF16, O::F32}, On::Both},
    {{"f32_16x16x16bf16_1k", 16, 16, 16, 1, 4, I::BF16, I::BF16, O::F32}, On::Both},
    {{"i32_32x32x4i8", 32, 32, 4, 2, 4, I::I8, I::I8, O::I32}, On::Both},
    {{"i32_16x16x4i8", 16, 16, 4, 4, 4, I::I8, I::I8, O::I32}, On::Both},
    {{"i32_4x4x4i8", 4, 4, 4, 16, 4, I::I8, I::I8, O::I32}, On::Both},
    {{"i32_32x32x16_i8", 32, 32, 16, 1, 8, I::I8, I::I8, O::I32}, On::Both},
    {{"i32_16x16x32_i8", 16, 16, 32, 1, 8, I::I8, I::I8, O::I32}, On::Both},
    {{"f64_16x16x4f64", 16, 16, 4, 1, 1, I::F64, I::F64, O::F64}, On::Both},
    {{"f64_4x4x4f64", 4, 4, 4, 4, 1, I::F64, I::F64, O::F64}, On::Both},
    {{"f64_4x4x4f64_vcd", 4, 4, 4, 4, 1, I::F64, I::F64, O::F64}, On::Both, "mfma_f64_4x4"},
    {{"f64_4x4x4f64_acd", 4, 4, 4, 4, 1, I::F64, I::F64, O::F64}, On::Both, "mfma_f64_4x4"},
    {{"f32_32x32x16_fp8_fp8", 32, 32, 16, 1, 8, I::FP8, I::FP8, O::F32}, On::Both},
    {{"f32_32x32x16_bf8_bf8", 32, 32, 16, 1, 8, I::BF8, I::BF8, O::F32}, On::Both},
    {{"f32_32x32x16_fp8_bf8", 32, 32, 16, 1, 8, I::FP8, I::BF8, O::F32}, On::Both},
    {{"f32_16x16x32_fp8_fp8", 16, 16, 32, 1, 8, I::FP8, I::FP8, O::F32}, On::Both},
    {{"f32_16x16x32_bf8_fp8", 16, 16, 32, 1, 8, I::BF8, I::FP8, O::F32}, On::Both},
    {{"f32_32x32x1f32_cbsz1_abid1", 32, 32, 1, 2, 1, I::F32, I::F32, O::F32, 1, 1, 0}, On::Both},
    {{"f32_16x16x1f32_cbsz2_abid3_blgp3", 16, 16, 1, 4, 1, I::F32, I::F32, O::F32, 2, 3, 3}, On::Both},
    {{"f32_4x4x1f32_cbsz3_abid5_blgp4", 4, 4, 1, 16, 1, I::F32, I::F32, O::F32, 3, 5, 4}, On::Both},
    {{"f32_32x32x2f32_blgp1", 32, 32, 2, 1, 1, I::F32, I::F32, O::F32, 0, 0, 1}, On::Both},
    {{"f32_16x16x4f32_blgp6", 16, 16, 4, 1, 1, I::F32, I::F32, O::F32, 0, 0, 6}, On::Both},
    {{"f32_32x32x8f16_agpr", 32, 32, 8, 1, 4, I::F16, I::F16, O::F32}, On::Both},
    {{"f32_32x32x4_xf32", 32, 32, 4, 1, 2, I::XF32, I::XF32, O::F32}, On::Gfx942},
    {{"f32_16x16x8_xf32", 16, 16, 8, 1, 2, I::XF32, I::XF32, O::F32}, On::Gfx942},
    {{"f32_32x32x16_bf16", 32, 32, 16, 1, 8, I::BF16, I::BF16, O::F32}, On::Gfx950},
    {{"f32_16x16x32_bf16", 16, 16, 32, 1, 8, I::BF16, I::BF16, O::F32}, On::Gfx950},
    {{"f32_32x32x16_f16", 32, 32, 16, 1, 8, I::F16, I::F16, O::F32}, On::Gfx950},
    {{"f32_16x16x32_f16", 16, 16, 32, 1, 8, I::F16, I::F16, O::F32}, On::Gfx950},
    {{"i32_32x32x32_i8", 32, 32, 32, 1, 16, I::I8, I::I8, O::I32}, On::Gfx950},
    {{"i32_16x16x64_i8", 16, 16, 64, 1, 16, I::I8, I::I8, O::I32}, On::Gfx950},
};
constexpr int kNumCases = sizeof(kCases) / sizeof(kCases[0]);

// Random register contents for one operand element of type t.
void randomElement(std::mt19937_64 &rng, MfmaIn t, uint8_t *p) {
  switch (t) {
  case MfmaIn::F32:
  case MfmaIn::XF32: {
    float f = std::uniform_real_distribution<float>(-1, 1)(rng);
    std::memcpy(p, &f, 4);
    return;
  }
  case MfmaIn::F64: {
    double d = std::uniform_real_distribution<double>(-1, 1)(rng);
    std::memcpy(p, &d, 8);
    return;
  }
  case MfmaIn::F16: {
    uint16_t h = toF16(std::uniform_real_distribution<double>(-2, 2)(rng));
    std::memcpy(p, &h, 2);
    return;
  }
  case MfmaIn::BF16: {
    uint16_t h = toBf16(std::uniform_real_distribution<double>(-2, 2)(rng));
    std::memcpy(p, &h, 2);
    return;
  }
  case MfmaIn::I8:
    p[0] = (uint8_t)rng();
    return;
  case MfmaIn::FP8:
  case MfmaIn::BF8:
    // Any byte that is finite in both the FNUZ (gfx942) and the OCP
    // (gfx950) encoding: not 0x80 (FNUZ NaN), not an OCP NaN/infinity.
    for (;;) {
      uint8_t b = (uint8_t)rng();
      bool bad = b == 0x80 || (t == MfmaIn::FP8 && (b & 0x7f) == 0x7f) ||
                 (t == MfmaIn::BF8 && (b & 0x7c) == 0x7c);
      if (!bad) {
        p[0] = b;
        return;
      }
    }
  }
}

} // namespace

// One test per (chip, instruction).
class MfmaTest : public EmuTestBase,
                 public ::testing::WithParamInterface<std::tuple<Chip, int>> {
protected:
  Chip chip() const override { return std::get<0>(GetParam()); }
};

TEST_P(MfmaTest, MatchesLayoutModel) {
  const MfmaCase &c = kCases[std::get<1>(GetParam())];
  if (c.on == On::Gfx942 && isGfx950())
    GTEST_SKIP() << "gfx942 only (removed in gfx950)";
  if (c.on == On::Gfx950 && !isGfx950())
    GTEST_SKIP() << "gfx950 only";
  auto m = load(c.module);
  ASSERT_TRUE(m);
  {
    SCOPED_TRACE(std::string("mfma_") + c.d.kernel);
    const MfmaDesc &d = c.d;
    int eb = d.inBytes(), acc = d.accPerLane(), ob = d.outBytes();
    std::vector<uint8_t> a(64 * d.kPerLane * eb), b(a.size()),
        cc(64 * acc * ob);
    for (int e = 0; e < 64 * d.kPerLane; ++e) {
      randomElement(rng, d.inA, &a[e * eb]);
      randomElement(rng, d.inB, &b[e * eb]);
    }
    for (int e = 0; e < 64 * acc; ++e) {
      if (d.out == MfmaOut::F64) {
        double v = std::uniform_real_distribution<double>(-4, 4)(rng);
        std::memcpy(&cc[e * 8], &v, 8);
      } else if (d.out == MfmaOut::I32) {
        int32_t v = (int32_t)(rng() % (1 << 21)) - (1 << 20);
        std::memcpy(&cc[e * 4], &v, 4);
      } else {
        float v = std::uniform_real_distribution<float>(-4, 4)(rng);
        std::memcpy(&cc[e * 4], &v, 4);
      }
    }
    uint64_t da = upload(a), db = upload(b), dc = upload(cc),
             dd = alloc(cc.size(), 0xff);
    std::string err = launch(*m, std::string("mfma_") + d.kernel, {1, 1, 1},
                             {64, 1, 1},
                             ArgPack().add(da).add(db).add(dc).add(dd));
    ASSERT_TRUE(err.empty()) << "launch of mfma_" << d.kernel
                             << " failed: " << err;
    auto got = download<uint8_t>(dd, cc.size());
    std::vector<double> ref, bound;
    mfmaReference(d, isGfx950(), a, b, cc, ref, bound);
    Report r(std::string("mfma_") + d.kernel + " D (lane * regs + reg)");
    for (int e = 0; e < 64 * acc; ++e) {
      double g;
      if (d.out == MfmaOut::F64) {
        std::memcpy(&g, &got[e * 8], 8);
      } else if (d.out == MfmaOut::I32) {
        int32_t v;
        std::memcpy(&v, &got[e * 4], 4);
        g = v;
      } else {
        float v;
        std::memcpy(&v, &got[e * 4], 4);
        g = v;
      }
      if (!(std::fabs(g - ref[e]) <= bound[e]))
        r.fail(e, g, ref[e], "bound " + std::to_string(bound[e]));
    }
  }
}

static std::string
mfmaParamName(const ::testing::TestParamInfo<std::tuple<Chip, int>> &info) {
  return std::string(chipName(std::get<0>(info.param))) + "_" +
         kCases[std::get<1>(info.param)].d.kernel;
}

INSTANTIATE_TEST_SUITE_P(
    Instructions, MfmaTest,
    ::testing::Combine(::testing::Values(Chip::gfx942, Chip::gfx950),
                       ::testing::Range(0, kNumCases)),
    mfmaParamName);
