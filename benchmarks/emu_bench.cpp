//===- emu_bench.cpp - Throughput of the gfx942/gfx950 emulator -----------===//
//
// Runs three clang-built kernels (emu_bench_kernels.hip) on each emulated
// chip and prints wave-instructions per second: a VALU-bound FMA chain, an
// MFMA-bound loop (also as GFLOP/s) and a memory-bound triad (also as GB/s),
// each on one host thread (KCC_EMU_THREADS=1) and timed by that thread's CPU
// time, so the figures are per core even on a machine shared with other
// work.
// Then it runs the MFMA-heavy and the memory-bound kernel again in check mode
// (LaunchOptions::check, which runs on one thread) and prints the slowdown
// against plain emulation (both on one thread, by CPU time), and the VALU
// and MFMA kernels on more workgroups on one thread and on every hardware
// thread (wall time): the scaling.
//
//   ninja emu_bench && ./bin/emu_bench [KERNEL_DIR]
//
//===----------------------------------------------------------------------===//
#include "runtime/Module.h"
#include "runtime/Runtime.h"
#include "runtime/emu/MfmaKernels.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <string>
#include <vector>

using namespace llvm;
using namespace kcc;

namespace {

template <class T> T check(Expected<T> v) {
  if (!v) {
    errs() << "emu_bench: " << toString(v.takeError()) << "\n";
    exit(1);
  }
  return std::move(*v);
}
template <class T> T &check(Expected<T &> v) {
  if (!v) {
    errs() << "emu_bench: " << toString(v.takeError()) << "\n";
    exit(1);
  }
  return *v;
}
void check(Error e) {
  if (e) {
    errs() << "emu_bench: " << toString(std::move(e)) << "\n";
    exit(1);
  }
}

struct Args {
  std::vector<uint8_t> bytes;
  template <class T> Args &add(T v) {
    size_t align = sizeof(T);
    bytes.resize((bytes.size() + align - 1) / align * align);
    size_t at = bytes.size();
    bytes.resize(at + sizeof(T));
    std::memcpy(bytes.data() + at, &v, sizeof(T));
    return *this;
  }
};

/// CPU seconds the calling thread has run.
double threadCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

/// The host threads later launches run on (the emulator reads
/// KCC_EMU_THREADS at every launch); 0: every hardware thread.
unsigned threads = 0;
/// Scaling compares wall times, on one thread too.
bool wallClock = false;
void useThreads(unsigned n) {
  threads = n;
  if (n)
    setenv("KCC_EMU_THREADS", std::to_string(n).c_str(), 1);
  else
    unsetenv("KCC_EMU_THREADS");
}

/// The fastest of `reps` runs: on a shared machine the others are the
/// same work slowed by other processes.
template <class Run> LaunchResult fastest(Run run, int reps = 3) {
  LaunchResult best = run();
  for (int i = 1; i < reps; ++i) {
    LaunchResult r = run();
    if (r.hostSeconds < best.hostSeconds)
      best = r;
  }
  return best;
}

/// What the host gives `threads` threads of plain arithmetic together, as a
/// multiple of one thread's: the bound on any scaling measured beside it
/// (a machine shared with other work gives less than its core count).
double hostScaling(unsigned threads) {
  auto burn = [](unsigned n) {
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < n; ++t)
      pool.emplace_back([] {
        volatile double x = 0;
        for (long i = 0; i < 50000000; ++i)
          x = x + 1.0;
      });
    for (std::thread &t : pool)
      t.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start).count();
  };
  double one = std::min(burn(1), burn(1)), all = std::min(burn(threads), burn(threads));
  return one * threads / all;
}

void report(StringRef chip, StringRef what, const LaunchResult &s,
            StringRef extra) {
  uint64_t instructions = s.waveInstructions.value_or(0);
  double rate = double(instructions) / s.hostSeconds;
  outs() << format("%-7s %-10s %12llu wave-instr %8.3f s %8.2f M wave-instr/s",
                   chip.str().c_str(), what.str().c_str(),
                   (unsigned long long)instructions, s.hostSeconds, rate / 1e6)
         << "  " << extra << "\n";
}

} // namespace

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : KCC_EMU_BENCH_KERNEL_DIR;
  unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  // Measured once: each burn runs a few hundred milliseconds.
  double hostGives = hostScaling(hardware);
  outs() << "MFMA block products on " << emu::mfmaHostVectors()
         << "; per-core figures on 1 host thread (its CPU time, fastest of 3 "
            "runs), scaling to "
         << hardware << " threads; this host gives " << format("%.2f", hostGives)
         << "x one thread's arithmetic on " << hardware << " threads\n";
  Runtime &runtime = check(Runtime::shared());
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    StringRef name = getChipInfo(chip).name;
    std::string path = dir + "/emu_bench_kernels-" + name.str() + ".hsaco";
    auto file = MemoryBuffer::getFile(path, false, false);
    if (!file) {
      errs() << "emu_bench: cannot read " << path << ": "
             << file.getError().message() << "\n";
      return 1;
    }
    Device &dev = check(runtime.device("emu:" + name.str()));
    Module module = check(Module::load(dev, ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>((*file)->getBufferStart()),
        (*file)->getBufferSize())));
    // A launch through the device interface, as every op makes it.
    // On one thread the launch runs on this one, so its CPU time is the
    // work of one core, whatever else the machine runs; on several threads
    // the wall time is what counts.
    auto launch = [&](StringRef kernel, const LaunchConfig &config,
                      ArrayRef<uint8_t> kernarg) {
      Kernel k = check(module.kernel(kernel));
      double cpu0 = threadCpuSeconds();
      LaunchResult r = check(dev.launch(k.loadedCode(), k.info(), config, kernarg));
      if (threads == 1 && !wallClock)
        r.hostSeconds = threadCpuSeconds() - cpu0;
      return r;
    };

    useThreads(1);
    {
      const int groups = 32, iters = 2000;
      uint64_t out = check(dev.allocate(groups * 256 * 4));
      LaunchConfig o;
      o.grid = {groups, 1, 1};
      o.block = {256, 1, 1};
      auto s = fastest([&] {
        return launch("valu_fma", o, Args().add(out).add(iters).bytes);
      });
      report(name, "valu_fma", s, "");
    }
    {
      const int groups = 16, iters = 400;
      uint64_t out = check(dev.allocate(groups * 64 * 4));
      LaunchConfig o;
      o.grid = {groups, 1, 1};
      o.block = {64, 1, 1};
      auto s = fastest([&] {
        return launch("mfma_loop", o, Args().add(out).add(iters).bytes);
      });
      double flops = double(groups) * iters * 4 * 2.0 * 32 * 32 * 8;
      char extra[64];
      snprintf(extra, sizeof(extra), "%.2f GFLOP/s of bf16 MFMA per core",
               flops / s.hostSeconds / 1e9);
      report(name, "mfma_loop", s, extra);
    }
    // Check mode against plain emulation, on the same launches.
    auto slowdown = [&](StringRef what, auto run) {
      LaunchResult plain = fastest([&] { return run(false); }),
                   checked = fastest([&] { return run(true); });
      outs() << format("%-7s %-10s check mode %8.3f s vs plain %8.3f s: %5.1fx slowdown",
                       name.str().c_str(), what.str().c_str(), checked.hostSeconds,
                       plain.hostSeconds, checked.hostSeconds / plain.hostSeconds)
             << "\n";
    };
    slowdown("mfma_loop", [&](bool checkMode) {
      const int groups = 16, iters = 400;
      uint64_t out = check(dev.allocate(groups * 64 * 4));
      LaunchConfig o;
      o.grid = {groups, 1, 1};
      o.block = {64, 1, 1};
      o.check.enabled = checkMode;
      auto s = launch("mfma_loop", o, Args().add(out).add(iters).bytes);
      check(dev.free(out));
      return s;
    });
    slowdown("triad", [&](bool checkMode) {
      // 4 MiB per buffer: check mode keeps 12 bytes of shadow per byte.
      const int n = 1 << 18;
      uint64_t a = check(dev.allocate(uint64_t(n) * 16));
      uint64_t b = check(dev.allocate(uint64_t(n) * 16));
      uint64_t c = check(dev.allocate(uint64_t(n) * 16));
      LaunchConfig o;
      o.grid = {256, 1, 1};
      o.block = {256, 1, 1};
      o.check.enabled = checkMode;
      auto s = launch("triad", o,
                                Args().add(a).add(b).add(c).add(2.0f).add(n).bytes);
      for (uint64_t p : {a, b, c})
        check(dev.free(p));
      return s;
    });
    {
      const int n = 1 << 20; // float4 elements: 16 MiB per buffer
      uint64_t a = check(dev.allocate(uint64_t(n) * 16));
      uint64_t b = check(dev.allocate(uint64_t(n) * 16));
      uint64_t c = check(dev.allocate(uint64_t(n) * 16));
      std::vector<float> init(size_t(n) * 4, 1.5f);
      check(dev.copyToDevice(a, init.data(), uint64_t(n) * 16));
      check(dev.copyToDevice(b, init.data(), uint64_t(n) * 16));
      LaunchConfig o;
      o.grid = {256, 1, 1};
      o.block = {256, 1, 1};
      auto s = fastest([&] {
        return launch("triad", o,
                      Args().add(a).add(b).add(c).add(2.0f).add(n).bytes);
      });
      double bytes = double(n) * 16 * 3;
      char extra[64];
      snprintf(extra, sizeof(extra), "%.2f GB/s", bytes / s.hostSeconds / 1e9);
      report(name, "triad", s, extra);
      std::vector<float> back(4);
      check(dev.copyFromDevice(back.data(), c, 16));
      if (back[0] != 1.5f * 2.0f + 1.5f) {
        errs() << "emu_bench: triad produced " << back[0] << ", expected 4.5\n";
        return 1;
      }
    }
    // Scaling: the same launches on one thread and on every hardware
    // thread, with enough workgroups (the residency bound of 8 CUs holds
    // 64 and more) to keep every thread busy.
    auto scaling = [&](StringRef what, auto run) {
      wallClock = true;
      useThreads(1);
      LaunchResult one = fastest(run);
      useThreads(0);
      LaunchResult all = fastest(run);
      wallClock = false;
      outs() << format("%-7s %-10s 1 thread %8.3f s, %u threads %8.3f s: "
                       "%4.2fx (the host gives %4.2fx)",
                       name.str().c_str(), what.str().c_str(), one.hostSeconds,
                       hardware, all.hostSeconds,
                       one.hostSeconds / all.hostSeconds, hostGives)
             << "\n";
    };
    scaling("valu_fma", [&] {
      const int groups = 64, iters = 1000;
      uint64_t out = check(dev.allocate(groups * 256 * 4));
      LaunchConfig o;
      o.grid = {groups, 1, 1};
      o.block = {256, 1, 1};
      auto s = launch("valu_fma", o, Args().add(out).add(iters).bytes);
      check(dev.free(out));
      return s;
    });
    scaling("mfma_loop", [&] {
      const int groups = 64, iters = 100;
      uint64_t out = check(dev.allocate(groups * 64 * 4));
      LaunchConfig o;
      o.grid = {groups, 1, 1};
      o.block = {64, 1, 1};
      auto s = launch("mfma_loop", o, Args().add(out).add(iters).bytes);
      check(dev.free(out));
      return s;
    });
    useThreads(1);
  }
  return 0;
}
