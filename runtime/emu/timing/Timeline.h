//===- Timeline.h - SVG picture of a CU replay -----------------*- C++ -*-===//
//
// One row group per wave (grouped by SIMD), time on the x axis, four lanes
// per wave: the MFMA pipe, VALU / transcendental / scalar, LDS and memory,
// and what the wave waited on (s_waitcnt, s_barrier, stalls). Each span has
// a tooltip with its instruction. By default the window is one iteration of
// the hot loop of the first wave (a middle one, past the pipeline fill), so
// two schedules of a loop compare side by side.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_TIMING_TIMELINE_H
#define KCC_RUNTIME_EMU_TIMING_TIMELINE_H

#include "runtime/emu/timing/Timing.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace kcc::emu::timing {

struct TimelineOptions {
  /// Cycle window; begin == end selects the default (one hot-loop iteration,
  /// or the whole replay when there is no loop).
  uint64_t begin = 0, end = 0;
  /// Iterations of the hot loop in the default window.
  unsigned iterations = 1;
  unsigned widthPixels = 1200;
};

/// The default window of `report` for `options.iterations` iterations.
std::pair<uint64_t, uint64_t> timelineWindow(const TimingReport &report,
                                             const TimelineOptions &options);

/// Writes the picture; `report` must have been made with recordSpans.
void writeTimelineSvg(const TimingReport &report, const TimelineOptions &options,
                      llvm::raw_ostream &os);

} // namespace kcc::emu::timing

#endif // KCC_RUNTIME_EMU_TIMING_TIMELINE_H
