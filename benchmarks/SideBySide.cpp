//===- SideBySide.cpp - kcc's kernels and aiter's on the timing model -----===//
#include "benchmarks/SideBySide.h"

#include "kernels/attention/AttentionOp.h"
#include "kernels/gemm/QuantGemmOp.h"
#include "kernels/gemm/GemmOp.h"
#include "runtime/Buffer.h"
#include "runtime/Device.h"
#include "runtime/Kernel.h"
#include "runtime/KernelArg.h"
#include "runtime/LaunchTiming.h"
#include "runtime/Module.h"
#include "runtime/Runtime.h"
#include "runtime/emu/timing/Blame.h"
#include "runtime/emu/timing/Validation.h"
#include "target/CodeObject.h"
#include "target/Error.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

using namespace llvm;
namespace timing = kcc::emu::timing;

namespace kcc::bench {

/// setTimedComputeUnits's value.
static unsigned timedComputeUnits = 0;

namespace {

/// aiter's argument block (one field per 16-byte slot) as the values of the
/// kernel's metadata arguments, which name every 4- or 8-byte piece of it.
Expected<std::vector<KernelArgValue>> slotArguments(const KernelInfo &info,
                                                    ArrayRef<uint8_t> block) {
  std::vector<KernelArgValue> values;
  for (const KernelArg *a : info.explicitArgs()) {
    uint64_t bits = 0;
    if (a->offset + a->size <= block.size())
      std::memcpy(&bits, block.data() + a->offset, a->size);
    if (a->kind == ArgKind::GlobalBuffer)
      values.push_back(DevicePointer{bits});
    else if (a->size == 4)
      values.push_back(uint32_t(bits));
    else if (a->size == 8)
      values.push_back(uint64_t(bits));
    else
      return makeError("aiter kernel " + info.name + ": argument at offset " +
                       Twine(a->offset) + " is " + Twine(a->size) + " bytes");
  }
  return values;
}

} // namespace

Expected<Device &> emulatedDevice(Chip chip) {
  static std::unique_ptr<Runtime> runtime;
  if (!runtime) {
    auto rt = Runtime::create();
    if (!rt)
      return rt.takeError();
    runtime = std::move(*rt);
  }
  return runtime->device(("emu:" + getChipInfo(chip).name).str());
}

Expected<Buffer> randomBf16(Device &device, uint64_t elements, uint32_t seed) {
  std::vector<uint16_t> bits(static_cast<size_t>(elements));
  uint32_t state = seed;
  for (uint16_t &b : bits) {
    state = state * 1664525u + 1013904223u;
    float x = float(int32_t(state >> 8) - (1 << 23)) / float(1 << 24);
    uint32_t u;
    std::memcpy(&u, &x, 4);
    b = uint16_t(u >> 16);
  }
  return Buffer::fromHost(device, ArrayRef<uint16_t>(bits));
}

/// The values of randomBf16 (uniform in [-0.5, 0.5)) as FP8 codes of `type`.
Expected<Buffer> randomFp8(Device &device, DType type, uint64_t elements, uint32_t seed) {
  std::vector<uint8_t> bits(static_cast<size_t>(elements));
  uint32_t state = seed;
  for (uint8_t &b : bits) {
    state = state * 1664525u + 1013904223u;
    b = floatToFp8(type, float(int32_t(state >> 8) - (1 << 23)) / float(1 << 24));
  }
  return Buffer::fromHost(device, ArrayRef<uint8_t>(bits));
}

Expected<timing::TimingReport> timeLaunch(Device &device, const timing::TimingOptions &options,
                                          function_ref<Expected<LaunchResult>()> launch) {
  Expected<std::unique_ptr<LaunchTiming>> timing = LaunchTiming::attach(device, options);
  if (!timing)
    return timing.takeError();
  Expected<LaunchResult> r = launch();
  if (!r)
    return r.takeError();
  return (*timing)->report(*r);
}

Expected<AiterLaunch> loadAiter(Device &device, const std::string &path, StringRef kernelName,
                                function_ref<void(SlotBlock &)> fill) {
  auto file = MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!file)
    return makeError("cannot read " + path + ": " + file.getError().message() +
                     " (is KCC_AITER_DIR an aiter checkout?)");
  ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>((*file)->getBufferStart()),
                          (*file)->getBufferSize());
  Expected<Module> module = Module::load(device, bytes);
  if (!module)
    return module.takeError();
  Expected<Kernel> kernel = module->kernel(kernelName);
  if (!kernel)
    return kernel.takeError();
  SlotBlock slots(kernel->info().explicitArgsSize());
  fill(slots);
  Expected<std::vector<KernelArgValue>> args = slotArguments(kernel->info(), slots.bytes());
  if (!args)
    return args.takeError();
  return AiterLaunch{std::move(*module), std::move(*kernel), std::move(*args),
                     std::vector<uint8_t>(bytes.begin(), bytes.end())};
}

namespace {

/// Runs `launch` on `device` with the timing model watching one CU's
/// workgroups for `iterations` of their hot loop or, with `firstRound`, whole
/// (the launch stops after them: every workgroup must do the same work).
/// `tripCount` (steady state only; 0: inferred from the loop's compare)
/// extrapolates the loop to that many iterations.
Expected<timing::TimingReport>
timeLaunch(Device &device, double flops, unsigned iterations,
           function_ref<Expected<LaunchResult>()> launch, bool firstRound = false,
           uint64_t tripCount = 0) {
  timing::TimingOptions options;
  options.computeUnits = timedComputeUnits;
  options.steadyStateIterations = firstRound ? 0 : iterations;
  options.firstRoundOnly = firstRound;
  // A whole round is replayed once more at a longer memory latency (cheap:
  // the trace is kept) so that model_validation can fit the latency.
  options.latencySensitivity = firstRound;
  options.flops = flops;
  if (iterations && !firstRound)
    options.tripCount = tripCount;
  options.recordSpans = true; // for the blame (figuresOf)
  return bench::timeLaunch(device, options, launch);
}

Expected<ModelFigures> runAiter(Device &device, const std::string &path,
                                StringRef kernelName, Dim3 grid, Dim3 block,
                                double flops, unsigned iterations,
                                function_ref<void(SlotBlock &)> fill,
                                bool firstRound = false, uint64_t tripCount = 0) {
  Expected<AiterLaunch> aiter = loadAiter(device, path, kernelName, fill);
  if (!aiter)
    return aiter.takeError();
  LaunchConfig config;
  config.grid = grid;
  config.block = block;
  auto report = timeLaunch(
      device, flops, iterations, [&] { return aiter->kernel.launch(config, aiter->args); },
      firstRound, tripCount);
  if (!report)
    return report.takeError();
  ModelFigures f = figuresOf(*report);
  f.what = sys::path::filename(path).str();
  return f;
}

/// Q, K, V (random bf16) and O of a [B, S, H, D] attention, packed, on the
/// emulated `chip`.
struct AttentionBuffers {
  Device &device;
  Buffer q, k, v, o;
};
Expected<AttentionBuffers> attentionBuffers(Chip chip, const AttentionShape &s) {
  Expected<Device &> device = emulatedDevice(chip);
  if (!device)
    return device.takeError();
  uint64_t nq = s.batch * s.seq * s.heads * s.headDim;
  uint64_t nkv = s.batch * s.seq * s.kvHeads * s.headDim;
  DType f8 = ops::attentionFp8DType(chip);
  auto random = [&](uint64_t n, uint32_t seed) {
    return s.fp8 ? randomFp8(*device, f8, n, seed) : randomBf16(*device, n, seed);
  };
  Expected<Buffer> q = random(nq, 3);
  if (!q)
    return q.takeError();
  Expected<Buffer> k = random(nkv, 4);
  if (!k)
    return k.takeError();
  Expected<Buffer> v = random(nkv, 5);
  if (!v)
    return v.takeError();
  Expected<Buffer> o = Buffer::allocate(*device, nq * 2);
  if (!o)
    return o.takeError();
  return AttentionBuffers{*device, std::move(*q), std::move(*k), std::move(*v),
                          std::move(*o)};
}

} // namespace

std::optional<std::string> aiterCheckout() {
  const char *dir = std::getenv("KCC_AITER_DIR");
  if (!dir || !*dir)
    return std::nullopt;
  return std::string(dir);
}

void printAiterHowTo(raw_ostream &os, StringRef benchmark) {
  os << benchmark << ": set KCC_AITER_DIR to a checkout of AMD's aiter to compare with its\n"
     << "hand-written kernels, e.g.\n"
     << "  git clone --depth 1 https://github.com/ROCm/aiter /tmp/aiter\n"
     << "  KCC_AITER_DIR=/tmp/aiter build/bin/" << benchmark << "\n"
     << "(aiter's code objects are read at run time; nothing of aiter is in kcc's tree)\n";
}

static raw_ostream *reportStream = nullptr;

void setTimedComputeUnits(unsigned computeUnits) { timedComputeUnits = computeUnits; }

void setReportStream(raw_ostream *os) { reportStream = os; }

ModelFigures figuresOf(const timing::TimingReport &r) {
  if (reportStream)
    timing::printReport(r, *reportStream);
  ModelFigures f;
  f.round = r.round;
  f.extent = r.extent;
  f.device = r.device;
  f.validation = timing::validationNote(r.kernel, r.peakMfma, r.chip);
  f.seconds = r.kernelSeconds;
  f.tflops = r.tflops;
  f.peakTflops = r.peakTflops;
  f.mfmaBusy = r.mfmaBusy;
  f.clockGHz = r.clockGHz;
  if (r.hotLoop >= 0) {
    const timing::LoopTiming &l = r.loops[size_t(r.hotLoop)];
    f.cyclesPerIteration = l.cyclesPerIteration;
    f.tripCount = l.iterations;
    // A wave's count: the mean over each wave's own hot loop (the waves of
    // a PINGPONG GEMM or of attention take different roles), else the
    // first traced wave's.
    double mfma = r.hotMixWaves ? r.hotMixMean[unsigned(timing::Kind::Mfma)]
                                : l.mixPerIteration[unsigned(timing::Kind::Mfma)];
    double instructions =
        r.hotMixWaves ? r.hotInstructionsMean : double(l.instructionsPerIteration);
    if (mfma > 0)
      f.otherPerMfma = (instructions - mfma) / mfma;
  }
  if (std::optional<timing::LoopBlame> blame = timing::blameHotLoops(r))
    f.blame = timing::blameSummary(*blame);
  return f;
}

double attentionFlops(const AttentionShape &s) {
  double pairs = double(s.seq) * double(s.seq);
  if (s.causal)
    pairs = double(s.seq) * double(s.seq + 1) / 2;
  return 4.0 * double(s.batch * s.heads) * double(s.headDim) * pairs;
}

/// A split GEMM's reduction launch (gemm_reduce), which the model did not
/// watch when it timed the GEMM's launch: timed on its own, whole, on
/// partials of the size the ops allocate, and added to `f` (seconds,
/// TFLOPS, reduceSeconds). Nothing for `splits` of 1.
static Error addReduction(Device &device, const GemmShape &s, int64_t splits, const Buffer &c,
                          DType out, ModelFigures &f) {
  if (splits <= 1)
    return Error::success();
  int64_t ldw = ops::gemmPartialsStride(int64_t(s.n));
  Expected<Buffer> w = Buffer::allocate(device, uint64_t(splits) * s.m * uint64_t(ldw) * 4);
  if (!w)
    return w.takeError();
  timing::TimingOptions whole;
  auto reduce = bench::timeLaunch(device, whole, [&] {
    return ops::gemmReduce({*w, DType::f32, splits * int64_t(s.m), int64_t(s.n), ldw}, splits,
                           {c, out, int64_t(s.m), int64_t(s.n)});
  });
  if (!reduce)
    return reduce.takeError();
  f.reduceSeconds = reduce->kernelSeconds;
  f.seconds += f.reduceSeconds;
  f.tflops = 2.0 * double(s.m) * double(s.n) * double(s.k) / f.seconds / 1e12;
  return Error::success();
}

Expected<ModelFigures> timeKccGemm(Chip chip, const GemmShape &s, unsigned iterations,
                                   const std::vector<std::string> &params) {
  Expected<Device &> device = emulatedDevice(chip);
  if (!device)
    return device.takeError();
  Expected<Buffer> a = randomBf16(*device, s.m * s.k, 1);
  if (!a)
    return a.takeError();
  Expected<Buffer> bt = randomBf16(*device, s.n * s.k, 2);
  if (!bt)
    return bt.takeError();
  DType out = s.outBf16 ? DType::bf16 : DType::f32;
  Expected<Buffer> c = Buffer::allocate(*device, s.m * s.n * dtypeSize(out));
  if (!c)
    return c.takeError();
  auto time = [&](unsigned k) {
    return timeLaunch(*device, 2.0 * double(s.m) * double(s.n) * double(s.k), k, [&] {
      ops::GemmOptions options;
      options.params = params;
      return ops::gemm({*a, DType::bf16, int64_t(s.m), int64_t(s.k)},
                       {*bt, DType::bf16, int64_t(s.n), int64_t(s.k)},
                       {*c, out, int64_t(s.m), int64_t(s.n)}, std::nullopt, options);
    });
  };
  auto report = time(iterations);
  // A split's share of K can run fewer iterations than the steady state
  // asks for (gfx942's 256x256 PINGPONG tile with 7 shares of K = 8192:
  // 18): every workgroup of a GEMM runs the same loop, so the launch is
  // replayed whole instead, and the figures say so. Any other error is
  // returned as it is.
  bool whole = false;
  if (!report) {
    Error other = handleErrors(report.takeError(), [&](std::unique_ptr<StringError> e) -> Error {
      if (!iterations || e->convertToErrorCode() != timing::steadyStateTooShortError())
        return Error(std::move(e));
      whole = true;
      return Error::success();
    });
    if (other)
      return std::move(other);
    report = time(0);
  }
  if (!report)
    return report.takeError();
  ModelFigures f = figuresOf(*report);
  f.wholeReplay = whole;
  std::vector<std::string> chosen = ops::gemmParams(
      chip, DType::bf16, out, false, {int64_t(s.m), int64_t(s.n), int64_t(s.k)}, params);
  f.what = join(chosen, " ");
  // A split of K ends with a second launch, the reduction of the partial
  // sums (the model timed only the first launch above).
  if (Error e = addReduction(*device, s, ops::gemmSplits(chosen), *c, out, f))
    return std::move(e);
  return f;
}

double fp8BlockScaleBytes(const GemmShape &s) {
  double kb = double((s.k + kFp8ScaleBlock - 1) / kFp8ScaleBlock);
  double nb = double((s.n + kFp8ScaleBlock - 1) / kFp8ScaleBlock);
  return double(s.m) * double(s.k) + double(s.n) * double(s.k) +
         4.0 * (double(s.m) * kb + nb * kb) + 2.0 * double(s.m) * double(s.n);
}

double fillSeconds(const timing::TimingParams &p, double bytes) {
  if (bytes <= 0 || p.hbmBytesPerSecond <= 0)
    return 0;
  return bytes / (p.hbmBytesPerSecond * p.hbmSustainedFraction);
}

namespace {

/// `count` f32 ones on `device`: scales that leave the codes' values as
/// they are (the model's time does not depend on them).
Expected<Buffer> onesF32(Device &device, uint64_t count) {
  std::vector<float> ones(static_cast<size_t>(std::max<uint64_t>(1, count)), 1.0f);
  return Buffer::fromHost(device, ArrayRef<float>(ones));
}

} // namespace

Expected<ModelFigures> timeKccGemmFp8(Chip chip, const GemmShape &s, unsigned iterations,
                                      const std::vector<std::string> &params) {
  Expected<Device &> device = emulatedDevice(chip);
  if (!device)
    return device.takeError();
  DType f8 = ops::fp8DTypeOf(chip);
  Expected<Buffer> a = randomFp8(*device, f8, s.m * s.k, 1);
  if (!a)
    return a.takeError();
  Expected<Buffer> bt = randomFp8(*device, f8, s.n * s.k, 2);
  if (!bt)
    return bt.takeError();
  uint64_t kb = (s.k + kFp8ScaleBlock - 1) / kFp8ScaleBlock;
  uint64_t nb = (s.n + kFp8ScaleBlock - 1) / kFp8ScaleBlock;
  Expected<Buffer> sa = onesF32(*device, s.m * kb);
  if (!sa)
    return sa.takeError();
  Expected<Buffer> sb = onesF32(*device, nb * kb);
  if (!sb)
    return sb.takeError();
  Expected<Buffer> c = Buffer::allocate(*device, s.m * s.n * 2);
  if (!c)
    return c.takeError();
  double flops = 2.0 * double(s.m) * double(s.n) * double(s.k);
  auto time = [&](unsigned k) {
    return timeLaunch(*device, flops, k, [&] {
      ops::GemmOptions options;
      options.params = params;
      return ops::gemmFp8({*a, f8, int64_t(s.m), int64_t(s.k)},
                          {*bt, f8, int64_t(s.n), int64_t(s.k)},
                          {*sa, DType::f32, int64_t(s.m), int64_t(kb)},
                          {*sb, DType::f32, int64_t(nb), int64_t(kb)},
                          {*c, DType::bf16, int64_t(s.m), int64_t(s.n)}, std::nullopt, options);
    });
  };
  // As timeKccGemm: a loop of fewer iterations than the steady state asks
  // for is replayed whole, and the figures say so.
  bool whole = false;
  auto report = time(iterations);
  if (!report) {
    Error other = handleErrors(report.takeError(), [&](std::unique_ptr<StringError> e) -> Error {
      if (!iterations || e->convertToErrorCode() != timing::steadyStateTooShortError())
        return Error(std::move(e));
      whole = true;
      return Error::success();
    });
    if (other)
      return std::move(other);
    report = time(0);
  }
  if (!report)
    return report.takeError();
  ModelFigures f = figuresOf(*report);
  f.wholeReplay = whole;
  std::vector<std::string> chosen =
      ops::gemmFp8Params(chip, DType::bf16, ops::ScaleGranularity::blocks,
                         ops::ScaleGranularity::blocks, std::nullopt,
                         {int64_t(s.m), int64_t(s.n), int64_t(s.k)}, params);
  f.what = join(chosen, " ");
  // A split of K (decode) ends with the reduction's launch, as timeKccGemm's.
  if (Error e = addReduction(*device, s, ops::gemmQuantSplits(chosen), *c, DType::bf16, f))
    return std::move(e);
  return f;
}

Expected<ModelFigures> timeKccAttention(Chip chip, const AttentionShape &s,
                                        unsigned iterations) {
  Expected<AttentionBuffers> buffers = attentionBuffers(chip, s);
  if (!buffers)
    return buffers.takeError();
  Device &device = buffers->device;
  int64_t B = int64_t(s.batch), S = int64_t(s.seq), D = int64_t(s.headDim);
  DType in = s.fp8 ? ops::attentionFp8DType(chip) : DType::bf16;
  ops::AttentionTensorRef tq(buffers->q, in, B, S, int64_t(s.heads), D),
      tk(buffers->k, in, B, S, int64_t(s.kvHeads), D),
      tv(buffers->v, in, B, S, int64_t(s.kvHeads), D),
      to(buffers->o, DType::bf16, B, S, int64_t(s.heads), D);
  ops::AttentionOptions ao;
  ao.causal = s.causal;
  if (s.fp8)
    ao.descale = ops::AttentionDescale{};
  // Causal: the first round, whole (below).
  auto report = timeLaunch(
      device, attentionFlops(s), iterations,
      [&]() -> Expected<LaunchResult> {
        auto r = ops::attention_forward(tq, tk, tv, to, ao);
        if (!r)
          return r.takeError();
        return r->launch;
      },
      s.causal);
  if (!report)
    return report.takeError();
  ModelFigures f = figuresOf(*report);
  f.what = join(ops::attentionParams(chip, in, D, s.causal, false), " ");
  return f;
}

/// Device buffers of aiter's 256x256 GEMM at `s`, and its argument block.
struct AiterGemmBuffers {
  Buffer a, b, d;
};
Expected<AiterGemmBuffers> aiterGemmBuffers(Device &device, const GemmShape &s,
                                            uint64_t slack) {
  // The kernel loads whole 256-row tiles and relies on the allocation
  // behind a tail being readable, as a framework's allocator (2 MiB
  // granules) makes it on hardware: allocate whole tiles (and `slack`
  // bytes more, for a launch that runs to the end and prefetches past K).
  uint64_t mTiles = (s.m + 255) / 256 * 256;
  Expected<Buffer> a = randomBf16(device, mTiles * s.k + slack / 2, 1);
  if (!a)
    return a.takeError();
  Expected<Buffer> b = randomBf16(device, s.n * s.k + slack / 2, 2);
  if (!b)
    return b.takeError();
  Expected<Buffer> d = Buffer::allocate(device, mTiles * s.n * (s.outBf16 ? 2 : 4));
  if (!d)
    return d.takeError();
  return AiterGemmBuffers{std::move(*a), std::move(*b), std::move(*d)};
}
void fillAiterGemm(SlotBlock &x, const GemmShape &s, const AiterGemmBuffers &g) {
  uint32_t outBytes = s.outBf16 ? 2 : 4;
  x.set(0, g.d.address()); // D
  x.set(1, g.d.address()); // C (beta = 0: not read)
  x.set(2, g.a.address());
  x.set(3, g.b.address());
  x.set(4, 1.0f); // alpha
  x.set(5, 0.0f); // beta
  x.set(6, uint32_t(s.n * outBytes)); // stride_D0, bytes
  x.set(8, uint32_t(s.n * outBytes)); // stride_C0
  x.set(10, uint32_t(s.k * 2));       // stride_A0
  x.set(12, uint32_t(s.k * 2));       // stride_B0
  x.set(14, uint32_t(s.m));
  x.set(15, uint32_t(s.n));
  x.set(16, uint32_t(s.k));
  x.set(17, uint32_t(1)); // split-K
  x.set(18, uint32_t(s.outBf16));
  x.set(19, g.d.address()); // bias (add_bias = 0: not read)
  x.set(21, g.d.address()); // semaphore (split-K only)
}
const char *const kAiterGemmFile = "/hsa/gfx950/bf16gemm/bf16gemm_bf16_tn_256x256.co";
const char *const kAiterGemmKernel = "_ZN5aiter24bf16gemm_bf16_tn_256x256E";

Expected<ModelFigures> timeAiterGemm(const std::string &aiter, const GemmShape &s,
                                     unsigned iterations, bool firstRound) {
  if (firstRound)
    iterations = 0;
  if (s.n % 256)
    return makeError("aiter's 256x256 GEMM needs N a multiple of 256; N = " + Twine(s.n));
  Expected<Device &> device = emulatedDevice(Chip::gfx950);
  if (!device)
    return device.takeError();
  // A whole replay (iterations 0) runs the last iteration, which
  // prefetches one K block past the end of A and B.
  Expected<AiterGemmBuffers> g = aiterGemmBuffers(*device, s, iterations ? 0 : 2 * 256 * s.k * 2);
  if (!g)
    return g.takeError();
  // Its loop takes a K block of 128 an iteration and the last block runs
  // after the loop, peeled with the epilogue: the steady state, which times
  // nothing after the loop, would leave that block's MFMAs out (the loop's
  // compare says 63 iterations at K = 8192 for 64 blocks). Extrapolating
  // to one iteration per block times it at the loop's rate, as kcc's loop,
  // which runs every block, is timed (8192^3: 1614.0 -> 1589.5 TFLOPS; the
  // whole replay, --full, says 1586.0).
  uint64_t blocks = (s.k + 127) / 128;
  return runAiter(*device, aiter + kAiterGemmFile, kAiterGemmKernel,
                  {uint32_t(s.n / 256), uint32_t((s.m + 255) / 256), 1}, {256, 1, 1},
                  2.0 * double(s.m) * double(s.n) * double(s.k), iterations,
                  [&](SlotBlock &x) { fillAiterGemm(x, s, *g); }, firstRound, blocks);
}

Expected<ModelFigures> timeAiterSplitKGemm(const std::string &aiter, Chip chip,
                                           const std::string &codeObject,
                                           const std::string &kernel, unsigned tileM,
                                           unsigned tileN, unsigned splitK,
                                           const GemmShape &s) {
  if (!tileM || !tileN || s.n % tileN || s.k % 64)
    return makeError("aiter's split-K GEMMs need N a multiple of the tile's " + Twine(tileN) +
                     " and K of 64; N = " + Twine(s.n) + ", K = " + Twine(s.k));
  Expected<Device &> device = emulatedDevice(chip);
  if (!device)
    return device.takeError();
  // The clean kernels zero their whole D tile, tail rows too, trusting the
  // allocation behind a tail to be there (a framework's allocator hands out
  // 2 MiB granules): A and D are allocated in whole tiles of rows.
  uint64_t rows = (s.m + tileM - 1) / tileM * tileM;
  Expected<Buffer> a = randomBf16(*device, rows * s.k, 1);
  if (!a)
    return a.takeError();
  Expected<Buffer> b = randomBf16(*device, s.n * s.k, 2);
  if (!b)
    return b.takeError();
  uint32_t outBytes = s.outBf16 ? 2 : 4;
  Expected<Buffer> d = Buffer::allocate(*device, rows * s.n * outBytes);
  if (!d)
    return d.takeError();
  uint32_t gx = uint32_t(s.n / tileN), gy = uint32_t((s.m + tileM - 1) / tileM);
  // One u32 per output tile, 0 before the first launch (aiter's cached
  // torch.zeros((16, 64))); a clean launch leaves it 0 again.
  std::vector<uint32_t> zeros(std::max<size_t>(1024, size_t(gx) * gy), 0);
  Expected<Buffer> sema = Buffer::fromHost(*device, ArrayRef<uint32_t>(zeros));
  if (!sema)
    return sema.takeError();
  return runAiter(*device, aiter + "/" + codeObject, kernel, {gx, gy, splitK}, {256, 1, 1},
                  2.0 * double(s.m) * double(s.n) * double(s.k), 0,
                  [&](SlotBlock &x) {
                    x.set(0, d->address());
                    x.set(2, a->address());
                    x.set(3, b->address());
                    x.set(4, 1.0f);
                    x.set(6, uint32_t(s.n * outBytes));  // stride_D0 (not read)
                    x.set(8, uint32_t(s.n * outBytes));  // stride_C0: D's row stride
                    x.set(10, uint32_t(s.k * 2));
                    x.set(12, uint32_t(s.k * 2));
                    x.set(14, uint32_t(s.m));
                    x.set(15, uint32_t(s.n));
                    x.set(16, uint32_t(s.k));
                    x.set(17, splitK);
                    x.set(18, uint32_t(s.outBf16));
                    x.set(21, sema->address());
                  },
                  /*firstRound=*/true);
}

Expected<ModelFigures> timeAiterFp8BlockScaleGemm(const std::string &aiter, Chip chip,
                                                  const std::string &codeObject,
                                                  const std::string &kernel, unsigned tileM,
                                                  unsigned tileN, unsigned splitK,
                                                  const GemmShape &s) {
  // The launcher's checks (validate_inputs; the tuned path's splitK check):
  // N a multiple of the tile's 128 columns, K of 128, and K's shares, each
  // rounded up to 128, exactly `splitK` of them.
  if (!tileM || !tileN || s.n % tileN || s.k % kFp8ScaleBlock)
    return makeError("aiter's FP8 block-scale GEMMs need N a multiple of " + Twine(tileN) +
                     " and K of 128; N = " + Twine(s.n) + ", K = " + Twine(s.k));
  splitK = std::max(1u, splitK);
  uint64_t share = ((s.k + splitK - 1) / splitK + kFp8ScaleBlock - 1) / kFp8ScaleBlock *
                   kFp8ScaleBlock;
  if ((s.k + share - 1) / share != splitK)
    return makeError("aiter's FP8 block-scale GEMM cannot split K = " + Twine(s.k) + " in " +
                     Twine(splitK) + " shares of whole 128-deep blocks");
  Expected<Device &> device = emulatedDevice(chip);
  if (!device)
    return device.takeError();
  DType f8 = ops::fp8DTypeOf(chip);
  // Its buffer resources stop at M's last row; A and C are allocated in
  // whole tiles of rows all the same (a framework's 2 MiB granules).
  uint64_t rows = (s.m + tileM - 1) / tileM * tileM;
  uint64_t kb = s.k / kFp8ScaleBlock, nb = (s.n + kFp8ScaleBlock - 1) / kFp8ScaleBlock;
  Expected<Buffer> a = randomFp8(*device, f8, rows * s.k, 1);
  if (!a)
    return a.takeError();
  // B pre-shuffled (aiter's shuffle_weight, 16x16): the same bytes in
  // another order, which the model's time does not depend on.
  Expected<Buffer> b = randomFp8(*device, f8, s.n * s.k, 2);
  if (!b)
    return b.takeError();
  Expected<Buffer> sa = onesF32(*device, kb * rows);
  if (!sa)
    return sa.takeError();
  Expected<Buffer> sb = onesF32(*device, nb * kb);
  if (!sb)
    return sb.takeError();
  std::vector<float> zeros(static_cast<size_t>(s.n), 0.0f);
  Expected<Buffer> bias = Buffer::fromHost(*device, ArrayRef<float>(zeros));
  if (!bias)
    return bias.takeError();
  Expected<Buffer> c = Buffer::allocate(*device, rows * s.n * 2);
  if (!c)
    return c.takeError();
  double flops = 2.0 * double(s.m) * double(s.n) * double(s.k);
  Expected<ModelFigures> f = runAiter(
      *device, aiter + "/" + codeObject, kernel,
      {uint32_t(s.n / tileN * splitK), uint32_t((s.m + tileM - 1) / tileM), 1}, {256, 1, 1},
      flops, 0,
      [&](SlotBlock &x) {
        x.set(0, c->address());
        x.set(1, a->address());
        x.set(2, b->address());
        x.set(3, sa->address()); // A's scales, [K/128, M]
        x.set(4, sb->address()); // B's, [N/128, K/128]
        x.set(5, bias->address());
        x.set(6, uint32_t(s.m));
        x.set(7, uint32_t(s.n));
        x.set(8, uint32_t(s.k));
        x.set(9, uint32_t(s.k));      // lda, elements (bytes)
        x.set(10, uint32_t(s.k));     // ldb
        x.set(11, uint32_t(s.n * 2)); // ldc, bytes
        x.set(12, splitK);
        x.set(13, uint32_t(s.m)); // scale_m (1-row blocks)
        x.set(14, uint32_t(nb));  // scale_n
        x.set(15, uint32_t(kb));  // scale_k
      },
      /*firstRound=*/true);
  if (!f)
    return f.takeError();
  if (splitK > 1) {
    f->fillSeconds = fillSeconds(timing::getTimingParams(chip), double(s.m * s.n * 2));
    f->seconds += f->fillSeconds;
    f->tflops = flops / f->seconds / 1e12;
  }
  return f;
}

Expected<std::string> checkAiterGemm(const std::string &aiter, const GemmShape &s) {
  if (s.n % 256)
    return makeError("aiter's 256x256 GEMM needs N a multiple of 256; N = " + Twine(s.n));
  Expected<Device &> device = emulatedDevice(Chip::gfx950);
  if (!device)
    return device.takeError();
  // The whole launch runs: its last iteration prefetches one K block past
  // the end of A and B, which a framework's allocator leaves readable.
  Expected<AiterGemmBuffers> g = aiterGemmBuffers(*device, s, 2 * 256 * s.k * 2);
  if (!g)
    return g.takeError();
  Expected<AiterLaunch> launch = loadAiter(*device, aiter + kAiterGemmFile, kAiterGemmKernel,
                                           [&](SlotBlock &x) { fillAiterGemm(x, s, *g); });
  if (!launch)
    return launch.takeError();
  LaunchConfig config;
  config.grid = {uint32_t(s.n / 256), uint32_t((s.m + 255) / 256), 1};
  config.block = {256, 1, 1};
  config.check.enabled = true;
  Expected<LaunchResult> r = launch->kernel.launch(config, launch->args);
  if (!r)
    return toString(r.takeError());
  return std::string("clean");
}

Expected<ModelFigures> timeAiterAttention(const std::string &aiter, Chip chip,
                                          const AttentionShape &s, unsigned iterations,
                                          bool firstRound) {
  if (s.headDim != 128)
    return makeError("the aiter kernels compared here are D = 128");
  Expected<AttentionBuffers> buffers = attentionBuffers(chip, s);
  if (!buffers)
    return buffers.takeError();
  Device &device = buffers->device;
  Expected<Buffer> lse = Buffer::allocate(device, s.batch * s.heads * s.seq * 4);
  if (!lse)
    return lse.takeError();
  // FP8: descale factors of 1 (per tensor: strides 0), read by the kernel
  // from memory.
  std::vector<float> ones(4, 1.0f);
  Expected<Buffer> descale = Buffer::fromHost(device, ArrayRef<float>(ones));
  if (!descale)
    return descale.takeError();
  std::string file, name;
  if (s.fp8 && chip == Chip::gfx942) {
    // MI300's (FNUZ e4m3, hsa/gfx942/fmha_v3_fwd/fmha_fwd.csv: fp8bf16).
    file = s.causal ? "MI300/fwd_hd128_fp8_causal.co" : "MI300/fwd_hd128_fp8.co";
    name = s.causal ? "_ZN5aiter25fmha_fwd_hd128_fp8_causalE" : "_ZN5aiter18fmha_fwd_hd128_fp8E";
  } else if (s.fp8) {
    file = s.causal ? "fwd_hd128_fp8_causal.co" : "fwd_hd128_fp8.co";
    name = s.causal ? "_ZN5aiter31fmha_fwd_hd128_fp8_causal_gfx950E"
                    : "_ZN5aiter24fmha_fwd_hd128_fp8_gfx950E";
  } else if (chip == Chip::gfx950) {
    file = s.causal ? "fwd_hd128_bf16_causal.co" : "fwd_hd128_bf16.co";
    name = s.causal ? "_ZN5aiter26fmha_fwd_hd128_bf16_causalE"
                    : "_ZN5aiter19fmha_fwd_hd128_bf16E";
  } else {
    std::string r = s.aiterGfx942Rounding;
    if (r != "rtne" && r != "rtna" && r != "rtz")
      return makeError("aiter's gfx942 attention rounds P by rtne, rtna or rtz, not '" + r + "'");
    file = (s.causal ? "MI300/fwd_hd128_bf16_causal_" : "MI300/fwd_hd128_bf16_") + r + ".co";
    std::string sym = (s.causal ? "fmha_fwd_hd128_bf16_causal_" : "fmha_fwd_hd128_bf16_") + r;
    name = "_ZN5aiter" + std::to_string(sym.size()) + sym + "E";
  }
  // Q, K, V strides in bytes of the input type, O's of bf16.
  const uint32_t bpe = s.fp8 ? 1 : 2, obpe = 2, tsQo = 256;
  uint32_t tokQ = uint32_t(s.heads * s.headDim * bpe);
  uint32_t tokKv = uint32_t(s.kvHeads * s.headDim * bpe);
  uint32_t headBytes = uint32_t(s.headDim * bpe);
  uint32_t tokO = uint32_t(s.heads * s.headDim * obpe), headO = uint32_t(s.headDim * obpe);
  // A causal launch pairs the first and last query blocks in one workgroup
  // (aiter's get_grid_dim: tg_div 2); its tuning option drops from 5 to 3
  // past 16K queries or with a head count not a multiple of 8.
  uint32_t blocks = uint32_t((s.seq + tsQo - 1) / tsQo);
  uint32_t gridX = s.causal ? (blocks + 1) / 2 : blocks;
  uint32_t opt = (s.causal && (s.heads % 8 || s.seq > 16384)) ? 3 : 5;
  return runAiter(
      device, aiter + "/hsa/" + getChipInfo(chip).name.str() + "/fmha_v3_fwd/" + file, name,
      {gridX, uint32_t(s.heads), uint32_t(s.batch)}, {512, 1, 1}, attentionFlops(s),
      iterations, [&](SlotBlock &x) {
        x.set(0, buffers->o.address());
        x.set(1, buffers->q.address());
        x.set(2, buffers->k.address());
        x.set(3, buffers->v.address());
        x.set(4, lse->address());
        x.set(5, float(1.0 / std::sqrt(double(s.headDim)))); // softmax scale
        x.set(6, uint32_t(s.seq));                             // query length
        x.set(7, tokQ);                                        // query row stride
        x.set(8, tsQo * tokQ);                                 // a workgroup's rows
        x.set(9, headBytes);                                   // head stride
        x.set(10, uint32_t(s.seq) * tokQ);                     // batch stride
        x.set(11, uint32_t(s.heads / s.kvHeads));              // GQA ratio
        x.set(12, tokKv);
        x.set(13, headBytes);
        x.set(14, uint32_t(s.seq) * tokKv);
        x.set(15, opt);
        x.set(16, uint32_t(0)); // no LSE
        x.set(17, uint32_t(s.seq)); // key length
        x.set(18, uint32_t(s.headDim));
        x.set(19, uint32_t(s.headDim));
        x.set(20, uint32_t(s.heads));
        x.set(21, tokKv); // V strides
        x.set(22, headBytes);
        x.set(23, uint32_t(s.seq) * tokKv);
        x.set(24, tokO); // O strides
        x.set(25, headO);
        x.set(26, uint32_t(s.seq) * tokO);
        x.set(29, uint32_t(s.seq * 4)); // LSE head stride
        if (s.fp8) {
          // Q, K, V descale pointers; their batch and head strides (slots
          // 35-40) stay 0: one factor per tensor.
          x.set(32, descale->address());
          x.set(33, descale->address());
          x.set(34, descale->address());
        }
      },
      s.causal || firstRound);
}

} // namespace kcc::bench
