//===- StoreLayoutTest.cpp - tile.store of every layout, both orientations ---===//
//
// A tile is loaded from a row-major array and stored, plainly or
// transposed, into another at an offset origin; the host computes where
// every element must land and checks every element of the destination,
// the untouched ones included. The stores take different paths by layout,
// element width and chip: one instruction per run of contiguous registers
// (up to 16 bytes; with bounds, one per element, or per run where the
// column bound is a constant past every column), and, where the two halves of a lane bit hold
// neighbouring runs (an MFMA accumulator stored transposed, 16-bit
// elements), runs doubled by v_permlane32_swap / v_permlane16_swap on
// gfx950 before 16-byte stores (test/ISA/store-lane-halves.mlir pins
// those instructions; this test pins where the elements go).
//
//===----------------------------------------------------------------------===//
#include "test/e2e/CompileForTest.h"
#include "test/e2e/EmulatedDevice.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace kcc;

namespace {

/// Bounds on the destination array: none; a row bound that cuts the tile's
/// rows with a constant column bound past them all (the lowering then
/// checks rows alone and stores runs whole); a column bound that cuts runs
/// (element by element).
enum class Bounds { None, Rows, Cols };

struct Case {
  Chip chip;
  const char *layout; // the attribute
  const char *layoutName;
  int64_t rows, cols;
  const char *elt; // bf16, f16, f32
  bool transpose;
  Bounds bounds = Bounds::None;
};

int64_t eltBytes(const Case &c) { return std::string(c.elt) == "f32" ? 4 : 2; }

std::string name(const Case &c) {
  const char *bounds = c.bounds == Bounds::Rows   ? "_rowbound"
                       : c.bounds == Bounds::Cols ? "_colbound"
                                                  : "";
  return llvm::formatv("{0}_{1}_{2}x{3}_{4}{5}{6}", getChipInfo(c.chip).name, c.layoutName,
                       c.rows, c.cols, c.elt, c.transpose ? "_transposed" : "", bounds)
      .str();
}

// The origin of the tile in both arrays, and their row stride: columns
// past the tile's on both sides, rows above it, so that a store that
// strays lands in checked memory.
constexpr int64_t kRow0 = 3, kCol0 = 8;
int64_t strideOf(const Case &c) { return std::max(c.rows, c.cols) + 16; }
int64_t arrayRows(const Case &c) { return std::max(c.rows, c.cols) + 8; }
/// The destination's bounds (array rows, array columns) for the case: the
/// row bound halfway down the tile's rows in the array (plus one, so that
/// it is odd), the column bound halfway across its columns plus one (inside
/// a run of 4 or 8), the other past everything.
std::pair<int64_t, int64_t> boundsOf(const Case &c) {
  int64_t arrRows = c.transpose ? c.cols : c.rows, arrCols = c.transpose ? c.rows : c.cols;
  int64_t far = 1 << 20;
  if (c.bounds == Bounds::Rows)
    return {kRow0 + arrRows / 2 + 1, far};
  if (c.bounds == Bounds::Cols)
    return {far, kCol0 + arrCols / 2 + 1};
  return {far, far};
}

std::string source(const Case &c) {
  std::string tile =
      llvm::formatv("!tile.tile<[{0}, {1}], {2}, {3}>", c.rows, c.cols, c.elt, c.layout).str();
  std::string buf = llvm::formatv("!tile.buffer<{0}>", c.elt).str();
  std::string ptr = llvm::formatv("!tile.ptr<{0}>", c.elt).str();
  std::string s = "func.func @copy(%src: " + ptr + ", %dst: " + ptr +
                  ") attributes {tile.kernel, tile.block_size = 64 : i64} {\n";
  s += llvm::formatv("  %r0 = arith.constant {0} : index\n", kRow0).str();
  s += llvm::formatv("  %c0 = arith.constant {0} : index\n", kCol0).str();
  s += llvm::formatv("  %ld = arith.constant {0} : index\n", strideOf(c)).str();
  s += llvm::formatv("  %n = arith.constant {0} : index\n", arrayRows(c) * strideOf(c)).str();
  s += "  %s = tile.make_buffer %src, %n : " + ptr + " -> " + buf + "\n";
  s += "  %d = tile.make_buffer %dst, %n : " + ptr + " -> " + buf + "\n";
  s += "  %t = tile.load %s[%r0, %c0] stride %ld : " + buf + " -> " + tile + "\n";
  std::string bounds;
  if (c.bounds != Bounds::None) {
    auto [br, bc] = boundsOf(c);
    s += llvm::formatv("  %br = arith.constant {0} : index\n", br).str();
    s += llvm::formatv("  %bc = arith.constant {0} : index\n", bc).str();
    bounds = " bounds %br, %bc";
  }
  s += std::string("  tile.store %t, %d[%r0, %c0] stride %ld") + bounds +
       (c.transpose ? " transpose" : "") + " : " + tile + ", " + buf + "\n";
  s += "  return\n}\n";
  return s;
}

class StoreLayoutTest : public ::testing::TestWithParam<Case> {};

TEST_P(StoreLayoutTest, EveryElementLandsWhereTheStoreSays) {
  const Case &c = GetParam();
  std::string src = source(c);
  auto hsaco = e2e::compileForTest(src, "store.mlir", c.chip);
  ASSERT_TRUE(bool(hsaco)) << llvm::toString(hsaco.takeError()) << "\n" << src;

  int64_t esize = eltBytes(c), ld = strideOf(c);
  size_t n = size_t(arrayRows(c) * ld);
  // Elements as bit patterns of their width; f32 ones finite (no NaN, which
  // a float path could quieten), 16-bit ones any pattern.
  std::mt19937 rng(unsigned(c.rows * 131 + c.cols * 7 + esize));
  std::vector<uint32_t> in(n);
  for (uint32_t &v : in)
    v = esize == 4 ? (rng() & 0xbfffffffu) : (rng() & 0xffffu);
  std::vector<uint8_t> bytes(n * size_t(esize));
  for (size_t i = 0; i < n; ++i)
    std::memcpy(&bytes[i * size_t(esize)], &in[i], size_t(esize));

  auto dev = kcc::e2e::EmulatedDevice::open(c.chip);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  kcc::Device &d = **dev;
  uint64_t ptrs[2] = {llvm::cantFail(d.allocate(bytes.size())),
                      llvm::cantFail(d.allocate(bytes.size()))};
  ASSERT_FALSE(bool(d.copyToDevice(ptrs[0], bytes.data(), bytes.size())));
  ASSERT_FALSE(bool(d.memset(ptrs[1], 0xa5, bytes.size())));
  std::vector<uint8_t> args(sizeof ptrs);
  std::memcpy(args.data(), ptrs, sizeof ptrs);
  kcc::LaunchConfig launch;
  launch.grid = {1, 1, 1};
  launch.block = {64, 1, 1};
  auto stats = dev->launch(*hsaco, "copy", launch, args);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());

  // Where each element must be: the fill pattern except where the tile went.
  uint32_t fill = esize == 4 ? 0xa5a5a5a5u : 0xa5a5u;
  std::vector<uint32_t> want(n, fill);
  for (int64_t r = 0; r < c.rows; ++r)
    for (int64_t col = 0; col < c.cols; ++col) {
      uint32_t v = in[size_t((kRow0 + r) * ld + kCol0 + col)];
      int64_t ar = c.transpose ? kRow0 + col : kRow0 + r;
      int64_t ac = c.transpose ? kCol0 + r : kCol0 + col;
      auto [br, bc] = boundsOf(c);
      if (ar < br && ac < bc)
        want[size_t(ar * ld + ac)] = v;
    }
  std::vector<uint8_t> out(bytes.size());
  ASSERT_FALSE(bool(d.copyFromDevice(out.data(), ptrs[1], out.size())));
  int bad = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t got = 0;
    std::memcpy(&got, &out[i * size_t(esize)], size_t(esize));
    if (got != want[i] && ++bad <= 4)
      ADD_FAILURE() << "array element (" << i / size_t(ld) << ", " << i % size_t(ld)
                    << ") is 0x" << std::hex << got << ", expected 0x" << want[i];
  }
  EXPECT_EQ(bad, 0) << src;
}

std::vector<Case> cases() {
  struct Shape {
    const char *layout, *name;
    int64_t rows, cols;
  };
  // Each layout at one instance and at several, repeated along rows, along
  // columns and both (the pairing of runs looks for partners across
  // instances); a 16x16 accumulator of one instance has an odd number of
  // runs a lane and keeps its 8-byte stores.
  const Shape shapes[] = {
      {"#tile.mfma<acc>", "acc32", 32, 32},
      {"#tile.mfma<acc>", "acc32", 64, 32},
      {"#tile.mfma<acc>", "acc32", 32, 64},
      {"#tile.mfma<acc>", "acc32", 64, 128},
      {"#tile.mfma<acc, 16x16>", "acc16", 16, 16},
      {"#tile.mfma<acc, 16x16>", "acc16", 32, 16},
      {"#tile.mfma<acc, 16x16>", "acc16", 16, 32},
      {"#tile.mfma<acc, 16x16>", "acc16", 64, 64},
      {"#tile.blocked<[1, 4], [16, 4]>", "blocked", 32, 32},
      {"#tile.blocked<[2, 2], [4, 16]>", "blocked2x2", 16, 64},
  };
  std::vector<Case> all;
  for (Chip chip : {Chip::gfx942, Chip::gfx950})
    for (const Shape &s : shapes)
      for (const char *elt : {"bf16", "f16", "f32"})
        for (bool transpose : {false, true})
          for (Bounds b : {Bounds::None, Bounds::Rows, Bounds::Cols})
            all.push_back({chip, s.layout, s.name, s.rows, s.cols, elt, transpose, b});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Store, StoreLayoutTest, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return name(info.param); });

} // namespace
