//===- Trace.cpp - Per-wave instruction traces for the timing model -------===//
#include "runtime/emu/timing/Trace.h"
#include "runtime/emu/Decoder.h"
#include "runtime/emu/Exec.h"
#include "runtime/emu/Ops.h"
#include "runtime/emu/timing/LdsBanks.h"

#include <algorithm>
#include <unordered_set>

using namespace llvm;
namespace kcc::emu::timing {

TraceRecorder::TraceRecorder(Chip chip, const RecorderOptions &options)
    : chip(chip), options(options) {
  trace.chip = chip;
}

TraceRecorder::WaveState &TraceRecorder::state(const Wave &w) {
  if (w.uid >= waves.size())
    waves.resize(w.uid + 1);
  return waves[w.uid];
}

void TraceRecorder::workgroupBegin(Workgroup &wg) {
  bool traced = wg.index < options.tracedWorkgroups;
  tracedGroupsBegun += traced;
  trace.wavesPerGroup = std::max<uint32_t>(trace.wavesPerGroup, uint32_t(wg.waves.size()));
  for (auto &wp : wg.waves) {
    WaveState &s = state(*wp);
    s = WaveState();
    if (!traced)
      continue;
    s.trace = int32_t(trace.waves.size());
    WaveTrace t;
    t.workgroup = wg.index;
    t.waveInGroup = wp->waveInGroup;
    trace.waves.push_back(std::move(t));
    ++liveTracedWaves;
  }
}

uint32_t TraceRecorder::infoFor(Wave &w, const Inst &in) {
  auto it = infoIndex.find(&in);
  if (it != infoIndex.end())
    return it->second;
  const Program &prog = *w.dispatch->program;
  const std::string &text = prog.text(in);
  uint32_t index = uint32_t(trace.insts.size());
  trace.insts.push_back(classify(chip, in, text));
  trace.instPc.push_back(in.pc - prog.imageBase());
  trace.instText.push_back(text);
  trace.ldsStats.emplace_back();
  infoIndex[&in] = index;
  return index;
}

void TraceRecorder::beforeIssue(Wave &w, const Inst &in) {
  WaveState &s = state(w);
  if (s.trace < 0 || trace.capped)
    return;
  // At most maxTracedOps are kept: the one after them marks the trace
  // capped (afterIssue then records nothing), and stopRequested() ends the
  // launch.
  if (tracedOps == options.maxTracedOps) {
    trace.capped = true;
    return;
  }
  ++tracedOps;
  uint32_t info = infoFor(w, in);
  const InstInfo &ii = trace.insts[info];
  TraceOp op;
  op.info = info;
  trace.waves[s.trace].ops.push_back(op);
  if (ii.isCompare && in.nsrc >= 2) {
    // Registers still hold the inputs here: remember the compare that the
    // next back-edge will test.
    bool wide = in.src[0].width >= 2 || StringRef(ii.mnemonic).ends_with("64");
    s.haveCompare = true;
    s.haveExitBranch = false;
    s.compareInfo = info;
    s.a = wide ? readScalar64(w, in.src[0]) : readScalar32(w, in.src[0]);
    s.b = wide ? readScalar64(w, in.src[1]) : readScalar32(w, in.src[1]);
  }
}

void TraceRecorder::afterIssue(Wave &w, const Inst &in, ArrayRef<MemRecord> mem) {
  WaveState &s = state(w);
  if (s.trace < 0 || trace.capped)
    return;
  WaveTrace &wt = trace.waves[s.trace];
  TraceOp &op = wt.ops.back();
  const InstInfo &ii = trace.insts[op.info];
  const TimingParams &p = getTimingParams(chip);
  switch (ii.kind) {
  case Kind::Lds: {
    // Up to two addresses per lane (read2/write2), in the order the handler
    // logged them.
    uint32_t addr[2][kLanes] = {};
    uint64_t mask[2] = {0, 0};
    uint8_t seen[kLanes] = {};
    for (const MemRecord &r : mem) {
      if (r.space != MemSpace::Lds || r.lane >= kLanes)
        continue;
      unsigned k = seen[r.lane]++;
      if (k >= 2)
        continue;
      addr[k][r.lane] = uint32_t(r.addr);
      mask[k] |= 1ull << r.lane;
    }
    unsigned bytes = ii.ldsBytesPerLane;
    for (unsigned k = 0; k < 2; ++k) {
      LdsAccessCost c = ldsAccessCost(addr[k], mask[k], bytes, p.ldsBanks);
      op.cost += c.cycles;
      op.idealCost += c.idealCycles;
    }
    // An access with no active lane still occupies the pipe for a cycle.
    op.cost = std::max(op.cost, 1u);
    op.idealCost = std::max(op.idealCost, 1u);
    LdsSiteStats &st = trace.ldsStats[op.info];
    ++st.executions;
    st.cycles += op.cost;
    st.idealCycles += op.idealCost;
    st.worstDegreeX100 =
        std::max(st.worstDegreeX100, unsigned(op.cost * 100 / op.idealCost));
    break;
  }
  case Kind::LdsPermute: {
    unsigned lanes = unsigned(__builtin_popcountll(w.exec()));
    op.cost = op.idealCost = std::max(1u, (lanes * 4 + p.ldsBytesPerCycle() - 1) /
                                              p.ldsBytesPerCycle());
    break;
  }
  case Kind::VmemLoad:
  case Kind::VmemStore: {
    // Bytes moved at the 64-byte request granularity of the vector L1:
    // coalesced lanes share segments, strided lanes pay whole segments.
    std::unordered_set<uint64_t> segments;
    uint64_t bytes = 0;
    for (const MemRecord &r : mem) {
      if (r.space != MemSpace::Global && r.space != MemSpace::Scratch)
        continue;
      bytes += r.bytes;
      uint64_t tag = uint64_t(r.space) << 60;
      for (uint64_t a = r.addr >> 6; a <= (r.addr + r.bytes - 1) >> 6; ++a)
        segments.insert(a ^ tag);
    }
    op.cost = uint32_t(std::max<uint64_t>(bytes, segments.size() * 64));
    op.idealCost = uint32_t(bytes);
    break;
  }
  case Kind::Branch: {
    op.taken = w.pc != in.pc + in.size;
    op.backward = op.taken && w.pc <= in.pc;
    if (!op.taken && StringRef(ii.mnemonic).starts_with("s_cbranch_scc")) {
      s.haveExitBranch = true;
      s.exitBranchInfo = op.info;
      if (s.haveCompare)
        s.exits.push_back({branchTarget(in), op.info, s.compareInfo, s.a, s.b});
    }
    if (op.backward) {
      BackEdge be;
      be.op = uint32_t(wt.ops.size() - 1);
      be.pc = trace.instPc[op.info];
      be.header = w.pc;
      be.haveCompare = s.haveCompare;
      be.compareInfo = s.compareInfo;
      be.a = s.a;
      be.b = s.b;
      be.haveExitBranch = s.haveExitBranch;
      be.exitBranchInfo = s.exitBranchInfo;
      // A back-edge that no scalar compare decides (s_branch, or a branch on
      // VCC or EXEC): the loop's condition is the exit test,
      // the last branch not taken whose target lies outside the loop
      // [target of the back-edge, the back-edge]; compares after it (inner
      // ifs) decide nothing about the trip count.
      size_t &seen = s.exitsSeen[in.pc];
      if (seen > s.exits.size())
        seen = 0;
      uint64_t header = w.pc;
      for (size_t i = s.exits.size(); i > seen; --i) {
        const WaveState::ExitCandidate &c = s.exits[i - 1];
        if (c.target < header || c.target > in.pc) {
          be.haveExitTest = true;
          be.exitTestCompareInfo = c.compareInfo;
          be.exitTestBranchInfo = c.branchInfo;
          be.exitA = c.a;
          be.exitB = c.b;
          break;
        }
      }
      if (!StringRef(ii.mnemonic).starts_with("s_cbranch_scc") && be.haveExitTest) {
        be.haveCompare = true;
        be.compareInfo = be.exitTestCompareInfo;
        be.a = be.exitA;
        be.b = be.exitB;
        be.haveExitBranch = true;
        be.exitBranchInfo = be.exitTestBranchInfo;
      }
      seen = s.exits.size();
      // Bounded: a long run forgets the oldest candidates (a back-edge
      // whose mark falls off looks at everything left, which is safe).
      if (s.exits.size() > 4096) {
        s.exits.erase(s.exits.begin(), s.exits.begin() + 2048);
        for (auto &e : s.exitsSeen)
          e.second = e.second > 2048 ? e.second - 2048 : 0;
      }
      wt.backEdges.push_back(be);
      if (options.stopAfterIterations) {
        unsigned &n = backEdgeCounts[{s.trace, be.pc}];
        if (++n == options.stopAfterIterations) {
          ++saturatedWaves[be.pc];
          checkStop(be.pc);
        }
      }
    }
    break;
  }
  default:
    break;
  }
}

void TraceRecorder::checkStop(uint64_t pc) {
  if (liveTracedWaves && saturatedWaves[pc] >= liveTracedWaves) {
    stop = true;
    trace.stopLoopPc = pc;
  }
}

void TraceRecorder::waveEnd(Wave &w) {
  WaveState &s = state(w);
  if (s.trace < 0)
    return;
  trace.waves[s.trace].ended = true;
  s.trace = -1;
  --liveTracedWaves;
  if ((options.stopAfterIterations || options.stopAfterTracedWorkgroups) &&
      !liveTracedWaves && tracedGroupsBegun >= options.tracedWorkgroups)
    doneTracing = true;
  if (options.stopAfterIterations)
    for (auto &[pc, n] : saturatedWaves)
      if (!stop)
        checkStop(pc);
}

Trace TraceRecorder::take() {
  trace.stoppedEarly = stop;
  std::stable_sort(trace.waves.begin(), trace.waves.end(),
                   [](const WaveTrace &a, const WaveTrace &b) {
                     return a.workgroup != b.workgroup ? a.workgroup < b.workgroup
                                                       : a.waveInGroup < b.waveInGroup;
                   });
  return std::move(trace);
}

} // namespace kcc::emu::timing
