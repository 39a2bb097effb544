//===- Timing.cpp - Cycle estimates of a kernel launch --------------------===//
#include "runtime/emu/timing/Timing.h"
#include "runtime/emu/timing/DeviceModel.h"
#include "runtime/emu/timing/Validation.h"
#include "runtime/emu/timing/Blame.h"
#include "target/CodeObject.h"
#include "target/Isa.h"
#include "target/Occupancy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace llvm;
namespace kcc::emu::timing {

namespace {
/// One wave's back-edge taken twice or more: the instructions between its
/// first and last taking (the span) and how often it was taken.
struct LoopSpan {
  uint64_t span = 0;
  size_t takings = 0;
};

/// The wave's hot loop among `loops`: the one whose iterations span the most
/// of its instructions, unless a loop nested in it runs most of them. An
/// outer loop's span holds its inner loop's, so the widest span alone would
/// name the outer one (aiter's causal FP8 kernel: a loop over query blocks
/// around the key loop, "554521 cycles an iteration"); a loop taken more
/// often over at least half that span is the one its time goes to (a loop
/// that runs after another, not inside it, spans its own part only).
int pickHotLoop(const std::vector<LoopSpan> &loops) {
  int hot = -1;
  for (size_t i = 0; i < loops.size(); ++i)
    if (loops[i].takings >= 2 && (hot < 0 || loops[i].span > loops[size_t(hot)].span))
      hot = int(i);
  if (hot < 0)
    return hot;
  uint64_t widest = loops[size_t(hot)].span;
  for (size_t i = 0; i < loops.size(); ++i)
    if (loops[i].takings >= 2 && 2 * loops[i].span >= widest &&
        loops[i].takings > loops[size_t(hot)].takings)
      hot = int(i);
  return hot;
}

/// The instruction mix of one iteration of the loop whose back-edges are
/// `wave.backEdges[i]` for i in `takings` (in order): the mean over the
/// intervals between consecutive takings, leaving out those that take the
/// back-edge of an enclosing loop (one whose body, from its header to its
/// back-edge, holds this loop's and starts before it): such an interval
/// holds the outer loop's own instructions and the inner loop's next entry,
/// not an iteration. (A back-edge to the same header closes the same loop
/// by another path, the bottom of an if-else: not an enclosing loop.)
/// Returns the number of intervals counted (0: none, the mix is all 0);
/// `entries` is how often the wave entered the loop (1 plus the intervals
/// left out).
size_t loopMix(const Trace &trace, const WaveTrace &wave, const std::vector<size_t> &takings,
               std::array<double, kNumKinds> &mix, double &instructions, size_t &entries) {
  mix.fill(0);
  instructions = 0;
  entries = 1;
  size_t counted = 0;
  uint64_t ops = 0;
  for (size_t k = 0; k + 1 < takings.size(); ++k) {
    const BackEdge &a = wave.backEdges[takings[k]], &b = wave.backEdges[takings[k + 1]];
    bool crossesOuter = false;
    for (size_t i = takings[k] + 1; i < takings[k + 1] && !crossesOuter; ++i) {
      const BackEdge &e = wave.backEdges[i];
      crossesOuter = e.header < a.header && e.pc > a.pc;
    }
    if (crossesOuter) {
      ++entries;
      continue;
    }
    for (uint32_t o = a.op + 1; o <= b.op; ++o)
      mix[unsigned(trace.insts[wave.ops[o].info].kind)] += 1;
    ops += b.op - a.op;
    ++counted;
  }
  if (counted) {
    for (double &x : mix)
      x /= double(counted);
    instructions = double(ops) / double(counted);
  }
  return counted;
}
} // namespace

uint64_t workgroupsPerCu(const KernelInfo &k, Chip chip, uint32_t wavesPerGroup,
                         uint32_t dynamicLdsBytes) {
  Occupancy occ = computeOccupancy(
      chip, kernelResources(k, chip, wavesPerGroup * 64, dynamicLdsBytes));
  return std::max<uint64_t>(occ.workgroupsPerCu, 1);
}

std::optional<uint64_t> remainingIterations(StringRef compare, StringRef branch,
                                            uint64_t a, uint64_t b, int64_t da,
                                            int64_t db) {
  StringRef c = compare;
  if (!c.consume_front("s_cmp_") && !c.consume_front("s_cmpk_"))
    return std::nullopt;
  auto [rel, type] = c.split('_');
  bool isSigned = type.starts_with("i");
  bool wide = type.ends_with("64");
  bool senseTrue;
  if (branch.starts_with("s_cbranch_scc1"))
    senseTrue = true;
  else if (branch.starts_with("s_cbranch_scc0"))
    senseTrue = false;
  else
    return std::nullopt;
  if ((da == 0) == (db == 0))
    return std::nullopt; // both or neither move: not a counted loop
  auto holds = [&](uint64_t x, uint64_t y) {
    if (!wide) {
      x = uint32_t(x);
      y = uint32_t(y);
    }
    int64_t sx = wide ? int64_t(x) : int64_t(int32_t(x));
    int64_t sy = wide ? int64_t(y) : int64_t(int32_t(y));
    if (rel == "eq") return x == y;
    if (rel == "lg") return x != y;
    if (rel == "lt") return isSigned ? sx < sy : x < y;
    if (rel == "le") return isSigned ? sx <= sy : x <= y;
    if (rel == "gt") return isSigned ? sx > sy : x > y;
    if (rel == "ge") return isSigned ? sx >= sy : x >= y;
    return false;
  };
  if (rel != "eq" && rel != "lg" && rel != "lt" && rel != "le" && rel != "gt" &&
      rel != "ge")
    return std::nullopt;
  // Step the linear sequence until the branch falls through; the bound keeps
  // a loop that never exits (or a misread compare) from running away.
  constexpr uint64_t kLimit = uint64_t(1) << 26;
  for (uint64_t j = 1; j <= kLimit; ++j) {
    a += uint64_t(da);
    b += uint64_t(db);
    if (holds(a, b) != senseTrue)
      return j;
  }
  return std::nullopt;
}

namespace {

} // namespace

TimingReport analyzeTrace(Trace trace, uint64_t workgroups, uint64_t groupsPerCu,
                          const TimingOptions &options) {
  TimingReport r;
  r.chip = trace.chip;
  r.traceCapped = trace.capped;
  for (const WaveTrace &w : trace.waves)
    r.tracedInstructions += w.ops.size();
  if (r.traceCapped)
    return r; // a prefix of the launch: nothing to replay (checkEstimate says so)
  const TimingParams &p = getTimingParams(trace.chip);
  r.computeUnits = options.computeUnits ? options.computeUnits : p.computeUnits;
  r.workgroups = workgroups;
  r.wavesPerGroup = trace.wavesPerGroup;
  r.groupsPerCu = groupsPerCu;
  r.steadyStateIterations = options.steadyStateIterations;
  r.firstRoundOnly = options.firstRoundOnly;
  {
    uint64_t last = ~0ull;
    for (const WaveTrace &w : trace.waves)
      if (w.workgroup != last) {
        ++r.tracedGroups;
        last = w.workgroup;
      }
  }
  CuModelOptions mo;
  mo.recordSpans = options.recordSpans;
  r.timing = simulateCu(trace, mo);
  if (options.latencySensitivity && !options.steadyStateIterations) {
    CuModelOptions probe;
    probe.vmemLatencyExtra = kLatencyProbeCycles;
    uint64_t slower = simulateCu(trace, probe).cycles;
    r.cyclesPerLatencyCycle =
        (double(slower) - double(r.timing.cycles)) / double(kLatencyProbeCycles);
  }
  r.simulatedCycles = r.timing.cycles;
  r.cuCycles = r.timing.cycles;

  // Instruction mix.
  for (const WaveTrace &w : trace.waves)
    for (const TraceOp &op : w.ops)
      ++r.mix[unsigned(trace.insts[op.info].kind)];

  // Loops: back-edges of the first traced wave (in steady state, the first
  // that took the loop the run stopped on: staggered wave groups may close
  // one loop with different back-edges), timed over all waves.
  size_t reference = 0;
  if (trace.stoppedEarly && options.steadyStateIterations)
    for (size_t wi = 0; wi < trace.waves.size(); ++wi)
      if (llvm::any_of(trace.waves[wi].backEdges, [&](const BackEdge &e) {
            return e.pc == trace.stopLoopPc;
          })) {
        reference = wi;
        break;
      }
  if (!trace.waves.empty()) {
    const WaveTrace &w0 = trace.waves[reference];
    std::map<uint64_t, std::vector<size_t>> byPc; // pc -> indices in backEdges
    for (size_t i = 0; i < w0.backEdges.size(); ++i)
      byPc[w0.backEdges[i].pc].push_back(i);
    std::vector<LoopSpan> spans;
    for (auto &[pc, idx] : byPc) {
      LoopTiming lt;
      lt.pc = pc;
      lt.text = trace.instText[w0.ops[w0.backEdges[idx.front()].op].info];
      // Cycles per iteration of the CU: the rate at which all its waves
      // together take this back-edge, once each has taken it once (the fill),
      // times the number of waves. Per-wave intervals would mislead: with
      // oldest-first issue one wave may stream through its iterations while
      // the others on its SIMD wait, and a cut-short trace then never shows
      // them sharing the pipe.
      std::vector<std::pair<uint64_t, uint64_t>> all; // (cycle, CU MFMA cycles then)
      unsigned wavesInLoop = 0;
      for (size_t wi = 0; wi < trace.waves.size(); ++wi) {
        const WaveTrace &wt = trace.waves[wi];
        const WaveTiming &tt = r.timing.waves[wi];
        bool any = false;
        for (size_t i = 0; i < wt.backEdges.size() && i < tt.backEdgeCycles.size(); ++i)
          if (wt.backEdges[i].pc == pc) {
            all.push_back({tt.backEdgeCycles[i], tt.backEdgeMfmaCycles[i]});
            any = true;
          }
        wavesInLoop += any;
      }
      std::sort(all.begin(), all.end());
      // The drain is trimmed like the fill: waves whose (cut-short) trace
      // ended leave their SIMD to the others, which is not steady state.
      if (wavesInLoop && all.size() > wavesInLoop) {
        size_t first = wavesInLoop - 1;
        size_t last = all.size() > 2 * wavesInLoop ? all.size() - wavesInLoop : all.size() - 1;
        auto [from, mfmaFrom] = all[first];
        auto [to, mfmaTo] = all[last];
        if (to > from) {
          lt.cyclesPerIteration =
              double(to - from) / double(last - first) * double(wavesInLoop);
          lt.steadyMfmaBusy = double(mfmaTo - mfmaFrom) /
                              double(std::max<size_t>(1, r.timing.simds.size())) /
                              double(to - from);
        }
      }
      double instructions = 0;
      size_t entries = 1;
      if (loopMix(trace, w0, idx, lt.mixPerIteration, instructions, entries))
        lt.instructionsPerIteration = uint64_t(instructions + 0.5);
      // Each entry's last iteration falls through instead of taking the
      // back-edge; the last entry's counts only if the wave got that far.
      lt.iterations = idx.size() + (entries - 1) + (w0.ended ? 1 : 0);
      spans.push_back({w0.backEdges[idx.back()].op - w0.backEdges[idx.front()].op, idx.size()});
      r.loops.push_back(std::move(lt));
    }
    r.hotLoop = pickHotLoop(spans);
  }

  // Every wave's own hot loop, its mix averaged over the waves.
  r.waveHotLoopPc.assign(trace.waves.size(), -1);
  for (size_t wi = 0; wi < trace.waves.size(); ++wi) {
    const WaveTrace &wt = trace.waves[wi];
    std::map<uint64_t, std::vector<size_t>> byPc; // pc -> indices in backEdges
    for (size_t i = 0; i < wt.backEdges.size(); ++i)
      byPc[wt.backEdges[i].pc].push_back(i);
    std::vector<const std::vector<size_t> *> takings;
    std::vector<LoopSpan> spans;
    for (auto &[pc, idx] : byPc) {
      takings.push_back(&idx);
      spans.push_back({wt.backEdges[idx.back()].op - wt.backEdges[idx.front()].op, idx.size()});
    }
    int h = pickHotLoop(spans);
    if (h < 0)
      continue;
    r.waveHotLoopPc[wi] = int64_t(wt.backEdges[takings[size_t(h)]->front()].pc);
    std::array<double, kNumKinds> mix;
    double instructions = 0;
    size_t entries = 1;
    if (!loopMix(trace, wt, *takings[size_t(h)], mix, instructions, entries))
      continue;
    for (unsigned k = 0; k < kNumKinds; ++k)
      r.hotMixMean[k] += mix[k];
    r.hotInstructionsMean += instructions;
    ++r.hotMixWaves;
  }
  if (r.hotMixWaves) {
    for (double &x : r.hotMixMean)
      x /= double(r.hotMixWaves);
    r.hotInstructionsMean /= double(r.hotMixWaves);
  }

  // Steady-state extrapolation.
  const LoopTiming *steadyLoop = nullptr;
  uint64_t steadyRemaining = 0, steadyStart = 0;
  if (trace.stoppedEarly && options.steadyStateIterations) {
    r.stoppedEarly = true;
    unsigned K = options.steadyStateIterations;
    uint64_t pc = trace.stopLoopPc;
    const LoopTiming *loop = nullptr;
    for (const LoopTiming &l : r.loops)
      if (l.pc == pc)
        loop = &l;
    // The K-th back-edge of every wave: where the replay is complete.
    uint64_t tK = 0;
    for (size_t wi = 0; wi < trace.waves.size(); ++wi) {
      unsigned seen = 0;
      const WaveTrace &wt = trace.waves[wi];
      for (size_t i = 0; i < wt.backEdges.size() && i < r.timing.waves[wi].backEdgeCycles.size(); ++i)
        if (wt.backEdges[i].pc == pc && ++seen == K) {
          tK = std::max(tK, r.timing.waves[wi].backEdgeCycles[i]);
          break;
        }
    }
    std::optional<uint64_t> remaining;
    if (options.tripCount) {
      remaining = options.tripCount > K ? options.tripCount - K : 0;
      r.note = "trip count " + std::to_string(options.tripCount) + " given";
    } else if (!trace.waves.empty()) {
      const WaveTrace &w0 = trace.waves[reference];
      std::vector<const BackEdge *> be;
      for (const BackEdge &e : w0.backEdges)
        if (e.pc == pc)
          be.push_back(&e);
      // A loop closed by more than one branch is counted by its exit test:
      // each branch's own compare tests something else (the condition of
      // the block placed at the loop's bottom).
      bool mixed = !be.empty() && llvm::any_of(w0.backEdges, [&](const BackEdge &e) {
                     return e.header == be[0]->header && e.pc != pc;
                   });
      std::vector<BackEdge> byExit;
      if (mixed && be.size() >= K && K >= 2 && be[K - 1]->haveExitTest && be[K - 2]->haveExitTest)
        for (size_t i : {K - 2, K - 1}) {
          BackEdge e = *be[i];
          e.haveCompare = true;
          e.compareInfo = e.exitTestCompareInfo;
          e.a = e.exitA;
          e.b = e.exitB;
          e.haveExitBranch = true;
          e.exitBranchInfo = e.exitTestBranchInfo;
          byExit.push_back(e);
        }
      if (mixed && byExit.empty())
        be.clear(); // no exit test: not inferred (--trip-count)
      if (!byExit.empty()) {
        be[K - 2] = &byExit[0];
        be[K - 1] = &byExit[1];
      }
      if (be.size() >= K && K >= 2 && be[K - 1]->haveCompare && be[K - 2]->haveCompare) {
        const BackEdge &x = *be[K - 1], &y = *be[K - 2];
        const std::string &cmp = trace.insts[x.compareInfo].mnemonic;
        std::string br = trace.insts[w0.ops[x.op].info].mnemonic;
        bool rotated = false;
        if ((mixed || !StringRef(br).starts_with("s_cbranch_scc")) && x.haveExitBranch) {
          // Rotated loop: it continues while the exit branch is not taken.
          br = trace.insts[x.exitBranchInfo].mnemonic;
          br = StringRef(br).starts_with("s_cbranch_scc1") ? "s_cbranch_scc0"
                                                          : "s_cbranch_scc1";
          rotated = true;
        }
        remaining = remainingIterations(cmp, br, x.a, x.b, int64_t(x.a - y.a),
                                        int64_t(x.b - y.b));
        // remainingIterations counts up to the compare that fails. A loop
        // tested at the bottom runs its body once more before that compare;
        // one tested at the top (rotated) leaves at it without running the
        // body: one iteration fewer.
        if (remaining && rotated)
          remaining = *remaining ? *remaining - 1 : 0;
        // Iterations so far: every back-edge to this loop's header up to the
        // K-th of the branch the replay stopped on (other branches closing
        // the same loop count too).
        uint64_t done = K;
        if (mixed)
          done = uint64_t(llvm::count_if(w0.backEdges, [&](const BackEdge &e) {
            return e.header == x.header && e.op <= x.op;
          }));
        if (remaining)
          r.note = "trip count " + std::to_string(done + *remaining) + " inferred from '" +
                   trace.instText[x.compareInfo] + "'";
      }
    }
    if (loop && remaining && tK) {
      r.extrapolated = true;
      steadyLoop = loop;
      steadyRemaining = *remaining;
      steadyStart = tK;
      r.cuCycles = tK + uint64_t(double(*remaining) * loop->cyclesPerIteration + 0.5);
      r.note = std::to_string(K) + " iterations of loop @0x" + utohexstr(pc) +
               " replayed, " + std::to_string(*remaining) + " extrapolated at " +
               formatv("{0:F1}", loop->cyclesPerIteration).str() + " cycles (" + r.note +
               "); the code after the loop is not timed";
    } else {
      r.note = options.tripCount
                   ? "loop @0x" + utohexstr(pc) +
                         " could not be extrapolated: not every replayed wave "
                         "reached its iteration " + std::to_string(K)
                   : "the trip count of loop @0x" + utohexstr(pc) +
                         " could not be inferred; run again with --trip-count N";
    }
  }

  // Busy fractions over the replayed cycles.
  double denom = double(std::max<uint64_t>(1, r.simulatedCycles));
  for (const SimdBusy &b : r.timing.simds)
    r.simds.push_back({double(b.mfma) / denom, double(b.valu) / denom,
                       double(b.lds) / denom, double(b.vmem) / denom});
  r.ldsPipe = double(r.timing.ldsBusy) / denom;
  r.memoryPipe = double(r.timing.vmemBusy) / denom;
  for (const SimdFractions &f : r.simds)
    r.mfmaBusy += f.mfma / double(r.simds.size());
  // In steady state the replay is mostly fill (waves waiting for their first
  // tiles, matrix pipes idle): its busy fraction would set the clock of a
  // kernel that is all loop. The kernel's fraction counts the extrapolated
  // iterations' matrix work too.
  if (r.extrapolated && steadyLoop && !r.simds.empty() && r.cuCycles) {
    // The replay up to the K-th back-edge (at the replay's own rate: it may
    // have run on past it) plus the extrapolated iterations, per SIMD.
    double replayedPart = r.mfmaBusy * double(std::min(steadyStart, r.simulatedCycles));
    double extra = double(steadyRemaining) * steadyLoop->cyclesPerIteration *
                   steadyLoop->steadyMfmaBusy;
    r.mfmaBusy = std::min(1.0, (replayedPart + extra) / double(r.cuCycles));
  }

  // Device scale (DeviceModel.h): rounds, the chip's clock, HBM, the
  // launch's fixed cost.
  r.round.cycles = double(r.cuCycles);
  r.round.mfmaBusy = r.mfmaBusy;
  r.round.workgroups = std::max<uint64_t>(1, r.tracedGroups);
  r.round.cyclesPerLatencyCycle = r.cyclesPerLatencyCycle;
  r.round.replayedLatency = double(p.vmemLatency);
  r.extent.workgroups = std::max<uint64_t>(1, workgroups);
  r.extent.computeUnits = r.computeUnits;
  r.extent.dramBytes = options.dramBytes;
  r.device = deviceTime(p, r.round, r.extent);
  r.rounds = r.device.rounds;
  r.kernelCycles = r.device.cycles;
  r.clockGHz = r.device.clockGHz;
  r.kernelSeconds = r.device.seconds;
  r.memoryBound = r.device.memoryBound;
  if (options.flops > 0 && r.kernelSeconds > 0)
    r.tflops = options.flops / r.kernelSeconds / 1e12;
  // The matrix cores' ceiling for what this kernel issues: FLOPs of one
  // MFMA (2 M N K, from its name) over its pass count (4 cycles a pass).
  for (const InstInfo &in : trace.insts) {
    if (in.kind != Kind::Mfma || !in.mfmaPasses)
      continue;
    double flops = double(mfmaFlops(in.mnemonic));
    if (!flops)
      continue;
    double perCycle = flops / (double(p.mfmaCyclesPerPass) * in.mfmaPasses);
    double peak = perCycle * p.simdsPerCu * r.computeUnits * p.clockGHz * 1e9 / 1e12;
    if (peak > r.peakTflops) {
      r.peakTflops = peak;
      r.peakMfma = in.mnemonic;
    }
  }


  // Bank conflicts.
  for (size_t i = 0; i < trace.insts.size(); ++i) {
    const LdsSiteStats &s = trace.ldsStats[i];
    if (!s.executions || s.cycles <= s.idealCycles)
      continue;
    LdsConflictSite c;
    c.pc = trace.instPc[i];
    c.text = trace.instText[i];
    c.executions = s.executions;
    c.degree = double(s.cycles) / double(s.idealCycles);
    c.worst = s.worstDegreeX100 / 100.0;
    r.ldsConflicts.push_back(std::move(c));
  }
  std::sort(r.ldsConflicts.begin(), r.ldsConflicts.end(),
            [](const LdsConflictSite &a, const LdsConflictSite &b) { return a.pc < b.pc; });
  r.trace = std::move(trace);
  return r;
}

static Error checkEstimate(const TimingReport &r);

/// The workgroups one CU holds and the model replays: its share of the
/// grid, at most its occupancy, at least one.
static uint64_t tracedWorkgroups(uint64_t perCu, uint64_t total, unsigned cus) {
  return std::max<uint64_t>(1, std::min<uint64_t>(perCu, (total + cus - 1) / cus));
}

std::error_code steadyStateTooShortError() {
  return std::make_error_code(std::errc::result_out_of_range);
}

Error checkTimingOptions(const TimingOptions &options) {
  if (options.firstRoundOnly && options.steadyStateIterations)
    return createStringError(inconvertibleErrorCode(),
                             "the first round alone (--first-round) and steady state "
                             "(--steady-state) are two ways to time a launch: ask for one");
  return Error::success();
}

Expected<TimingReport> estimate(Chip chip, const KernelInfo &k, Dim3 grid,
                                Dim3 block, uint32_t dynamicLdsBytes,
                                const TimingOptions &options, ObservedLaunch run) {
  if (Error e = checkTimingOptions(options))
    return std::move(e);
  const TimingParams &p = getTimingParams(chip);
  unsigned cus = options.computeUnits ? options.computeUnits : p.computeUnits;
  uint64_t items = uint64_t(block.x) * block.y * block.z;
  uint32_t wavesPerGroup = uint32_t((items + 63) / 64);
  uint64_t total = uint64_t(grid.x) * grid.y * grid.z;
  uint64_t perCu = workgroupsPerCu(k, chip, wavesPerGroup, dynamicLdsBytes);
  uint64_t traced = tracedWorkgroups(perCu, total, cus);

  RecorderOptions ro;
  ro.tracedWorkgroups = traced;
  ro.stopAfterIterations = options.steadyStateIterations;
  ro.stopAfterTracedWorkgroups = options.firstRoundOnly;
  ro.maxTracedOps = options.maxTracedInstructions;
  TraceRecorder recorder(chip, ro);
  auto stats =
      run(recorder, options.steadyStateIterations || options.firstRoundOnly ? traced : 0);
  if (!stats)
    return stats.takeError();
  TimingReport r = analyzeTrace(recorder.take(), total, perCu, options);
  r.kernel = k.name;
  r.launch = *stats;
  if (Error e = checkEstimate(r))
    return std::move(e);
  return r;
}

/// An estimate that cannot be right is an error, never a figure: a steady
/// state that could not be extrapolated, or whose replayed workgroups cannot
/// stand for the rest, and anything above the chip's peak for the MFMA the
/// kernel runs (wrong FLOPs or trip count).
static Error checkEstimate(const TimingReport &r) {
  // A capped trace is a prefix of the launch: whatever it would say is
  // wrong, and the launch was stopped to keep the host's memory.
  if (r.traceCapped)
    return createStringError(
        inconvertibleErrorCode(),
        "the timing trace of kernel '" + r.kernel + "' reached its cap of " +
            std::to_string(r.tracedInstructions) +
            " wave instructions and the launch was stopped: the kernel runs "
            "far longer than a timed launch should (does it end?). Time a "
            "smaller problem, use --steady-state, or raise the cap with "
            "--timing-trace-cap N (TimingOptions::maxTracedInstructions; 16 "
            "bytes of host memory each)");
  // Steady state stopped the launch early; without a trip count the replayed
  // iterations are all the estimate would cover: no figure rather than a
  // wrong one.
  if (r.stoppedEarly && !r.extrapolated)
    return createStringError(inconvertibleErrorCode(),
                             "steady state for kernel '" + r.kernel + "': " +
                                 r.note);
  // Steady state asked for K iterations but the replayed workgroups ended
  // first: their whole run is all there is, and it stands for the launch's
  // other rounds only if every workgroup does the same work, which a short
  // first loop (a causal mask's first query blocks) says is not so.
  if (r.steadyStateIterations && !r.extrapolated && r.rounds > 1)
    return createStringError(
        steadyStateTooShortError(),
        "steady state for kernel '" + r.kernel + "': the replayed workgroups ended before " +
            std::to_string(r.steadyStateIterations) +
            " iterations of their loop, so they cannot stand for the other " +
            std::to_string(r.workgroups - r.tracedGroups) +
            " workgroups (whose loops may be longer, as a causal mask's later query blocks "
            "are); time the launch without --steady-state, or ask for fewer iterations, or, "
            "when every workgroup does the same work, time the first round whole "
            "(--first-round)");
  if (r.peakTflops > 0 && r.tflops > r.peakTflops * 1.001)
    return createStringError(
        inconvertibleErrorCode(),
        "the estimate for kernel '" + r.kernel + "', " +
            formatv("{0:F1}", r.tflops).str() + " TFLOPS, exceeds the peak of " +
            formatv("{0:F1}", r.peakTflops).str() + " TFLOPS that " +
            std::to_string(r.computeUnits) + " CUs give with " + r.peakMfma +
            (r.note.empty()
                 ? std::string(": the FLOP count (--flops) is wrong")
                 : ": the FLOP count (--flops) or the loop's trip count is "
                   "wrong (" + r.note + "; give --trip-count N)"));
  return Error::success();
}

Expected<TimingReport> estimateLaunch(Device &device, ArrayRef<uint8_t> codeObject,
                                      StringRef kernel, const LaunchOptions &launch,
                                      ArrayRef<uint8_t> args,
                                      const TimingOptions &options) {
  auto co = CodeObject::parse(codeObject);
  if (!co)
    return co.takeError();
  const KernelInfo *k = co->findKernel(kernel);
  if (!k)
    return createStringError(inconvertibleErrorCode(),
                             "no kernel '%s' in the code object; it has: %s",
                             kernel.str().c_str(), co->kernelNameList().c_str());
  auto module = device.loadModule(codeObject);
  if (!module)
    return module.takeError();
  return estimate(device.chip(), *k, launch.grid, launch.block,
                  launch.dynamicLdsBytes, options,
                  [&](Observer &observer,
                      uint64_t limit) -> Expected<LaunchStats> {
                    LaunchOptions lo = launch;
                    lo.observer = &observer;
                    lo.workgroupLimit = limit;
                    return device.launch(**module, kernel, lo, args);
                  });
}

LaunchTimer::LaunchTimer(Chip chip, const TimingOptions &options)
    : chip_(chip), options_(options) {}
LaunchTimer::~LaunchTimer() = default;

bool LaunchTimer::mine(const Workgroup &wg) const {
  return recorder_ && wg.launch == launch_ && !wg.waves.empty() &&
         wg.waves.front()->dispatch->kernel == kernel_;
}

void LaunchTimer::workgroupBegin(Workgroup &wg) {
  if (!recorder_ && !wg.waves.empty()) {
    const Dispatch &d = *wg.waves.front()->dispatch;
    kernel_ = d.kernel;
    launch_ = wg.launch;
    const TimingParams &p = getTimingParams(chip_);
    unsigned cus = options_.computeUnits ? options_.computeUnits : p.computeUnits;
    total_ = uint64_t(d.grid[0]) * d.grid[1] * d.grid[2];
    uint64_t items = uint64_t(d.block[0]) * d.block[1] * d.block[2];
    perCu_ = workgroupsPerCu(*d.kernel, chip_, uint32_t((items + 63) / 64),
                             d.ldsBytes - d.kernel->groupSegmentFixedSize);
    RecorderOptions ro;
    ro.tracedWorkgroups = tracedWorkgroups(perCu_, total_, cus);
    ro.stopAfterIterations = options_.steadyStateIterations;
    ro.stopAfterTracedWorkgroups = options_.firstRoundOnly;
    ro.maxTracedOps = options_.maxTracedInstructions;
    recorder_ = std::make_unique<TraceRecorder>(chip_, ro);
  }
  if (mine(wg))
    recorder_->workgroupBegin(wg);
}
void LaunchTimer::workgroupEnd(Workgroup &wg) {
  if (mine(wg))
    recorder_->workgroupEnd(wg);
}
void LaunchTimer::beforeIssue(Wave &w, const Inst &in) {
  if (mine(*w.wg))
    recorder_->beforeIssue(w, in);
}
void LaunchTimer::afterIssue(Wave &w, const Inst &in, ArrayRef<MemRecord> mem) {
  if (mine(*w.wg))
    recorder_->afterIssue(w, in, mem);
}
void LaunchTimer::barrierArrive(Wave &w, const Inst &in) {
  if (mine(*w.wg))
    recorder_->barrierArrive(w, in);
}
void LaunchTimer::barrierRelease(Workgroup &wg) {
  if (mine(wg))
    recorder_->barrierRelease(wg);
}
void LaunchTimer::waveEnd(Wave &w) {
  if (mine(*w.wg))
    recorder_->waveEnd(w);
}
bool LaunchTimer::stopRequested() { return recorder_ && recorder_->stopRequested(); }

Expected<TimingReport> LaunchTimer::report(const LaunchStats &stats) {
  if (!recorder_)
    return createStringError(inconvertibleErrorCode(),
                             "the timing model saw no launch to time");
  TimingReport r = analyzeTrace(recorder_->take(), total_, perCu_, options_);
  r.kernel = kernel_->name;
  r.launch = stats;
  if (Error e = checkEstimate(r))
    return std::move(e);
  return r;
}

void printReport(const TimingReport &r, raw_ostream &os) {
  const TimingParams &p = getTimingParams(r.chip);
  const ChipInfo &ci = getChipInfo(r.chip);
  os << "timing model: " << ci.name << " (" << ci.marketing << "), " << r.computeUnits
     << " CUs, peak clock " << format("%.2f", p.clockGHz) << " GHz\n";
  os << "  workgroups: " << r.workgroups << " of " << r.wavesPerGroup
     << " waves; occupancy " << r.groupsPerCu << " per CU; " << r.tracedGroups
     << " replayed on one CU; " << r.rounds << " round(s)\n";
  os << "  one CU: " << r.cuCycles << " cycles";
  if (r.extrapolated)
    os << " (replayed " << r.simulatedCycles << ")";
  os << "\n";
  if (!r.note.empty())
    os << "  steady state: " << r.note << "\n";
  if (r.firstRoundOnly)
    os << "  first round: the " << r.tracedGroups << " replayed workgroup(s) ran whole and "
       << "stand for all " << r.rounds << " round(s); the launch stopped after them\n";
  os << "  clock: " << format("%.2f", r.clockGHz) << " GHz sustained at MFMA busy "
     << format("%.1f%%", 100 * r.mfmaBusy) << " on the CU, "
     << format("%.1f%%", 100 * r.device.chipMfmaBusy) << " over the chip ("
     << format("%.1f%%", 100 * r.device.occupiedFraction) << " of its CU slots occupied; peak "
     << format("%.2f", p.clockGHz) << " GHz; power limit above "
     << format("%.1f%%", 100 * p.powerKneeMfmaBusy) << ")\n";
  os << "  kernel: " << format("%.0f", r.kernelCycles) << " cycles = "
     << format("%.2f", r.device.computeSeconds * 1e6) << " us";
  if (r.device.memorySeconds > 0)
    os << "; HBM " << format("%.2f", r.device.memorySeconds * 1e6) << " us"
       << (r.memoryBound ? " (the floor)" : "");
  os << "; + launch " << format("%.2f", r.device.launchSeconds * 1e6) << " us = "
     << format("%.2f", r.kernelSeconds * 1e6) << " us";
  if (r.tflops > 0)
    os << ", " << format("%.1f", r.tflops) << " TFLOPS";
  os << "\n";
  // A modelled figure is printed with the model's error on hardware for
  // kernels of its kind (Validation.h).
  os << "  model error: " << validationNote(r.kernel, r.peakMfma, r.chip) << "\n";
  if (!r.loops.empty()) {
    os << "  loops (back-edges of the first traced wave):\n";
    for (size_t i = 0; i < r.loops.size(); ++i) {
      const LoopTiming &l = r.loops[i];
      os << "    @0x" << utohexstr(l.pc) << " '" << l.text << "': " << l.iterations
         << " iterations, " << format("%.1f", l.cyclesPerIteration) << " cycles/iteration";
      if (int(i) == r.hotLoop)
        os << " [hot]";
      os << "\n";
      if (l.instructionsPerIteration) {
        os << "      per iteration:";
        for (unsigned k = 0; k < kNumKinds; ++k)
          if (l.mixPerIteration[k] > 0)
            os << " " << kindName(Kind(k)) << " " << format("%.1f", l.mixPerIteration[k]);
        os << "\n";
      }
    }
    // Waves whose hot loops differ from the first's: the mean over them.
    if (r.hotLoop >= 0 && r.hotMixWaves > 1) {
      const LoopTiming &h = r.loops[size_t(r.hotLoop)];
      bool differs = false;
      for (unsigned k = 0; k < kNumKinds; ++k)
        differs |= std::abs(r.hotMixMean[k] - h.mixPerIteration[k]) >= 0.05;
      if (differs) {
        os << "  hot loop per iteration, mean of the " << r.hotMixWaves
           << " traced waves' own:";
        for (unsigned k = 0; k < kNumKinds; ++k)
          if (r.hotMixMean[k] >= 0.05)
            os << " " << kindName(Kind(k)) << " " << format("%.1f", r.hotMixMean[k]);
        os << "\n";
      }
    }
  }
  os << "  busy (fraction of " << r.simulatedCycles << " replayed cycles):\n";
  for (size_t s = 0; s < r.simds.size(); ++s) {
    const SimdFractions &f = r.simds[s];
    os << "    SIMD" << s << ": MFMA " << format("%5.1f%%", 100 * f.mfma) << "  VALU "
       << format("%5.1f%%", 100 * f.valu) << "  LDS " << format("%5.1f%%", 100 * f.lds)
       << "  memory " << format("%5.1f%%", 100 * f.vmem) << "\n";
  }
  os << "    CU LDS pipe " << format("%.1f%%", 100 * r.ldsPipe) << ", memory pipe "
     << format("%.1f%%", 100 * r.memoryPipe) << "\n";
  os << "  instruction mix (replayed waves):";
  for (unsigned k = 0; k < kNumKinds; ++k)
    if (r.mix[k])
      os << " " << kindName(Kind(k)) << " " << r.mix[k];
  os << "\n";
  printBlame(r, os);
  if (!r.ldsConflicts.empty())
    os << "  LDS bank conflicts: " << r.ldsConflicts.size()
       << " instruction(s) (--bank-conflicts lists them)\n";
}

void printBankConflicts(const TimingReport &r, raw_ostream &os) {
  const TimingParams &p = getTimingParams(r.chip);
  os << "LDS bank conflicts (" << p.ldsBanks << " banks, lanes that ran):\n";
  if (r.ldsConflicts.empty()) {
    os << "  none\n";
    return;
  }
  for (const LdsConflictSite &c : r.ldsConflicts)
    os << "  @0x" << utohexstr(c.pc) << " '" << c.text << "': " << format("%.2f", c.degree)
       << "-way on average, worst " << format("%.2f", c.worst) << "-way, "
       << c.executions << " executions\n";
}

void printConstants(Chip chip, raw_ostream &os) {
  os << "timing constants for " << getChipInfo(chip).name << ":\n";
  for (const TimingConstant &c : timingTable(chip))
    os << "  " << left_justify(c.name, 28) << " " << format("%10.4g", c.value) << " "
       << left_justify(c.unit, 12) << " " << c.source << "\n";
  os << "  mfma passes: " << mfmaPassSource() << "\n";
}

} // namespace kcc::emu::timing
