//===- SmfmacTests.cpp - Sparse MFMA (v_smfmac_*) against the reference ---===//
//
// smfmac.s (gfx942, gfx950) and smfmac_gfx950.s run every v_smfmac_* of the
// chip, each with two index-set selections (cbsz 0 with abid the last set,
// cbsz 1 which selects set 0) and the first also with the accumulator in
// AGPRs, on the same random registers. Every result element is compared with
// MfmaReference's smfmacReference. The index VGPR holds random pairs of
// distinct 2-bit positions in every set, so a wrong set, pair or position
// moves products between K positions of B.
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"
#include "MfmaReference.h"

#include <cmath>
#include <cstring>
#include <iterator>

using namespace kcc;
using namespace kcc::emutest;

namespace {

using I = MfmaIn;

struct SparseInst {
  const char *name;
  int m, k;
  MfmaIn a, b;
};

// The order of smfmac.py.
const SparseInst kCommon[] = {
    {"v_smfmac_f32_16x16x32_f16", 16, 32, I::F16, I::F16},
    {"v_smfmac_f32_32x32x16_f16", 32, 16, I::F16, I::F16},
    {"v_smfmac_f32_16x16x32_bf16", 16, 32, I::BF16, I::BF16},
    {"v_smfmac_f32_32x32x16_bf16", 32, 16, I::BF16, I::BF16},
    {"v_smfmac_i32_16x16x64_i8", 16, 64, I::I8, I::I8},
    {"v_smfmac_i32_32x32x32_i8", 32, 32, I::I8, I::I8},
    {"v_smfmac_f32_16x16x64_fp8_fp8", 16, 64, I::FP8, I::FP8},
    {"v_smfmac_f32_16x16x64_fp8_bf8", 16, 64, I::FP8, I::BF8},
    {"v_smfmac_f32_16x16x64_bf8_fp8", 16, 64, I::BF8, I::FP8},
    {"v_smfmac_f32_16x16x64_bf8_bf8", 16, 64, I::BF8, I::BF8},
    {"v_smfmac_f32_32x32x32_fp8_fp8", 32, 32, I::FP8, I::FP8},
    {"v_smfmac_f32_32x32x32_fp8_bf8", 32, 32, I::FP8, I::BF8},
    {"v_smfmac_f32_32x32x32_bf8_fp8", 32, 32, I::BF8, I::FP8},
    {"v_smfmac_f32_32x32x32_bf8_bf8", 32, 32, I::BF8, I::BF8},
};
const SparseInst kGfx950[] = {
    {"v_smfmac_f32_16x16x64_f16", 16, 64, I::F16, I::F16},
    {"v_smfmac_f32_32x32x32_f16", 32, 32, I::F16, I::F16},
    {"v_smfmac_f32_16x16x64_bf16", 16, 64, I::BF16, I::BF16},
    {"v_smfmac_f32_32x32x32_bf16", 32, 32, I::BF16, I::BF16},
    {"v_smfmac_i32_16x16x128_i8", 16, 128, I::I8, I::I8},
    {"v_smfmac_i32_32x32x64_i8", 32, 64, I::I8, I::I8},
    {"v_smfmac_f32_16x16x128_fp8_fp8", 16, 128, I::FP8, I::FP8},
    {"v_smfmac_f32_16x16x128_fp8_bf8", 16, 128, I::FP8, I::BF8},
    {"v_smfmac_f32_16x16x128_bf8_fp8", 16, 128, I::BF8, I::FP8},
    {"v_smfmac_f32_16x16x128_bf8_bf8", 16, 128, I::BF8, I::BF8},
    {"v_smfmac_f32_32x32x64_fp8_fp8", 32, 64, I::FP8, I::FP8},
    {"v_smfmac_f32_32x32x64_fp8_bf8", 32, 64, I::FP8, I::BF8},
    {"v_smfmac_f32_32x32x64_bf8_fp8", 32, 64, I::BF8, I::FP8},
    {"v_smfmac_f32_32x32x64_bf8_bf8", 32, 64, I::BF8, I::BF8},
};

/// A random register word whose elements of type t are finite numbers (FP8
/// and BF8 bytes finite in both the FNUZ and the OCP encodings), at most 2
/// in magnitude for 16-bit floats.
uint32_t randomWord(std::mt19937_64 &rng, MfmaIn t) {
  uint32_t w = 0;
  if (t == MfmaIn::F16 || t == MfmaIn::BF16) {
    for (int h = 0; h < 2; ++h) {
      double x = std::uniform_real_distribution<double>(-2, 2)(rng);
      w |= uint32_t(t == MfmaIn::F16 ? toF16(x) : toBf16(x)) << (16 * h);
    }
    return w;
  }
  for (int b = 0; b < 4; ++b) {
    uint8_t x;
    for (;;) {
      x = uint8_t(rng());
      bool bad = t != MfmaIn::I8 &&
                 (x == 0x80 || (t == MfmaIn::FP8 && (x & 0x7f) == 0x7f) ||
                  (t == MfmaIn::BF8 && (x & 0x7c) == 0x7c));
      if (!bad)
        break;
    }
    w |= uint32_t(x) << (8 * b);
  }
  return w;
}

/// Random pairs of distinct 2-bit positions in all eight pairs of a word.
uint32_t randomIndex(std::mt19937_64 &rng) {
  uint32_t w = 0;
  for (int p = 0; p < 8; ++p) {
    unsigned i0 = rng() % 4, i1 = (i0 + 1 + rng() % 3) % 4;
    w |= (i0 | (i1 << 2)) << (4 * p);
  }
  return w;
}

/// Operands of one launch whose elements are valid inputs of type class
/// `cls` (F16, BF16, I8, or FP8 meaning bytes finite as FP8 and BF8).
struct SparseInputs {
  std::vector<uint32_t> a, b, idx, c; // 8, 8, 1 and 16 dwords per lane
};
SparseInputs randomSparseInputs(std::mt19937_64 &rng, MfmaIn cls) {
  SparseInputs in{std::vector<uint32_t>(64 * 8), std::vector<uint32_t>(64 * 8),
                  std::vector<uint32_t>(64), std::vector<uint32_t>(64 * 16)};
  for (uint32_t &w : in.idx)
    w = randomIndex(rng);
  auto word = [&]() {
    if (cls != MfmaIn::FP8)
      return randomWord(rng, cls);
    for (;;) { // finite as FP8 (randomWord) and as BF8
      uint32_t w = randomWord(rng, MfmaIn::FP8), bad = 0;
      for (int t = 0; t < 4; ++t)
        bad |= ((w >> (8 * t)) & 0x7c) == 0x7c;
      if (!bad)
        return w;
    }
  };
  for (size_t e = 0; e < in.a.size(); ++e) {
    in.a[e] = word();
    in.b[e] = word();
  }
  for (uint32_t &w : in.c) {
    if (cls == MfmaIn::I8) {
      w = uint32_t(int32_t(rng() % (1 << 21)) - (1 << 20));
    } else {
      float f = std::uniform_real_distribution<float>(-4, 4)(rng);
      std::memcpy(&w, &f, 4);
    }
  }
  return in;
}

/// Compares D (16 dwords per lane, lane-major) with the reference.
void checkSparse(const SparseInst &in, bool gfx950, int cbsz, int abid,
                 const SparseInputs &x, const uint32_t *got,
                 const std::string &note) {
  std::vector<double> ref, bound;
  smfmacReference(in.m, in.k, in.a, in.b, gfx950, x.a, x.b, x.idx, cbsz, abid,
                  x.c, ref, bound);
  int acc = in.m * in.m / 64;
  Report r(std::string(in.name) + " cbsz " + std::to_string(cbsz) + " abid " +
           std::to_string(abid) + note + " D (lane * regs + reg)");
  for (int l = 0; l < 64; ++l)
    for (int q = 0; q < acc; ++q) {
      uint32_t w = got[l * 16 + q];
      double g;
      if (in.a == MfmaIn::I8) {
        g = int32_t(w);
      } else {
        float f;
        std::memcpy(&f, &w, 4);
        g = f;
      }
      int e = l * acc + q;
      if (!(std::fabs(g - ref[e]) <= bound[e]))
        r.fail(e, g, ref[e], "bound " + std::to_string(bound[e]));
    }
}

class SmfmacTest : public EmuTestBase,
                   public ::testing::WithParamInterface<std::tuple<Chip, int>> {
protected:
  Chip chip() const override { return std::get<0>(GetParam()); }
};

} // namespace

TEST_P(SmfmacTest, MatchesReference) {
  bool extra = std::get<1>(GetParam()) == 1;
  if (extra && !isGfx950())
    GTEST_SKIP() << "gfx950 only";
  const SparseInst *insts = extra ? kGfx950 : kCommon;
  int n = extra ? int(std::size(kGfx950)) : int(std::size(kCommon));
  const char *kernel = extra ? "smfmac_gfx950" : "smfmac";
  auto mod = load(kernel);
  ASSERT_TRUE(mod);
  // Slots as smfmac.py lays them out.
  struct Slot {
    int inst, cbsz, abid;
    bool agpr;
  };
  std::vector<Slot> slots;
  for (int i = 0; i < n; ++i) {
    int kd = insts[i].k * insts[i].m / 64;
    slots.push_back({i, 0, 32 / kd - 1, false});
    slots.push_back({i, 1, 1, false});
    if (i == 0)
      slots.push_back({i, 0, 0, true});
  }
  // The kernel runs every instruction on the same registers, and what is
  // a valid input differs by type: one launch per input type, each checking
  // the instructions of that type (FP8 and BF8 share bytes finite in both).
  auto classOf = [](MfmaIn t) { return t == MfmaIn::BF8 ? MfmaIn::FP8 : t; };
  for (MfmaIn cls : {MfmaIn::F16, MfmaIn::BF16, MfmaIn::I8, MfmaIn::FP8}) {
    SparseInputs x = randomSparseInputs(rng, cls);
    uint64_t da = upload(x.a), db = upload(x.b), di = upload(x.idx),
             dc = upload(x.c), dd = alloc(slots.size() * 64 * 16 * 4, 0xff);
    EMU_LAUNCH(*mod, kernel, {1, 1, 1}, {64, 1, 1},
               ArgPack().add(da).add(db).add(di).add(dc).add(dd));
    auto got = download<uint32_t>(dd, slots.size() * 64 * 16);
    for (size_t sl = 0; sl < slots.size(); ++sl) {
      const Slot &s = slots[sl];
      if (classOf(insts[s.inst].a) == cls)
        checkSparse(insts[s.inst], isGfx950(), s.cbsz, s.abid, x,
                    &got[sl * 1024], s.agpr ? " (AGPR accumulator)" : "");
    }
  }
}

static std::string
smfmacParamName(const ::testing::TestParamInfo<std::tuple<Chip, int>> &info) {
  return std::string(chipName(std::get<0>(info.param))) +
         (std::get<1>(info.param) ? "_gfx950_additions" : "_common");
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, SmfmacTest,
    ::testing::Combine(::testing::Values(Chip::gfx942, Chip::gfx950),
                       ::testing::Range(0, 2)),
    smfmacParamName);

// The clang builtins __builtin_amdgcn_smfmac_* of mfma.hip.
struct SparseBuiltin {
  SparseInst inst;
  int cbsz, abid;
  bool gfx950Only;
};
const SparseBuiltin kSparseBuiltins[] = {
    {{"f32_16x16x32_f16", 16, 32, I::F16, I::F16}, 0, 3, false},
    {{"f32_32x32x16_bf16", 32, 16, I::BF16, I::BF16}, 0, 2, false},
    {{"i32_32x32x32_i8", 32, 32, I::I8, I::I8}, 0, 1, false},
    {{"f32_16x16x64_bf8_fp8", 16, 64, I::BF8, I::FP8}, 1, 0, false},
    {{"f32_16x16x128_fp8_bf8", 16, 128, I::FP8, I::BF8}, 0, 0, true},
    {{"f32_32x32x32_bf16", 32, 32, I::BF16, I::BF16}, 0, 1, true},
    {{"f32_16x16x64_f16", 16, 64, I::F16, I::F16}, 0, 1, true},
};

TEST_P(SmfmacTest, BuiltinsMatchReference) {
  if (std::get<1>(GetParam()) != 0)
    GTEST_SKIP() << "one instance per chip";
  auto mod = load("mfma");
  ASSERT_TRUE(mod);
  for (const SparseBuiltin &sb : kSparseBuiltins) {
    if (sb.gfx950Only && !isGfx950())
      continue;
    MfmaIn cls = sb.inst.a == MfmaIn::BF8 ? MfmaIn::FP8 : sb.inst.a;
    SparseInputs x = randomSparseInputs(rng, cls);
    uint64_t da = upload(x.a), db = upload(x.b), di = upload(x.idx),
             dc = upload(x.c), dd = alloc(64 * 16 * 4, 0xff);
    std::string kernel = std::string("smfmac_") + sb.inst.name;
    EMU_LAUNCH(*mod, kernel, {1, 1, 1}, {64, 1, 1},
               ArgPack().add(da).add(db).add(di).add(dc).add(dd));
    auto got = download<uint32_t>(dd, 64 * 16);
    checkSparse(sb.inst, isGfx950(), sb.cbsz, sb.abid, x, got.data(),
                " (clang builtin)");
  }
}
