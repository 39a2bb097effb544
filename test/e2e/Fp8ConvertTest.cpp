//===- Fp8ConvertTest.cpp - tile.convert to and from FP8, bit for bit ------===//
//
// A kernel that converts f32 -> FP8 and FP8 -> f32 with tile.convert,
// compiled by kcc for each chip and each of its FP8 formats (gfx942: the
// FNUZ f8E4M3FNUZ and f8E5M2FNUZ, gfx950: OCP's f8E4M3FN and f8E5M2), and run
// on the emulator:
//  - every one of the 256 codes is widened to f32 and must give the value
//    the format's definition gives it (NaN codes a NaN, OCP's 0x80 -0.0);
//  - a sweep of f32 values must round to nearest even with saturation:
//    every representable value, every midpoint between neighbours (ties, to
//    the even code) and the floats next to it, values past the largest
//    finite one (up to infinity: saturated), the least subnormal's half,
//    f32 denormals, signed zeros, NaNs, and random bits.
// With fast_rounding (no clamp) the same sweep must round the same way
// within the range and overflow past it as OCP's non-saturating mode says
// (infinity for OCP E5M2, NaN otherwise).
// The reference is Fp8Reference.h, written from the specs. The lanes hold
// 1, 3 or 8 elements (R) in one layout and 4 or 8 (R4, four adjacent bytes
// per lane) in another, so that the packing of pairs into words meets odd
// counts, a half-used word and whole words, and the byte loads and stores
// move 1 and 4 bytes.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "target/ParamBinding.h"
#include "target/CodeObject.h"
#include "test/e2e/CompileForTest.h"
#include "test/e2e/EmulatedDevice.h"
#include "test/e2e/Fp8Reference.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>

using namespace kcc;
using kcc::e2e::Fp8Spec;

namespace {

constexpr const char kSource[] = R"(
tile.type_param_decl @DT = f8E4M3FN of [f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ]
tile.param_decl @R : i64 = 1
tile.param_decl @R4 : i64 = 4
!f1 = !tile.tile<[R, 64], f32, #tile.blocked<[1, 1], [1, 64]>>
!q1 = !tile.tile<[R, 64], !tile.dtype<"DT">, #tile.blocked<[1, 1], [1, 64]>>
!f4 = !tile.tile<[R4, 64], f32, #tile.blocked<[1, 4], [4, 16]>>
!q4 = !tile.tile<[R4, 64], !tile.dtype<"DT">, #tile.blocked<[1, 4], [4, 16]>>
!pf = !tile.ptr<f32>
!pq = !tile.ptr<!tile.dtype<"DT">>
!bf = !tile.buffer<f32>
!bq = !tile.buffer<!tile.dtype<"DT">>

// Workgroup g converts rows g*R .. g*R+R-1 of 64 columns: values from src
// to FP8 codes in enc, codes from codes to f32 values in dec.
func.func @cvt1(%src: !pf, %enc: !pq, %codes: !pq, %dec: !pf, %n: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %rows = tile.param @R : index
  %g = tile.program_id 0
  %row = arith.muli %g, %rows : index
  %s = tile.make_buffer %src, %n : !pf -> !bf
  %e = tile.make_buffer %enc, %n : !pq -> !bq
  %c = tile.make_buffer %codes, %n : !pq -> !bq
  %d = tile.make_buffer %dec, %n : !pf -> !bf
  %x = tile.load %s[%row, %c0] stride %c64 : !bf -> !f1
  %q = tile.convert %x : !f1 -> !q1
  tile.store %q, %e[%row, %c0] stride %c64 : !q1, !bq
  %y = tile.load %c[%row, %c0] stride %c64 : !bq -> !q1
  %w = tile.convert %y : !q1 -> !f1
  tile.store %w, %d[%row, %c0] stride %c64 : !f1, !bf
  return
}

// cvt1 with fast_rounding: no clamp, so values past the format's range
// overflow as the instruction makes them.
func.func @cvt1fast(%src: !pf, %enc: !pq, %codes: !pq, %dec: !pf, %n: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %rows = tile.param @R : index
  %g = tile.program_id 0
  %row = arith.muli %g, %rows : index
  %s = tile.make_buffer %src, %n : !pf -> !bf
  %e = tile.make_buffer %enc, %n : !pq -> !bq
  %c = tile.make_buffer %codes, %n : !pq -> !bq
  %d = tile.make_buffer %dec, %n : !pf -> !bf
  %x = tile.load %s[%row, %c0] stride %c64 : !bf -> !f1
  %q = tile.convert %x fast_rounding : !f1 -> !q1
  tile.store %q, %e[%row, %c0] stride %c64 : !q1, !bq
  %y = tile.load %c[%row, %c0] stride %c64 : !bq -> !q1
  %w = tile.convert %y : !q1 -> !f1
  tile.store %w, %d[%row, %c0] stride %c64 : !f1, !bf
  return
}

func.func @cvt4(%src: !pf, %enc: !pq, %codes: !pq, %dec: !pf, %n: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %rows = tile.param @R4 : index
  %g = tile.program_id 0
  %row = arith.muli %g, %rows : index
  %s = tile.make_buffer %src, %n : !pf -> !bf
  %e = tile.make_buffer %enc, %n : !pq -> !bq
  %c = tile.make_buffer %codes, %n : !pq -> !bq
  %d = tile.make_buffer %dec, %n : !pf -> !bf
  %x = tile.load %s[%row, %c0] stride %c64 : !bf -> !f4
  %q = tile.convert %x : !f4 -> !q4
  tile.store %q, %e[%row, %c0] stride %c64 : !q4, !bq
  %y = tile.load %c[%row, %c0] stride %c64 : !bq -> !q4
  %w = tile.convert %y : !q4 -> !f4
  tile.store %w, %d[%row, %c0] stride %c64 : !f4, !bf
  return
}
)";

float asFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t asBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/// The f32 values the encoder must get right for format `f`.
std::vector<float> sweep(const Fp8Spec &f) {
  std::vector<double> finite; // every finite non-negative value, ascending
  for (int c = 0; c < 0x80; ++c) {
    double v = kcc::e2e::fp8Decode(uint8_t(c), f);
    if (!std::isnan(v) && !std::isinf(v))
      finite.push_back(v);
  }
  std::vector<float> out;
  auto both = [&](float v) {
    out.push_back(v);
    out.push_back(-v);
  };
  auto around = [&](double v) { // v and the floats either side of it
    float x = float(v);
    both(x);
    both(std::nextafter(x, 0.0f));
    both(std::nextafter(x, INFINITY));
  };
  for (size_t i = 0; i < finite.size(); ++i) {
    around(finite[i]);
    if (i + 1 < finite.size())
      around((finite[i] + finite[i + 1]) / 2); // a tie (exact in f32)
  }
  // Past the largest finite value: what the next binade's first value
  // would be, the tie between it and the largest, and far beyond.
  double max = finite.back(), step = max - finite[finite.size() - 2];
  around(max + step / 2);
  around(max + step);
  around(2 * max);
  both(1e30f);
  both(FLT_MAX);
  both(INFINITY);
  // Below the least subnormal: half of it ties to zero, a bit more rounds up.
  around(finite[1] / 2);
  around(finite[1] / 4);
  both(asFloat(0x00000001)); // f32 denormals
  both(asFloat(0x007fffff));
  both(0.0f);
  for (uint32_t nan : {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fffffffu})
    out.push_back(asFloat(nan));
  std::mt19937 rng(23);
  for (int i = 0; i < 2048; ++i)
    out.push_back(asFloat(rng()));
  // Values in the format's range, so that random bits are not mostly
  // saturated or zero.
  std::uniform_real_distribution<double> mag(std::log2(finite[1]) - 1, std::log2(max) + 1);
  for (int i = 0; i < 2048; ++i)
    out.push_back(float((i & 1 ? -1 : 1) * std::exp2(mag(rng))));
  return out;
}

struct Case {
  Chip chip;
  Fp8Spec format;
  int rows, rows4;
};

/// gtest names a failing case by this, not by its bytes.
void PrintTo(const Case &c, std::ostream *os) {
  *os << getChipInfo(c.chip).name.str() << " " << c.format.name << " R=" << c.rows
      << " R4=" << c.rows4;
}

class Fp8ConvertTest : public ::testing::TestWithParam<Case> {};

TEST_P(Fp8ConvertTest, BitExactAgainstTheSpec) {
  const Case &c = GetParam();
  auto hsaco = kcc::e2e::compileForTest(
      kSource, "fp8-cvt.mlir", c.chip,
      {std::string("DT=") + c.format.name, "R=" + std::to_string(c.rows),
       "R4=" + std::to_string(c.rows4)});
  ASSERT_TRUE(bool(hsaco)) << llvm::toString(hsaco.takeError());

  auto dev = kcc::e2e::EmulatedDevice::open(c.chip);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  kcc::Device &d = **dev;
  std::vector<float> values = sweep(c.format);
  for (const char *kernel : {"cvt1", "cvt4", "cvt1fast"}) {
    SCOPED_TRACE(kernel);
    bool fast = std::string(kernel) == "cvt1fast";
    int rows = std::string(kernel) == "cvt4" ? c.rows4 : c.rows;
    size_t block = size_t(rows) * 64;
    size_t n = (values.size() + block - 1) / block * block;
    std::vector<float> src(values);
    src.resize(n, 0.0f);
    std::vector<uint8_t> codes(n);
    for (size_t i = 0; i < n; ++i)
      codes[i] = uint8_t(i);
    uint64_t dsrc = llvm::cantFail(d.allocate(n * 4)), denc = llvm::cantFail(d.allocate(n)),
             dcodes = llvm::cantFail(d.allocate(n)), ddec = llvm::cantFail(d.allocate(n * 4));
    ASSERT_FALSE(bool(d.copyToDevice(dsrc, src.data(), n * 4)));
    ASSERT_FALSE(bool(d.copyToDevice(dcodes, codes.data(), n)));
    ASSERT_FALSE(bool(d.memset(denc, 0x55, n)));
    // Kernel arguments by the metadata's slots: src, enc, codes, dec, n.
    auto co = kcc::CodeObject::parse(*hsaco);
    ASSERT_TRUE(bool(co)) << llvm::toString(co.takeError());
    const kcc::KernelInfo *info = co->findKernel(kernel);
    ASSERT_NE(info, nullptr);
    std::vector<const kcc::KernelArg *> slots = info->explicitArgs();
    ASSERT_EQ(slots.size(), 5u);
    std::vector<uint8_t> args(info->explicitArgsSize(), 0);
    uint64_t ptrs[4] = {dsrc, denc, dcodes, ddec};
    for (int i = 0; i < 4; ++i)
      std::memcpy(&args[slots[i]->offset], &ptrs[i], 8);
    int32_t count = int32_t(n);
    std::memcpy(&args[slots[4]->offset], &count, 4);
    kcc::LaunchConfig launch;
    launch.grid = {uint32_t(n / block), 1, 1};
    launch.block = {64, 1, 1};
    auto stats = dev->launch(*hsaco, kernel, launch, args);
    ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
    std::vector<uint8_t> enc(n);
    std::vector<float> dec(n);
    ASSERT_FALSE(bool(d.copyFromDevice(enc.data(), denc, n)));
    ASSERT_FALSE(bool(d.copyFromDevice(dec.data(), ddec, n * 4)));

    int bad = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      int want = fast ? kcc::e2e::fp8EncodeNonSaturating(values[i], c.format)
                      : kcc::e2e::fp8EncodeSaturating(values[i], c.format);
      bool ok = want < 0 ? kcc::e2e::fp8IsNan(enc[i], c.format) : enc[i] == want;
      if (!ok && ++bad <= 10)
        ADD_FAILURE() << "f32 0x" << std::hex << asBits(values[i]) << " (" << values[i]
                      << ") -> " << c.format.name << " gave 0x" << int(enc[i])
                      << ", expected 0x" << want;
    }
    for (int code = 0; code < 256; ++code) {
      double want = kcc::e2e::fp8Decode(uint8_t(code), c.format);
      float got = dec[code];
      bool ok = std::isnan(want) ? std::isnan(got)
                                 : asBits(got) == asBits(float(want));
      if (!ok && ++bad <= 10)
        ADD_FAILURE() << c.format.name << " 0x" << std::hex << code << " -> f32 gave "
                      << got << " (0x" << asBits(got) << "), expected " << want;
    }
    EXPECT_EQ(bad, 0);
  }
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (auto [chip, formats] :
       {std::pair{Chip::gfx942, std::pair{kcc::e2e::kE4M3FNUZ, kcc::e2e::kE5M2FNUZ}},
        std::pair{Chip::gfx950, std::pair{kcc::e2e::kE4M3FN, kcc::e2e::kE5M2}}})
    for (const Fp8Spec &f : {formats.first, formats.second})
      for (auto [r, r4] : {std::pair{1, 4}, std::pair{3, 8}})
        out.push_back({chip, f, r, r4});
  return out;
}

INSTANTIATE_TEST_SUITE_P(
    Formats, Fp8ConvertTest, ::testing::ValuesIn(cases()), [](const auto &info) {
      const Case &c = info.param;
      return std::string(getChipInfo(c.chip).name) + "_" + c.format.name + "_R" +
             std::to_string(c.rows) + "_" + std::to_string(c.rows4);
    });

} // namespace
