//===- Timing.h - Cycle estimates of a kernel launch -----------*- C++ -*-===//
//
// The public face of the timing model: run a kernel on an emulated device
// with a TraceRecorder attached, replay one CU's workgroups on the CU model,
// and scale to the whole device:
//
//   cycles(kernel) = rounds * cycles(one CU),
//   rounds = ceil(workgroups / (CUs * workgroups resident per CU)),
//
// where the workgroups resident per CU come from the kernel's occupancy
// (registers, LDS, waves), as the emulator's residency computes them. A
// memory-bound floor (compulsory DRAM bytes / HBM bandwidth) applies when
// the caller gives the bytes.
//
// Steady-state mode runs only one CU's workgroups and stops them after K
// iterations of their loop; the remaining iterations are inferred from the
// loop's scalar compare (induction variable and bound) or given by the
// caller, and charged at the replayed steady-state cycles per iteration.
// The code after the loop (the epilogue) is then not timed.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_TIMING_TIMING_H
#define KCC_RUNTIME_EMU_TIMING_TIMING_H

#include "runtime/emu/Emulator.h"
#include "runtime/emu/timing/CuModel.h"
#include "runtime/emu/timing/DeviceModel.h"
#include "runtime/emu/timing/Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace kcc {
struct KernelInfo;
}

namespace kcc::emu::timing {

/// How far the latency-sensitivity replay moves the memory latencies.
constexpr unsigned kLatencyProbeCycles = 256;

struct TimingOptions {
  /// CUs of the device the estimate is for; 0 = the chip's (304 / 256).
  unsigned computeUnits = 0;
  /// Steady-state mode: stop after this many iterations of the hot loop and
  /// extrapolate (0 = trace the whole run of one CU's workgroups).
  unsigned steadyStateIterations = 0;
  /// Total iterations of the hot loop, when the compare cannot tell.
  uint64_t tripCount = 0;
  /// Trace one CU's first round of workgroups to their end and stop the
  /// launch there: the round stands for all of them, prologue and epilogue
  /// included. Only for launches whose workgroups all do the same work (a
  /// causal attention whose query blocks come in pairs); the outputs are
  /// then incomplete, as in steady state. Not with steadyStateIterations.
  bool firstRoundOnly = false;
  /// FLOPs of the whole launch, for the TFLOPS figure (0 = not reported).
  double flops = 0;
  /// Compulsory DRAM bytes of the launch, for the memory-bound floor.
  double dramBytes = 0;
  /// Keep per-wave spans for the timeline picture.
  bool recordSpans = false;
  /// Replay the trace a second time with the vector-memory latencies
  /// raised by kLatencyProbeCycles and report how the CU round grows per
  /// cycle of latency (TimingReport::cyclesPerLatencyCycle): what lets
  /// model_validation fit the latency the measured machine's loads see.
  /// Whole runs only (not with steady state).
  bool latencySensitivity = false;
  /// Wave instructions the trace may hold (16 bytes each; the default is
  /// 1 GiB): a launch that would trace more is stopped and not estimated.
  uint64_t maxTracedInstructions = uint64_t(1) << 26;
};

struct LoopTiming {
  uint64_t pc = 0;          // back-edge branch offset in the image
  std::string text;         // the branch
  /// Back-edges taken by the first traced wave, + 1 for each entry into the
  /// loop (its last iteration falls through; the last entry's only when
  /// the wave ended).
  uint64_t iterations = 0;
  double cyclesPerIteration = 0; // steady state (first iteration excluded)
  /// Instructions per kind, the mean over the intervals between takings of
  /// the back-edge, leaving out those that cross an enclosing loop's.
  std::array<double, kNumKinds> mixPerIteration{};
  uint64_t instructionsPerIteration = 0;
  /// The matrix pipes' busy fraction (mean over the CU's SIMDs) over the
  /// same steady window as cyclesPerIteration: what the extrapolated
  /// iterations add to the MFMA-busy fraction that sets the clock.
  double steadyMfmaBusy = 0;
};

struct LdsConflictSite {
  uint64_t pc = 0;
  std::string text;
  uint64_t executions = 0;
  double degree = 1;   // cycles / conflict-free cycles, over all executions
  double worst = 1;    // the worst single execution
};

struct SimdFractions {
  double mfma = 0, valu = 0, lds = 0, vmem = 0;
};

struct TimingReport {
  Chip chip = Chip::gfx942;
  /// The trace reached its cap (RecorderOptions::maxTracedOps): no estimate.
  bool traceCapped = false;
  uint64_t tracedInstructions = 0;
  std::string kernel;
  unsigned computeUnits = 0;
  uint64_t workgroups = 0;
  uint32_t wavesPerGroup = 0;
  uint64_t groupsPerCu = 0;      // occupancy
  uint64_t tracedGroups = 0;     // workgroups replayed on the CU
  uint64_t rounds = 0;
  uint64_t simulatedCycles = 0;  // replay of the traced part
  uint64_t cuCycles = 0;         // one round on one CU (extrapolated if so)
  double kernelCycles = 0;
  double kernelSeconds = 0;
  /// The MFMA-busy fraction of the kernel (mean over SIMDs; in steady
  /// state, of the replay plus its extrapolated iterations) and the clock
  /// the chip sustains at it (TimingParams::sustainedClockGHz), which turns
  /// kernelCycles into kernelSeconds.
  double mfmaBusy = 0;
  double clockGHz = 0;
  bool memoryBound = false;      // the DRAM floor decided kernelSeconds
  /// The CU's round and the launch around it as the device-level model
  /// (DeviceModel.h) was given them, and what it made of them: kernelSeconds
  /// and its parts. A caller may evaluate the round again with other
  /// constants (model_validation's fit).
  CuRound round;
  LaunchExtent extent;
  DeviceTime device;
  /// With TimingOptions::latencySensitivity: d(cuCycles) / d(latency), the
  /// round's growth per cycle of vector-memory latency (0 when not asked).
  double cyclesPerLatencyCycle = 0;
  double tflops = 0;
  /// The most TFLOPS the chip's matrix cores can give for the fastest MFMA
  /// the kernel runs (the model's own pass counts, every SIMD of every CU
  /// issuing it back to back at the clock); 0 when it runs none. A
  /// prediction above it is an error (estimate() refuses it), not a figure.
  double peakTflops = 0;
  /// Steady state stopped the launch before it ended.
  bool stoppedEarly = false;
  /// The iterations steady state asked for (0: a full run).
  unsigned steadyStateIterations = 0;
  /// Only the first round ran (TimingOptions::firstRoundOnly).
  bool firstRoundOnly = false;
  std::string peakMfma; // the MFMA that peak is for
  bool extrapolated = false;
  std::string note;              // how the steady state was extrapolated
  std::vector<LoopTiming> loops;
  /// The hot loop: the back-edge whose takings span the most of the wave's
  /// instructions, or, in a loop nest, the loop inside it taken more often
  /// over at least half that span.
  int hotLoop = -1;
  /// Each traced wave's own hot loop (chosen as `hotLoop` is), its mix per
  /// iteration averaged over the `hotMixWaves` waves that took one twice or
  /// more. Where a workgroup's waves run different loops or different parts
  /// of one (attention's wave groups: staggered copies of the loop, only
  /// the leading one issuing the DMA) this is the per-wave count to compare
  /// with another kernel's; `loops` is the first traced wave's alone.
  std::array<double, kNumKinds> hotMixMean{};
  /// Each traced wave's own hot loop (its back-edge's offset; -1: none),
  /// parallel to trace.waves.
  std::vector<int64_t> waveHotLoopPc;
  double hotInstructionsMean = 0;
  unsigned hotMixWaves = 0;
  std::vector<SimdFractions> simds; // busy fraction of the simulated cycles
  double ldsPipe = 0, memoryPipe = 0;
  std::array<uint64_t, kNumKinds> mix{}; // dynamic instructions, traced waves
  std::vector<LdsConflictSite> ldsConflicts;
  LaunchStats launch;
  Trace trace;
  CuTiming timing;
};

/// Residency of `kernel` on one CU of `chip` (workgroups at once), by the
/// same rule as the emulator: waves per SIMD by registers (512 per lane,
/// granule 8) and the chip's cap, workgroups by waves, LDS and 16 per CU.
uint64_t workgroupsPerCu(const KernelInfo &kernel, Chip chip,
                         uint32_t wavesPerGroup, uint32_t dynamicLdsBytes);

/// Options that cannot go together (steady state and the first round alone)
/// are an error before anything runs; estimate() and LaunchTiming::attach()
/// ask first.
llvm::Error checkTimingOptions(const TimingOptions &options);

/// The error code of a steady-state estimate refused because the replayed
/// workgroups ran fewer iterations of their loop than asked and other
/// rounds remain: a caller that knows every workgroup runs the same loop
/// may time the launch whole instead (gemm_bench's split GEMMs).
std::error_code steadyStateTooShortError();

/// Runs `kernel` of `codeObject` on `device` (arguments already laid out in
/// `args`, buffers allocated there) and estimates its time on the chip.
/// Without steady-state mode the launch runs to completion, so outputs are
/// complete; with it only one CU's workgroups run, partially.
llvm::Expected<TimingReport> estimateLaunch(Device &device,
                                            llvm::ArrayRef<uint8_t> codeObject,
                                            llvm::StringRef kernel,
                                            const LaunchOptions &launch,
                                            llvm::ArrayRef<uint8_t> args,
                                            const TimingOptions &options);

/// What an estimate needs from whoever runs the kernel: one launch of it
/// with `observer` watching and only the first `workgroupLimit` workgroups
/// run (0: all). The emulator's own launch (estimateLaunch) and a runtime
/// Device instrumented through Device::instrument() both fit.
using ObservedLaunch = llvm::function_ref<llvm::Expected<LaunchStats>(
    Observer &observer, uint64_t workgroupLimit)>;

/// estimateLaunch for a kernel (`info`, compiled for `chip`) that `run`
/// launches with the given geometry.
llvm::Expected<TimingReport> estimate(Chip chip, const KernelInfo &info,
                                      Dim3 grid, Dim3 block,
                                      uint32_t dynamicLdsBytes,
                                      const TimingOptions &options,
                                      ObservedLaunch run);

/// Times a launch whose kernel is not known in advance (an op picks it and
/// its grid): attach it as the emulator's observer of a device
/// (Device::instrument, with computeUnits = 1 so that one CU's worth of
/// workgroups is resident, the ones replayed), run the op, then report().
/// The first workgroup names the kernel, grid and LDS; later launches of
/// other kernels on the device are not timed.
class LaunchTimer final : public Observer {
public:
  LaunchTimer(Chip chip, const TimingOptions &options);
  ~LaunchTimer() override;

  void workgroupBegin(Workgroup &wg) override;
  void workgroupEnd(Workgroup &wg) override;
  void beforeIssue(Wave &w, const Inst &in) override;
  void afterIssue(Wave &w, const Inst &in,
                  llvm::ArrayRef<MemRecord> mem) override;
  void barrierArrive(Wave &w, const Inst &in) override;
  void barrierRelease(Workgroup &wg) override;
  void waveEnd(Wave &w) override;
  bool stopRequested() override;

  /// The estimate of the launch seen (an error when none was, or when the
  /// estimate is above the chip's peak).
  llvm::Expected<TimingReport> report(const LaunchStats &stats);

private:
  bool mine(const Workgroup &wg) const;
  Chip chip_;
  TimingOptions options_;
  std::unique_ptr<class TraceRecorder> recorder_;
  const KernelInfo *kernel_ = nullptr;
  uint32_t launch_ = 0;
  uint64_t total_ = 0, perCu_ = 0;
};

/// The analysis part alone: replays `trace` and fills a report (used by
/// estimateLaunch and by tests that record their own traces).
TimingReport analyzeTrace(Trace trace, uint64_t workgroups, uint64_t groupsPerCu,
                          const TimingOptions &options);

/// Human-readable report.
void printReport(const TimingReport &report, llvm::raw_ostream &os);
/// The bank-conflict report: every LDS instruction that conflicted.
void printBankConflicts(const TimingReport &report, llvm::raw_ostream &os);
/// The chip's constant table with sources.
void printConstants(Chip chip, llvm::raw_ostream &os);

/// Remaining iterations after the back-edge whose compare saw (a, b), for a
/// loop whose compare operands move by (da, db) per iteration; nullopt when
/// the compare does not describe a counted loop. `compare` and `branch` are
/// mnemonics ("s_cmp_lg_u32", "s_cbranch_scc1").
std::optional<uint64_t> remainingIterations(llvm::StringRef compare,
                                            llvm::StringRef branch, uint64_t a,
                                            uint64_t b, int64_t da, int64_t db);

} // namespace kcc::emu::timing

#endif // KCC_RUNTIME_EMU_TIMING_TIMING_H
