//===- Trace.h - Per-wave instruction traces for the timing model -*- C++ -*-//
//
// The timing model is trace driven: the functional emulator runs the kernel
// (any interleaving of waves gives the same per-wave instruction streams for
// kernels that synchronise with barriers and counters), a TraceRecorder
// attached as the launch's Observer writes down what each wave of the traced
// workgroups issued, with the dynamic facts timing needs (LDS conflict
// cycles of the lanes that actually ran, memory bytes, branch direction,
// loop-compare operands), and the CU model (CuModel.h) replays the streams
// on a cycle clock.
//
// The recorder can also stop the launch once every traced wave has run
// `stopAfterIterations` iterations of one loop (steady-state mode).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_TIMING_TRACE_H
#define KCC_RUNTIME_EMU_TIMING_TRACE_H

#include "runtime/emu/Observer.h"
#include "runtime/emu/timing/InstClass.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <map>
#include <vector>

namespace kcc::emu::timing {

/// One dynamic instruction of a wave.
struct TraceOp {
  uint32_t info = 0;      // index into Trace::insts
  uint32_t cost = 0;      // LDS: cycles with conflicts; VMEM: bytes moved
  uint32_t idealCost = 0; // LDS: cycles without conflicts
  bool taken = false;     // branch left the fall-through path
  bool backward = false;  // ... to a lower or equal address (a loop back-edge)
};

/// The operands of the last scalar compare before a back-edge, for the
/// trip-count inference of steady-state mode.
struct BackEdge {
  uint32_t op = 0;        // index in WaveTrace::ops
  uint64_t pc = 0;        // the branch's offset in the code object image
  uint64_t header = 0;    // its target: the loop's first instruction
  /// The loop's exit test, whatever branch closed it: the last branch not
  /// taken (after the previous back-edge) whose target lies outside the
  /// loop, and the compare before it. A loop that more than one branch
  /// closes (a conditional block placed at the bottom that jumps back to
  /// the header on one path, s_branch on the other) is counted by it, as
  /// those branches' own compares test other things.
  bool haveExitTest = false;
  uint32_t exitTestCompareInfo = 0, exitTestBranchInfo = 0;
  uint64_t exitA = 0, exitB = 0;
  bool haveCompare = false;
  uint32_t compareInfo = 0;
  uint64_t a = 0, b = 0;  // compare operands (64-bit compares use both dwords)
  /// A rotated loop ends in s_branch and leaves through a conditional branch
  /// after the compare; that branch, not taken, is the loop condition.
  bool haveExitBranch = false;
  uint32_t exitBranchInfo = 0;
};

struct WaveTrace {
  uint64_t workgroup = 0;   // linear index in the launch
  uint32_t waveInGroup = 0;
  std::vector<TraceOp> ops;
  std::vector<BackEdge> backEdges;
  bool ended = false;       // reached s_endpgm (false: cut short)
};

/// Bank-conflict statistics of one static LDS instruction.
struct LdsSiteStats {
  uint64_t executions = 0;
  uint64_t cycles = 0, idealCycles = 0;
  unsigned worstDegreeX100 = 100; // worst execution, cycles/ideal * 100
};

/// Static instructions plus the traced waves.
struct Trace {
  Chip chip = Chip::gfx942;
  std::vector<InstInfo> insts;
  std::vector<uint64_t> instPc;     // offset in the image (for reports)
  std::vector<std::string> instText;
  std::vector<LdsSiteStats> ldsStats; // parallel to insts
  std::vector<WaveTrace> waves;     // ordered by (workgroup, waveInGroup)
  uint32_t wavesPerGroup = 1;
  bool stoppedEarly = false;
  /// The recorder hit RecorderOptions::maxTracedOps and stopped the launch:
  /// what it holds is a prefix, which no estimate may be made from.
  bool capped = false;
  /// The loop (back-edge offset) the recorder stopped on, if any.
  uint64_t stopLoopPc = ~0ull;
};

struct RecorderOptions {
  /// Workgroups with a linear index below this are traced.
  uint64_t tracedWorkgroups = 1;
  /// Steady-state mode: stop the launch once every live traced wave has taken
  /// one back-edge this many times (0: never stop).
  unsigned stopAfterIterations = 0;
  /// Stop the launch once the traced workgroups have ended (steady state
  /// does too; TimingOptions::firstRoundOnly without it).
  bool stopAfterTracedWorkgroups = false;
  /// At most this many wave instructions are recorded
  /// (TimingOptions::maxTracedInstructions); a launch that would trace more
  /// (a kernel that never ends) is stopped and the trace marked capped,
  /// rather than growing until the host runs out of memory.
  uint64_t maxTracedOps = uint64_t(1) << 26;
};

class TraceRecorder final : public Observer {
public:
  TraceRecorder(Chip chip, const RecorderOptions &options);

  void workgroupBegin(Workgroup &wg) override;
  void beforeIssue(Wave &w, const Inst &in) override;
  void afterIssue(Wave &w, const Inst &in,
                  llvm::ArrayRef<MemRecord> mem) override;
  void waveEnd(Wave &w) override;
  /// Steady-state mode stops the launch once K iterations are replayed, or
  /// once every traced workgroup has ended (a loop shorter than K, e.g. a
  /// causal attention's first query block): nothing after it is traced, so
  /// running the rest of the grid would only cost time.
  bool stopRequested() override { return stop || doneTracing || trace.capped; }

  /// The finished trace (waves sorted); the recorder is spent afterwards.
  Trace take();

private:
  struct WaveState {
    int32_t trace = -1;   // index in trace.waves, -1 = not traced
    bool haveCompare = false;
    uint32_t compareInfo = 0;
    uint64_t a = 0, b = 0;
    bool haveExitBranch = false;
    uint32_t exitBranchInfo = 0;
    /// Conditional branches not taken since the last back-edge, with the
    /// compare that set their SCC: at a back-edge, the last one whose
    /// target leaves the loop is the loop's exit test.
    struct ExitCandidate {
      uint64_t target;
      uint32_t branchInfo, compareInfo;
      uint64_t a, b;
    };
    std::vector<ExitCandidate> exits;
    /// Per back-edge pc: where in `exits` its previous traversal ended, so
    /// that an out-of-line block's own backward branch (a cold path placed
    /// after the loop that jumps back into it) does not hide the loop's
    /// exit test from the loop's back-edge.
    llvm::DenseMap<uint64_t, size_t> exitsSeen;
  };
  uint32_t infoFor(Wave &w, const Inst &in);
  WaveState &state(const Wave &w);
  void checkStop(uint64_t pc);

  Chip chip;
  RecorderOptions options;
  Trace trace;
  llvm::DenseMap<const Inst *, uint32_t> infoIndex;
  std::vector<WaveState> waves; // by Wave::uid
  /// Per back-edge pc: how many traced waves have taken it
  /// stopAfterIterations times.
  std::map<uint64_t, unsigned> saturatedWaves;
  std::map<std::pair<int32_t, uint64_t>, unsigned> backEdgeCounts;
  unsigned liveTracedWaves = 0;
  uint64_t tracedGroupsBegun = 0;
  bool stop = false;
  bool doneTracing = false;
  uint64_t tracedOps = 0;
};

} // namespace kcc::emu::timing

#endif // KCC_RUNTIME_EMU_TIMING_TRACE_H
