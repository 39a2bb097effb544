//===- ThreadTests.cpp - Workgroups on several host threads ---------------===//
//
// A launch's outputs do not depend on how many host threads run its
// workgroups (LaunchOptions::threads, KCC_EMU_THREADS), for kernels whose
// outputs do not depend on the order in which workgroups run: LDS tiles
// with barriers, atomics from every workgroup on the same words, and
// workgroups that spin on flags other workgroups release. Check mode runs
// on one thread whatever is asked, so its findings follow its seed alone.
// A KCC_EMU_THREADS that is not a thread count is refused.
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include "runtime/emu/Check.h"

#include <algorithm>
#include <cstdlib>
#include <random>

#include <sys/wait.h>
#include <unistd.h>

using namespace kcc;
using namespace kcc::emutest;

namespace {

using Threads = EmuTest;

std::vector<int32_t> ints(std::mt19937_64 &rng, size_t n, int32_t lo, int32_t hi) {
  std::uniform_int_distribution<int32_t> d(lo, hi);
  std::vector<int32_t> v(n);
  for (auto &x : v)
    x = d(rng);
  return v;
}

/// Thread counts every test compares: one, two, and more than this
/// machine's cores (threads that share cores must not change anything).
constexpr uint32_t kThreadCounts[] = {1, 2, 7};

/// Launches with `threads` host threads; the launch's stats, or a failure.
emu::LaunchStats launchOn(emu::Device &dev, emu::Module &m,
                          const std::string &kernel, emu::Dim3 grid,
                          emu::Dim3 block, const ArgPack &args,
                          uint32_t threads) {
  emu::LaunchOptions o;
  o.grid = grid;
  o.block = block;
  o.threads = threads;
  auto stats = dev.launch(m, kernel, o, args.data());
  if (!stats) {
    ADD_FAILURE() << kernel << " on " << threads
                  << " threads: " << llvm::toString(stats.takeError());
    return {};
  }
  return *stats;
}

TEST_P(Threads, LdsTilesWithBarriersAreThreadCountInvariant) {
  auto m = load("lds");
  ASSERT_TRUE(m);
  const int M = 128, N = 96, K = 64;
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> a(M * K), b(K * N);
  for (float &x : a)
    x = d(rng);
  for (float &x : b)
    x = d(rng);
  uint64_t da = upload(a), db = upload(b);
  std::vector<uint32_t> first;
  uint64_t firstInstructions = 0;
  for (uint32_t t : kThreadCounts) {
    uint64_t dc = alloc(M * N * 4);
    emu::LaunchStats s =
        launchOn(*dev, *m, "matmul", {N / 16, M / 16, 1}, {16, 16, 1},
                 ArgPack().add(da).add(db).add(dc).add(M).add(N).add(K), t);
    auto c = download<uint32_t>(dc, M * N);
    if (first.empty()) {
      first = c;
      firstInstructions = s.waveInstructions;
      continue;
    }
    EXPECT_TRUE(c == first) << "matmul output on " << t << " threads differs";
    // No workgroup waits on another: the same instructions ran.
    EXPECT_EQ(s.waveInstructions, firstInstructions) << t << " threads";
    EXPECT_EQ(s.workgroups, uint64_t(M / 16) * (N / 16));
  }
}

TEST_P(Threads, CrossWorkgroupAtomicsAreThreadCountInvariant) {
  auto m = load("atomics");
  ASSERT_TRUE(m);
  // 79 workgroups of 256 adding into the same 7 + 1 + 3 words, with max,
  // min and or on single words: every workgroup contends for every word.
  const int n = 20000;
  auto val = ints(rng, n, 1, 999999);
  uint64_t dval = upload(val);
  std::vector<uint32_t> first;
  for (uint32_t t : kThreadCounts) {
    uint64_t sum32 = alloc(7 * 4), sum64 = alloc(8), fsum = alloc(3 * 4);
    uint64_t imax = upload(std::vector<int32_t>{INT32_MIN});
    uint64_t umin = upload(std::vector<uint32_t>{UINT32_MAX});
    uint64_t bits = alloc(8), addOld = alloc(n * 4);
    launchOn(*dev, *m, "global_atomics", {(n + 255) / 256, 1, 1}, {256, 1, 1},
             ArgPack().add(dval).add(sum32).add(sum64).add(fsum).add(imax)
                 .add(umin).add(bits).add(addOld).add(n),
             t);
    // What every order of the atomics leaves (the f32 sums add integers
    // below 2^24, exact in any order); the old values they return follow
    // the order, so they are checked for being one order's running sums.
    std::vector<uint32_t> out;
    for (uint64_t a : {sum32, sum64, fsum, imax, umin, bits}) {
      size_t words = a == sum32 ? 7 : a == fsum ? 3 : a == imax || a == umin ? 1 : 2;
      auto w = download<uint32_t>(a, words);
      out.insert(out.end(), w.begin(), w.end());
    }
    auto olds = download<uint32_t>(addOld, n);
    auto sums = download<uint32_t>(sum32, 7);
    for (int c = 0; c < 7; ++c) {
      std::vector<std::pair<uint32_t, uint32_t>> chain; // old, addend
      for (int i = c; i < n; i += 7)
        chain.push_back({olds[i], uint32_t(val[i])});
      std::sort(chain.begin(), chain.end());
      uint32_t expect = 0;
      bool ok = true;
      for (auto &[old, add] : chain) {
        ok &= old == expect;
        expect = old + add;
      }
      EXPECT_TRUE(ok && expect == sums[c])
          << "counter " << c << " on " << t
          << " threads: the returned old values are not the running sums of "
             "one order of the additions (an atomic was not indivisible)";
    }
    if (first.empty())
      first = out;
    else
      EXPECT_TRUE(out == first) << "atomic results on " << t << " threads differ";
  }
}

TEST_P(Threads, FlagChainAcrossWorkgroupsIsThreadCountInvariant) {
  auto m = load("sync");
  ASSERT_TRUE(m);
  // Workgroup k spins until workgroup k + 1 released its data: all 24 must
  // be resident and progress, whichever thread holds each.
  const int nwg = 24;
  auto in = ints(rng, nwg * 64, -1000, 1000);
  uint64_t din = upload(in);
  std::vector<int32_t> first;
  for (uint32_t t : kThreadCounts) {
    uint64_t data = alloc(nwg * 64 * 4), flags = alloc(nwg * 4);
    launchOn(*dev, *m, "chain", {nwg, 1, 1}, {64, 1, 1},
             ArgPack().add(din).add(data).add(flags).add(nwg), t);
    auto out = download<int32_t>(data, nwg * 64);
    if (first.empty())
      first = out;
    else
      EXPECT_TRUE(out == first) << "chain output on " << t << " threads differs";
  }
  std::vector<int32_t> want(nwg * 64);
  for (int l = 0; l < 64; ++l) {
    int32_t acc = 0;
    for (int k = nwg - 1; k >= 0; --k) {
      acc += in[k * 64 + l];
      want[k * 64 + l] = acc;
    }
  }
  EXPECT_TRUE(first == want) << "suffix sums";
}

TEST_P(Threads, DeadlockIsReportedOnThreads) {
  auto m = load("sync");
  ASSERT_TRUE(m);
  uint64_t flag = alloc(4), out = alloc(64 * 4);
  emu::LaunchOptions o;
  o.grid = {4, 1, 1};
  o.block = {64, 1, 1};
  o.threads = 3;
  o.watchdogInstructions = 1 << 16;
  auto stats = dev->launch(*m, "wait_forever", o,
                           ArgPack().add(flag).add(out).data());
  ASSERT_FALSE(bool(stats));
  std::string err = llvm::toString(stats.takeError());
  EXPECT_NE(err.find("deadlock: no progress"), std::string::npos) << err;
  EXPECT_NE(err.find("waiting waves:"), std::string::npos) << err;
  for (const char *wg : {"(0,0,0)", "(1,0,0)", "(2,0,0)", "(3,0,0)"})
    EXPECT_NE(err.find(std::string("workgroup ") + wg + " wave 0"),
              std::string::npos)
        << err;
}

TEST_P(Threads, CheckModeFollowsItsSeedOnAnyThreadCount) {
  auto m = load("checkbugs");
  ASSERT_TRUE(m);
  std::vector<std::string> first;
  uint64_t tile = alloc(256 * 4), flag = alloc(4), out = alloc(256 * 4);
  for (uint32_t t : kThreadCounts) {
    for (uint64_t a : {tile, flag, out})
      ASSERT_TRUE(check(dev->memset(a, 0, a == flag ? 4 : 256 * 4), "memset"));
    emu::LaunchOptions o;
    o.grid = {2, 1, 1};
    o.block = {256, 1, 1};
    o.threads = t;
    o.check.enabled = true;
    o.check.seed = 7;
    auto stats = dev->launch(*m, "release_no_barrier", o,
                             ArgPack().add(tile).add(flag).add(out).data());
    ASSERT_FALSE(bool(stats));
    std::vector<std::string> found;
    llvm::Error rest = llvm::handleErrors(
        stats.takeError(), [&](const emu::CheckError &e) {
          for (const emu::Finding &f : e.findings)
            found.push_back(f.message());
        });
    ASSERT_FALSE(bool(rest)) << llvm::toString(std::move(rest));
    ASSERT_FALSE(found.empty());
    if (first.empty())
      first = found;
    else
      EXPECT_EQ(found, first) << "check mode on " << t << " threads";
  }
}

TEST_P(Threads, ThreadedLaunchInAForkedChild) {
  // The host threads are kept between launches: a child forked after a
  // threaded launch has none of them and must start its own.
  auto m = load("sync");
  ASSERT_TRUE(m);
  const int nwg = 8;
  uint64_t din = alloc(nwg * 64 * 4);
  auto chain = [&]() -> bool {
    uint64_t data = alloc(nwg * 64 * 4), flags = alloc(nwg * 4);
    emu::LaunchOptions o;
    o.grid = {nwg, 1, 1};
    o.block = {64, 1, 1};
    o.threads = 4;
    auto stats = dev->launch(*m, "chain", o,
                             ArgPack().add(din).add(data).add(flags).add(nwg).data());
    if (!stats) {
      llvm::consumeError(stats.takeError());
      return false;
    }
    return download<uint32_t>(flags, nwg) == std::vector<uint32_t>(nwg, 1);
  };
  ASSERT_TRUE(chain());
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    alarm(60);
    _exit(chain() ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "the child's threaded launch failed or hung (status " << status << ")";
}

TEST_P(Threads, BadThreadCountInTheEnvironmentIsAnError) {
  auto m = load("sync");
  ASSERT_TRUE(m);
  uint64_t data = alloc(64 * 4), flags = alloc(4), din = alloc(64 * 4);
  for (const char *bad : {"0", "-2", "many", "4x", "100000"}) {
    setenv("KCC_EMU_THREADS", bad, 1);
    emu::LaunchOptions o;
    o.grid = {1, 1, 1};
    o.block = {64, 1, 1};
    auto stats = dev->launch(*m, "chain", o,
                             ArgPack().add(din).add(data).add(flags).add(1).data());
    unsetenv("KCC_EMU_THREADS");
    ASSERT_FALSE(bool(stats)) << "KCC_EMU_THREADS=" << bad;
    EXPECT_EQ(llvm::toString(stats.takeError()),
              "KCC_EMU_THREADS='" + std::string(bad) +
                  "' is not understood; use a number of host threads from 1 "
                  "to 1024 (1: one thread, as before), or unset it for every "
                  "hardware thread");
  }
  setenv("KCC_EMU_THREADS", "3", 1);
  EXPECT_EQ(*emu::hostThreads(0), 3u);
  EXPECT_EQ(*emu::hostThreads(5), 5u) << "an explicit count wins";
  unsetenv("KCC_EMU_THREADS");
}

INSTANTIATE_TEST_SUITE_P(Chips, Threads,
                         ::testing::Values(Chip::gfx942, Chip::gfx950),
                         chipParamName);

} // namespace
