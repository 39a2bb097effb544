//===- RunQuantGemm.cpp - `kcc run gemm -D DTYPE=fp8|i8` ------------------===//
//
// The runner of the 8-bit GEMMs (kernels/gemm/QuantGemmOp.h): A and Bt in
// the device's e4m3 ('|u1' codes in .npy, or random normal values rounded
// to it) or in i8 ('|i1', or random), f32 scales whose granularity is -D
// ASCALE / BSCALE (0 per tensor, 1 per row, 2 128-deep blocks, FP8 only:
// the kernel's parameters; default blocks for FP8, rows for i8) or the
// shape of the files given (--inputs a_scale=, b_scale=), ops::gemmFp8 or
// ops::gemmInt8 on the device, and C compared with a float64 reference of
// the inputs times each K block's scales (--verify), within a bound derived
// from the arithmetic unless --atol / --rtol.
//
//===----------------------------------------------------------------------===//
#include "tools/kcc/HostMatrix.h"
#include "tools/kcc/RunKernelOptions.h"
#include "kernels/gemm/QuantGemmOp.h"
#include "runtime/Jit.h"
#include "runtime/Npy.h"
#include "runtime/Runtime.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <random>
#include <tuple>

using namespace llvm;

namespace kcc::runkernel {

using ops::ScaleGranularity;

int runQuantGemm(const Options &o) {
  std::string dtypeText = define(o, "DTYPE").value_or("fp8");
  bool int8 = dtypeText == "i8";
  std::optional<DType> out = parseDType(define(o, "OUT").value_or("bf16"));
  if (!out || !(*out == DType::bf16 || *out == DType::f16 || *out == DType::f32))
    return fail("-D OUT must be bf16, f16 or f32");
  Expected<bool> biasFlag = defineFlag(o, "HAS_BIAS", false);
  if (!biasFlag)
    return fail(toString(biasFlag.takeError()));
  std::optional<DType> biasType;
  if (*biasFlag) {
    biasType = parseDType(define(o, "BDTYPE").value_or("f32"));
    if (!biasType || !(*biasType == DType::bf16 || *biasType == DType::f16 ||
                       *biasType == DType::f32))
      return fail("-D BDTYPE (the bias's dtype) must be bf16, f16 or f32");
  }
  for (const auto &e : o.shape)
    if (e.getKey() != "M" && e.getKey() != "N" && e.getKey() != "K")
      return fail("--shape takes M, N and K; got '" + e.getKey() + "'");
  for (const auto &e : o.inputs)
    if (!is_contained({"a", "bt", "a_scale", "b_scale", "bias"}, e.getKey()))
      return fail(std::string(int8 ? "the int8" : "the FP8") +
                  " gemm's inputs are a, bt, a_scale, b_scale and bias; got '" +
                  e.getKey() + "'");
  if (o.inputs.count("bias") && !biasType)
    return fail("--inputs gives a bias but the kernel runs without one; add -D HAS_BIAS=1");
  // The scales' granularity: the files' shapes where given, else -D.
  auto granularity = [&](StringRef param, StringRef input) -> Expected<std::optional<ScaleGranularity>> {
    std::optional<std::string> v = define(o, param);
    if (v && o.inputs.count(input))
      return makeError("-D " + param + " and --inputs " + input +
                       "= both give the granularity; the file's shape decides, drop -D " + param);
    if (!v)
      return std::optional<ScaleGranularity>(
          o.inputs.count(input) ? std::nullopt
                                : std::optional(int8 ? ScaleGranularity::rows
                                                     : ScaleGranularity::blocks));
    if (*v == "0") return std::optional(ScaleGranularity::tensor);
    if (*v == "1") return std::optional(ScaleGranularity::rows);
    if (*v == "2") return std::optional(ScaleGranularity::blocks);
    return makeError("-D " + param + "=" + *v +
                     ": the granularity is 0 (per tensor), 1 (per row) or 2 (128-deep blocks)");
  };
  Expected<std::optional<ScaleGranularity>> ga = granularity("ASCALE", "a_scale");
  if (!ga) return fail(toString(ga.takeError()));
  Expected<std::optional<ScaleGranularity>> gb = granularity("BSCALE", "b_scale");
  if (!gb) return fail(toString(gb.takeError()));
  std::vector<std::string> tuning =
      tuningDefines(o, {"DTYPE", "OUT", "HAS_BIAS", "BDTYPE", "ASCALE", "BSCALE"});

  Expected<std::unique_ptr<Runtime>> rt = Runtime::create();
  if (!rt)
    return fail(toString(rt.takeError()));
  Expected<Device &> device = openDevice(**rt, o);
  if (!device)
    return fail(toString(device.takeError()));
  // "fp8" is the device's e4m3; an encoding named outright must be it.
  DType in = int8 ? DType::i8 : ops::fp8DTypeOf(device->chip());
  if (dtypeText != "fp8" && !int8) {
    std::optional<DType> named = parseDType(dtypeText);
    if (!named || !isFp8(*named))
      return fail("-D DTYPE=" + dtypeText + " is not an FP8 encoding (fp8, e4m3fn, e4m3fnuz)");
    if (*named != in)
      return fail("-D DTYPE=" + dtypeText + ", but " + device->spec() + "'s matrix cores take " +
                  dtypeName(in) + "; give -D DTYPE=fp8 (the device's e4m3)");
  }

  std::mt19937_64 rng(o.seed);
  std::optional<HostMatrix> a, bt, sa, sb, bias;
  for (auto [name, slot, type] :
       {std::tuple<const char *, std::optional<HostMatrix> *, DType>{"a", &a, in},
        {"bt", &bt, in}, {"a_scale", &sa, DType::f32}, {"b_scale", &sb, DType::f32},
        {"bias", &bias, biasType.value_or(DType::f32)}}) {
    Expected<std::optional<NpyArray>> npy = readInput(o, name);
    if (!npy)
      return fail(toString(npy.takeError()));
    if (!*npy)
      continue;
    Expected<HostMatrix> m = fromNpy(**npy, type, name, o.inputs.lookup(name));
    if (!m)
      return fail(toString(m.takeError()));
    // A 1-D scale file is a column, one scale per row (fromNpy reads a
    // vector as one row); a 2-D one (a [1, K/128] block row at M = 1
    // included) keeps its shape.
    bool scale = slot == &sa || slot == &sb;
    if (scale && (*npy)->shape.size() == 1)
      std::swap(m->rows, m->cols);
    *slot = std::move(*m);
  }
  auto lookupShape = [&](StringRef k) -> std::optional<int64_t> {
    auto it = o.shape.find(k);
    return it == o.shape.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  std::optional<int64_t> M = lookupShape("M"), N = lookupShape("N"), K = lookupShape("K");
  if (a) {
    if ((M && *M != a->rows) || (K && *K != a->cols))
      return fail("input 'a' is " + Twine(a->rows) + "x" + Twine(a->cols) +
                  "; --shape says otherwise");
    M = a->rows;
    K = a->cols;
  }
  if (bt) {
    if ((N && *N != bt->rows) || (K && *K != bt->cols))
      return fail("input 'bt' is " + Twine(bt->rows) + "x" + Twine(bt->cols) +
                  "; expected N x K = " + (N ? Twine(*N) : Twine("N")) + "x" +
                  (K ? Twine(*K) : Twine("K")));
    N = bt->rows;
    K = bt->cols;
  }
  if (!M || !N || !K)
    return fail("the GEMM's shape is unknown; give --shape M=..,N=..,K=.. "
                "(or --inputs a=..,bt=..)");
  if (*M <= 0 || *N <= 0 || *K <= 0)
    return fail("--shape needs positive M, N and K");
  int64_t kb = (*K + 127) / 128, nb = (*N + 127) / 128;
  if (!a) a = randomMatrix(in, *M, *K, rng);
  if (!bt) bt = randomMatrix(in, *N, *K, rng);
  // Random scales: powers of two from 1/8 to 8, so that a scale applied to
  // the wrong block shows.
  auto randomScales = [&](int64_t rows, int64_t cols) {
    std::uniform_int_distribution<int> e(-3, 3);
    HostMatrix m;
    m.dtype = DType::f32;
    m.rows = rows;
    m.cols = cols;
    m.bytes.resize(size_t(rows * cols) * 4);
    for (int64_t i = 0; i < rows * cols; ++i) {
      float f = std::ldexp(1.0f, e(rng));
      std::memcpy(&m.bytes[4 * i], &f, 4);
    }
    return m;
  };
  auto shapeOf = [&](ScaleGranularity g, int64_t rows, int64_t blockRows) {
    return g == ScaleGranularity::tensor ? std::pair<int64_t, int64_t>{1, 1}
           : g == ScaleGranularity::rows ? std::pair<int64_t, int64_t>{rows, 1}
                                         : std::pair<int64_t, int64_t>{blockRows, kb};
  };
  if (!sa) {
    auto [r, c] = shapeOf(**ga, *M, *M);
    sa = randomScales(r, c);
  }
  if (!sb) {
    auto [r, c] = shapeOf(**gb, *N, nb);
    sb = randomScales(r, c);
  }
  if (biasType && !bias) bias = randomMatrix(*biasType, 1, *N, rng);
  if (bias && (bias->rows != 1 || bias->cols != *N))
    return fail("input 'bias' is " + Twine(bias->rows) + "x" + Twine(bias->cols) +
                "; expected a vector of N = " + Twine(*N) + " values");

  auto upload = [&](const HostMatrix &m) {
    return Buffer::fromHost(*device, ArrayRef<uint8_t>(m.bytes));
  };
  Expected<Buffer> da = upload(*a), dbt = upload(*bt), dsa = upload(*sa), dsb = upload(*sb);
  for (Expected<Buffer> *b : {&da, &dbt, &dsa, &dsb})
    if (!*b)
      return fail(toString(b->takeError()));
  std::optional<Buffer> dbias;
  if (bias) {
    Expected<Buffer> b = upload(*bias);
    if (!b) return fail(toString(b.takeError()));
    dbias.emplace(std::move(*b));
  }
  Expected<Buffer> dc = Buffer::allocate(*device, uint64_t(*M) * *N * dtypeSize(*out));
  if (!dc) return fail(toString(dc.takeError()));
  MatrixRef ra(*da, in, *M, *K), rbt(*dbt, in, *N, *K), rsa(*dsa, DType::f32, sa->rows, sa->cols),
      rsb(*dsb, DType::f32, sb->rows, sb->cols), rc(*dc, *out, *M, *N);
  std::optional<VectorRef> biasRef;
  if (dbias)
    biasRef = VectorRef(*dbias, *biasType, *N);
  // The scales' meaning as the op reads it (also the check of their shapes).
  if (Error e = int8 ? ops::checkGemmInt8(ra, rbt, rsa, rsb, rc, biasRef)
                     : ops::checkGemmFp8(ra, rbt, rsa, rsb, rc, biasRef))
    return fail(toString(std::move(e)));
  auto g = cantFail(ops::scaleGranularities(rsa, rsb, *M, *N, *K));
  if (int8 && g.first == ScaleGranularity::blocks) // K of one block: per row
    g = {sa->rows == 1 ? ScaleGranularity::tensor : ScaleGranularity::rows,
         sb->rows == 1 ? ScaleGranularity::tensor : ScaleGranularity::rows};
  std::vector<std::string> params =
      int8 ? ops::gemmInt8Params(device->chip(), *out, g.first, g.second, biasType,
                                 {*M, *N, *K}, tuning)
           : ops::gemmFp8Params(device->chip(), *out, g.first, g.second, biasType,
                                {*M, *N, *K}, tuning);
  Expected<CompiledKernel> compiled = Jit::shared().compile("gemm_q8", params, device->chip());
  if (!compiled)
    return fail(toString(compiled.takeError()));
  outs() << (int8 ? "gemm_i8 " : "gemm_fp8 ") << *M << "x" << *N << "x" << *K << " " << dtypeName(in) << " (A "
         << ops::scaleGranularityName(g.first) << ", Bt " << ops::scaleGranularityName(g.second)
         << ") -> " << dtypeName(*out) << (bias ? " + bias" : "") << " on " << device->spec()
         << " (" << device->description() << ")\n";
  outs() << "compile: " << cacheOutcomeName(compiled->outcome) << " in "
         << format("%.3f", compiled->seconds * 1e3) << " ms (" << join(params, " ")
         << "; cache " << Jit::shared().cacheDirectory() << ")\n";

  ops::GemmOptions go;
  go.params = tuning;
  double flops = 2.0 * double(*M) * double(*N) * double(*K);
  Expected<std::unique_ptr<OpTiming>> timing = OpTiming::start(*device, o, flops);
  if (!timing)
    return fail(toString(timing.takeError()));
  Expected<LaunchResult> r = int8 ? ops::gemmInt8(ra, rbt, rsa, rsb, rc, biasRef, go)
                                  : ops::gemmFp8(ra, rbt, rsa, rsb, rc, biasRef, go);
  if (!r)
    return fail(toString(r.takeError()));
  if (*timing) {
    if (Error e = (*timing)->print(*r))
      return fail(toString(std::move(e)));
    if (o.timing.partialRun())
      return 0;
  }
  HostMatrix c;
  c.dtype = *out;
  c.rows = *M;
  c.cols = *N;
  c.bytes.resize(dc->size());
  if (Error e = dc->read(c.bytes.data(), c.bytes.size()))
    return fail(toString(std::move(e)));
  if (r->deviceMilliseconds)
    outs() << "time: " << format("%.4f", *r->deviceMilliseconds) << " ms (HIP events), "
           << format("%.2f", flops / (*r->deviceMilliseconds * 1e-3) / 1e12) << " TFLOP/s\n";
  if (r->waveInstructions)
    outs() << "emulated: " << *r->waveInstructions << " wave instructions in "
           << r->workgroups << " workgroups (" << format("%.3f", r->hostSeconds)
           << " s on the host; no GPU time on the emulator)"
           << (o.check ? "; check mode: clean" : "") << "\n";

  if (!o.outputs.empty()) {
    if (std::error_code ec = sys::fs::create_directories(o.outputs))
      return fail("cannot create '" + o.outputs + "': " + ec.message());
    for (auto [name, m, vec] :
         {std::tuple<const char *, const HostMatrix *, bool>{"a", &*a, false},
          {"bt", &*bt, false}, {"a_scale", &*sa, false}, {"b_scale", &*sb, false},
          {"bias", bias ? &*bias : nullptr, true}, {"c", &c, false}}) {
      if (!m)
        continue;
      SmallString<256> p(o.outputs);
      sys::path::append(p, std::string(name) + ".npy");
      if (Error e = writeNpy(p, toNpy(*m, vec)))
        return fail(toString(std::move(e)));
      outs() << "wrote " << p
             << (m->dtype == DType::bf16 ? " (bf16 stored as '<u2' bits)"
                 : isFp8(m->dtype)       ? " (FP8 stored as '|u1' bits)"
                 : m->dtype == DType::i8 ? " ('|i1')"
                                         : "")
             << "\n";
    }
  }
  bool ok = true;
  if (!o.reference.empty()) {
    // Against a file: |c - ref| <= atol + rtol |ref| (both 0 unless given).
    Expected<NpyArray> ref = readNpy(o.reference);
    if (!ref)
      return fail(toString(ref.takeError()));
    DType refType = ref->type == NpyType::F32   ? DType::f32
                    : ref->type == NpyType::F16 ? DType::f16
                                                : DType::bf16;
    Expected<HostMatrix> rm = fromNpy(*ref, refType, "reference", o.reference);
    if (!rm)
      return fail(toString(rm.takeError()));
    if (rm->rows != c.rows || rm->cols != c.cols)
      return fail("reference " + o.reference + " is " + Twine(rm->rows) + "x" +
                  Twine(rm->cols) + "; c is " + Twine(c.rows) + "x" + Twine(c.cols));
    double atol = o.atol.value_or(0), rtol = o.rtol.value_or(0), maxAbs = 0;
    size_t bad = 0;
    for (size_t i = 0; i < size_t(c.rows * c.cols); ++i) {
      double e = std::fabs(c.at(i) - rm->at(i));
      maxAbs = std::isnan(e) ? INFINITY : std::max(maxAbs, e);
      bad += !(e <= atol + rtol * std::fabs(rm->at(i)));
    }
    outs() << "compare c with " << o.reference << ": max abs error " << format("%.3g", maxAbs)
           << " (atol " << format("%g", atol) << ", rtol " << format("%g", rtol) << "): "
           << (bad ? Twine(bad) + " elements differ -> FAIL\n" : Twine("PASS\n"));
    ok = !bad;
  }
  if (!o.verify)
    return ok ? 0 : 1;

  // Reference: per K block, the float64 sum of decoded products times that
  // block's scales. Bound unless --atol/--rtol: FP8 products are exact in
  // f32, a block's sum rounds at most 128 times and the blocks' sum K/128
  // times (2^-24 of the magnitudes each), then C's rounding (half an ulp).
  auto scaleAt = [&](const HostMatrix &s, ScaleGranularity gr, int64_t row, int64_t blockRow,
                     int64_t q) {
    return gr == ScaleGranularity::tensor ? s.at(0)
           : gr == ScaleGranularity::rows ? s.at(size_t(row))
                                          : s.at(size_t(blockRow * kb + q));
  };
  double outUlp = *out == DType::bf16 ? 0x1p-8 : *out == DType::f16 ? 0x1p-11 : 0x1p-24;
  bool perElement = !o.atol && !o.rtol;
  double atol = o.atol.value_or(0), rtol = o.rtol.value_or(0);
  size_t bad = 0, firstBad = 0;
  double maxAbs = 0, maxRel = 0, worstRef = 0, worstGot = 0;
  for (int64_t m = 0; m < *M; ++m)
    for (int64_t n = 0; n < *N; ++n) {
      double ref = bias ? bias->at(size_t(n)) : 0.0, mag = std::fabs(ref);
      for (int64_t q = 0; q < kb; ++q) {
        double s = 0, sm = 0;
        for (int64_t k = q * 128; k < std::min(*K, q * 128 + 128); ++k) {
          double p = a->at(size_t(m * *K + k)) * bt->at(size_t(n * *K + k));
          s += p;
          sm += std::fabs(p);
        }
        double sc = scaleAt(*sa, g.first, m, m, q) * scaleAt(*sb, g.second, n, n / 128, q);
        ref += s * sc;
        mag += sm * std::fabs(sc);
      }
      size_t i = size_t(m * *N + n);
      double got = c.at(i), err = std::fabs(got - ref);
      double tol = perElement ? (128.0 + double(kb) + 4) * 0x1p-24 * mag +
                                    outUlp * std::fabs(ref) + 1e-30
                              : atol + rtol * std::fabs(ref);
      if (!(err <= tol)) {
        if (!bad++) {
          firstBad = i;
          worstRef = ref;
          worstGot = got;
        }
      }
      maxAbs = std::isnan(err) ? INFINITY : std::max(maxAbs, err);
      if (ref != 0 && !std::isnan(err))
        maxRel = std::max(maxRel, err / std::fabs(ref));
    }
  outs() << "compare c with the float64 host reference: max abs error " << format("%.3g", maxAbs)
         << ", max rel error " << format("%.3g", maxRel);
  if (perElement)
    outs() << " (per-element bound: f32 sums of exact " << (int8 ? "i8" : "FP8")
           << " products, then " << dtypeName(*out)
           << "'s rounding): ";
  else
    outs() << " (atol " << format("%g", atol) << ", rtol " << format("%g", rtol) << "): ";
  if (bad) {
    outs() << bad << " of " << (*M * *N) << " elements differ, first c[" << firstBad / *N << "]["
           << firstBad % *N << "] = " << worstGot << " vs " << worstRef << " -> FAIL\n";
    return 1;
  }
  outs() << "PASS\n";
  return ok ? 0 : 1;
}

} // namespace kcc::runkernel
