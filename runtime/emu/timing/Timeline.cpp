//===- Timeline.cpp - SVG picture of a CU replay --------------------------===//
//
// Plain SVG 1.1 with <title> tooltips: it renders in browsers and on GitHub
// without scripts, and diffs as text.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/timing/Timeline.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>

using namespace llvm;
namespace kcc::emu::timing {
namespace {

const char *color(SpanKind k) {
  switch (k) {
  case SpanKind::Mfma: return "#d62728";
  case SpanKind::Valu: return "#1f77b4";
  case SpanKind::Trans: return "#9467bd";
  case SpanKind::Lds: return "#2ca02c";
  case SpanKind::Vmem: return "#ff7f0e";
  case SpanKind::Salu: return "#8c564b";
  case SpanKind::Wait: return "#bcbd22";
  case SpanKind::WaitMemory: return "#dbdb8d";
  case SpanKind::Barrier: return "#17becf";
  case SpanKind::Stall: return "#c7c7c7";
  case SpanKind::Other: return "#7f7f7f";
  }
  return "#7f7f7f";
}

/// Lane of a wave's row group the span is drawn in.
unsigned lane(SpanKind k) {
  switch (k) {
  case SpanKind::Mfma: return 0;
  case SpanKind::Valu: case SpanKind::Trans: case SpanKind::Salu:
  case SpanKind::Other: return 1;
  case SpanKind::Lds: case SpanKind::Vmem: return 2;
  case SpanKind::Wait: case SpanKind::WaitMemory: case SpanKind::Barrier:
  case SpanKind::Stall: return 3;
  }
  return 1;
}

std::string escape(StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

} // namespace

std::pair<uint64_t, uint64_t> timelineWindow(const TimingReport &r,
                                             const TimelineOptions &o) {
  if (o.end > o.begin)
    return {o.begin, o.end};
  uint64_t whole = std::max<uint64_t>(r.simulatedCycles, 1);
  if (r.hotLoop < 0 || r.trace.waves.empty())
    return {0, whole};
  uint64_t pc = r.loops[size_t(r.hotLoop)].pc;
  const WaveTrace &w0 = r.trace.waves.front();
  const WaveTiming &t0 = r.timing.waves.front();
  std::vector<uint64_t> cyc;
  for (size_t i = 0; i < w0.backEdges.size() && i < t0.backEdgeCycles.size(); ++i)
    if (w0.backEdges[i].pc == pc)
      cyc.push_back(t0.backEdgeCycles[i]);
  unsigned n = std::max(1u, o.iterations);
  if (cyc.size() < n + 1)
    return {0, whole};
  // A middle iteration: past the fill, before the drain.
  size_t first = (cyc.size() - n) / 2;
  return {cyc[first], cyc[first + n]};
}

void writeTimelineSvg(const TimingReport &r, const TimelineOptions &o, raw_ostream &os) {
  auto [begin, end] = timelineWindow(r, o);
  if (end <= begin)
    end = begin + 1;
  const unsigned labelW = 150, laneH = 9, gap = 6, headerH = 40;
  const unsigned W = o.widthPixels;
  double scale = double(W) / double(end - begin);
  // Rows: SIMDs in order, their waves in dispatch order.
  std::vector<size_t> order(r.timing.waves.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return r.timing.waves[a].simd < r.timing.waves[b].simd;
  });
  unsigned rowH = 4 * laneH + gap;
  unsigned legendH = 40;
  unsigned H = headerH + unsigned(order.size()) * rowH + legendH + 20;
  unsigned totalW = labelW + W + 20;
  const ChipInfo &ci = getChipInfo(r.chip);

  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << totalW << "\" height=\""
     << H << "\" font-family=\"monospace\" font-size=\"11\">\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  os << "<text x=\"4\" y=\"14\" font-size=\"13\">" << escape(r.kernel) << " on "
     << ci.name << ": cycles " << begin << " to " << end << " (" << (end - begin)
     << ")";
  if (r.hotLoop >= 0)
    os << ", hot loop @0x" << utohexstr(r.loops[size_t(r.hotLoop)].pc) << " "
       << format("%.1f", r.loops[size_t(r.hotLoop)].cyclesPerIteration)
       << " cycles/iteration";
  os << "</text>\n";
  // Time axis: about ten ticks at a round step.
  double rawStep = double(end - begin) / 10;
  double mag = std::pow(10.0, std::floor(std::log10(std::max(rawStep, 1.0))));
  uint64_t step = uint64_t(mag);
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (mag * m >= rawStep) {
      step = uint64_t(mag * m);
      break;
    }
  step = std::max<uint64_t>(step, 1);
  for (uint64_t t = (begin + step - 1) / step * step; t <= end; t += step) {
    double x = labelW + double(t - begin) * scale;
    os << "<line x1=\"" << format("%.1f", x) << "\" y1=\"" << headerH - 8 << "\" x2=\""
       << format("%.1f", x) << "\" y2=\"" << headerH + order.size() * rowH
       << "\" stroke=\"#eeeeee\"/>\n";
    os << "<text x=\"" << format("%.1f", x + 2) << "\" y=\"" << headerH - 10 << "\">"
       << (t - begin) << "</text>\n";
  }
  for (size_t row = 0; row < order.size(); ++row) {
    const WaveTiming &wt = r.timing.waves[order[row]];
    unsigned y0 = headerH + unsigned(row) * rowH;
    os << "<text x=\"4\" y=\"" << y0 + 2 * laneH + 3 << "\">SIMD" << wt.simd << " wg"
       << wt.workgroup << " w" << wt.waveInGroup << "</text>\n";
    os << "<rect x=\"" << labelW << "\" y=\"" << y0 << "\" width=\"" << W << "\" height=\""
       << 4 * laneH << "\" fill=\"#fafafa\" stroke=\"#dddddd\"/>\n";
    for (const Span &s : wt.spans) {
      if (s.end <= begin || s.begin >= end)
        continue;
      uint64_t b = std::max(s.begin, begin), e = std::min(s.end, end);
      double x = labelW + double(b - begin) * scale;
      double w = std::max(0.6, double(e - b) * scale);
      unsigned y = y0 + lane(s.kind) * laneH;
      os << "<rect x=\"" << format("%.2f", x) << "\" y=\"" << y + 1 << "\" width=\""
         << format("%.2f", w) << "\" height=\"" << laneH - 2 << "\" fill=\""
         << color(s.kind) << "\"><title>" << (s.begin - begin) << "-" << (s.end - begin)
         << " " << spanKindName(s.kind);
      if (s.info < r.trace.instText.size())
        os << ": " << escape(r.trace.instText[s.info]);
      os << "</title></rect>\n";
    }
  }
  unsigned ly = headerH + unsigned(order.size()) * rowH + 16;
  unsigned lx = 4;
  for (unsigned k = 0; k < kNumSpanKinds; ++k) {
    SpanKind sk = SpanKind(k);
    if (sk == SpanKind::Other)
      continue;
    std::string name = spanKindName(sk).str();
    os << "<rect x=\"" << lx << "\" y=\"" << ly - 9 << "\" width=\"12\" height=\"10\" fill=\""
       << color(sk) << "\"/><text x=\"" << lx + 16 << "\" y=\"" << ly << "\">"
       << escape(name) << "</text>\n";
    lx += 24 + unsigned(name.size()) * 7;
    if (lx > totalW - 150) {
      lx = 4;
      ly += 16;
    }
  }
  os << "<text x=\"4\" y=\"" << H - 6
     << "\" fill=\"#666666\">lanes per wave: MFMA pipe | VALU, transcendental, scalar | "
        "LDS, memory | waits, barriers, stalls</text>\n";
  os << "</svg>\n";
}

} // namespace kcc::emu::timing
