//===- RunKernel.cpp - `kcc run NAME`: a kernel of kcc by name ------------===//
//
// Each named kernel gets a runner that knows its operands (names, shapes,
// dtypes from the -D parameters) and calls its op wrapper: the GEMM
// (kernels/gemm/GemmOp.h) and attention (kernels/attention/AttentionOp.h,
// the kernel fmha_fwd.mlir, also runnable as `kcc run fmha_fwd`).
//
//===----------------------------------------------------------------------===//
#include "tools/kcc/RunKernel.h"
#include "kernels/EmbeddedKernels.h"
#include "kernels/attention/AttentionOp.h"
#include "kernels/gemm/GemmOp.h"
#include "runtime/Jit.h"
#include "runtime/Npy.h"
#include "runtime/Runtime.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

using namespace llvm;

namespace kcc {
namespace {

constexpr const char *kUsage =
    "usage: kcc run gemm [--device hip:N|emu:gfx942|emu:gfx950] "
    "[-D NAME=VALUE]... [--shape M=..,N=..,K=..] [--seed N] "
    "[--inputs a=A.npy,bt=BT.npy,bias=BIAS.npy] [--outputs DIR] "
    "[--reference c=REF.npy] [--atol X] [--rtol Y] [--verify] [--check]\n"
    "       kcc run attention [--device ...] [-D NAME=VALUE]... "
    "--shape B=..,Sq=..,Skv=..,H=..,Hkv=..,D=.. [--causal] [--scale X] "
    "[--seed N] [--outputs DIR] [--atol X] [--verify] [--check]";

int fail(const Twine &message) {
  errs() << "kcc run: error: " << message << "\n";
  return 1;
}

Error error(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

struct Options {
  std::string kernel, device;
  std::vector<std::string> defines;
  StringMap<int64_t> shape;
  uint64_t seed = 1;
  StringMap<std::string> inputs;
  std::string outputs, reference;
  std::optional<double> atol, rtol, scale;
  bool verify = false, causal = false, check = false;
};

/// "k1=v1,k2=v2" into a map; false on a malformed pair.
bool parsePairs(StringRef text, StringMap<std::string> &out) {
  SmallVector<StringRef, 4> parts;
  text.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef p : parts) {
    auto [k, v] = p.split('=');
    if (k.trim().empty() || v.trim().empty())
      return false;
    out[k.trim()] = v.trim().str();
  }
  return !parts.empty();
}

/// One operand on the host: values as stored (16-bit bits or f32) plus the
/// dtype they are in.
struct HostMatrix {
  DType dtype;
  int64_t rows = 0, cols = 0;
  std::vector<uint8_t> bytes;
  double at(size_t i) const {
    if (dtype == DType::f32) {
      float f;
      std::memcpy(&f, &bytes[4 * i], 4);
      return f;
    }
    uint16_t h;
    std::memcpy(&h, &bytes[2 * i], 2);
    return dtype == DType::bf16 ? bf16ToFloat(h) : f16ToFloat(h);
  }
};

/// Converts a .npy array to `dtype`: '<f4' is rounded to the 16-bit types,
/// '<f2' is f16, '<u2' holds bf16 bits (NumPy has no bfloat16).
Expected<HostMatrix> fromNpy(const NpyArray &a, DType dtype, StringRef what) {
  HostMatrix m;
  m.dtype = dtype;
  if (a.shape.size() == 2) {
    m.rows = a.shape[0];
    m.cols = a.shape[1];
  } else if (a.shape.size() == 1) {
    m.rows = 1;
    m.cols = a.shape[0];
  } else {
    return error(what + " has " + Twine(a.shape.size()) +
                 " dimensions; expected a matrix or a vector");
  }
  size_t n = a.elementCount();
  m.bytes.resize(n * dtypeSize(dtype));
  auto element = [&](size_t i) -> float {
    if (a.type == NpyType::F32) {
      float f;
      std::memcpy(&f, &a.data[4 * i], 4);
      return f;
    }
    uint16_t h;
    std::memcpy(&h, &a.data[2 * i], 2);
    return a.type == NpyType::F16 ? f16ToFloat(h) : bf16ToFloat(h);
  };
  if (a.type == NpyType::U16 && dtype != DType::bf16)
    return error(what + " is '<u2' (bf16 bits) but the kernel wants " +
                 dtypeName(dtype));
  for (size_t i = 0; i < n; ++i) {
    float f = element(i);
    if (dtype == DType::f32) {
      std::memcpy(&m.bytes[4 * i], &f, 4);
    } else {
      uint16_t h = dtype == DType::bf16 ? floatToBf16(f) : floatToF16(f);
      std::memcpy(&m.bytes[2 * i], &h, 2);
    }
  }
  return m;
}

NpyArray toNpy(const HostMatrix &m, bool vector) {
  NpyArray a;
  a.type = m.dtype == DType::f32   ? NpyType::F32
           : m.dtype == DType::f16 ? NpyType::F16
                                   : NpyType::U16;
  if (vector)
    a.shape = {uint64_t(m.cols)};
  else
    a.shape = {uint64_t(m.rows), uint64_t(m.cols)};
  a.data = m.bytes;
  return a;
}

HostMatrix randomMatrix(DType dtype, int64_t rows, int64_t cols,
                        std::mt19937_64 &rng) {
  std::normal_distribution<float> normal;
  HostMatrix m;
  m.dtype = dtype;
  m.rows = rows;
  m.cols = cols;
  m.bytes.resize(size_t(rows * cols) * 2);
  for (int64_t i = 0; i < rows * cols; ++i) {
    float f = normal(rng);
    uint16_t h = dtype == DType::bf16 ? floatToBf16(f) : floatToF16(f);
    std::memcpy(&m.bytes[2 * i], &h, 2);
  }
  return m;
}

/// The value of -D NAME=... (the last one), if given.
std::optional<std::string> define(const Options &o, StringRef name) {
  std::optional<std::string> v;
  for (const std::string &d : o.defines) {
    auto [k, val] = StringRef(d).split('=');
    if (k.trim() == name)
      v = val.trim().str();
  }
  return v;
}

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

int runGemm(const Options &o) {
  if (o.causal || o.scale)
    return fail(std::string(o.causal ? "--causal" : "--scale") +
                " is an option of attention, not of gemm");
  // Operand dtypes and bias come from the kernel's own parameters, so that
  // `-D` means the same here as for `kcc gemm.mlir`.
  std::optional<DType> in = parseDType(define(o, "DTYPE").value_or("bf16"));
  std::optional<DType> out = parseDType(define(o, "OUT").value_or("f32"));
  if (!in || *in == DType::f32 || *in == DType::i32)
    return fail("-D DTYPE must be bf16 or f16");
  if (!out || *out == DType::i32)
    return fail("-D OUT must be bf16, f16 or f32");
  std::string hb = define(o, "HAS_BIAS").value_or("0");
  bool hasBias = hb == "1" || hb == "true";
  std::vector<std::string> tuning;
  for (const std::string &d : o.defines) {
    StringRef k = StringRef(d).split('=').first.trim();
    if (k != "DTYPE" && k != "OUT" && k != "HAS_BIAS")
      tuning.push_back(d);
  }
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
    auto it = o.inputs.find(name);
    if (it == o.inputs.end())
      continue;
    Expected<NpyArray> npy = readNpy(it->second);
    if (!npy)
      return fail(toString(npy.takeError()));
    Expected<HostMatrix> m = fromNpy(*npy, *in, it->second);
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

  RuntimeOptions ro;
  ro.defaultDevice = o.device;
  Expected<std::unique_ptr<Runtime>> rt = Runtime::create(ro);
  if (!rt)
    return fail(toString(rt.takeError()));
  Expected<Device &> device = (*rt)->defaultDevice();
  if (!device)
    return fail(toString(device.takeError()));

  // Compile first, separately, to report where the code object came from;
  // ops::gemm then finds it in the JIT's memory cache.
  std::vector<std::string> params =
      ops::gemmParams(device->chip(), *in, *out, hasBias, tuning);
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
  Expected<LaunchResult> r = ops::gemm({*da, *in, *M, *K}, {*dbt, *in, *N, *K},
                                       {*dc, *out, *M, *N}, biasRef, go);
  if (!r)
    return fail(toString(r.takeError()));
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
           << " s on the host; no GPU time on the emulator)\n";

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
    Expected<HostMatrix> rm = fromNpy(*ref, refType, o.reference);
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


/// `kcc run attention`: random inputs, ops::attention_forward on the device,
/// O and LSE against the float64 host reference.
int runAttention(const Options &o) {
  std::optional<DType> dtype = parseDType(define(o, "DTYPE").value_or("bf16"));
  if (!dtype || *dtype == DType::f32 || *dtype == DType::i32)
    return fail("-D DTYPE must be bf16 or f16");
  auto flag = [&](StringRef name, bool dflt) {
    std::optional<std::string> v = define(o, name);
    return v ? (*v == "1" || *v == "true") : dflt;
  };
  bool causal = flag("CAUSAL", o.causal);
  bool lse = flag("LSE_OUT", true);
  if (!o.inputs.empty() || !o.reference.empty())
    return fail("attention takes no --inputs or --reference; it runs on random "
                "inputs from --seed (--verify compares with the float64 host reference)");
  for (const auto &e : o.shape)
    if (!is_contained({"B", "Sq", "Skv", "H", "Hkv", "D"}, e.getKey()))
      return fail("--shape takes B, Sq, Skv, H, Hkv and D; got '" + e.getKey() + "'");
  auto dim = [&](StringRef k) -> std::optional<int64_t> {
    auto it = o.shape.find(k);
    return it == o.shape.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  if (!dim("Sq"))
    return fail("the attention's shape is unknown; give --shape "
                "B=..,Sq=..,Skv=..,H=..,Hkv=..,D=.. (Sq at least: B and H default "
                "to 1, Skv to Sq, Hkv to H, D to 128)");
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
  std::vector<std::string> tuning;
  for (const std::string &d : o.defines) {
    StringRef k = StringRef(d).split('=').first.trim();
    if (k != "DTYPE" && k != "CAUSAL" && k != "LSE_OUT" && k != "D")
      tuning.push_back(d);
  }
  // The sizes the host arrays need; the op checks everything else.
  for (int64_t x : {s.batch, s.seqQ, s.seqKv, s.heads, s.kvHeads, s.headDim})
    if (x < 1 || x > INT32_MAX)
      return fail("--shape needs B, Sq, Skv, H, Hkv and D between 1 and 2147483647");

  RuntimeOptions ro;
  ro.defaultDevice = o.device;
  Expected<std::unique_ptr<Runtime>> rt = Runtime::create(ro);
  if (!rt)
    return fail(toString(rt.takeError()));
  Expected<Device &> device = (*rt)->defaultDevice();
  if (!device)
    return fail(toString(device.takeError()));
  if (o.check && device->kind() != DeviceKind::Emu)
    return fail("--check needs an emulated device (emu:gfx942 or emu:gfx950)");

  std::mt19937_64 rng(o.seed);
  std::normal_distribution<float> normal;
  bool bf = *dtype == DType::bf16;
  uint64_t nq = uint64_t(s.batch) * s.seqQ * s.heads * s.headDim,
           nk = uint64_t(s.batch) * s.seqKv * s.kvHeads * s.headDim,
           nl = uint64_t(s.batch) * s.heads * s.seqQ;
  auto random = [&](uint64_t n) {
    std::vector<uint16_t> bits(n);
    for (uint16_t &b : bits)
      b = bf ? floatToBf16(normal(rng)) : floatToF16(normal(rng));
    return bits;
  };
  std::vector<uint16_t> q = random(nq), k = random(nk), v = random(nk);
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
  std::vector<std::string> params = ops::attentionParams(
      device->chip(), *dtype, s.headDim, causal, lse, tuning);
  outs() << "attention B=" << s.batch << " Sq=" << s.seqQ << " Skv=" << s.seqKv
         << " H=" << s.heads << " Hkv=" << s.kvHeads << " D=" << s.headDim << " "
         << dtypeName(*dtype) << (causal ? " causal" : "") << " on " << device->spec()
         << " (" << device->description() << ")\n";
  // An unsupported D is the op's to explain, before anything compiles.
  if (s.headDim == 64 || s.headDim == 128) {
    Expected<CompiledKernel> compiled =
        Jit::shared().compile("fmha_fwd", params, device->chip());
    if (!compiled)
      return fail(toString(compiled.takeError()));
    outs() << "compile: " << cacheOutcomeName(compiled->outcome) << " in "
           << format("%.3f", compiled->seconds * 1e3) << " ms (" << join(params, " ")
           << "; cache " << Jit::shared().cacheDirectory() << ")\n";
  }

  ops::AttentionTensorRef tq(*dq, *dtype, s.batch, s.seqQ, s.heads, s.headDim),
      tk(*dk, *dtype, s.batch, s.seqKv, s.kvHeads, s.headDim),
      tv(*dv, *dtype, s.batch, s.seqKv, s.kvHeads, s.headDim),
      to(*dout, *dtype, s.batch, s.seqQ, s.heads, s.headDim);
  ops::AttentionOptions ao;
  ao.causal = causal;
  ao.scale = o.scale;
  ao.params = tuning;
  if (lse)
    ao.lse = VectorRef(*dlse, DType::f32, int64_t(nl));
  // Check mode of the emulator, for this process's launches.
  if (o.check)
    setenv("KCC_EMU_CHECK", "1", /*overwrite=*/1);
  Expected<ops::AttentionResult> r = ops::attention_forward(tq, tk, tv, to, ao);
  if (!r)
    return fail(toString(r.takeError()));
  outs() << "path: " << ops::attentionPathName(r->path) << " (grid " << r->grid.x << "x"
         << r->grid.y << "x" << r->grid.z << ", block " << r->block.x << ")\n";
  // Multiply-adds of S = Q K^T and O = P V over the visible keys.
  double pairs = 0;
  for (int64_t i = 0; i < s.seqQ; ++i)
    pairs += causal ? double(std::min(s.seqKv, std::max<int64_t>(0, i + s.seqKv - s.seqQ + 1)))
                    : double(s.seqKv);
  double flops = 4.0 * double(s.batch) * double(s.heads) * double(s.headDim) * pairs;
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
             << (type == NpyType::U16 ? " (bf16 stored as '<u2' bits)" : "") << "\n";
      return Error::success();
    };
    NpyType half = bf ? NpyType::U16 : NpyType::F16;
    std::vector<uint64_t> qShape = {uint64_t(s.batch), uint64_t(s.seqQ),
                                    uint64_t(s.heads), uint64_t(s.headDim)},
                          kShape = {uint64_t(s.batch), uint64_t(s.seqKv),
                                    uint64_t(s.kvHeads), uint64_t(s.headDim)};
    for (auto [name, shape, data] :
         {std::tuple<const char *, std::vector<uint64_t>, const std::vector<uint16_t> *>{
              "q", qShape, &q},
          {"k", kShape, &k}, {"v", kShape, &v}, {"o", qShape, &*out}})
      if (Error e = write(name, shape, data->data(), data->size() * 2, half))
        return fail(toString(std::move(e)));
    if (lse)
      if (Error e = write("lse", {uint64_t(s.batch), uint64_t(s.heads), uint64_t(s.seqQ)},
                          lseOut->data(), lseOut->size() * 4, NpyType::F32))
        return fail(toString(std::move(e)));
  }
  if (!o.verify)
    return 0;

  auto value = [&](uint16_t h) { return double(bf ? bf16ToFloat(h) : f16ToFloat(h)); };
  std::vector<double> qd(nq), kd(nk), vd(nk), refO, refLse;
  for (uint64_t i = 0; i < nq; ++i) qd[i] = value(q[i]);
  for (uint64_t i = 0; i < nk; ++i) kd[i] = value(k[i]), vd[i] = value(v[i]);
  double scale = o.scale.value_or(1.0 / std::sqrt(double(s.headDim)));
  ops::attentionReference(s, qd, kd, vd, causal, scale, refO, refLse);
  // The bounds: 8e-3 (bf16) / 2e-3 (f16) for outputs of order 1,
  // relative beyond; LSE within 1e-3.
  double tol = o.atol.value_or(bf ? 8e-3 : 2e-3), lseTol = 1e-3;
  double maxErr = 0, maxLse = 0;
  uint64_t bad = 0, firstBad = 0;
  for (uint64_t i = 0; i < nq; ++i) {
    double e = std::fabs(value((*out)[i]) - refO[i]) / std::max(1.0, std::fabs(refO[i]));
    if (std::isnan(e))
      e = std::numeric_limits<double>::infinity();
    if (!(e <= tol) && !bad++)
      firstBad = i;
    maxErr = std::max(maxErr, e);
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

} // namespace

bool isNamedKernel(StringRef word) {
  return (word == "attention" || findEmbeddedKernel(word).has_value()) &&
         !sys::fs::exists(word);
}

int runNamedKernel(ArrayRef<StringRef> args) {
  registerEmbeddedKernels();
  Options o;
  o.kernel = args.front().str();
  for (size_t i = 1; i < args.size(); ++i) {
    StringRef a = args[i];
    auto value = [&](StringRef flag) -> std::optional<StringRef> {
      if (a.starts_with(flag.str() + "="))
        return a.drop_front(flag.size() + 1);
      if (a == flag && i + 1 < args.size())
        return args[++i];
      return std::nullopt;
    };
    auto number = [&](StringRef flag, double &out) -> bool {
      auto v = value(flag);
      return v && !v->getAsDouble(out) && out >= 0;
    };
    double d;
    if (a == "-h" || a == "--help") {
      outs() << kUsage << "\n";
      return 0;
    }
    if (a == "--verify") {
      o.verify = true;
    } else if (a == "--causal") {
      o.causal = true;
    } else if (a == "--check") {
      o.check = true;
    } else if (a == "--scale" || a.starts_with("--scale=")) {
      auto v = value("--scale");
      if (!v || v->getAsDouble(d))
        return fail("--scale needs a number");
      o.scale = d;
    } else if (a == "-D") {
      if (i + 1 >= args.size())
        return fail("-D needs NAME=VALUE");
      o.defines.push_back(args[++i].str());
    } else if (a.starts_with("-D")) {
      o.defines.push_back(a.drop_front(2).str());
    } else if (a == "--device" || a.starts_with("--device=")) {
      auto v = value("--device");
      if (!v) return fail("--device needs hip:N, emu:gfx942 or emu:gfx950");
      o.device = v->str();
    } else if (a == "--shape" || a.starts_with("--shape=")) {
      auto v = value("--shape");
      StringMap<std::string> pairs;
      if (!v || !parsePairs(*v, pairs))
        return fail("--shape needs NAME=VALUE[,NAME=VALUE...] (gemm: M, N, K; "
                    "attention: B, Sq, Skv, H, Hkv, D)");
      for (auto &e : pairs) {
        int64_t n;
        if (StringRef(e.second).getAsInteger(10, n))
          return fail("--shape: '" + e.second + "' is not an integer");
        o.shape[e.getKey()] = n;
      }
    } else if (a == "--seed" || a.starts_with("--seed=")) {
      auto v = value("--seed");
      if (!v || v->getAsInteger(0, o.seed))
        return fail("--seed needs an integer");
    } else if (a == "--inputs" || a.starts_with("--inputs=")) {
      auto v = value("--inputs");
      if (!v || !parsePairs(*v, o.inputs))
        return fail("--inputs needs NAME=FILE.npy[,NAME=FILE.npy...]");
    } else if (a == "--outputs" || a.starts_with("--outputs=")) {
      auto v = value("--outputs");
      if (!v) return fail("--outputs needs a directory");
      o.outputs = v->str();
    } else if (a == "--reference" || a.starts_with("--reference=")) {
      auto v = value("--reference");
      if (!v) return fail("--reference needs c=FILE.npy");
      StringRef file = *v;
      if (file.contains('=')) {
        auto [name, path] = file.split('=');
        if (name != "c")
          return fail("--reference compares the output c; got '" + name + "'");
        file = path;
      }
      o.reference = file.str();
    } else if (a == "--atol" || a.starts_with("--atol=")) {
      if (!number("--atol", d)) return fail("--atol needs a non-negative number");
      o.atol = d;
    } else if (a == "--rtol" || a.starts_with("--rtol=")) {
      if (!number("--rtol", d)) return fail("--rtol needs a non-negative number");
      o.rtol = d;
    } else {
      return fail("unknown option '" + a + "' for a named kernel; " + kUsage);
    }
  }
  if (o.kernel == "attention" || o.kernel == "fmha_fwd")
    return runAttention(o);
  if (o.check)
    setenv("KCC_EMU_CHECK", "1", /*overwrite=*/1);
  if (o.kernel == "gemm")
    return runGemm(o);
  return fail("kernel '" + o.kernel + "' has no runner in kcc run; compile it "
              "with `kcc` and run the code object with --kernel");
}

} // namespace kcc
