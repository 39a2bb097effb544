//===- ag_gemm_bench.cpp - Fused all-gather + GEMM vs. gather-then-GEMM ---===//
//
// Per shape, the fused kernel (kernels/collective/ag_gemm.mlir) and the
// baseline (ag_copy.mlir all-gather, then kernels/gemm) on `world` ranks:
//
//  * emulated breakdown (always): wave instructions of the fetcher
//    workgroups (fetch), polls of the workers' flag spin (s_sleep executed:
//    wait) and the workers' wave instructions (GEMM), counted by an
//    emulator observer per rank; for the baseline the all-gather's and the
//    GEMM's instructions. The emulator's instruction counts stand in for time
//    where no GPU is present; they are not milliseconds.
//  * milliseconds and TFLOPS (real GPUs only, HIP events of each rank's
//    kernels, slowest rank). Without a GPU the column says "not available".
//
//   ag_gemm_bench [--chip gfx942|gfx950] [--world N] [--check]
//
//===----------------------------------------------------------------------===//
#include "test/collective/AgGemmProblem.h"
#include "kernels/EmbeddedKernels.h"

#include "kernels/collective/AgGemmOp.h"
#include "target/CodeObject.h"
#include "runtime/Jit.h"
#include "runtime/Module.h"
#include "runtime/Runtime.h"
#include "runtime/SymmetricHeap.h"
#include "runtime/emu/Emulator.h"
#include "runtime/LaunchTrace.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <map>

using namespace kcc;

namespace {

/// Counts, per rank (launch) and workgroup, instructions issued and
/// s_sleep instructions (the flag spin's back-off: one per failed poll).
class RoleCounter : public LaunchTrace {
public:
  explicit RoleCounter(llvm::ArrayRef<uint64_t> sleepOffsets, uint64_t entryOffset)
      : sleepOffsets_(sleepOffsets.begin(), sleepOffsets.end()),
        entryOffset_(entryOffset) {}
  struct Counts {
    uint64_t instructions = 0, sleeps = 0;
  };
  std::map<std::pair<uint32_t, uint64_t>, Counts> counts; // (rank, workgroup)

  void instruction(const TracedInstruction &in,
                   llvm::ArrayRef<TracedAccess>) override {
    Counts &c = counts[{uint32_t(in.launch), in.workgroup}];
    ++c.instructions;
    // Code addresses differ per rank (each device loads its own copy): the
    // first instruction a rank's waves run is the kernel entry.
    auto [it, fresh] = base_.try_emplace(in.launch, in.pc - entryOffset_);
    (void)fresh;
    if (sleepOffsets_.count(in.pc - it->second))
      ++c.sleeps;
  }

private:
  llvm::DenseSet<uint64_t> sleepOffsets_;
  uint64_t entryOffset_;
  std::map<uint32_t, uint64_t> base_;
};

struct Shape {
  int64_t M, N, K;
};

int fail(llvm::Error e) {
  llvm::errs() << "ag_gemm_bench: " << llvm::toString(std::move(e)) << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  kcc::registerEmbeddedKernels();
  Chip chip = Chip::gfx942;
  unsigned world = 4;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a = argv[i];
    if (a == "--chip" && i + 1 < argc)
      chip = parseChip(argv[++i]).value_or(Chip::gfx942);
    else if (a == "--world" && i + 1 < argc)
      world = unsigned(std::atoi(argv[++i]));
    else if (a == "--check")
      check = true;
    else {
      llvm::errs() << "usage: ag_gemm_bench [--chip gfx942|gfx950] [--world N] [--check]\n";
      return 2;
    }
  }

  llvm::Expected<std::unique_ptr<Runtime>> rt = Runtime::create();
  if (!rt)
    return fail(rt.takeError());
  std::vector<Device *> devices;
  bool gpu = (*rt)->hasGpu() && (*rt)->devices().size() >= world;
  if (gpu) {
    std::vector<Device *> all = (*rt)->devices();
    devices.assign(all.begin(), all.begin() + world);
    chip = devices[0]->chip();
  } else {
    llvm::Expected<std::vector<Device *>> d = (*rt)->emulatedDevices(chip, world);
    if (!d)
      return fail(d.takeError());
    devices = *d;
  }
  llvm::outs() << "ag_gemm_bench: " << world << " x " << devices[0]->description()
               << "\n  HIP: " << (*rt)->hipStatus() << "\n";

  // Emulator-sized shapes: K split over the ranks in whole K blocks.
  std::vector<Shape> shapes = {{256, 128, 64 * world},
                               {512, 256, 128 * world},
                               {1024, 256, 128 * world}};
  Jit &jit = Jit::shared();
  for (const Shape &s : shapes) {
    llvm::Expected<std::unique_ptr<SymmetricHeap>> heap =
        SymmetricHeap::create(**rt, devices, 64 << 20);
    if (!heap)
      return fail(heap.takeError());
    llvm::Expected<testing::AgGemmProblem> p = testing::AgGemmProblem::create(
        **heap, s.M, s.N, s.K, DType::bf16, DType::f32, false);
    if (!p)
      return fail(p.takeError());
    llvm::Expected<ops::AgGemmWorkspace> ws =
        ops::makeAllGatherGemmWorkspace(**heap, DType::bf16, s.M, s.K);
    if (!ws)
      return fail(ws.takeError());
    double flops = 2.0 * s.M * s.N * s.K * world;
    llvm::outs() << "\nM x N x K = " << s.M << " x " << s.N << " x " << s.K
                 << " (per rank K/world = " << s.K / world << "), bf16 -> f32\n";

    // Fused: compile once to find the spin's s_sleep in the code object.
    ops::AllGatherGemmOptions o;
    o.record = true;
    o.launch.check = check;
    std::vector<std::string> params = ops::allGatherGemmParams(
        DType::bf16, DType::f32, false, ws->tiles, o);
    llvm::Expected<Module> mod = Module::compile(*devices[0], jit, "ag_gemm", params);
    if (!mod)
      return fail(mod.takeError());
    llvm::Expected<std::vector<emu::DecodedInstruction>> dis =
        emu::disassembleKernel(mod->codeObject().bytes(), "ag_gemm", chip);
    if (!dis)
      return fail(dis.takeError());
    std::vector<uint64_t> sleeps;
    for (const emu::DecodedInstruction &d : *dis)
      if (d.mnemonic == "s_sleep")
        sleeps.push_back(d.offset);
    RoleCounter counter(sleeps, dis->empty() ? 0 : dis->front().offset);
    if (!gpu)
      o.launch.trace = &counter;
    // A first call warms the JIT and the caches; the second is measured.
    for (int call = 0; call < 2; ++call) {
      counter.counts.clear();
      llvm::Expected<ops::AllGatherGemmResult> r = ops::all_gather_gemm(
          **heap, p->a, p->btRefs, p->cRefs, p->biasRefs, *ws, o);
      if (!r)
        return fail(r.takeError());
      if (call == 0)
        continue;
      llvm::Expected<testing::AgGemmProblem::Error> err = p->compare();
      if (!err)
        return fail(err.takeError());
      llvm::outs() << "  fused: grid " << r->grid << " (" << r->fetchers
                   << " fetchers, " << r->workers << " workers), max |error| "
                   << err->maxAbs << (err->bad ? " FAILED" : "") << "\n";
      double ms = 0;
      for (unsigned rank = 0; rank < world; ++rank) {
        uint64_t fetch = 0, gemm = 0, polls = 0;
        for (auto &[key, c] : counter.counts) {
          if (key.first != rank)
            continue;
          if (key.second < r->fetchers) {
            fetch += c.instructions;
          } else {
            gemm += c.instructions;
            polls += c.sleeps;
          }
        }
        if (r->launches[rank].deviceMilliseconds)
          ms = std::max(ms, *r->launches[rank].deviceMilliseconds);
        if (!gpu)
          llvm::outs() << "    rank " << rank << ": fetch " << fetch
                       << " wave-instr, wait " << polls << " polls, GEMM "
                       << gemm << " wave-instr\n";
      }
      if (gpu)
        llvm::outs() << "    " << llvm::format("%.3f ms, %.1f TFLOPS", ms,
                                               flops / ms / 1e9)
                     << "\n";
      else
        llvm::outs() << "    ms / TFLOPS: not available (no GPU; emulated)\n";
    }

    // Baseline: all-gather by copy kernels, then the GEMM.
    for (int call = 0; call < 2; ++call) {
      ops::AllGatherGemmOptions b;
      b.launch.check = check;
      llvm::Expected<ops::AllGatherThenGemmResult> r = ops::all_gather_then_gemm(
          **heap, p->a, p->btRefs, p->cRefs, p->biasRefs, *ws, b);
      if (!r)
        return fail(r.takeError());
      if (call == 0)
        continue;
      llvm::Expected<testing::AgGemmProblem::Error> err = p->compare();
      if (!err)
        return fail(err.takeError());
      llvm::outs() << "  baseline: max |error| " << err->maxAbs
                   << (err->bad ? " FAILED" : "") << "\n";
      double ms = 0;
      for (unsigned rank = 0; rank < world; ++rank) {
        const LaunchResult &g = r->gather[rank], &m = r->gemm[rank];
        if (g.deviceMilliseconds && m.deviceMilliseconds)
          ms = std::max(ms, *g.deviceMilliseconds + *m.deviceMilliseconds);
        if (!gpu)
          llvm::outs() << "    rank " << rank << ": all-gather "
                       << g.waveInstructions.value_or(0) << " wave-instr, GEMM "
                       << m.waveInstructions.value_or(0) << " wave-instr\n";
      }
      if (gpu)
        llvm::outs() << "    " << llvm::format("%.3f ms, %.1f TFLOPS", ms,
                                               flops / ms / 1e9)
                     << "\n";
      else
        llvm::outs() << "    ms / TFLOPS: not available (no GPU; emulated)\n";
    }
  }
  return 0;
}
