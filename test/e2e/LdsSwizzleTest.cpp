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
};

std::string name(const Case &c) {
  const char *w = c.writer == Writer::Registers ? "dswrite"
                  : c.writer == Writer::Dma     ? "dma"
                                                : "dma_inbounds";
  return llvm::formatv("{0}_{1}x{2}_swizzle{3}_{4}{5}", getChipInfo(c.chip).name, c.rows,
                       c.cols, c.swizzle, w,
                       c.writer == Writer::Registers ? "" : std::to_string(c.width))
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
  s += ") attributes {tile.kernel, tile.block_size = 64 : i64} {\n";
  s += "  %c0 = arith.constant 0 : index\n";
  s += llvm::formatv("  %ld = arith.constant {0} : index\n", c.cols).str();
  s += llvm::formatv("  %n = arith.constant {0} : index\n", c.rows * c.cols).str();
  s += "  %s = tile.make_buffer %src, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>\n";
  s += "  %l = tile.lds_alloc \"l\" : " + lds + "\n";
  if (c.writer == Writer::Registers) {
    std::string t = tile("#tile.blocked<[1, 2], [8, 8]>");
    s += "  %t = tile.load %s[%c0, %c0] stride %ld : !tile.buffer<bf16> -> " + t + "\n";
    s += "  tile.lds_store %t, %l[%c0][%c0, %c0] : " + t + ", " + lds + "\n";
  } else {
    s += llvm::formatv("  tile.async_copy {0}%s[%c0, %c0] stride %ld -> %l[%c0] "
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
  std::vector<uint16_t> in(n);
  std::mt19937 rng(unsigned(c.rows * 7 + c.cols + c.swizzle));
  for (uint16_t &v : in)
    v = uint16_t(rng()); // distinct bit patterns, not necessarily numbers
  auto dev = kcc::e2e::EmulatedDevice::open(c.chip);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  kcc::Device &d = **dev;
  std::vector<uint64_t> ptrs = {llvm::cantFail(d.allocate(n * 2))};
  ASSERT_FALSE(bool(d.copyToDevice(ptrs[0], in.data(), n * 2)));
  for (size_t i = 0; i < readers.size(); ++i) {
    ptrs.push_back(llvm::cantFail(d.allocate(n * 2)));
    ASSERT_FALSE(bool(d.memset(ptrs.back(), 0xff, n * 2)));
  }
  std::vector<uint8_t> args(8 * ptrs.size());
  std::memcpy(args.data(), ptrs.data(), args.size());
  kcc::LaunchConfig launch;
  launch.grid = {1, 1, 1};
  launch.block = {64, 1, 1};
  auto stats = dev->launch(*hsaco, "roundtrip", launch, args);
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  for (size_t i = 0; i < readers.size(); ++i) {
    std::vector<uint16_t> out(n);
    ASSERT_FALSE(bool(d.copyFromDevice(out.data(), ptrs[i + 1], n * 2)));
    int bad = 0;
    for (size_t e = 0; e < n; ++e)
      if (out[e] != in[e] && ++bad <= 4)
        ADD_FAILURE() << readers[i] << ": element (" << e / c.cols << ", " << e % c.cols
                      << ") is 0x" << std::hex << out[e] << ", written 0x" << in[e];
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
  return all;
}

INSTANTIATE_TEST_SUITE_P(Swizzle, LdsSwizzleTest, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return name(info.param); });

} // namespace
