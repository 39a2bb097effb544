//===- Blame.cpp - Where a hot loop's waves lose their cycles -------------===//
#include "runtime/emu/timing/Blame.h"
#include "runtime/emu/timing/CuModel.h"
#include "runtime/emu/timing/InstClass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <array>
#include <map>

using namespace llvm;

namespace kcc::emu::timing {

namespace {
struct Named {
  const char *name;
  double value;
};
const Named &maxOf(ArrayRef<Named> xs) {
  return *std::max_element(xs.begin(), xs.end(),
                           [](const Named &a, const Named &b) { return a.value < b.value; });
}
} // namespace

std::string LoopBlame::largest() const {
  Named parts[] = {{"s_waitcnt on LDS", waitLds},
                   {"s_waitcnt on memory", waitMemory},
                   {"s_barrier", barrier},
                   {"MFMA stalls (matrix pipe or operands)", stallMfma},
                   {"VALU stalls (vector pipe or operands)", stallValu},
                   {"other stalls", stallOther}};
  return maxOf(parts).name;
}

std::string LoopBlame::busiestPipe() const {
  Named pipes[] = {{"MFMA", mfmaPipe}, {"VALU", valuPipe}, {"LDS", ldsPipe},
                   {"memory", memoryPipe}};
  return maxOf(pipes).name;
}

namespace {
/// What a wave is doing in a cycle, for PipeIdle.
enum class WaveState : uint8_t {
  Issuing, WaitLds, WaitMemory, Barrier, StallMfma, StallValu, StallOther
};

WaveState stateOf(const Span &s, const Trace &trace) {
  switch (s.kind) {
  case SpanKind::Wait: return WaveState::WaitLds;
  case SpanKind::WaitMemory: return WaveState::WaitMemory;
  case SpanKind::Barrier: return WaveState::Barrier;
  case SpanKind::Stall: {
    Kind k = trace.insts[s.info].kind;
    if (k == Kind::Mfma)
      return WaveState::StallMfma;
    if (k == Kind::Valu || k == Kind::Trans || k == Kind::Permlane)
      return WaveState::StallValu;
    return WaveState::StallOther;
  }
  default: return WaveState::Issuing;
  }
}

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

/// PipeIdle of the matrix (`mfma`) or vector pipe over every SIMD.
LoopBlame::PipeIdle pipeIdle(const TimingReport &r, bool mfma) {
  LoopBlame::PipeIdle out;
  double idle = 0, window = 0;
  std::array<double, 7> byState{};
  size_t n = std::min({r.trace.waves.size(), r.timing.waves.size(), r.waveHotLoopPc.size()});
  std::map<unsigned, std::vector<size_t>> bySimd;
  for (size_t w = 0; w < n; ++w)
    if (r.waveHotLoopPc[w] >= 0 && !r.timing.waves[w].spans.empty())
      bySimd[r.timing.waves[w].simd].push_back(w);
  for (auto &[simd, waves] : bySimd) {
    uint64_t lo = 0, hi = ~uint64_t(0);
    bool ok = true;
    for (size_t w : waves) {
      std::vector<uint64_t> edges = hotEdges(r, w);
      if (edges.size() < 3) {
        ok = false;
        break;
      }
      lo = std::max(lo, edges[1]);
      hi = std::min(hi, edges.back());
    }
    if (!ok || hi <= lo)
      continue;
    size_t len = size_t(hi - lo);
    std::vector<uint8_t> busy(len, 0);
    std::vector<std::vector<uint8_t>> state(waves.size(),
                                            std::vector<uint8_t>(len, uint8_t(WaveState::Issuing)));
    for (size_t i = 0; i < waves.size(); ++i)
      for (const Span &s : r.timing.waves[waves[i]].spans) {
        uint64_t from = std::max(s.begin, lo), to = std::min(s.end, hi);
        if (to <= from)
          continue;
        bool pipe = mfma ? s.kind == SpanKind::Mfma
                         : (s.kind == SpanKind::Valu || s.kind == SpanKind::Trans);
        WaveState st = stateOf(s, r.trace);
        for (uint64_t t = from; t < to; ++t) {
          if (pipe)
            busy[t - lo] = 1;
          if (st != WaveState::Issuing)
            state[i][t - lo] = uint8_t(st);
        }
      }
    window += double(len);
    for (size_t t = 0; t < len; ++t) {
      if (busy[t])
        continue;
      idle += 1;
      for (size_t i = 0; i < waves.size(); ++i)
        byState[state[i][t]] += 1.0 / double(waves.size());
    }
  }
  if (window <= 0 || idle <= 0)
    return out;
  out.idle = idle / window;
  out.issuing = byState[size_t(WaveState::Issuing)] / idle;
  out.waitLds = byState[size_t(WaveState::WaitLds)] / idle;
  out.waitMemory = byState[size_t(WaveState::WaitMemory)] / idle;
  out.barrier = byState[size_t(WaveState::Barrier)] / idle;
  out.stallMfma = byState[size_t(WaveState::StallMfma)] / idle;
  out.stallValu = byState[size_t(WaveState::StallValu)] / idle;
  out.stallOther = byState[size_t(WaveState::StallOther)] / idle;
  return out;
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
  for (size_t w = 0; w < trace.waves.size() && w < r.timing.waves.size() &&
                     w < r.waveHotLoopPc.size();
       ++w) {
    if (r.waveHotLoopPc[w] < 0 || (loopPc && r.waveHotLoopPc[w] != int64_t(*loopPc)))
      continue;
    const WaveTrace &tw = trace.waves[w];
    const WaveTiming &cw = r.timing.waves[w];
    if (cw.spans.empty())
      continue;
    std::vector<uint64_t> edges;
    for (size_t e = 0; e < tw.backEdges.size() && e < cw.backEdgeCycles.size(); ++e)
      if (int64_t(tw.backEdges[e].pc) == r.waveHotLoopPc[w])
        edges.push_back(cw.backEdgeCycles[e]);
    if (edges.size() < 3)
      continue;
    uint64_t lo = edges[1], hi = edges.back();
    if (hi <= lo)
      continue;
    ++b.waves;
    b.windowCycles += double(hi - lo);
    for (const Span &s : cw.spans) {
      uint64_t from = std::max(s.begin, lo), to = std::min(s.end, hi);
      if (to <= from)
        continue;
      double cycles = double(to - from);
      const InstInfo &ii = trace.insts[s.info];
      switch (s.kind) {
      case SpanKind::Wait:
        b.waitLds += cycles;
        break;
      case SpanKind::WaitMemory:
        b.waitMemory += cycles;
        break;
      case SpanKind::Barrier:
        b.barrier += cycles;
        break;
      case SpanKind::Stall:
        if (ii.kind == Kind::Mfma)
          b.stallMfma += cycles;
        else if (ii.kind == Kind::Valu || ii.kind == Kind::Trans || ii.kind == Kind::Permlane)
          b.stallValu += cycles;
        else
          b.stallOther += cycles;
        break;
      default:
        continue; // the wave's own pipes at work, not a wait
      }
      byInst[s.info] += cycles;
    }
  }
  if (!b.waves)
    return std::nullopt;
  for (double *x : {&b.waitLds, &b.waitMemory, &b.barrier, &b.stallMfma, &b.stallValu,
                    &b.stallOther})
    *x /= b.windowCycles;
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
  if (!loopPc) {
    b.mfmaIdle = pipeIdle(r, /*mfma=*/true);
    b.valuIdle = pipeIdle(r, /*mfma=*/false);
  }
  return b;
}

/// "issuing 20%, LDS waits 45%, ..." for the parts of at least 0.5%,
/// largest first.
static std::string idleParts(const LoopBlame::PipeIdle &p) {
  std::vector<Named> parts = {{"issuing other work", p.issuing}, {"LDS waits", p.waitLds},
                              {"memory waits", p.waitMemory},    {"barrier", p.barrier},
                              {"MFMA stalls", p.stallMfma},      {"VALU stalls", p.stallValu},
                              {"other stalls", p.stallOther}};
  std::stable_sort(parts.begin(), parts.end(),
                   [](const Named &a, const Named &b) { return a.value > b.value; });
  std::string text;
  for (const Named &n : parts)
    if (n.value >= 0.005)
      text += formatv("{0}{1} {2:F0}%", text.empty() ? "" : ", ", n.name, 100 * n.value).str();
  return text;
}

std::string blameSummary(const LoopBlame &b) {
  std::string text = formatv("busiest pipe {0} (MFMA {1:F0}%, VALU {2:F0}%, LDS {3:F0}%, "
                             "memory {4:F0}%); waves blocked {5:F0}%: LDS waits {6:F0}%, "
                             "memory waits {7:F0}%, barrier {8:F0}%, MFMA stalls {9:F0}%, "
                             "VALU stalls {10:F0}%, other {11:F0}%; blames {12}",
                             b.busiestPipe(), 100 * b.mfmaPipe, 100 * b.valuPipe,
                             100 * b.ldsPipe, 100 * b.memoryPipe, 100 * b.blocked(),
                             100 * b.waitLds, 100 * b.waitMemory, 100 * b.barrier,
                             100 * b.stallMfma, 100 * b.stallValu, 100 * b.stallOther,
                             b.largest())
                         .str();
  if (!b.worst.empty())
    text += formatv(" (most before '{0}', {1:F1}%)", b.worst.front().text,
                    100 * b.worst.front().share)
                .str();
  // What the busier of the SIMD pipes waits for while it idles.
  bool mfma = b.mfmaPipe >= b.valuPipe;
  const LoopBlame::PipeIdle &p = mfma ? b.mfmaIdle : b.valuIdle;
  if (p.idle > 0)
    text += formatv("; {0} pipe idle {1:F0}%, its waves then: {2}", mfma ? "MFMA" : "VALU",
                    100 * p.idle, idleParts(p))
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
         << format("%.1f%%", 100 * b->blocked()) << " (LDS "
         << format("%.1f%%", 100 * b->waitLds) << ", memory "
         << format("%.1f%%", 100 * b->waitMemory) << ", barrier "
         << format("%.1f%%", 100 * b->barrier) << ", MFMA "
         << format("%.1f%%", 100 * b->stallMfma) << ", VALU "
         << format("%.1f%%", 100 * b->stallValu) << ", other "
         << format("%.1f%%", 100 * b->stallOther) << ")\n";
}

void printBlame(const LoopBlame &b, raw_ostream &os) {
  os << "  where the hot loops' waves wait (" << b.waves << " waves, "
     << format("%.0f", b.windowCycles) << " wave-cycles from each one's second iteration):\n";
  auto line = [&](StringRef what, double x) {
    os << "    " << left_justify(what, 40) << format("%5.1f%%", 100 * x) << "\n";
  };
  line("s_waitcnt on LDS (lgkmcnt)", b.waitLds);
  line("s_waitcnt on memory (vmcnt)", b.waitMemory);
  line("s_barrier", b.barrier);
  line("MFMA stalls (matrix pipe or operands)", b.stallMfma);
  line("VALU stalls (vector pipe or operands)", b.stallValu);
  line("other stalls", b.stallOther);
  line("blocked in all", b.blocked());
  os << "    busiest pipe: " << b.busiestPipe() << "; the largest loss: " << b.largest()
     << "\n";
  for (const LoopBlame::Site &s : b.worst)
    os << "    " << format("%5.1f%%", 100 * s.share) << " before @0x" << utohexstr(s.pc)
       << " '" << s.text << "'\n";
  for (bool mfma : {true, false}) {
    const LoopBlame::PipeIdle &p = mfma ? b.mfmaIdle : b.valuIdle;
    if (p.idle > 0)
      os << "    " << (mfma ? "MFMA" : "VALU") << " pipe idle "
         << format("%.1f%%", 100 * p.idle) << " of the steady window; its waves then: "
         << idleParts(p) << "\n";
  }
}

} // namespace kcc::emu::timing
