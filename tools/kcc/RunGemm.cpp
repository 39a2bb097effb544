//===- RunGemm.cpp - `kcc run gemm` ---------------------------------------===//
//
// The runner of the GEMM (kernels/gemm/GemmOp.h): operand dtypes and bias from
// the kernel's -D parameters, inputs from .npy files or random, ops::gemm on
// the device, outputs written as .npy, and the result compared with a
// reference .npy (--reference) or a float64 host computation (--verify).
//
//===----------------------------------------------------------------------===//
#include "tools/kcc/HostMatrix.h"
#include "tools/kcc/RunKernelOptions.h"
#include "kernels/gemm/GemmOp.h"
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
#include <cstring>
#include <random>
#include <tuple>

using namespace llvm;

namespace kcc::runkernel {
namespace {

/// Compares `got` with `ref` elementwise: |got - ref| <= atol + rtol |ref|.
/// Prints one line and returns whether all elements pass.
bool compare(const HostMatrix &got, const HostMatrix &ref, double atol,
             double rtol, StringRef against) {
  size_t n = size_t(got.rows * got.cols), bad = 0, firstBad = 0;
  double maxAbs = 0, maxRel = 0;
  for (size_t i = 0; i < n; ++i) {
    double g = got.at(i), r = ref.at(i), e = std::fabs(g - r);
    if (!(e <= atol + rtol * std::fabs(r))) {
      if (!bad)
        firstBad = i;
      ++bad;
    }
    if (!std::isnan(e)) {
      maxAbs = std::max(maxAbs, e);
      if (r != 0)
        maxRel = std::max(maxRel, e / std::fabs(r));
    } else {
      maxAbs = INFINITY;
    }
  }
  outs() << "compare c with " << against << ": max abs error "
         << format("%.3g", maxAbs) << ", max rel error " << format("%.3g", maxRel)
         << " (atol " << format("%g", atol) << ", rtol " << format("%g", rtol)
         << "): ";
  if (bad) {
    outs() << bad << " of " << n << " elements differ, first c["
           << firstBad / got.cols << "][" << firstBad % got.cols << "] = "
           << got.at(firstBad) << " vs " << ref.at(firstBad) << " -> FAIL\n";
    return false;
  }
  outs() << "PASS\n";
  return true;
}

} // namespace

/// `kcc run gemm`: C = A B^T (+ bias) through ops::gemm.
int runGemm(const Options &o) {
  if (o.causal || o.scale)
    return fail(std::string(o.causal ? "--causal" : "--scale") +
                " is an option of attention, not of gemm");
  // FP8 and i8 inputs take the 8-bit GEMMs (RunQuantGemm.cpp).
  std::string dtypeText = define(o, "DTYPE").value_or("bf16");
  if (dtypeText == "fp8" || dtypeText == "e4m3fn" || dtypeText == "e4m3fnuz" ||
      dtypeText == "i8")
    return runQuantGemm(o);
  // Operand dtypes and bias come from the kernel's own parameters, so that
  // `-D` means the same here as for `kcc gemm.mlir`.
  std::optional<DType> in = parseDType(dtypeText);
  std::optional<DType> out = parseDType(define(o, "OUT").value_or("f32"));
  if (!in || *in == DType::f32 || *in == DType::i32)
    return fail("-D DTYPE must be bf16, f16, fp8 (the device's e4m3) or i8");
  if (!out || *out == DType::i32)
    return fail("-D OUT must be bf16, f16 or f32");
  Expected<bool> biasFlag = defineFlag(o, "HAS_BIAS", false);
  if (!biasFlag)
    return fail(toString(biasFlag.takeError()));
  bool hasBias = *biasFlag;
  std::vector<std::string> tuning = tuningDefines(o, {"DTYPE", "OUT", "HAS_BIAS"});
  for (const auto &e : o.shape)
    if (e.getKey() != "M" && e.getKey() != "N" && e.getKey() != "K")
      return fail("--shape takes M, N and K; got '" + e.getKey() + "'");
  for (const auto &e : o.inputs)
    if (e.getKey() != "a" && e.getKey() != "bt" && e.getKey() != "bias")
      return fail("gemm's inputs are a, bt and bias; got '" + e.getKey() + "'");
  if (o.inputs.count("bias") && !hasBias)
    return fail("--inputs gives a bias but the kernel runs without one; add -D HAS_BIAS=1");

  // Inputs: from .npy where given, random otherwise; shapes from --shape,
  // else from the files.
  std::mt19937_64 rng(o.seed);
  auto lookupShape = [&](StringRef k) -> std::optional<int64_t> {
    auto it = o.shape.find(k);
    return it == o.shape.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  std::optional<HostMatrix> a, bt, bias;
  for (auto [name, slot] : {std::pair<const char *, std::optional<HostMatrix> *>{"a", &a},
                            {"bt", &bt}, {"bias", &bias}}) {
    Expected<std::optional<NpyArray>> npy = readInput(o, name);
    if (!npy)
      return fail(toString(npy.takeError()));
    if (!*npy)
      continue;
    Expected<HostMatrix> m = fromNpy(**npy, *in, name, o.inputs.lookup(name));
    if (!m)
      return fail(toString(m.takeError()));
    *slot = std::move(*m);
  }
  std::optional<int64_t> M = lookupShape("M"), N = lookupShape("N"), K = lookupShape("K");
  if (a) {
    if (M && *M != a->rows) return fail("--shape M=" + Twine(*M) + " but a has " + Twine(a->rows) + " rows");
    if (K && *K != a->cols) return fail("--shape K=" + Twine(*K) + " but a has " + Twine(a->cols) + " columns");
    M = a->rows;
    K = a->cols;
  }
  if (bt) {
    if (N && *N != bt->rows) return fail("--shape N=" + Twine(*N) + " but bt has " + Twine(bt->rows) + " rows");
    if (K && *K != bt->cols) return fail("bt has " + Twine(bt->cols) + " columns; K is " + Twine(*K));
    N = bt->rows;
    K = bt->cols;
  }
  if (!M || !N || !K)
    return fail("the GEMM's shape is unknown; give --shape M=..,N=..,K=.. "
                "(or --inputs a=..,bt=..)");
  if (*M <= 0 || *N <= 0 || *K <= 0)
    return fail("--shape needs positive M, N and K");
  if (!a) a = randomMatrix(*in, *M, *K, rng);
  if (!bt) bt = randomMatrix(*in, *N, *K, rng);
  if (hasBias && !bias) bias = randomMatrix(*in, 1, *N, rng);
  // One value per column of C: a bias of another length would be read in
  // part, or past its end.
  if (bias && (bias->rows != 1 || bias->cols != *N))
    return fail("input 'bias' (" + o.inputs.lookup("bias") + ") is " + Twine(bias->rows) +
                "x" + Twine(bias->cols) + "; expected a vector of N = " + Twine(*N) +
                " values");

  Expected<std::unique_ptr<Runtime>> rt = Runtime::create();
  if (!rt)
    return fail(toString(rt.takeError()));
  Expected<Device &> device = openDevice(**rt, o);
  if (!device)
    return fail(toString(device.takeError()));

  // Compile first, separately, to report where the code object came from;
  // ops::gemm then finds it in the JIT's memory cache.
  std::vector<std::string> params =
      ops::gemmParams(device->chip(), *in, *out, hasBias,
                      {int64_t(*M), int64_t(*N), int64_t(*K)}, tuning);
  if (Error e = ops::checkGemmParams(params, int64_t(*K) + int64_t(*K) % 2))
    return fail(toString(std::move(e)));
  Expected<CompiledKernel> compiled =
      Jit::shared().compile("gemm", params, device->chip());
  if (!compiled)
    return fail(toString(compiled.takeError()));
  outs() << "gemm " << *M << "x" << *N << "x" << *K << " " << dtypeName(*in)
         << " -> " << dtypeName(*out) << (hasBias ? " + bias" : "") << " on "
         << device->spec() << " (" << device->description() << ")\n";
  outs() << "compile: " << cacheOutcomeName(compiled->outcome) << " in "
         << format("%.3f", compiled->seconds * 1e3) << " ms ("
         << join(params, " ") << "; cache " << Jit::shared().cacheDirectory()
         << ")\n";

  auto upload = [&](const HostMatrix &m) {
    return Buffer::fromHost(*device, ArrayRef<uint8_t>(m.bytes));
  };
  Expected<Buffer> da = upload(*a), dbt = upload(*bt);
  if (!da) return fail(toString(da.takeError()));
  if (!dbt) return fail(toString(dbt.takeError()));
  std::optional<Buffer> dbias;
  if (bias) {
    Expected<Buffer> b = upload(*bias);
    if (!b) return fail(toString(b.takeError()));
    dbias.emplace(std::move(*b));
  }
  Expected<Buffer> dc = Buffer::allocate(*device, uint64_t(*M) * *N * dtypeSize(*out));
  if (!dc) return fail(toString(dc.takeError()));
  std::optional<VectorRef> biasRef;
  if (dbias)
    biasRef = VectorRef(*dbias, *in, *N);
  ops::GemmOptions go;
  go.params = tuning;
  Expected<std::unique_ptr<OpTiming>> timing =
      OpTiming::start(*device, o, 2.0 * double(*M) * double(*N) * double(*K));
  if (!timing)
    return fail(toString(timing.takeError()));
  Expected<LaunchResult> r = ops::gemm({*da, *in, *M, *K}, {*dbt, *in, *N, *K},
                                       {*dc, *out, *M, *N}, biasRef, go);
  if (!r)
    return fail(toString(r.takeError()));
  if (*timing) {
    if (Error e = (*timing)->print(*r))
      return fail(toString(std::move(e)));
    // The model watches the op's first launch; a split K adds a second.
    if (ops::gemmSplits(params) > 1)
      outs() << "timing: the GEMM kernel's launch only; the split-K reduction "
                "(gemm_reduce) is a second launch, not timed (gemm_bench adds it)\n";
    // In steady state (or the first round alone) only the first CU's
    // workgroups ran: there is no output to write or compare.
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

  double flops = 2.0 * double(*M) * double(*N) * double(*K);
  if (r->deviceMilliseconds)
    outs() << "time: " << format("%.4f", *r->deviceMilliseconds) << " ms (HIP events), "
           << format("%.2f", flops / (*r->deviceMilliseconds * 1e-3) / 1e12)
           << " TFLOP/s\n";
  if (r->waveInstructions)
    outs() << "emulated: " << *r->waveInstructions << " wave instructions in "
           << r->workgroups << " workgroups (" << format("%.3f", r->hostSeconds)
           << " s on the host; no GPU time on the emulator)"
           << (o.check ? "; check mode: clean" : "") << "\n";

  if (!o.outputs.empty()) {
    if (std::error_code ec = sys::fs::create_directories(o.outputs))
      return fail("cannot create '" + o.outputs + "': " + ec.message());
    auto write = [&](StringRef name, const HostMatrix &m, bool vector) -> Error {
      SmallString<256> p(o.outputs);
      sys::path::append(p, name + ".npy");
      if (Error e = writeNpy(p, toNpy(m, vector)))
        return e;
      outs() << "wrote " << p
             << (m.dtype == DType::bf16 ? " (bf16 stored as '<u2' bits)" : "")
             << "\n";
      return Error::success();
    };
    for (auto [name, m, vec] :
         {std::tuple<const char *, const HostMatrix *, bool>{"a", &*a, false},
          {"bt", &*bt, false}, {"bias", bias ? &*bias : nullptr, true},
          {"c", &c, false}})
      if (m)
        if (Error e = write(name, *m, vec))
          return fail(toString(std::move(e)));
  }

  // Default tolerances: a few roundings of the output type.
  double defAtol = *out == DType::f32 ? 1e-4 : *out == DType::f16 ? 2e-3 : 2e-2;
  double atol = o.atol.value_or(defAtol), rtol = o.rtol.value_or(defAtol);
  bool ok = true;
  if (!o.reference.empty()) {
    Expected<NpyArray> ref = readNpy(o.reference);
    if (!ref)
      return fail(toString(ref.takeError()));
    // The reference keeps its own precision: f32 stays f32, '<u2' is bf16.
    DType refType = ref->type == NpyType::F32   ? DType::f32
                    : ref->type == NpyType::F16 ? DType::f16
                                                : DType::bf16;
    Expected<HostMatrix> rm = fromNpy(*ref, refType, "reference", o.reference);
    if (!rm)
      return fail(toString(rm.takeError()));
    if (rm->rows != c.rows || rm->cols != c.cols)
      return fail("reference " + o.reference + " is " + Twine(rm->rows) + "x" +
                  Twine(rm->cols) + "; c is " + Twine(c.rows) + "x" + Twine(c.cols));
    ok &= compare(c, *rm, atol, rtol, o.reference);
  }
  if (o.verify) {
    HostMatrix ref;
    ref.dtype = DType::f32;
    ref.rows = *M;
    ref.cols = *N;
    ref.bytes.resize(size_t(*M) * *N * 4);
    for (int64_t m = 0; m < *M; ++m)
      for (int64_t n = 0; n < *N; ++n) {
        double s = bias ? bias->at(n) : 0.0;
        for (int64_t k = 0; k < *K; ++k)
          s += a->at(m * *K + k) * bt->at(n * *K + k);
        float f = float(s);
        std::memcpy(&ref.bytes[4 * (m * *N + n)], &f, 4);
      }
    ok &= compare(c, ref, atol, rtol, "the float64 host reference");
  }
  return ok ? 0 : 1;
}

} // namespace kcc::runkernel
