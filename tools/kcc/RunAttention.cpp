//===- RunAttention.cpp - `kcc run attention` -----------------------------===//
//
// The runner of the attention forward pass (kernels/attention/AttentionOp.h,
// the kernels fmha_fwd.mlir and fmha_fwd_fp8.mlir, also runnable as `kcc run
// fmha_fwd` and `kcc run fmha_fwd_fp8`): Q, K and V from .npy files
// (--inputs) or random from --seed, ops::attention_forward on the device,
// outputs written as .npy, and O and LSE compared with the float64 host
// reference (--verify). With -D DTYPE=fp8 (the chip's e4m3) the inputs are
// FP8 codes ('|u1' bits in .npy) with --descale factors, O is -D ODTYPE
// (bf16 by default), and the reference runs on the dequantised inputs.
//
//===----------------------------------------------------------------------===//
#include "tools/kcc/RunKernelOptions.h"
#include "kernels/attention/AttentionOp.h"
#include "runtime/Jit.h"
#include "runtime/Npy.h"
#include "runtime/Runtime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <tuple>

using namespace llvm;

namespace kcc::runkernel {

/// `kcc run attention`: inputs from files or random, ops::attention_forward
/// on the device, O and LSE against the float64 host reference.
int runAttention(const Options &o) {
  // FP8 is the chip's e4m3 ("fp8"), or an encoding named outright (a wrong
  // one for the chip is the op's error).
  std::string dtypeText =
      define(o, "DTYPE").value_or(o.kernel == "fmha_fwd_fp8" ? "fp8" : "bf16");
  if (dtypeText == "f8E4M3FN")
    dtypeText = "e4m3fn";
  if (dtypeText == "f8E4M3FNUZ")
    dtypeText = "e4m3fnuz";
  bool fp8 = dtypeText == "fp8" || dtypeText == "e4m3fn" || dtypeText == "e4m3fnuz";
  std::optional<DType> dtype = fp8 && dtypeText == "fp8" ? DType::e4m3fn : parseDType(dtypeText);
  if (!dtype || *dtype == DType::f32 || *dtype == DType::i32)
    return fail("-D DTYPE must be bf16, f16 or fp8 (the chip's e4m3: e4m3fn on gfx950, "
                "e4m3fnuz on gfx942)");
  std::optional<DType> odtype = fp8 ? DType::bf16 : *dtype;
  if (std::optional<std::string> ot = define(o, "ODTYPE")) {
    if (!fp8)
      return fail("-D ODTYPE is O's dtype with FP8 inputs (-D DTYPE=fp8); with " +
                  dtypeName(*dtype) + " inputs O is " + dtypeName(*dtype));
    odtype = parseDType(*ot);
    if (!odtype || (*odtype != DType::bf16 && *odtype != DType::f16))
      return fail("-D ODTYPE must be bf16 or f16");
  }
  if (!fp8 && !o.descale.empty())
    return fail("--descale gives FP8 inputs' descale factors; run -D DTYPE=fp8, or leave "
                "it out for " + dtypeName(*dtype));
  ops::AttentionDescale descale;
  descale.q = o.descale.lookup("q") ? o.descale.lookup("q") : 1.0;
  descale.k = o.descale.lookup("k") ? o.descale.lookup("k") : 1.0;
  descale.v = o.descale.lookup("v") ? o.descale.lookup("v") : 1.0;
  Expected<bool> causalFlag = defineFlag(o, "CAUSAL", o.causal);
  if (!causalFlag)
    return fail(toString(causalFlag.takeError()));
  Expected<bool> lseFlag = defineFlag(o, "LSE_OUT", true);
  if (!lseFlag)
    return fail(toString(lseFlag.takeError()));
  bool causal = *causalFlag, lse = *lseFlag;
  if (!o.reference.empty())
    return fail("attention takes no --reference; --verify compares o and lse with the "
                "float64 host reference on the same inputs (--outputs writes o.npy for "
                "your own comparison)");
  for (const auto &e : o.inputs)
    if (!is_contained({"q", "k", "v"}, e.getKey()))
      return fail("attention's inputs are q, k and v; got '" + e.getKey() + "'");
  for (const auto &e : o.shape)
    if (!is_contained({"B", "Sq", "Skv", "H", "Hkv", "D"}, e.getKey()))
      return fail("--shape takes B, Sq, Skv, H, Hkv and D; got '" + e.getKey() + "'");
  bool bf = *dtype == DType::bf16;
  NpyType half = fp8 ? NpyType::U8 : bf ? NpyType::U16 : NpyType::F16;
  bool obf = *odtype == DType::bf16;
  NpyType ohalf = obf ? NpyType::U16 : NpyType::F16;

  // Inputs from .npy files: [B, S, H, D] arrays of the kernel's dtype ('<u2'
  // bits for bf16, '<f2' for f16, '|u1' bits for FP8). Their shapes give the
  // dimensions --shape leaves out, and must agree with the ones it gives.
  std::map<std::string, NpyArray> given;
  StringMap<int64_t> dims = o.shape;
  for (const char *name : {"q", "k", "v"}) {
    Expected<std::optional<NpyArray>> npy = readInput(o, name);
    if (!npy)
      return fail(toString(npy.takeError()));
    if (!*npy)
      continue;
    const NpyArray &array = **npy;
    std::string file = o.inputs.lookup(name);
    if (array.type != half)
      return fail("input '" + Twine(name) + "' (" + file + ") holds '" +
                  npyDescr(array.type) + "' values; a " + (fp8 ? "fp8" : dtypeName(*dtype)) +
                  " attention takes '" + npyDescr(half) + "'" +
                  (fp8 ? " (FP8 bits)" : bf ? " (bf16 bits)" : "") +
                  (fp8  ? ""
                   : bf ? "; or run -D DTYPE=f16"
                        : "; or run -D DTYPE=bf16"));
    if (array.shape.size() != 4)
      return fail("input '" + Twine(name) + "' (" + file + ") has " +
                  Twine(array.shape.size()) + " dimensions; expected [B, S, H, D]");
    bool isQ = StringRef(name) == "q";
    const char *keys[4] = {"B", isQ ? "Sq" : "Skv", isQ ? "H" : "Hkv", "D"};
    for (int d = 0; d < 4; ++d) {
      int64_t extent = int64_t(array.shape[d]);
      auto [at, inserted] = dims.try_emplace(keys[d], extent);
      if (!inserted && at->second != extent)
        return fail("input '" + Twine(name) + "' (" + file + ") has " + keys[d] +
                    " = " + Twine(extent) + " but " +
                    (o.shape.count(keys[d]) ? "--shape gives " : "another input has ") +
                    Twine(at->second));
    }
    given[name] = std::move(**npy);
  }
  auto dim = [&](StringRef k) -> std::optional<int64_t> {
    auto it = dims.find(k);
    return it == dims.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  if (!dim("Sq"))
    return fail("the attention's shape is unknown; give --shape "
                "B=..,Sq=..,Skv=..,H=..,Hkv=..,D=.. (Sq at least: B and H default "
                "to 1, Skv to Sq, Hkv to H, D to 128) or --inputs q=..");
  ops::AttentionShape s;
  s.batch = dim("B").value_or(1);
  s.seqQ = *dim("Sq");
  s.seqKv = dim("Skv").value_or(s.seqQ);
  s.heads = dim("H").value_or(1);
  s.kvHeads = dim("Hkv").value_or(s.heads);
  s.headDim = dim("D").value_or(128);
  if (std::optional<std::string> d = define(o, "D"))
    if (*d != std::to_string(s.headDim))
      return fail("-D D=" + *d + " but the shape's D is " + Twine(s.headDim) +
                  "; give the head size once, in --shape");
  std::vector<std::string> tuning =
      tuningDefines(o, {"DTYPE", "ODTYPE", "CAUSAL", "LSE_OUT", "D"});
  // The sizes the host arrays need; the op checks everything else.
  for (int64_t x : {s.batch, s.seqQ, s.seqKv, s.heads, s.kvHeads, s.headDim})
    if (x < 1 || x > INT32_MAX)
      return fail("--shape needs B, Sq, Skv, H, Hkv and D between 1 and 2147483647");

  Expected<std::unique_ptr<Runtime>> rt = Runtime::create();
  if (!rt)
    return fail(toString(rt.takeError()));
  Expected<Device &> device = openDevice(**rt, o);
  if (!device)
    return fail(toString(device.takeError()));
  if (dtypeText == "fp8")
    dtype = ops::attentionFp8DType(device->chip());

  std::mt19937_64 rng(o.seed);
  std::normal_distribution<float> normal;
  uint64_t nq = uint64_t(s.batch) * s.seqQ * s.heads * s.headDim,
           nk = uint64_t(s.batch) * s.seqKv * s.kvHeads * s.headDim,
           nl = uint64_t(s.batch) * s.heads * s.seqQ;
  // Random from --seed where no file gives the input (drawn in q, k, v
  // order either way, so a given q leaves k and v as they were). FP8 codes
  // are of N(0, 1) / descale, so that the true values are of order 1.
  unsigned es = dtypeSize(*dtype);
  auto input = [&](const char *name, uint64_t n, double ds) {
    std::vector<uint8_t> bytes(n * es);
    for (uint64_t i = 0; i < n; ++i) {
      float x = normal(rng);
      if (fp8) {
        bytes[i] = floatToFp8(*dtype, float(x / ds));
        continue;
      }
      uint16_t b = bf ? floatToBf16(x) : floatToF16(x);
      std::memcpy(&bytes[i * 2], &b, 2);
    }
    auto it = given.find(name);
    if (it != given.end())
      std::memcpy(bytes.data(), it->second.data.data(), n * es);
    return bytes;
  };
  std::vector<uint8_t> q = input("q", nq, descale.q), k = input("k", nk, descale.k),
                       v = input("v", nk, descale.v);
  Expected<Buffer> dq = Buffer::fromHost(*device, q), dk = Buffer::fromHost(*device, k),
                   dv = Buffer::fromHost(*device, v);
  if (!dq) return fail(toString(dq.takeError()));
  if (!dk) return fail(toString(dk.takeError()));
  if (!dv) return fail(toString(dv.takeError()));
  Expected<Buffer> dout = Buffer::allocate(*device, nq * 2),
                   dlse = Buffer::allocate(*device, nl * 4);
  if (!dout) return fail(toString(dout.takeError()));
  if (!dlse) return fail(toString(dlse.takeError()));

  // Compile first, separately, to report where the code object came from;
  // the op then finds it in the JIT's memory cache.
  std::vector<std::string> params =
      fp8 ? ops::attentionFp8Params(device->chip(), *dtype, *odtype, s.headDim, causal, lse,
                                    tuning)
          : ops::attentionParams(device->chip(), *dtype, s.headDim, causal, lse, tuning);
  outs() << "attention B=" << s.batch << " Sq=" << s.seqQ << " Skv=" << s.seqKv
         << " H=" << s.heads << " Hkv=" << s.kvHeads << " D=" << s.headDim << " "
         << dtypeName(*dtype);
  if (fp8)
    outs() << " -> " << dtypeName(*odtype) << " (descale q=" << format("%g", descale.q)
           << " k=" << format("%g", descale.k) << " v=" << format("%g", descale.v) << ")";
  outs() << (causal ? " causal" : "") << " on " << device->spec() << " ("
         << device->description() << ")\n";
  // An unsupported D, or an FP8 encoding the chip lacks, is the op's to
  // explain, before anything compiles.
  if ((s.headDim == 64 || s.headDim == 128) &&
      (!fp8 || *dtype == ops::attentionFp8DType(device->chip()))) {
    Expected<CompiledKernel> compiled =
        Jit::shared().compile(ops::attentionKernelName(*dtype), params, device->chip());
    if (!compiled)
      return fail(toString(compiled.takeError()));
    outs() << "compile: " << cacheOutcomeName(compiled->outcome) << " in "
           << format("%.3f", compiled->seconds * 1e3) << " ms (" << join(params, " ")
           << "; cache " << Jit::shared().cacheDirectory() << ")\n";
  }

  ops::AttentionTensorRef tq(*dq, *dtype, s.batch, s.seqQ, s.heads, s.headDim),
      tk(*dk, *dtype, s.batch, s.seqKv, s.kvHeads, s.headDim),
      tv(*dv, *dtype, s.batch, s.seqKv, s.kvHeads, s.headDim),
      to(*dout, *odtype, s.batch, s.seqQ, s.heads, s.headDim);
  ops::AttentionOptions ao;
  ao.causal = causal;
  if (fp8)
    ao.descale = descale;
  ao.scale = o.scale;
  ao.params = tuning;
  if (lse)
    ao.lse = VectorRef(*dlse, DType::f32, int64_t(nl));
  // Multiply-adds of S = Q K^T and O = P V over the visible keys.
  double pairs = 0;
  for (int64_t i = 0; i < s.seqQ; ++i)
    pairs += causal ? double(std::min(s.seqKv, std::max<int64_t>(0, i + s.seqKv - s.seqQ + 1)))
                    : double(s.seqKv);
  double flops = 4.0 * double(s.batch) * double(s.heads) * double(s.headDim) * pairs;
  Expected<std::unique_ptr<OpTiming>> timing = OpTiming::start(*device, o, flops);
  if (!timing)
    return fail(toString(timing.takeError()));
  Expected<ops::AttentionResult> r = ops::attention_forward(tq, tk, tv, to, ao);
  if (!r)
    return fail(toString(r.takeError()));
  outs() << "path: " << ops::attentionPathName(r->path) << " (grid " << r->grid.x << "x"
         << r->grid.y << "x" << r->grid.z << ", block " << r->block.x << ")\n";
  if (*timing) {
    if (Error e = (*timing)->print(r->launch))
      return fail(toString(std::move(e)));
    // In steady state (or the first round alone) only the first CU's
    // workgroups ran: there is no output to write or compare.
    if (o.timing.partialRun())
      return 0;
  }
  if (r->launch.deviceMilliseconds)
    outs() << "time: " << format("%.4f", *r->launch.deviceMilliseconds) << " ms (HIP events), "
           << format("%.2f", flops / (*r->launch.deviceMilliseconds * 1e-3) / 1e12)
           << " TFLOP/s\n";
  if (r->launch.waveInstructions)
    outs() << "emulated: " << *r->launch.waveInstructions << " wave instructions in "
           << r->launch.workgroups << " workgroups (" << format("%.3f", r->launch.hostSeconds)
           << " s on the host; no GPU time on the emulator)"
           << (o.check ? "; check mode: clean" : "") << "\n";

  Expected<std::vector<uint16_t>> out = dout->toHost<uint16_t>();
  if (!out)
    return fail(toString(out.takeError()));
  Expected<std::vector<float>> lseOut = dlse->toHost<float>();
  if (!lseOut)
    return fail(toString(lseOut.takeError()));

  if (!o.outputs.empty()) {
    if (std::error_code ec = sys::fs::create_directories(o.outputs))
      return fail("cannot create '" + o.outputs + "': " + ec.message());
    auto write = [&](StringRef name, std::vector<uint64_t> shape, const void *data,
                     size_t bytes, NpyType type) -> Error {
      NpyArray a;
      a.type = type;
      a.shape = std::move(shape);
      a.data.assign(static_cast<const uint8_t *>(data),
                    static_cast<const uint8_t *>(data) + bytes);
      SmallString<256> p(o.outputs);
      sys::path::append(p, name + ".npy");
      if (Error e = writeNpy(p, a))
        return e;
      outs() << "wrote " << p
             << (type == NpyType::U16  ? " (bf16 stored as '<u2' bits)"
                 : type == NpyType::U8 ? " (" + dtypeName(*dtype).str() +
                                             " stored as '|u1' bits)"
                                       : "")
             << "\n";
      return Error::success();
    };
    std::vector<uint64_t> qShape = {uint64_t(s.batch), uint64_t(s.seqQ),
                                    uint64_t(s.heads), uint64_t(s.headDim)},
                          kShape = {uint64_t(s.batch), uint64_t(s.seqKv),
                                    uint64_t(s.kvHeads), uint64_t(s.headDim)};
    for (auto [name, shape, data] :
         {std::tuple<const char *, std::vector<uint64_t>, const std::vector<uint8_t> *>{
              "q", qShape, &q},
          {"k", kShape, &k}, {"v", kShape, &v}})
      if (Error e = write(name, shape, data->data(), data->size(), half))
        return fail(toString(std::move(e)));
    if (Error e = write("o", qShape, out->data(), out->size() * 2, ohalf))
      return fail(toString(std::move(e)));
    if (fp8) {
      // The true values are the codes times these: [q, k, v].
      float ds[3] = {float(descale.q), float(descale.k), float(descale.v)};
      if (Error e = write("descale", {3}, ds, sizeof ds, NpyType::F32))
        return fail(toString(std::move(e)));
    }
    if (lse)
      if (Error e = write("lse", {uint64_t(s.batch), uint64_t(s.heads), uint64_t(s.seqQ)},
                          lseOut->data(), lseOut->size() * 4, NpyType::F32))
        return fail(toString(std::move(e)));
  }
  if (!o.verify)
    return 0;

  // An input element's value: FP8 codes dequantised by their descale.
  auto inValue = [&](const std::vector<uint8_t> &bytes, uint64_t i, double ds) {
    if (fp8)
      return double(fp8ToFloat(*dtype, bytes[i])) * ds;
    uint16_t h;
    std::memcpy(&h, &bytes[i * 2], 2);
    return double(bf ? bf16ToFloat(h) : f16ToFloat(h));
  };
  auto value = [&](uint16_t h) { return double(obf ? bf16ToFloat(h) : f16ToFloat(h)); };
  std::vector<double> qd(nq), kd(nk), vd(nk), refO, refLse, bound;
  for (uint64_t i = 0; i < nq; ++i) qd[i] = inValue(q, i, descale.q);
  for (uint64_t i = 0; i < nk; ++i)
    kd[i] = inValue(k, i, descale.k), vd[i] = inValue(v, i, descale.v);
  double scale = o.scale.value_or(1.0 / std::sqrt(double(s.headDim)));
  ops::attentionReference(s, qd, kd, vd, causal, scale, refO, refLse);
  // The bounds: 8e-3 (bf16) / 2e-3 (f16) for outputs of order 1,
  // relative beyond; LSE within 1e-3. FP8: a bound per element from P's
  // rounding to e4m3 (ops::attentionFp8Tolerance), unless --atol.
  bool perElement = fp8 && !o.atol;
  if (perElement)
    ops::attentionFp8Tolerance(s, qd, kd, vd, causal, scale, *odtype, refO, bound);
  double tol = o.atol.value_or(bf ? 8e-3 : 2e-3), lseTol = 1e-3;
  double maxErr = 0, maxLse = 0, maxRatio = 0;
  uint64_t bad = 0, firstBad = 0;
  for (uint64_t i = 0; i < nq; ++i) {
    double diff = std::fabs(value((*out)[i]) - refO[i]);
    double e = perElement ? diff : diff / std::max(1.0, std::fabs(refO[i]));
    double ratio = perElement ? diff / bound[i] : e / tol;
    if (std::isnan(e))
      e = ratio = std::numeric_limits<double>::infinity();
    if (!(ratio <= 1) && !bad++)
      firstBad = i;
    maxErr = std::max(maxErr, e);
    maxRatio = std::max(maxRatio, ratio);
  }
  uint64_t badLse = 0;
  if (lse)
    for (uint64_t i = 0; i < nl; ++i) {
      double g = (*lseOut)[i], r = refLse[i];
      bool ok = std::isinf(r) ? std::isinf(g) && g < 0 : std::fabs(g - r) <= lseTol;
      badLse += !ok;
      if (!std::isinf(r))
        maxLse = std::max(maxLse, std::isnan(g) ? std::numeric_limits<double>::infinity()
                                                : std::fabs(g - r));
    }
  if (perElement)
    outs() << "compare o with the float64 host reference on the dequantised inputs: max "
              "error "
           << format("%.6f", maxErr) << " (absolute), largest error over its bound "
           << format("%.3f", maxRatio) << " (bound per element from P's e4m3 rounding)";
  else
    outs() << "compare o with the float64 host reference: max error "
           << format("%.6f", maxErr) << " (absolute, relative beyond 1; tolerance "
           << format("%g", tol) << ")";
  if (lse)
    outs() << ", lse max error " << format("%.6f", maxLse) << " (tolerance "
           << format("%g", lseTol) << ")";
  outs() << ": ";
  if (bad || badLse) {
    if (bad) {
      uint64_t d = firstBad % s.headDim, rest = firstBad / s.headDim;
      uint64_t h = rest % s.heads, t = rest / s.heads % s.seqQ, b = rest / s.heads / s.seqQ;
      outs() << bad << " of " << nq << " elements of o differ, first o[" << b << "][" << t
             << "][" << h << "][" << d << "] = " << value((*out)[firstBad]) << " vs "
             << refO[firstBad] << "; ";
    }
    if (badLse)
      outs() << badLse << " of " << nl << " lse values differ; ";
    outs() << "FAIL\n";
    return 1;
  }
  outs() << "PASS\n";
  return 0;
}

} // namespace kcc::runkernel
