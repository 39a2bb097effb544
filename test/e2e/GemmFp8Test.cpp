//===- GemmFp8Test.cpp - kcc's FP8 GEMM on the emulator -------------------===//
//
// kernels/gemm/gemm_q8.mlir compiled in-process for gfx942 (e4m3fnuz) and
// gfx950 (e4m3fn), run on the emulator for each scale granularity (per
// tensor, per token / channel and mixed, 1x128 and 128x128 blocks) and compared
// element by element with a float64 reference computed from the decoded
// FP8 codes (Fp8Reference.h, written from the format specifications) and
// the scales: C = sum over k of (a * sa) (b * sb), the scales those of k's
// block.
//
// The block scales span 2^-8 .. 2^8 from block to block and row to row, so
// that a scale applied to the wrong block, or to the whole sum rather than
// each block's, is far outside the bound. The bound is derived from the
// arithmetic: FP8 products are exact in f32, a block's sum of up to 128 of
// them rounds at most 128 times (2^-24 relative each, against the sum of
// the magnitudes), the scaled fma once more, and the output conversion half
// an ulp of C's type.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "target/CodeObject.h"
#include "test/e2e/CompileForTest.h"
#include "test/e2e/EmulatedDevice.h"
#include "test/e2e/Fp8Reference.h"
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
using kcc::e2e::Fp8Spec;

struct Case {
  Chip chip;
  int M, N, K;
  int scale;  // A's: 0 per tensor, 1 per row, 2 blocks
  int bscale; // Bt's
  std::string out = "bf16";
  std::string bias; // "" none, else its dtype
  std::vector<std::string> extra;
};

std::string name(const Case &c) {
  std::string s = std::string(kcc::getChipInfo(c.chip).name) + "_" + std::to_string(c.M) +
                  "x" + std::to_string(c.N) + "x" + std::to_string(c.K) + "_scale" +
                  std::to_string(c.scale) + std::to_string(c.bscale) + "_" + c.out + (c.bias.empty() ? "" : "_bias" + c.bias);
  for (const std::string &e : c.extra)
    for (char ch : e)
      s += std::isalnum((unsigned char)ch) ? ch : '_';
  return s;
}

class GemmFp8Test : public ::testing::TestWithParam<Case> {};

std::string kernelSource() {
  auto buf = llvm::MemoryBuffer::getFile(KCC_GEMM_FP8_SOURCE);
  EXPECT_TRUE(bool(buf)) << "cannot read " << KCC_GEMM_FP8_SOURCE;
  return buf ? (*buf)->getBuffer().str() : std::string();
}

int param(const Case &c, const std::string &key, int dflt) {
  for (const std::string &e : c.extra)
    if (e.rfind(key + "=", 0) == 0)
      return std::stoi(e.substr(key.size() + 1));
  return dflt;
}

uint16_t encode16(const std::string &type, float x) {
  return type == "bf16" ? kcc::test::toBf16(x) : kcc::test::toF16(x);
}

TEST_P(GemmFp8Test, MatchesFloat64Reference) {
  const Case &c = GetParam();
  const Fp8Spec &f8 = c.chip == Chip::gfx950 ? kcc::e2e::kE4M3FN : kcc::e2e::kE4M3FNUZ;
  bool wide = c.chip == Chip::gfx950;
  std::vector<std::string> params = {std::string("DTYPE=") + f8.name, "OUT=" + c.out,
                                     "ASCALE=" + std::to_string(c.scale),
                                     "BSCALE=" + std::to_string(c.bscale),
                                     std::string("WIDE=") + (wide ? "1" : "0"),
                                     std::string("HAS_BIAS=") + (c.bias.empty() ? "0" : "1")};
  if (!c.bias.empty())
    params.push_back("BDTYPE=" + c.bias);
  params.insert(params.end(), c.extra.begin(), c.extra.end());
  auto hsaco = kcc::e2e::compileForTest(kernelSource(), "gemm_q8.mlir", c.chip, params);
  ASSERT_TRUE(bool(hsaco)) << llvm::toString(hsaco.takeError());

  // Codes: every finite code of magnitude up to 16 (NaN codes avoided), so
  // that products span the format's subnormals to its large values.
  std::mt19937 rng(c.M * 131 + c.N * 7 + c.K + c.scale * 3 + c.bscale);
  std::vector<uint8_t> finite;
  for (int code = 0; code < 256; ++code) {
    double v = kcc::e2e::fp8Decode(uint8_t(code), f8);
    if (!std::isnan(v) && std::fabs(v) <= 16)
      finite.push_back(uint8_t(code));
  }
  std::uniform_int_distribution<size_t> pick(0, finite.size() - 1);
  std::vector<uint8_t> a(size_t(c.M) * c.K), bt(size_t(c.N) * c.K);
  for (auto &v : a) v = finite[pick(rng)];
  for (auto &v : bt) v = finite[pick(rng)];
  int nk = (c.K + 127) / 128, nnb = (c.N + 127) / 128;
  size_t saN = c.scale == 0 ? 1 : c.scale == 1 ? size_t(c.M) : size_t(c.M) * nk;
  size_t sbN = c.bscale == 0 ? 1 : c.bscale == 1 ? size_t(c.N) : size_t(nnb) * nk;
  // f16 out: scales at most 1, so that C stays inside f16's range.
  std::uniform_int_distribution<int> exponent(-8, c.out == "f16" ? 0 : 8);
  std::uniform_real_distribution<float> mantissa(1.f, 2.f);
  std::vector<float> sa(saN), sb(sbN);
  for (auto &v : sa) v = std::ldexp(mantissa(rng), exponent(rng));
  for (auto &v : sb) v = std::ldexp(mantissa(rng), exponent(rng));
  auto saOf = [&](int m, int kb) {
    return c.scale == 0 ? sa[0] : c.scale == 1 ? sa[m] : sa[size_t(m) * nk + kb];
  };
  auto sbOf = [&](int n, int kb) {
    return c.bscale == 0 ? sb[0] : c.bscale == 1 ? sb[n] : sb[size_t(n / 128) * nk + kb];
  };
  std::normal_distribution<float> randn(0.f, 4.f);
  std::vector<float> biasF(c.N);
  for (auto &v : biasF) v = randn(rng);
  // The bias as the kernel reads it (BDTYPE), and its exact value.
  std::vector<uint8_t> biasBytes;
  std::vector<double> biasV(c.N, 0.0);
  if (!c.bias.empty()) {
    int bytes = c.bias == "f32" ? 4 : 2;
    biasBytes.resize(size_t(c.N) * bytes);
    for (int n = 0; n < c.N; ++n) {
      if (bytes == 4) {
        std::memcpy(&biasBytes[4 * n], &biasF[n], 4);
        biasV[n] = biasF[n];
      } else {
        uint16_t h = encode16(c.bias, biasF[n]);
        std::memcpy(&biasBytes[2 * n], &h, 2);
        biasV[n] = c.bias == "bf16" ? kcc::test::fromBf16(h) : kcc::test::fromF16(h);
      }
    }
  }

  auto dev = kcc::e2e::EmulatedDevice::open(c.chip);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  kcc::Device &d = **dev;
  int outBytes = c.out == "f32" ? 4 : 2;
  // SPLITK = S: S slices of f32 partials, C their sum (each K block in
  // exactly one share: a block counted twice or not at all shows).
  int splits = param(c, "SPLITK", 1);
  ASSERT_TRUE(splits == 1 || (c.out == "f32" && c.bias.empty())) << "split-K stores f32 partials";
  size_t cElems = size_t(c.M) * c.N * splits;
  auto alloc = [&](size_t bytes) {
    auto p = d.allocate(std::max<size_t>(bytes, 4));
    EXPECT_TRUE(bool(p));
    return p ? *p : 0;
  };
  uint64_t da = alloc(a.size()), db = alloc(bt.size()), dc = alloc(cElems * outBytes),
           dsa = alloc(sa.size() * 4), dsb = alloc(sb.size() * 4),
           dbias = alloc(std::max<size_t>(biasBytes.size(), 4));
  ASSERT_FALSE(bool(d.copyToDevice(da, a.data(), a.size())));
  ASSERT_FALSE(bool(d.copyToDevice(db, bt.data(), bt.size())));
  ASSERT_FALSE(bool(d.copyToDevice(dsa, sa.data(), sa.size() * 4)));
  ASSERT_FALSE(bool(d.copyToDevice(dsb, sb.data(), sb.size() * 4)));
  if (!biasBytes.empty())
    ASSERT_FALSE(bool(d.copyToDevice(dbias, biasBytes.data(), biasBytes.size())));
  // C starts as NaN so that an element the kernel fails to write shows.
  ASSERT_FALSE(bool(d.memset(dc, 0xff, cElems * outBytes)));
  auto co = kcc::CodeObject::parse(*hsaco);
  ASSERT_TRUE(bool(co)) << llvm::toString(co.takeError());
  const kcc::KernelInfo *info = co->findKernel("gemm_q8");
  ASSERT_NE(info, nullptr);
  // Arguments: a, bt, c, sa, sb, bias, M, N, K, lda, ldb, ldc.
  std::vector<uint8_t> args(info->explicitArgsSize(), 0);
  std::vector<const kcc::KernelArg *> slots = info->explicitArgs();
  ASSERT_EQ(slots.size(), 12u);
  uint64_t ptrs[6] = {da, db, dc, dsa, dsb, dbias};
  for (int i = 0; i < 6; ++i) {
    ASSERT_EQ(slots[i]->size, 8u);
    std::memcpy(&args[slots[i]->offset], &ptrs[i], 8);
  }
  int32_t ints[6] = {c.M, c.N, c.K, c.K, c.K, c.N};
  for (int i = 0; i < 6; ++i) {
    ASSERT_EQ(slots[6 + i]->size, 4u);
    std::memcpy(&args[slots[6 + i]->offset], &ints[i], 4);
  }
  int wm = param(c, "WM", 64), wn = param(c, "WN", 64), wgm = param(c, "WGM", 2),
      wgn = param(c, "WGN", 2);
  kcc::LaunchConfig launch;
  launch.grid = {uint32_t((c.M + wgm * wm - 1) / (wgm * wm)),
                 uint32_t((c.N + wgn * wn - 1) / (wgn * wn)), uint32_t(splits)};
  launch.block = {uint32_t(64 * wgm * wgn), 1, 1};
  auto stats = dev->launch(*hsaco, "gemm_q8", launch, args);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());

  std::vector<uint8_t> out(cElems * outBytes);
  ASSERT_FALSE(bool(d.copyFromDevice(out.data(), dc, out.size())));
  std::vector<double> av(a.size()), bv(bt.size());
  for (size_t i = 0; i < a.size(); ++i) av[i] = kcc::e2e::fp8Decode(a[i], f8);
  for (size_t i = 0; i < bt.size(); ++i) bv[i] = kcc::e2e::fp8Decode(bt[i], f8);
  int bad = 0;
  double worst = 0;
  for (int m = 0; m < c.M; ++m)
    for (int n = 0; n < c.N; ++n) {
      double ref = biasV[n], mag = std::fabs(biasV[n]);
      for (int kb = 0; kb < nk; ++kb) {
        double blk = 0, blkMag = 0;
        for (int k = kb * 128; k < std::min(c.K, kb * 128 + 128); ++k) {
          double p = av[size_t(m) * c.K + k] * bv[size_t(n) * c.K + k];
          blk += p;
          blkMag += std::fabs(p);
        }
        double s = double(saOf(m, kb)) * double(sbOf(n, kb));
        ref += blk * s;
        mag += blkMag * std::fabs(s);
      }
      size_t i = size_t(m) * c.N + n;
      double got;
      if (c.out == "f32") {
        got = 0;
        for (int z = 0; z < splits; ++z) {
          float v;
          std::memcpy(&v, &out[4 * (i + size_t(z) * c.M * c.N)], 4);
          got += v;
        }
      } else {
        uint16_t h;
        std::memcpy(&h, &out[2 * i], 2);
        got = c.out == "bf16" ? kcc::test::fromBf16(h) : kcc::test::fromF16(h);
      }
      // f32 sums within and across blocks (K / 128 + 128 roundings at most,
      // each 2^-24 of the magnitudes), the scale's product and fma, then C's
      // rounding (half an ulp: 2^-8 of bf16, 2^-11 of f16).
      double sumTol = (128.0 + nk + 4) * 0x1p-24 * mag;
      double outTol = c.out == "bf16" ? 0x1p-8 : c.out == "f16" ? 0x1p-11 : 0.0;
      double tol = sumTol + outTol * std::fabs(ref) + 1e-30;
      double err = std::fabs(got - ref);
      if (!(err <= tol)) {
        if (++bad <= 5)
          ADD_FAILURE() << "C[" << m << "][" << n << "] = " << got << ", reference " << ref
                        << " (tolerance " << tol << ")";
      } else {
        worst = std::max(worst, err / (tol > 0 ? tol : 1));
      }
    }
  EXPECT_EQ(bad, 0) << bad << " of " << cElems << " elements wrong";
  RecordProperty("worst_error_over_tolerance", std::to_string(worst));
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    for (int scale : {0, 1, 2}) {
      all.push_back({chip, 128, 128, 128, scale, scale});      // one block of C, one of K
      all.push_back({chip, 256, 256, 384, scale, scale, "f32"}); // odd K-block count
      all.push_back({chip, 100, 200, 272, scale, scale});      // tails in M, N, K
    }
    // Block scales: a partial 128-row block of Bt's scales, bias of each
    // dtype, f16 out, and one row (decode) with a row of four 32x32 waves.
    all.push_back({chip, 130, 300, 400, 2, 2, "f16", "f32"});
    all.push_back({chip, 64, 136, 256, 2, 2, "bf16", "bf16"});
    all.push_back({chip, 1, 200, 528, 2, 2, "bf16", "", {"WM=32", "WN=32", "WGM=1", "WGN=4"}});
    all.push_back({chip, 40, 260, 384, 1, 1, "f32", "f16", {"WM=32", "WN=32", "WGM=1", "WGN=4"}});
    all.push_back({chip, 1, 1, 16, 0, 0, "f32"});
    // Per-token activations with a per-tensor weight scale, and the other
    // way round.
    all.push_back({chip, 96, 160, 256, 1, 0, "bf16"});
    all.push_back({chip, 70, 130, 144, 0, 1, "f32", "bf16"});
  }
  // K that only the 4-byte DMA reads (gfx942; gfx950 without WIDE is the
  // op's packing's business).
  all.push_back({Chip::gfx942, 70, 90, 52, 2, 2});
  // Split K (decode): shares of 3 of 10 blocks, the last short (1 block,
  // partial); 5 splits of 1 of 3 blocks, the last two shares empty (they
  // store zeros); per-row and per-tensor scales on the partials. (K a
  // multiple of 16: gfx950's 16-byte DMA reads it in place.)
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    all.push_back({chip, 16, 200, 1200, 2, 2, "f32", "", {"WM=32", "WN=32", "WGM=1", "WGN=4", "SPLITK=4"}});
    all.push_back({chip, 5, 130, 304, 2, 2, "f32", "", {"WM=32", "WN=32", "WGM=1", "WGN=4", "SPLITK=5"}});
    all.push_back({chip, 33, 70, 528, 1, 0, "f32", "", {"WM=32", "WN=32", "WGM=1", "WGN=4", "SPLITK=2"}});
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Kernels, GemmFp8Test, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return name(info.param); });

} // namespace
