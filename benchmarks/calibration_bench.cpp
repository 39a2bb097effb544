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
#include "target/CodeObject.h"
#include "target/Error.h"
#include "target/Target.h"
#include "runtime/emu/Emulator.h"
#include "runtime/emu/timing/Timing.h"
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

/// A kernel argument block of aiter's layout: every field in its own
/// 16-byte slot (pointers and 32-bit values alike, padded).
class SlotArgs {
public:
  explicit SlotArgs(size_t size) : bytes(size, 0) {}
  /// Fields past the kernel's argument block (an older build of the kernel
  /// that stops earlier, e.g. before the fp8 descale fields) are dropped.
  template <typename T> void set(unsigned slot, T value) {
    if (size_t(slot) * 16 + sizeof(T) <= bytes.size())
      std::memcpy(&bytes[size_t(slot) * 16], &value, sizeof(T));
  }
  const std::vector<uint8_t> &data() const { return bytes; }

private:
  std::vector<uint8_t> bytes;
};

/// Fixed bf16 inputs in [-0.5, 0.5) from a 32-bit LCG: deterministic and
/// small enough that no kernel takes a rare path (an attention rescale).
Expected<uint64_t> upload(emu::Device &d, uint64_t elements, uint32_t &state) {
  std::vector<uint16_t> bits(static_cast<size_t>(elements));
  for (uint16_t &b : bits) {
    state = state * 1664525u + 1013904223u;
    float x = float(int32_t(state >> 8) - (1 << 23)) / float(1 << 24);
    uint32_t u;
    std::memcpy(&u, &x, 4);
    b = uint16_t(u >> 16);
  }
  auto p = d.allocate(elements * 2);
  if (!p)
    return p.takeError();
  if (Error e = d.copyToDevice(*p, bits.data(), bits.size() * 2))
    return std::move(e);
  return *p;
}

struct Prediction {
  double seconds = 0, tflops = 0, mfmaBusy = 0, cyclesPerIteration = 0;
  double peakTflops = 0;
  double clockGHz = 0;     // the sustained clock the model charged
  uint64_t tripCount = 0;
  std::string note;
};

Prediction summarise(const timing::TimingReport &r) {
  Prediction p;
  p.seconds = r.kernelSeconds;
  p.tflops = r.tflops;
  p.peakTflops = r.peakTflops;
  p.mfmaBusy = r.mfmaBusy;
  p.clockGHz = r.clockGHz;
  if (r.hotLoop >= 0) {
    const timing::LoopTiming &l = r.loops[size_t(r.hotLoop)];
    p.cyclesPerIteration = l.cyclesPerIteration;
    p.tripCount = l.iterations;
  }
  p.note = r.note;
  return p;
}

Expected<std::vector<uint8_t>> readFile(const std::string &path) {
  auto buf = MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buf)
    return makeError("cannot read " + path + ": " + buf.getError().message());
  return std::vector<uint8_t>((*buf)->getBufferStart(), (*buf)->getBufferEnd());
}

struct GemmShape {
  uint64_t m, n, k;
  bool outBf16;
};

/// aiter's bf16 256x256 GEMM: D[M,N] = A[M,K] * B[N,K]^T ("tn"), grid
/// (N/256, M/256), 256 threads.
Expected<Prediction> predictGemm(const std::string &aiter, const GemmShape &s,
                                 unsigned iterations) {
  const char *kernel = "_ZN5aiter24bf16gemm_bf16_tn_256x256E";
  auto co = readFile(aiter + "/hsa/gfx950/bf16gemm/bf16gemm_bf16_tn_256x256.co");
  if (!co)
    return co.takeError();
  auto obj = CodeObject::parse(*co);
  if (!obj)
    return obj.takeError();
  const KernelInfo *info = obj->findKernel(kernel);
  if (!info)
    return makeError(Twine("the code object has no kernel ") + kernel);
  auto ctx = emu::Context::create();
  auto dev = ctx->addDevice(Chip::gfx950);
  if (!dev)
    return dev.takeError();
  emu::Device &d = **dev;
  uint32_t state = 2024;
  // The kernel loads whole 256-row tiles and relies on the allocation
  // behind a tail being readable, as a framework's allocator (2 MiB
  // granules) makes it on hardware: allocate whole tiles.
  uint64_t mTiles = (s.m + 255) / 256 * 256, nTiles = (s.n + 255) / 256 * 256;
  auto a = upload(d, mTiles * s.k, state);
  if (!a)
    return a.takeError();
  auto b = upload(d, nTiles * s.k, state);
  if (!b)
    return b.takeError();
  unsigned outBytes = s.outBf16 ? 2 : 4;
  auto out = d.allocate(mTiles * nTiles * outBytes);
  if (!out)
    return out.takeError();
  SlotArgs args(info->explicitArgsSize());
  args.set(0, *out);          // D
  args.set(1, *out);          // C (beta = 0: not read)
  args.set(2, *a);            // A
  args.set(3, *b);            // B
  args.set(4, 1.0f);          // alpha
  args.set(5, 0.0f);          // beta
  args.set(6, uint32_t(s.n * outBytes)); // stride_D0 (bytes)
  args.set(8, uint32_t(s.n * outBytes)); // stride_C0
  args.set(10, uint32_t(s.k * 2));       // stride_A0
  args.set(12, uint32_t(s.k * 2));       // stride_B0
  args.set(14, uint32_t(s.m));
  args.set(15, uint32_t(s.n));
  args.set(16, uint32_t(s.k));
  args.set(17, uint32_t(1));             // splitk
  args.set(18, uint32_t(s.outBf16));     // is_out_b16
  args.set(19, *out);                    // bias (add_bias = 0: not read)
  args.set(20, uint32_t(0));
  args.set(21, *out);                    // semaphore (split-K only)
  emu::LaunchOptions launch;
  launch.grid = {uint32_t((s.n + 255) / 256), uint32_t((s.m + 255) / 256), 1};
  launch.block = {256, 1, 1};
  timing::TimingOptions to;
  to.steadyStateIterations = iterations;
  to.flops = 2.0 * double(s.m) * double(s.n) * double(s.k);
  to.dramBytes = double(s.m * s.k + s.n * s.k) * 2 + double(s.m * s.n) * outBytes;
  auto r = timing::estimateLaunch(d, *co, kernel, launch, args.data(), to);
  if (!r)
    return r.takeError();
  return summarise(*r);
}

struct AttentionShape {
  uint64_t b, h, hkv, s, d;
};

/// aiter's FMHA forward v3 (gfx950, D = 128, bf16, non-causal, batch mode):
/// 256 queries per workgroup of 512 threads, grid (S/256, H, B); [B, S, H,
/// D] tensors.
Expected<Prediction> predictAttention(const std::string &aiter, const AttentionShape &s,
                                      unsigned iterations) {
  const char *kernel = "_ZN5aiter19fmha_fwd_hd128_bf16E";
  auto co = readFile(aiter + "/hsa/gfx950/fmha_v3_fwd/fwd_hd128_bf16.co");
  if (!co)
    return co.takeError();
  auto obj = CodeObject::parse(*co);
  if (!obj)
    return obj.takeError();
  const KernelInfo *info = obj->findKernel(kernel);
  if (!info)
    return makeError(Twine("the code object has no kernel ") + kernel);
  auto ctx = emu::Context::create();
  auto dev = ctx->addDevice(Chip::gfx950);
  if (!dev)
    return dev.takeError();
  emu::Device &d = **dev;
  uint32_t state = 7;
  uint64_t qElems = s.b * s.s * s.h * s.d, kvElems = s.b * s.s * s.hkv * s.d;
  auto q = upload(d, qElems, state);
  if (!q)
    return q.takeError();
  auto k = upload(d, kvElems, state);
  if (!k)
    return k.takeError();
  auto v = upload(d, kvElems, state);
  if (!v)
    return v.takeError();
  auto o = d.allocate(qElems * 2);
  if (!o)
    return o.takeError();
  auto lse = d.allocate(s.b * s.h * s.s * 4);
  if (!lse)
    return lse.takeError();
  const uint32_t bpe = 2, tsQo = 256;
  uint32_t tokQ = uint32_t(s.h * s.d * bpe), tokKv = uint32_t(s.hkv * s.d * bpe);
  SlotArgs args(info->explicitArgsSize());
  args.set(0, *o);
  args.set(1, *q);
  args.set(2, *k);
  args.set(3, *v);
  args.set(4, *lse);
  args.set(5, float(1.0 / std::sqrt(double(s.d)))); // softmax scale
  args.set(6, uint32_t(s.s));                        // seq_len
  args.set(7, tokQ);                                  // Seqs: query row stride
  args.set(8, tsQo * tokQ);                           // Ts: a workgroup's rows
  args.set(9, uint32_t(s.d * bpe));                   // Hs: head stride
  args.set(10, uint32_t(s.s) * tokQ);                 // Bs: batch stride
  args.set(11, uint32_t(s.h / s.hkv));                // gqa
  args.set(12, tokKv);                                // k_Seqs
  args.set(13, uint32_t(s.d * bpe));                  // k_Hs
  args.set(14, uint32_t(s.s) * tokKv);                // k_Bs
  args.set(15, uint32_t(5));                          // opt (aiter's default)
  args.set(16, uint32_t(0));                          // lse off
  args.set(17, uint32_t(s.s));                        // kv_seq_len
  args.set(18, uint32_t(s.d));                        // qk head dim
  args.set(19, uint32_t(s.d));                        // v head dim
  args.set(20, uint32_t(s.h));                        // q heads
  args.set(21, tokKv);                                // v_Seqs
  args.set(22, uint32_t(s.d * bpe));                  // v_Hs
  args.set(23, uint32_t(s.s) * tokKv);                // v_Bs
  args.set(24, tokQ);                                 // o_Seqs
  args.set(25, uint32_t(s.d * bpe));                  // o_Hs
  args.set(26, uint32_t(s.s) * tokQ);                 // o_Bs
  args.set(29, uint32_t(s.s * 4));                    // lse_Hs
  emu::LaunchOptions launch;
  launch.grid = {uint32_t((s.s + tsQo - 1) / tsQo), uint32_t(s.h), uint32_t(s.b)};
  launch.block = {512, 1, 1};
  timing::TimingOptions to;
  to.steadyStateIterations = iterations;
  to.flops = 4.0 * double(s.b * s.h) * double(s.s) * double(s.s) * double(s.d);
  to.dramBytes = double(qElems * 2 + kvElems * 2) * bpe;
  auto r = timing::estimateLaunch(d, *co, kernel, launch, args.data(), to);
  if (!r)
    return r.takeError();
  return summarise(*r);
}

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
              const Prediction &p, StringRef source) {
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
  const char *dir = std::getenv("KCC_AITER_DIR");
  if (!dir || !*dir) {
    outs() << "calibration_bench: set KCC_AITER_DIR to a checkout of AMD's aiter, e.g.\n"
              "  git clone --depth 1 https://github.com/ROCm/aiter /tmp/aiter\n"
              "  KCC_AITER_DIR=/tmp/aiter build/bin/calibration_bench\n"
              "It runs aiter's code objects (hsa/gfx950/...) on the emulator and compares the\n"
              "timing model with AMD's hardware measurements; nothing of aiter is in kcc's tree.\n";
    return 0;
  }
  std::string aiter = dir;
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
  auto fitPoint = [&](const Prediction &pr, double measuredTflops) {
    double atPeak = pr.tflops * p.clockGHz / pr.clockGHz;
    fit.push_back({pr.mfmaBusy, measuredTflops / atPeak});
  };

  // Anchor 1: the GEMM.
  GemmShape anchor{8192, 8192, 8192, true};
  if (auto g = predictGemm(aiter, anchor, iterations)) {
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
  AttentionShape fa{1, 64, 8, 16384, 128};
  if (auto a = predictAttention(aiter, fa, iterations)) {
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
    auto g = predictGemm(aiter, r.shape, iterations);
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
