//===- MfmaF8f6f4Tests.cpp - gfx950's f8f6f4 MFMAs against the reference --===//
//
// mfma_f8f6f4_gfx950.s runs v_mfma_f32_{16x16x128,32x32x64}_f8f6f4 and the
// scaled v_mfma_scale_f32_*_f8f6f4 for all 25 (A, B) format pairs on the
// same random registers, plus once with the accumulator in AGPRs. Every
// result element is compared with MfmaReference's mfmaF8f6f4Reference.
// The inputs are random codes that are finite in both 8-bit formats, with
// planted specials: a NaN (0x7f in either FP8), +inf and -inf (BF8 0x7c,
// 0xfc; 256 and -256 as FP8), FP8's largest value, E8M0 scales 2^(+-30)
// around 1 and the smallest, 2^-127 (0x00), in one lane. (A NaN scale is
// refused: AsmTests' Negative.UndocumentedMatrixOpsAreRefused.)
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"
#include "MfmaReference.h"

#include <cmath>

using namespace kcc;
using namespace kcc::emutest;

namespace {

struct F8f6f4Kernel {
  const char *name;
  int m;
  bool scaled;
};
const F8f6f4Kernel kKernels[] = {
    {"mfma_f8f6f4_16x16x128", 16, false},
    {"mfma_f8f6f4_32x32x64", 32, false},
    {"mfma_scale_f8f6f4_16x16x128", 16, true},
    {"mfma_scale_f8f6f4_32x32x64", 32, true},
};

class MfmaF8f6f4Test : public EmuTestBase,
                       public ::testing::WithParamInterface<int> {
protected:
  Chip chip() const override { return Chip::gfx950; }
};

/// A random byte that is a finite number as OCP e4m3fn and as e5m2.
uint8_t finiteByte(std::mt19937_64 &rng) {
  for (;;) {
    uint8_t b = uint8_t(rng());
    if ((b & 0x7f) != 0x7f && (b & 0x7c) != 0x7c)
      return b;
  }
}

void setByte(std::vector<uint32_t> &v, int lane, int byte, uint8_t x) {
  uint32_t &word = v[lane * 8 + byte / 4];
  word = (word & ~(0xffu << (8 * (byte % 4)))) | (uint32_t(x) << (8 * (byte % 4)));
}

/// Random operands (see the file comment) for one wave.
struct Inputs {
  std::vector<uint32_t> a, b, scales; // 8, 8 and 2 dwords per lane
  std::vector<float> c;               // acc per lane
};
Inputs randomInputs(std::mt19937_64 &rng, int acc) {
  Inputs in;
  in.a.assign(64 * 8, 0);
  in.b.assign(64 * 8, 0);
  in.scales.assign(64 * 2, 0);
  for (size_t i = 0; i < in.a.size(); ++i)
    for (int t = 0; t < 4; ++t) {
      in.a[i] |= uint32_t(finiteByte(rng)) << (8 * t);
      in.b[i] |= uint32_t(finiteByte(rng)) << (8 * t);
    }
  setByte(in.a, 2, 0, 0x7f);  // NaN in both FP8 formats
  setByte(in.a, 5, 4, 0x7e);  // FP8's largest, 448
  setByte(in.b, 40, 3, 0x7c); // BF8 +inf
  setByte(in.b, 41, 1, 0xfc); // BF8 -inf (another column)
  for (int l = 0; l < 64; ++l)
    for (int w = 0; w < 2; ++w)
      for (int t = 0; t < 4; ++t)
        in.scales[l * 2 + w] |= uint32_t(127 - 30 + rng() % 61) << (8 * t);
  in.scales[9 * 2 + 1] &= ~(0xffu << 8); // B scale byte 1 of lane 9: 2^-127
  in.c.resize(64 * acc);
  for (float &x : in.c)
    x = std::uniform_real_distribution<float>(-4, 4)(rng);
  return in;
}

/// Compares one D (64 * acc floats, lane-major) with the reference of
/// formats fa, fb and (when scaled) scale bytes selA, selB.
void checkD(const std::string &what, int m, bool scaled, int fa, int fb,
            int selA, int selB, const Inputs &in, const float *got) {
  int acc = m * m / 64;
  std::vector<uint8_t> sa(64), sb(64);
  for (int l = 0; l < 64; ++l) {
    sa[l] = uint8_t(in.scales[l * 2] >> (8 * selA));
    sb[l] = uint8_t(in.scales[l * 2 + 1] >> (8 * selB));
  }
  std::vector<double> ref, bound;
  mfmaF8f6f4Reference(m, fa, fb, 8, in.a, in.b, in.c,
                      scaled ? sa.data() : nullptr,
                      scaled ? sb.data() : nullptr, ref, bound);
  Report r(what + " cbsz " + std::to_string(fa) + " blgp " +
           std::to_string(fb) + " D (lane * regs + reg)");
  int nan = 0;
  for (int e = 0; e < 64 * acc; ++e) {
    double g = got[e];
    bool ok = std::isnan(ref[e])   ? std::isnan(g)
              : std::isinf(ref[e]) ? g == ref[e]
                                   : std::fabs(g - ref[e]) <= bound[e];
    nan += std::isnan(ref[e]);
    if (!ok)
      r.fail(e, g, ref[e], "bound " + std::to_string(bound[e]));
  }
  // The planted specials must not swamp the check.
  EXPECT_LT(nan, 64 * acc / 4) << what;
}

} // namespace

TEST_P(MfmaF8f6f4Test, MatchesReference) {
  const F8f6f4Kernel &kk = kKernels[GetParam()];
  auto mod = load("mfma_f8f6f4_gfx950");
  ASSERT_TRUE(mod);
  int acc = kk.m * kk.m / 64;
  Inputs in = randomInputs(rng, acc);
  uint64_t da = upload(in.a), db = upload(in.b), dc = upload(in.c),
           ds = upload(in.scales), dd = alloc(26 * in.c.size() * 4, 0xff);
  EMU_LAUNCH(*mod, kk.name, {1, 1, 1}, {64, 1, 1},
             ArgPack().add(da).add(db).add(dc).add(ds).add(dd));
  auto got = download<float>(dd, 26 * in.c.size());
  for (int slot = 0; slot < 26; ++slot) {
    int fa = slot / 5, fb = slot % 5;
    if (slot == 25)
      fa = kk.scaled ? 4 : 0, fb = kk.scaled ? 1 : 0;
    checkD(std::string(kk.name) + (slot == 25 ? " (AGPR accumulator)" : ""),
           kk.m, kk.scaled, fa, fb, slot % 4, (slot / 4) % 4, in,
           &got[size_t(slot) * 64 * acc]);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, MfmaF8f6f4Test, ::testing::Range(0, 4),
    [](const ::testing::TestParamInfo<int> &info) {
      return std::string(kKernels[info.param].name);
    });

// The clang builtins __builtin_amdgcn_mfma_scale_f32_{16x16x128,32x32x64}_
// f8f6f4 of mfma.hip (clang picks the registers and encodes the operand
// widths and op_sel itself).
struct ScaleBuiltin {
  const char *kernel;
  int m, fa, fb, selA, selB;
};
const ScaleBuiltin kScaleBuiltins[] = {
    {"mfma_scale_16x16x128_0_0_00", 16, 0, 0, 0, 0},
    {"mfma_scale_16x16x128_1_0_12", 16, 1, 0, 1, 2},
    {"mfma_scale_16x16x128_2_3_31", 16, 2, 3, 3, 1},
    {"mfma_scale_16x16x128_4_4_23", 16, 4, 4, 2, 3},
    {"mfma_scale_16x16x128_0_4_01", 16, 0, 4, 0, 1},
    {"mfma_scale_32x32x64_0_1_00", 32, 0, 1, 0, 0},
    {"mfma_scale_32x32x64_3_2_21", 32, 3, 2, 2, 1},
    {"mfma_scale_32x32x64_4_0_13", 32, 4, 0, 1, 3},
    {"mfma_scale_32x32x64_1_4_30", 32, 1, 4, 3, 0},
};

class MfmaScaleBuiltinTest : public EmuTestBase,
                             public ::testing::WithParamInterface<int> {
protected:
  Chip chip() const override { return Chip::gfx950; }
};

TEST_P(MfmaScaleBuiltinTest, MatchesReference) {
  const ScaleBuiltin &k = kScaleBuiltins[GetParam()];
  auto mod = load("mfma");
  ASSERT_TRUE(mod);
  int acc = k.m * k.m / 64;
  Inputs in = randomInputs(rng, acc);
  uint64_t da = upload(in.a), db = upload(in.b), dc = upload(in.c),
           ds = upload(in.scales), dd = alloc(in.c.size() * 4, 0xff);
  EMU_LAUNCH(*mod, k.kernel, {1, 1, 1}, {64, 1, 1},
             ArgPack().add(da).add(db).add(dc).add(dd).add(ds));
  auto got = download<float>(dd, in.c.size());
  checkD(k.kernel, k.m, true, k.fa, k.fb, k.selA, k.selB, in, got.data());
}

INSTANTIATE_TEST_SUITE_P(
    Builtins, MfmaScaleBuiltinTest,
    ::testing::Range(0, int(sizeof(kScaleBuiltins) / sizeof(kScaleBuiltins[0]))),
    [](const ::testing::TestParamInfo<int> &info) {
      return std::string(kScaleBuiltins[info.param].kernel);
    });
