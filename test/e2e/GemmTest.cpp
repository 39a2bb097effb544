//===- GemmTest.cpp - kcc's GEMM, compiled and run on the emulator --------===//
//
// The end-to-end check of the compile flow: kernels/gemm/gemm.mlir is
// compiled in-process for gfx942 and gfx950 with several parameter sets, the
// code object runs on the emulator, and every element of C is compared with
// a float64 reference computed from the same bf16/f16 inputs. Shapes include
// tails in M, N and K, so masked DMA, masked stores and the bias path run.
// With SPLITK = S the kernel stores S f32 partial sums, slice z the
// products over its share of the K blocks (z ceil(nk / S).., short or
// empty at the end): each slice is compared with the reference of its
// share, so that a block counted twice or not at all shows.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "target/CodeObject.h"
#include "test/e2e/CompileForTest.h"
#include "test/e2e/EmulatedDevice.h"
#include "test/e2e/HalfFloat.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using kcc::Chip;

using kcc::test::fromBf16;
using kcc::test::fromF16;
using kcc::test::toBf16;
using kcc::test::toF16;

struct Case {
  Chip chip;
  int M, N, K;
  std::string dtype = "bf16", out = "f32";
  bool bias = false;
  std::vector<std::string> extra; // more -D values
};

std::string name(const Case &c) {
  std::string s = std::string(kcc::getChipInfo(c.chip).name) + "_" +
                  std::to_string(c.M) + "x" + std::to_string(c.N) + "x" +
                  std::to_string(c.K) + "_" + c.dtype + "_to_" + c.out +
                  (c.bias ? "_bias" : "");
  for (const std::string &e : c.extra)
    for (char ch : e)
      s += std::isalnum((unsigned char)ch) ? ch : '_';
  return s;
}

class GemmTest : public ::testing::TestWithParam<Case> {};

std::string kernelSource() {
  auto buf = llvm::MemoryBuffer::getFile(KCC_GEMM_SOURCE);
  EXPECT_TRUE(bool(buf)) << "cannot read " << KCC_GEMM_SOURCE;
  return buf ? (*buf)->getBuffer().str() : std::string();
}

TEST_P(GemmTest, MatchesFloat64Reference) {
  const Case &c = GetParam();
  std::vector<std::string> params = {"DTYPE=" + c.dtype, "OUT=" + c.out,
                                     std::string("HAS_BIAS=") + (c.bias ? "1" : "0")};
  params.insert(params.end(), c.extra.begin(), c.extra.end());
  auto hsaco = kcc::e2e::compileForTest(kernelSource(), "gemm.mlir", c.chip, params);
  ASSERT_TRUE(bool(hsaco)) << llvm::toString(hsaco.takeError());

  // Inputs: randn-like values, rounded to the input type.
  bool bf = c.dtype == "bf16";
  std::mt19937 rng(c.M * 131 + c.N * 7 + c.K);
  std::normal_distribution<float> randn(0.f, 1.f);
  auto quantise = [&](float x) { return bf ? toBf16(x) : toF16(x); };
  auto dequantise = [&](uint16_t h) { return bf ? fromBf16(h) : fromF16(h); };
  std::vector<uint16_t> a(size_t(c.M) * c.K), bt(size_t(c.N) * c.K), bias(c.N);
  for (auto &v : a) v = quantise(randn(rng));
  for (auto &v : bt) v = quantise(randn(rng));
  for (auto &v : bias) v = quantise(randn(rng));

  auto dev = kcc::e2e::EmulatedDevice::open(c.chip);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  kcc::Device &d = **dev;
  int outBytes = c.out == "f32" ? 4 : 2;
  // The split of K: S slices of C, slice z summing K columns
  // kLo[z] .. kHi[z] (whole BK blocks, ceil(nk / S) of them per slice).
  int splits = 1, bk = 32;
  for (const std::string &e : c.extra) {
    if (e.rfind("SPLITK=", 0) == 0) splits = std::stoi(e.substr(7));
    if (e.rfind("BK=", 0) == 0) bk = std::stoi(e.substr(3));
  }
  int nk = (c.K + bk - 1) / bk, per = (nk + splits - 1) / splits;
  std::vector<int> kLo(splits), kHi(splits);
  for (int z = 0; z < splits; ++z) {
    kLo[z] = std::min(c.K, z * per * bk);
    kHi[z] = std::min(c.K, (z + 1) * per * bk);
  }
  ASSERT_TRUE(splits == 1 || (c.out == "f32" && !c.bias)) << "split-K stores f32 partials";
  size_t cElems = size_t(splits) * c.M * c.N;
  auto alloc = [&](size_t bytes) {
    auto p = d.allocate(std::max<size_t>(bytes, 4));
    EXPECT_TRUE(bool(p));
    return p ? *p : 0;
  };
  uint64_t da = alloc(a.size() * 2), db = alloc(bt.size() * 2),
           dc = alloc(cElems * outBytes), dbias = alloc(bias.size() * 2);
  ASSERT_FALSE(bool(d.copyToDevice(da, a.data(), a.size() * 2)));
  ASSERT_FALSE(bool(d.copyToDevice(db, bt.data(), bt.size() * 2)));
  ASSERT_FALSE(bool(d.copyToDevice(dbias, bias.data(), bias.size() * 2)));
  // C starts as NaN so that an element the kernel fails to write shows.
  ASSERT_FALSE(bool(d.memset(dc, 0xff, cElems * outBytes)));
  auto co = kcc::CodeObject::parse(*hsaco);
  ASSERT_TRUE(bool(co)) << llvm::toString(co.takeError());
  const kcc::KernelInfo *info = co->findKernel("gemm");
  ASSERT_NE(info, nullptr);
  // Kernel arguments: a, bt, c, bias, M, N, K, lda, ldb, ldc.
  std::vector<uint8_t> args(info->explicitArgsSize(), 0);
  std::vector<const kcc::KernelArg *> slots = info->explicitArgs();
  ASSERT_EQ(slots.size(), 10u);
  uint64_t ptrs[4] = {da, db, dc, dbias};
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(slots[i]->size, 8u);
    std::memcpy(&args[slots[i]->offset], &ptrs[i], 8);
  }
  int32_t ints[6] = {c.M, c.N, c.K, c.K, c.K, c.N};
  for (int i = 0; i < 6; ++i) {
    ASSERT_EQ(slots[4 + i]->size, 4u);
    std::memcpy(&args[slots[4 + i]->offset], &ints[i], 4);
  }
  // The workgroup's block of C is (WGM WM) x (WGN WN), its waves WGM WGN.
  int wm = 64, wn = 64, wgm = 2, wgn = 2;
  for (const std::string &e : c.extra) {
    if (e.rfind("WM=", 0) == 0) wm = std::stoi(e.substr(3));
    if (e.rfind("WN=", 0) == 0) wn = std::stoi(e.substr(3));
    if (e.rfind("WGM=", 0) == 0) wgm = std::stoi(e.substr(4));
    if (e.rfind("WGN=", 0) == 0) wgn = std::stoi(e.substr(4));
  }
  kcc::LaunchConfig launch;
  launch.grid = {uint32_t((c.M + wgm * wm - 1) / (wgm * wm)),
                 uint32_t((c.N + wgn * wn - 1) / (wgn * wn)), uint32_t(splits)};
  launch.block = {uint32_t(64 * wgm * wgn), 1, 1};
  auto stats = dev->launch(*hsaco, "gemm", launch, args);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());

  std::vector<uint8_t> out(cElems * outBytes);
  ASSERT_FALSE(bool(d.copyFromDevice(out.data(), dc, out.size())));
  int bad = 0;
  double worst = 0;
  for (int z = 0; z < splits; ++z)
  for (int m = 0; m < c.M; ++m)
    for (int n = 0; n < c.N; ++n) {
      double ref = c.bias ? dequantise(bias[n]) : 0.0;
      for (int k = kLo[z]; k < kHi[z]; ++k)
        ref += double(dequantise(a[size_t(m) * c.K + k])) *
               double(dequantise(bt[size_t(n) * c.K + k]));
      size_t i = (size_t(z) * c.M + m) * c.N + n;
      double got;
      double tol;
      if (c.out == "f32") {
        float f;
        std::memcpy(&f, &out[4 * i], 4);
        got = f;
        // f32 accumulation of K products of order 1.
        tol = 1e-5 * std::sqrt(double(c.K)) * (1 + std::fabs(ref));
      } else {
        uint16_t h;
        std::memcpy(&h, &out[2 * i], 2);
        got = c.out == "bf16" ? fromBf16(h) : fromF16(h);
        // One rounding to the output type: half an ulp.
        tol = std::fabs(ref) * (c.out == "bf16" ? 0x1p-8 : 0x1p-11) + 1e-4;
      }
      double err = std::fabs(got - ref);
      if (!(err <= tol)) {
        if (++bad <= 5)
          ADD_FAILURE() << "C[" << z << "][" << m << "][" << n << "] = " << got
                        << ", reference " << ref << " (tolerance " << tol << ")";
      } else {
        worst = std::max(worst, err);
      }
    }
  EXPECT_EQ(bad, 0) << bad << " of " << cElems << " elements wrong";
  RecordProperty("max_abs_error", std::to_string(worst));
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    all.push_back({chip, 128, 128, 64});                  // one whole block
    all.push_back({chip, 256, 256, 160});                 // 4 blocks, odd K-block count
    all.push_back({chip, 100, 70, 52});                   // tails in M, N, K
    all.push_back({chip, 1, 1, 2});                       // smallest
    all.push_back({chip, 130, 260, 34, "f16", "f32"});    // f16 in
    all.push_back({chip, 96, 64, 96, "bf16", "bf16", true});
    all.push_back({chip, 64, 200, 40, "f16", "f16", true});
    all.push_back({chip, 192, 96, 128, "bf16", "f32", false, {"WM=32", "WN=32"}});
    all.push_back({chip, 160, 160, 256, "bf16", "f32", false, {"BK=64"}});
  }
  // gfx950 with 256-byte LDS rows padded by 8 (BK=128; ops::gemm's choice
  // before the swizzle), interior blocks copied without bounds, edge blocks
  // with them.
  all.push_back({Chip::gfx950, 256, 256, 384, "bf16", "f32", false, {"BK=128", "PAD=8"}});
  all.push_back({Chip::gfx950, 200, 136, 200, "f16", "bf16", true, {"BK=128", "PAD=8"}});
  all.push_back({Chip::gfx950, 130, 300, 130, "bf16", "f32", false, {"BK=128", "PAD=8"}});
  // gfx950 16-byte DMA into swizzled rows (1 KiB lines cannot be padded):
  // tails in M, N and K (K a multiple of 8); rows of 8 chunks; 512-byte rows
  // whose lines alternate between two swizzle phases; and the swizzle under
  // 4-byte DMA, where K is not a multiple of 8, both in the per-lane path
  // (rows of whole lines) and the per-line division path (lines of half a
  // row).
  all.push_back({Chip::gfx950, 256, 256, 384, "bf16", "f32", false, {"BK=128", "SWZ=16", "WIDE=1"}});
  all.push_back({Chip::gfx950, 200, 136, 200, "f16", "bf16", true, {"BK=128", "SWZ=16", "WIDE=1"}});
  all.push_back({Chip::gfx950, 96, 160, 72, "bf16", "f32", false, {"BK=64", "SWZ=8", "WIDE=1"}});
  all.push_back({Chip::gfx950, 70, 130, 520, "bf16", "f32", false,
                 {"WM=32", "WN=32", "BK=256", "SWZ=16", "WIDE=1"}});
  all.push_back({Chip::gfx950, 130, 300, 130, "bf16", "f32", false, {"BK=128", "SWZ=16"}});
  all.push_back({Chip::gfx950, 70, 90, 300, "f16", "f32", false,
                 {"WM=32", "WN=32", "BK=256", "SWZ=32"}});
  all.push_back({Chip::gfx942, 100, 70, 52, "bf16", "f32", false, {"BK=32", "SWZ=4"}});
  // As kcc::ops::gemm runs it (gemmParams): gfx950's 256x256 tile of large
  // problems (128x128 per wave, BK=64, 16-byte DMA into rows swizzled over
  // 8 chunks, K in slices of 32) with tails in M, N and K, one of them
  // bf16 -> bf16 with a bias; gfx942's 128x128 tile (BK=32, K slices of 16,
  // rows swizzled over 4 chunks) with tails.
  all.push_back({Chip::gfx950, 300, 260, 136, "bf16", "f32", false,
                 {"WM=128", "WN=128", "BK=64", "KS=32", "SWZ=8", "WIDE=1"}});
  all.push_back({Chip::gfx950, 256, 512, 200, "f16", "bf16", true,
                 {"WM=128", "WN=128", "BK=64", "KS=32", "SWZ=8", "WIDE=1"}});
  all.push_back({Chip::gfx942, 200, 136, 96, "bf16", "f32", false, {"BK=32", "KS=16", "SWZ=4"}});
  all.push_back({Chip::gfx942, 100, 70, 52, "f16", "bf16", true, {"BK=32", "KS=16", "SWZ=4"}});
  // gfx950's tile of problems with at least a 128x128 tile per CU: BK=32
  // in K slices of 16, 16-byte DMA into rows swizzled over 4 chunks, the
  // loop's second fetch unconditional (FETCH_ALWAYS: past the end the last
  // block again), with tails in M, N and K (one with a bias) and both
  // parities of the block count (136: 5 blocks, 120: 4, the last partial),
  // and its 4-byte DMA where K is not a multiple of 8.
  all.push_back({Chip::gfx950, 300, 260, 136, "bf16", "f32", false,
                 {"BK=32", "KS=16", "SWZ=4", "WIDE=1", "FETCH_ALWAYS=1"}});
  all.push_back({Chip::gfx950, 200, 136, 120, "f16", "bf16", true,
                 {"BK=32", "KS=16", "SWZ=4", "WIDE=1", "FETCH_ALWAYS=1"}});
  all.push_back({Chip::gfx950, 130, 140, 128, "bf16", "bf16", false,
                 {"BK=32", "KS=16", "SWZ=4", "WIDE=1", "FETCH_ALWAYS=1"}});
  // The loop's interior version (gfx950, 16-byte DMA: blocks of C whose
  // fetched K blocks all lie inside take it, the others the bounded loop),
  // with a bias, and split over K with both shares interior.
  all.push_back({Chip::gfx950, 300, 260, 256, "f16", "bf16", true,
                 {"BK=32", "KS=16", "SWZ=4", "WIDE=1", "FETCH_ALWAYS=1"}});
  all.push_back({Chip::gfx950, 200, 136, 1024, "bf16", "f32", false,
                 {"BK=128", "KS=64", "SWZ=16", "WIDE=1", "FETCH_ALWAYS=1", "SPLITK=2"}});
  all.push_back({Chip::gfx950, 130, 70, 52, "bf16", "f32", false,
                 {"BK=32", "KS=16", "SWZ=4", "WIDE=0"}});
  // Eight waves (2 x 4, 128x64 each) on a 256x256 block of C, one
  // workgroup-wide copy per matrix and buffer (32 DMA lines of A, 4 a wave):
  // gfx950's 16-byte DMA with BK=64 and BK=32, odd and even block counts,
  // tails in M, N and K, a bias; gfx942's 4-byte DMA. And a 4 x 2 grid of
  // 64x64 waves (a 256x128 block).
  all.push_back({Chip::gfx950, 300, 520, 200, "bf16", "f32", false,
                 {"WM=128", "WN=64", "WGM=2", "WGN=4", "BK=64", "KS=16", "SWZ=8", "WIDE=1",
                  "FETCH_ALWAYS=1"}});
  all.push_back({Chip::gfx950, 256, 256, 96, "f16", "bf16", true,
                 {"WM=128", "WN=64", "WGM=2", "WGN=4", "BK=32", "KS=16", "SWZ=4", "WIDE=1"}});
  all.push_back({Chip::gfx942, 270, 300, 100, "bf16", "f32", false,
                 {"WM=128", "WN=64", "WGM=2", "WGN=4", "BK=32", "KS=16", "SWZ=4"}});
  all.push_back({Chip::gfx950, 260, 130, 72, "bf16", "f32", false,
                 {"WGM=4", "WGN=2", "BK=32", "KS=16", "SWZ=4", "WIDE=1"}});
  // PINGPONG: the eight waves in two groups one barrier apart, each wave's
  // whole K block of operands read into registers in one phase and
  // multiplied in the next; only the leading group copies. Odd and even
  // block counts (136 / 64: 3 blocks, one past K; 200 / 64: 4, the last
  // partial), tails in M, N and K, a bias, f16; gfx942's 4-byte DMA; the
  // 4 x 2 grid.
  all.push_back({Chip::gfx950, 300, 520, 200, "bf16", "f32", false,
                 {"WM=128", "WN=64", "WGM=2", "WGN=4", "BK=64", "KS=64", "SWZ=8", "WIDE=1",
                  "PINGPONG=1", "WPS=2"}});
  all.push_back({Chip::gfx950, 260, 300, 136, "f16", "bf16", true,
                 {"WM=128", "WN=64", "WGM=2", "WGN=4", "BK=64", "KS=64", "SWZ=8", "WIDE=1",
                  "PINGPONG=1", "WPS=2"}});
  all.push_back({Chip::gfx950, 256, 256, 32, "bf16", "bf16", false,
                 {"WM=128", "WN=64", "WGM=2", "WGN=4", "BK=32", "KS=32", "SWZ=4", "WIDE=1",
                  "PINGPONG=1", "WPS=2"}});
  all.push_back({Chip::gfx942, 270, 300, 100, "bf16", "f32", false,
                 {"WM=128", "WN=64", "WGM=2", "WGN=4", "BK=32", "KS=32", "SWZ=4", "PINGPONG=1",
                  "WPS=2"}});
  all.push_back({Chip::gfx942, 200, 130, 72, "f16", "f32", true,
                 {"WGM=4", "WGN=2", "BK=32", "KS=32", "SWZ=4", "PINGPONG=1", "WPS=2"}});
  // The interior loop versions (every fetched block inside A, Bt and K:
  // the blocks of C at rows 0 and 256, columns 0; the others take the
  // bounded loop): the leading group's copies from buffers moved along K,
  // lines sharing M0 through the offset field (2 a group on gfx950's
  // 1 KiB lines, 4 on gfx942's 256-byte ones).
  all.push_back({Chip::gfx950, 520, 300, 512, "bf16", "bf16", false,
                 {"WM=128", "WN=64", "WGM=2", "WGN=4", "BK=64", "KS=64", "SWZ=8", "WIDE=1",
                  "FETCH_ALWAYS=1", "PINGPONG=1", "WPS=2"}});
  all.push_back({Chip::gfx942, 520, 300, 256, "f16", "f32", true,
                 {"WM=128", "WN=64", "WGM=2", "WGN=4", "BK=32", "KS=32", "SWZ=4", "PINGPONG=1",
                  "WPS=2"}});
  // PPREG: the PINGPONG loop's blocks through registers, each wave storing
  // its share (RA rows of A, RB of Bt) into the next buffer a block after
  // loading it: gfx942's 256x128 and 256x256 tiles, odd and even block
  // counts, tails in M, N and K, a bias, f16; and gfx950.
  all.push_back({Chip::gfx942, 300, 260, 200, "bf16", "f32", false,
                 {"WGM=4", "WGN=2", "BK=32", "KS=32", "SWZ=4", "PINGPONG=1", "PPREG=1", "RA=32",
                  "RB=16", "WPS=2"}});
  all.push_back({Chip::gfx942, 270, 300, 136, "f16", "bf16", true,
                 {"WM=128", "WN=64", "WGM=2", "WGN=4", "BK=32", "KS=32", "SWZ=4", "PINGPONG=1",
                  "PPREG=1", "RA=32", "RB=32", "WPS=2"}});
  all.push_back({Chip::gfx950, 260, 130, 72, "bf16", "f32", false,
                 {"WGM=4", "WGN=2", "BK=32", "KS=32", "SWZ=4", "WIDE=1", "PINGPONG=1", "PPREG=1",
                  "RA=32", "RB=16", "WPS=2"}});
  // gfx942's register path (REG, ops::gemm's choice before the swizzle): A and Bt through registers into rows
  // padded by 4 (REG), tails in M, N and K; and WM = WN = 32 (8 rows per wave).
  all.push_back({Chip::gfx942, 256, 256, 160, "bf16", "f32", false, {"PAD=4", "REG=1", "RROWS=16"}});
  all.push_back({Chip::gfx942, 100, 70, 52, "f16", "bf16", true, {"PAD=4", "REG=1", "RROWS=16"}});
  all.push_back({Chip::gfx942, 70, 90, 34, "bf16", "f32", false,
                 {"WM=32", "WN=32", "PAD=4", "REG=1", "RROWS=8"}});
  // SPLITK: slice z of C holds the partial sum over blocks z ceil(nk / S)..
  // of K. gfx950 (BK=128, 16-byte DMA): 8 blocks in shares of 3, 3, 2 with
  // tails in M, N and K; 5 blocks in shares of 2, 2, 1 and none (an empty
  // share stores zeros), the odd share's pair loop reading a block past
  // its end where K goes on; f16 in. gfx942 (BK=32, 4-byte DMA): 7 blocks
  // as 3, 3, 1; 4 as 2, 2, 0; and the register path (REG) with 2, 2, 0.
  // The decode tile (32 x 128 blocks: one row of four 32x32 waves) with
  // the split, M = 1, 16 and 33.
  all.push_back({Chip::gfx950, 200, 136, 1000, "bf16", "f32", false,
                 {"BK=128", "KS=64", "SWZ=16", "WIDE=1", "FETCH_ALWAYS=1", "SPLITK=3"}});
  all.push_back({Chip::gfx950, 70, 130, 520, "f16", "f32", false,
                 {"BK=128", "KS=64", "SWZ=16", "WIDE=1", "FETCH_ALWAYS=1", "SPLITK=4"}});
  all.push_back({Chip::gfx950, 130, 70, 200, "bf16", "f32", false,
                 {"BK=32", "KS=16", "SWZ=4", "WIDE=0", "SPLITK=3"}});
  all.push_back({Chip::gfx942, 100, 70, 200, "bf16", "f32", false,
                 {"BK=32", "KS=16", "SWZ=4", "SPLITK=3"}});
  all.push_back({Chip::gfx942, 33, 260, 100, "f16", "f32", false,
                 {"BK=32", "KS=16", "SWZ=4", "SPLITK=3"}});
  all.push_back({Chip::gfx942, 100, 70, 100, "bf16", "f32", false,
                 {"PAD=4", "REG=1", "RROWS=16", "SPLITK=3"}});
  // SPLITK with PINGPONG: both groups run the share's block pairs from
  // kb0, the leading group fetching within the share. gfx950's 256x256
  // tile (BK=64): 16 blocks as 6, 6, 4 (even shares) and 13 as 5, 5, 3
  // (odd: a block past the share's end reads zeros where K goes on);
  // 4 blocks as 1, 1, 1, 1, 0 (an empty share); gfx942's PPREG tiles:
  // 32 blocks as 11, 11, 10 and 7 as 2, 2, 2, 1, with tails in M and N.
  auto with = [](std::vector<std::string> base, std::initializer_list<const char *> more) {
    base.insert(base.end(), more.begin(), more.end());
    return base;
  };
  const std::vector<std::string> pingpong950 = {
      "WM=128", "WN=64", "WGM=2", "WGN=4", "BK=64", "KS=64", "SWZ=8", "WIDE=1",
      "FETCH_ALWAYS=1", "PINGPONG=1", "WPS=2"};
  all.push_back({Chip::gfx950, 300, 260, 1024, "bf16", "f32", false, with(pingpong950, {"SPLITK=3"})});
  all.push_back({Chip::gfx950, 256, 300, 808, "f16", "f32", false, with(pingpong950, {"SPLITK=3"})});
  all.push_back({Chip::gfx950, 130, 256, 256, "bf16", "f32", false, with(pingpong950, {"SPLITK=5"})});
  all.push_back({Chip::gfx942, 300, 260, 1024, "bf16", "f32", false,
                 {"WGM=4", "WGN=2", "BK=32", "KS=32", "SWZ=4", "PINGPONG=1", "PPREG=1", "RA=32",
                  "RB=16", "WPS=2", "SPLITK=3"}});
  all.push_back({Chip::gfx942, 270, 140, 200, "f16", "f32", false,
                 {"WM=128", "WN=64", "WGM=2", "WGN=4", "BK=32", "KS=32", "SWZ=4", "PINGPONG=1",
                  "PPREG=1", "RA=32", "RB=32", "WPS=2", "SPLITK=4"}});
  for (int m : {1, 16, 33}) {
    all.push_back({Chip::gfx950, m, 300, 1032, "bf16", "f32", false,
                   {"WM=32", "WN=32", "WGM=1", "WGN=4", "BK=128", "KS=64", "SWZ=16", "WIDE=1",
                    "FETCH_ALWAYS=1", "SPLITK=3"}});
    all.push_back({Chip::gfx942, m, 300, 424, "bf16", "f32", false,
                   {"WM=32", "WN=32", "WGM=1", "WGN=4", "BK=32", "KS=16", "SWZ=4", "SPLITK=5"}});
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Gemm, GemmTest, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return name(info.param); });

} // namespace
