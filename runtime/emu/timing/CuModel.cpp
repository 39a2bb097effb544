//===- CuModel.cpp - Cycle-approximate replay of one compute unit ---------===//
//
// Event driven: every step finds the earliest issue slot at which some wave
// could issue (each wave's readiness is a pure function of the model state),
// jumps the clock there, and lets that slot's SIMD issue. All completion
// times are known when an instruction issues, so nothing is polled.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/timing/CuModel.h"

#include <algorithm>
#include <deque>

using namespace llvm;
namespace kcc::emu::timing {

StringRef spanKindName(SpanKind k) {
  switch (k) {
  case SpanKind::Mfma: return "MFMA";
  case SpanKind::Valu: return "VALU";
  case SpanKind::Trans: return "transcendental";
  case SpanKind::Lds: return "LDS";
  case SpanKind::Vmem: return "memory";
  case SpanKind::Salu: return "scalar";
  case SpanKind::Wait: return "s_waitcnt on LDS";
  case SpanKind::WaitMemory: return "s_waitcnt on memory";
  case SpanKind::Barrier: return "s_barrier";
  case SpanKind::Stall: return "stall (dependency or busy pipe)";
  case SpanKind::Other: return "other";
  }
  return "other";
}

namespace {

constexpr uint64_t kNever = ~0ull >> 2;

struct Lgkm {
  uint64_t done;
  bool smem;
};

struct WaveSim {
  const WaveTrace *trace = nullptr;
  WaveTiming *out = nullptr;
  size_t next = 0;
  unsigned simd = 0;
  unsigned group = 0;         // index into the workgroup table
  int priority = 0;
  uint64_t blockedUntil = 0;  // nop, branch refetch, sleep, barrier
  uint64_t arrivedAt = 0;     // when the next instruction became next
  bool atBarrier = false;
  uint32_t barrierInfo = 0;   // the s_barrier waited at (for tooltips)
  bool done = false;
  std::deque<uint64_t> vm;    // completion times in issue order (monotonic)
  std::vector<Lgkm> lgkm;
  std::vector<uint64_t> ready;      // per vector row: readable at
  std::vector<uint64_t> chainReady; // per row: readable as MFMA src C
};

struct GroupSim {
  unsigned live = 0, arrived = 0;
  std::vector<unsigned> waiting;
};

class Sim {
public:
  Sim(const Trace &trace, const CuModelOptions &options)
      : trace(trace), options(options), p(getTimingParams(trace.chip)) {}

  CuTiming run();

private:
  uint64_t readyTime(const WaveSim &w) const;
  uint64_t waitSatisfied(const WaveSim &w, const InstInfo &ii) const;
  /// When the vmcnt part of an s_waitcnt alone is met.
  uint64_t vmSatisfied(const WaveSim &w, const InstInfo &ii) const;
  void issue(WaveSim &w, uint64_t t);
  void finish(WaveSim &w, uint64_t t);
  void maybeRelease(GroupSim &g, uint64_t t);
  void span(WaveSim &w, uint64_t b, uint64_t e, SpanKind k, uint32_t info) {
    if (options.recordSpans && e > b)
      w.out->spans.push_back({b, e, k, info});
  }
  uint64_t slotAtOrAfter(unsigned simd, uint64_t t) const {
    unsigned period = p.issuePeriod;
    unsigned phase = simd % period;
    uint64_t base = t - t % period + phase;
    return base >= t ? base : base + period;
  }

  const Trace &trace;
  CuModelOptions options;
  const TimingParams &p;
  CuTiming result;
  std::vector<WaveSim> waves;
  std::vector<GroupSim> groups;
  std::vector<uint64_t> mfmaFree, valuFree;
  uint64_t mfmaIssued = 0; // matrix-pipe cycles issued so far, all SIMDs
  uint64_t ldsFree = 0, vmemFree = 0;
  unsigned live = 0;
};

uint64_t Sim::vmSatisfied(const WaveSim &w, const InstInfo &ii) const {
  if (ii.waitVm >= 0 && w.vm.size() > size_t(ii.waitVm))
    return w.vm[w.vm.size() - size_t(ii.waitVm) - 1];
  return 0;
}

uint64_t Sim::waitSatisfied(const WaveSim &w, const InstInfo &ii) const {
  uint64_t t = vmSatisfied(w, ii);
  if (ii.waitLgkm >= 0 && w.lgkm.size() > size_t(ii.waitLgkm)) {
    std::vector<uint64_t> d;
    d.reserve(w.lgkm.size());
    for (const Lgkm &l : w.lgkm)
      d.push_back(l.done);
    std::sort(d.begin(), d.end());
    t = std::max(t, d[d.size() - size_t(ii.waitLgkm) - 1]);
  }
  return t;
}

uint64_t Sim::readyTime(const WaveSim &w) const {
  if (w.done || w.atBarrier)
    return kNever;
  const TraceOp &op = w.trace->ops[w.next];
  const InstInfo &ii = trace.insts[op.info];
  uint64_t t = std::max(w.blockedUntil, w.arrivedAt);
  auto rowsReady = [&](ArrayRef<RowRange> ranges, const std::vector<uint64_t> &when) {
    for (const RowRange &r : ranges)
      for (unsigned i = 0; i < r.count && r.first + i < when.size(); ++i)
        t = std::max(t, when[r.first + i]);
  };
  switch (ii.kind) {
  case Kind::Waitcnt:
    t = std::max(t, waitSatisfied(w, ii));
    break;
  case Kind::Mfma:
    t = std::max(t, mfmaFree[w.simd]);
    rowsReady(ii.reads, w.ready);
    if (ii.srcC.count)
      rowsReady(ArrayRef<RowRange>(ii.srcC), w.chainReady);
    break;
  case Kind::Valu:
  case Kind::Trans:
  case Kind::Permlane:
    t = std::max(t, valuFree[w.simd]);
    rowsReady(ii.reads, w.ready);
    break;
  case Kind::Lds:
  case Kind::LdsPermute:
  case Kind::VmemLoad:
  case Kind::VmemStore:
    // Store data and addresses must be written; loads' own results are
    // covered by s_waitcnt.
    rowsReady(ii.reads, w.ready);
    break;
  default:
    break;
  }
  return t;
}

void Sim::maybeRelease(GroupSim &g, uint64_t t) {
  if (!g.arrived || g.arrived < g.live)
    return;
  uint64_t release = t + p.barrierLatency;
  for (unsigned wi : g.waiting) {
    WaveSim &w = waves[wi];
    w.atBarrier = false;
    span(w, w.arrivedAt, release, SpanKind::Barrier, w.barrierInfo);
    w.blockedUntil = release;
    w.arrivedAt = release;
  }
  g.waiting.clear();
  g.arrived = 0;
}

void Sim::finish(WaveSim &w, uint64_t t) {
  w.done = true;
  uint64_t end = t + 1;
  for (uint64_t d : w.vm)
    end = std::max(end, d);
  for (const Lgkm &l : w.lgkm)
    end = std::max(end, l.done);
  w.out->endCycle = end;
  result.cycles = std::max(result.cycles, end);
  --live;
  GroupSim &g = groups[w.group];
  --g.live;
  maybeRelease(g, t);
}

void Sim::issue(WaveSim &w, uint64_t t) {
  const TraceOp &op = w.trace->ops[w.next];
  const InstInfo &ii = trace.insts[op.info];
  unsigned P = p.issuePeriod;
  if (ii.kind == Kind::Waitcnt) {
    // Which counter held the wave: only the spans say it (the blame's LDS
    // and memory waits), so only they pay for asking.
    bool onMemory = false;
    if (options.recordSpans) {
      uint64_t vm = vmSatisfied(w, ii);
      onMemory = vm > w.arrivedAt && vm >= waitSatisfied(w, ii);
    }
    span(w, w.arrivedAt, t, onMemory ? SpanKind::WaitMemory : SpanKind::Wait, op.info);
  } else if (t > w.arrivedAt + P) {
    span(w, w.arrivedAt, t, SpanKind::Stall, op.info);
  }
  SimdBusy &busy = result.simds[w.simd];
  ++busy.issued;
  w.arrivedAt = t + 1;
  switch (ii.kind) {
  case Kind::Mfma: {
    uint64_t end = t + ii.busyCycles;
    mfmaFree[w.simd] = end;
    uint64_t readable = t + uint64_t(ii.mfmaPasses + p.mfmaReadExtraPasses) * P;
    for (const RowRange &r : ii.writes)
      for (unsigned i = 0; i < r.count && r.first + i < w.ready.size(); ++i) {
        w.ready[r.first + i] = readable;
        w.chainReady[r.first + i] = end;
      }
    busy.mfma += ii.busyCycles;
    mfmaIssued += ii.busyCycles;
    span(w, t, end, SpanKind::Mfma, op.info);
    break;
  }
  case Kind::Valu:
  case Kind::Trans:
  case Kind::Permlane: {
    uint64_t end = t + ii.busyCycles;
    valuFree[w.simd] = end;
    uint64_t readable = end;
    if (ii.kind == Kind::Trans)
      readable += uint64_t(p.transUseWaitStates) * P;
    for (const RowRange &r : ii.writes)
      for (unsigned i = 0; i < r.count && r.first + i < w.ready.size(); ++i) {
        w.ready[r.first + i] = readable;
        w.chainReady[r.first + i] = readable;
      }
    busy.valu += ii.busyCycles;
    span(w, t, end, ii.kind == Kind::Trans ? SpanKind::Trans : SpanKind::Valu, op.info);
    break;
  }
  case Kind::Lds:
  case Kind::LdsPermute: {
    uint64_t start = std::max(t, ldsFree);
    ldsFree = start + op.cost;
    w.lgkm.push_back({ldsFree + p.ldsLatency, false});
    busy.lds += op.cost;
    result.ldsBusy += op.cost;
    span(w, start, ldsFree, SpanKind::Lds, op.info);
    break;
  }
  case Kind::VmemLoad:
  case Kind::VmemStore: {
    uint64_t cycles = uint64_t(double(op.cost) / p.l2BytesPerCyclePerCu + 0.999);
    cycles = std::max<uint64_t>(cycles, 1);
    uint64_t start = std::max(t, vmemFree);
    vmemFree = start + cycles;
    uint64_t latency = (ii.kind == Kind::VmemLoad ? p.vmemLatency : p.vmemStoreLatency) +
                       options.vmemLatencyExtra;
    uint64_t done = vmemFree + latency;
    if (!w.vm.empty())
      done = std::max(done, w.vm.back()); // vmcnt decrements in order
    w.vm.push_back(done);
    busy.vmem += cycles;
    result.vmemBusy += cycles;
    if (ii.vmemToLds) {
      uint64_t ldsCycles = (op.idealCost + p.ldsBytesPerCycle() - 1) / p.ldsBytesPerCycle();
      busy.lds += ldsCycles;
      result.ldsBusy += ldsCycles;
    }
    span(w, start, vmemFree, SpanKind::Vmem, op.info);
    break;
  }
  case Kind::Smem:
    w.lgkm.push_back({t + p.smemLatency, true});
    span(w, t, t + P, SpanKind::Salu, op.info);
    break;
  case Kind::Salu:
    span(w, t, t + std::max(1u, p.saluCycles), SpanKind::Salu, op.info);
    break;
  case Kind::Branch:
    if (op.taken)
      w.blockedUntil = t + p.branchTakenCycles;
    if (op.backward) {
      w.out->backEdgeCycles.push_back(t);
      w.out->backEdgeMfmaCycles.push_back(mfmaIssued);
    }
    span(w, t, t + 1, SpanKind::Salu, op.info);
    break;
  case Kind::Waitcnt:
    while (!w.vm.empty() && w.vm.front() <= t)
      w.vm.pop_front();
    w.lgkm.erase(std::remove_if(w.lgkm.begin(), w.lgkm.end(),
                                [&](const Lgkm &l) { return l.done <= t; }),
                 w.lgkm.end());
    break;
  case Kind::Barrier: {
    GroupSim &g = groups[w.group];
    w.atBarrier = true;
    w.barrierInfo = op.info;
    w.arrivedAt = t;
    ++g.arrived;
    g.waiting.push_back(unsigned(&w - waves.data()));
    maybeRelease(g, t);
    break;
  }
  case Kind::Nop:
    w.blockedUntil = t + uint64_t(ii.imm) * P;
    break;
  case Kind::Setprio:
    w.priority = int(ii.imm);
    break;
  case Kind::Sleep:
    w.blockedUntil = t + uint64_t(ii.imm) * p.sleepCyclesPerUnit;
    break;
  case Kind::End:
  case Kind::Other:
    break;
  }
  ++w.next;
  if (ii.kind == Kind::End || w.next >= w.trace->ops.size())
    finish(w, t);
}

CuTiming Sim::run() {
  unsigned simds = std::max(1u, p.simdsPerCu);
  result.simds.assign(simds, SimdBusy());
  mfmaFree.assign(simds, 0);
  valuFree.assign(simds, 0);
  result.waves.resize(trace.waves.size());
  waves.resize(trace.waves.size());
  // Waves of a workgroup are spread over the SIMDs in dispatch order.
  uint64_t lastGroup = ~0ull;
  for (size_t i = 0; i < trace.waves.size(); ++i) {
    const WaveTrace &wt = trace.waves[i];
    if (wt.workgroup != lastGroup) {
      groups.emplace_back();
      lastGroup = wt.workgroup;
    }
    WaveSim &w = waves[i];
    w.trace = &wt;
    w.out = &result.waves[i];
    w.simd = unsigned(i % simds);
    w.group = unsigned(groups.size() - 1);
    w.ready.assign(kNumVectorRows, 0);
    w.chainReady.assign(kNumVectorRows, 0);
    w.out->simd = w.simd;
    w.out->workgroup = wt.workgroup;
    w.out->waveInGroup = wt.waveInGroup;
    ++groups.back().live;
    if (wt.ops.empty()) {
      w.done = true;
      --groups.back().live;
    } else {
      ++live;
    }
  }

  uint64_t now = 0;
  std::vector<unsigned> order;
  while (live) {
    // The earliest slot at which any wave could issue.
    uint64_t next = kNever;
    for (const WaveSim &w : waves) {
      uint64_t r = readyTime(w);
      if (r >= kNever)
        continue;
      next = std::min(next, slotAtOrAfter(w.simd, std::max(r, now)));
    }
    if (next >= kNever)
      break; // every live wave waits at a barrier that cannot release
    now = next;
    for (unsigned s = 0; s < simds; ++s) {
      if (slotAtOrAfter(s, now) != now)
        continue;
      order.clear();
      for (unsigned i = 0; i < waves.size(); ++i)
        if (waves[i].simd == s && !waves[i].done && !waves[i].atBarrier)
          order.push_back(i);
      // s_setprio first, then the oldest wave (dispatch order).
      std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
        return waves[a].priority > waves[b].priority;
      });
      unsigned usedCats = 0;
      for (unsigned i : order) {
        WaveSim &w = waves[i];
        if (w.done || w.atBarrier || readyTime(w) > now)
          continue;
        IssueCat cat = trace.insts[w.trace->ops[w.next].info].cat;
        unsigned bit = 1u << unsigned(cat);
        if (cat != IssueCat::Internal && (usedCats & bit))
          continue;
        usedCats |= bit;
        issue(w, now);
      }
    }
    now += 1;
  }
  for (WaveSim &w : waves)
    if (!w.done) {
      // Left waiting at a barrier nobody else reaches (a cut-short trace).
      w.out->endCycle = now;
      result.cycles = std::max(result.cycles, now);
    }
  return std::move(result);
}

} // namespace

CuTiming simulateCu(const Trace &trace, const CuModelOptions &options) {
  Sim sim(trace, options);
  return sim.run();
}

} // namespace kcc::emu::timing
