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
//   ag_gemm_bench --estimate [--iterations K]
//
// --estimate puts milliseconds on the first seed's shape without GPUs: 8
// ranks of an MI300X/MI325X node (gfx942), M = 16384, N = 3584, K = 8192,
// f16, each rank computing C[M, N] = A_gathered[M, K] B[K, N] (A gathered
// from 8 shards of M x K/8; the same bytes cross the links whichever axis A
// is split on). It is a model with these parts and assumptions:
//
//  * GEMM: kcc::ops::gemm at M x N x K on the validated timing model
//    (benchmarks/SideBySide: one CU's workgroups, steady state over K
//    iterations, the full run's time from the trip count), bf16 in place of
//    f16: CDNA 3's f16 and bf16 MFMAs have the same shapes and rate.
//  * Links: kernels/collective/XgmiModel.h (7 xGMI links per GPU at 64 GB/s
//    per direction, full mesh, sources there). The all-gather moves one
//    shard (M x K/8 x 2 bytes = 32 MiB) over each link at once.
//  * Gather-then-GEMM: the gather, then the GEMM on the whole chip; nothing
//    overlaps.
//  * Fused (ag_gemm.mlir's structure): a persistent grid of `resident`
//    workgroups (the CUs x the kernel's occupancy: one eight-wave workgroup
//    a CU); the op gives an eighth of them to fetchers, which only move
//    bytes and leave their slots idle once done (the grid never grows), the
//    rest to GEMM workers, which take the output tiles in rounds. A
//    worker's first tile needs all of K, whose last k group arrives when
//    the gather ends; later rounds find their data in place. A round ends
//    one tile after the previous one or, if later, a last k group's share
//    of a tile after its data is in (fetchers deliver m tiles in the
//    workers' order at the links' pace, every k group of an m tile
//    together; the group-major order the kernel had before is printed
//    beside it). One tile on one slot takes what the workers spend per tile
//    per slot on the whole chip (T_workers x resident / tiles).
//  * The workers: ag_gemm.mlir itself on the validated model, as the
//    GEMM (steady state over K iterations), launched with no fetchers, its
//    flags already at the call's epoch and A in its staging buffer, one
//    output tile per workgroup: their own code (the flag test per tile, the
//    rotated K order, the PINGPONG loop) without the waits on data, which
//    the rounds above model.
//  * Assumed, not measured: fetchers keep the links full (the model prints
//    the rate each would need and, since each wave has one 2 KiB piece in
//    flight, the longest remote-read latency at which they still do), and
//    their HBM traffic does not slow the workers.
//
// The chip's peak (CUs x 2048 f16 FLOP per cycle x the model's clock) and
// the links' bandwidth bound every figure printed; one above either is
// reported as a bug (exit 1).
//
//===----------------------------------------------------------------------===//
#include "test/collective/AgGemmProblem.h"
#include "benchmarks/SideBySide.h"
#include "kernels/EmbeddedKernels.h"

#include "kernels/collective/AgGemmOp.h"
#include "kernels/collective/XgmiModel.h"
#include "target/CodeObject.h"
#include "target/Isa.h"
#include "runtime/Jit.h"
#include "runtime/Module.h"
#include "runtime/Runtime.h"
#include "runtime/SymmetricHeap.h"
#include "runtime/emu/Emulator.h"
#include "runtime/LaunchTrace.h"
#include "runtime/emu/timing/Timing.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

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

/// The fused kernel's time for `fetchers` of `resident` slots (the model in
/// the file header). Workers take output tiles m-major in rounds of
/// `workers`; fetchers deliver m tiles at an even pace over the gather,
/// every k group of an m tile together (`mMajorFetch`, the kernel's order)
/// or k group by k group over all m tiles (group-major: every m tile's last
/// group arrives when the gather ends). A round ends one tile after the
/// previous one, or a last k group's share of a tile after its data is in.
struct FusedEstimate {
  unsigned fetchers = 0, workers = 0;
  int64_t rounds = 0;
  double tileSeconds = 0, seconds = 0;
  double waitSeconds = 0; // rounds' time spent on data, summed over rounds
};
FusedEstimate estimateFused(double gemmSeconds, double gatherSeconds,
                            unsigned resident, unsigned fetchers, int64_t mTiles,
                            int64_t nTiles, int64_t kGroups, bool mMajorFetch) {
  FusedEstimate e;
  const int64_t outTiles = mTiles * nTiles;
  e.fetchers = fetchers;
  e.workers = unsigned(std::clamp<int64_t>(outTiles, 1, resident - fetchers));
  e.rounds = (outTiles + e.workers - 1) / e.workers;
  e.tileSeconds = gemmSeconds * resident / double(outTiles);
  double end = 0;
  for (int64_t r = 0; r < e.rounds; ++r) {
    int64_t lastTile = std::min<int64_t>((r + 1) * e.workers, outTiles) - 1;
    int64_t lastM = lastTile / nTiles;
    double arrived = mMajorFetch ? gatherSeconds * double(lastM + 1) / double(mTiles)
                                 : gatherSeconds;
    double computeBound = end + e.tileSeconds;
    double dataBound = arrived + e.tileSeconds / double(kGroups);
    e.waitSeconds += std::max(0.0, dataBound - computeBound);
    end = std::max(computeBound, dataBound);
  }
  e.seconds = end;
  return e;
}

/// The fused kernel's workers on the validated model: ag_gemm.mlir (its
/// code, `kernel`) with no fetchers, every flag already at the epoch and
/// the staging buffer holding A, so that the workers run their own loop
/// (flag checks, rotated K order and all) without waiting; one output tile
/// per workgroup, so the figure is the GEMM's time over all of C on the
/// whole chip, as timeKccGemm's.
llvm::Expected<bench::ModelFigures>
timeFusedWorkers(Device &device, Kernel &kernel, const ops::AgGemmTiles &t, int64_t M,
                 int64_t N, int64_t K, unsigned iterations) {
  llvm::Expected<Buffer> staging = bench::randomBf16(device, uint64_t(M * K), 1);
  if (!staging)
    return staging.takeError();
  llvm::Expected<Buffer> bt = bench::randomBf16(device, uint64_t(N * K), 2);
  if (!bt)
    return bt.takeError();
  llvm::Expected<Buffer> c = Buffer::allocate(device, uint64_t(M * N) * 4);
  if (!c)
    return c.takeError();
  const int32_t epoch = 1;
  llvm::Expected<Buffer> flags = Buffer::fromHost(
      device, std::vector<int32_t>(size_t(t.mTiles * t.nkGroups), epoch));
  if (!flags)
    return flags.takeError();
  const int64_t outTiles = t.mTiles * ((N + t.bn() - 1) / t.bn());
  LaunchConfig config;
  config.grid = Dim3(uint32_t(outTiles));
  config.block = Dim3(uint32_t(64 * t.waves()));
  // The shard, bases, bias and stats pointers are only read by fetchers,
  // with bias or with RECORD: any valid address.
  std::vector<KernelArgValue> args = {
      *staging, *staging, *bt, *c, *staging, *staging, *flags, *staging,
      int32_t(M), int32_t(N), int32_t(K), int32_t(K), int32_t(N),
      int32_t(0), int32_t(1), int32_t(0), epoch};
  emu::timing::TimingOptions options;
  options.steadyStateIterations = iterations;
  options.flops = 2.0 * double(M) * double(N) * double(K);
  llvm::Expected<emu::timing::TimingReport> report =
      bench::timeLaunch(device, options, [&] { return kernel.launch(config, args); });
  if (!report)
    return report.takeError();
  return bench::figuresOf(*report);
}

/// --estimate: the first seed's shape on the timing model and the link
/// model; returns the exit code.
int estimateSeed(unsigned iterations) {
  const Chip chip = Chip::gfx942; // MI300X and MI325X: the same CDNA 3 die
  const unsigned world = 8;
  const int64_t M = 16384, N = 3584, K = 8192;
  const ChipInfo &info = getChipInfo(chip);
  ops::XgmiLinks links;
  const double flops = 2.0 * M * N * K; // per rank
  const double shardBytes = double(M) * (K / world) * 2;
  llvm::outs() << "ag_gemm_bench --estimate: " << world << " x " << info.marketing
               << "/MI325X (gfx942, " << info.computeUnits
               << " CUs), full-mesh xGMI\n  C[" << M << ", " << N << "] = A_gathered["
               << M << ", " << K << "] * B[" << K << ", " << N << "] per rank, f16 (timed as bf16)\n";

  // The GEMM on the validated model.
  llvm::Expected<bench::ModelFigures> g = bench::timeKccGemm(
      chip, {uint64_t(M), uint64_t(N), uint64_t(K)}, iterations);
  if (!g)
    return fail(g.takeError());
  // The dense 16-bit peak at the clock the model sustained: target/'s CUs x
  // SIMDs x a 32x32x8's FLOPs per cycle (2048 a CU; 4 cycles a pass).
  const char *mfma = "v_mfma_f32_32x32x8_bf16";
  const double perCu =
      info.simdsPerCU * double(mfmaFlops(mfma)) / (4.0 * mfmaPasses(chip, mfma));
  const double peakTflops = info.computeUnits * perCu * g->clockGHz * 1e9 / 1e12;
  llvm::outs() << "  GEMM (kcc::ops::gemm, timing model, steady state over " << iterations
               << " iterations): "
               << llvm::format("%.3f ms, %.1f TFLOPS (%.0f%% MFMA busy; peak %.0f TFLOPS at %.2f GHz)",
                               g->seconds * 1e3, g->tflops, 100 * g->mfmaBusy,
                               peakTflops, g->clockGHz)
               << "\n    " << g->what << "\n    " << g->validation << "\n";

  // The fused kernel's tiles and grid, by the op's own rules (AgGemmOp.cpp),
  // then the residency of the compiled kernel.
  ops::AllGatherGemmOptions o;
  llvm::Expected<ops::AgGemmTiles> tiles =
      ops::allGatherGemmLaunchTiles(chip, M, N, K, world, info.computeUnits, o);
  if (!tiles)
    return fail(tiles.takeError());
  llvm::Expected<Device &> device = bench::emulatedDevice(chip);
  if (!device)
    return fail(device.takeError());
  std::vector<std::string> params =
      ops::allGatherGemmParams(DType::f16, DType::f32, false, *tiles, o);
  llvm::Expected<Module> mod = Module::compile(*device, Jit::shared(), "ag_gemm", params);
  if (!mod)
    return fail(mod.takeError());
  llvm::Expected<Kernel> kernel = mod->kernel("ag_gemm");
  if (!kernel)
    return fail(kernel.takeError());
  const unsigned resident =
      info.computeUnits * unsigned(emu::timing::workgroupsPerCu(
                              kernel->info(), chip, unsigned(tiles->waves()), 0));

  // The fused kernel's workers, timed as the file header says.
  llvm::Expected<bench::ModelFigures> w =
      timeFusedWorkers(*device, *kernel, *tiles, M, N, K, iterations);
  if (!w)
    return fail(w.takeError());
  llvm::outs() << "  fused workers (ag_gemm.mlir itself, flags set, one tile each): "
               << llvm::format("%.3f ms, %.1f TFLOPS (%.0f%% MFMA busy; %.0f cycles per K loop iteration)",
                               w->seconds * 1e3, w->tflops, 100 * w->mfmaBusy,
                               w->cyclesPerIteration)
               << "\n    " << llvm::join(params, " ") << "\n    " << w->validation << "\n";
  if (g->tflops > peakTflops || w->tflops > peakTflops) {
    llvm::errs() << "ag_gemm_bench: BUG: a GEMM above the chip's peak\n";
    return 1;
  }

  // The links.
  const double gather =
      ops::allGatherSeconds(ops::XgmiTopology::FullMesh, world, shardBytes, links);
  const double ring =
      ops::allGatherSeconds(ops::XgmiTopology::Ring, world, shardBytes, links);
  const double inbound = (world - 1) * shardBytes / gather;
  llvm::outs() << "  all-gather: " << world - 1 << " shards of "
               << llvm::format("%.1f MiB", shardBytes / (1 << 20)) << " in over "
               << links.linksPerGpu << " links x "
               << llvm::format("%.0f GB/s", links.bytesPerSecond() / 1e9)
               << ": " << llvm::format("%.3f ms (%.0f GB/s in per GPU)", gather * 1e3, inbound / 1e9)
               << "; a ring over one link would take "
               << llvm::format("%.3f ms", ring * 1e3) << "\n";

  const int64_t outTiles = tiles->mTiles * ((N + tiles->bn() - 1) / tiles->bn());
  const int64_t kGroups = K / tiles->kg;
  const unsigned opFetchers = ops::allGatherGemmFetchers(resident, *tiles);

  const double base = gather + g->seconds;
  bool bug = false;
  auto row = [&](llvm::StringRef name, double seconds, llvm::StringRef bound) {
    double tflops = flops / seconds / 1e12;
    bug |= tflops > peakTflops;
    llvm::outs() << "  " << llvm::format("%-44s", name.str().c_str())
                 << llvm::format("%.3f ms, %6.1f TFLOPS per GPU", seconds * 1e3, tflops)
                 << "  (" << bound << ")\n";
  };
  llvm::outs() << "  fused grid: " << resident << " resident workgroups ("
               << info.computeUnits << " CUs x " << resident / info.computeUnits
               << "), " << outTiles << " output tiles of " << tiles->bm() << "x"
               << tiles->bn() << ", " << kGroups << " k groups of " << tiles->kg << "\n";
  row("gather-then-GEMM", base, "links, then the GEMM: no overlap");
  const int64_t nTiles = (N + tiles->bn() - 1) / tiles->bn();
  // A fetcher's waves each load one piece (BM / waves rows x BK, 16-bit)
  // and store it before the next: by Little's law the links stay full only
  // while a remote read's latency is below the bytes in flight over the
  // links' rate.
  const double piecesInFlight = double(tiles->waves());
  const double pieceBytes = double(tiles->bm() / tiles->waves()) * double(tiles->bk) * 2;
  for (bool mMajor : {true, false})
    for (unsigned f : {std::max(1u, resident / 4), opFetchers, std::max(1u, resident / 16)}) {
      if (!mMajor && f != opFetchers)
        continue;
      FusedEstimate e = estimateFused(w->seconds, gather, resident, f, tiles->mTiles,
                                      nTiles, kGroups, mMajor);
      std::string name = "fused, " + std::to_string(f) + " fetchers" +
                         (f == opFetchers ? " (op)" : "") +
                         (mMajor ? "" : ", group-major");
      std::string bound =
          std::string(e.waitSeconds > 0 ? "waits for the links" : "the workers' GEMM") +
          ": " + std::to_string(e.workers) + " workers, " + std::to_string(e.rounds) +
          " rounds of " + llvm::formatv("{0:F3}", e.tileSeconds * 1e3).str() +
          " ms, waiting on data " + llvm::formatv("{0:F3}", e.waitSeconds * 1e3).str() +
          " ms; each fetcher must pull " +
          llvm::formatv("{0:F1}", inbound / f / 1e9).str() + " GB/s, so remote reads of " +
          llvm::formatv("{0:F1}", f * piecesInFlight * pieceBytes / inbound * 1e6).str() +
          " us at most";
      row(name, e.seconds, bound);
    }
  row("seed: RCCL + hipBLASLt, 8x MI325X", 2.30e-3, "measured, reported by the seed");
  bug |= inbound > ops::allGatherInboundBytesPerSecond(ops::XgmiTopology::FullMesh, links) * 1.000001;
  if (bug) {
    llvm::errs() << "ag_gemm_bench: BUG: a figure above the chip's peak or the links' bandwidth\n";
    return 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  kcc::registerEmbeddedKernels();
  Chip chip = Chip::gfx942;
  unsigned world = 4;
  bool check = false, estimate = false;
  unsigned iterations = 32; // as gemm_bench: 8 end before the CU's traffic settles
  auto usage = [](llvm::raw_ostream &os) {
    os << "usage: ag_gemm_bench [--chip gfx942|gfx950] [--world N] [--check]\n"
          "       ag_gemm_bench --estimate [--iterations K]\n";
  };
  auto bad = [&](const llvm::Twine &what) {
    llvm::errs() << "ag_gemm_bench: " << what << "\n";
    usage(llvm::errs());
    return 2;
  };
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a = argv[i];
    if (a == "--help" || a == "-h") {
      usage(llvm::outs());
      return 0;
    } else if (a == "--check") {
      check = true;
    } else if (a == "--estimate") {
      estimate = true;
    } else if (a == "--chip" || a == "--world" || a == "--iterations") {
      if (i + 1 == argc)
        return bad(a + " needs a value");
      llvm::StringRef v = argv[++i];
      if (a == "--chip") {
        std::optional<Chip> c = parseChip(v);
        if (!c)
          return bad("unknown chip '" + v + "'");
        chip = *c;
      } else {
        unsigned n = 0;
        if (v.getAsInteger(10, n) || n == 0)
          return bad(a + " takes a positive number; got '" + v + "'");
        (a == "--world" ? world : iterations) = n;
      }
    } else {
      return bad("unexpected argument '" + a + "'");
    }
  }
  if (estimate)
    return estimateSeed(iterations);

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

    // Fused: a first call warms the JIT and the caches and tells the
    // parameters the op chose, whose code object gives the spin's s_sleep;
    // the second call is measured.
    ops::AllGatherGemmOptions o;
    o.record = true;
    o.launch.check = check;
    llvm::Expected<ops::AllGatherGemmResult> warm = ops::all_gather_gemm(
        **heap, p->a, p->btRefs, p->cRefs, p->biasRefs, *ws, o);
    if (!warm)
      return fail(warm.takeError());
    llvm::Expected<Module> mod = Module::compile(*devices[0], jit, "ag_gemm", warm->params);
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
    {
      llvm::Expected<ops::AllGatherGemmResult> r = ops::all_gather_gemm(
          **heap, p->a, p->btRefs, p->cRefs, p->biasRefs, *ws, o);
      if (!r)
        return fail(r.takeError());
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
