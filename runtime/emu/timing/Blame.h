//===- Blame.h - Where a hot loop's waves lose their cycles -----*- C++ -*-===//
//
// A kernel that falls short of its target on the timing model has to say
// why: which pipe is the busiest and, of the cycles its waves spend in their
// hot loops, how many go to waiting (s_waitcnt on LDS or on memory, the
// workgroup barrier) and to stalls before an instruction that cannot issue
// yet (an MFMA behind the matrix pipe or its operands, a VALU instruction
// behind the SIMD's vector pipe or its operands). The split comes from the
// replay's per-wave spans (TimingOptions::recordSpans), each wave over its
// own hot loop (TimingReport::waveHotLoopPc): wave groups that run
// different copies of a loop (attention's roles) each count theirs.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_TIMING_BLAME_H
#define KCC_RUNTIME_EMU_TIMING_BLAME_H

#include "runtime/emu/timing/CuModel.h"
#include "runtime/emu/timing/Timing.h"
#include "runtime/emu/timing/Trace.h"

#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kcc::emu::timing {

/// Why a wave did not issue: what its timeline's blocked spans say.
enum class WaitKind : uint8_t {
  Lds,        // s_waitcnt held by lgkmcnt: LDS (and scalar) results
  Memory,     // s_waitcnt held by vmcnt: vector memory (and LDS DMA)
  Barrier,    // s_barrier until the last wave arrives
  StallMfma,  // an MFMA waiting for the matrix pipe or its operands
  StallValu,  // a VALU / transcendental instruction waiting for the vector
              // pipe (the SIMD's other waves) or its operands
  StallOther, // anything else (s_nop, a taken branch's refetch, ...)
};
constexpr unsigned kNumWaitKinds = unsigned(WaitKind::StallOther) + 1;
/// "LDS waits", "barrier", ... (`detail`: "s_waitcnt on LDS (lgkmcnt)", ...).
llvm::StringRef waitKindName(WaitKind k, bool detail = false);
/// The kind of a blocked span (Wait, WaitMemory, Barrier, Stall); nullopt
/// for a span of the wave's own work.
std::optional<WaitKind> waitKindOf(const Span &span, const Trace &trace);

/// Shares of some cycles, one per WaitKind.
struct WaitShares {
  std::array<double, kNumWaitKinds> share{};
  double operator[](WaitKind k) const { return share[unsigned(k)]; }
  double &operator[](WaitKind k) { return share[unsigned(k)]; }
  double total() const;
  /// The largest share's kind.
  WaitKind largest() const;
};

/// Fractions of the waves' cycles in their hot loops, each wave from its
/// second taking of the back-edge (the first iteration is the fill) to its
/// last, summed over the waves that took it three times or more.
struct LoopBlame {
  unsigned waves = 0;
  double windowCycles = 0;
  WaitShares blocked;
  /// The busy fractions of the pipes: the matrix pipe over the hot loop's
  /// steady window (LoopTiming::steadyMfmaBusy), the others over the replay
  /// (means over the SIMDs; LDS and memory CU-wide).
  double mfmaPipe = 0, valuPipe = 0, ldsPipe = 0, memoryPipe = 0;
  /// The static instructions the waves blocked before longest, longest
  /// first (at most three): offset, text, share of the window.
  struct Site {
    uint64_t pc = 0;
    std::string text;
    double share = 0;
  };
  std::vector<Site> worst;

  /// While a SIMD's matrix (vector) pipe idles in the steady window (from
  /// the last of its waves' second iteration to the first of their last),
  /// what its waves are doing: each idle cycle split evenly over them.
  /// `idle` is the idle share of the window; `issuing` and `waits` are
  /// shares of the idle cycles and sum to 1. What keeps the busiest pipe
  /// from running more is what its idle time is spent on.
  struct PipeIdle {
    double idle = 0;
    double issuing = 0; // issuing other work (the wave is not blocked)
    WaitShares waits;
  };
  PipeIdle mfmaIdle, valuIdle;

  /// The busiest pipe, by name.
  std::string busiestPipe() const;
};

/// The blame of `report`'s hot loops (with `loopPc`, of the waves whose hot
/// loop closes at that offset only); nullopt when the report has no spans
/// (made without recordSpans) or no such wave ran its hot loop three times.
std::optional<LoopBlame> blameHotLoops(const TimingReport &report,
                                       std::optional<uint64_t> loopPc = std::nullopt);

/// The back-edge offsets of the waves' hot loops, each once, in order.
std::vector<uint64_t> distinctHotLoops(const TimingReport &report);

/// One line: the busiest pipe, the blocked share and its parts, the worst
/// instruction.
std::string blameSummary(const LoopBlame &blame);

/// The section for one blame.
void printBlame(const LoopBlame &blame, llvm::raw_ostream &os);
/// The report's section (printReport adds it when the report has spans):
/// all hot loops' waves together, then, where wave groups run different
/// loops, one line per loop.
void printBlame(const TimingReport &report, llvm::raw_ostream &os);

} // namespace kcc::emu::timing

#endif // KCC_RUNTIME_EMU_TIMING_BLAME_H
