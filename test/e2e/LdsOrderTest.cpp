//===- LdsOrderTest.cpp - LDS buffers stored in a tile's reading order ----===//
//
// An LDS buffer with `order = TILE` (passes/OperandImage.h) holds its
// elements where tile.lds_load of TILE reads them, one contiguous line per
// access, and tile.async_copy's lanes fetch whatever memory belongs at their
// place. Each case copies a block of a larger matrix into such a buffer
// (4- or 16-byte DMA lanes, inbounds or with bounds that cut rows and
// columns, the lines shared by 1 to 4 waves), reads it back as TILE and
// stores the tile to global memory: the block comes back bit for bit (and
// zeros outside the bounds) only if the copy's inverse of the order and the
// read's order agree. Readers: the MFMA a operand by ds_read_b128 (gfx950)
// or ds_read_b64 (gfx942), and the transposed a operand in the
// accumulator's K order by gfx950's ds_read_b64_tr_b16 (attention's K and
// V^T).
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "test/e2e/CompileForTest.h"
#include "test/e2e/EmulatedDevice.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace kcc;

namespace {

struct Case {
  Chip chip;
  int64_t rows, cols;   // the LDS buffer (array orientation)
  bool transposed;      // the order tile is the transposed array
  const char *layout;   // the order tile's layout
  int64_t width;        // DMA bytes per lane
  bool inbounds;
  int64_t waves = 1;
  /// The source matrix's columns and the block's origin in it; bounds
  /// (bounded copies) relative to the block: rows and columns past them
  /// read as zero.
  int64_t srcCols = 0, row0 = 0, col0 = 0, boundRows = 0, boundCols = 0;
  int64_t stride() const { return srcCols ? srcCols : cols; }
  int64_t visibleRows() const { return inbounds || !boundRows ? rows : boundRows; }
  int64_t visibleCols() const { return inbounds || !boundCols ? cols : boundCols; }
};

std::string name(const Case &c) {
  std::string layout = c.layout;
  for (char &ch : layout)
    if (!isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  return llvm::formatv("{0}_{1}x{2}_{3}{4}_w{5}_{6}_waves{7}_at{8}_{9}_bounds{10}x{11}",
                       getChipInfo(c.chip).name, c.rows, c.cols, c.transposed ? "T_" : "",
                       layout, c.width, c.inbounds ? "inbounds" : "bounded", c.waves, c.row0,
                       c.col0, c.visibleRows(), c.visibleCols())
      .str();
}

std::string source(const Case &c) {
  std::string tile =
      c.transposed
          ? llvm::formatv("!tile.tile<[{0}, {1}], bf16, {2}>", c.cols, c.rows, c.layout).str()
          : llvm::formatv("!tile.tile<[{0}, {1}], bf16, {2}>", c.rows, c.cols, c.layout).str();
  std::string lds = llvm::formatv("!tile.lds<[{0}, {1}], bf16, order = {2}{3}>", c.rows, c.cols,
                                  c.transposed ? "transpose " : "", tile)
                        .str();
  std::string tr = c.transposed ? " transpose" : "";
  std::string s = "func.func @roundtrip(%src: !tile.ptr<bf16>, %out: !tile.ptr<bf16>) "
                  "attributes {tile.kernel, tile.block_size = " +
                  std::to_string(64 * c.waves) + " : i64} {\n";
  s += "  %c0 = arith.constant 0 : index\n";
  s += llvm::formatv("  %ld = arith.constant {0} : index\n", c.cols).str();
  s += llvm::formatv("  %lds = arith.constant {0} : index\n", c.stride()).str();
  s += llvm::formatv("  %row0 = arith.constant {0} : index\n", c.row0).str();
  s += llvm::formatv("  %k0 = arith.constant {0} : index\n", c.col0).str();
  s += llvm::formatv("  %br = arith.constant {0} : index\n", c.row0 + c.visibleRows()).str();
  s += llvm::formatv("  %bc = arith.constant {0} : index\n", c.col0 + c.visibleCols()).str();
  s += llvm::formatv("  %n = arith.constant {0} : index\n", c.rows * c.cols).str();
  s += llvm::formatv("  %ns = arith.constant {0} : index\n", (c.row0 + c.rows) * c.stride())
           .str();
  s += "  %s = tile.make_buffer %src, %ns : !tile.ptr<bf16> -> !tile.buffer<bf16>\n";
  s += "  %o = tile.make_buffer %out, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>\n";
  s += "  %l = tile.lds_alloc \"l\" : " + lds + "\n";
  s += llvm::formatv("  tile.async_copy {0}%s[%row0, %k0] stride %lds{1} -> %l[%c0] "
                     "{{width = {2} : i64} : !tile.buffer<bf16>, {3}\n",
                     c.inbounds ? "inbounds " : "", c.inbounds ? "" : " bounds %br, %bc",
                     c.width, lds)
           .str();
  s += "  tile.wait vmcnt(0)\n";
  s += "  tile.barrier\n";
  s += "  %r = tile.lds_load %l[%c0][%c0, %c0]" + tr + " : " + lds + " -> " + tile + "\n";
  s += "  tile.store %r, %o[%c0, %c0] stride %ld" + tr + " : " + tile +
       ", !tile.buffer<bf16>\n";
  s += "  return\n}\n";
  return s;
}

class LdsOrderTest : public ::testing::TestWithParam<Case> {};

TEST_P(LdsOrderTest, TheTileReadsWhatTheCopyWrote) {
  const Case &c = GetParam();
  std::string src = source(c);
  auto hsaco = e2e::compileForTest(src, "order.mlir", c.chip);
  ASSERT_TRUE(bool(hsaco)) << llvm::toString(hsaco.takeError()) << "\n" << src;

  size_t n = size_t(c.rows * c.cols);
  size_t ns = size_t((c.row0 + c.rows) * c.stride());
  std::vector<uint16_t> in(ns);
  std::mt19937 rng(unsigned(c.rows * 7 + c.cols + c.width + c.waves));
  for (uint16_t &v : in)
    v = uint16_t(rng() | 1); // distinct bit patterns, never zero
  auto dev = kcc::e2e::EmulatedDevice::open(c.chip);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  kcc::Device &d = **dev;
  uint64_t srcPtr = llvm::cantFail(d.allocate(ns * 2));
  uint64_t outPtr = llvm::cantFail(d.allocate(n * 2));
  ASSERT_FALSE(bool(d.copyToDevice(srcPtr, in.data(), ns * 2)));
  ASSERT_FALSE(bool(d.memset(outPtr, 0xff, n * 2)));
  uint64_t ptrs[2] = {srcPtr, outPtr};
  std::vector<uint8_t> args(sizeof ptrs);
  std::memcpy(args.data(), ptrs, sizeof ptrs);
  kcc::LaunchConfig launch;
  launch.grid = {1, 1, 1};
  launch.block = {uint32_t(64 * c.waves), 1, 1};
  auto stats = dev->launch(*hsaco, "roundtrip", launch, args);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  std::vector<uint16_t> out(n);
  ASSERT_FALSE(bool(d.copyFromDevice(out.data(), outPtr, n * 2)));
  int bad = 0;
  for (size_t e = 0; e < n; ++e) {
    int64_t r = int64_t(e) / c.cols, k = int64_t(e) % c.cols;
    uint16_t want = r < c.visibleRows() && k < c.visibleCols()
                        ? in[size_t((c.row0 + r) * c.stride() + c.col0 + k)]
                        : 0;
    if (out[e] != want && ++bad <= 4)
      ADD_FAILURE() << "element (" << r << ", " << k << ") is 0x" << std::hex << out[e]
                    << ", want 0x" << want;
  }
  EXPECT_EQ(bad, 0);
}

std::vector<Case> cases() {
  const char *a = "#tile.mfma<a>";
  const char *vt = "#tile.mfma<a, k_from_acc>";
  std::vector<Case> all;
  for (bool inb : {true, false}) {
    // Attention's K tile, [keys, D] read as the a operand: gfx950's 16-byte
    // lines (4 waves, as its leading wave group), 4-byte lines on both.
    all.push_back({Chip::gfx950, 64, 128, false, a, 16, inb, 4, 1024, 64, 0, 50, 128});
    all.push_back({Chip::gfx950, 64, 128, false, a, 4, inb, 2, 136, 3, 8, 64, 120});
    all.push_back({Chip::gfx942, 64, 128, false, a, 4, inb, 4, 1024, 5, 128, 33, 128});
    all.push_back({Chip::gfx942, 32, 64, false, a, 4, inb, 1, 0, 0, 0, 17, 64});
    // Attention's V tile, [keys, D] read transposed as V^T in the
    // accumulator's K order by ds_read_b64_tr_b16 (gfx950): 16- and 4-byte
    // lines.
    all.push_back({Chip::gfx950, 64, 128, true, vt, 16, inb, 4, 1024, 64, 128, 7, 128});
    all.push_back({Chip::gfx950, 64, 128, true, vt, 4, inb, 1, 128, 0, 0, 64, 128});
    all.push_back({Chip::gfx950, 32, 64, true, vt, 16, inb, 2, 96, 9, 16, 31, 64});
    // Three waves (24 lines of 1 KiB; 48 of 512 bytes): a wave's lines are
    // not its bits plus a constant, so each line's place comes from its
    // index's bits.
    all.push_back({Chip::gfx950, 96, 128, false, a, 16, inb, 3, 256, 4, 64, 90, 128});
    all.push_back({Chip::gfx942, 96, 128, false, a, 4, inb, 3, 0, 0, 0, 95, 128});
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Order, LdsOrderTest, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return name(info.param); });

} // namespace
