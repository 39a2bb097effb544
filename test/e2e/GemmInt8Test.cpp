//===- GemmInt8Test.cpp - kcc's int8 GEMM on the emulator -----------------===//
//
// kernels/gemm/gemm_q8.mlir with DTYPE = i8 and ACC = i32, compiled
// in-process for gfx942 (v_mfma_i32_32x32x16_i8) and gfx950
// (v_mfma_i32_32x32x32_i8), run on the emulator with per-token and
// per-channel scales (and per tensor), and compared element by element with
// a reference computed in exact integer arithmetic: the i32 sum of i8
// products is exact, so C differs from the reference only by the f32
// conversion of the sum (exact below 2^24), the scales' f32 products and
// C's own rounding. Values span all of i8 (-128..127), so a wrong sign
// extension, byte order or layout is far outside the bound.
//
//===----------------------------------------------------------------------===//
#include "target/CodeObject.h"
#include "test/e2e/CompileForTest.h"
#include "test/e2e/EmulatedDevice.h"
#include "test/e2e/HalfFloat.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using kcc::Chip;

struct Case {
  Chip chip;
  int M, N, K;
  int ascale, bscale; // 0 per tensor, 1 per row
  std::string out = "bf16";
  bool bias = false;
  std::vector<std::string> extra;
};

std::string name(const Case &c) {
  std::string s = std::string(kcc::getChipInfo(c.chip).name) + "_" + std::to_string(c.M) +
                  "x" + std::to_string(c.N) + "x" + std::to_string(c.K) + "_scale" +
                  std::to_string(c.ascale) + std::to_string(c.bscale) + "_" + c.out +
                  (c.bias ? "_bias" : "");
  for (const std::string &e : c.extra)
    for (char ch : e)
      s += std::isalnum((unsigned char)ch) ? ch : '_';
  return s;
}

class GemmInt8Test : public ::testing::TestWithParam<Case> {};

int param(const Case &c, const std::string &key, int dflt) {
  for (const std::string &e : c.extra)
    if (e.rfind(key + "=", 0) == 0)
      return std::stoi(e.substr(key.size() + 1));
  return dflt;
}

TEST_P(GemmInt8Test, MatchesExactReference) {
  const Case &c = GetParam();
  auto buf = llvm::MemoryBuffer::getFile(KCC_GEMM_Q8_SOURCE);
  ASSERT_TRUE(bool(buf));
  std::vector<std::string> params = {"DTYPE=i8", "ACC=i32", "OUT=" + c.out,
                                     "ASCALE=" + std::to_string(c.ascale),
                                     "BSCALE=" + std::to_string(c.bscale),
                                     std::string("WIDE=") + (c.chip == Chip::gfx950 ? "1" : "0"),
                                     std::string("HAS_BIAS=") + (c.bias ? "1" : "0")};
  params.insert(params.end(), c.extra.begin(), c.extra.end());
  auto hsaco = kcc::e2e::compileForTest((*buf)->getBuffer(), "gemm_q8.mlir", c.chip, params);
  ASSERT_TRUE(bool(hsaco)) << llvm::toString(hsaco.takeError());

  std::mt19937 rng(c.M * 131 + c.N * 7 + c.K);
  std::uniform_int_distribution<int> byte(-128, 127);
  std::vector<int8_t> a(size_t(c.M) * c.K), bt(size_t(c.N) * c.K);
  for (auto &v : a) v = int8_t(byte(rng));
  for (auto &v : bt) v = int8_t(byte(rng));
  std::uniform_real_distribution<float> unit(0.5f, 2.f);
  std::vector<float> sa(c.ascale ? c.M : 1), sb(c.bscale ? c.N : 1), bias(c.N);
  for (auto &v : sa) v = unit(rng) * 1e-3f;
  for (auto &v : sb) v = unit(rng) * 1e-2f;
  for (auto &v : bias) v = unit(rng) - 1.25f;

  auto dev = kcc::e2e::EmulatedDevice::open(c.chip);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  kcc::Device &d = **dev;
  int outBytes = c.out == "f32" ? 4 : 2;
  size_t cElems = size_t(c.M) * c.N;
  auto alloc = [&](size_t bytes) {
    auto p = d.allocate(std::max<size_t>(bytes, 4));
    EXPECT_TRUE(bool(p));
    return p ? *p : 0;
  };
  uint64_t da = alloc(a.size()), db = alloc(bt.size()), dc = alloc(cElems * outBytes),
           dsa = alloc(sa.size() * 4), dsb = alloc(sb.size() * 4), dbias = alloc(bias.size() * 4);
  ASSERT_FALSE(bool(d.copyToDevice(da, a.data(), a.size())));
  ASSERT_FALSE(bool(d.copyToDevice(db, bt.data(), bt.size())));
  ASSERT_FALSE(bool(d.copyToDevice(dsa, sa.data(), sa.size() * 4)));
  ASSERT_FALSE(bool(d.copyToDevice(dsb, sb.data(), sb.size() * 4)));
  ASSERT_FALSE(bool(d.copyToDevice(dbias, bias.data(), bias.size() * 4)));
  ASSERT_FALSE(bool(d.memset(dc, 0xff, cElems * outBytes)));
  auto co = kcc::CodeObject::parse(*hsaco);
  ASSERT_TRUE(bool(co)) << llvm::toString(co.takeError());
  const kcc::KernelInfo *info = co->findKernel("gemm_q8");
  ASSERT_NE(info, nullptr);
  std::vector<uint8_t> args(info->explicitArgsSize(), 0);
  std::vector<const kcc::KernelArg *> slots = info->explicitArgs();
  ASSERT_EQ(slots.size(), 12u);
  uint64_t ptrs[6] = {da, db, dc, dsa, dsb, dbias};
  for (int i = 0; i < 6; ++i)
    std::memcpy(&args[slots[i]->offset], &ptrs[i], 8);
  int32_t ints[6] = {c.M, c.N, c.K, c.K, c.K, c.N};
  for (int i = 0; i < 6; ++i)
    std::memcpy(&args[slots[6 + i]->offset], &ints[i], 4);
  int wm = param(c, "WM", 64), wn = param(c, "WN", 64), wgm = param(c, "WGM", 2),
      wgn = param(c, "WGN", 2);
  kcc::LaunchConfig launch;
  launch.grid = {uint32_t((c.M + wgm * wm - 1) / (wgm * wm)),
                 uint32_t((c.N + wgn * wn - 1) / (wgn * wn)), 1};
  launch.block = {uint32_t(64 * wgm * wgn), 1, 1};
  auto stats = dev->launch(*hsaco, "gemm_q8", launch, args);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());

  std::vector<uint8_t> out(cElems * outBytes);
  ASSERT_FALSE(bool(d.copyFromDevice(out.data(), dc, out.size())));
  int bad = 0;
  for (int m = 0; m < c.M; ++m)
    for (int n = 0; n < c.N; ++n) {
      int64_t sum = 0;
      for (int k = 0; k < c.K; ++k)
        sum += int64_t(a[size_t(m) * c.K + k]) * int64_t(bt[size_t(n) * c.K + k]);
      double s = double(sa[c.ascale ? m : 0]) * double(sb[c.bscale ? n : 0]);
      double ref = double(sum) * s + (c.bias ? bias[n] : 0.0);
      size_t i = size_t(m) * c.N + n;
      double got;
      if (c.out == "f32") {
        float f;
        std::memcpy(&f, &out[4 * i], 4);
        got = f;
      } else {
        uint16_t h;
        std::memcpy(&h, &out[2 * i], 2);
        got = c.out == "bf16" ? kcc::test::fromBf16(h) : kcc::test::fromF16(h);
      }
      // The i32 -> f32 conversion, the scales' product and the multiply and
      // bias add in f32 (2^-24 of their magnitudes each), then C's rounding.
      double mag = std::fabs(double(sum) * s) + (c.bias ? std::fabs(bias[n]) : 0.0);
      double outUlp = c.out == "bf16" ? 0x1p-8 : c.out == "f16" ? 0x1p-11 : 0.0;
      double tol = 5 * 0x1p-24 * mag + outUlp * std::fabs(ref) + 1e-30;
      if (!(std::fabs(got - ref) <= tol) && ++bad <= 5)
        ADD_FAILURE() << "C[" << m << "][" << n << "] = " << got << ", reference " << ref
                      << " (integer sum " << sum << ", tolerance " << tol << ")";
    }
  EXPECT_EQ(bad, 0) << bad << " of " << cElems << " elements wrong";
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    all.push_back({chip, 128, 128, 128, 1, 1});
    all.push_back({chip, 256, 192, 384, 1, 1, "f32"});         // odd K-block count
    all.push_back({chip, 100, 200, 272, 1, 1, "bf16", true});  // tails, bias
    all.push_back({chip, 70, 90, 1040, 0, 1, "f16"});          // sums near 2^24
    all.push_back({chip, 1, 300, 528, 1, 0, "f32", false, {"WM=32", "WN=32", "WGM=1", "WGN=4"}});
    all.push_back({chip, 40, 260, 384, 0, 0, "bf16", true, {"WM=32", "WN=32", "WGM=1", "WGN=4"}});
  }
  all.push_back({Chip::gfx942, 33, 65, 132, 1, 1, "f32"}); // K in 4-byte DMA units only
  return all;
}

INSTANTIATE_TEST_SUITE_P(Kernels, GemmInt8Test, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return name(info.param); });

} // namespace
