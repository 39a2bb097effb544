//===- model_validation.cpp - The timing model against AMD's measurements ===//
//
//   KCC_AITER_DIR=/path/to/aiter model_validation [--families F,...]
//       [--chips gfx942,gfx950] [--sample N] [--rows] [--list] [--summary]
//       [--fit] [--raw-out FILE] [--from-raw FILE]
//
// Runs AMD's hand-written aiter kernels on the emulator with the timing
// model attached, at every shape AMD measured them at on MI355X, MI300X
// and MI308X (MeasuredRows.h says which tables and which rows), and prints
// per row the model's time beside the measured one, and per family and
// chip the median and 90th-percentile absolute error, the share of rows
// within 10%, the worst row and the count, for the fitting part and the
// validation part apart.
//
// How a row is timed: one CU's first round of workgroups runs whole on
// the emulator (prologue, every loop iteration, epilogue and stores), and
// the device-level model (runtime/emu/timing/DeviceModel.h) turns that
// round into the launch's time with the tree's constants. Every workgroup
// of these launches does the same work (GEMM tiles; attention query
// blocks, taken in pairs when causal), so the first round stands for the
// others; there is no steady-state extrapolation. The FP8 block-scale
// GEMMs (fp8gemm-blockscale) split over K are measured with the fill that
// zeroes C for their atomics before the launch (aiter's launcher runs
// hipMemsetAsync, a device event its tuner's profiler adds in): that fill
// is modelled as its bytes at HBM's sustained bandwidth (bench::fillSeconds,
// which says why no launch cost is charged for it) and added to the row's
// time.
//
// The split (MeasuredRows.h): one row in four, by a hash of its identity,
// is the fitting part. --fit fits the device-level constants of each chip
// (power_knee_mfma_busy, power_clock_exponent, hbm_sustained_fraction,
// workgroup_launch_cycles, and per kind of measurement launch_overhead_us
// with vmem_latency, back_to_back_launch_us with vmem_latency_warm: each
// row's round is replayed a second time at a longer latency, so its time
// at any latency is known) on the fitting part alone, minimising the mean
// absolute log error with each family weighing the same, and prints them
// and the errors they give; the [FIT] constants in
// runtime/emu/timing/TimingParams.cpp are the ones it printed. The
// validation part is reported, never fitted on. --summary prints the
// validation part's rows of runtime/emu/timing/Validation.cpp.
//
// --sample N times N rows per family and chip (spread over the rows in
// hash order, so fitting and validation rows come in proportion): a quick
// run. --raw-out writes what each row's replay measured (a tab-separated
// table, outside the tree) and --from-raw reads it back instead of running
// the emulator, so that --fit and the tables can be redone in a second.
//
// Without KCC_AITER_DIR (and without --from-raw) it says how to get a
// checkout and exits 0.
//
//===----------------------------------------------------------------------===//
#include "benchmarks/MeasuredRows.h"
#include "benchmarks/SideBySide.h"
#include "runtime/emu/timing/DeviceModel.h"
#include "runtime/emu/timing/TimingParams.h"
#include "target/Target.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace llvm;
using namespace kcc;
namespace timing = kcc::emu::timing;

namespace {

/// What one row's replay measured: enough for the device-level model to
/// give its time with any constants.
struct Replay {
  timing::CuRound round;
  timing::LaunchExtent extent;
  /// Bytes of a fill launched before the kernel, which the measurement
  /// includes (aiter's FP8 block-scale launcher zeroes C for the atomics
  /// of a split K), timed by bench::fillSeconds; 0: none.
  double fillBytes = 0;
  std::string detail; // the kernel's hot loop, for the row's line
};

struct Row {
  bench::MeasuredRow measured;
  /// measured.key(), kept apart because a row read back from --from-raw
  /// has no shape fields, only its key.
  std::string key;
  bool fitting() const { return bench::isFittingKey(key); }
  bool haveReplay = false;
  Replay replay;
  std::string error; // why it could not be timed
};

timing::Measurement measurementOf(const Row &r) {
  return bench::measurementOfFamily(r.measured.family);
}

/// The tunable device-level constants of one chip: the power limit and
/// HBM's sustained share, which every launch shares, and the launch cost
/// and load latency of each kind of measurement.
struct DeviceConstants {
  double knee = 1, exponent = 1, hbmFraction = 1, workgroupLaunch = 0;
  double launchUs = 0, latency = 0;         // profiler, cold caches
  double backToBackUs = 0, latencyWarm = 0; // events, warm caches
};
DeviceConstants constantsOf(const timing::TimingParams &p) {
  DeviceConstants c;
  c.knee = p.powerKneeMfmaBusy;
  c.exponent = p.powerClockExponent;
  c.hbmFraction = p.hbmSustainedFraction;
  c.workgroupLaunch = p.workgroupLaunchCycles;
  c.launchUs = p.launchOverheadSeconds * 1e6;
  c.latency = double(p.vmemLatency);
  c.backToBackUs = p.backToBackLaunchSeconds * 1e6;
  c.latencyWarm = double(p.vmemLatencyWarm);
  return c;
}
timing::TimingParams withConstants(timing::TimingParams p, const DeviceConstants &c) {
  p = timing::withLoadLatency(p, unsigned(std::lround(c.latency)));
  p.vmemLatencyWarm = unsigned(std::lround(c.latencyWarm));
  p.launchOverheadSeconds = c.launchUs * 1e-6;
  p.backToBackLaunchSeconds = c.backToBackUs * 1e-6;
  p.powerKneeMfmaBusy = c.knee;
  p.powerClockExponent = c.exponent;
  p.hbmSustainedFraction = c.hbmFraction;
  p.workgroupLaunchCycles = c.workgroupLaunch;
  return p;
}

double predictedUs(const Row &r, const timing::TimingParams &p) {
  timing::TimingParams m = timing::measuredBy(p, measurementOf(r));
  double seconds = timing::deviceTime(m, r.replay.round, r.replay.extent).seconds;
  if (r.replay.fillBytes > 0)
    seconds += bench::fillSeconds(m, r.replay.fillBytes);
  return seconds * 1e6;
}

/// Compulsory DRAM bytes of a row's launch: each operand read once and
/// the output written once.
double dramBytesOf(const bench::MeasuredRow &m) {
  if (m.isAttention) {
    const bench::AttentionShape &a = m.attention;
    double q = double(a.batch * a.seq * a.heads * a.headDim) * 2;
    double kv = double(a.batch * a.seq * a.kvHeads * a.headDim) * 2;
    return 2 * q + 2 * kv;
  }
  const bench::GemmShape &g = m.gemm;
  if (m.fp8)
    return bench::fp8BlockScaleBytes(g);
  return 2.0 * double(g.m * g.k + g.n * g.k) + double(g.m * g.n) * (g.outBf16 ? 2 : 4);
}

/// Runs one row's kernel on the emulator with the timing model watching
/// one CU's first round.
Expected<Replay> replayRow(const std::string &aiter, const bench::MeasuredRow &m) {
  bench::setTimedComputeUnits(m.computeUnits);
  Expected<bench::ModelFigures> f = [&]() -> Expected<bench::ModelFigures> {
    if (m.family == "fmha-fwd")
      return bench::timeAiterAttention(aiter, m.chip, m.attention, 0, /*firstRound=*/true);
    if (m.family == "bf16gemm-256x256")
      return bench::timeAiterGemm(aiter, m.gemm, 0, /*firstRound=*/true);
    if (m.family == "bf16gemm-splitk")
      return bench::timeAiterSplitKGemm(aiter, m.chip, m.codeObject, m.kernel, m.tileM,
                                        m.tileN, m.splitK, m.gemm);
    if (m.family == "fp8gemm-blockscale")
      return bench::timeAiterFp8BlockScaleGemm(aiter, m.chip, m.codeObject, m.kernel, m.tileM,
                                               m.tileN, m.splitK, m.gemm);
    return createStringError(inconvertibleErrorCode(), "no launcher for family " + m.family);
  }();
  if (!f)
    return f.takeError();
  Replay r;
  r.round = f->round;
  r.extent = f->extent;
  r.extent.computeUnits = m.computeUnits;
  r.extent.dramBytes = dramBytesOf(m);
  // The fill of C before a split FP8 launch is timed apart (fillSeconds), with
  // the constants the row is evaluated with.
  if (m.family == "fp8gemm-blockscale" && m.splitK > 1)
    r.fillBytes = double(m.gemm.m * m.gemm.n * 2);
  r.detail = formatv("{0:F0} cycles/CU round, MFMA busy {1:F1}%, {2} wg/CU",
                     r.round.cycles, 100 * r.round.mfmaBusy, r.round.workgroups)
                 .str();
  return r;
}

// ---------------------------------------------------------------------------
// The raw table (--raw-out / --from-raw)
// ---------------------------------------------------------------------------

const char *const kRawHeaderNoFill =
    "key\tfamily\tchip\tcus\tmeasured_us\tflops\tround_cycles\tround_mfma_busy\t"
    "round_workgroups\tround_cycles_per_latency_cycle\treplayed_latency\tworkgroups\t"
    "dram_bytes\tsource\tdetail";
/// The table's header; a table without its last column (fill_bytes, from a
/// build before the FP8 rows) reads as fills of 0.
const std::string kRawHeader = std::string(kRawHeaderNoFill) + "\tfill_bytes";

void writeRaw(raw_ostream &os, const std::vector<Row> &rows) {
  os << kRawHeader << "\n";
  for (const Row &r : rows) {
    if (!r.haveReplay)
      continue;
    const bench::MeasuredRow &m = r.measured;
    os << r.key << "\t" << m.family << "\t" << getChipInfo(m.chip).name << "\t"
       << m.computeUnits << "\t" << format("%.6g", m.measuredUs) << "\t"
       << format("%.9g", m.flops) << "\t" << format("%.9g", r.replay.round.cycles) << "\t"
       << format("%.6g", r.replay.round.mfmaBusy) << "\t" << r.replay.round.workgroups << "\t"
       << format("%.6g", r.replay.round.cyclesPerLatencyCycle) << "\t"
       << format("%.6g", r.replay.round.replayedLatency) << "\t" << r.replay.extent.workgroups
       << "\t" << format("%.9g", r.replay.extent.dramBytes) << "\t" << m.source << "\t"
       << r.replay.detail << "\t" << format("%.9g", r.replay.fillBytes) << "\n";
  }
}

Expected<std::vector<Row>> readRaw(const std::string &path) {
  auto buf = MemoryBuffer::getFile(path);
  if (!buf)
    return createStringError(buf.getError(), "cannot read " + path);
  SmallVector<StringRef> lines;
  (*buf)->getBuffer().split(lines, '\n', -1, false);
  bool withFill = !lines.empty() && lines[0].trim() == kRawHeader;
  if (lines.empty() || (!withFill && lines[0].trim() != kRawHeaderNoFill))
    return createStringError(inconvertibleErrorCode(),
                             path + " is not a table that --raw-out wrote (its first line "
                                    "differs)");
  std::vector<Row> rows;
  for (size_t i = 1; i < lines.size(); ++i) {
    SmallVector<StringRef> f;
    lines[i].split(f, '\t');
    Row r;
    bench::MeasuredRow &m = r.measured;
    std::optional<Chip> chip =
        f.size() == (withFill ? 16u : 15u) ? parseChip(f[2]) : std::nullopt;
    if (!chip || f[3].getAsInteger(10, m.computeUnits) || f[4].getAsDouble(m.measuredUs) ||
        f[5].getAsDouble(m.flops) || f[6].getAsDouble(r.replay.round.cycles) ||
        f[7].getAsDouble(r.replay.round.mfmaBusy) ||
        f[8].getAsInteger(10, r.replay.round.workgroups) ||
        f[9].getAsDouble(r.replay.round.cyclesPerLatencyCycle) ||
        f[10].getAsDouble(r.replay.round.replayedLatency) ||
        f[11].getAsInteger(10, r.replay.extent.workgroups) ||
        f[12].getAsDouble(r.replay.extent.dramBytes) ||
        (withFill && f[15].getAsDouble(r.replay.fillBytes)))
      return createStringError(inconvertibleErrorCode(),
                               formatv("{0}:{1}: a malformed row", path, i + 1).str());
    m.family = f[1].str();
    m.chip = *chip;
    m.source = f[13].str();
    r.replay.detail = f[14].str();
    r.replay.extent.computeUnits = m.computeUnits;
    r.key = f[0].str();
    r.haveReplay = true;
    rows.push_back(std::move(r));
  }
  return rows;
}

// ---------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------

struct Stats {
  unsigned count = 0;
  double median = 0, p90 = 0, within10 = 0, bias = 0;
  double worst = 0;
  std::string worstRow;
};

/// The machine a measured row ran on, by its CUs: the chip's flagship part
/// (target/'s ChipInfo) or the MI308X, an 80-CU gfx942.
std::string machineName(Chip chip, unsigned cus) {
  const ChipInfo &ci = getChipInfo(chip);
  if (cus == unsigned(ci.computeUnits))
    return ci.marketing.str();
  if (chip == Chip::gfx942 && cus == 80)
    return "MI308X";
  return "?";
}

double quantile(std::vector<double> v, double q) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  double pos = q * double(v.size() - 1);
  size_t lo = size_t(pos);
  size_t hi = std::min(v.size() - 1, lo + 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
}

/// Errors of `rows` (predicted / measured - 1) under `params`.
Stats statsOf(const std::vector<const Row *> &rows,
              const std::function<double(const Row &)> &predict) {
  Stats s;
  std::vector<double> abs;
  std::vector<double> signedErr;
  for (const Row *r : rows) {
    double e = predict(*r) / r->measured.measuredUs - 1;
    abs.push_back(std::fabs(e));
    signedErr.push_back(e);
    if (std::fabs(e) >= std::fabs(s.worst) || s.worstRow.empty()) {
      s.worst = e;
      s.worstRow = r->key;
    }
  }
  s.count = unsigned(rows.size());
  s.median = quantile(abs, 0.5);
  s.p90 = quantile(abs, 0.9);
  s.bias = quantile(signedErr, 0.5);
  s.within10 = rows.empty() ? 0
                            : double(std::count_if(abs.begin(), abs.end(),
                                                   [](double e) { return e <= 0.10; })) /
                                  double(rows.size());
  return s;
}

/// The fit's objective: the mean absolute log error, robust to the few
/// rows a model misses by a factor, and symmetric in over- and under-
/// prediction; each family weighs the same, however many rows it has (the
/// 230 split-K rows would otherwise set the power limit that the 29
/// attention rows measure best).
double objective(const std::vector<const Row *> &rows, const timing::TimingParams &p) {
  std::map<std::string, std::pair<double, unsigned>> perFamily;
  for (const Row *r : rows) {
    auto &[sum, n] = perFamily[r->measured.family];
    sum += std::fabs(std::log(predictedUs(*r, p) / r->measured.measuredUs));
    ++n;
  }
  double total = 0;
  for (auto &[f, v] : perFamily)
    total += v.first / double(v.second);
  return perFamily.empty() ? 0 : total / double(perFamily.size());
}

/// Coordinate descent over the device-level constants, each within its
/// physical range: a few sweeps of a shrinking grid per coordinate, from
/// `start`. Returns the best found.
DeviceConstants descend(const std::vector<const Row *> &rows, const timing::TimingParams &base,
                        DeviceConstants c) {
  struct Axis {
    double DeviceConstants::*field;
    double lo, hi;
  };
  // Ranges: a launch costs between nothing and 20 us; the power knee is a
  // busy fraction; the exponent of dynamic power in the clock lies between
  // 1 (voltage at its floor) and 3 (voltage in proportion to the clock);
  // HBM sustains between half and all of its data-sheet bandwidth; a
  // load's latency lies between an L2 hit's and a loaded HBM's (300 to
  // 4000 cycles, [C&C]), data left warm in the caches no further than
  // cold data (the warm latency is held at or below the cold one).
  const Axis axes[] = {{&DeviceConstants::launchUs, 0, 20},
                       {&DeviceConstants::backToBackUs, 0, 20},
                       {&DeviceConstants::knee, 0.2, 1.0},
                       {&DeviceConstants::exponent, 1.0, 3.0},
                       {&DeviceConstants::hbmFraction, 0.5, 1.0},
                       {&DeviceConstants::latency, 300, 4000},
                       {&DeviceConstants::latencyWarm, 300, 4000},
                       {&DeviceConstants::workgroupLaunch, 0, 40000}};
  double best = objective(rows, withConstants(base, c));
  for (int sweep = 0; sweep < 8; ++sweep)
    for (const Axis &a : axes) {
      double lo = a.lo, hi = a.hi;
      for (int refine = 0; refine < 4; ++refine) {
        double step = (hi - lo) / 40, bestX = c.*a.field;
        for (double x = lo; x <= hi + 1e-12; x += step) {
          DeviceConstants t = c;
          t.*a.field = x;
          if (t.latencyWarm > t.latency)
            continue;
          double o = objective(rows, withConstants(base, t));
          if (o < best - 1e-12) {
            best = o;
            bestX = x;
          }
        }
        c.*a.field = bestX;
        lo = std::max(a.lo, bestX - 2 * step);
        hi = std::min(a.hi, bestX + 2 * step);
      }
    }
  return c;
}

/// The fit: coordinate descent from the tree's constants and from a grid
/// of launch costs and latencies (the two trade against each other on
/// small launches, so one start can stop in the wrong valley); the best.
DeviceConstants fitConstants(const std::vector<const Row *> &rows,
                             const timing::TimingParams &base) {
  DeviceConstants best = descend(rows, base, constantsOf(base));
  double bestObjective = objective(rows, withConstants(base, best));
  for (double latency : {400.0, 1000.0, 1800.0, 3000.0})
    for (double launch : {1.0, 5.0, 12.0}) {
      DeviceConstants start = constantsOf(base);
      start.latency = latency;
      start.latencyWarm = std::min(start.latencyWarm, latency);
      start.launchUs = start.backToBackUs = launch;
      // A short launch cost goes with a long workgroup launch: the two
      // trade against each other on one-round launches.
      start.workgroupLaunch = 10000 / launch;
      DeviceConstants c = descend(rows, base, start);
      double o = objective(rows, withConstants(base, c));
      if (o < bestObjective) {
        bestObjective = o;
        best = c;
      }
    }
  return best;
}

void printUsage(raw_ostream &os) {
  os << "usage: KCC_AITER_DIR=DIR model_validation [--families F,...] [--chips C,...]\n"
        "         [--sample N] [--rows] [--list] [--summary] [--fit] [--raw-out FILE]\n"
        "         [--from-raw FILE]\n"
        "  --families   families to run (default all): bf16gemm-256x256, bf16gemm-splitk,\n"
        "               fmha-fwd, fp8gemm-blockscale\n"
        "  --chips      gfx942, gfx950 (default both)\n"
        "  --sample N   N rows per family and chip, spread over them (a quick run)\n"
        "  --rows       print every row, not only the summary\n"
        "  --list       list the rows read (key, part, measured time, source) and\n"
        "               what was dropped, without running anything\n"
        "  --summary    also print the validation part's errors per kind of kernel\n"
        "               and chip as the rows of runtime/emu/timing/Validation.cpp\n"
        "  --fit        fit the device-level constants on the fitting part and report\n"
        "               with them (the tree's constants otherwise)\n"
        "  --raw-out F  write what each row's replay measured to F (outside the tree)\n"
        "  --from-raw F read that instead of running the emulator\n";
}

} // namespace

int main(int argc, char **argv) {
  std::set<std::string> families, chips;
  unsigned sample = 0;
  bool showRows = false, fit = false, list = false, summary = false;
  std::string rawOut, fromRaw;
  for (int i = 1; i < argc; ++i) {
    StringRef a = argv[i];
    auto value = [&](StringRef name) -> std::optional<StringRef> {
      if (a.consume_front(name)) {
        if (a.consume_front("="))
          return a;
        if (a.empty() && i + 1 < argc)
          return StringRef(argv[++i]);
      }
      return std::nullopt;
    };
    if (a == "--help" || a == "-h") {
      printUsage(outs());
      return 0;
    }
    if (a == "--rows") {
      showRows = true;
    } else if (a == "--list") {
      list = true;
    } else if (a == "--summary") {
      summary = true;
    } else if (a == "--fit") {
      fit = true;
    } else if (auto v = value("--families")) {
      SmallVector<StringRef> parts;
      v->split(parts, ',', -1, false);
      for (StringRef p : parts) {
        if (p != "bf16gemm-256x256" && p != "bf16gemm-splitk" && p != "fmha-fwd" &&
            p != "fp8gemm-blockscale") {
          errs() << "model_validation: no family '" << p
                 << "' (bf16gemm-256x256, bf16gemm-splitk, fmha-fwd, fp8gemm-blockscale)\n";
          return 2;
        }
        families.insert(p.str());
      }
    } else if (auto v = value("--chips")) {
      SmallVector<StringRef> parts;
      v->split(parts, ',', -1, false);
      for (StringRef p : parts) {
        if (!parseChip(p)) {
          errs() << "model_validation: no chip '" << p << "' (gfx942, gfx950)\n";
          return 2;
        }
        chips.insert(p.str());
      }
    } else if (auto v = value("--sample")) {
      if (v->getAsInteger(10, sample) || !sample) {
        errs() << "model_validation: --sample takes a count of rows above 0, not '" << *v
               << "'\n";
        return 2;
      }
    } else if (auto v = value("--raw-out")) {
      rawOut = v->str();
    } else if (auto v = value("--from-raw")) {
      fromRaw = v->str();
    } else {
      errs() << "model_validation: unknown argument '" << argv[i] << "'\n";
      printUsage(errs());
      return 2;
    }
  }

  std::vector<Row> rows;
  std::map<std::string, unsigned> notLaunched, dropped;
  std::string aiter;
  if (!fromRaw.empty()) {
    Expected<std::vector<Row>> r = readRaw(fromRaw);
    if (!r) {
      errs() << "model_validation: " << toString(r.takeError()) << "\n";
      return 1;
    }
    rows = std::move(*r);
  } else {
    std::optional<std::string> dir = bench::aiterCheckout();
    if (!dir) {
      bench::printAiterHowTo(outs(), "model_validation");
      return 0;
    }
    aiter = *dir;
    if (!sys::fs::exists(aiter + "/aiter/configs")) {
      errs() << "model_validation: " << aiter
             << " has no aiter/configs: not an aiter checkout\n";
      return 1;
    }
    bench::MeasuredTables t = bench::readMeasuredTables(aiter);
    notLaunched = t.notLaunched;
    dropped = t.dropped;
    for (bench::MeasuredRow &m : t.rows) {
      Row r;
      r.key = m.key();
      r.measured = std::move(m);
      rows.push_back(std::move(r));
    }
  }
  // The filters.
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [&](const Row &r) {
                              return (!families.empty() && !families.count(r.measured.family)) ||
                                     (!chips.empty() &&
                                      !chips.count(getChipInfo(r.measured.chip).name.str()));
                            }),
             rows.end());
  // A sample: N rows of each family and chip, every len/N-th in hash order.
  if (sample) {
    std::map<std::string, std::vector<Row>> groups;
    for (Row &r : rows)
      groups[r.measured.family + "|" + getChipInfo(r.measured.chip).name.str()].push_back(
          std::move(r));
    rows.clear();
    for (auto &[g, v] : groups) {
      std::sort(v.begin(), v.end(), [](const Row &a, const Row &b) {
        return bench::fnv1a(a.key) < bench::fnv1a(b.key);
      });
      size_t take = std::min<size_t>(sample, v.size());
      for (size_t j = 0; j < take; ++j)
        rows.push_back(std::move(v[j * v.size() / take]));
    }
  }

  if (list) {
    for (const Row &r : rows)
      outs() << r.key << " | " << (r.fitting() ? "fit" : "validation") << " | "
             << format("%.4g", r.measured.measuredUs) << " us | " << r.measured.source << "\n";
    outs() << rows.size() << " rows\n";
    for (auto &[f, n] : notLaunched)
      outs() << "not launched: " << f << ": " << n << "\n";
    for (auto &[why, n] : dropped)
      outs() << "dropped: " << why << ": " << n << "\n";
    return 0;
  }

  // The replays.
  if (fromRaw.empty()) {
    auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < rows.size(); ++i) {
      Row &r = rows[i];
      auto t0 = std::chrono::steady_clock::now();
      Expected<Replay> rep = replayRow(aiter, r.measured);
      double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (rep) {
        r.replay = std::move(*rep);
        r.haveReplay = true;
      } else {
        r.error = toString(rep.takeError());
      }
      errs() << formatv("[{0}/{1}] {2}: {3} ({4:F1} s)\n", i + 1, rows.size(), r.key,
                        r.haveReplay ? "timed" : r.error, secs);
    }
    errs() << formatv("replays: {0:F0} s\n",
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                          .count());
    if (!rawOut.empty()) {
      std::error_code ec;
      raw_fd_ostream os(rawOut, ec);
      if (ec) {
        errs() << "model_validation: cannot write " << rawOut << ": " << ec.message() << "\n";
        return 1;
      }
      writeRaw(os, rows);
    }
  }

  // The constants each chip is evaluated with: the tree's, or fitted on
  // the fitting part.
  std::map<Chip, timing::TimingParams> params;
  for (Chip c : {Chip::gfx942, Chip::gfx950})
    params[c] = timing::getTimingParams(c);
  if (fit) {
    outs() << "Fit on the fitting part (one row in four by the hash of its key), per chip:\n\n"
           << "| chip | rows | power_knee_mfma_busy | power_clock_exponent | "
              "hbm_sustained_fraction | launch_overhead_us | vmem_latency | "
              "back_to_back_launch_us | vmem_latency_warm | workgroup_launch_cycles | "
              "mean abs log error (tree -> fit) |\n"
           << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (Chip c : {Chip::gfx942, Chip::gfx950}) {
      std::vector<const Row *> part;
      for (const Row &r : rows)
        if (r.haveReplay && r.measured.chip == c && r.fitting())
          part.push_back(&r);
      if (part.empty())
        continue;
      double before = objective(part, params[c]);
      DeviceConstants k = fitConstants(part, params[c]);
      params[c] = withConstants(params[c], k);
      outs() << formatv("| {0} | {1} | {2:F3} | {3:F2} | {4:F3} | {5:F2} | {6:F0} | {7:F2} | "
                        "{8:F0} | {9:F0} | {10:F3} -> {11:F3} |\n",
                        getChipInfo(c).name, part.size(), k.knee, k.exponent, k.hbmFraction,
                        k.launchUs, k.latency, k.backToBackUs, k.latencyWarm, k.workgroupLaunch,
                        before,
                        objective(part, params[c]));
    }
    outs() << "\n";
  }
  auto predict = [&](const Row &r) { return predictedUs(r, params[r.measured.chip]); };

  if (showRows) {
    outs() << "| row | part | measured us | model us | error | model detail | source |\n"
              "| --- | --- | --- | --- | --- | --- | --- |\n";
    for (const Row &r : rows) {
      if (!r.haveReplay)
        continue;
      double p = predict(r);
      timing::DeviceTime d = timing::deviceTime(
          timing::measuredBy(params[r.measured.chip], measurementOf(r)), r.replay.round,
          r.replay.extent);
      outs() << "| " << r.key << " | " << (r.fitting() ? "fit" : "validation") << " | "
             << format("%.2f", r.measured.measuredUs) << " | " << format("%.2f", p) << " | "
             << format("%+.1f%%", 100 * (p / r.measured.measuredUs - 1)) << " | "
             << r.replay.detail
             << formatv(", {0} round(s), {1:F0}% of CU slots, {2:F2} GHz{3}", d.rounds,
                        100 * d.occupiedFraction, d.clockGHz, d.memoryBound ? ", HBM-bound" : "")
             << " | " << r.measured.source << " |\n";
    }
    outs() << "\n";
  }

  // Per family and chip, each part apart.
  outs() << "| family | chip | part | rows | median abs error | p90 abs error | within 10% "
            "| median signed | worst row (error) |\n"
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  std::map<std::pair<std::string, Chip>, std::pair<std::vector<const Row *>,
                                                   std::vector<const Row *>>>
      groups;
  unsigned failed = 0;
  for (const Row &r : rows) {
    if (!r.haveReplay) {
      ++failed;
      continue;
    }
    auto &g = groups[{r.measured.family, r.measured.chip}];
    (r.fitting() ? g.first : g.second).push_back(&r);
  }
  for (auto &[k, parts] : groups)
    for (int part = 0; part < 2; ++part) {
      const std::vector<const Row *> &v = part ? parts.second : parts.first;
      if (v.empty())
        continue;
      Stats s = statsOf(v, predict);
      outs() << "| " << k.first << " | " << getChipInfo(k.second).name << " | "
             << (part ? "validation" : "fit") << " | " << s.count << " | "
             << format("%.1f%%", 100 * s.median) << " | " << format("%.1f%%", 100 * s.p90)
             << " | " << format("%.0f%%", 100 * s.within10) << " | "
             << format("%+.1f%%", 100 * s.bias) << " | " << s.worstRow << " ("
             << format("%+.1f%%", 100 * s.worst) << ") |\n";
    }
  if (summary) {
    // The kinds of Validation.h: both bf16 GEMM families together, the
    // attention forward alone, the FP8 block-scale GEMMs alone.
    outs() << "\nValidation.cpp's table (the validation part, the constants above):\n";
    const char *const kinds[] = {"Bf16Gemm", "Bf16AttentionForward", "Fp8Gemm"};
    for (Chip c : {Chip::gfx942, Chip::gfx950})
      for (int kind = 0; kind < 3; ++kind) {
        std::vector<const Row *> v;
        std::set<unsigned> machines;
        std::set<std::string> kernels;
        for (const Row &r : rows) {
          StringRef family = r.measured.family;
          bool ofKind = kind == 0   ? family.starts_with("bf16gemm")
                        : kind == 1 ? family == "fmha-fwd"
                                    : family == "fp8gemm-blockscale";
          if (r.haveReplay && !r.fitting() && r.measured.chip == c && ofKind) {
            v.push_back(&r);
            machines.insert(r.measured.computeUnits);
            kernels.insert(family == "bf16gemm-256x256" ? "256x256" : "split-K");
          }
        }
        if (v.empty())
          continue;
        Stats s = statsOf(v, predict);
        std::string what = kind == 1   ? "aiter fmha_v3_fwd, "
                           : kind == 2 ? "aiter FP8 block-scale GEMMs, "
                                       : "aiter bf16 GEMMs (" + join(kernels, ", ") + "), ";
        for (unsigned cu : machines)
          what += machineName(c, cu) + (cu == *machines.rbegin() ? "" : " and ");
        if (sample)
          what += formatv("; --sample {0}", sample).str();
        outs() << formatv("    {{KernelKind::{0}, Chip::{1}, \"{2}\", {3}, {4:F4}, {5:F4}, {6:F4}},\n",
                          kinds[kind], getChipInfo(c).name, what, s.count, s.median, s.p90,
                          s.within10);
      }
  }
  if (failed) {
    outs() << "\nrows that could not be timed: " << failed << "\n";
    for (const Row &r : rows)
      if (!r.haveReplay)
        outs() << "  " << r.key << ": " << r.error << "\n";
  }
  if (!notLaunched.empty()) {
    outs() << "\nfamilies in aiter's tables the harness does not launch (rows):\n";
    for (auto &[f, n] : notLaunched)
      outs() << "  " << f << ": " << n << "\n";
  }
  if (!dropped.empty()) {
    outs() << "\nrows dropped (MeasuredRows.h says why):\n";
    for (auto &[why, n] : dropped)
      outs() << "  " << why << ": " << n << "\n";
  }
  return failed ? 1 : 0;
}
