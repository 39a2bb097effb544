//===- TimingParams.h - Per-chip constants of the timing model -*- C++ -*-===//
//
// Every number the cycle model uses lives in one table per chip
// (TimingParams.cpp), each row with its unit and its source: an ISA guide
// section, a vendor document, LLVM's AMDGPU scheduling model, or a published
// measurement. Rows without a published figure say "assumption" so that a
// reader knows which numbers calibration may move. The chip's own facts (CUs,
// SIMDs per CU, LDS banks, peak clock, HBM bandwidth) are not the model's:
// they come from target/'s ChipInfo, and the MFMA pass counts from
// target/Isa.h. `TimingParams` is the typed view the model reads;
// `timingTable` is what `kcc run --timing-constants` prints, the chip's
// facts first.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_TIMING_TIMINGPARAMS_H
#define KCC_RUNTIME_EMU_TIMING_TIMINGPARAMS_H

#include "target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace kcc::emu::timing {

/// One row of a chip's table.
struct TimingConstant {
  const char *name;
  double value;
  const char *unit;
  const char *source;
};

/// The typed view of a chip's table. Cycles are shader-clock cycles.
struct TimingParams {
  Chip chip = Chip::gfx942;
  // From target/ (ChipInfo): the peak clock, the CUs and their SIMDs.
  double clockGHz = 0;
  unsigned computeUnits = 0;
  unsigned simdsPerCu = 0;
  /// A SIMD is offered an issue slot every `issuePeriod` cycles; in that slot
  /// up to one instruction per category from different waves may issue.
  unsigned issuePeriod = 0;
  unsigned valuCycles = 0;        // wave64 VALU op on a 16-lane SIMD
  unsigned transCycles = 0;       // quarter-rate transcendental
  unsigned transUseWaitStates = 0;// extra wait states before a trans result is read
  unsigned permlaneCycles = 0;    // v_permlane16/32_swap
  unsigned mfmaCyclesPerPass = 0;
  unsigned mfmaReadExtraPasses = 0; // XDL result -> VALU/MFMA A,B read: passes + this
  unsigned saluCycles = 0;
  unsigned branchTakenCycles = 0;
  unsigned smemLatency = 0;
  unsigned ldsBanks = 0;          // from target/ (ChipInfo)
  unsigned ldsLatency = 0;
  unsigned vmemLatency = 0;
  unsigned vmemStoreLatency = 0;
  double l2BytesPerCyclePerCu = 0;
  double hbmBytesPerSecond = 0;   // from target/ (ChipInfo): the data sheet's
  /// The share of the data-sheet HBM bandwidth a streaming launch sustains
  /// (refresh, bank and page turns, the fabric's own traffic).
  double hbmSustainedFraction = 1;
  /// A launch's fixed cost: dispatch, the first waves' start and the
  /// end-of-kernel write-back, in seconds, as a profiler's device time of
  /// one launch sees it.
  double launchOverheadSeconds = 0;
  /// The same cost as host events around back-to-back launches see it:
  /// the gap between one kernel's end and the next one's start included.
  double backToBackLaunchSeconds = 0;
  /// From a CU's slot freeing to its next workgroup's first instruction
  /// (dispatch, register and LDS set-up, the first instruction fetches,
  /// the kernel arguments' first load): charged once per round.
  double workgroupLaunchCycles = 0;
  /// Vector-memory load latency when the data is still in L2 or the
  /// Infinity Cache from the launch before (vmemLatency is the cold case:
  /// the tuner's rotated inputs come from HBM).
  unsigned vmemLatencyWarm = 0;
  unsigned barrierLatency = 0;
  unsigned sleepCyclesPerUnit = 0;
  /// The power limit: up to this MFMA-busy fraction (averaged over the
  /// SIMDs) the chip holds its peak clock; above it the clock falls so that
  /// power, ~ activity x clock^powerClockExponent, stays at the limit.
  double powerKneeMfmaBusy = 1;
  double powerClockExponent = 1;

  /// LDS bytes per cycle without conflicts: one dword per bank.
  unsigned ldsBytesPerCycle() const { return ldsBanks * 4; }

  /// The clock (GHz) the chip sustains while its matrix cores are busy
  /// `mfmaBusy` of the time: a dense GEMM draws more power than the board
  /// limit allows at the peak clock, so the firmware lowers the clock until
  /// activity x f^n meets the limit: f = peak x (knee / busy)^(1/n).
  double sustainedClockGHz(double mfmaBusy) const;
};

/// The rows of `chip`'s table, in print order.
llvm::ArrayRef<TimingConstant> timingTable(Chip chip);

/// The typed parameters of `chip`, built once from its table.
const TimingParams &getTimingParams(Chip chip);

} // namespace kcc::emu::timing

#endif // KCC_RUNTIME_EMU_TIMING_TIMINGPARAMS_H
