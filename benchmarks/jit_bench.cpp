//===- jit_bench.cpp - Latency of the JIT and its caches for the GEMM -----===//
//
//   build/bin/jit_bench [--reps N]
//
// For kernels/gemm on gfx942 and gfx950 (the parameters ops::gemm picks,
// bf16 -> f32): a cold compile (empty caches, the whole pipeline in-process),
// a warm hit in the memory cache, a hit in the disk cache from a fresh JIT
// object, and a hit from a second process: the benchmark runs itself again
// with --child on the same cache directory and reports what the child saw.
// The cache lives in a temporary directory, removed at the end, so runs do
// not depend on ~/.cache/kcc.
//
//===----------------------------------------------------------------------===//
#include "kernels/gemm/GemmOp.h"
#include "kernels/EmbeddedKernels.h"
#include "runtime/Jit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <vector>

using namespace llvm;
using namespace kcc;

namespace {

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::vector<std::string> params(Chip chip) {
  return ops::gemmParams(chip, DType::bf16, DType::f32, /*hasBias=*/false, {4096, 4096, 4096});
}

/// Times one compile() and checks where the result came from.
double timeCompile(Jit &jit, Chip chip, CacheOutcome expected) {
  double t0 = now();
  Expected<CompiledKernel> r = jit.compile("gemm", params(chip), chip);
  double t = now() - t0;
  if (!r) {
    errs() << "jit_bench: " << toString(r.takeError()) << "\n";
    exit(1);
  }
  if (r->outcome != expected) {
    errs() << "jit_bench: expected a " << cacheOutcomeName(expected) << ", got a "
           << cacheOutcomeName(r->outcome) << "\n";
    exit(1);
  }
  return t;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string ms(double seconds) {
  return formatv("{0:F3} ms", seconds * 1e3).str();
}

/// The child: one disk hit with a fresh JIT, its latency on stdout.
int child(StringRef dir, StringRef chipName) {
  std::optional<Chip> chip = parseChip(chipName);
  if (!chip)
    return 1;
  JitOptions o;
  o.cacheDirectory = dir.str();
  Jit jit(o);
  double t = timeCompile(jit, *chip, CacheOutcome::DiskHit);
  outs() << format("%.6f", t) << "\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  kcc::registerEmbeddedKernels();
  if (argc == 4 && StringRef(argv[1]) == "--child")
    return child(argv[2], argv[3]);
  int reps = 5;
  if (argc == 3 && StringRef(argv[1]) == "--reps") {
    if (StringRef(argv[2]).getAsInteger(10, reps) || reps <= 0) {
      errs() << "jit_bench: --reps takes a positive number; got '" << argv[2] << "'\n";
      return 2;
    }
  } else if (argc != 1) {
    bool help = argc == 2 && (StringRef(argv[1]) == "--help" || StringRef(argv[1]) == "-h");
    (help ? outs() : errs()) << "usage: jit_bench [--reps N]\n";
    return help ? 0 : 2;
  }

  std::string self = sys::fs::getMainExecutable(argv[0], (void *)&main);
  outs() << "JIT latency for kernels/gemm (bf16 -> f32), median of " << reps
         << " (memory hits: median of " << reps << " x 1000)\n";
  outs() << format("%-8s %14s %14s %14s %18s\n", "chip", "cold compile",
                   "memory hit", "disk hit", "disk hit (process)");
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    std::vector<double> cold, memory, disk, process;
    for (int r = 0; r < reps; ++r) {
      SmallString<128> dir;
      if (std::error_code ec = sys::fs::createUniqueDirectory("kcc-jit-bench", dir)) {
        errs() << "jit_bench: " << ec.message() << "\n";
        return 1;
      }
      JitOptions o;
      o.cacheDirectory = std::string(dir);
      {
        Jit jit(o);
        cold.push_back(timeCompile(jit, chip, CacheOutcome::Compiled));
        double t0 = now();
        for (int i = 0; i < 1000; ++i)
          timeCompile(jit, chip, CacheOutcome::MemoryHit);
        memory.push_back((now() - t0) / 1000);
      }
      {
        Jit fresh(o); // same directory, empty memory cache
        disk.push_back(timeCompile(fresh, chip, CacheOutcome::DiskHit));
      }
      // A second process on the same cache directory.
      SmallString<128> out;
      sys::fs::createTemporaryFile("kcc-jit-bench", "txt", out);
      std::string chipName = getChipInfo(chip).name.str();
      StringRef childArgs[] = {self, "--child", dir, chipName};
      std::optional<StringRef> redirects[] = {std::nullopt, StringRef(out),
                                              std::nullopt};
      std::string err;
      int rc = sys::ExecuteAndWait(self, childArgs, std::nullopt, redirects, 0, 0, &err);
      auto text = MemoryBuffer::getFile(out);
      double t;
      if (rc != 0 || !text || StringRef((*text)->getBuffer()).trim().getAsDouble(t)) {
        errs() << "jit_bench: the child process failed (exit " << rc << ") " << err
               << "\n";
        return 1;
      }
      process.push_back(t);
      sys::fs::remove(out);
      sys::fs::remove_directories(dir);
    }
    outs() << format("%-8s %14s %14s %14s %18s\n",
                     getChipInfo(chip).name.str().c_str(), ms(median(cold)).c_str(),
                     ms(median(memory)).c_str(), ms(median(disk)).c_str(),
                     ms(median(process)).c_str());
  }
  outs() << "(the child process found the entry the parent wrote: a disk hit, "
            "not a compile)\n";
  return 0;
}
