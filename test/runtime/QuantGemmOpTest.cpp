//===- GemmFp8OpTest.cpp - kcc::ops::gemmFp8 on emulated gfx942 and gfx950 ===//
//
// Random FP8 codes of the device's encoding through the op (scale shapes to
// granularities, packing of K and strides that aren't whole DMA units, JIT,
// launch) on the emulator, every element against a float64 reference of
// the decoded codes (test/e2e/Fp8Reference.h, from the format specs) times
// the scales of each element's K block; then each bad argument with its
// exact message.
//
//===----------------------------------------------------------------------===//
#include "kernels/gemm/QuantGemmOp.h"
#include "runtime/Jit.h"
#include "runtime/Runtime.h"
#include "test/e2e/Fp8Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace kcc;

namespace {

using G = ops::ScaleGranularity;

struct Case {
  Chip chip;
  int M, N, K;
  G a, b;
  DType out = DType::bf16;
  std::optional<DType> bias;
  int lda = 0, ldb = 0, ldc = 0; // 0: packed
};

std::string caseName(const Case &c) {
  auto g = [](G x) { return x == G::tensor ? "t" : x == G::rows ? "r" : "b"; };
  std::string s = getChipInfo(c.chip).name.str() + "_" + std::to_string(c.M) + "x" +
                  std::to_string(c.N) + "x" + std::to_string(c.K) + "_" + g(c.a) + g(c.b) +
                  "_" + dtypeName(c.out).str();
  if (c.bias) s += "_bias" + dtypeName(*c.bias).str();
  if (c.lda || c.ldb || c.ldc) s += "_strided";
  return s;
}

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
      jo.useDiskCache = false;
      s.jit = std::make_unique<Jit>(jo);
      return s;
    }();
    return s;
  }
};

/// The bias as the kernel reads it (`type`'s bytes; none without a type)
/// and the exact value of each element after that rounding (zeros without).
std::pair<std::vector<uint8_t>, std::vector<double>> hostBias(std::optional<DType> type,
                                                              const std::vector<float> &values) {
  std::vector<uint8_t> bytes;
  std::vector<double> exact(values.size(), 0.0);
  if (!type)
    return {bytes, exact};
  bytes.resize(values.size() * dtypeSize(*type));
  for (size_t n = 0; n < values.size(); ++n) {
    float x = values[n];
    if (*type == DType::f32) {
      std::memcpy(&bytes[4 * n], &x, 4);
      exact[n] = x;
    } else {
      uint16_t h = *type == DType::bf16 ? floatToBf16(x) : floatToF16(x);
      std::memcpy(&bytes[2 * n], &h, 2);
      exact[n] = *type == DType::bf16 ? bf16ToFloat(h) : f16ToFloat(h);
    }
  }
  return {bytes, exact};
}

class GemmFp8OpTest : public ::testing::TestWithParam<Case> {};

TEST_P(GemmFp8OpTest, MatchesReference) {
  const Case &c = GetParam();
  Shared &s = Shared::get();
  Device &d = llvm::cantFail(s.rt->device(c.chip == Chip::gfx942 ? "emu:gfx942" : "emu:gfx950"));
  const e2e::Fp8Spec &spec = c.chip == Chip::gfx950 ? e2e::kE4M3FN : e2e::kE4M3FNUZ;
  DType in = ops::fp8DTypeOf(c.chip);
  int lda = c.lda ? c.lda : c.K, ldb = c.ldb ? c.ldb : c.K, ldc = c.ldc ? c.ldc : c.N;
  std::mt19937 rng(c.M * 131 + c.N * 7 + c.K + int(c.a) * 3 + int(c.b));
  std::vector<uint8_t> finite;
  for (int code = 0; code < 256; ++code) {
    double v = e2e::fp8Decode(uint8_t(code), spec);
    if (!std::isnan(v) && std::fabs(v) <= 8)
      finite.push_back(uint8_t(code));
  }
  std::uniform_int_distribution<size_t> pick(0, finite.size() - 1);
  // Padding bytes of strided rows hold the NaN code: reading them shows.
  uint8_t nan = spec.fnuz ? 0x80 : 0x7f;
  std::vector<uint8_t> a(size_t(c.M) * lda, nan), bt(size_t(c.N) * ldb, nan);
  for (int m = 0; m < c.M; ++m)
    for (int k = 0; k < c.K; ++k)
      a[size_t(m) * lda + k] = finite[pick(rng)];
  for (int n = 0; n < c.N; ++n)
    for (int k = 0; k < c.K; ++k)
      bt[size_t(n) * ldb + k] = finite[pick(rng)];
  int kb = (c.K + 127) / 128, nb = (c.N + 127) / 128;
  int saRows = c.a == G::tensor ? 1 : c.M, saCols = c.a == G::blocks ? kb : 1;
  int sbRows = c.b == G::tensor ? 1 : c.b == G::rows ? c.N : nb, sbCols = c.b == G::blocks ? kb : 1;
  // f16 out: scales of at most 1/4, so that C stays inside f16's range.
  std::uniform_int_distribution<int> exponent(-6, c.out == DType::f16 ? -2 : 6);
  std::uniform_real_distribution<float> mantissa(1.f, 2.f);
  std::vector<float> sa(size_t(saRows) * saCols), sb(size_t(sbRows) * sbCols);
  for (auto &v : sa) v = std::ldexp(mantissa(rng), exponent(rng));
  for (auto &v : sb) v = std::ldexp(mantissa(rng), exponent(rng));
  std::normal_distribution<float> normal(0.f, 8.f);
  std::vector<float> biasF(c.N);
  for (auto &x : biasF) x = normal(rng);
  auto [biasBytes, biasV] = hostBias(c.bias, biasF);
  Buffer da = llvm::cantFail(Buffer::fromHost(d, a));
  Buffer db = llvm::cantFail(Buffer::fromHost(d, bt));
  Buffer dsa = llvm::cantFail(Buffer::fromHost(d, sa));
  Buffer dsb = llvm::cantFail(Buffer::fromHost(d, sb));
  Buffer dbias = llvm::cantFail(Buffer::fromHost(d, biasBytes.empty() ? std::vector<uint8_t>(4) : biasBytes));
  size_t outSize = dtypeSize(c.out);
  Buffer dc = llvm::cantFail(Buffer::allocate(d, size_t(c.M) * ldc * outSize));
  ASSERT_FALSE(bool(dc.fill(0xff)));

  ops::GemmOptions o;
  o.jit = s.jit.get();
  std::optional<VectorRef> biasRef;
  if (c.bias)
    biasRef = VectorRef(dbias, *c.bias, c.N);
  auto r = ops::gemmFp8({da, in, c.M, c.K, lda}, {db, in, c.N, c.K, ldb},
                        {dsa, DType::f32, saRows, saCols}, {dsb, DType::f32, sbRows, sbCols},
                        {dc, c.out, c.M, c.N, ldc}, biasRef, o);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());

  std::vector<uint8_t> out(dc.size());
  ASSERT_FALSE(bool(dc.read(out.data(), out.size())));
  auto saOf = [&](int m, int k) {
    return c.a == G::tensor ? sa[0] : c.a == G::rows ? sa[m] : sa[size_t(m) * kb + k];
  };
  auto sbOf = [&](int n, int k) {
    return c.b == G::tensor ? sb[0] : c.b == G::rows ? sb[n] : sb[size_t(n / 128) * kb + k];
  };
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
      if (n >= c.N) { // padding of C's rows: never written
        EXPECT_TRUE(std::isnan(got)) << "C[" << m << "][" << n << "] written";
        continue;
      }
      double ref = biasV[n], mag = std::fabs(biasV[n]);
      for (int q = 0; q < kb; ++q) {
        double blk = 0, blkMag = 0;
        for (int k = q * 128; k < std::min(c.K, q * 128 + 128); ++k) {
          double p = e2e::fp8Decode(a[size_t(m) * lda + k], spec) *
                     e2e::fp8Decode(bt[size_t(n) * ldb + k], spec);
          blk += p;
          blkMag += std::fabs(p);
        }
        double sc = double(saOf(m, q)) * double(sbOf(n, q));
        ref += blk * sc;
        mag += blkMag * std::fabs(sc);
      }
      // f32 sums (at most 128 + K/128 + 4 roundings of 2^-24 against the
      // magnitudes), then C's rounding.
      double outTol = c.out == DType::bf16 ? 0x1p-8 : c.out == DType::f16 ? 0x1p-11 : 0.0;
      double tol = (128.0 + kb + 4) * 0x1p-24 * mag + outTol * std::fabs(ref) + 1e-30;
      if (!(std::fabs(got - ref) <= tol) && ++bad <= 5)
        ADD_FAILURE() << "C[" << m << "][" << n << "] = " << got << ", reference " << ref
                      << " (tolerance " << tol << ")";
    }
  EXPECT_EQ(bad, 0);
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    // Each granularity; the 128x128 tile and the decode tile (M <= 64).
    all.push_back({chip, 130, 200, 384, G::blocks, G::blocks});
    all.push_back({chip, 7, 300, 520, G::blocks, G::blocks, DType::f32});
    all.push_back({chip, 96, 72, 256, G::rows, G::rows, DType::f16, DType::bf16});
    all.push_back({chip, 33, 40, 200, G::tensor, G::rows, DType::bf16, DType::f32});
    all.push_back({chip, 150, 64, 128, G::tensor, G::tensor, DType::f32});
    // K not a whole number of DMA units: both operands packed (gfx950's
    // 16 bytes, gfx942's 4); strides that aren't: that operand packed; C
    // strided (its padding never written).
    all.push_back({chip, 70, 90, 131, G::blocks, G::blocks});
    all.push_back({chip, 65, 129, 250, G::rows, G::tensor, DType::f32, std::nullopt, 262, 0, 0});
    all.push_back({chip, 40, 136, 272, G::blocks, G::blocks, DType::bf16, DType::f16, 0, 275, 140});
    all.push_back({chip, 1, 1, 1, G::tensor, G::tensor, DType::f32});
    // Decode with K split (the op's choice) and reduced into bf16 / f16
    // with the bias added once; a K not whole in DMA units packed as well.
    all.push_back({chip, 16, 200, 1200, G::blocks, G::blocks, DType::bf16, DType::bf16});
    all.push_back({chip, 3, 130, 1037, G::rows, G::rows, DType::f16, DType::f32});
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Emulated, GemmFp8OpTest, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return caseName(info.param); });

/// Bad arguments: one buffer set on gfx950, each case bends one thing.
class GemmFp8OpErrors : public ::testing::Test {
protected:
  void SetUp() override {
    Shared &s = Shared::get();
    d = &llvm::cantFail(s.rt->device("emu:gfx950"));
    other = &llvm::cantFail(s.rt->device("emu:gfx942"));
    auto buf = [&](Device &dev, size_t n) {
      return std::make_unique<Buffer>(llvm::cantFail(Buffer::allocate(dev, n)));
    };
    a = buf(*d, 64 * 256);
    bt = buf(*d, 200 * 256);
    c = buf(*d, 64 * 200 * 4);
    s1 = buf(*d, 64 * 2 * 4);
    s2 = buf(*d, 200 * 2 * 4);
    elsewhere = buf(*other, 1 << 16);
    ASSERT_FALSE(bool(a->fill(0)));
    ASSERT_FALSE(bool(bt->fill(0)));
    ASSERT_FALSE(bool(s1->fill(0)));
    ASSERT_FALSE(bool(s2->fill(0)));
    opts.jit = s.jit.get();
  }
  std::string run(MatrixRef ma, MatrixRef mb, MatrixRef sa, MatrixRef sb, MatrixRef mc,
                  std::optional<VectorRef> vb = std::nullopt) {
    auto r = ops::gemmFp8(ma, mb, sa, sb, mc, vb, opts);
    if (r)
      return "(launched)";
    return llvm::toString(r.takeError());
  }
  MatrixRef A() { return {*a, DType::e4m3fn, 64, 256}; }
  MatrixRef B() { return {*bt, DType::e4m3fn, 200, 256}; }
  MatrixRef C() { return {*c, DType::bf16, 64, 200}; }
  MatrixRef SA() { return {*s1, DType::f32, 64, 2}; }
  MatrixRef SB() { return {*s2, DType::f32, 2, 2}; }
  Device *d, *other;
  std::unique_ptr<Buffer> a, bt, c, s1, s2, elsewhere;
  ops::GemmOptions opts;
};

TEST_F(GemmFp8OpErrors, Valid) {
  EXPECT_EQ(run(A(), B(), SA(), SB(), C()), "(launched)");
  // Per token with per channel, per tensor with per channel.
  EXPECT_EQ(run(A(), B(), {*s1, DType::f32, 64, 1}, {*s2, DType::f32, 200, 1}, C()), "(launched)");
  EXPECT_EQ(run(A(), B(), {*s1, DType::f32, 1, 1}, {*s2, DType::f32, 200, 1}, C()), "(launched)");
}

TEST_F(GemmFp8OpErrors, Formats) {
  EXPECT_EQ(run({*a, DType::bf16, 64, 128}, B(), SA(), SB(), C()),
            "gemm_fp8: A is bf16; A and Bt must be FP8 e4m3 (e4m3fn on gfx950)");
  EXPECT_EQ(run(A(), {*bt, DType::e4m3fnuz, 200, 256}, SA(), SB(), C()),
            "gemm_fp8: Bt is e4m3fnuz, but gfx950's matrix cores take e4m3fn (e4m3fn: "
            "gfx950, OCP; e4m3fnuz: gfx942, FNUZ); convert the codes or run on the other chip");
  EXPECT_EQ(run(A(), B(), {*s1, DType::bf16, 64, 2}, SB(), C()),
            "gemm_fp8: A's scale is bf16; scales must be f32");
  EXPECT_EQ(run(A(), B(), SA(), SB(), {*c, DType::i32, 64, 200}),
            "gemm_fp8: C is i32; C must be bf16, f16 or f32");
  EXPECT_EQ(run(A(), B(), SA(), SB(), C(), VectorRef(*c, DType::e4m3fn, 200)),
            "gemm_fp8: bias is e4m3fn; the bias must be bf16, f16 or f32");
}

TEST_F(GemmFp8OpErrors, ScaleShapes) {
  EXPECT_EQ(run(A(), B(), {*s1, DType::f32, 64, 3}, SB(), C()),
            "gemm_fp8: A's scale is 64x3; for A of 64 rows and K in 2 blocks of 128 it must "
            "be 1x1 (per tensor), 64x1 (per token) or 64x2 (1x128 blocks)");
  EXPECT_EQ(run(A(), B(), SA(), {*s2, DType::f32, 200, 2}, C()),
            "gemm_fp8: Bt's scale is 200x2; for Bt of 200 rows and K in 2 blocks of 128 it "
            "must be 1x1 (per tensor), 200x1 (per channel) or 2x2 (128x128 blocks)");
  EXPECT_EQ(run(A(), B(), SA(), {*s2, DType::f32, 200, 1}, C()),
            "gemm_fp8: A's scale (64x2) is over 1x128 blocks but Bt's (200x1) is per row; "
            "block scales need both operands' in blocks (Bt's 2x2)");
  EXPECT_EQ(run(A(), B(), {*s1, DType::f32, 1, 1}, SB(), C()),
            "gemm_fp8: Bt's scale (2x2) is over 128x128 blocks but A's (1x1) is per tensor; "
            "block scales need both operands' in blocks (A's 64x2)");
  EXPECT_EQ(run(A(), B(), {*s1, DType::f32, 64, 2, 3}, SB(), C()),
            "gemm_fp8: A's scale (64x2) has leading dimension 3; scales must be packed rows "
            "(leading dimension 2)");
  Buffer tiny = llvm::cantFail(Buffer::allocate(*d, 8));
  EXPECT_EQ(run(A(), B(), {tiny, DType::f32, 64, 2}, SB(), C()),
            "gemm_fp8: A's scale (64x2, leading dimension 2, f32) needs 512 bytes; its "
            "buffer has 8");
}

TEST_F(GemmFp8OpErrors, Params) {
  opts.params = {"WN=96"};
  EXPECT_EQ(run(A(), B(), SA(), SB(), C()),
            "gemm_fp8: WN=96 does not divide 128: with block scales a wave's columns of C "
            "must lie in one 128-row block of Bt's");
  opts.params = {"WM=32", "WN=32", "WGM=4", "WGN=1"};
  EXPECT_EQ(run(A(), B(), SA(), SB(), C()), "(launched)");
}

TEST_F(GemmFp8OpErrors, Shapes) {
  EXPECT_EQ(run(A(), {*bt, DType::e4m3fn, 200, 128}, SA(), SB(), C()),
            "gemm_fp8: A is 64x256 but Bt is 200x128; both need K columns");
  EXPECT_EQ(run(A(), B(), SA(), SB(), {*c, DType::bf16, 64, 199}),
            "gemm_fp8: C is 64x199; expected 64x200 (A's rows x Bt's rows)");
  EXPECT_EQ(run({*a, DType::e4m3fn, 0, 256}, B(), SA(), SB(), C()),
            "gemm_fp8: A is 0x256; every dimension must be positive");
  EXPECT_EQ(run(A(), B(), SA(), SB(), C(), VectorRef(*c, DType::f32, 100)),
            "gemm_fp8: bias has 100 elements; expected N = 200");
}

TEST_F(GemmFp8OpErrors, Devices) {
  EXPECT_EQ(run(A(), B(), SA(), {*elsewhere, DType::f32, 2, 2}, C()),
            "gemm_fp8: Bt's scale is on emu:gfx942 but A is on emu:gfx950; all operands "
            "must be on one device");
  MatrixRef none;
  EXPECT_EQ(run(A(), B(), none, SB(), C()), "gemm_fp8: A's scale has no buffer");
}

TEST(GemmFp8Params, PerChipAndSize) {
  using V = std::vector<std::string>;
  EXPECT_EQ(ops::gemmFp8Params(Chip::gfx950, DType::bf16, G::blocks, G::blocks, std::nullopt,
                               {4096, 4096, 4096}),
            (V{"DTYPE=f8E4M3FN", "OUT=bf16", "ASCALE=2", "BSCALE=2", "HAS_BIAS=0", "WM=64",
               "WN=64", "WGM=2", "WGN=2", "KS=64", "SWZ=8", "WIDE=1"}));
  EXPECT_EQ(ops::gemmFp8Params(Chip::gfx942, DType::f32, G::rows, G::tensor, DType::bf16,
                               {16, 4096, 4096}, {"KS=32"}),
            (V{"DTYPE=f8E4M3FNUZ", "OUT=f32", "ASCALE=1", "BSCALE=0", "HAS_BIAS=0", "WM=32",
               "WN=32", "WGM=1", "WGN=4", "SWZ=8", "WIDE=0", "SPLITK=8", "KS=32"}));
  // Decode splits K: 32 tiles of 304 slots, 32 blocks of K in shares of at
  // least 4 (8 splits; the reduction adds the bias); given SPLITK=1, none.
  EXPECT_EQ(ops::gemmFp8Params(Chip::gfx950, DType::bf16, G::blocks, G::blocks, DType::f32,
                               {16, 4608, 7168}),
            (V{"DTYPE=f8E4M3FN", "OUT=f32", "ASCALE=2", "BSCALE=2", "HAS_BIAS=0", "WM=32",
               "WN=32", "WGM=1", "WGN=4", "KS=64", "SWZ=8", "WIDE=1", "SPLITK=14"}));
  EXPECT_EQ(ops::gemmFp8Params(Chip::gfx950, DType::bf16, G::blocks, G::blocks, std::nullopt,
                               {16, 4608, 7168}, {"SPLITK=1"}),
            (V{"DTYPE=f8E4M3FN", "OUT=bf16", "ASCALE=2", "BSCALE=2", "HAS_BIAS=0", "WM=32",
               "WN=32", "WGM=1", "WGN=4", "KS=64", "SWZ=8", "WIDE=1", "SPLITK=1"}));
}

} // namespace

//===----------------------------------------------------------------------===//
// int8 (ops::gemmInt8): exact integer sums, so the reference is exact and
// the bound is the f32 conversion, scaling and C's rounding alone.
//===----------------------------------------------------------------------===//

namespace {

struct Int8Case {
  Chip chip;
  int M, N, K;
  bool aRows, bRows; // per row, else per tensor
  DType out = DType::bf16;
  std::optional<DType> bias;
  int lda = 0, ldb = 0;
};

class GemmInt8OpTest : public ::testing::TestWithParam<Int8Case> {};

TEST_P(GemmInt8OpTest, MatchesExactReference) {
  const Int8Case &c = GetParam();
  Shared &s = Shared::get();
  Device &d = llvm::cantFail(s.rt->device(c.chip == Chip::gfx942 ? "emu:gfx942" : "emu:gfx950"));
  int lda = c.lda ? c.lda : c.K, ldb = c.ldb ? c.ldb : c.K;
  std::mt19937 rng(c.M * 131 + c.N * 7 + c.K);
  std::uniform_int_distribution<int> byte(-128, 127);
  // Padding of strided rows holds 127: reading it would show.
  std::vector<int8_t> a(size_t(c.M) * lda, 127), bt(size_t(c.N) * ldb, 127);
  for (int m = 0; m < c.M; ++m)
    for (int k = 0; k < c.K; ++k)
      a[size_t(m) * lda + k] = int8_t(byte(rng));
  for (int n = 0; n < c.N; ++n)
    for (int k = 0; k < c.K; ++k)
      bt[size_t(n) * ldb + k] = int8_t(byte(rng));
  std::uniform_real_distribution<float> unit(0.5f, 2.f);
  std::vector<float> sa(c.aRows ? c.M : 1), sb(c.bRows ? c.N : 1), bias(c.N);
  for (auto &v : sa) v = unit(rng) * 1e-3f;
  for (auto &v : sb) v = unit(rng) * 1e-2f;
  for (auto &v : bias) v = unit(rng) - 1.25f;
  auto [biasBytes, biasV] = hostBias(c.bias, bias);
  Buffer da = llvm::cantFail(Buffer::fromHost(d, a));
  Buffer db = llvm::cantFail(Buffer::fromHost(d, bt));
  Buffer dsa = llvm::cantFail(Buffer::fromHost(d, sa));
  Buffer dsb = llvm::cantFail(Buffer::fromHost(d, sb));
  Buffer dbias = llvm::cantFail(
      Buffer::fromHost(d, biasBytes.empty() ? std::vector<uint8_t>(4) : biasBytes));
  Buffer dc = llvm::cantFail(Buffer::allocate(d, size_t(c.M) * c.N * dtypeSize(c.out)));
  ASSERT_FALSE(bool(dc.fill(0xff)));
  ops::GemmOptions o;
  o.jit = s.jit.get();
  std::optional<VectorRef> biasRef;
  if (c.bias)
    biasRef = VectorRef(dbias, *c.bias, c.N);
  auto r = ops::gemmInt8({da, DType::i8, c.M, c.K, lda}, {db, DType::i8, c.N, c.K, ldb},
                         {dsa, DType::f32, int64_t(sa.size()), 1},
                         {dsb, DType::f32, int64_t(sb.size()), 1}, {dc, c.out, c.M, c.N}, biasRef,
                         o);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  std::vector<uint8_t> out(dc.size());
  ASSERT_FALSE(bool(dc.read(out.data(), out.size())));
  int bad = 0;
  for (int m = 0; m < c.M; ++m)
    for (int n = 0; n < c.N; ++n) {
      int64_t sum = 0;
      for (int k = 0; k < c.K; ++k)
        sum += int64_t(a[size_t(m) * lda + k]) * int64_t(bt[size_t(n) * ldb + k]);
      double sc = double(sa[c.aRows ? m : 0]) * double(sb[c.bRows ? n : 0]);
      double ref = double(sum) * sc + biasV[n];
      size_t i = size_t(m) * c.N + n;
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
      double outUlp = c.out == DType::bf16 ? 0x1p-8 : c.out == DType::f16 ? 0x1p-11 : 0.0;
      double tol = 5 * 0x1p-24 * (std::fabs(double(sum) * sc) + std::fabs(biasV[n])) +
                   outUlp * std::fabs(ref) + 1e-30;
      if (!(std::fabs(got - ref) <= tol) && ++bad <= 5)
        ADD_FAILURE() << "C[" << m << "][" << n << "] = " << got << ", reference " << ref;
    }
  EXPECT_EQ(bad, 0);
}

std::vector<Int8Case> int8Cases() {
  std::vector<Int8Case> all;
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    all.push_back({chip, 130, 200, 384, true, true});
    all.push_back({chip, 7, 300, 520, true, false, DType::f32});
    all.push_back({chip, 70, 90, 131, false, true, DType::f16, DType::bf16}); // K packed
    all.push_back({chip, 65, 129, 250, true, true, DType::f32, DType::f32, 262, 0}); // A packed
    all.push_back({chip, 1, 1, 1, false, false, DType::f32});
    all.push_back({chip, 16, 200, 1200, true, true, DType::bf16, DType::f16}); // K split
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Emulated, GemmInt8OpTest, ::testing::ValuesIn(int8Cases()),
                         [](const auto &info) {
                           const Int8Case &c = info.param;
                           return getChipInfo(c.chip).name.str() + "_" + std::to_string(c.M) +
                                  "x" + std::to_string(c.N) + "x" + std::to_string(c.K) + "_" +
                                  (c.aRows ? "r" : "t") + (c.bRows ? "r" : "t") + "_" +
                                  dtypeName(c.out).str() + (c.bias ? "_bias" : "") +
                                  (c.lda ? "_strided" : "");
                         });

TEST_F(GemmFp8OpErrors, Int8) {
  auto run8 = [&](MatrixRef ma, MatrixRef mb, MatrixRef sa, MatrixRef sb, MatrixRef mc) {
    auto r = ops::gemmInt8(ma, mb, sa, sb, mc, std::nullopt, opts);
    return r ? std::string("(launched)") : llvm::toString(r.takeError());
  };
  MatrixRef ia{*a, DType::i8, 64, 256}, ib{*bt, DType::i8, 200, 256};
  MatrixRef rowsA{*s1, DType::f32, 64, 1}, rowsB{*s2, DType::f32, 200, 1};
  EXPECT_EQ(run8(ia, ib, rowsA, rowsB, C()), "(launched)");
  EXPECT_EQ(run8(A(), ib, rowsA, rowsB, C()), "gemm_i8: A is e4m3fn; A and Bt must be i8");
  EXPECT_EQ(run8(ia, ib, SA(), SB(), C()),
            "gemm_i8: A's scale (64x2) and Bt's (2x2) are over 128-deep blocks; the int8 GEMM "
            "takes per-tensor (1x1) and per-row (Mx1, Nx1) scales");
  EXPECT_EQ(run8(ia, ib, {*s1, DType::f32, 64, 3}, rowsB, C()),
            "gemm_i8: A's scale is 64x3; for A of 64 rows and K in 2 blocks of 128 it must be "
            "1x1 (per tensor), 64x1 (per token) or 64x2 (1x128 blocks)");
}

TEST(GemmInt8Params, BothChips) {
  using V = std::vector<std::string>;
  EXPECT_EQ(ops::gemmInt8Params(Chip::gfx942, DType::bf16, G::rows, G::rows, std::nullopt,
                                {4096, 4096, 4096}),
            (V{"DTYPE=i8", "ACC=i32", "OUT=bf16", "ASCALE=1", "BSCALE=1", "HAS_BIAS=0", "WM=64",
               "WN=64", "WGM=2", "WGN=2", "KS=64", "SWZ=8", "WIDE=0"}));
  EXPECT_EQ(ops::gemmInt8Params(Chip::gfx950, DType::f32, G::tensor, G::rows, std::nullopt,
                                {32, 4096, 4096}, {"KS=32"}),
            (V{"DTYPE=i8", "ACC=i32", "OUT=f32", "ASCALE=0", "BSCALE=1", "HAS_BIAS=0", "WM=32",
               "WN=32", "WGM=1", "WGN=4", "SWZ=8", "WIDE=1", "SPLITK=8", "KS=32"}));
}

} // namespace
