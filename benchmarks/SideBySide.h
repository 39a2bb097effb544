//===- SideBySide.h - kcc's kernels and aiter's on the timing model -*- C++ -*-===//
//
// What the benchmarks that compare kcc with AMD's hand-written kernels share:
// both are launched through the runtime on an emulated device with the timing
// model attached (Device::instrument + emu::timing::LaunchTimer, one CU's
// workgroups, steady state), so the two figures of a row come from the same
// path. aiter's code objects are read at run time from a checkout the user
// gives in KCC_AITER_DIR (github.com/ROCm/aiter); nothing of it is in the
// tree. Their arguments are laid out as aiter's launchers fill them
// (csrc/py_itfs_cu/asm_gemm_a16w16.cu, csrc/cpp_itfs/mha_fwd.cu): one field
// per 16-byte slot.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_BENCHMARKS_SIDEBYSIDE_H
#define KCC_BENCHMARKS_SIDEBYSIDE_H

#include "target/Target.h"
#include "runtime/Buffer.h"
#include "runtime/Kernel.h"
#include "runtime/KernelArg.h"
#include "runtime/Module.h"
#include "runtime/emu/timing/Timing.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace kcc::bench {

/// The aiter checkout in KCC_AITER_DIR, if set.
std::optional<std::string> aiterCheckout();
/// How to get one (for a benchmark run without it).
void printAiterHowTo(llvm::raw_ostream &os, llvm::StringRef benchmark);

/// The emulated device of `chip`, from one runtime that lives as long as the
/// benchmark (devices and the JIT's memory cache with it).
llvm::Expected<Device &> emulatedDevice(Chip chip);
/// `elements` fixed bf16 values in [-0.5, 0.5) from a 32-bit LCG seeded by
/// `seed`: deterministic, and small enough that no kernel takes a rare path.
llvm::Expected<Buffer> randomBf16(Device &device, uint64_t elements, uint32_t seed);

/// Runs `launch` on `device` with the timing model watching one CU's
/// workgroups (`options`: steady-state iterations, FLOPs, DRAM bytes, spans).
llvm::Expected<emu::timing::TimingReport>
timeLaunch(Device &device, const emu::timing::TimingOptions &options,
           llvm::function_ref<llvm::Expected<LaunchResult>()> launch);

/// aiter's argument block as its launchers lay it out: one field per 16-byte
/// slot (a pointer or a 4-byte value at the slot's start, the rest zero).
class SlotBlock {
public:
  explicit SlotBlock(size_t bytes) : bytes_(bytes, 0) {}
  /// Fields past the kernel's block (a build that stops earlier) are dropped.
  template <typename T> void set(unsigned slot, T value) {
    if (size_t(slot) * 16 + sizeof(T) <= bytes_.size())
      std::memcpy(&bytes_[size_t(slot) * 16], &value, sizeof(T));
  }
  llvm::ArrayRef<uint8_t> bytes() const { return bytes_; }

private:
  std::vector<uint8_t> bytes_;
};

/// An aiter kernel loaded from the code object at `path` with its arguments,
/// filled by `fill` into a block of the kernel's metadata size and handed
/// to the runtime as the metadata's arguments (which name every 4- or
/// 8-byte piece of the block).
struct AiterLaunch {
  Module module;
  Kernel kernel;
  std::vector<KernelArgValue> args;
  /// The code object's bytes, for what --stats reports of it.
  std::vector<uint8_t> codeObject;
};
llvm::Expected<AiterLaunch> loadAiter(Device &device, const std::string &path,
                                      llvm::StringRef kernelName,
                                      llvm::function_ref<void(SlotBlock &)> fill);

/// The figures a side-by-side row prints, from one timing report.
struct ModelFigures {
  double seconds = 0, tflops = 0;
  double cyclesPerIteration = 0;
  double mfmaBusy = 0, clockGHz = 0;
  /// Instructions per MFMA in the hot loop, the MFMAs not counted (a
  /// wave's, the mean over the waves of each one's own hot loop).
  double otherPerMfma = 0;
  uint64_t tripCount = 0;
  /// kcc's split-K GEMM: the reduction's launch, included in `seconds` and
  /// `tflops` (the other figures are the GEMM kernel's).
  double reduceSeconds = 0;
  /// aiter's FP8 block-scale GEMM split over K: the fill that zeroes C for
  /// its atomics before the launch (hipMemsetAsync in its launcher, a device
  /// event the tuner's profiler counts), included in `seconds` and `tflops`.
  double fillSeconds = 0;
  /// The most TFLOPS the chip's matrix cores give for the kernel's fastest
  /// MFMA (TimingReport::peakTflops): a figure above it is a bug.
  double peakTflops = 0;
  /// Steady state was asked for, but the loop runs fewer iterations: the
  /// launch was replayed whole (timeKccGemm).
  bool wholeReplay = false;
  /// The kernel's parameters (kcc) or code object (aiter).
  std::string what;
  /// What the model blames for the hot loop (emu::timing::blameSummary;
  /// empty without a loop the waves took three times).
  std::string blame;
  /// The replayed CU round and the launch around it: what the device-level
  /// model (emu::timing::deviceTime) turned into `seconds`, kept so that
  /// model_validation can evaluate it again with other constants.
  emu::timing::CuRound round;
  emu::timing::LaunchExtent extent;
  /// The chip's CU slots the launch occupied and the clock's activity.
  emu::timing::DeviceTime device;
  /// The model's error on hardware for kernels of this kind
  /// (emu::timing::validationNote), printed beside every figure.
  std::string validation;
};
ModelFigures figuresOf(const emu::timing::TimingReport &report);
/// Where figuresOf also prints each launch's whole timing report (the busy
/// fractions per SIMD, the hot loop's mix, the clock: what a figure's gap
/// comes from), after a line naming `what`; null (the default): nowhere.
void setReportStream(llvm::raw_ostream *os);

/// The CUs of the device that later estimates are for (0, the default:
/// the chip's): a measurement made on an 80-CU MI308X is modelled on 80.
void setTimedComputeUnits(unsigned computeUnits);

/// C[M, N] = A[M, K] B[N, K]^T, bf16 in, bf16 out.
struct GemmShape {
  uint64_t m = 0, n = 0, k = 0;
  bool outBf16 = true;
};

/// The scale block of the FP8 block-scale GEMMs: A's scales cover 1x128,
/// B's 128x128.
constexpr uint64_t kFp8ScaleBlock = 128;
/// Bytes an FP8 block-scale GEMM at `s` moves at least once: A and B (one
/// byte an element), A's scales [M, ceil(K/128)] and B's [ceil(N/128),
/// ceil(K/128)] (f32), C (bf16).
double fp8BlockScaleBytes(const GemmShape &s);

/// The model's time for a fill of `bytes` of device memory on `p`'s chip
/// (aiter's hipMemsetAsync of C before a split FP8 launch): the bytes at
/// HBM's sustained bandwidth. No launch cost is charged for it: the
/// model's launch constants are fitted on kernels' launches, and charging
/// them to the fill as well reads the split rows of the fitting part 10-110%
/// slow (docs/kernels/gemm-fp8-speed.md), which says a fill costs the profiler
/// far less than a kernel's launch.
double fillSeconds(const emu::timing::TimingParams &p, double bytes);
/// [B, S, H, D] attention, bf16 (or, with fp8, the chip's e4m3 Q, K, V
/// with descales of 1 and a bf16 O), S_q = S_kv = S.
struct AttentionShape {
  uint64_t batch = 1, heads = 1, kvHeads = 1, seq = 1, headDim = 128;
  bool causal = false;
  bool fp8 = false;
  /// aiter's gfx942 bf16 kernels come in three roundings of P to bf16
  /// (MI300/fwd_hd128_bf16[_causal]_<r>.co: rtne, rtna, rtz); its
  /// benchmark's default (-v3_bf16_cvt=1) is rtna.
  const char *aiterGfx942Rounding = "rtne";
};

/// kcc's GEMM (kcc::ops::gemm, its own tile choice unless `params`
/// overrides some of it, e.g. "WM=128") on the model.
llvm::Expected<ModelFigures> timeKccGemm(Chip chip, const GemmShape &shape,
                                         unsigned iterations,
                                         const std::vector<std::string> &params = {});
/// kcc's FP8 GEMM (kcc::ops::gemmFp8, the chip's e4m3, 128-block scales:
/// A's [M, ceil(K/128)], Bt's [ceil(N/128), ceil(K/128)], bf16 out; its own
/// tile choice unless `params` overrides some of it) on the model: steady
/// state over `iterations` (0: the whole launch replayed), replayed whole
/// where its loop runs fewer.
llvm::Expected<ModelFigures> timeKccGemmFp8(Chip chip, const GemmShape &shape,
                                            unsigned iterations,
                                            const std::vector<std::string> &params = {});
/// kcc's attention (kcc::ops::attention_forward) on the model: steady state
/// over `iterations` of the hot loop, or, causal, the first round whole. A
/// causal launch's first workgroups stand for the others only because both
/// kernels take their query blocks in pairs, the longest with the shortest
/// (kcc: PAIRS; aiter: a grid of half the blocks), so every workgroup does
/// the same work; the whole round also times what steady state leaves out
/// (the prologue, the short block, the epilogue).
llvm::Expected<ModelFigures> timeKccAttention(Chip chip, const AttentionShape &shape,
                                              unsigned iterations);
/// aiter's bf16 256x256 GEMM (gfx950 only; N a multiple of 256): steady
/// state over `iterations` of its loop (0: the whole launch), or, with
/// `firstRound`, one CU's first round of workgroups whole (every tile does
/// the same work, so it stands for the others; prologue, the peeled last
/// K block and the C store are timed).
llvm::Expected<ModelFigures> timeAiterGemm(const std::string &aiter,
                                           const GemmShape &shape, unsigned iterations,
                                           bool firstRound = false);
/// aiter's bf16 split-K GEMMs (hsa/<gfx>/bf16gemm/bf16gemm_fp32bf16_tn_
/// <tileM>x64_*splitk*.co: `codeObject` relative to the checkout, `kernel`
/// its symbol): grid (N/64, ceil(M/tileM), splitK), each split a share of
/// K, partial sums added into D by atomics; the `_clean` kernels zero D
/// themselves behind a per-tile semaphore (zeroed here, as aiter's
/// workspace is once). One CU's first round runs whole.
llvm::Expected<ModelFigures> timeAiterSplitKGemm(const std::string &aiter, Chip chip,
                                                 const std::string &codeObject,
                                                 const std::string &kernel, unsigned tileM,
                                                 unsigned tileN, unsigned splitK,
                                                 const GemmShape &shape);
/// aiter's FP8 block-scale GEMMs (hsa/<gfx>/fp8gemm_blockscale/
/// fp8gemm_bf16_blockscale_BpreShuffle_<tileM>x128.co: `codeObject`
/// relative to the checkout, `kernel` its symbol), laid out as
/// csrc/py_itfs_cu/asm_a8w8_blockscale_bpreshuffle.cu fills them: grid
/// (N/tileN x splitK, ceil(M/tileM)), block 256; each workgroup takes a
/// share of K rounded to 128 (the last share what is left) and adds its
/// partial tile into C by bf16 atomics when split; A [M, K] fp8, B [N, K]
/// pre-shuffled fp8 (only its size matters here), A's scales transposed
/// ([ceil(K/128), M] f32), B's [N/128, ceil(K/128)] f32, a zero f32 bias
/// [N], C bf16. One CU's first round runs whole; a split launch adds the
/// fill of C that precedes it (ModelFigures::fillSeconds).
llvm::Expected<ModelFigures> timeAiterFp8BlockScaleGemm(const std::string &aiter, Chip chip,
                                                        const std::string &codeObject,
                                                        const std::string &kernel,
                                                        unsigned tileM, unsigned tileN,
                                                        unsigned splitK,
                                                        const GemmShape &shape);
/// aiter's bf16 256x256 GEMM run whole in check mode (the sanitizer): "clean"
/// or what it reports.
llvm::Expected<std::string> checkAiterGemm(const std::string &aiter, const GemmShape &shape);
/// aiter's fmha_v3_fwd, D = 128 bf16 (gfx950: fwd_hd128_bf16[_causal].co;
/// gfx942: MI300/fwd_hd128_bf16[_causal]_rtne.co), or fp8 (gfx950:
/// fwd_hd128_fp8[_causal].co; gfx942: MI300/fwd_hd128_fp8[_causal].co, FNUZ;
/// per-tensor descales of 1); causal timed as timeKccAttention does.
/// With `firstRound`, non-causal launches are timed as causal ones are.
llvm::Expected<ModelFigures> timeAiterAttention(const std::string &aiter, Chip chip,
                                                const AttentionShape &shape,
                                                unsigned iterations, bool firstRound = false);

/// FLOPs of the attention's two matrix products over the visible keys.
double attentionFlops(const AttentionShape &shape);

} // namespace kcc::bench

#endif // KCC_BENCHMARKS_SIDEBYSIDE_H
