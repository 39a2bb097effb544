//===- ConvertTest.cpp - tile.convert's bf16 rounding, bit for bit ---------===//
//
// A kernel of one tile.convert f32 -> bf16 per element, with and without
// `fast_rounding` (and with `ties_any`), compiled by kcc for both chips and
// run on the emulator on
// values chosen to catch a wrong rounding: ties to even in both directions,
// values just above and below ties, the largest finite values (which round
// to infinity), infinities, zeros, denormals, NaNs, and random bits.
// Every result is compared with round-to-nearest-even computed here from
// the bits. (gfx942 has no bf16 conversion instruction: without
// fast_rounding LLVM's expansion runs, with it kcc's integer rounding;
// gfx950's v_cvt_pk_bf16_f32 serves both.) With `ties_any` exact ties go
// away from zero on gfx942 and to even on gfx950; every other value as
// round to nearest even.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "target/CodeObject.h"
#include "test/e2e/CompileForTest.h"
#include "test/e2e/EmulatedDevice.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace kcc;

namespace {

constexpr const char kSource[] = R"(
!t32 = !tile.tile<[4, 64], f32, #tile.blocked<[1, 1], [1, 64]>>
!t16 = !tile.tile<[4, 64], bf16, #tile.blocked<[1, 1], [1, 64]>>
func.func @cvt(%src: !tile.ptr<f32>, %exact: !tile.ptr<bf16>, %fast: !tile.ptr<bf16>,
               %ties: !tile.ptr<bf16>)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %s = tile.make_buffer %src, %c256 : !tile.ptr<f32> -> !tile.buffer<f32>
  %e = tile.make_buffer %exact, %c256 : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %f = tile.make_buffer %fast, %c256 : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %x = tile.load %s[%c0, %c0] stride %c64 : !tile.buffer<f32> -> !t32
  %a = tile.convert %x : !t32 -> !t16
  %b = tile.convert %x fast_rounding : !t32 -> !t16
  %c = tile.convert %x fast_rounding ties_any : !t32 -> !t16
  %t = tile.make_buffer %ties, %c256 : !tile.ptr<bf16> -> !tile.buffer<bf16>
  tile.store %a, %e[%c0, %c0] stride %c64 : !t16, !tile.buffer<bf16>
  tile.store %b, %f[%c0, %c0] stride %c64 : !t16, !tile.buffer<bf16>
  tile.store %c, %t[%c0, %c0] stride %c64 : !t16, !tile.buffer<bf16>
  return
}
)";

/// Round to nearest even on the bits, for numbers; NaNs stay NaNs.
uint16_t bf16Rne(uint32_t bits) {
  if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu))
    return 0xffff; // any NaN: checked as "is a NaN" below
  uint32_t lsb = (bits >> 16) & 1;
  return uint16_t((uint64_t(bits) + 0x7fff + lsb) >> 16);
}

bool isBf16Nan(uint16_t h) { return (h & 0x7f80) == 0x7f80 && (h & 0x7f); }

class ConvertTest : public ::testing::TestWithParam<Chip> {};

TEST_P(ConvertTest, Bf16RoundsToNearestEven) {
  Chip chip = GetParam();
  auto hsaco = e2e::compileForTest(kSource, "cvt.mlir", chip);
  ASSERT_TRUE(bool(hsaco)) << llvm::toString(hsaco.takeError());

  std::vector<uint32_t> in = {
      0x3f800000, 0x3f808000, 0x3f818000, 0x3f808001, 0x3f807fff, // 1, ties, off-ties
      0xbf808000, 0xbf818000, 0x7f7fffff, 0xff7fffff, 0x7f7f7fff, // negative, max finite
      0x7f800000, 0xff800000, 0x00000000, 0x80000000,             // inf, zeros
      0x00000001, 0x00008000, 0x00018000, 0x007fffff, 0x80008001, // denormals
      0x7fc00000, 0xffc00001, 0x7fffffff,                         // quiet NaNs
  };
  std::mt19937 rng(7);
  while (in.size() < 256)
    in.push_back(rng());
  auto dev = kcc::e2e::EmulatedDevice::open(chip);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  kcc::Device &d = **dev;
  uint64_t dsrc = llvm::cantFail(d.allocate(256 * 4));
  uint64_t dexact = llvm::cantFail(d.allocate(256 * 2));
  uint64_t dfast = llvm::cantFail(d.allocate(256 * 2));
  uint64_t dties = llvm::cantFail(d.allocate(256 * 2));
  ASSERT_FALSE(bool(d.copyToDevice(dsrc, in.data(), 256 * 4)));
  std::vector<uint8_t> args(32);
  std::memcpy(&args[0], &dsrc, 8);
  std::memcpy(&args[8], &dexact, 8);
  std::memcpy(&args[16], &dfast, 8);
  std::memcpy(&args[24], &dties, 8);
  kcc::LaunchConfig launch;
  launch.grid = {1, 1, 1};
  launch.block = {64, 1, 1};
  auto stats = dev->launch(*hsaco, "cvt", launch, args);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  std::vector<uint16_t> exact(256), fast(256), ties(256);
  ASSERT_FALSE(bool(d.copyFromDevice(exact.data(), dexact, 256 * 2)));
  ASSERT_FALSE(bool(d.copyFromDevice(fast.data(), dfast, 256 * 2)));
  ASSERT_FALSE(bool(d.copyFromDevice(ties.data(), dties, 256 * 2)));
  int bad = 0;
  for (int i = 0; i < 256; ++i) {
    uint16_t want = bf16Rne(in[i]);
    // fast_rounding promises numbers and the canonical quiet NaN (what
    // v_exp_f32 returns) only: a NaN with a large payload may carry into
    // the exponent or the sign.
    bool canonicalNan = (in[i] & 0x7fffffffu) == 0x7fc00000u;
    for (auto [name, got] : {std::pair{"convert", exact[i]}, {"fast_rounding", fast[i]}}) {
      if (want == 0xffff && !canonicalNan && std::string(name) == "fast_rounding")
        continue;
      bool ok = want == 0xffff ? isBf16Nan(got) : got == want;
      if (!ok && ++bad <= 8)
        ADD_FAILURE() << name << " of 0x" << std::hex << in[i] << " gave 0x" << got
                      << ", expected 0x" << want;
    }
    // ties_any: an exact tie (dropped bits 0x8000) rounds away from zero on
    // gfx942 (its magnitude up), to even on gfx950; the rest as above (with
    // fast_rounding's NaN promise).
    if (want == 0xffff && !canonicalNan)
      continue;
    uint16_t wantTies = want;
    if (chip == Chip::gfx942 && want != 0xffff && (in[i] & 0xffffu) == 0x8000u)
      wantTies = uint16_t((in[i] >> 16) + 1);
    bool ok = want == 0xffff ? isBf16Nan(ties[i]) : ties[i] == wantTies;
    if (!ok && ++bad <= 8)
      ADD_FAILURE() << "ties_any of 0x" << std::hex << in[i] << " gave 0x" << ties[i]
                    << ", expected 0x" << wantTies;
  }
  EXPECT_EQ(bad, 0);
  // The inputs hold ties that round differently either way (0x3f808000 to
  // even is 0x3f80, away 0x3f81): the test tells the two apart.
  EXPECT_EQ(ties[1], chip == Chip::gfx942 ? 0x3f81 : 0x3f80);
}

INSTANTIATE_TEST_SUITE_P(Chips, ConvertTest, ::testing::Values(Chip::gfx942, Chip::gfx950),
                         [](const auto &info) { return std::string(getChipInfo(info.param).name); });

} // namespace
