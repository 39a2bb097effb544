//===- gemm_bench.cpp - kcc's GEMM beside AMD's hand-written one ----------===//
//
//   [KCC_AITER_DIR=/path/to/aiter] gemm_bench [--dtype bf16|fp8] [--iterations K | --full]
//              [--shapes M,N,K;...] [--chip gfx942|gfx950] [--params 'WM=128 BK=64 ...']
//              [--report]
//   KCC_AITER_DIR=/path/to/aiter gemm_bench --check [--shapes M,N,K;...]
//
// For each shape (default: 8192^3, 4096^3 and LLM projections, M from 1 to
// 16384) prints, on the validated timing model (README, "Timing model"),
// kcc's GEMM (kcc::ops::gemm with the tiles it picks, printed under each
// shape's row with the HBM floor of reading A and Bt and writing C once,
// which each launch's round is given to the device model with: a launch
// faster than HBM allows is raised to it; bf16 in and out; a split of K adds
// its reduction launch, timed whole, to the time and TFLOPS) on gfx942 and
// gfx950 and, with an aiter checkout, the hand-written kernel aiter's tuner
// picks for the shape (its tuned tables: the 256x256 kernel or, for small M,
// a split-K one), timed on the model (one CU's first round whole) and
// beside that row's measured time; a shape the tables lack gets the 256x256
// kernel on the model (gfx950). Each kernel: TFLOPS, the hot
// loop's cycles per iteration, MFMA busy, non-MFMA instructions per MFMA,
// and kcc / aiter, and, where kcc is the slower, what the model blames in
// each loop (runtime/emu/timing/Blame.h). Both run through the same path (runtime, emulated
// device, one CU's workgroups, steady state over K iterations, default 32:
// with four workgroups sharing a CU, 8 iterations end before the CU's
// memory traffic settles and read 3-6% fast against a full run).
// --full replays one CU's workgroups whole instead (slower): the code
// after the hot loop is then timed too, which the steady state leaves out.
// aiter's kernel peels its last K block out of the loop; its steady state
// is extrapolated to one iteration per K block of 128 so that the block is
// timed at the loop's rate rather than left out. --params overrides kcc's tile choice (the GEMM's parameters, as -D binds
// them), for tuning; --chip times one chip only; --report prints each
// launch's whole timing report (kcc's first, then aiter's) before its row. --check instead runs
// aiter's kernel whole in check mode (the emulator's sanitizer) at each
// shape (default 512^3) and prints "clean" or what it reports: a sanitizer
// that reports races in production kernels whose results are right would
// be switched off.
//
// --dtype fp8 (the default is bf16) compares the FP8 GEMM with 128-block
// scales instead: kcc's ops::gemmFp8 (A's scales over 1x128, Bt's over
// 128x128, bf16 out; the tile it picks) beside the hand-written kernel
// aiter's FP8 block-scale tables pick for the shape on the chip
// (hsa/<gfx>/fp8gemm_blockscale/*.co with its split of K, timed as
// model_validation's fp8gemm-blockscale family is: one CU's first round
// whole, the fill of C before a split launch added), beside that row's
// measured time and the model's error on it. Both are timed on the CUs of
// the machine the row was measured on (gfx942's rows are MI308X, 80 CUs),
// through the same path. Each prints its time, TFLOPS and the fraction of
// the chip's HBM bandwidth (target/ ChipInfo) that moving A, B, both
// scales and C once in that time takes: the figure of merit at small M.
// The default shapes are rows of aiter's tables (DeepSeek-V3's and V4's
// projections, decode M = 1-64, prefill M = 1024-32768), per chip; the
// run ends with the rows as a markdown table (docs/kernels/gemm-fp8-speed.md).
//
//===----------------------------------------------------------------------===//
#include "benchmarks/MeasuredRows.h"
#include "benchmarks/SideBySide.h"
#include "runtime/emu/timing/DeviceModel.h"
#include "runtime/emu/timing/TimingParams.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <optional>
#include <vector>

using namespace llvm;
using namespace kcc;

namespace {

std::string cell(const bench::ModelFigures &f) {
  return formatv("{0,7:F1} TFLOPS {1,7:F0} cyc/it {2,5:F1}% busy {3,5:F2} oth/MFMA", f.tflops,
                 f.cyclesPerIteration, 100 * f.mfmaBusy, f.otherPerMfma)
      .str();
}

/// The FP8 rows' default shapes per chip: rows of aiter's FP8 block-scale
/// tables where its hand-written kernel is the pick (M, N, K).
std::vector<bench::GemmShape> fp8Shapes(Chip chip) {
  if (chip == Chip::gfx950)
    return {{1, 4608, 7168},   {16, 4608, 7168},  {64, 4608, 7168}, {1, 7168, 2304},
            {16, 9216, 7168},  {64, 6144, 7168},  {256, 7168, 2048}, {384, 7168, 7168},
            {1024, 2048, 7168}, {1536, 2048, 7168}, {8192, 512, 7168}, {32768, 128, 7168}};
  return {{32, 4608, 7168},   {64, 7168, 7168},   {64, 4096, 2048},   {256, 4608, 7168},
          {1024, 4608, 7168}, {8192, 4608, 7168}, {16384, 4608, 7168}, {32768, 128, 7168}};
}

/// "+12.3%", "-4.0%".
std::string signedPercent(double fraction) {
  return formatv("{0}{1:F1}%", fraction >= 0 ? "+" : "-", 100 * std::fabs(fraction)).str();
}

/// What the model's device half says of a launch: its workgroups, rounds
/// and the share of the CU slots it keeps busy (a decode GEMM of few tiles
/// leaves most CUs idle, which no hot loop's blame shows).
std::string occupancy(const bench::ModelFigures &f) {
  return formatv("{0} workgroups, {1} round(s), {2:F0}% of CU slots, MFMA busy {3:F0}%",
                 f.extent.workgroups, f.device.rounds, 100 * f.device.occupiedFraction,
                 100 * f.mfmaBusy)
      .str();
}

/// A figure above the chip's peak (matrix cores or HBM) is a bug of the
/// model or of the bench, not a result: an error naming it.
std::optional<std::string> aboveThePeak(const bench::ModelFigures &f, double hbmFraction) {
  if (f.peakTflops > 0 && f.tflops > f.peakTflops * 1.001)
    return formatv("{0:F1} TFLOPS is above the chip's peak of {1:F1} for its MFMA", f.tflops,
                   f.peakTflops)
        .str();
  if (hbmFraction > 1.001)
    return formatv("{0:F1}% of HBM's bandwidth is above the chip's", 100 * hbmFraction).str();
  return std::nullopt;
}

int runFp8(const std::vector<Chip> &chips, const std::vector<bench::GemmShape> &given,
           unsigned iterations, const std::vector<std::string> &params,
           const std::optional<std::string> &aiter, const bench::MeasuredTables &measured) {
  int failures = 0;
  std::vector<std::string> table;
  for (Chip chip : chips) {
    const ChipInfo &ci = getChipInfo(chip);
    outs() << "\n" << ci.name << " (" << ci.marketing
           << "), FP8 e4m3 with 128-block scales -> bf16, timing model (validated), kcc "
           << (iterations ? formatv("steady state over {0} iterations", iterations).str()
                          : std::string("whole replay"))
           << ", aiter one CU's first round whole\n";
    for (const bench::GemmShape &s : given.empty() ? fp8Shapes(chip) : given) {
      std::string label = formatv("M={0} N={1} K={2}", s.m, s.n, s.k).str();
      // aiter's pick: the table's row for the shape on this chip, the
      // chip's flagship part first, else the other machine measured.
      const bench::MeasuredRow *pick = nullptr;
      for (const bench::MeasuredRow &r : measured.rows)
        if (r.family == "fp8gemm-blockscale" && r.chip == chip && r.gemm.m == s.m &&
            r.gemm.n == s.n && r.gemm.k == s.k &&
            (!pick || (pick->computeUnits != unsigned(ci.computeUnits) &&
                       r.computeUnits == unsigned(ci.computeUnits))))
          pick = &r;
      unsigned cus = pick ? pick->computeUnits : unsigned(ci.computeUnits);
      std::string machine = pick && cus != unsigned(ci.computeUnits)
                                ? formatv("{0}-CU {1}", cus, chip == Chip::gfx942 && cus == 80
                                                                 ? "MI308X"
                                                                 : ci.marketing)
                                      .str()
                                : ci.marketing.str();
      bench::setTimedComputeUnits(cus);
      double flops = 2.0 * double(s.m) * double(s.n) * double(s.k);
      double bytes = bench::fp8BlockScaleBytes(s);
      const emu::timing::TimingParams &tp = emu::timing::getTimingParams(chip);
      // Both launches' rounds are given to the device model again with the
      // bytes they must move (its HBM floor), as the bf16 rows are.
      auto bound = [&](bench::ModelFigures &f) {
        emu::timing::LaunchExtent extent = f.extent;
        extent.dramBytes = bytes;
        extent.computeUnits = cus;
        emu::timing::DeviceTime d = emu::timing::deviceTime(tp, f.round, extent);
        f.seconds = d.seconds + f.reduceSeconds + f.fillSeconds;
        f.tflops = flops / f.seconds / 1e12;
        return d.memoryBound;
      };
      auto hbm = [&](double seconds) { return bytes / seconds / ci.hbmBytesPerSecond; };
      auto k = bench::timeKccGemmFp8(chip, s, iterations, params);
      if (!k) {
        errs() << "gemm_bench: kcc fp8 " << ci.name << " " << label << ": "
               << toString(k.takeError()) << "\n";
        ++failures;
        bench::setTimedComputeUnits(0);
        continue;
      }
      bool kccBound = bound(*k);
      if (std::optional<std::string> bug = aboveThePeak(*k, hbm(k->seconds))) {
        errs() << "gemm_bench: kcc fp8 " << ci.name << " " << label << ": " << *bug << "\n";
        ++failures;
      }
      outs() << "  " << left_justify(label, 24) << formatv(" [{0}]\n", machine);
      outs() << "  " << left_justify("", 24)
             << formatv(" kcc   {0,8:F1} us {1,7:F1} TFLOPS {2,5:F1}% HBM{3}", k->seconds * 1e6,
                        k->tflops, 100 * hbm(k->seconds), kccBound ? " (HBM-bound)" : "")
             << "\n";
      outs() << "  " << left_justify("", 24) << "       tiles: " << k->what
             << (k->wholeReplay ? " (replayed whole)" : "") << "; " << occupancy(*k) << "\n";
      outs() << "  " << left_justify("", 24) << "       " << k->validation << "\n";
      std::string row = formatv("| {0} | {1} | {2} | {3:F1} us, {4:F1} TFLOPS, {5:F1}% HBM |",
                                label, ci.name, machine, k->seconds * 1e6, k->tflops,
                                100 * hbm(k->seconds))
                            .str();
      if (!aiter || !pick) {
        outs() << "  " << left_justify("", 24)
               << (aiter ? "       (no asm row of aiter's FP8 block-scale tables for this "
                           "shape on this chip)\n"
                         : "")
               ;
        table.push_back(row + " | | | | |");
        bench::setTimedComputeUnits(0);
        continue;
      }
      auto a = bench::timeAiterFp8BlockScaleGemm(*aiter, chip, pick->codeObject, pick->kernel,
                                                 pick->tileM, pick->tileN, pick->splitK, s);
      bench::setTimedComputeUnits(0);
      if (!a) {
        outs() << "  " << left_justify("", 24) << " aiter (" << toString(a.takeError()) << ")\n";
        table.push_back(row + " (not run) | | | | |");
        continue;
      }
      bool aiterBound = bound(*a);
      if (std::optional<std::string> bug = aboveThePeak(*a, hbm(a->seconds))) {
        errs() << "gemm_bench: aiter fp8 " << ci.name << " " << label << ": " << *bug << "\n";
        ++failures;
      }
      double measuredS = pick->measuredUs * 1e-6;
      double error = a->seconds / measuredS - 1;
      std::string name = a->what;
      if (StringRef(name).ends_with(".co"))
        name = name.substr(0, name.size() - 3);
      StringRef shortName = name;
      shortName.consume_front("fp8gemm_bf16_blockscale_BpreShuffle_");
      outs() << "  " << left_justify("", 24)
             << formatv(" aiter {0,8:F1} us {1,7:F1} TFLOPS {2,5:F1}% HBM{3}   kcc/aiter {4:F2}x "
                        "on the model",
                        a->seconds * 1e6, a->tflops, 100 * hbm(a->seconds),
                        aiterBound ? " (HBM-bound)" : "", a->seconds / k->seconds)
             << "\n";
      outs() << "  " << left_justify("", 24)
             << formatv("       aiter's pick {0} split-K {1}{2}; {3}\n", name, pick->splitK,
                        a->fillSeconds > 0
                            ? formatv(" (fill of C {0:F2} us included)", a->fillSeconds * 1e6)
                                  .str()
                            : std::string(),
                        occupancy(*a));
      outs() << "  " << left_justify("", 24)
             << formatv("       measured {0:F1} us = {1:F1} TFLOPS, {2:F1}% HBM ({3}); the "
                        "model's error on it {4}; kcc/aiter measured {5:F2}x\n",
                        pick->measuredUs, flops / measuredS / 1e12, 100 * hbm(measuredS),
                        pick->source, signedPercent(error),
                        measuredS / k->seconds);
      outs() << "  " << left_justify("", 24) << "       " << a->validation << "\n";
      // Below the hand-written kernel: what the model blames, kcc's beside
      // aiter's (the hot loop's, and where the launch leaves CUs idle).
      if (k->seconds > a->seconds) {
        if (kccBound)
          outs() << "  " << left_justify("", 24) << "       model on kcc: HBM-bound\n";
        else {
          outs() << "  " << left_justify("", 24) << "       model on kcc:   "
                 << (k->blame.empty() ? std::string("(no hot loop taken three times)")
                                      : k->blame)
                 << "\n";
          if (!a->blame.empty())
            outs() << "  " << left_justify("", 24) << "       model on aiter: " << a->blame
                   << "\n";
        }
      }
      table.push_back(row +
                      formatv(" {0} split-K {1}: {2:F1} us, {3:F1} TFLOPS, {4:F1}% HBM | {5:F2}x | "
                              "{6:F1} us, {7:F1} TFLOPS, {8:F1}% HBM | {9:F2}x | {10} |",
                              shortName, pick->splitK, a->seconds * 1e6, a->tflops,
                              100 * hbm(a->seconds), a->seconds / k->seconds, pick->measuredUs,
                              flops / measuredS / 1e12, 100 * hbm(measuredS),
                              measuredS / k->seconds, signedPercent(error))
                          .str());
    }
  }
  outs() << "\n| shape | chip | machine | kcc (model) | aiter's pick (model) | kcc/aiter "
            "(model) | aiter measured | kcc/aiter (measured) | model's error on the row |\n"
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const std::string &r : table)
    outs() << r << "\n";
  return failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  unsigned iterations = 32;
  std::vector<std::string> params;
  std::vector<Chip> chips = {Chip::gfx950, Chip::gfx942};
  bool check = false, shapesGiven = false, fp8 = false;
  std::vector<bench::GemmShape> shapes = {
      {8192, 8192, 8192}, {4096, 4096, 4096},  // square
      {16384, 8192, 8192}, {2048, 8192, 8192},  // prefill, large and short
      {4096, 1280, 8192}, {4096, 28672, 8192}, // llama-70B QKV (TP8), up-proj
      {4096, 8192, 28672},                      // llama-70B down-proj
      {1, 8192, 8192}, {16, 8192, 8192}, {64, 8192, 8192}, {256, 8192, 28672}, // decode
  };
  for (int i = 1; i < argc; ++i) {
    StringRef a = argv[i];
    if (a == "--iterations" && i + 1 < argc &&
        !StringRef(argv[i + 1]).getAsInteger(10, iterations) && iterations > 1) {
      ++i;
    } else if (a == "--dtype" && i + 1 < argc) {
      StringRef d = argv[++i];
      if (d != "bf16" && d != "fp8") {
        errs() << "gemm_bench: --dtype takes bf16 or fp8; got '" << d << "'\n";
        return 2;
      }
      fp8 = d == "fp8";
    } else if (a == "--full") {
      iterations = 0;
    } else if (a == "--check") {
      check = true;
    } else if (a == "--report") {
      bench::setReportStream(&outs());
    } else if (a == "--shapes" && i + 1 < argc) {
      shapes.clear();
      shapesGiven = true;
      SmallVector<StringRef> list;
      StringRef(argv[++i]).split(list, ';', -1, false);
      for (StringRef s : list) {
        SmallVector<StringRef> mnk;
        s.split(mnk, ',');
        bench::GemmShape g;
        if (mnk.size() != 3 || mnk[0].trim().getAsInteger(10, g.m) ||
            mnk[1].trim().getAsInteger(10, g.n) || mnk[2].trim().getAsInteger(10, g.k) ||
            !g.m || !g.n || !g.k) {
          errs() << "gemm_bench: --shapes needs M,N,K[;M,N,K...]; got '" << s << "'\n";
          return 2;
        }
        shapes.push_back(g);
      }
    } else if (a == "--params" && i + 1 < argc) {
      SmallVector<StringRef> list;
      StringRef(argv[++i]).split(list, ' ', -1, false);
      for (StringRef p : list) {
        if (!p.contains('=')) {
          errs() << "gemm_bench: --params takes NAME=VALUE bindings; got '" << p << "'\n";
          return 2;
        }
        params.push_back(p.str());
      }
    } else if (a == "--chip" && i + 1 < argc) {
      std::optional<Chip> chip = parseChip(argv[++i]);
      if (!chip) {
        errs() << "gemm_bench: --chip takes gfx942 or gfx950; got '" << argv[i] << "'\n";
        return 2;
      }
      chips = {*chip};
    } else {
      errs() << "usage: [KCC_AITER_DIR=DIR] gemm_bench [--dtype bf16|fp8] "
                "[--iterations K (>1) | --full] "
                "[--shapes M,N,K;...] [--chip gfx942|gfx950] [--params 'NAME=VALUE ...'] "
                "[--report] [--check]\n";
      return 2;
    }
  }
  std::optional<std::string> aiter = bench::aiterCheckout();
  if (!aiter)
    bench::printAiterHowTo(outs(), "gemm_bench");
  bench::MeasuredTables measured;
  if (aiter)
    measured = bench::readMeasuredTables(*aiter);
  if (fp8) {
    if (check) {
      errs() << "gemm_bench: --check runs aiter's bf16 kernel; not with --dtype fp8\n";
      return 2;
    }
    return runFp8(chips, shapesGiven ? shapes : std::vector<bench::GemmShape>{}, iterations,
                  params, aiter, measured);
  }
  if (check) {
    if (!aiter)
      return 0;
    if (!shapesGiven)
      shapes = {{512, 512, 512}};
    int problems = 0;
    for (const bench::GemmShape &s : shapes) {
      auto r = bench::checkAiterGemm(*aiter, s);
      outs() << formatv("check mode: aiter bf16gemm_bf16_tn_256x256 M={0} N={1} K={2}: ", s.m,
                        s.n, s.k)
             << (r ? *r : toString(r.takeError())) << "\n";
      problems += !r || *r != "clean";
    }
    return problems ? 1 : 0;
  }
  int failures = 0;
  for (Chip chip : chips) {
    StringRef name = getChipInfo(chip).name;
    outs() << "\n" << name << " (" << getChipInfo(chip).marketing
           << "), bf16 -> bf16, timing model (validated), "
           << (iterations ? formatv("steady state over {0} iterations", iterations).str()
                          : std::string("whole replay"))
           << "\n";
    for (const bench::GemmShape &s : shapes) {
      std::string label = formatv("M={0} N={1} K={2}", s.m, s.n, s.k).str();
      auto k = bench::timeKccGemm(chip, s, iterations, params);
      if (!k) {
        errs() << "gemm_bench: kcc " << name << " " << label << ": " << toString(k.takeError())
               << "\n";
        ++failures;
        continue;
      }
      // The model times no HBM unless asked: what reading A and Bt and
      // writing C once takes at the chip's sustained HBM bandwidth bounds a
      // decode GEMM from below. Each launch's round is given to the device
      // model again with those bytes (its HBM floor, DeviceModel.h), for kcc
      // and aiter alike; a split's reduction launch stays added on top.
      double hbmBytes = 2.0 * (double(s.m) * s.k + double(s.n) * s.k + double(s.m) * s.n);
      const emu::timing::TimingParams &tp = emu::timing::getTimingParams(chip);
      double floor = hbmBytes / (tp.hbmBytesPerSecond * tp.hbmSustainedFraction);
      double flops = 2.0 * double(s.m) * double(s.n) * double(s.k);
      auto bound = [&](bench::ModelFigures &f) {
        emu::timing::LaunchExtent extent = f.extent;
        extent.dramBytes = hbmBytes;
        emu::timing::DeviceTime d = emu::timing::deviceTime(tp, f.round, extent);
        if (d.memoryBound) {
          f.seconds = d.seconds + f.reduceSeconds;
          f.tflops = flops / f.seconds / 1e12;
        }
        return d.memoryBound;
      };
      double modelSeconds = k->seconds;
      bool kccBound = bound(*k);
      // The tile choice is per shape (decode, split-K): each row says its own.
      outs() << "  " << left_justify(label, 24) << " kcc   " << cell(*k) << "\n";
      outs() << "  " << left_justify("", 24) << " kcc's tiles: " << k->what;
      if (k->wholeReplay)
        outs() << formatv(" (replayed whole: its loop runs fewer than {0} iterations)",
                          iterations);
      if (k->reduceSeconds > 0)
        outs() << formatv(" (split-K reduction {0:F1} us of {1:F1})", k->reduceSeconds * 1e6,
                          modelSeconds * 1e6);
      outs() << formatv("; HBM floor {0:F1} us{1}\n", floor * 1e6,
                        kccBound ? formatv(" (bound: the model's {0:F1} us is below it)",
                                           modelSeconds * 1e6)
                                       .str()
                                 : std::string());
      outs() << "  " << left_justify("", 24) << " " << k->validation << "\n";
      if (!aiter)
        continue;
      // The kernel aiter's tuner picked for this shape on this chip (its
      // tuned tables, on the chip's full CU count), with its measured time;
      // without a measured row, its 256x256 kernel (gfx950) on the model.
      const bench::MeasuredRow *pick = nullptr;
      for (const bench::MeasuredRow &r : measured.rows)
        if (StringRef(r.family).starts_with("bf16gemm") && r.chip == chip &&
            r.computeUnits == emu::timing::getTimingParams(chip).computeUnits &&
            r.gemm.m == s.m && r.gemm.n == s.n && r.gemm.k == s.k && r.gemm.outBf16)
          pick = &r;
      if (!pick && chip != Chip::gfx950)
        continue;
      Expected<bench::ModelFigures> a =
          !pick ? bench::timeAiterGemm(*aiter, s, iterations)
          : pick->family == "bf16gemm-256x256"
              ? bench::timeAiterGemm(*aiter, s, 0, /*firstRound=*/true)
              : bench::timeAiterSplitKGemm(*aiter, chip, pick->codeObject, pick->kernel,
                                           pick->tileM, pick->tileN, pick->splitK, s);
      if (!a) {
        outs() << "  " << left_justify("", 24) << " aiter (" << toString(a.takeError()) << ")\n";
        continue;
      }
      bool aiterBound = bound(*a);
      outs() << "  " << left_justify("", 24) << " aiter " << cell(*a) << "   kcc/aiter "
             << format("%.2fx", k->tflops / a->tflops) << " on the model"
             << (aiterBound ? "  (HBM-bound)" : "") << "\n";
      if (pick)
        outs() << "  " << left_justify("", 24)
               << formatv("   aiter's pick {0} (split-K {1}), measured {2:F1} us = {3:F1} TFLOPS "
                          "({4}); model {5:F1} us; kcc/aiter measured {6:F2}x\n",
                          pick->kernel, pick->splitK, pick->measuredUs,
                          flops / (pick->measuredUs * 1e-6) / 1e12, pick->source, a->seconds * 1e6,
                          pick->measuredUs * 1e-6 / k->seconds);
      else
        outs() << "  " << left_justify("", 24)
               << "   (no measured row of aiter's tables for this shape: its 256x256 kernel on "
                  "the model)\n";
      // Below the hand-written kernel: where kcc's loop loses its cycles,
      // beside where aiter's does.
      if (k->tflops < a->tflops && !kccBound && !k->blame.empty()) {
        outs() << "  " << left_justify("", 24) << "   model on kcc:   " << k->blame << "\n";
        if (!a->blame.empty())
          outs() << "  " << left_justify("", 24) << "   model on aiter: " << a->blame << "\n";
      }
    }
    if (chip == Chip::gfx942)
      outs() << "  (aiter's gfx942 GEMM rows are MI308X split-K kernels of other shapes: "
                "nothing to compare with at these)\n";
  }
  return failures ? 1 : 0;
}
