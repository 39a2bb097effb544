//===- Fp8MmaTest.cpp - FP8 matrix products through tile.mma -------------===//
//
// The kernels of fp8_mma.mlir (one per MFMA shape: the chip's widest 32x32
// and 16x16 FP8 MFMAs, and 32x32x16 by name) compiled by kcc for both chips
// with each pairing of the chip's two FP8 formats in A and B, and run on
// the emulator against a float64 reference of the dequantised inputs:
//   gfx942: v_mfma_f32_32x32x16_{fp8,bf8}_{fp8,bf8} and 16x16x32 (FNUZ);
//   gfx950: v_mfma_f32_32x32x64_f8f6f4 and 16x16x128 (format selectors in
//   cbsz/blgp), and the 32x32x16 forms (OCP).
// Each runs a whole block (K = KT), a block with tails (M, N below the tile,
// K = 100 < KT = 128: the bounded loads and DMA must fill zeros), and K = 256
// (several MFMAs chained along K). The inputs are randn-like values rounded
// to the format by Fp8Reference.h; the products of FP8 values are exact in
// f32, so the only error is the f32 accumulation's: at most about K ulps of
// the sum of |a * b|.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "target/ParamBinding.h"
#include "target/CodeObject.h"
#include "test/e2e/CompileForTest.h"
#include "test/e2e/EmulatedDevice.h"
#include "test/e2e/Fp8Reference.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace kcc;
using kcc::e2e::Fp8Spec;

namespace {

std::string kernelSource() {
  auto buffer = llvm::MemoryBuffer::getFile(KCC_FP8_MMA_SOURCE);
  if (!buffer)
    return "";
  return (*buffer)->getBuffer().str();
}

struct Case {
  Chip chip;
  Fp8Spec a, b;
  int kt; // the tile's K
};

struct Size {
  int m, n, k;
};

/// gtest names a failing case by this, not by its bytes.
void PrintTo(const Case &c, std::ostream *os) {
  *os << getChipInfo(c.chip).name.str() << " A " << c.a.name << " B " << c.b.name
      << " KT=" << c.kt;
}

class Fp8MmaTest : public ::testing::TestWithParam<Case> {};

/// fp8_mma.mlir compiled for the case (a fatal failure when it is not).
void compile(const Case &c, std::vector<uint8_t> &hsaco) {
  std::string source = kernelSource();
  ASSERT_FALSE(source.empty()) << "cannot read " << KCC_FP8_MMA_SOURCE;
  auto out = kcc::e2e::compileForTest(source, "fp8_mma.mlir", c.chip,
                                      {std::string("AT=") + c.a.name,
                                       std::string("BT=") + c.b.name,
                                       "KT=" + std::to_string(c.kt)});
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  hsaco = std::move(*out);
}

/// The kernel arguments of `kernel`: pointers, then 32-bit integers, each
/// at the offset the metadata gives it.
void kernelArgs(const kcc::CodeObject &co, const char *kernel,
                std::vector<uint64_t> ptrs, std::vector<int32_t> ints,
                std::vector<uint8_t> &args) {
  const kcc::KernelInfo *info = co.findKernel(kernel);
  ASSERT_NE(info, nullptr);
  std::vector<const kcc::KernelArg *> slots = info->explicitArgs();
  ASSERT_EQ(slots.size(), ptrs.size() + ints.size());
  args.assign(info->explicitArgsSize(), 0);
  for (size_t i = 0; i < ptrs.size(); ++i)
    std::memcpy(&args[slots[i]->offset], &ptrs[i], 8);
  for (size_t i = 0; i < ints.size(); ++i)
    std::memcpy(&args[slots[ptrs.size() + i]->offset], &ints[i], 4);
}

TEST_P(Fp8MmaTest, MatchesFloat64Reference) {
  const Case &c = GetParam();
  std::vector<uint8_t> hsaco;
  ASSERT_NO_FATAL_FAILURE(compile(c, hsaco));
  auto co = kcc::CodeObject::parse(hsaco);
  ASSERT_TRUE(bool(co)) << llvm::toString(co.takeError());

  auto dev = kcc::e2e::EmulatedDevice::open(c.chip);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  kcc::Device &d = **dev;

  for (auto [kernel, tile] : {std::pair{"mma32", 32}, {"mma16", 16}, {"mma32x16", 32}}) {
    std::vector<Size> sizes = {{tile, tile, c.kt}};
    if (c.kt == 128)
      sizes.push_back({tile - 2, tile - 3, 100});
    for (Size s : sizes) {
      SCOPED_TRACE(std::string(kernel) + " M=" + std::to_string(s.m) + " N=" +
                   std::to_string(s.n) + " K=" + std::to_string(s.k));
      std::mt19937 rng(s.m * 1000 + s.n * 10 + s.k);
      std::normal_distribution<double> randn(0.0, 1.0);
      std::vector<uint8_t> a(size_t(s.m) * s.k), bt(size_t(s.n) * s.k);
      for (auto &v : a)
        v = uint8_t(kcc::e2e::fp8EncodeSaturating(2 * randn(rng), c.a));
      for (auto &v : bt)
        v = uint8_t(kcc::e2e::fp8EncodeSaturating(2 * randn(rng), c.b));
      size_t cBytes = size_t(s.m) * s.n * 4;
      uint64_t da = llvm::cantFail(d.allocate(a.size())),
               db = llvm::cantFail(d.allocate(bt.size())),
               dc = llvm::cantFail(d.allocate(cBytes));
      ASSERT_FALSE(bool(d.copyToDevice(da, a.data(), a.size())));
      ASSERT_FALSE(bool(d.copyToDevice(db, bt.data(), bt.size())));
      // C starts as NaN, so that an element the kernel fails to write shows.
      ASSERT_FALSE(bool(d.memset(dc, 0xff, cBytes)));

      std::vector<uint8_t> args;
      ASSERT_NO_FATAL_FAILURE(kernelArgs(*co, kernel, {da, db, dc}, {s.m, s.n, s.k}, args));
      kcc::LaunchConfig launch;
      launch.grid = {1, 1, 1};
      launch.block = {64, 1, 1};
      auto stats = dev->launch(hsaco, kernel, launch, args);
      ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
      std::vector<float> out(size_t(s.m) * s.n);
      ASSERT_FALSE(bool(d.copyFromDevice(out.data(), dc, cBytes)));

      int bad = 0;
      double worst = 0;
      for (int i = 0; i < s.m; ++i)
        for (int j = 0; j < s.n; ++j) {
          double sum = 0, mag = 0;
          for (int k = 0; k < s.k; ++k) {
            double p = kcc::e2e::fp8Decode(a[size_t(i) * s.k + k], c.a) *
                       kcc::e2e::fp8Decode(bt[size_t(j) * s.k + k], c.b);
            sum += p;
            mag += std::fabs(p);
          }
          double got = out[size_t(i) * s.n + j];
          double tol = (s.k + 2) * std::ldexp(mag, -24) + 1e-30;
          double err = std::fabs(got - sum);
          worst = std::max(worst, err / tol);
          if (!(err <= tol) && ++bad <= 8)
            ADD_FAILURE() << "C[" << i << "][" << j << "] = " << got << ", expected "
                          << sum << " (tolerance " << tol << ")";
        }
      EXPECT_EQ(bad, 0) << "worst error / tolerance " << worst;
    }
  }
}

// @chain: S = A * Bt^T, P = FP8(S) in A's format, O = V * P with P fed from
// the accumulator by relayout (k_from_acc). A and Bt hold small integers,
// so S is exact in f32 and P is exactly the reference's rounding of S
// (saturated where |S| passes the format's largest value); O is then
// checked like the products above.
TEST_P(Fp8MmaTest, ChainsThroughAnFp8Accumulator) {
  const Case &c = GetParam();
  std::vector<uint8_t> hsaco;
  ASSERT_NO_FATAL_FAILURE(compile(c, hsaco));
  auto co = kcc::CodeObject::parse(hsaco);
  ASSERT_TRUE(bool(co)) << llvm::toString(co.takeError());
  auto dev = kcc::e2e::EmulatedDevice::open(c.chip);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  kcc::Device &d = **dev;

  const int n = 32, k = c.kt;
  std::mt19937 rng(k + 5);
  std::uniform_int_distribution<int> small(-4, 4);
  std::normal_distribution<double> randn(0.0, 1.0);
  std::vector<uint8_t> a(size_t(n) * k), bt(size_t(n) * k), v(size_t(n) * n);
  for (auto &x : a)
    x = uint8_t(kcc::e2e::fp8EncodeSaturating(small(rng), c.a));
  for (auto &x : bt)
    x = uint8_t(kcc::e2e::fp8EncodeSaturating(small(rng), c.b));
  for (auto &x : v)
    x = uint8_t(kcc::e2e::fp8EncodeSaturating(randn(rng), c.a));
  uint64_t da = llvm::cantFail(d.allocate(a.size())), db = llvm::cantFail(d.allocate(bt.size())),
           dv = llvm::cantFail(d.allocate(v.size())), dout = llvm::cantFail(d.allocate(n * n * 4));
  ASSERT_FALSE(bool(d.copyToDevice(da, a.data(), a.size())));
  ASSERT_FALSE(bool(d.copyToDevice(db, bt.data(), bt.size())));
  ASSERT_FALSE(bool(d.copyToDevice(dv, v.data(), v.size())));
  ASSERT_FALSE(bool(d.memset(dout, 0xff, n * n * 4)));
  std::vector<uint8_t> args;
  ASSERT_NO_FATAL_FAILURE(kernelArgs(*co, "chain", {da, db, dv, dout}, {k}, args));
  kcc::LaunchConfig launch;
  launch.grid = {1, 1, 1};
  launch.block = {64, 1, 1};
  auto stats = dev->launch(hsaco, "chain", launch, args);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  std::vector<float> out(n * n);
  ASSERT_FALSE(bool(d.copyFromDevice(out.data(), dout, n * n * 4)));

  // P[i][j] = FP8(S[i][j]), S exact; O[m][j] = sum_i V[m][i] * P[i][j].
  std::vector<double> p(n * n);
  int saturated = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int x = 0; x < k; ++x)
        sum += kcc::e2e::fp8Decode(a[size_t(i) * k + x], c.a) *
               kcc::e2e::fp8Decode(bt[size_t(j) * k + x], c.b);
      uint8_t code = uint8_t(kcc::e2e::fp8EncodeSaturating(sum, c.a));
      p[i * n + j] = kcc::e2e::fp8Decode(code, c.a);
      saturated += std::fabs(sum) > std::fabs(p[i * n + j]) * 1.5;
    }
  int bad = 0;
  for (int m = 0; m < n; ++m)
    for (int j = 0; j < n; ++j) {
      double sum = 0, mag = 0;
      for (int i = 0; i < n; ++i) {
        double t = kcc::e2e::fp8Decode(v[m * n + i], c.a) * p[i * n + j];
        sum += t;
        mag += std::fabs(t);
      }
      double got = out[m * n + j], tol = (n + 2) * std::ldexp(mag, -24) + 1e-30;
      if (!(std::fabs(got - sum) <= tol) && ++bad <= 8)
        ADD_FAILURE() << "O[" << m << "][" << j << "] = " << got << ", expected " << sum
                      << " (tolerance " << tol << ")";
    }
  EXPECT_EQ(bad, 0) << saturated << " elements of P saturated";
}

// gfx950's transposing reads (fp8_mma_tr.mlir): A given as A^T [K, 32] and
// B as [K, 32], so both operands are gathered from LDS columns by
// ds_read_b64_tr_b8, in plain and swizzled LDS rows filled by 4- and
// 16-byte DMA, for the f8f6f4 32x32x64 and the 32x32x16 MFMA, with three
// pairings of the OCP formats;
// and attention's V^T * P, V^T read that way in the accumulator's K order.
TEST(Fp8TransposingRead, Gfx950MatchesFloat64Reference) {
  auto buffer = llvm::MemoryBuffer::getFile(KCC_FP8_MMA_TR_SOURCE);
  ASSERT_TRUE(bool(buffer)) << "cannot read " << KCC_FP8_MMA_TR_SOURCE;
  std::string source = (*buffer)->getBuffer().str();
  auto dev = kcc::e2e::EmulatedDevice::open(Chip::gfx950);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  kcc::Device &d = **dev;
  const int n = 32, k = 128;
  for (auto [fa, fb] : {std::pair{kcc::e2e::kE4M3FN, kcc::e2e::kE4M3FN},
                        {kcc::e2e::kE4M3FN, kcc::e2e::kE5M2},
                        {kcc::e2e::kE5M2, kcc::e2e::kE4M3FN}})
    for (int swizzle : {0, 2}) {
      SCOPED_TRACE(std::string(fa.name) + " x " + fb.name + " swizzle " +
                   std::to_string(swizzle));
      auto hsaco = kcc::e2e::compileForTest(
          source, "fp8_mma_tr.mlir", Chip::gfx950,
          {std::string("AT=") + fa.name, std::string("BT=") + fb.name,
           "KT=" + std::to_string(k), "SWZ=" + std::to_string(swizzle)});
      ASSERT_TRUE(bool(hsaco)) << llvm::toString(hsaco.takeError());
      auto co = kcc::CodeObject::parse(*hsaco);
      ASSERT_TRUE(bool(co)) << llvm::toString(co.takeError());

      std::mt19937 rng(swizzle * 7 + fa.expBits * 3 + fb.expBits);
      std::normal_distribution<double> randn(0.0, 1.0);
      // at[kk][i] = A[i][kk], b[kk][j] = B[kk][j].
      std::vector<uint8_t> at(size_t(k) * n), b(size_t(k) * n);
      for (auto &x : at)
        x = uint8_t(kcc::e2e::fp8EncodeSaturating(2 * randn(rng), fa));
      for (auto &x : b)
        x = uint8_t(kcc::e2e::fp8EncodeSaturating(2 * randn(rng), fb));
      uint64_t da = llvm::cantFail(d.allocate(at.size())), db = llvm::cantFail(d.allocate(b.size())),
               dc = llvm::cantFail(d.allocate(n * n * 4));
      ASSERT_FALSE(bool(d.copyToDevice(da, at.data(), at.size())));
      ASSERT_FALSE(bool(d.copyToDevice(db, b.data(), b.size())));
      for (const char *kernel : {"kn", "kn_wide", "kn16"}) {
        SCOPED_TRACE(kernel);
        ASSERT_FALSE(bool(d.memset(dc, 0xff, n * n * 4)));
        std::vector<uint8_t> args;
        ASSERT_NO_FATAL_FAILURE(kernelArgs(*co, kernel, {da, db, dc}, {}, args));
        kcc::LaunchConfig launch;
        launch.grid = {1, 1, 1};
        launch.block = {64, 1, 1};
        auto stats = dev->launch(*hsaco, kernel, launch, args);
        ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
        std::vector<float> out(n * n);
        ASSERT_FALSE(bool(d.copyFromDevice(out.data(), dc, n * n * 4)));
        int bad = 0;
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j) {
            double sum = 0, mag = 0;
            for (int kk = 0; kk < k; ++kk) {
              double p = kcc::e2e::fp8Decode(at[size_t(kk) * n + i], fa) *
                         kcc::e2e::fp8Decode(b[size_t(kk) * n + j], fb);
              sum += p;
              mag += std::fabs(p);
            }
            double got = out[i * n + j], tol = (k + 2) * std::ldexp(mag, -24) + 1e-30;
            if (!(std::fabs(got - sum) <= tol) && ++bad <= 8)
              ADD_FAILURE() << "C[" << i << "][" << j << "] = " << got << ", expected "
                            << sum << " (tolerance " << tol << ")";
          }
        EXPECT_EQ(bad, 0);
      }

      // chain_tr (32 keys, 32x32x16) and chain_tr64 (64 keys, 32x32x64):
      // S = A * Bt^T [keys, 32] from small integers (exact in f32), P =
      // FP8(S) by relayout, O = V^T * P with V^T gathered by transposing
      // reads in the accumulator's K order.
      for (auto [kernel, keys] : {std::pair{"chain_tr", 32}, {"chain_tr64", 64}}) {
        SCOPED_TRACE(kernel);
        std::uniform_int_distribution<int> small(-4, 4);
        std::vector<uint8_t> a(size_t(keys) * k), bt(size_t(n) * k), v(size_t(keys) * n);
        for (auto &x : a)
          x = uint8_t(kcc::e2e::fp8EncodeSaturating(small(rng), fa));
        for (auto &x : bt)
          x = uint8_t(kcc::e2e::fp8EncodeSaturating(small(rng), fb));
        for (auto &x : v)
          x = uint8_t(kcc::e2e::fp8EncodeSaturating(randn(rng), fa));
        uint64_t dca = llvm::cantFail(d.allocate(a.size())), dcb = llvm::cantFail(d.allocate(bt.size())),
                 dv = llvm::cantFail(d.allocate(v.size()));
        ASSERT_FALSE(bool(d.copyToDevice(dca, a.data(), a.size())));
        ASSERT_FALSE(bool(d.copyToDevice(dcb, bt.data(), bt.size())));
        ASSERT_FALSE(bool(d.copyToDevice(dv, v.data(), v.size())));
        ASSERT_FALSE(bool(d.memset(dc, 0xff, n * n * 4)));
        std::vector<uint8_t> args;
        ASSERT_NO_FATAL_FAILURE(kernelArgs(*co, kernel, {dca, dcb, dv, dc}, {}, args));
        kcc::LaunchConfig launch;
        launch.grid = {1, 1, 1};
        launch.block = {64, 1, 1};
        auto stats = dev->launch(*hsaco, kernel, launch, args);
        ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
        std::vector<float> out(n * n);
        ASSERT_FALSE(bool(d.copyFromDevice(out.data(), dc, n * n * 4)));
        std::vector<double> p(size_t(keys) * n); // p[key][j] = FP8(S[key][j])
        for (int i = 0; i < keys; ++i)
          for (int j = 0; j < n; ++j) {
            double sum = 0;
            for (int kk = 0; kk < k; ++kk)
              sum += kcc::e2e::fp8Decode(a[size_t(i) * k + kk], fa) *
                     kcc::e2e::fp8Decode(bt[size_t(j) * k + kk], fb);
            p[i * n + j] =
                kcc::e2e::fp8Decode(uint8_t(kcc::e2e::fp8EncodeSaturating(sum, fa)), fa);
          }
        int bad = 0;
        for (int dd = 0; dd < n; ++dd)
          for (int j = 0; j < n; ++j) {
            double sum = 0, mag = 0;
            for (int key = 0; key < keys; ++key) {
              double t = kcc::e2e::fp8Decode(v[key * n + dd], fa) * p[key * n + j];
              sum += t;
              mag += std::fabs(t);
            }
            double got = out[dd * n + j], tol = (keys + 2) * std::ldexp(mag, -24) + 1e-30;
            if (!(std::fabs(got - sum) <= tol) && ++bad <= 8)
              ADD_FAILURE() << "O[" << dd << "][" << j << "] = " << got << ", expected "
                            << sum << " (tolerance " << tol << ")";
          }
        EXPECT_EQ(bad, 0);
      }
    }
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (auto [chip, e4m3, e5m2] :
       {std::tuple{Chip::gfx942, kcc::e2e::kE4M3FNUZ, kcc::e2e::kE5M2FNUZ},
        std::tuple{Chip::gfx950, kcc::e2e::kE4M3FN, kcc::e2e::kE5M2}})
    for (auto [a, b] : {std::pair{e4m3, e4m3}, {e4m3, e5m2}, {e5m2, e4m3}, {e5m2, e5m2}})
      for (int kt : {128, 256})
        out.push_back({chip, a, b, kt});
  return out;
}

INSTANTIATE_TEST_SUITE_P(
    Formats, Fp8MmaTest, ::testing::ValuesIn(cases()), [](const auto &info) {
      const Case &c = info.param;
      return std::string(getChipInfo(c.chip).name) + "_" + c.a.name + "_" + c.b.name +
             "_K" + std::to_string(c.kt);
    });

} // namespace
