//===- JitTest.cpp - The JIT: keys, memory and disk caches, threads -------===//
//
// Each test gets its own cache directory. The disk tests damage entries the
// ways a crash or a full disk would (truncation, flipped payload byte, a
// foreign header) and check that the JIT recompiles instead of trusting it.
// Other builds of the compiler are stood for by JitOptions::compilerIdentity:
// their entries are never served (counted as misses, recompiled), an
// unchanged build's are, and eviction removes other builds' entries first,
// then the least recently used.
//
//===----------------------------------------------------------------------===//
#include "compiler/BuildIdentity.h"
#include "compiler/Pipeline.h"
#include "kernels/EmbeddedKernels.h"
#include "target/CodeObject.h"
#include "runtime/Jit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <unistd.h>

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
  a.compilerIdentity = "v";
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
  e.compilerIdentity = "w";
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
        DiskCache(dir_, buildIdentity().id).entryPath(first->key)));
  }
  Jit fresh(options()); // a new process, as far as caches go
  auto third = fresh.compile("gemm", kParams, Chip::gfx942);
  ASSERT_TRUE(bool(third));
  EXPECT_EQ(third->outcome, CacheOutcome::DiskHit);
  EXPECT_EQ(fresh.stats().compiles, 0u);
  EXPECT_EQ(fresh.stats().diskHits, 1u);
}

/// What a fresh JIT wrote to its disk cache for the test's GEMM (gfx950).
struct WrittenEntry {
  std::string key, path, bytes;
};
void writeEntry(const JitOptions &o, WrittenEntry &entry) {
  Jit jit(o);
  auto r = jit.compile("gemm", kParams, Chip::gfx950);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  entry.key = r->key;
  entry.path = DiskCache(o.cacheDirectory, "").entryPath(entry.key);
  auto buf = llvm::MemoryBuffer::getFile(entry.path);
  ASSERT_TRUE(bool(buf));
  entry.bytes = (*buf)->getBuffer().str();
}

/// Replaces the file at `path` with `text`.
void overwrite(const std::string &path, const std::string &text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec);
  os << text;
}

/// Compiles once, damages the entry with `damage`, and checks that a new
/// JIT notices, recompiles, and leaves a good entry behind.
void expectRecompiled(const std::string &dir,
                      const std::function<void(std::string &)> &damage,
                      const std::function<std::string(size_t)> &problem) {
  JitOptions o;
  o.cacheDirectory = dir;
  WrittenEntry entry;
  ASSERT_NO_FATAL_FAILURE(writeEntry(o, entry));
  const std::string &key = entry.key, &path = entry.path, &good = entry.bytes;
  DiskCache disk(dir, buildIdentity().id);
  std::string bad = good;
  damage(bad);
  ASSERT_NO_FATAL_FAILURE(overwrite(path, bad));
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

/// Identities of two builds of the compiler, as 64 hex digits.
const std::string kBuildA(64, 'a'), kBuildB(64, 'b');

TEST_F(JitTest, AnotherCompilerMissesAnUnchangedOneHits) {
  JitOptions a = options(), b = options();
  a.compilerIdentity = kBuildA;
  b.compilerIdentity = kBuildB;
  std::string keyA, keyB;
  {
    Jit jit(a);
    auto r = jit.compile("gemm", kParams, Chip::gfx942);
    ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
    EXPECT_EQ(r->outcome, CacheOutcome::Compiled);
    keyA = r->key;
  }
  {
    // A changed compiler: the same kernel, parameters and chip, another key;
    // compiled again, never served build A's code object.
    Jit jit(b);
    auto r = jit.compile("gemm", kParams, Chip::gfx942);
    ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
    EXPECT_EQ(r->outcome, CacheOutcome::Compiled);
    EXPECT_NE(r->key, keyA);
    keyB = r->key;
    JitStats s = jit.stats();
    EXPECT_EQ(s.diskHits, 0u);
    EXPECT_EQ(s.diskMisses, 1u);
    EXPECT_EQ(s.compiles, 1u);
  }
  // Each entry's header names the build that wrote it.
  auto identityOf = [&](const std::string &key) {
    auto buf = llvm::MemoryBuffer::getFile(DiskCache(dir_, "").entryPath(key));
    EXPECT_TRUE(bool(buf));
    return buf ? (*buf)->getBuffer().substr(120, 64).str() : std::string();
  };
  EXPECT_EQ(identityOf(keyA), kBuildA);
  EXPECT_EQ(identityOf(keyB), kBuildB);
  DiskCacheSummary sum = DiskCache(dir_, kBuildB).summarize();
  EXPECT_EQ(sum.entries, 2u);
  EXPECT_EQ(sum.currentEntries, 1u);
  EXPECT_EQ(sum.otherEntries, 1u);
  EXPECT_EQ(sum.otherIdentities, 1u);
  {
    // Build A rebuilt unchanged (the same identity): its entry hits.
    Jit jit(a);
    auto r = jit.compile("gemm", kParams, Chip::gfx942);
    ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
    EXPECT_EQ(r->outcome, CacheOutcome::DiskHit);
    EXPECT_EQ(r->key, keyA);
    JitStats s = jit.stats();
    EXPECT_EQ(s.diskHits, 1u);
    EXPECT_EQ(s.diskMisses, 0u);
    EXPECT_EQ(s.compiles, 0u);
  }
}

TEST_F(JitTest, EntryOfAnotherCompilerIsRecompiledAndReplaced) {
  // A sound entry at this build's key whose header names another build (a
  // copied cache folder, a key collision): not served, recompiled, and
  // replaced by this build's.
  JitOptions o = options();
  o.compilerIdentity = kBuildA;
  WrittenEntry entry;
  ASSERT_NO_FATAL_FAILURE(writeEntry(o, entry));
  const std::string &key = entry.key, &path = entry.path, &good = entry.bytes;
  DiskCache disk(dir_, kBuildA);
  // Build B writes the same code object at build A's key.
  std::string payload = good.substr(DiskCache::kHeaderSize);
  ASSERT_FALSE(bool(DiskCache(dir_, kBuildB)
                        .store(key, llvm::ArrayRef<uint8_t>(
                                        reinterpret_cast<const uint8_t *>(payload.data()),
                                        payload.size()))));
  DiskCache::Lookup l = disk.lookup(key);
  EXPECT_EQ(l.status, DiskCache::LookupStatus::Stale);
  EXPECT_EQ(l.problem, "written by another compiler (identity bbbbbbbbbbbbbbbb...)");

  Jit jit(o);
  auto r = jit.compile("gemm", kParams, Chip::gfx950);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->outcome, CacheOutcome::Compiled);
  JitStats s = jit.stats();
  EXPECT_EQ(s.diskHits, 0u);
  EXPECT_EQ(s.diskMisses, 1u);
  EXPECT_EQ(s.staleEntries, 1u);
  EXPECT_EQ(s.damagedEntries, 0u);
  auto again = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(again));
  EXPECT_EQ((*again)->getBuffer().str(), good); // build A's, whole
  EXPECT_EQ(disk.lookup(key).status, DiskCache::LookupStatus::Hit);
}

/// A kernel with nothing in it, named `name`: quick to compile, and code
/// objects of equal size for names of equal length.
std::string emptyKernel(const std::string &name) {
  return "func.func @" + name +
         "(%x: !tile.ptr<f32>) attributes {tile.kernel, tile.block_size = 64 : i64} {\n"
         "  return\n}\n";
}

/// Sets the file's modification time (what eviction reads as last use).
void setAge(const std::string &path, std::chrono::seconds age) {
  int fd;
  ASSERT_FALSE(llvm::sys::fs::openFileForReadWrite(
      path, fd, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_None));
  ASSERT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(
      fd, std::chrono::system_clock::now() - age));
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
}

uint64_t fileSize(const std::string &path) {
  uint64_t n = 0;
  EXPECT_FALSE(llvm::sys::fs::file_size(path, n)) << path;
  return n;
}

llvm::sys::TimePoint<> modified(const std::string &path) {
  llvm::sys::fs::file_status st;
  EXPECT_FALSE(llvm::sys::fs::status(path, st));
  return st.getLastModificationTime();
}

TEST_F(JitTest, EvictsOtherCompilersFirstThenLeastRecentlyUsed) {
  JitOptions mine = options(), other = options();
  mine.compilerIdentity = kBuildA;
  other.compilerIdentity = kBuildB;
  DiskCache disk(dir_, kBuildA);
  auto compile = [&](Jit &jit, const std::string &name) {
    auto r = jit.compile(emptyKernel(name), {}, Chip::gfx942);
    EXPECT_TRUE(bool(r)) << llvm::toString(r.takeError());
    return r ? disk.entryPath(r->key) : std::string();
  };
  std::string o0, k1, k2;
  {
    Jit jit(other);
    o0 = compile(jit, "k0");
  }
  Jit unbounded(mine);
  k1 = compile(unbounded, "k1");
  k2 = compile(unbounded, "k2");
  uint64_t size = fileSize(k1);
  ASSERT_EQ(fileSize(k2), size);
  ASSERT_EQ(fileSize(o0), size);
  // The other build's entry is the most recent, k1 the least.
  setAge(k1, std::chrono::seconds(300));
  setAge(k2, std::chrono::seconds(200));
  // A hit makes k1 the most recently used of this build's.
  {
    Jit jit(mine);
    auto r = jit.compile(emptyKernel("k1"), {}, Chip::gfx942);
    ASSERT_TRUE(bool(r));
    EXPECT_EQ(r->outcome, CacheOutcome::DiskHit);
  }
  EXPECT_GT(modified(k1), modified(k2));

  // Room for three entries: the fourth evicts the other build's, although
  // it is the newest.
  JitOptions bounded = mine;
  bounded.cacheMaxBytes = 3 * size;
  Jit jit(bounded);
  std::string k3 = compile(jit, "k3");
  EXPECT_FALSE(llvm::sys::fs::exists(o0));
  EXPECT_TRUE(llvm::sys::fs::exists(k1));
  EXPECT_TRUE(llvm::sys::fs::exists(k2));
  EXPECT_TRUE(llvm::sys::fs::exists(k3));
  EXPECT_EQ(jit.stats().evictions, 1u);
  // Then this build's least recently used: k2 (k1 was hit since).
  std::string k4 = compile(jit, "k4");
  EXPECT_FALSE(llvm::sys::fs::exists(k2));
  EXPECT_TRUE(llvm::sys::fs::exists(k1));
  EXPECT_TRUE(llvm::sys::fs::exists(k3));
  EXPECT_TRUE(llvm::sys::fs::exists(k4));
  EXPECT_EQ(jit.stats().evictions, 2u);
  DiskCacheSummary s = disk.summarize();
  EXPECT_EQ(s.entries, 3u);
  EXPECT_EQ(s.bytes, 3 * size);
  EXPECT_EQ(s.otherEntries, 0u);

  // A bound smaller than one entry keeps the entry just written.
  JitOptions tiny = mine;
  tiny.cacheMaxBytes = 1;
  Jit small(tiny);
  std::string k5 = compile(small, "k5");
  EXPECT_TRUE(llvm::sys::fs::exists(k5));
  EXPECT_EQ(disk.summarize().entries, 1u);
}

TEST_F(JitTest, ClearRemovesEntriesOnly) {
  Jit jit(options());
  ASSERT_TRUE(bool(jit.compile(emptyKernel("k1"), {}, Chip::gfx950)));
  ASSERT_TRUE(bool(jit.compile(emptyKernel("k2"), {}, Chip::gfx950)));
  // The folder may be shared ($KCC_CACHE_DIR=~/work): other files stay.
  std::string notes = dir_ + "/notes.txt";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(notes, ec);
    ASSERT_FALSE(ec);
    os << "mine";
  }
  DiskCache disk = jit.diskCache();
  uint64_t bytes = disk.summarize().bytes;
  auto removed = disk.clear();
  ASSERT_TRUE(bool(removed)) << llvm::toString(removed.takeError());
  EXPECT_EQ(removed->first, 2u);
  EXPECT_EQ(removed->second, bytes);
  EXPECT_EQ(disk.summarize().entries, 0u);
  EXPECT_TRUE(llvm::sys::fs::exists(notes));
}

TEST(CacheMaxBytes, FromEnvironment) {
  const char *old = getenv("KCC_CACHE_MAX_BYTES");
  std::string saved = old ? old : "";
  unsetenv("KCC_CACHE_MAX_BYTES");
  EXPECT_EQ(llvm::cantFail(cacheMaxBytesFromEnvironment()), uint64_t(1) << 30);
  setenv("KCC_CACHE_MAX_BYTES", "123456", 1);
  EXPECT_EQ(llvm::cantFail(cacheMaxBytesFromEnvironment()), 123456u);
  setenv("KCC_CACHE_MAX_BYTES", "512M", 1);
  EXPECT_EQ(llvm::cantFail(cacheMaxBytesFromEnvironment()), uint64_t(512) << 20);
  setenv("KCC_CACHE_MAX_BYTES", "2g", 1);
  EXPECT_EQ(llvm::cantFail(cacheMaxBytesFromEnvironment()), uint64_t(2) << 30);
  for (const char *bad : {"lots", "-1", "1T", "99999999999999999999"}) {
    setenv("KCC_CACHE_MAX_BYTES", bad, 1);
    auto r = cacheMaxBytesFromEnvironment();
    ASSERT_FALSE(bool(r)) << bad;
    EXPECT_EQ(llvm::toString(r.takeError()),
              std::string("KCC_CACHE_MAX_BYTES='") + bad +
                  "' is not a size; expected bytes, optionally with a K, M or G "
                  "suffix (e.g. 512M)");
  }
  // A JIT with an unreadable bound says so instead of compiling under a
  // bound nobody asked for.
  setenv("KCC_CACHE_MAX_BYTES", "lots", 1);
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kcc-jit-test", dir));
  JitOptions o;
  o.cacheDirectory = std::string(dir);
  Jit jit(o);
  auto r = jit.compile(emptyKernel("k"), {}, Chip::gfx942);
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(llvm::toString(r.takeError()),
            "KCC_CACHE_MAX_BYTES='lots' is not a size; expected bytes, optionally "
            "with a K, M or G suffix (e.g. 512M)");
  llvm::sys::fs::remove_directories(dir);
  if (old)
    setenv("KCC_CACHE_MAX_BYTES", saved.c_str(), 1);
  else
    unsetenv("KCC_CACHE_MAX_BYTES");
}

TEST_F(JitTest, TruncatedEntryIsRecompiled) {
  expectRecompiled(dir_, [](std::string &s) { s.resize(s.size() - 100); },
                   [](size_t n) {
                     size_t header = DiskCache::kHeaderSize;
                     return "payload is " + std::to_string(n - 100 - header) +
                            " bytes, header says " + std::to_string(n - header) +
                            " (truncated?)";
                   });
}

TEST_F(JitTest, FlippedPayloadByteIsRecompiled) {
  expectRecompiled(dir_, [](std::string &s) { s[s.size() / 2] ^= 0x40; },
                   [](size_t) {
                     return std::string("checksum mismatch (payload or header edited)");
                   });
}

// An entry another build wrote, whose header was given this build's identity
// (or any edited key or identity), is not served: the checksum covers them.
TEST_F(JitTest, ForgedHeaderIsRecompiled) {
  expectRecompiled(dir_, [](std::string &s) { s.replace(120, 64, std::string(64, 'f')); },
                   [](size_t) {
                     return std::string("checksum mismatch (payload or header edited)");
                   });
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
  // At a line of the kernel's file (its parameter declarations), not 0:0.
  EXPECT_EQ(text.find(":0:0:"), std::string::npos) << text;
  EXPECT_NE(text.find(":1: error: unknown parameter 'FOO' (-D FOO=1); "
                      "this kernel declares: BK, BLOCK, BM, BN, DTYPE, FETCH_ALWAYS, "
                      "HAS_BIAS, KS, OUT, PAD, PINGPONG, PPREG, RA, RB, REG, RROWS, SPLITK, SWZ, WGM, WGN, "
                      "WIDE, WM, WN, WPS"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.rfind("the tile passes failed\n", 0), 0u) << text;
  // A failure is not cached: the next call compiles (and fails) again.
  auto again = jit.compile("gemm", {"FOO=1"}, Chip::gfx942);
  EXPECT_FALSE(bool(again));
  consumeError(again.takeError());
  EXPECT_EQ(jit.stats().compiles, 2u);
  // A malformed parameter is refused where it is read: nothing compiles.
  auto malformed = jit.compile("gemm", {"BK"}, Chip::gfx942);
  ASSERT_FALSE(bool(malformed));
  EXPECT_EQ(llvm::toString(malformed.takeError()), "parameter 'BK': write it NAME=VALUE");
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

// The folder is made private to the user: the JIT runs what it finds there.
TEST(JitCacheFolder, IsCreatedPrivate) {
  llvm::SmallString<128> parent;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kcc-jit-private", parent));
  llvm::SmallString<128> dir(parent);
  llvm::sys::path::append(dir, "nested", "cache");
  JitOptions o;
  o.cacheDirectory = std::string(dir);
  Jit jit(o);
  auto r = jit.compile(emptyKernel("k"), {}, Chip::gfx942);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  llvm::sys::fs::file_status st;
  ASSERT_FALSE(llvm::sys::fs::status(dir, st));
  EXPECT_EQ(st.permissions() & llvm::sys::fs::all_all, llvm::sys::fs::owner_all);
  llvm::sys::fs::remove_directories(parent);
}

// A cache folder that cannot be written (here a file stands in its place)
// costs a warning, once, and nothing else: every compile still succeeds.
TEST(JitCacheFolder, UnwritableWarnsOnceAndCompiles) {
  llvm::SmallString<128> file;
  int fd;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("kcc-not-a-folder", "", fd, file));
  ::close(fd);
  JitOptions o;
  o.cacheDirectory = std::string(file);
  Jit jit(o);
  testing::internal::CaptureStderr();
  auto a = jit.compile(emptyKernel("a"), {}, Chip::gfx942);
  auto b = jit.compile(emptyKernel("b"), {}, Chip::gfx942);
  std::string warnings = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
  ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
  EXPECT_EQ(jit.stats().diskWriteFailures, 2u);
  // Once: the second failed store says nothing more.
  EXPECT_EQ(warnings, "kcc: warning: cannot write the compile cache: cannot create a "
                      "temporary file in '" + std::string(file) +
                          "': Not a directory; compiling without it (set "
                          "KCC_CACHE_DIR to a writable folder)\n");
  llvm::sys::fs::remove(file);
}

} // namespace
