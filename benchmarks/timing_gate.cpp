//===- timing_gate.cpp - Timing-model regression gate for kcc's kernels ---===//
//
//   timing_gate [--baseline FILE] [--write-baseline FILE] [--tolerance 0.02]
//
// Compiles, for gfx942 and gfx950,
//   - kernels/gemm/gemm.mlir (bf16 in, f32 out, with the tiles
//     kcc::ops::gemm picks, from ops::gemmParams) and runs one CU's
//     workgroups of a 256 x 256 x 4096 GEMM, and on gfx950 also of a
//     512 x 512 x 4096 GEMM with the tiles picked for large problems
//     (8192 x 8192: 256 x 256 per workgroup), whose loop is the same;
//   - kernels/attention/fmha_fwd.mlir (bf16, D = 128, non-causal, no LSE)
//     with the parameters of each chip's path (gfx950: the fast path, two
//     staggered wave groups of 4 waves, transposing V reads; gfx942: two
//     staggered groups too, V^T stored through registers), and runs one query block of 32 queries
//     per wave against S_kv = 2048 keys (32 KV tiles on gfx950, 64 on gfx942),
//     one head per workgroup the CU holds (one on both chips today), so the
//     traced CU is full;
// the GEMM in steady-state mode (8 iterations of the K loop), the attention
// to the end (see measureAttention), and prints, per kernel and
// chip, the steady-state cycles per iteration, the MFMA-pipe busy
// fraction and the instruction mix per iteration (the attention loop handles
// two KV tiles per iteration, ping and pong). For the attention it also
// prints the loop's other instructions per MFMA next to AMD's hand-written
// kernel (aiter fmha_v3_fwd, DESIGN.md), which is the figure
// the fast path is tuned against. With --baseline it compares against the
// committed figures and exits 1 when a figure is worse by more than the
// tolerance (cycles or instructions per iteration up, MFMA busy down), so a
// compiler change that slows a kernel fails like a test. Updating the
// baseline is a deliberate commit: run with --write-baseline.
//
// Everything is deterministic: the inputs are fixed (the attention's come
// from a fixed integer generator, not a std:: distribution, whose output the
// standard leaves to the library), the emulator's wave interleaving is
// deterministic and the CU model has no randomness.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "kernels/EmbeddedKernels.h"
#include "kernels/attention/AttentionOp.h"
#include "kernels/gemm/GemmOp.h"
#include "target/Error.h"
#include "target/CodeObject.h"
#include "runtime/LaunchTiming.h"
#include "runtime/Runtime.h"
#include "runtime/emu/timing/Timing.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace kcc;
namespace timing = kcc::emu::timing;

namespace {

/// Steady-state iterations replayed: enough that the fill (the first
/// iteration of every wave) and the drain are trimmed from a rate over
/// several iterations, few enough that the gate runs in about a second.
constexpr unsigned kSteadyStateIterations = 8;

struct Figures {
  double cyclesPerIteration = 0;
  double mfmaBusy = 0;
  double instructionsPerIteration = 0;
  std::map<std::string, double> mix;
};


Expected<std::vector<uint8_t>> compile(Chip chip, StringRef source, StringRef file,
                                          std::vector<std::string> params) {
  CompileOptions co;
  co.chip = chip;
  auto bindings = parseParamBindings(params);
  if (!bindings)
    return bindings.takeError();
  co.params = std::move(*bindings);
  std::string diags;
  raw_string_ostream ds(diags);
  auto hsaco = compileKernelSource(source, file, co, Stage::Hsaco, ds);
  if (!hsaco)
    return makeError(toString(hsaco.takeError()) + "\n" + diags);
  return std::move(*hsaco);
}

/// Lays the explicit arguments out at the offsets the code object gives.
class ArgWriter {
public:
  ArgWriter(const KernelInfo &k) : slots(k.explicitArgs()), bytes(k.explicitArgsSize(), 0) {}
  template <typename T> void set(size_t i, T value) {
    std::memcpy(&bytes[slots[i]->offset], &value, sizeof(T));
  }
  size_t count() const { return slots.size(); }
  const std::vector<uint8_t> &data() const { return bytes; }

private:
  std::vector<const KernelArg *> slots;
  std::vector<uint8_t> bytes;
};

/// The gate's figures from a run of `kernel` that stops after
/// `steadyStateIterations` of its hot loop (0: runs to the end). Either way
/// the cycles per iteration are the model's steady-state rate, with the fill
/// and the drain trimmed.
Expected<Figures> run(Device &d, ArrayRef<uint8_t> hsaco, StringRef kernel,
                      const LaunchConfig &launch, ArrayRef<uint8_t> args,
                      unsigned steadyStateIterations) {
  timing::TimingOptions to;
  to.steadyStateIterations = steadyStateIterations;
  auto report = LaunchTiming::time(d, hsaco, kernel, launch, args, to);
  if (!report)
    return report.takeError();
  if (report->hotLoop < 0)
    return makeError("no loop found in " + kernel);
  const timing::LoopTiming &loop = report->loops[size_t(report->hotLoop)];
  Figures f;
  f.cyclesPerIteration = loop.cyclesPerIteration;
  for (const auto &s : report->simds)
    f.mfmaBusy += s.mfma / double(report->simds.size());
  f.instructionsPerIteration = double(loop.instructionsPerIteration);
  for (unsigned i = 0; i < timing::kNumKinds; ++i)
    if (loop.mixPerIteration[i] > 0)
      f.mix[timing::kindName(timing::Kind(i)).str()] = loop.mixPerIteration[i];
  return f;
}

/// The emulated device of `chip`, through the runtime as any op reaches it.
Expected<Device &> emulatedDevice(Chip chip) {
  auto runtime = Runtime::shared();
  if (!runtime)
    return runtime.takeError();
  return runtime->device("emu:" + getChipInfo(chip).name.str());
}

/// An M x N x K GEMM with the tiles kcc::ops::gemm picks for a problem of
/// `tilesFor`, K not split: the gate times the K loop of one launch, and
/// a split's shares would be too short for its steady state.
Expected<Figures> measureGemm(Chip chip, StringRef source, const ops::GemmSize &tilesFor,
                              int M, int N, int K) {
  std::vector<std::string> params = ops::gemmParams(chip, DType::bf16, DType::f32,
                                                    /*hasBias=*/false, tilesFor, {"SPLITK=1"});
  auto hsaco = compile(chip, source, "gemm.mlir", params);
  if (!hsaco)
    return hsaco.takeError();
  auto obj = CodeObject::parse(*hsaco);
  if (!obj)
    return obj.takeError();
  const KernelInfo *k = obj->findKernel("gemm");
  if (!k)
    return makeError("no kernel 'gemm'");

  auto dev = emulatedDevice(chip);
  if (!dev)
    return dev.takeError();
  Device &d = *dev;
  // Fixed inputs: 1.0 in bf16 (0x3f80) everywhere.
  std::vector<uint16_t> ones(size_t(std::max(M, N)) * K, 0x3f80);
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
  ArgWriter args(*k);
  if (args.count() != 10)
    return makeError("gemm takes " + Twine(args.count()) + " arguments, expected 10");
  for (int i = 0; i < 4; ++i)
    args.set(i, ptr[i]);
  int32_t ints[6] = {M, N, K, K, K, N};
  for (int i = 0; i < 6; ++i)
    args.set(4 + i, ints[i]);
  LaunchConfig launch = ops::gemmLaunch(chip, params, M, N, k->groupSegmentFixedSize);
  return run(d, *hsaco, "gemm", launch, args.data(), kSteadyStateIterations);
}

/// The attention's parameters per chip: those kcc::ops::attention_forward
/// picks for D = 128 bf16, non-causal, no LSE (kernels/attention/
/// AttentionOp.cpp): the gfx950 fast path (8 waves in two staggered groups,
/// 64-key tiles, K and V by 16-byte DMA in their operands' reading order, V
/// read back with ds_read_b64_tr_b16) and the gfx942 path (8 waves in two
/// staggered groups, 32-key tiles, V^T stored by the leading waves from
/// registers).
struct AttentionShape {
  std::vector<std::string> params;
  uint32_t waves;
};

AttentionShape attentionShape(Chip chip) {
  AttentionShape s;
  s.params = ops::attentionParams(chip, DType::bf16, 128, /*causal=*/false, /*lse=*/false);
  s.waves = uint32_t(
      paramInteger(parseKernelParams(s.params).bindings, "BLOCK").value_or(256) / 64);
  return s;
}

Expected<Figures> measureAttention(Chip chip, StringRef source) {
  AttentionShape shape = attentionShape(chip);
  auto hsaco = compile(chip, source, "fmha_fwd.mlir", shape.params);
  if (!hsaco)
    return hsaco.takeError();
  auto obj = CodeObject::parse(*hsaco);
  if (!obj)
    return obj.takeError();
  const KernelInfo *k = obj->findKernel("fmha_fwd");
  if (!k)
    return makeError("no kernel 'fmha_fwd'");

  // One query block (32 queries per wave) per head and as many heads as the
  // CU holds workgroups: the replayed CU is as full as in a long run, so
  // the figures include the sharing of the SIMDs between workgroups.
  const int64_t D = 128, Skv = 2048, Sq = 32 * int64_t(shape.waves);
  const int64_t H = int64_t(timing::workgroupsPerCu(*k, chip, shape.waves, 0));
  auto dev = emulatedDevice(chip);
  if (!dev)
    return dev.takeError();
  Device &d = *dev;
  // Contiguous [1, S, H, D] tensors of bf16 in [-1, 1) from a fixed 32-bit
  // LCG. The values matter: the lazy rescale branches on the running
  // maximum; with these, scale * log2(e) * q.k stays within about +-2, far
  // below the threshold of 8, so after the first tile every iteration runs
  // the common path, the one worth gating.
  uint32_t state = 12345;
  auto upload = [&](int64_t elements) -> Expected<uint64_t> {
    std::vector<uint16_t> bits(static_cast<size_t>(elements));
    for (uint16_t &b : bits) {
      state = state * 1664525u + 1013904223u;
      float x = float(int32_t(state >> 8) - (1 << 23)) / float(1 << 23);
      uint32_t u;
      std::memcpy(&u, &x, 4);
      b = uint16_t(u >> 16); // truncated to bf16: any fixed values do
    }
    auto p = d.allocate(uint64_t(elements) * 2);
    if (!p)
      return p.takeError();
    if (Error e = d.copyToDevice(*p, bits.data(), bits.size() * 2))
      return std::move(e);
    return *p;
  };
  Expected<uint64_t> q = upload(Sq * H * D), kk = upload(Skv * H * D),
                     v = upload(Skv * H * D), o = upload(Sq * H * D);
  for (Expected<uint64_t> *p : {&q, &kk, &v, &o})
    if (!*p)
      return p->takeError();
  ArgWriter args(*k);
  if (args.count() != 22)
    return makeError("fmha_fwd takes " + Twine(args.count()) + " arguments, expected 22");
  // q, k, v, o, lse (unused with LSE_OUT=0: any valid address).
  uint64_t ptrs[5] = {*q, *kk, *v, *o, *q};
  for (int i = 0; i < 5; ++i)
    args.set(i, ptrs[i]);
  // Sq, Skv, H, Hkv, then (batch, token, head) strides in elements of Q, K,
  // V and O.
  int32_t tokQ = int32_t(H * D), tokK = int32_t(H * D);
  int32_t ints[16] = {int32_t(Sq), int32_t(Skv), int32_t(H), int32_t(H),
                      int32_t(Sq) * tokQ, tokQ, int32_t(D),
                      int32_t(Skv) * tokK, tokK, int32_t(D),
                      int32_t(Skv) * tokK, tokK, int32_t(D),
                      int32_t(Sq) * tokQ, tokQ, int32_t(D)};
  for (int i = 0; i < 16; ++i)
    args.set(5 + i, ints[i]);
  args.set(21, float(1.0 / std::sqrt(double(D)) * 1.4426950408889634)); // scale * log2(e)
  LaunchConfig launch;
  launch.grid = {1, uint32_t(H), 1};
  launch.block = {64 * shape.waves, 1, 1};
  // The whole run of the one workgroup (16 loop iterations on gfx950, 32 on
  // gfx942; well under a second), not 8 iterations: the model's CU-level
  // rate reads high over a short replay when the waves take the back-edge
  // in lockstep (on gfx942 every wave's iterations are 10956 cycles from the
  // second on; the rate reads 12199 over 8 iterations, 11161 over 32), and
  // on gfx950 the loop has several latches, so the replay would stop only
  // once the leading wave group has finished anyway.
  return run(d, *hsaco, "fmha_fwd", launch, args.data(), 0);
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

void print(StringRef what, StringRef chip, const Figures &f) {
  outs() << what << " on " << chip << ": " << format("%.1f", f.cyclesPerIteration)
         << " cycles/iteration, MFMA busy " << format("%.1f%%", 100 * f.mfmaBusy) << ", "
         << format("%.0f", f.instructionsPerIteration) << " instructions/iteration:";
  for (auto &[k, v] : f.mix)
    outs() << " " << k << " " << format("%.1f", v);
  outs() << "\n";
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
  auto gemmSrc = MemoryBuffer::getFile(KCC_GEMM_SOURCE);
  auto fmhaSrc = MemoryBuffer::getFile(KCC_FMHA_SOURCE);
  for (auto [buf, path] : {std::pair{&gemmSrc, KCC_GEMM_SOURCE},
                           std::pair{&fmhaSrc, KCC_FMHA_SOURCE}})
    if (!*buf) {
      errs() << "timing_gate: cannot read " << path << "\n";
      return 2;
    }

  // Figures by kernel, then chip: the baseline's layout.
  std::map<std::string, std::map<std::string, Figures>> got;
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    std::string name = getChipInfo(chip).name.str();
    auto g = measureGemm(chip, (*gemmSrc)->getBuffer(), {256, 256, 4096}, 256, 256, 4096);
    if (!g) {
      errs() << "timing_gate: gemm on " << name << ": " << toString(g.takeError()) << "\n";
      return 2;
    }
    print("gemm bf16 256x256x4096", name, *g);
    got["gemm"][name] = *g;
  }
  {
    // Enough workgroups (1024) that every CU holds as many as it can, as
    // at 8192^3.
    auto g = measureGemm(Chip::gfx950, (*gemmSrc)->getBuffer(), {8192, 8192, 4096}, 4096,
                         4096, 2048);
    if (!g) {
      errs() << "timing_gate: gemm (large tiles) on gfx950: " << toString(g.takeError())
             << "\n";
      return 2;
    }
    print("gemm bf16 4096x4096x2048, the tiles of 8192x8192", "gfx950", *g);
    got["gemm_large_tiles"]["gfx950"] = *g;
  }
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    std::string name = getChipInfo(chip).name.str();
    auto a = measureAttention(chip, (*fmhaSrc)->getBuffer());
    if (!a) {
      errs() << "timing_gate: fmha_fwd on " << name << ": " << toString(a.takeError())
             << "\n";
      return 2;
    }
    print("fmha_fwd bf16 D=128 non-causal S_kv=2048", name, *a);
    // The issue-slot cost of the softmax and data movement around each
    // MFMA: every one of them is time the other wave group's MFMAs must
    // hide. aiter's figures (non-causal D=128 bf16) are read from its
    // steady-state loop (DESIGN.md).
    double mfma = a->mix.count("mfma") ? a->mix["mfma"] : 0;
    double aiter = chip == Chip::gfx950 ? 10.5 : 10.1;
    if (mfma > 0)
      outs() << "  other instructions per MFMA: "
             << format("%.1f", (a->instructionsPerIteration - mfma) / mfma)
             << " (aiter fmha_v3_fwd: " << format("%.1f", aiter) << ")\n";
    got["fmha_fwd"][name] = *a;
  }

  if (!writePath.empty()) {
    json::Object all;
    for (auto &[kernel, chips] : got) {
      json::Object perChip;
      for (auto &[chip, f] : chips)
        perChip[chip] = toJson(f);
      all[kernel] = std::move(perChip);
    }
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
  for (auto &[kernel, chips] : got)
    for (auto &[name, f] : chips) {
      const json::Object *root = parsed->getAsObject();
      const json::Object *perKernel = root ? root->getObject(kernel) : nullptr;
      const json::Object *b = perKernel ? perKernel->getObject(name) : nullptr;
      std::string label = kernel + " " + name;
      if (!b) {
        errs() << "timing_gate: no baseline for " << label << "\n";
        ++worse;
        continue;
      }
      auto check = [&](const char *what, double now, bool higherIsWorse) {
        std::optional<double> was = b->getNumber(what);
        if (!was) {
          errs() << "timing_gate: baseline of " << label << " lacks " << what << "\n";
          ++worse;
          return;
        }
        double limit = higherIsWorse ? *was * (1 + tolerance) : *was * (1 - tolerance);
        bool bad = higherIsWorse ? now > limit : now < limit;
        outs() << "  " << label << " " << what << ": " << format("%.4g", now)
               << " (baseline " << format("%.4g", *was) << ")"
               << (bad ? "  WORSE by more than " : "")
               << (bad ? formatv("{0:P0}", tolerance).str() : "") << "\n";
        worse += bad;
      };
      check("cycles_per_iteration", f.cyclesPerIteration, true);
      check("mfma_busy", f.mfmaBusy, false);
      check("instructions_per_iteration", f.instructionsPerIteration, true);
    }
  // Flush the figures before the verdict on stderr, so that a terminal or
  // log shows them in order.
  outs().flush();
  if (worse) {
    errs() << "timing_gate: " << worse << " figure(s) worse than the baseline; if "
           << "intended, update it with --write-baseline in its own commit\n";
    return 1;
  }
  outs() << "timing_gate: within " << formatv("{0:P0}", tolerance) << " of the baseline\n";
  return 0;
}
