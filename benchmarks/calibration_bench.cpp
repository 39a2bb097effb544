//===- calibration_bench.cpp - The timing model against hardware ----------===//
//
//   KCC_AITER_DIR=/path/to/aiter calibration_bench [--iterations K] [--checks N]
//
// Runs AMD's hand-written aiter kernels (github.com/ROCm/aiter, a checkout
// the user gives; nothing of it is in this tree) on the emulator with the
// timing model attached, at shapes AMD measured on hardware, and prints the
// model's prediction beside the measurement and the error:
//
//   - the two gfx950 anchors the model is calibrated on (issue 16): the
//     bf16 256x256 GEMM (hsa/gfx950/bf16gemm/bf16gemm_bf16_tn_256x256.co) at
//     M = N = K = 8192, 688.65 us on MI355X as aiter's own tuning table
//     records it (aiter/configs/model_configs/llama70B_bf16_tuned_gemm.csv),
//     and the FMHA forward (hsa/gfx950/fmha_v3_fwd/fwd_hd128_bf16.co) at
//     B = 1, H = 64, H_kv = 8, S = 16384, D = 128, non-causal, 1438 TFLOPS;
//   - checks: every other row of aiter's tuning tables that ran the same
//     GEMM kernel on gfx950 (read from the checkout at run time, up to
//     --checks N of them, the largest first); these rows are not fitted.
//
// The kernels' arguments are laid out as aiter's launchers fill them
// (csrc/py_itfs_cu/asm_gemm_a16w16.cu, csrc/cpp_itfs/mha_fwd.cu): every
// field in a 16-byte slot. The timing model runs in steady-state mode: one
// CU's workgroups, K iterations of the hot loop (--iterations, default 6),
// the rest inferred from the loop's exit test.
//
// Without KCC_AITER_DIR it says how to get a checkout and exits 0.
//
//===----------------------------------------------------------------------===//
#include "benchmarks/SideBySide.h"
#include "target/Target.h"
#include "runtime/emu/timing/TimingParams.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

using namespace llvm;
using namespace kcc;
namespace timing = kcc::emu::timing;

namespace {

using bench::GemmShape;
using bench::ModelFigures;

struct CsvRow {
  GemmShape shape;
  double us = 0, tflops = 0;
  std::string file;
};

/// Rows of aiter's tuning tables (aiter/configs/**.csv) that ran `kernel`
/// on gfx950 with 256 CUs: hardware measurements (columns M, N, K, outdtype,
/// us, tflops by the header's names).
std::vector<CsvRow> tuningRows(const std::string &aiter, StringRef kernel) {
  std::vector<CsvRow> rows;
  std::set<std::string> seen;
  for (const char *dir : {"/aiter/configs", "/aiter/configs/model_configs"}) {
    std::error_code ec;
    for (sys::fs::directory_iterator it(aiter + dir, ec), end; it != end && !ec;
         it.increment(ec)) {
      if (!StringRef(it->path()).ends_with(".csv"))
        continue;
      auto buf = MemoryBuffer::getFile(it->path());
      if (!buf)
        continue;
      SmallVector<StringRef> lines;
      (*buf)->getBuffer().split(lines, '\n', -1, false);
      if (lines.empty())
        continue;
      SmallVector<StringRef> head;
      lines[0].trim().split(head, ',');
      auto col = [&](StringRef name) -> int {
        for (size_t i = 0; i < head.size(); ++i)
          if (head[i].trim() == name)
            return int(i);
        return -1;
      };
      int cGfx = col("gfx"), cCu = col("cu_num"), cM = col("M"), cN = col("N"),
          cK = col("K"), cOut = col("outdtype"), cUs = col("us"), cTf = col("tflops"),
          cName = col("kernelName"), cSplit = col("splitK");
      if (std::min({cGfx, cCu, cM, cN, cK, cOut, cUs, cTf, cName}) < 0)
        continue;
      for (size_t li = 1; li < lines.size(); ++li) {
        SmallVector<StringRef> f;
        lines[li].trim().split(f, ',');
        if (f.size() != head.size() || f[cGfx] != "gfx950" || f[cCu] != "256" ||
            f[cName].trim() != kernel)
          continue;
        if (cSplit >= 0 && f[cSplit] != "1" && f[cSplit] != "0")
          continue;
        CsvRow r;
        r.file = sys::path::filename(it->path()).str();
        if (f[cM].getAsInteger(10, r.shape.m) || f[cN].getAsInteger(10, r.shape.n) ||
            f[cK].getAsInteger(10, r.shape.k) || f[cUs].getAsDouble(r.us) ||
            f[cTf].getAsDouble(r.tflops))
          continue;
        r.shape.outBf16 = f[cOut].contains("bfloat16");
        std::string key = formatv("{0}x{1}x{2}:{3}", r.shape.m, r.shape.n, r.shape.k,
                                  r.shape.outBf16)
                              .str();
        if (!seen.insert(key).second)
          continue;
        rows.push_back(r);
      }
    }
  }
  return rows;
}

void printRow(StringRef what, StringRef measuredText, double measuredTflops,
              const ModelFigures &p, StringRef source) {
  double err = (p.tflops - measuredTflops) / measuredTflops;
  outs() << "| " << what << " | " << measuredText << " | "
         << format("%.1f us, %.0f TFLOPS", p.seconds * 1e6, p.tflops) << " | "
         << format("%+.1f%%", 100 * err) << " | "
         << format("%.0f cycles/iter, MFMA busy %.1f%%, %.2f GHz, trip %llu",
                   p.cyclesPerIteration, 100 * p.mfmaBusy, p.clockGHz,
                   (unsigned long long)p.tripCount)
         << " | " << source << " |\n";
}

} // namespace

int main(int argc, char **argv) {
  unsigned iterations = 6, checks = 6;
  for (int i = 1; i < argc; ++i) {
    StringRef a = argv[i];
    if (a == "--iterations" && i + 1 < argc && !StringRef(argv[i + 1]).getAsInteger(10, iterations) &&
        iterations > 1) {
      ++i;
    } else if (a == "--checks" && i + 1 < argc &&
               !StringRef(argv[i + 1]).getAsInteger(10, checks)) {
      ++i;
    } else {
      errs() << "usage: KCC_AITER_DIR=DIR calibration_bench [--iterations K (>1)] "
                "[--checks N]\n";
      return 2;
    }
  }
  std::optional<std::string> dir = bench::aiterCheckout();
  if (!dir) {
    bench::printAiterHowTo(outs(), "calibration_bench");
    return 0;
  }
  std::string aiter = *dir;
  if (!sys::fs::exists(aiter + "/hsa/gfx950")) {
    errs() << "calibration_bench: " << aiter << " has no hsa/gfx950: not an aiter checkout\n";
    return 1;
  }

  const auto &p = timing::getTimingParams(Chip::gfx950);
  outs() << "Timing model vs hardware (MI355X, gfx950; model: " << p.computeUnits
         << " CUs, peak clock " << format("%.2f", p.clockGHz)
         << " GHz, power limit above MFMA busy " << format("%.3f", p.powerKneeMfmaBusy)
         << " with exponent " << format("%.2f", p.powerClockExponent) << ", steady state over "
         << iterations << " iterations)\n\n";
  outs() << "| kernel and shape | measured | model | error | model detail | source |\n"
            "| --- | --- | --- | --- | --- | --- |\n";
  int failures = 0;
  double worst = 0;
  // For the fit: per anchor, the MFMA-busy fraction and the clock (as a
  // fraction of peak) that would make the model match the measurement.
  struct FitPoint {
    double busy, clockRatio;
  };
  std::vector<FitPoint> fit;
  auto fitPoint = [&](const ModelFigures &pr, double measuredTflops) {
    double atPeak = pr.tflops * p.clockGHz / pr.clockGHz;
    fit.push_back({pr.mfmaBusy, measuredTflops / atPeak});
  };

  // Anchor 1: the GEMM.
  GemmShape anchor{8192, 8192, 8192, true};
  if (auto g = bench::timeAiterGemm(aiter, anchor, iterations)) {
    double measured = 2.0 * 8192.0 * 8192.0 * 8192.0 / 688.6517e-6 / 1e12;
    printRow("anchor: bf16gemm_bf16_tn_256x256, M=N=K=8192, bf16 out", "688.7 us, 1597 TFLOPS",
             measured, *g, "aiter configs/model_configs/llama70B_bf16_tuned_gemm.csv");
    worst = std::max(worst, std::fabs(g->tflops / measured - 1));
    fitPoint(*g, measured);
  } else {
    errs() << "calibration_bench: GEMM anchor: " << toString(g.takeError()) << "\n";
    ++failures;
  }
  // Anchor 2: the attention.
  bench::AttentionShape fa;
  fa.heads = 64;
  fa.kvHeads = 8;
  fa.seq = 16384;
  if (auto a = bench::timeAiterAttention(aiter, Chip::gfx950, fa, iterations)) {
    printRow("anchor: fmha_v3_fwd hd128 bf16, B=1 H=64 Hkv=8 S=16384 D=128", "1438 TFLOPS",
             1438, *a, "AMD's published MI355X figure (issue 16)");
    worst = std::max(worst, std::fabs(a->tflops / 1438 - 1));
    fitPoint(*a, 1438);
  } else {
    errs() << "calibration_bench: attention anchor: " << toString(a.takeError()) << "\n";
    ++failures;
  }
  // Checks: other measured shapes of the same GEMM kernel, largest first.
  std::vector<CsvRow> rows = tuningRows(aiter, "_ZN5aiter24bf16gemm_bf16_tn_256x256E");
  std::sort(rows.begin(), rows.end(), [](const CsvRow &a, const CsvRow &b) {
    return a.shape.m * a.shape.n * a.shape.k > b.shape.m * b.shape.n * b.shape.k;
  });
  // Spread the checks over the sizes: every len/N-th row.
  std::vector<CsvRow> picked;
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [&](const CsvRow &r) {
                              return r.shape.m == anchor.m && r.shape.n == anchor.n &&
                                     r.shape.k == anchor.k && r.shape.outBf16;
                            }),
             rows.end());
  for (size_t i = 0; checks && i < rows.size(); i += std::max<size_t>(1, rows.size() / checks))
    if (picked.size() < checks)
      picked.push_back(rows[i]);
  double checkSum = 0;
  for (const CsvRow &r : picked) {
    auto g = bench::timeAiterGemm(aiter, r.shape, iterations);
    if (!g) {
      errs() << "calibration_bench: check " << r.shape.m << "x" << r.shape.n << "x"
             << r.shape.k << ": " << toString(g.takeError()) << "\n";
      ++failures;
      continue;
    }
    printRow(formatv("check: same GEMM, M={0} N={1} K={2}, {3} out", r.shape.m, r.shape.n,
                     r.shape.k, r.shape.outBf16 ? "bf16" : "f32")
                 .str(),
             formatv("{0:F1} us, {1:F0} TFLOPS", r.us, r.tflops).str(), r.tflops, *g,
             "aiter configs/" + r.file);
    checkSum += std::fabs(g->tflops / r.tflops - 1);
  }
  // The power-limit constants that reproduce both anchors exactly:
  // clock ratio = (knee / busy)^(1/n) at both.
  if (fit.size() == 2 && fit[0].busy != fit[1].busy && fit[0].clockRatio < 1 &&
      fit[1].clockRatio < 1) {
    double invN = std::log(fit[0].clockRatio / fit[1].clockRatio) /
                  std::log(fit[1].busy / fit[0].busy);
    if (invN > 0) {
      double knee = fit[0].busy * std::pow(fit[0].clockRatio, 1 / invN);
      outs() << "\nfit to both anchors: power_knee_mfma_busy "
             << format("%.3f", knee) << ", power_clock_exponent " << format("%.2f", 1 / invN)
             << " (runtime/emu/timing/TimingParams.cpp has " << format("%.3f", p.powerKneeMfmaBusy)
             << ", " << format("%.2f", p.powerClockExponent) << ")\n";
    }
  }
  outs() << "\nanchors: worst error " << format("%.1f%%", 100 * worst)
         << (worst <= 0.10 ? " (within 10%)" : " (OUTSIDE 10%)") << "\n";
  if (!picked.empty())
    outs() << "checks: mean absolute error " << format("%.1f%%", 100 * checkSum / picked.size())
           << " over " << picked.size() << " of " << rows.size() << " measured rows\n";
  return failures ? 1 : 0;
}
