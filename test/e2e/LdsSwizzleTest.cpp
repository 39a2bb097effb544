//===- LdsSwizzleTest.cpp - swizzled LDS buffers, written and read back ---===//
//
// A swizzled LDS buffer (!tile.lds<..., swizzle = S>) is written by each of
// its writers (the LDS DMA at 4 and 16 bytes per lane, with and without
// `inbounds`, through the per-lane path where DMA lines hold whole rows
// and the division path where they do not; ds_write from registers) and
// read back by each of its readers (a blocked tile, the MFMA a operand by
// ds_read_b128, the b operand by gfx950's ds_read_b64_tr_b16), each tile
// stored to global memory. Every writer and reader applies the swizzle on
// its own, so the matrix comes back bit for bit only if they all agree;
// kcc run gemm --bank-conflicts (test/kcc/run-gemm.test) shows that the
// swizzle does move the rows' chunks.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
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

enum class Writer { Dma, DmaInbounds, Registers };

struct Case {
  Chip chip;
  int64_t rows, cols, swizzle;
  Writer writer;
  int64_t width = 4; // DMA bytes per lane
  /// Also read the whole buffer as MFMA a and b operands (rows a multiple
  /// of 32, columns of 32; b only where gfx950 reads it transposing).
  bool mfma = true;
  /// The workgroup's waves, which share the copy's lines; the source
  /// matrix's columns (its row stride; 0: `cols`) and the block's origin
  /// in it, so that a line's rows lie `srcCols` apart in memory but `cols`
  /// apart in LDS.
  int64_t waves = 1, srcCols = 0, row0 = 0, col0 = 0;
  int64_t stride() const { return srcCols ? srcCols : cols; }
};

std::string name(const Case &c) {
  const char *w = c.writer == Writer::Registers ? "dswrite"
                  : c.writer == Writer::Dma     ? "dma"
                                                : "dma_inbounds";
  std::string placed =
      c.waves == 1 && !c.srcCols
          ? ""
          : llvm::formatv("_waves{0}_in{1}at{2}_{3}", c.waves, c.stride(), c.row0, c.col0).str();
  return llvm::formatv("{0}_{1}x{2}_swizzle{3}_{4}{5}{6}", getChipInfo(c.chip).name, c.rows,
                       c.cols, c.swizzle, w,
                       c.writer == Writer::Registers ? "" : std::to_string(c.width), placed)
      .str();
}

/// The kernel: src -> LDS by the case's writer; then one output per reader.
std::string source(const Case &c, std::vector<std::string> &readers) {
  std::string lds = llvm::formatv("!tile.lds<[{0}, {1}], bf16, swizzle = {2}>", c.rows, c.cols,
                                  c.swizzle)
                        .str();
  auto tile = [&](llvm::StringRef layout) {
    return llvm::formatv("!tile.tile<[{0}, {1}], bf16, {2}>", c.rows, c.cols, layout).str();
  };
  int64_t laneCols = std::min<int64_t>(8, c.cols / 8); // 16 bytes per lane
  readers = {tile(llvm::formatv("#tile.blocked<[1, 8], [{0}, {1}]>", 64 / laneCols, laneCols)
                      .str())};
  if (c.mfma) {
    readers.push_back(tile("#tile.mfma<a>"));
    if (c.chip == Chip::gfx950)
      readers.push_back(tile("#tile.mfma<b>"));
  }
  std::string s = "func.func @roundtrip(%src: !tile.ptr<bf16>";
  for (size_t i = 0; i < readers.size(); ++i)
    s += llvm::formatv(", %out{0}: !tile.ptr<bf16>", i).str();
  s += llvm::formatv(") attributes {{tile.kernel, tile.block_size = {0} : i64} {{\n", 64 * c.waves)
           .str();
  s += "  %c0 = arith.constant 0 : index\n";
  s += llvm::formatv("  %ld = arith.constant {0} : index\n", c.cols).str();
  s += llvm::formatv("  %lds = arith.constant {0} : index\n", c.stride()).str();
  s += llvm::formatv("  %row0 = arith.constant {0} : index\n", c.row0).str();
  s += llvm::formatv("  %k0 = arith.constant {0} : index\n", c.col0).str();
  s += llvm::formatv("  %n = arith.constant {0} : index\n", c.rows * c.cols).str();
  s += llvm::formatv("  %ns = arith.constant {0} : index\n", (c.row0 + c.rows) * c.stride())
           .str();
  s += "  %s = tile.make_buffer %src, %ns : !tile.ptr<bf16> -> !tile.buffer<bf16>\n";
  s += "  %l = tile.lds_alloc \"l\" : " + lds + "\n";
  if (c.writer == Writer::Registers) {
    std::string t = tile("#tile.blocked<[1, 2], [8, 8]>");
    s += "  %t = tile.load %s[%row0, %k0] stride %lds : !tile.buffer<bf16> -> " + t + "\n";
    s += "  tile.lds_store %t, %l[%c0][%c0, %c0] : " + t + ", " + lds + "\n";
  } else {
    s += llvm::formatv("  tile.async_copy {0}%s[%row0, %k0] stride %lds -> %l[%c0] "
                       "{{width = {1} : i64} : !tile.buffer<bf16>, {2}\n",
                       c.writer == Writer::DmaInbounds ? "inbounds " : "", c.width, lds)
             .str();
    s += "  tile.wait vmcnt(0)\n";
  }
  s += "  tile.barrier\n";
  for (size_t i = 0; i < readers.size(); ++i) {
    s += llvm::formatv("  %o{0} = tile.make_buffer %out{0}, %n : !tile.ptr<bf16> -> "
                       "!tile.buffer<bf16>\n",
                       i)
             .str();
    s += llvm::formatv("  %r{0} = tile.lds_load %l[%c0][%c0, %c0] : {1} -> {2}\n", i, lds,
                       readers[i])
             .str();
    s += llvm::formatv("  tile.store %r{0}, %o{0}[%c0, %c0] stride %ld : {1}, "
                       "!tile.buffer<bf16>\n",
                       i, readers[i])
             .str();
  }
  s += "  return\n}\n";
  return s;
}

class LdsSwizzleTest : public ::testing::TestWithParam<Case> {};

TEST_P(LdsSwizzleTest, EveryReaderGetsWhatEveryWriterWrote) {
  const Case &c = GetParam();
  std::vector<std::string> readers;
  std::string src = source(c, readers);
  auto hsaco = e2e::compileForTest(src, "swizzle.mlir", c.chip);
  ASSERT_TRUE(bool(hsaco)) << llvm::toString(hsaco.takeError()) << "\n" << src;

  size_t n = size_t(c.rows * c.cols);
  size_t ns = size_t((c.row0 + c.rows) * c.stride());
  std::vector<uint16_t> in(ns);
  std::mt19937 rng(unsigned(c.rows * 7 + c.cols + c.swizzle));
  for (uint16_t &v : in)
    v = uint16_t(rng()); // distinct bit patterns, not necessarily numbers
  auto dev = kcc::e2e::EmulatedDevice::open(c.chip);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  kcc::Device &d = **dev;
  std::vector<uint64_t> ptrs = {llvm::cantFail(d.allocate(ns * 2))};
  ASSERT_FALSE(bool(d.copyToDevice(ptrs[0], in.data(), ns * 2)));
  for (size_t i = 0; i < readers.size(); ++i) {
    ptrs.push_back(llvm::cantFail(d.allocate(n * 2)));
    ASSERT_FALSE(bool(d.memset(ptrs.back(), 0xff, n * 2)));
  }
  std::vector<uint8_t> args(8 * ptrs.size());
  std::memcpy(args.data(), ptrs.data(), args.size());
  kcc::LaunchConfig launch;
  launch.grid = {1, 1, 1};
  launch.block = {uint32_t(64 * c.waves), 1, 1};
  auto stats = dev->launch(*hsaco, "roundtrip", launch, args);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  for (size_t i = 0; i < readers.size(); ++i) {
    std::vector<uint16_t> out(n);
    ASSERT_FALSE(bool(d.copyFromDevice(out.data(), ptrs[i + 1], n * 2)));
    int bad = 0;
    for (size_t e = 0; e < n; ++e) {
      uint16_t want = in[(c.row0 + e / c.cols) * c.stride() + c.col0 + e % c.cols];
      if (out[e] != want && ++bad <= 4)
        ADD_FAILURE() << readers[i] << ": element (" << e / c.cols << ", " << e % c.cols
                      << ") is 0x" << std::hex << out[e] << ", written 0x" << want;
    }
    EXPECT_EQ(bad, 0) << readers[i];
  }
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    // 128-byte rows (two per 256-byte bank line), 8 chunks: the GEMM's
    // gfx950 256x256 tile.
    all.push_back({chip, 64, 64, 8, Writer::DmaInbounds});
    all.push_back({chip, 64, 64, 8, Writer::Dma});
    all.push_back({chip, 64, 64, 8, Writer::Registers});
    // 64-byte rows (four per bank line): gfx942's GEMM tile.
    all.push_back({chip, 64, 32, 4, Writer::DmaInbounds});
    // 512-byte rows, half a 256-byte DMA line each: the division path.
    all.push_back({chip, 16, 256, 32, Writer::DmaInbounds, 4, false});
    all.push_back({chip, 16, 256, 32, Writer::Dma, 4, false});
  }
  // gfx950's 16-byte DMA: 1 KiB lines of 8 rows, of 4 (256-byte rows, the
  // GEMM's 128x128 tile), and of half a 2 KiB row (the division path).
  all.push_back({Chip::gfx950, 64, 64, 8, Writer::DmaInbounds, 16});
  all.push_back({Chip::gfx950, 64, 64, 8, Writer::Dma, 16});
  all.push_back({Chip::gfx950, 32, 128, 16, Writer::DmaInbounds, 16});
  all.push_back({Chip::gfx950, 8, 1024, 16, Writer::DmaInbounds, 16, false});
  all.push_back({Chip::gfx950, 8, 1024, 16, Writer::Dma, 16, false});
  // The lines of an inbounds copy in groups that share one M0 write (the
  // offset field adds to the LDS and the global address; each line's
  // scalar offset takes it back off the global one), from a block inside a
  // larger matrix, its rows further apart in memory than in LDS, shared by
  // several waves: gfx950's 1 KiB lines two to a group (one swizzle period
  // apart), four waves; gfx942's 256-byte lines eight to a group, four
  // waves; three waves, not a multiple of the period (each wave's groups
  // of both residues); unswizzled, sixteen to a group; and the bounded
  // copies of the same blocks.
  for (Writer w : {Writer::DmaInbounds, Writer::Dma}) {
    all.push_back({Chip::gfx950, 128, 64, 8, w, 16, true, 4, 200, 3, 8});
    all.push_back({Chip::gfx950, 64, 128, 16, w, 16, true, 2, 136, 5, 0});
    all.push_back({Chip::gfx942, 128, 32, 4, w, 4, true, 4, 90, 1, 6});
    all.push_back({Chip::gfx942, 96, 32, 4, w, 4, true, 3, 40, 2, 2});
    all.push_back({Chip::gfx942, 64, 64, 0, w, 4, true, 2, 70, 0, 4});
    all.push_back({Chip::gfx950, 96, 32, 4, w, 4, true, 3, 33, 7, 1});
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Swizzle, LdsSwizzleTest, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return name(info.param); });

} // namespace
