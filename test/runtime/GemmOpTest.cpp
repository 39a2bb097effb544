//===- GemmOpTest.cpp - kcc::ops::gemm on emulated gfx942 and gfx950 ------===//
//
// Random bf16/f16 data through the op wrapper (JIT, cache, argument checks,
// launch) on the emulator, every element against a float64 reference from
// the same rounded inputs; then each bad argument with its exact message.
//
//===----------------------------------------------------------------------===//
#include "kernels/gemm/GemmOp.h"
#include "runtime/Jit.h"
#include "runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace kcc;

namespace {

struct Case {
  Chip chip;
  int M, N, K;
  DType in = DType::bf16, out = DType::f32;
  bool bias = false;
  int lda = 0, ldb = 0, ldc = 0; // 0: packed
  std::vector<std::string> params = {}; // overrides of the tile choice
};

std::string caseName(const Case &c) {
  std::string s = getChipInfo(c.chip).name.str() + "_" + std::to_string(c.M) +
                  "x" + std::to_string(c.N) + "x" + std::to_string(c.K) + "_" +
                  dtypeName(c.in).str() + "_" + dtypeName(c.out).str();
  if (c.bias) s += "_bias";
  if (c.lda || c.ldb || c.ldc) s += "_strided";
  for (const std::string &p : c.params)
    for (char ch : p)
      s += std::isalnum((unsigned char)ch) ? ch : '_';
  return s;
}

/// One runtime and one JIT for the whole binary: compiled variants are
/// shared between cases, as in a real process.
struct Shared {
  std::unique_ptr<Runtime> rt;
  std::unique_ptr<Jit> jit;
  static Shared &get() {
    static Shared s = [] {
      Shared s;
      RuntimeOptions o;
      o.useHip = false;
      s.rt = llvm::cantFail(Runtime::create(o));
      JitOptions jo;
      jo.useDiskCache = false; // tests must not depend on earlier runs
      s.jit = std::make_unique<Jit>(jo);
      return s;
    }();
    return s;
  }
};

class GemmOpTest : public ::testing::TestWithParam<Case> {};

TEST_P(GemmOpTest, MatchesReference) {
  const Case &c = GetParam();
  Shared &s = Shared::get();
  Device &d = llvm::cantFail(
      s.rt->device(c.chip == Chip::gfx942 ? "emu:gfx942" : "emu:gfx950"));
  int lda = c.lda ? c.lda : c.K, ldb = c.ldb ? c.ldb : c.K, ldc = c.ldc ? c.ldc : c.N;
  std::mt19937 rng(c.M * 131 + c.N * 7 + c.K);
  std::normal_distribution<float> normal;
  bool bf = c.in == DType::bf16;
  auto quantise = [&](float x) { return bf ? floatToBf16(x) : floatToF16(x); };
  auto value = [&](uint16_t h) { return double(bf ? bf16ToFloat(h) : f16ToFloat(h)); };
  // Padding elements of strided rows hold NaN: reading them would show.
  std::vector<uint16_t> a(size_t(c.M) * lda, 0x7e00), bt(size_t(c.N) * ldb, 0x7e00),
      bias(c.N);
  for (int m = 0; m < c.M; ++m)
    for (int k = 0; k < c.K; ++k)
      a[size_t(m) * lda + k] = quantise(normal(rng));
  for (int n = 0; n < c.N; ++n)
    for (int k = 0; k < c.K; ++k)
      bt[size_t(n) * ldb + k] = quantise(normal(rng));
  for (auto &x : bias)
    x = quantise(normal(rng));

  Buffer da = llvm::cantFail(Buffer::fromHost(d, a));
  Buffer db = llvm::cantFail(Buffer::fromHost(d, bt));
  Buffer dbias = llvm::cantFail(Buffer::fromHost(d, bias));
  size_t outSize = dtypeSize(c.out);
  Buffer dc = llvm::cantFail(Buffer::allocate(d, size_t(c.M) * ldc * outSize));
  ASSERT_FALSE(bool(dc.fill(0xff))); // NaN everywhere the kernel does not write

  ops::GemmOptions o;
  o.jit = s.jit.get();
  o.params = c.params;
  std::optional<VectorRef> biasRef;
  if (c.bias)
    biasRef = VectorRef(dbias, c.in, c.N);
  auto r = ops::gemm({da, c.in, c.M, c.K, lda}, {db, c.in, c.N, c.K, ldb},
                     {dc, c.out, c.M, c.N, ldc}, biasRef, o);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  ASSERT_TRUE(r->waveInstructions.has_value());
  EXPECT_GT(*r->waveInstructions, 0u);

  std::vector<uint8_t> out(dc.size());
  ASSERT_FALSE(bool(dc.read(out.data(), out.size())));
  int bad = 0;
  for (int m = 0; m < c.M; ++m)
    for (int n = 0; n < ldc; ++n) {
      size_t i = size_t(m) * ldc + n;
      double got;
      if (c.out == DType::f32) {
        float f;
        std::memcpy(&f, &out[4 * i], 4);
        got = f;
      } else {
        uint16_t h;
        std::memcpy(&h, &out[2 * i], 2);
        got = c.out == DType::bf16 ? bf16ToFloat(h) : f16ToFloat(h);
      }
      if (n >= c.N) { // padding of C: untouched
        if (!std::isnan(got) && ++bad <= 5)
          ADD_FAILURE() << "C padding [" << m << "][" << n << "] written";
        continue;
      }
      double ref = c.bias ? value(bias[n]) : 0.0;
      for (int k = 0; k < c.K; ++k)
        ref += value(a[size_t(m) * lda + k]) * value(bt[size_t(n) * ldb + k]);
      double tol = c.out == DType::f32
                       ? 1e-5 * std::sqrt(double(c.K)) * (1 + std::fabs(ref))
                       : std::fabs(ref) * (c.out == DType::bf16 ? 0x1p-8 : 0x1p-11) + 1e-4;
      if (!(std::fabs(got - ref) <= tol) && ++bad <= 5)
        ADD_FAILURE() << "C[" << m << "][" << n << "] = " << got << ", reference "
                      << ref;
    }
  EXPECT_EQ(bad, 0);
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    all.push_back({chip, 100, 70, 52});                        // tails in M, N, K
    all.push_back({chip, 1, 1, 2});                            // smallest
    all.push_back({chip, 130, 260, 34, DType::f16, DType::f32}); // N > M, two N blocks
    all.push_back({chip, 257, 3, 66, DType::bf16, DType::bf16, true});  // tall, thin
    all.push_back({chip, 64, 200, 128, DType::f16, DType::f16, true});  // wide, bias
    all.push_back({chip, 33, 47, 40, DType::bf16, DType::f32, false, 48, 44, 50}); // strides
    // Odd K and odd leading dimensions: the operands are packed first
    // (kernels/gemm/gemm_pack.mlir), the NaN padding of strided rows unread.
    all.push_back({chip, 70, 45, 31, DType::bf16, DType::f32});                 // odd K
    all.push_back({chip, 3, 5, 1});                                             // K = 1
    all.push_back({chip, 129, 66, 97, DType::f16, DType::bf16, true, 101, 99, 70}); // odd K, odd strides, bias
    all.push_back({chip, 40, 72, 64, DType::bf16, DType::f32, false, 67, 0, 0});   // odd lda only
    // Split-K as gemmParams picks it: one 128x128 tile, K = 4000 (125
    // blocks of 32 in 7 shares of 18, the last 17 and short), f32 partials
    // summed by gemm_reduce.mlir. And the decode tile (32 x 128, M <= 64)
    // with its split: M = 16 with a bias and a strided C (3 shares; gfx950
    // 16 blocks of 128 as 6, 6, 4); M = 1, f16 in and out (2 shares); M = 33
    // with an odd K (packed first) and odd strides (5 shares; gfx950 22
    // blocks as 5, 5, 5, 5, 2).
    all.push_back({chip, 100, 70, 4000});
    all.push_back({chip, 16, 200, 2000, DType::bf16, DType::bf16, true, 0, 0, 210});
    all.push_back({chip, 1, 300, 1032, DType::f16, DType::f16, true});
    all.push_back({chip, 33, 130, 2777, DType::bf16, DType::f32, true, 2779, 2781, 0});
    // Rows of C in whole 4-element groups: the reduction's vector stores,
    // f32 and bf16 (with a bias), next to a partial block of columns.
    all.push_back({chip, 48, 512, 2048, DType::bf16, DType::f32});
    all.push_back({chip, 20, 260, 1536, DType::bf16, DType::bf16, true, 0, 0, 264});
    // SPLITK given: shares of 4, 4, 2 blocks (gfx950: 1, 1, 1) with odd K
    // packed and a bias; 2 blocks of 32 (gfx950: 1 of 128) over 5 shares,
    // most of them empty.
    all.push_back({chip, 70, 45, 301, DType::bf16, DType::bf16, true, 0, 0, 0, {"SPLITK=3"}});
    all.push_back({chip, 40, 72, 64, DType::f16, DType::f32, false, 0, 0, 75, {"SPLITK=5"}});
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Emulated, GemmOpTest, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return caseName(info.param); });

/// Bad arguments: one buffer set, each case bends one thing.
class GemmOpErrors : public ::testing::Test {
protected:
  void SetUp() override {
    Shared &s = Shared::get();
    d = &llvm::cantFail(s.rt->device("emu:gfx950"));
    other = &llvm::cantFail(s.rt->device("emu:gfx942"));
    a = std::make_unique<Buffer>(llvm::cantFail(Buffer::allocate(*d, 64 * 32 * 2)));
    bt = std::make_unique<Buffer>(llvm::cantFail(Buffer::allocate(*d, 48 * 32 * 2)));
    c = std::make_unique<Buffer>(llvm::cantFail(Buffer::allocate(*d, 64 * 48 * 4)));
    bias = std::make_unique<Buffer>(llvm::cantFail(Buffer::allocate(*d, 48 * 2)));
    elsewhere = std::make_unique<Buffer>(llvm::cantFail(Buffer::allocate(*other, 1 << 16)));
    opts.jit = s.jit.get();
  }
  std::string run(MatrixRef ma, MatrixRef mb, MatrixRef mc,
                  std::optional<VectorRef> vb = std::nullopt) {
    auto r = ops::gemm(ma, mb, mc, vb, opts);
    if (r)
      return "(launched)";
    return llvm::toString(r.takeError());
  }
  MatrixRef A() { return {*a, DType::bf16, 64, 32}; }
  MatrixRef B() { return {*bt, DType::bf16, 48, 32}; }
  MatrixRef C() { return {*c, DType::f32, 64, 48}; }
  Device *d, *other;
  std::unique_ptr<Buffer> a, bt, c, bias, elsewhere;
  ops::GemmOptions opts;
};

TEST_F(GemmOpErrors, Valid) { EXPECT_EQ(run(A(), B(), C()), "(launched)"); }

TEST_F(GemmOpErrors, DTypes) {
  EXPECT_EQ(run({*a, DType::f32, 64, 16}, B(), C()),
            "gemm: A is f32; A and Bt must be bf16 or f16");
  EXPECT_EQ(run(A(), {*bt, DType::f16, 48, 32}, C()),
            "gemm: Bt is f16 but A is bf16; A and Bt must have the same dtype");
  EXPECT_EQ(run(A(), B(), {*c, DType::i32, 64, 48}),
            "gemm: C is i32; C must be bf16, f16 or f32");
  EXPECT_EQ(run(A(), B(), C(), VectorRef(*bias, DType::f32, 48)),
            "gemm: bias is f32; it must have A's dtype (bf16)");
}

TEST_F(GemmOpErrors, Shapes) {
  EXPECT_EQ(run({*a, DType::bf16, 0, 32}, B(), C()),
            "gemm: A is 0x32; every dimension must be positive");
  EXPECT_EQ(run(A(), {*bt, DType::bf16, 48, 30}, C()),
            "gemm: A is 64x32 but Bt is 48x30; both need K columns");
  // An odd K is packed, not refused.
  EXPECT_EQ(run({*a, DType::bf16, 64, 31, 32}, {*bt, DType::bf16, 48, 31, 32}, C()),
            "(launched)");
  EXPECT_EQ(run(A(), B(), {*c, DType::f32, 64, 47}),
            "gemm: C is 64x47; expected 64x48 (A's rows x Bt's rows)");
  EXPECT_EQ(run(A(), B(), C(), VectorRef(*bias, DType::bf16, 47)),
            "gemm: bias has 47 elements; expected N = 48");
}

TEST_F(GemmOpErrors, Strides) {
  EXPECT_EQ(run({*a, DType::bf16, 64, 32, 30}, B(), C()),
            "gemm: A's leading dimension 30 is less than its 32 columns");
  // Odd leading dimensions are packed, not refused.
  EXPECT_EQ(run({*a, DType::bf16, 32, 32, 33}, B(), {*c, DType::f32, 32, 48}),
            "(launched)");
  EXPECT_EQ(run(A(), {*bt, DType::bf16, 24, 32, 63}, {*c, DType::f32, 64, 24}),
            "(launched)");
  EXPECT_EQ(run(A(), B(), {*c, DType::f32, 64, 48, 40}),
            "gemm: C's leading dimension 40 is less than its 48 columns");
  EXPECT_EQ(run(A(), B(), {*c, DType::f32, 64, 48, int64_t(1) << 31}),
            "gemm: C (64x48, leading dimension 2147483648) exceeds the kernel's "
            "32-bit size arguments");
}

TEST_F(GemmOpErrors, BufferSizes) {
  EXPECT_EQ(run({*a, DType::bf16, 65, 32}, B(), {*c, DType::f32, 65, 48}),
            "gemm: A (65x32, leading dimension 32, bf16) needs 4160 bytes; its "
            "buffer has 4096");
  EXPECT_EQ(run(A(), B(), {*c, DType::f32, 64, 48, 50}),
            "gemm: C (64x48, leading dimension 50, f32) needs 12792 bytes; its "
            "buffer has 12288");
  EXPECT_EQ(run(A(), B(), C(), VectorRef(*a, DType::bf16, 48)), "(launched)");
  Buffer tiny = llvm::cantFail(Buffer::allocate(*d, 10));
  EXPECT_EQ(run(A(), B(), C(), VectorRef(tiny, DType::bf16, 48)),
            "gemm: bias (48 bf16) needs 96 bytes; its buffer has 10");
}

TEST_F(GemmOpErrors, SplitK) {
  opts.params = {"SPLITK=0"};
  EXPECT_EQ(run(A(), B(), C()), "gemm: SPLITK=0 must be at least 1 (1: K is not split)");
  // PINGPONG splits K as the default loop does.
  opts.params = {"SPLITK=2", "PINGPONG=1"};
  EXPECT_EQ(run(A(), B(), C()), "(launched)");
  opts.params = {"SPLITK=2"};
  EXPECT_EQ(run(A(), B(), C()), "(launched)");
  // The reduction on its own checks what it is given.
  std::vector<float> zeros(2 * 64 * 48);
  Buffer w = llvm::cantFail(Buffer::fromHost(*d, zeros));
  EXPECT_EQ(llvm::toString(ops::gemmReduce({w, DType::f32, 2 * 64, 46, 48}, 2, C(),
                                           std::nullopt, opts)
                               .takeError()),
            "gemm: the split-K partials are 128x46; expected 2 x 64 rows of 48 (SPLITK x "
            "C's shape)");
  EXPECT_EQ(llvm::toString(ops::gemmReduce({w, DType::f32, 2 * 64, 48, 50}, 2, C(),
                                           std::nullopt, opts)
                               .takeError()),
            "gemm: the split-K partials' leading dimension 50 is not a multiple of 4 "
            "(16-byte aligned rows)");
  EXPECT_EQ(llvm::toString(ops::gemmReduce({w, DType::bf16, 2 * 64, 48}, 2, C(),
                                           std::nullopt, opts)
                               .takeError()),
            "gemm: the split-K partials are bf16; they must be f32");
}

TEST_F(GemmOpErrors, Devices) {
  EXPECT_EQ(run(A(), {*elsewhere, DType::bf16, 48, 32}, C()),
            "gemm: Bt is on emu:gfx942 but A is on emu:gfx950; all operands "
            "must be on one device");
  EXPECT_EQ(run(A(), B(), {*elsewhere, DType::f32, 64, 48}),
            "gemm: C is on emu:gfx942 but A is on emu:gfx950; all operands "
            "must be on one device");
  MatrixRef none;
  EXPECT_EQ(run(none, B(), C()), "gemm: A has no buffer");
}

TEST(GemmParams, PerChipAndSize) {
  using V = std::vector<std::string>;
  // gfx950, enough 256x256 tiles for every CU (8192^2: 1024 of them, four
  // rounds like the 128x128 tiles' 4096 four to a CU): the eight-wave
  // PINGPONG tile, BK=64, rows of 64 bf16 swizzled over their 8 chunks.
  EXPECT_EQ(ops::gemmParams(Chip::gfx950, DType::bf16, DType::f32, false, {8192, 8192, 8192}),
            (V{"DTYPE=bf16", "OUT=f32", "WM=128", "WN=64", "WGM=2", "WGN=4", "BK=64", "KS=64",
               "PINGPONG=1", "WPS=2", "WIDE=1", "FETCH_ALWAYS=1", "PAD=0", "HAS_BIAS=0",
               "SWZ=8"}));
  // K below 512 keeps the 128x128 tile: BK=32 (four workgroups per CU),
  // 16-byte DMA (K a multiple of 8), rows of 32 bf16 swizzled over their 4
  // chunks. So does a K that is not a multiple of 8 (the PINGPONG tile
  // takes the 16-byte DMA only), and a shape whose 256x256 tiles would take
  // more rounds: 3968 x 4224 is 272 of them (two rounds) but 1023 128x128
  // tiles (one); 4352 x 4352 is 289 (two) against 1156 (two too).
  EXPECT_EQ(ops::gemmParams(Chip::gfx950, DType::bf16, DType::f32, false, {8192, 8192, 256}),
            (V{"DTYPE=bf16", "OUT=f32", "WM=64", "WN=64", "BK=32", "KS=16", "WIDE=1",
               "FETCH_ALWAYS=1", "PAD=0", "HAS_BIAS=0", "SWZ=4"}));
  EXPECT_TRUE(llvm::is_contained(
      ops::gemmParams(Chip::gfx950, DType::bf16, DType::f32, false, {8192, 8192, 8190}),
      "BK=32"));
  EXPECT_TRUE(llvm::is_contained(
      ops::gemmParams(Chip::gfx950, DType::bf16, DType::f32, false, {4352, 4352, 4096}),
      "PINGPONG=1"));
  EXPECT_TRUE(llvm::is_contained(
      ops::gemmParams(Chip::gfx950, DType::bf16, DType::f32, false, {3968, 4224, 4096}),
      "BK=32"));
  // 4096 x 1280: 320 tiles, the shared-CU choice, K split 3 ways so that
  // the 1024 workgroups four a CU hold are filled; the kernel stores f32
  // partials without the bias.
  EXPECT_EQ(ops::gemmParams(Chip::gfx950, DType::bf16, DType::bf16, false, {4096, 1280, 8192}),
            (V{"DTYPE=bf16", "WM=64", "WN=64", "BK=32", "KS=16", "WIDE=1", "FETCH_ALWAYS=1",
               "PAD=0", "SWZ=4", "SPLITK=3", "OUT=f32", "HAS_BIAS=0"}));
  // 256 x 8192: 128 tiles for 256 CUs: the same tile, K split 8 ways.
  EXPECT_EQ(ops::gemmParams(Chip::gfx950, DType::bf16, DType::bf16, false, {256, 8192, 28672}),
            (V{"DTYPE=bf16", "WM=64", "WN=64", "BK=32", "KS=16", "WIDE=1", "FETCH_ALWAYS=1",
               "PAD=0", "SWZ=4", "SPLITK=8", "OUT=f32", "HAS_BIAS=0"}));
  // SPLITK=1 given: no split (BK=128, one workgroup per CU, as without
  // split-K), C's dtype and the bias in the kernel.
  EXPECT_EQ(ops::gemmParams(Chip::gfx950, DType::bf16, DType::bf16, true, {256, 8192, 28672},
                            {"SPLITK=1"}),
            (V{"DTYPE=bf16", "OUT=bf16", "WM=64", "WN=64", "BK=128", "KS=64", "WIDE=1",
               "FETCH_ALWAYS=1", "PAD=0", "HAS_BIAS=1", "SPLITK=1", "SWZ=16"}));
  // Decode (M <= 64): 32x128 blocks of four 32x32 waves; K split as far
  // as the CUs hold them in one round (gfx950: 64 blocks, two per CU: 8;
  // gfx942, BK=32: three per CU, 912 / 64 = 14), where a second round
  // would halve the shares but add as many partials.
  EXPECT_EQ(ops::gemmParams(Chip::gfx950, DType::bf16, DType::bf16, false, {1, 8192, 8192}),
            (V{"DTYPE=bf16", "WM=32", "WN=32", "WGM=1", "WGN=4", "BK=128", "KS=64", "WIDE=1",
               "FETCH_ALWAYS=1", "PAD=0", "SWZ=16", "SPLITK=8", "OUT=f32", "HAS_BIAS=0"}));
  EXPECT_EQ(ops::gemmParams(Chip::gfx942, DType::f16, DType::f16, true, {16, 8192, 8192}),
            (V{"DTYPE=f16", "WM=32", "WN=32", "WGM=1", "WGN=4", "BK=32", "KS=16", "PAD=0",
               "SWZ=4", "SPLITK=14", "OUT=f32", "HAS_BIAS=0"}));
  // A size gemm() refuses (no rows) still gets an answer, unsplit.
  V none = ops::gemmParams(Chip::gfx950, DType::bf16, DType::f32, false, {0, 8192, 8192});
  EXPECT_FALSE(llvm::any_of(none, [](const std::string &p) {
    return llvm::StringRef(p).starts_with("SPLITK");
  }));
  // Each share keeps at least 512 of K: K = 1000 is not split, nor, on
  // gfx950, moved off BK=128 (few tiles, no split: one workgroup per CU).
  EXPECT_EQ(ops::gemmParams(Chip::gfx950, DType::bf16, DType::f32, false, {64, 256, 1000}),
            (V{"DTYPE=bf16", "OUT=f32", "WM=32", "WN=32", "WGM=1", "WGN=4", "BK=128", "KS=64",
               "WIDE=1", "FETCH_ALWAYS=1", "PAD=0", "HAS_BIAS=0", "SWZ=16"}));
  EXPECT_EQ(ops::gemmParams(Chip::gfx950, DType::bf16, DType::f32, false, {200, 256, 1000}),
            (V{"DTYPE=bf16", "OUT=f32", "WM=64", "WN=64", "BK=128", "KS=64", "WIDE=1",
               "FETCH_ALWAYS=1", "PAD=0", "HAS_BIAS=0", "SWZ=16"}));
  // K not a multiple of 8: the 4-byte DMA.
  EXPECT_EQ(ops::gemmParams(Chip::gfx950, DType::f16, DType::f32, true, {100, 70, 52}),
            (V{"DTYPE=f16", "OUT=f32", "WM=64", "WN=64", "BK=128", "KS=64", "WIDE=0",
               "PAD=0", "HAS_BIAS=1", "SWZ=16"}));
  // gfx942 at 8192^2: the 256x128 PINGPONG tile (4 x 2 waves of 64x64),
  // its blocks through registers (PPREG; each wave 32 rows of A, RA, and 16
  // of Bt, RB), rows of 32 swizzled over 4: its 2048 tiles fill 304 CUs 96%
  // over seven rounds, as the 128x128 tile's 4096 two to a CU do, where
  // 1024 256x256 tiles would fill them 84% over four. At 16384 x 8192 (2048
  // 256x256 tiles, 96%) the 256x256 one, BK=32 (64 KiB of LDS). Below
  // three quarters of the CUs' worth of tiles, the 128x128 tile.
  EXPECT_EQ(ops::gemmParams(Chip::gfx942, DType::bf16, DType::f32, false, {8192, 8192, 8192}),
            (V{"DTYPE=bf16", "OUT=f32", "WM=64", "WN=64", "WGM=4", "WGN=2", "BK=32", "KS=32",
               "PINGPONG=1", "WPS=2", "PPREG=1", "PAD=0", "HAS_BIAS=0", "SWZ=4", "RA=32",
               "RB=16"}));
  // PINGPONG=0 given: the choice's PPREG goes with it.
  EXPECT_EQ(ops::gemmParams(Chip::gfx942, DType::bf16, DType::f32, false, {8192, 8192, 8192},
                            {"PINGPONG=0"}),
            (V{"DTYPE=bf16", "OUT=f32", "WM=64", "WN=64", "WGM=4", "WGN=2", "BK=32", "KS=32",
               "WPS=2", "PAD=0", "HAS_BIAS=0", "PINGPONG=0", "SWZ=4"}));
  // gfx942 4096 x 1280: 320 128x128 tiles for 608 slots (two a CU) would
  // take one round of the whole K; split, the PINGPONG tiles fill the CUs
  // too, and pickSplitPingpong's estimate puts the 256x256 one with 7
  // splits 9% below the 128x128 tile's best split (whole replays on the
  // model: 659.2 TFLOPS against 575.2 for the 128x128 tile with 3 splits,
  // the pick before). 256 x 8192 x 28672: the 256x128 PINGPONG tile with 14
  // splits (762.1 against 704.1 for 128x128 with 9).
  EXPECT_EQ(ops::gemmParams(Chip::gfx942, DType::bf16, DType::f32, false, {4096, 1280, 8192}),
            (V{"DTYPE=bf16", "WM=128", "WN=64", "WGM=2", "WGN=4", "BK=32", "KS=32",
               "PINGPONG=1", "WPS=2", "PPREG=1", "PAD=0", "SWZ=4", "RA=32", "RB=32", "SPLITK=7",
               "OUT=f32", "HAS_BIAS=0"}));
  EXPECT_EQ(ops::gemmParams(Chip::gfx942, DType::bf16, DType::bf16, false, {256, 8192, 28672}),
            (V{"DTYPE=bf16", "WM=64", "WN=64", "WGM=4", "WGN=2", "BK=32", "KS=32",
               "PINGPONG=1", "WPS=2", "PPREG=1", "PAD=0", "SWZ=4", "RA=32", "RB=16",
               "SPLITK=14", "OUT=f32", "HAS_BIAS=0"}));
  // The split belongs to the PINGPONG pick: with PINGPONG=0 given, the
  // tile left (the same 256x256 block in eight waves, one workgroup a CU by
  // its 64 KiB of LDS) is split by splitKFor's estimate for it, which also
  // reads 7 here; a SPLITK given is taken as it is.
  EXPECT_EQ(ops::gemmParams(Chip::gfx942, DType::bf16, DType::f32, false, {4096, 1280, 8192},
                            {"PINGPONG=0"}),
            (V{"DTYPE=bf16", "WM=128", "WN=64", "WGM=2", "WGN=4", "BK=32", "KS=32", "WPS=2",
               "PAD=0", "PINGPONG=0", "SWZ=4", "SPLITK=7", "OUT=f32", "HAS_BIAS=0"}));
  EXPECT_TRUE(llvm::is_contained(
      ops::gemmParams(Chip::gfx942, DType::bf16, DType::f32, false, {4096, 1280, 8192},
                      {"SPLITK=3"}),
      "SPLITK=3"));
  // Where the estimates are close the 128x128 tile stays, its split
  // charged at the Infinity Cache's rate (1024 x 3584 x 8192: 8 splits).
  // SPLITK=1 given: no split, so no split PINGPONG tile either.
  EXPECT_EQ(ops::gemmParams(Chip::gfx942, DType::bf16, DType::bf16, false, {1024, 3584, 8192}),
            (V{"DTYPE=bf16", "WM=32", "WN=64", "WGM=4", "WGN=2", "BK=32", "KS=32", "PAD=0",
               "SWZ=4", "SPLITK=8", "OUT=f32", "HAS_BIAS=0"}));
  EXPECT_EQ(ops::gemmParams(Chip::gfx942, DType::bf16, DType::bf16, false, {4096, 1280, 8192},
                            {"SPLITK=1"}),
            (V{"DTYPE=bf16", "OUT=bf16", "WM=32", "WN=64", "WGM=4", "WGN=2", "BK=32", "KS=32",
               "PAD=0", "HAS_BIAS=0", "SPLITK=1", "SWZ=4"}));
  EXPECT_EQ(ops::gemmParams(Chip::gfx942, DType::bf16, DType::f32, false, {16384, 8192, 8192}),
            (V{"DTYPE=bf16", "OUT=f32", "WM=128", "WN=64", "WGM=2", "WGN=4", "BK=32", "KS=32",
               "PINGPONG=1", "WPS=2", "PPREG=1", "PAD=0", "HAS_BIAS=0", "SWZ=4", "RA=32",
               "RB=32"}));
  // An override of BK alone narrows the swizzle to the new row's chunks.
  EXPECT_EQ(ops::gemmParams(Chip::gfx950, DType::bf16, DType::f32, false, {100, 70, 64},
                            {"BK=32"}),
            (V{"DTYPE=bf16", "OUT=f32", "WM=64", "WN=64", "KS=64", "WIDE=1", "FETCH_ALWAYS=1",
               "PAD=0", "HAS_BIAS=0", "BK=32", "SWZ=4"}));
  // The register path needs WM = WN and the 2 x 2 wave grid: REG=1 alone
  // (gfx942's 4 x 2 grid of 32x64 waves) falls back to DMA.
  EXPECT_EQ(ops::gemmParams(Chip::gfx942, DType::f16, DType::bf16, true, {100, 64, 64},
                            {"REG=1"}),
            (V{"DTYPE=f16", "OUT=bf16", "WM=32", "WN=64", "WGM=4", "WGN=2", "BK=32", "KS=32",
               "HAS_BIAS=1", "SWZ=4", "REG=0", "PAD=0"}));
  // WM = WN = 32 on the 2 x 2 grid with REG: 8 rows per wave.
  EXPECT_EQ(ops::gemmParams(Chip::gfx942, DType::bf16, DType::f32, false, {100, 64, 64},
                            {"WM=32", "WN=32", "WGM=2", "WGN=2", "REG=1"}),
            (V{"DTYPE=bf16", "OUT=f32", "BK=32", "KS=32", "PAD=0", "HAS_BIAS=0", "WM=32",
               "WN=32", "WGM=2", "WGN=2", "REG=1", "SWZ=4", "RROWS=8"}));
}

TEST(GemmParams, RefusedBeforeCompiling) {
  auto check = [](std::vector<std::string> p, int64_t k) {
    llvm::Error e = ops::checkGemmParams(p, k);
    return e ? llvm::toString(std::move(e)) : std::string("ok");
  };
  EXPECT_EQ(check({"WIDE=1"}, 52),
            "gemm: WIDE=1 (16-byte DMA) needs K a multiple of 8; K is 52 (leave WIDE to the "
            "tile choice)");
  EXPECT_EQ(check({"WIDE=1"}, 56), "ok");
  // PINGPONG's two groups: an even number of waves (the default 2 x 2 grid
  // has four).
  EXPECT_EQ(check({"PINGPONG=1", "WGM=1", "WGN=1"}, 64),
            "gemm: PINGPONG=1 splits the workgroup's waves into two groups: it needs an even "
            "number of waves, WGM x WGN = 1 (eight pair them on every SIMD)");
  EXPECT_EQ(check({"PINGPONG=1"}, 64), "ok");
  EXPECT_EQ(check({"PINGPONG=1", "WGM=2", "WGN=4"}, 64), "ok");
  // PPREG: the PINGPONG loop's blocks through registers, 16-row groups a
  // wave.
  EXPECT_EQ(check({"PPREG=1"}, 64),
            "gemm: PPREG=1 moves the blocks of the PINGPONG loop; it needs PINGPONG=1");
  EXPECT_EQ(check({"PINGPONG=1", "PPREG=1", "WM=32", "WN=32", "WGM=2", "WGN=4"}, 64),
            "gemm: PPREG=1 gives each of the 8 waves 16-row groups of the 64x128 block and "
            "32-column groups of BK=32: BM and BN must be multiples of 16 x 8, BK of 32");
  EXPECT_EQ(check({"PINGPONG=1", "PPREG=1", "WM=64", "WN=64", "WGM=4", "WGN=2"}, 64), "ok");
}

TEST(GemmParams, GridFollowsTheTile) {
  Dim3 big = ops::gemmGrid({"WM=128", "WN=128"}, 8192, 1000);
  EXPECT_EQ(big.x, 32u);
  EXPECT_EQ(big.y, 4u);
  Dim3 odd = ops::gemmGrid({"WM=64", "WN=32"}, 129, 64);
  EXPECT_EQ(odd.x, 2u);
  EXPECT_EQ(odd.y, 1u);
  // A 2 x 4 wave grid of 128x64 waves: 256x256 blocks.
  Dim3 eight = ops::gemmGrid({"WM=128", "WN=64", "WGM=2", "WGN=4"}, 8192, 1000);
  EXPECT_EQ(eight.x, 32u);
  EXPECT_EQ(eight.y, 4u);
  EXPECT_EQ(eight.z, 1u);
  // Split-K: one workgroup per block of C and share of K.
  Dim3 split = ops::gemmGrid({"WM=32", "WN=32", "WGM=1", "WGN=4", "SPLITK=8"}, 16, 8192);
  EXPECT_EQ(split.x, 1u);
  EXPECT_EQ(split.y, 64u);
  EXPECT_EQ(split.z, 8u);
}

// The op reads its parameters as the compiler does (target/ParamBinding.h):
// a 0x prefix and true/false are integers, spaces around either side of '='
// go, and the list it compiles with spells each binding one way; a text
// that binds nothing stays, last, for the JIT to refuse.
TEST(GemmParams, ReadAsTheCompilerReadsThem) {
  Dim3 hex = ops::gemmGrid({"WM=0x20", " WN = 64 ", "SPLITK=0x2"}, 1000, 1000);
  EXPECT_EQ(hex.x, 16u);
  EXPECT_EQ(hex.y, 8u);
  EXPECT_EQ(hex.z, 2u);
  EXPECT_EQ(ops::gemmSplits({"SPLITK=0x4"}), 4);
  auto check = [](std::vector<std::string> p, int64_t k) {
    llvm::Error e = ops::checkGemmParams(p, k);
    return e ? llvm::toString(std::move(e)) : std::string("ok");
  };
  EXPECT_NE(check({"WIDE=true"}, 52), "ok");
  EXPECT_EQ(check({"WIDE=false"}, 52), "ok");
  std::vector<std::string> p = ops::gemmParams(Chip::gfx942, DType::bf16, DType::bf16, false,
                                               {512, 512, 512}, {" BK = 64 ", "BOGUS"});
  EXPECT_TRUE(llvm::is_contained(p, "BK=64"));
  EXPECT_FALSE(llvm::is_contained(p, " BK = 64 "));
  EXPECT_EQ(p.back(), "BOGUS");
}

TEST(GemmParams, LaunchCapsTheSharedTile) {
  using V = std::vector<std::string>;
  // gfx950's 128x128 tile at BK=32: 32 KiB of static LDS, dynamic LDS up to
  // a quarter of the CU's 160 KiB, so four workgroups share a CU, not five.
  V shared = ops::gemmParams(Chip::gfx950, DType::bf16, DType::bf16, false, {8192, 8192, 256});
  LaunchConfig l = ops::gemmLaunch(Chip::gfx950, shared, 8192, 8192, 32768);
  EXPECT_EQ(l.block.x, 256u);
  EXPECT_EQ(l.dynamicLdsBytes, 40960u - 32768u);
  EXPECT_EQ(l.grid.x, 64u);
  // BK=128 (64 KiB, two per CU already), gfx942, and eight-wave tiles: no cap.
  V alone = ops::gemmParams(Chip::gfx950, DType::bf16, DType::bf16, false, {256, 8192, 28672},
                            {"SPLITK=1"});
  EXPECT_EQ(ops::gemmLaunch(Chip::gfx950, alone, 256, 8192, 65536).dynamicLdsBytes, 0u);
  V g942 = ops::gemmParams(Chip::gfx942, DType::bf16, DType::bf16, false, {4096, 1280, 8192});
  EXPECT_EQ(ops::gemmLaunch(Chip::gfx942, g942, 4096, 1280, 32768).dynamicLdsBytes, 0u);
  LaunchConfig eight = ops::gemmLaunch(
      Chip::gfx950, {"WM=128", "WN=64", "WGM=2", "WGN=4", "BK=64"}, 8192, 8192, 131072);
  EXPECT_EQ(eight.block.x, 512u);
  EXPECT_EQ(eight.dynamicLdsBytes, 0u);
  // The register path keeps to the 2 x 2 grid: elsewhere it falls back to DMA.
  V reg = ops::gemmParams(Chip::gfx942, DType::bf16, DType::f32, false, {64, 64, 64},
                          {"WGN=4", "REG=1"});
  EXPECT_TRUE(llvm::is_contained(reg, "REG=0"));
}

} // namespace
