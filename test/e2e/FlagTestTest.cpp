//===- FlagTestTest.cpp - tile.flag_test, run on both chips ---------------===//
//
// tile.flag_test %flags[row] count n (ge|eq) value: lane i loads word
// row + min(i, n - 1), and the result is whether every word compared
// satisfies the predicate. The fused all-gather + GEMM takes a tile without
// its per-group flag waits when the test says so, and its own tests would
// still pass if the test always said "not yet" (the waits would run); here
// each word's part is pinned: the first and the last of the n words (the
// lanes past n read the last), words past n ignored, n = 1 and n = 64, a
// row offset, a signed ge and an exact eq. kcc compiles the kernel for each
// chip and the emulator runs it through the runtime.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "runtime/Buffer.h"
#include "runtime/Kernel.h"
#include "test/e2e/CompileForTest.h"
#include "test/e2e/EmulatedDevice.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace kcc;

namespace {

/// A kernel per predicate (@probe_ge, @probe_eq): out[0] = flag_test ? 1 : 0.
std::string source() {
  std::string s;
  for (const char *pred : {"ge", "eq"})
    s += std::string("func.func @probe_") + pred +
         R"((%flags: !tile.ptr<i32>, %out: !tile.ptr<i32>, %row: index, %n: index,
             %value: i32) attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %all = tile.flag_test %flags[%row] count %n )" +
         pred + R"( %value agent : !tile.ptr<i32>
  %r = arith.select %all, %one, %zero : i32
  tile.flag_store %out[%c0], %r agent : !tile.ptr<i32>
  return
}
)";
  return s;
}

constexpr int kWords = 96;
constexpr int kRow = 7;

struct Case {
  const char *what;
  bool eq;     // the predicate: eq, else ge
  int n;       // words tested, from kRow
  int32_t value;
  int32_t fill;                              // every word
  std::vector<std::pair<int, int32_t>> set;  // then these (offsets from kRow)
  int expected;
};

class FlagTestTest : public ::testing::TestWithParam<Chip> {};

TEST_P(FlagTestTest, EveryTestedWordCounts) {
  Chip chip = GetParam();
  auto hsaco = e2e::compileForTest(source(), "flag_test.mlir", chip);
  ASSERT_TRUE(bool(hsaco)) << llvm::toString(hsaco.takeError());
  auto dev = e2e::EmulatedDevice::open(chip);
  ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
  auto module = Module::load(**dev, *hsaco);
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());

  const std::vector<Case> cases = {
      {"all set", false, 5, 5, 5, {}, 1},
      {"all above", false, 5, 5, 9, {}, 1},
      {"first below", false, 5, 5, 5, {{0, 4}}, 0},
      {"last below (lanes past n read it too)", false, 5, 5, 5, {{4, 4}}, 0},
      {"a middle word below", false, 5, 5, 5, {{2, 0}}, 0},
      {"words past n ignored", false, 5, 5, 5, {{5, 0}, {63, 0}, {-1, 0}}, 1},
      {"one word", false, 1, 5, 0, {{0, 5}}, 1},
      {"one word below", false, 1, 5, 5, {{0, 4}}, 0},
      {"64 words", false, 64, 5, 5, {}, 1},
      {"64 words, the last below", false, 64, 5, 5, {{63, 4}}, 0},
      {"signed: -1 is below 5", false, 5, 5, 5, {{3, -1}}, 0},
      {"signed: -2 is at least -3", false, 5, -3, -2, {}, 1},
      {"eq: all equal", true, 5, 5, 5, {}, 1},
      {"eq: one above", true, 5, 5, 5, {{1, 6}}, 0},
      {"eq: past n differs", true, 3, 5, 5, {{3, 6}}, 1},
  };
  for (const Case &c : cases) {
    std::vector<int32_t> words(kWords, c.fill);
    for (auto [at, v] : c.set)
      words[size_t(kRow + at)] = v;
    auto flags = Buffer::fromHost(**dev, words);
    ASSERT_TRUE(bool(flags)) << llvm::toString(flags.takeError());
    auto out = Buffer::fromHost(**dev, std::vector<int32_t>{-7});
    ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
    auto kernel = module->kernel(c.eq ? "probe_eq" : "probe_ge");
    ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
    auto run = kernel->launch(Dim3(1), Dim3(64),
                              {*flags, *out, int32_t(kRow), int32_t(c.n), c.value});
    ASSERT_TRUE(bool(run)) << c.what << ": " << llvm::toString(run.takeError());
    auto result = out->toHost<int32_t>();
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_EQ((*result)[0], c.expected) << c.what;
  }
}

INSTANTIATE_TEST_SUITE_P(Chips, FlagTestTest, ::testing::Values(Chip::gfx942, Chip::gfx950),
                         [](const auto &info) { return getChipInfo(info.param).name.str(); });

} // namespace
