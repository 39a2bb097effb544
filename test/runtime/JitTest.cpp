//===- JitTest.cpp - The JIT: keys, memory and disk caches, threads -------===//
//
// Each test gets its own cache directory. The disk tests damage entries the
// ways a crash or a full disk would (truncation, flipped payload byte, a
// foreign header) and check that the JIT recompiles instead of trusting it.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "kernels/EmbeddedKernels.h"
#include "target/CodeObject.h"
#include "runtime/Jit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <thread>

using namespace kcc;

namespace {

class JitTest : public ::testing::Test {
protected:
  void SetUp() override {
    registerEmbeddedKernels();
    llvm::SmallString<128> dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kcc-jit-test", dir));
    dir_ = std::string(dir);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir_); }
  JitOptions options() const {
    JitOptions o;
    o.cacheDirectory = dir_;
    return o;
  }
  std::string dir_;
};

const std::vector<std::string> kParams = {"DTYPE=f16", "OUT=f16"};

TEST(CacheKey, SortsParamsAndSeparatesFields) {
  CacheKeyInputs a;
  a.source = "x";
  a.params = {"A=1", "B=2"};
  a.compilerVersion = "v";
  CacheKeyInputs b = a;
  b.params = {"B=2", "A=1"};
  EXPECT_EQ(computeCacheKey(a), computeCacheKey(b));
  EXPECT_EQ(computeCacheKey(a).size(), 64u);
  CacheKeyInputs c = a;
  c.chip = Chip::gfx950;
  EXPECT_NE(computeCacheKey(a), computeCacheKey(c));
  CacheKeyInputs d = a;
  d.optLevel = 2;
  EXPECT_NE(computeCacheKey(a), computeCacheKey(d));
  CacheKeyInputs e = a;
  e.compilerVersion = "w";
  EXPECT_NE(computeCacheKey(a), computeCacheKey(e));
  // "A=1" + "B=2" must differ from "A=1B=2" (length-prefixed fields).
  CacheKeyInputs f = a;
  f.params = {"A=1B=2"};
  EXPECT_NE(computeCacheKey(a), computeCacheKey(f));
}

TEST(CacheDirectory, FromEnvironment) {
  const char *old = getenv("KCC_CACHE_DIR");
  std::string saved = old ? old : "";
  setenv("KCC_CACHE_DIR", "/tmp/kcc-somewhere", 1);
  EXPECT_EQ(defaultCacheDirectory(), "/tmp/kcc-somewhere");
  unsetenv("KCC_CACHE_DIR");
  const char *xdg = getenv("XDG_CACHE_HOME");
  std::string savedXdg = xdg ? xdg : "";
  unsetenv("XDG_CACHE_HOME");
  llvm::SmallString<128> home;
  llvm::sys::path::home_directory(home);
  EXPECT_EQ(defaultCacheDirectory(), (home + "/.cache/kcc").str());
  if (xdg)
    setenv("XDG_CACHE_HOME", savedXdg.c_str(), 1);
  if (old)
    setenv("KCC_CACHE_DIR", saved.c_str(), 1);
}

TEST_F(JitTest, MemoryThenDiskHits) {
  {
    Jit jit(options());
    auto first = jit.compile("gemm", kParams, Chip::gfx942);
    ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
    EXPECT_EQ(first->outcome, CacheOutcome::Compiled);
    auto co = CodeObject::parse(*first->codeObject);
    ASSERT_TRUE(bool(co)) << llvm::toString(co.takeError());
    EXPECT_NE(co->findKernel("gemm"), nullptr);
    auto second = jit.compile("gemm", {"OUT=f16", "DTYPE=f16"}, Chip::gfx942);
    ASSERT_TRUE(bool(second));
    EXPECT_EQ(second->outcome, CacheOutcome::MemoryHit);
    EXPECT_EQ(second->codeObject, first->codeObject); // the same bytes, shared
    EXPECT_TRUE(llvm::sys::fs::exists(
        DiskCache(dir_).entryPath(first->key)));
  }
  Jit fresh(options()); // a new process, as far as caches go
  auto third = fresh.compile("gemm", kParams, Chip::gfx942);
  ASSERT_TRUE(bool(third));
  EXPECT_EQ(third->outcome, CacheOutcome::DiskHit);
  EXPECT_EQ(fresh.stats().compiles, 0u);
  EXPECT_EQ(fresh.stats().diskHits, 1u);
}

/// Compiles once, damages the entry with `damage`, and checks that a new
/// JIT notices, recompiles, and leaves a good entry behind.
void expectRecompiled(const std::string &dir,
                      const std::function<void(std::string &)> &damage,
                      const std::function<std::string(size_t)> &problem) {
  JitOptions o;
  o.cacheDirectory = dir;
  std::string key, good;
  {
    Jit jit(o);
    auto r = jit.compile("gemm", kParams, Chip::gfx950);
    ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
    key = r->key;
  }
  DiskCache disk(dir);
  std::string path = disk.entryPath(key);
  auto buf = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buf));
  good = (*buf)->getBuffer().str();
  std::string bad = good;
  damage(bad);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << bad;
  }
  DiskCache::Lookup l = disk.lookup(key);
  EXPECT_EQ(l.status, DiskCache::LookupStatus::Damaged);
  EXPECT_EQ(l.problem, problem(good.size()));

  Jit jit(o);
  auto r = jit.compile("gemm", kParams, Chip::gfx950);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->outcome, CacheOutcome::Compiled);
  EXPECT_EQ(jit.stats().damagedEntries, 1u);
  EXPECT_TRUE(CodeObject::parse(*r->codeObject).operator bool());
  auto again = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(again));
  EXPECT_EQ((*again)->getBuffer().str(), good); // rewritten whole
}

TEST_F(JitTest, TruncatedEntryIsRecompiled) {
  expectRecompiled(dir_, [](std::string &s) { s.resize(s.size() - 100); },
                   [](size_t n) {
                     return "payload is " + std::to_string(n - 220) +
                            " bytes, header says " + std::to_string(n - 120) +
                            " (truncated?)";
                   });
}

TEST_F(JitTest, FlippedPayloadByteIsRecompiled) {
  expectRecompiled(dir_, [](std::string &s) { s[s.size() / 2] ^= 0x40; },
                   [](size_t) { return std::string("payload checksum mismatch"); });
}

TEST_F(JitTest, ShortEntryIsRecompiled) {
  expectRecompiled(dir_, [](std::string &s) { s.resize(7); },
                   [](size_t) { return std::string("entry is 7 bytes, shorter than its header"); });
}

TEST_F(JitTest, ForeignFileIsRecompiled) {
  expectRecompiled(dir_, [](std::string &s) { s.replace(0, 8, "\x7f" "ELF...."); },
                   [](size_t) { return std::string("bad magic"); });
}

TEST_F(JitTest, ConcurrentRequestsCompileOnce) {
  Jit jit(options());
  constexpr int kThreads = 8;
  std::vector<std::thread> threads;
  std::vector<std::shared_ptr<const std::vector<uint8_t>>> results(kThreads);
  std::vector<std::string> errors(kThreads);
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      auto r = jit.compile("gemm", {"DTYPE=bf16", "OUT=bf16", "HAS_BIAS=1"},
                           Chip::gfx942);
      if (r)
        results[i] = r->codeObject;
      else
        errors[i] = llvm::toString(r.takeError());
    });
  for (auto &t : threads)
    t.join();
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_EQ(errors[i], "");
    EXPECT_EQ(results[i], results[0]);
  }
  JitStats s = jit.stats();
  EXPECT_EQ(s.compiles, 1u);
  EXPECT_EQ(s.memoryHits, uint64_t(kThreads - 1));
  EXPECT_EQ(s.diskHits, 0u);
}

TEST_F(JitTest, DifferentKeysInParallel) {
  Jit jit(options());
  std::vector<std::thread> threads;
  std::vector<std::string> errors(4);
  const char *outs[] = {"f32", "bf16"};
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      auto r = jit.compile("gemm", {"DTYPE=bf16", std::string("OUT=") + outs[i % 2]},
                           i < 2 ? Chip::gfx942 : Chip::gfx950);
      if (!r)
        errors[i] = llvm::toString(r.takeError());
    });
  for (auto &t : threads)
    t.join();
  for (auto &e : errors)
    EXPECT_EQ(e, "");
  EXPECT_EQ(jit.stats().compiles, 4u);
}

TEST_F(JitTest, Errors) {
  Jit jit(options());
  auto unknown = jit.compile("gemmm", {}, Chip::gfx942);
  ASSERT_FALSE(bool(unknown));
  EXPECT_EQ(llvm::toString(unknown.takeError()),
            "no kernel named 'gemmm'; kcc has: " + embeddedKernelNameList());
  EXPECT_NE(embeddedKernelNameList().find("gemm"), std::string::npos);
  auto badParam = jit.compile("gemm", {"FOO=1"}, Chip::gfx942);
  ASSERT_FALSE(bool(badParam));
  std::string text = llvm::toString(badParam.takeError());
  EXPECT_NE(text.find("gemm.mlir:0:0: error: unknown parameter 'FOO' (-D FOO=1); "
                      "this kernel declares: BK, DTYPE, "
                      "HAS_BIAS, OUT, PAD, REG, RROWS, WM, WN"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.rfind("the tile passes failed\n", 0), 0u) << text;
  // A failure is not cached: the next call compiles (and fails) again.
  auto again = jit.compile("gemm", {"FOO=1"}, Chip::gfx942);
  EXPECT_FALSE(bool(again));
  consumeError(again.takeError());
  EXPECT_EQ(jit.stats().compiles, 2u);
}

TEST_F(JitTest, SourceText) {
  Jit jit(options());
  const char *source = R"(
func.func @empty(%x: !tile.ptr<f32>) attributes {tile.kernel, tile.block_size = 64 : i64} {
  return
}
)";
  auto r = jit.compile(source, {}, Chip::gfx950);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  auto co = CodeObject::parse(*r->codeObject);
  ASSERT_TRUE(bool(co));
  EXPECT_NE(co->findKernel("empty"), nullptr);
}

TEST_F(JitTest, UnwritableCacheDirectoryStillCompiles) {
  JitOptions o;
  o.cacheDirectory = "/proc/kcc-cannot-create";
  Jit jit(o);
  auto r = jit.compile("gemm", kParams, Chip::gfx942);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(jit.stats().diskWriteFailures, 1u);
}

} // namespace
