//===- Blame.cpp - Where a hot loop's waves lose their cycles -------------===//
#include "runtime/emu/timing/Blame.h"
#include "runtime/emu/timing/InstClass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace kcc::emu::timing {

StringRef waitKindName(WaitKind k, bool detail) {
  switch (k) {
  case WaitKind::Lds: return detail ? "s_waitcnt on LDS (lgkmcnt)" : "LDS waits";
  case WaitKind::Memory: return detail ? "s_waitcnt on memory (vmcnt)" : "memory waits";
  case WaitKind::Barrier: return detail ? "s_barrier" : "barrier";
  case WaitKind::StallMfma:
    return detail ? "MFMA stalls (matrix pipe or operands)" : "MFMA stalls";
  case WaitKind::StallValu:
    return detail ? "VALU stalls (vector pipe or operands)" : "VALU stalls";
  case WaitKind::StallOther: return "other stalls";
  }
  return "other stalls";
}

std::optional<WaitKind> waitKindOf(const Span &s, const Trace &trace) {
  switch (s.kind) {
  case SpanKind::Wait: return WaitKind::Lds;
  case SpanKind::WaitMemory: return WaitKind::Memory;
  case SpanKind::Barrier: return WaitKind::Barrier;
  case SpanKind::Stall: {
    Kind k = trace.insts[s.info].kind;
    if (k == Kind::Mfma)
      return WaitKind::StallMfma;
    if (k == Kind::Valu || k == Kind::Trans || k == Kind::Permlane)
      return WaitKind::StallValu;
    return WaitKind::StallOther;
  }
  default: return std::nullopt; // the wave's own pipes at work
  }
}

double WaitShares::total() const {
  double t = 0;
  for (double x : share)
    t += x;
  return t;
}

WaitKind WaitShares::largest() const {
  return WaitKind(std::max_element(share.begin(), share.end()) - share.begin());
}

std::string LoopBlame::busiestPipe() const {
  std::pair<const char *, double> pipes[] = {
      {"MFMA", mfmaPipe}, {"VALU", valuPipe}, {"LDS", ldsPipe}, {"memory", memoryPipe}};
  return std::max_element(std::begin(pipes), std::end(pipes),
                          [](auto &a, auto &b) { return a.second < b.second; })
      ->first;
}

namespace {

/// The cycle of each taking of wave `w`'s hot loop's back-edge.
std::vector<uint64_t> hotEdges(const TimingReport &r, size_t w) {
  std::vector<uint64_t> edges;
  const WaveTrace &tw = r.trace.waves[w];
  const WaveTiming &cw = r.timing.waves[w];
  for (size_t e = 0; e < tw.backEdges.size() && e < cw.backEdgeCycles.size(); ++e)
    if (int64_t(tw.backEdges[e].pc) == r.waveHotLoopPc[w])
      edges.push_back(cw.backEdgeCycles[e]);
  return edges;
}

/// The waves the blame can read: a hot loop (the one at `loopPc`, if
/// given) and spans.
std::vector<size_t> blamedWaves(const TimingReport &r, std::optional<uint64_t> loopPc) {
  std::vector<size_t> waves;
  size_t n = std::min({r.trace.waves.size(), r.timing.waves.size(), r.waveHotLoopPc.size()});
  for (size_t w = 0; w < n; ++w)
    if (r.waveHotLoopPc[w] >= 0 && (!loopPc || r.waveHotLoopPc[w] == int64_t(*loopPc)) &&
        !r.timing.waves[w].spans.empty())
      waves.push_back(w);
  return waves;
}

/// Each SIMD's window (the last of its waves' second takings to the first
/// of their last), cycle by cycle: which of the matrix and vector pipes is
/// busy, and what each of its waves does. Both pipes' PipeIdle from one
/// pass over the spans.
std::pair<LoopBlame::PipeIdle, LoopBlame::PipeIdle> pipeIdle(const TimingReport &r) {
  constexpr uint8_t kMfmaBusy = 1, kValuBusy = 2;
  constexpr uint8_t kIssuing = kNumWaitKinds; // past the WaitKinds
  double window = 0, idle[2] = {0, 0};
  std::array<double, kNumWaitKinds + 1> byState[2] = {};
  std::map<unsigned, std::vector<size_t>> bySimd;
  for (size_t w : blamedWaves(r, std::nullopt))
    bySimd[r.timing.waves[w].simd].push_back(w);
  for (auto &[simd, waves] : bySimd) {
    uint64_t lo = 0, hi = ~uint64_t(0);
    bool ok = true;
    for (size_t w : waves) {
      std::vector<uint64_t> edges = hotEdges(r, w);
      ok = ok && edges.size() >= 3;
      if (!ok)
        break;
      lo = std::max(lo, edges[1]);
      hi = std::min(hi, edges.back());
    }
    if (!ok || hi <= lo)
      continue;
    size_t len = size_t(hi - lo);
    std::vector<uint8_t> busy(len, 0);
    std::vector<std::vector<uint8_t>> state(waves.size(), std::vector<uint8_t>(len, kIssuing));
    for (size_t i = 0; i < waves.size(); ++i)
      for (const Span &s : r.timing.waves[waves[i]].spans) {
        uint64_t from = std::max(s.begin, lo), to = std::min(s.end, hi);
        if (to <= from)
          continue;
        uint8_t pipe = s.kind == SpanKind::Mfma ? kMfmaBusy
                       : (s.kind == SpanKind::Valu || s.kind == SpanKind::Trans) ? kValuBusy
                                                                                 : 0;
        std::optional<WaitKind> wait = waitKindOf(s, r.trace);
        for (uint64_t t = from; t < to; ++t) {
          busy[t - lo] |= pipe;
          if (wait)
            state[i][t - lo] = uint8_t(*wait);
        }
      }
    window += double(len);
    for (size_t t = 0; t < len; ++t)
      for (unsigned p = 0; p < 2; ++p) {
        if (busy[t] & (p ? kValuBusy : kMfmaBusy))
          continue;
        idle[p] += 1;
        for (size_t i = 0; i < waves.size(); ++i)
          byState[p][state[i][t]] += 1.0 / double(waves.size());
      }
  }
  LoopBlame::PipeIdle out[2];
  for (unsigned p = 0; p < 2; ++p) {
    if (window <= 0 || idle[p] <= 0)
      continue;
    out[p].idle = idle[p] / window;
    out[p].issuing = byState[p][kIssuing] / idle[p];
    for (unsigned k = 0; k < kNumWaitKinds; ++k)
      out[p].waits.share[k] = byState[p][k] / idle[p];
  }
  return {out[0], out[1]};
}

/// "LDS waits 35%, issuing other work 31%, ..." for the parts of at least
/// 0.5% (all of them with `all`, in WaitKind order), largest first.
std::string parts(const WaitShares &w, double issuing, bool all, const char *fmt) {
  std::vector<std::pair<StringRef, double>> named;
  if (issuing > 0)
    named.push_back({"issuing other work", issuing});
  for (unsigned k = 0; k < kNumWaitKinds; ++k)
    named.push_back({waitKindName(WaitKind(k)), w.share[k]});
  if (!all)
    std::stable_sort(named.begin(), named.end(),
                     [](auto &a, auto &b) { return a.second > b.second; });
  std::string text;
  for (auto &[name, x] : named)
    if (all || x >= 0.005)
      text += formatv(fmt, text.empty() ? "" : ", ", name, 100 * x).str();
  return text;
}

} // namespace

std::vector<uint64_t> distinctHotLoops(const TimingReport &r) {
  std::vector<uint64_t> pcs;
  for (int64_t pc : r.waveHotLoopPc)
    if (pc >= 0 && !llvm::is_contained(pcs, uint64_t(pc)))
      pcs.push_back(uint64_t(pc));
  llvm::sort(pcs);
  return pcs;
}

std::optional<LoopBlame> blameHotLoops(const TimingReport &r, std::optional<uint64_t> loopPc) {
  const Trace &trace = r.trace;
  LoopBlame b;
  std::map<uint32_t, double> byInst; // static instruction -> cycles blocked before it
  for (size_t w : blamedWaves(r, loopPc)) {
    std::vector<uint64_t> edges = hotEdges(r, w);
    if (edges.size() < 3 || edges.back() <= edges[1])
      continue;
    uint64_t lo = edges[1], hi = edges.back();
    ++b.waves;
    b.windowCycles += double(hi - lo);
    for (const Span &s : r.timing.waves[w].spans) {
      uint64_t from = std::max(s.begin, lo), to = std::min(s.end, hi);
      std::optional<WaitKind> wait = waitKindOf(s, trace);
      if (to <= from || !wait)
        continue;
      b.blocked[*wait] += double(to - from);
      byInst[s.info] += double(to - from);
    }
  }
  if (!b.waves)
    return std::nullopt;
  for (double &x : b.blocked.share)
    x /= b.windowCycles;
  std::vector<std::pair<double, uint32_t>> sites;
  for (auto &[info, cycles] : byInst)
    sites.push_back({cycles, info});
  std::sort(sites.begin(), sites.end(), [](auto &x, auto &y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  for (size_t i = 0; i < sites.size() && i < 3; ++i) {
    uint32_t info = sites[i].second;
    b.worst.push_back({info < trace.instPc.size() ? trace.instPc[info] : 0,
                       info < trace.instText.size() ? StringRef(trace.instText[info]).trim().str()
                                                    : std::string(),
                       sites[i].first / b.windowCycles});
  }
  if (r.hotLoop >= 0)
    b.mfmaPipe = r.loops[size_t(r.hotLoop)].steadyMfmaBusy;
  for (const SimdFractions &f : r.simds)
    b.valuPipe += f.valu / double(r.simds.size());
  b.ldsPipe = r.ldsPipe;
  b.memoryPipe = r.memoryPipe;
  if (!loopPc)
    std::tie(b.mfmaIdle, b.valuIdle) = pipeIdle(r);
  return b;
}

std::string blameSummary(const LoopBlame &b) {
  std::string text =
      formatv("busiest pipe {0} (MFMA {1:F0}%, VALU {2:F0}%, LDS {3:F0}%, memory {4:F0}%); "
              "waves blocked {5:F0}%: {6}; blames {7}",
              b.busiestPipe(), 100 * b.mfmaPipe, 100 * b.valuPipe, 100 * b.ldsPipe,
              100 * b.memoryPipe, 100 * b.blocked.total(),
              parts(b.blocked, 0, /*all=*/true, "{0}{1} {2:F0}%"),
              waitKindName(b.blocked.largest(), /*detail=*/true))
          .str();
  if (!b.worst.empty())
    text += formatv(" (most before '{0}', {1:F1}%)", b.worst.front().text,
                    100 * b.worst.front().share)
                .str();
  // What the busier of the SIMD pipes waits for while it idles.
  bool mfma = b.mfmaPipe >= b.valuPipe;
  const LoopBlame::PipeIdle &p = mfma ? b.mfmaIdle : b.valuIdle;
  if (p.idle >= 0.005) // below the summary's precision: nothing to say
    text += formatv("; {0} pipe idle {1:F0}%, its waves then: {2}", mfma ? "MFMA" : "VALU",
                    100 * p.idle, parts(p.waits, p.issuing, false, "{0}{1} {2:F0}%"))
                .str();
  return text;
}

void printBlame(const TimingReport &r, raw_ostream &os) {
  std::optional<LoopBlame> all = blameHotLoops(r);
  if (!all) {
    // Asked for (the spans are there) but nothing to measure: say so.
    if (llvm::any_of(r.timing.waves, [](const WaveTiming &w) { return !w.spans.empty(); }))
      os << "  where the hot loops' waves wait: no wave ran a loop three times (its first "
            "iteration is the fill), nothing to blame\n";
    return;
  }
  printBlame(*all, os);
  // Wave groups in different loops (attention's roles): each one's share.
  std::vector<uint64_t> loops = distinctHotLoops(r);
  if (loops.size() < 2)
    return;
  for (uint64_t pc : loops)
    if (std::optional<LoopBlame> b = blameHotLoops(r, pc))
      os << "    the " << b->waves << " waves of loop @0x" << utohexstr(pc) << ": blocked "
         << format("%.1f%%", 100 * b->blocked.total()) << " ("
         << parts(b->blocked, 0, /*all=*/true, "{0}{1} {2:F1}%") << ")\n";
}

void printBlame(const LoopBlame &b, raw_ostream &os) {
  os << "  where the hot loops' waves wait (" << b.waves << " waves, "
     << format("%.0f", b.windowCycles) << " wave-cycles from each one's second iteration):\n";
  auto line = [&](StringRef what, double x) {
    os << "    " << left_justify(what, 40) << format("%5.1f%%", 100 * x) << "\n";
  };
  for (unsigned k = 0; k < kNumWaitKinds; ++k)
    line(waitKindName(WaitKind(k), /*detail=*/true), b.blocked.share[k]);
  line("blocked in all", b.blocked.total());
  os << "    busiest pipe: " << b.busiestPipe()
     << "; the largest loss: " << waitKindName(b.blocked.largest(), /*detail=*/true) << "\n";
  for (const LoopBlame::Site &s : b.worst)
    os << "    " << format("%5.1f%%", 100 * s.share) << " before @0x" << utohexstr(s.pc)
       << " '" << s.text << "'\n";
  for (bool mfma : {true, false}) {
    const LoopBlame::PipeIdle &p = mfma ? b.mfmaIdle : b.valuIdle;
    if (p.idle > 0)
      os << "    " << (mfma ? "MFMA" : "VALU") << " pipe idle "
         << format("%.1f%%", 100 * p.idle) << " of the steady window; its waves then: "
         << parts(p.waits, p.issuing, false, "{0}{1} {2:F0}%") << "\n";
  }
}

} // namespace kcc::emu::timing
