//===- DeviceModel.h - From one CU's replay to the whole chip ---*- C++ -*-===//
//
// The device-level half of the timing model. The CU model (CuModel.h)
// replays one CU's workgroups cycle by cycle; this turns that round into
// the launch's time on the whole chip, with the effects that no single
// CU sees:
//
//   - the memory latency the machine's loads see, where the replay measured
//     how much of the round it holds (CuRound::cyclesPerLatencyCycle);
//   - each round's workgroup launch (dispatch and set-up before the first
//     instruction, which the replay starts past);
//   - rounds of residency: ceil(workgroups / (CUs x resident per CU)); a
//     last round that holds fewer workgroups per CU than the others runs
//     in proportion to its share (the CU is throughput-bound when it holds
//     several, so one of them alone is not slower than its share);
//   - the sustained clock: the board's power limit is spent by the whole
//     chip, so the clock follows the chip's mean MFMA activity (the CU's
//     busy fraction times the fraction of the CU slots the launch keeps
//     occupied), not one CU's: a launch that fills 112 of 256 CUs draws
//     less power and clocks higher;
//   - HBM: the launch's compulsory DRAM bytes at the bandwidth the chip
//     sustains, a floor under the compute time;
//   - the launch's fixed cost: dispatch, the first wave's start and the
//     end-of-kernel cache write-back, which a kernel of a few microseconds
//     spends a large part of its time in.
//
// Every constant it reads is a row of TimingParams with its source; the
// fitted ones were fitted by benchmarks/model_validation.cpp on the
// declared fitting part of AMD's measurements (its header states the rule).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_TIMING_DEVICEMODEL_H
#define KCC_RUNTIME_EMU_TIMING_DEVICEMODEL_H

#include "runtime/emu/timing/TimingParams.h"

#include <cstdint>

namespace kcc::emu::timing {

/// What one CU's replay measured: the inputs of the device-level model.
struct CuRound {
  /// Cycles of one round on one CU (extrapolated in steady state).
  double cycles = 0;
  /// The CU's MFMA-busy fraction over that round (mean over its SIMDs).
  double mfmaBusy = 0;
  /// Workgroups the CU held in the replayed round (its occupancy, or the
  /// launch's share per CU when that is smaller).
  uint64_t workgroups = 1;
  /// How the round grows per cycle of vector-memory load latency, and the
  /// latency it was replayed at: a chip whose table says another latency
  /// (model_validation's fit) gets the round at that latency, its MFMA work
  /// spread over the longer round. 0: the round is taken as it is.
  double cyclesPerLatencyCycle = 0;
  double replayedLatency = 0;
};

/// The launch around that round.
struct LaunchExtent {
  uint64_t workgroups = 1;
  /// CUs of the device (0: the chip's).
  unsigned computeUnits = 0;
  /// Compulsory DRAM bytes (0: no memory floor).
  double dramBytes = 0;
};

/// The launch's time on the chip, with the parts it is made of.
struct DeviceTime {
  uint64_t rounds = 0;
  /// Cycles of the whole launch at the CU level (rounds, the last one at
  /// its share).
  double cycles = 0;
  /// Mean fraction of the chip's CU slots the launch keeps occupied.
  double occupiedFraction = 0;
  /// The chip's mean MFMA activity: what the power limit sees.
  double chipMfmaBusy = 0;
  double clockGHz = 0;
  double computeSeconds = 0;
  double memorySeconds = 0;
  double launchSeconds = 0;
  /// computeSeconds or memorySeconds, whichever is longer, plus the
  /// launch's fixed cost.
  double seconds = 0;
  bool memoryBound = false;
};

/// How a kernel's time is measured, which sets what the model charges
/// beyond its cycles. The hardware figures the model is fitted on come in
/// both kinds.
enum class Measurement {
  /// A profiler's device time of one launch, the inputs rotated through
  /// copies so that every launch reads them from HBM (aiter's tuner,
  /// aiter/test_common.py: its tuned tables): the model's default.
  ProfilerColdCaches,
  /// Host events around back-to-back launches on the same buffers (the
  /// op_tests benchmarks, ck_tile's timer: aiter's published FMHA
  /// figures): the gap between launches counts, the inputs are warm.
  EventsWarmCaches,
};

/// `p` with the launch cost and load latency of measurement `m`.
TimingParams measuredBy(TimingParams p, Measurement m);

/// `p` with vector-memory loads taking `cycles`; the store latency moves by
/// the same amount, as the replay's latency probe moves both
/// (CuModelOptions::vmemLatencyExtra), so that CuRound's sensitivity holds.
TimingParams withLoadLatency(TimingParams p, unsigned cycles);

/// The launch's time on `p`'s chip.
DeviceTime deviceTime(const TimingParams &p, const CuRound &round, const LaunchExtent &launch);

} // namespace kcc::emu::timing

#endif // KCC_RUNTIME_EMU_TIMING_DEVICEMODEL_H
