//===- timing_gate.cpp - Timing-model regression gate for kcc's kernels ---===//
//
//   timing_gate [--baseline FILE] [--write-baseline FILE] [--tolerance 0.02]
//
// Compiles kernels/gemm/gemm.mlir (bf16 in, f32 out, default tiles) for
// gfx942 and gfx950, runs one CU's workgroups of a 256 x 256 x 4096 GEMM in
// steady-state mode (8 iterations of the K loop) and prints, per chip, the
// steady-state cycles per iteration, the MFMA-pipe busy fraction and the
// instruction mix per iteration. With --baseline it compares against the
// committed figures and exits 1 when a figure is worse by more than the
// tolerance (cycles or instructions per iteration up, MFMA busy down), so a
// compiler change that slows the kernel fails like a test. Updating the
// baseline is a deliberate commit: run with --write-baseline.
//
// Everything is deterministic: the inputs are fixed, the emulator's wave
// interleaving is deterministic and the CU model has no randomness.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "runtime/CodeObject.h"
#include "runtime/emu/Emulator.h"
#include "runtime/emu/timing/Timing.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace kcc;

namespace {

struct Figures {
  double cyclesPerIteration = 0;
  double mfmaBusy = 0;
  double instructionsPerIteration = 0;
  std::map<std::string, double> mix;
};

Expected<Figures> measure(Chip chip, StringRef source) {
  CompileOptions co;
  co.chip = chip;
  co.params = {"DTYPE=bf16", "OUT=f32", "HAS_BIAS=0"};
  std::string diags;
  raw_string_ostream ds(diags);
  auto hsaco = compileKernelSource(source, "gemm.mlir", co, Stage::Hsaco, ds);
  if (!hsaco)
    return createStringError(inconvertibleErrorCode(), "%s\n%s",
                             toString(hsaco.takeError()).c_str(), diags.c_str());
  auto obj = CodeObject::parse(*hsaco);
  if (!obj)
    return obj.takeError();
  const KernelInfo *k = obj->findKernel("gemm");
  if (!k)
    return createStringError(inconvertibleErrorCode(), "no kernel 'gemm'");

  const int M = 256, N = 256, K = 4096, W = 64;
  auto ctx = emu::Context::create();
  auto dev = ctx->addDevice(chip);
  if (!dev)
    return dev.takeError();
  emu::Device &d = **dev;
  // Fixed inputs: 1.0 in bf16 (0x3f80) everywhere.
  std::vector<uint16_t> ones(size_t(M) * K, 0x3f80);
  uint64_t ptr[4];
  size_t bytes[4] = {size_t(M) * K * 2, size_t(N) * K * 2, size_t(M) * N * 4, size_t(N) * 2};
  for (int i = 0; i < 4; ++i) {
    auto p = d.allocate(bytes[i]);
    if (!p)
      return p.takeError();
    ptr[i] = *p;
  }
  if (Error e = d.copyToDevice(ptr[0], ones.data(), bytes[0]))
    return std::move(e);
  if (Error e = d.copyToDevice(ptr[1], ones.data(), bytes[1]))
    return std::move(e);
  std::vector<uint8_t> args(k->explicitArgsSize(), 0);
  std::vector<const KernelArg *> slots = k->explicitArgs();
  if (slots.size() != 10)
    return createStringError(inconvertibleErrorCode(), "gemm takes %zu arguments, expected 10",
                             slots.size());
  for (int i = 0; i < 4; ++i)
    std::memcpy(&args[slots[i]->offset], &ptr[i], 8);
  int32_t ints[6] = {M, N, K, K, K, N};
  for (int i = 0; i < 6; ++i)
    std::memcpy(&args[slots[4 + i]->offset], &ints[i], 4);
  emu::LaunchOptions launch;
  launch.grid = {uint32_t(M / (2 * W)), uint32_t(N / (2 * W)), 1};
  launch.block = {256, 1, 1};
  emu::timing::TimingOptions to;
  to.steadyStateIterations = 8;
  auto report = emu::timing::estimateLaunch(d, *hsaco, "gemm", launch, args, to);
  if (!report)
    return report.takeError();
  if (report->hotLoop < 0)
    return createStringError(inconvertibleErrorCode(), "no loop found in gemm");
  const emu::timing::LoopTiming &loop = report->loops[size_t(report->hotLoop)];
  Figures f;
  f.cyclesPerIteration = loop.cyclesPerIteration;
  for (const auto &s : report->simds)
    f.mfmaBusy += s.mfma / double(report->simds.size());
  f.instructionsPerIteration = double(loop.instructionsPerIteration);
  for (unsigned i = 0; i < emu::timing::kNumKinds; ++i)
    if (loop.mixPerIteration[i] > 0)
      f.mix[emu::timing::kindName(emu::timing::Kind(i)).str()] = loop.mixPerIteration[i];
  return f;
}

json::Object toJson(const Figures &f) {
  json::Object mix;
  for (auto &[k, v] : f.mix)
    mix[k] = v;
  return json::Object{{"cycles_per_iteration", f.cyclesPerIteration},
                      {"mfma_busy", f.mfmaBusy},
                      {"instructions_per_iteration", f.instructionsPerIteration},
                      {"mix_per_iteration", std::move(mix)}};
}

} // namespace

int main(int argc, char **argv) {
  std::string baselinePath, writePath;
  double tolerance = 0.02;
  for (int i = 1; i < argc; ++i) {
    StringRef a = argv[i];
    if (a == "--baseline" && i + 1 < argc)
      baselinePath = argv[++i];
    else if (a == "--write-baseline" && i + 1 < argc)
      writePath = argv[++i];
    else if (a == "--tolerance" && i + 1 < argc)
      StringRef(argv[++i]).getAsDouble(tolerance);
    else {
      errs() << "usage: timing_gate [--baseline FILE] [--write-baseline FILE] "
                "[--tolerance F]\n";
      return 2;
    }
  }
  auto src = MemoryBuffer::getFile(KCC_GEMM_SOURCE);
  if (!src) {
    errs() << "timing_gate: cannot read " << KCC_GEMM_SOURCE << "\n";
    return 2;
  }
  json::Object all;
  std::map<std::string, Figures> got;
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    std::string name = getChipInfo(chip).name.str();
    auto f = measure(chip, (*src)->getBuffer());
    if (!f) {
      errs() << "timing_gate: " << name << ": " << toString(f.takeError()) << "\n";
      return 2;
    }
    outs() << "gemm bf16 256x256x4096 on " << name << ": "
           << format("%.1f", f->cyclesPerIteration) << " cycles/iteration, MFMA busy "
           << format("%.1f%%", 100 * f->mfmaBusy) << ", "
           << format("%.0f", f->instructionsPerIteration) << " instructions/iteration:";
    for (auto &[k, v] : f->mix)
      outs() << " " << k << " " << format("%.1f", v);
    outs() << "\n";
    all[name] = toJson(*f);
    got[name] = *f;
  }
  if (!writePath.empty()) {
    std::error_code ec;
    raw_fd_ostream os(writePath, ec, sys::fs::OF_Text);
    if (ec) {
      errs() << "timing_gate: cannot write " << writePath << "\n";
      return 2;
    }
    os << formatv("{0:2}", json::Value(std::move(all))) << "\n";
  }
  if (baselinePath.empty())
    return 0;
  auto base = MemoryBuffer::getFile(baselinePath);
  if (!base) {
    errs() << "timing_gate: cannot read " << baselinePath << "\n";
    return 2;
  }
  auto parsed = json::parse((*base)->getBuffer());
  if (!parsed) {
    errs() << "timing_gate: " << baselinePath << ": " << toString(parsed.takeError()) << "\n";
    return 2;
  }
  int worse = 0;
  for (auto &[name, f] : got) {
    const json::Object *b = parsed->getAsObject() ? parsed->getAsObject()->getObject(name)
                                                  : nullptr;
    if (!b) {
      errs() << "timing_gate: no baseline for " << name << "\n";
      ++worse;
      continue;
    }
    auto check = [&](const char *what, double now, bool higherIsWorse) {
      std::optional<double> was = b->getNumber(what);
      if (!was) {
        errs() << "timing_gate: baseline of " << name << " lacks " << what << "\n";
        ++worse;
        return;
      }
      double limit = higherIsWorse ? *was * (1 + tolerance) : *was * (1 - tolerance);
      bool bad = higherIsWorse ? now > limit : now < limit;
      outs() << "  " << name << " " << what << ": " << format("%.4g", now) << " (baseline "
             << format("%.4g", *was) << ")" << (bad ? "  WORSE by more than " : "")
             << (bad ? formatv("{0:P0}", tolerance).str() : "") << "\n";
      worse += bad;
    };
    check("cycles_per_iteration", f.cyclesPerIteration, true);
    check("mfma_busy", f.mfmaBusy, false);
    check("instructions_per_iteration", f.instructionsPerIteration, true);
  }
  if (worse) {
    errs() << "timing_gate: " << worse << " figure(s) worse than the baseline; if "
           << "intended, update it with --write-baseline in its own commit\n";
    return 1;
  }
  outs() << "timing_gate: within " << formatv("{0:P0}", tolerance) << " of the baseline\n";
  return 0;
}
