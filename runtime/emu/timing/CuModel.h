//===- CuModel.h - Cycle-approximate replay of one compute unit -*- C++ -*-===//
//
// Replays the traced waves of the workgroups resident on one CU on a cycle
// clock:
//  - waves go to the CU's SIMDs round-robin in dispatch order;
//  - each SIMD gets an issue slot every `issue_period` cycles ([GCNWP]); in a
//    slot, waves are considered by s_setprio priority, then age (oldest
//    first), and each issue category (VALU incl. MFMA, SALU, VMEM, LDS/SMEM,
//    branch) issues at most one instruction, each wave at most one;
//  - a wave issues in order; its next instruction waits for: its vector
//    sources (MFMA results after passes + extra wait states, the accumulator
//    chain at pipe rate, trans results after the trans forwarding hazard),
//    the MFMA pipe (passes x 4 cycles) or the VALU pipe of its SIMD,
//    s_nop wait states, taken-branch refetch, s_sleep;
//  - LDS is one pipe per CU serving `lds_banks` dwords per cycle (the
//    access's conflict cycles), results after `lds_latency`;
//  - vector memory is one pipe per CU moving `l2_bytes_per_cycle_per_cu`,
//    results after `vmem_latency`; vmcnt and lgkmcnt count outstanding
//    operations and s_waitcnt waits for them (vmcnt in order, SMEM out of
//    order);
//  - s_barrier releases `barrier_latency` after the last live wave of the
//    workgroup arrives.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_TIMING_CUMODEL_H
#define KCC_RUNTIME_EMU_TIMING_CUMODEL_H

#include "runtime/emu/timing/Trace.h"

#include <cstdint>
#include <vector>

namespace kcc::emu::timing {

/// What a span of a wave's timeline shows. An s_waitcnt's span is Wait when
/// lgkmcnt (LDS, scalar memory) held the wave longest, WaitMemory when
/// vmcnt did.
enum class SpanKind : uint8_t {
  Mfma, Valu, Trans, Lds, Vmem, Salu, Wait, WaitMemory, Barrier, Stall, Other
};
constexpr unsigned kNumSpanKinds = unsigned(SpanKind::Other) + 1;
llvm::StringRef spanKindName(SpanKind k);

struct Span {
  uint64_t begin = 0, end = 0;
  SpanKind kind = SpanKind::Other;
  uint32_t info = 0; // static instruction (for tooltips)
};

struct WaveTiming {
  unsigned simd = 0;
  uint64_t workgroup = 0;
  uint32_t waveInGroup = 0;
  uint64_t endCycle = 0;
  std::vector<Span> spans;          // only when recording spans
  /// Issue cycle of each taken back-edge, parallel to WaveTrace::backEdges.
  std::vector<uint64_t> backEdgeCycles;
  /// Matrix-pipe cycles the whole CU had issued (all SIMDs, all waves) when
  /// each back-edge was taken, parallel to backEdgeCycles: the MFMA work of
  /// a window between two back-edges, whichever waves did it.
  std::vector<uint64_t> backEdgeMfmaCycles;
};

struct SimdBusy {
  uint64_t mfma = 0, valu = 0, lds = 0, vmem = 0;
  uint64_t issued = 0;
};

struct CuTiming {
  uint64_t cycles = 0;            // last wave's end
  std::vector<WaveTiming> waves;  // parallel to Trace::waves
  std::vector<SimdBusy> simds;
  uint64_t ldsBusy = 0, vmemBusy = 0; // CU-wide pipes
};

struct CuModelOptions {
  bool recordSpans = false;
  /// Cycles added to the table's vector-memory load and store latencies:
  /// a second replay at another latency measures how much of the round
  /// memory latency holds (TimingOptions::latencySensitivity).
  unsigned vmemLatencyExtra = 0;
};

/// Replays `trace` on one CU of its chip.
CuTiming simulateCu(const Trace &trace, const CuModelOptions &options = {});

} // namespace kcc::emu::timing

#endif // KCC_RUNTIME_EMU_TIMING_CUMODEL_H
