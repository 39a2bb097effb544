//===- RunAttentionBackward.cpp - `kcc run attention_backward` ------------===//
//
// The runner of the attention backward pass (kernels/attention/
// AttentionBackwardOp.h): Q, K, V and dO from .npy files (--inputs) or
// random from --seed; O and LSE from files too, or (when neither is given)
// from ops::attention_forward on the same device, as training computes
// them; then ops::attention_backward. Writes dq.npy, dk.npy, dv.npy and the
// inputs it used (--outputs), compares the gradients with the float64 host
// reference (--verify), and with --timing estimates the dK/dV and dQ
// kernels on the timing model one launch at a time, then their sum.
//
//===----------------------------------------------------------------------===//
#include "tools/kcc/RunKernelOptions.h"
#include "kernels/attention/AttentionBackwardOp.h"
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
#include <cstring>
#include <limits>
#include <map>
#include <random>

using namespace llvm;

namespace kcc::runkernel {

int runAttentionBackward(const Options &o) {
  std::optional<DType> dtype = parseDType(define(o, "DTYPE").value_or("bf16"));
  if (!dtype || (*dtype != DType::bf16 && *dtype != DType::f16))
    return fail("-D DTYPE must be bf16 or f16");
  Expected<bool> causalFlag = defineFlag(o, "CAUSAL", o.causal);
  if (!causalFlag)
    return fail(toString(causalFlag.takeError()));
  bool causal = *causalFlag;
  if (!o.reference.empty())
    return fail("attention_backward takes no --reference; --verify compares dq, dk and dv "
                "with the float64 host reference on the same inputs");
  static const char *const kInputs[] = {"q", "k", "v", "o", "do", "lse"};
  for (const auto &e : o.inputs)
    if (!is_contained(kInputs, e.getKey()))
      return fail("attention_backward's inputs are q, k, v, o, do and lse; got '" +
                  e.getKey() + "'");
  if (o.inputs.count("o") != o.inputs.count("lse"))
    return fail("give both o and lse (the forward's output and log-sum-exp) or neither "
                "(the forward then computes them)");
  for (const auto &e : o.shape)
    if (!is_contained({"B", "Sq", "Skv", "H", "Hkv", "D"}, e.getKey()))
      return fail("--shape takes B, Sq, Skv, H, Hkv and D; got '" + e.getKey() + "'");
  bool bf = *dtype == DType::bf16;
  NpyType half = bf ? NpyType::U16 : NpyType::F16;

  // .npy inputs: [B, S, H, D] of the dtype ('<u2' bits for bf16), LSE
  // [B, H, S_q] f32; their shapes give what --shape leaves out.
  std::map<std::string, NpyArray> given;
  StringMap<int64_t> dims = o.shape;
  for (const char *name : kInputs) {
    Expected<std::optional<NpyArray>> npy = readInput(o, name);
    if (!npy)
      return fail(toString(npy.takeError()));
    if (!*npy)
      continue;
    const NpyArray &array = **npy;
    std::string file = o.inputs.lookup(name);
    bool isLse = StringRef(name) == "lse";
    NpyType want = isLse ? NpyType::F32 : half;
    if (array.type != want)
      return fail("input '" + Twine(name) + "' (" + file + ") holds '" + npyDescr(array.type) +
                  "' values; expected '" + npyDescr(want) + "'" +
                  (isLse ? " (the forward's f32 log-sum-exp)"
                         : bf ? " (bf16 bits); or run -D DTYPE=f16" : "; or run -D DTYPE=bf16"));
    size_t rank = isLse ? 3 : 4;
    if (array.shape.size() != rank)
      return fail("input '" + Twine(name) + "' (" + file + ") has " + Twine(array.shape.size()) +
                  " dimensions; expected " + (isLse ? "[B, H, Sq]" : "[B, S, H, D]"));
    bool queryShaped = !is_contained({"k", "v"}, StringRef(name));
    std::vector<const char *> keys =
        isLse ? std::vector<const char *>{"B", "H", "Sq"}
              : std::vector<const char *>{"B", queryShaped ? "Sq" : "Skv",
                                          queryShaped ? "H" : "Hkv", "D"};
    for (size_t d = 0; d < rank; ++d) {
      int64_t extent = int64_t(array.shape[d]);
      auto [at, inserted] = dims.try_emplace(keys[d], extent);
      if (!inserted && at->second != extent)
        return fail("input '" + Twine(name) + "' (" + file + ") has " + keys[d] + " = " +
                    Twine(extent) + " but " +
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
                "B=..,Sq=..,Skv=..,H=..,Hkv=..,D=.. (Sq at least: B and H default to 1, Skv "
                "to Sq, Hkv to H, D to 128) or --inputs q=..");
  ops::AttentionShape s;
  s.batch = dim("B").value_or(1);
  s.seqQ = *dim("Sq");
  s.seqKv = dim("Skv").value_or(s.seqQ);
  s.heads = dim("H").value_or(1);
  s.kvHeads = dim("Hkv").value_or(s.heads);
  s.headDim = dim("D").value_or(128);
  for (int64_t x : {s.batch, s.seqQ, s.seqKv, s.heads, s.kvHeads, s.headDim})
    if (x < 1 || x > INT32_MAX)
      return fail("--shape needs B, Sq, Skv, H, Hkv and D between 1 and 2147483647");
  // -D bindings other than DTYPE and CAUSAL tune one kernel: dkdv.NAME=V
  // or dq.NAME=V.
  std::vector<std::string> dkdvParams, dqParams;
  for (const std::string &t : tuningDefines(o, {"DTYPE", "CAUSAL"}))
    return fail("-D " + t + ": attention_backward's kernel parameters are given per kernel, "
                "as -D dkdv." + t + " or -D dq." + t);
  for (const auto &[scope, binding] : o.scopedDefines) {
    if (scope == "dkdv")
      dkdvParams.push_back(binding.str());
    else if (scope == "dq")
      dqParams.push_back(binding.str());
    else
      return fail("-D " + scope + "." + binding.str() + ": attention_backward's kernels are "
                  "dkdv and dq");
  }

  Expected<std::unique_ptr<Runtime>> rt = Runtime::create();
  if (!rt)
    return fail(toString(rt.takeError()));
  Expected<Device &> device = openDevice(**rt, o);
  if (!device)
    return fail(toString(device.takeError()));
  outs() << "attention_backward B=" << s.batch << " Sq=" << s.seqQ << " Skv=" << s.seqKv
         << " H=" << s.heads << " Hkv=" << s.kvHeads << " D=" << s.headDim << " "
         << dtypeName(*dtype) << (causal ? " causal" : "") << " on " << device->spec() << " ("
         << device->description() << ")\n";

  std::mt19937_64 rng(o.seed);
  std::normal_distribution<float> normal;
  uint64_t nq = uint64_t(s.batch) * s.seqQ * s.heads * s.headDim,
           nk = uint64_t(s.batch) * s.seqKv * s.kvHeads * s.headDim,
           nl = uint64_t(s.batch) * s.heads * s.seqQ;
  // Random from --seed where no file gives the input, drawn in q, k, v, do
  // order either way.
  auto input = [&](const char *name, uint64_t n) {
    std::vector<uint16_t> bits(n);
    for (uint16_t &b : bits)
      b = bf ? floatToBf16(normal(rng)) : floatToF16(normal(rng));
    auto it = given.find(name);
    if (it != given.end())
      std::memcpy(bits.data(), it->second.data.data(), n * 2);
    return bits;
  };
  std::vector<uint16_t> q = input("q", nq), k = input("k", nk), v = input("v", nk),
                        dO = input("do", nq);
  auto upload = [&](const std::vector<uint16_t> &h) { return Buffer::fromHost(*device, h); };
  Expected<Buffer> bq = upload(q), bk = upload(k), bv = upload(v), bdo = upload(dO);
  for (Expected<Buffer> *b : {&bq, &bk, &bv, &bdo})
    if (!*b)
      return fail(toString(b->takeError()));
  Expected<Buffer> bo = Buffer::allocate(*device, nq * 2), blse = Buffer::allocate(*device, nl * 4),
                   bdq = Buffer::allocate(*device, nq * 2), bdk = Buffer::allocate(*device, nk * 2),
                   bdv = Buffer::allocate(*device, nk * 2),
                   bdelta = Buffer::allocate(*device, nl * 8);
  for (Expected<Buffer> *b : {&bo, &blse, &bdq, &bdk, &bdv, &bdelta})
    if (!*b)
      return fail(toString(b->takeError()));
  ops::AttentionTensorRef tq(*bq, *dtype, s.batch, s.seqQ, s.heads, s.headDim),
      tk(*bk, *dtype, s.batch, s.seqKv, s.kvHeads, s.headDim),
      tv(*bv, *dtype, s.batch, s.seqKv, s.kvHeads, s.headDim),
      to(*bo, *dtype, s.batch, s.seqQ, s.heads, s.headDim),
      tdo(*bdo, *dtype, s.batch, s.seqQ, s.heads, s.headDim),
      tdq(*bdq, *dtype, s.batch, s.seqQ, s.heads, s.headDim),
      tdk(*bdk, *dtype, s.batch, s.seqKv, s.kvHeads, s.headDim),
      tdv(*bdv, *dtype, s.batch, s.seqKv, s.kvHeads, s.headDim);
  VectorRef lse(*blse, DType::f32, int64_t(nl));

  // O and LSE: from the files, or from the forward.
  std::vector<uint16_t> oBits;
  std::vector<float> lseValues;
  if (given.count("o")) {
    const NpyArray &ao = given["o"], &al = given["lse"];
    oBits.resize(nq);
    lseValues.resize(nl);
    std::memcpy(oBits.data(), ao.data.data(), nq * 2);
    std::memcpy(lseValues.data(), al.data.data(), nl * 4);
    if (Error e = bo->write(oBits.data(), nq * 2))
      return fail(toString(std::move(e)));
    if (Error e = blse->write(lseValues.data(), nl * 4))
      return fail(toString(std::move(e)));
    outs() << "forward: o and lse from the inputs\n";
  } else if (o.timing.enabled() && o.timing.partialRun()) {
    // Steady state only times the kernels and writes no gradients: the
    // forward (a long emulation at training shapes) is skipped; O is random
    // and LSE ln(S_kv) + 1, values the kernels' control flow does not
    // depend on (they have no data-dependent branch).
    oBits = input("o", nq);
    lseValues.assign(nl, float(std::log(double(s.seqKv)) + 1.0));
    if (Error e = bo->write(oBits.data(), nq * 2))
      return fail(toString(std::move(e)));
    if (Error e = blse->write(lseValues.data(), nl * 4))
      return fail(toString(std::move(e)));
    outs() << "forward: skipped ("
           << (o.timing.timingOptions().firstRoundOnly ? "first-round" : "steady-state")
           << " timing): o random, lse = ln(Skv) + 1\n";
  } else {
    ops::AttentionOptions fo;
    fo.causal = causal;
    fo.scale = o.scale;
    fo.lse = lse;
    Expected<ops::AttentionResult> fwd = ops::attention_forward(tq, tk, tv, to, fo);
    if (!fwd)
      return fail(toString(fwd.takeError()));
    outs() << "forward: o and lse from ops::attention_forward ("
           << ops::attentionPathName(fwd->path) << " path)\n";
  }

  ops::AttentionBackwardOptions bo2;
  bo2.causal = causal;
  bo2.scale = o.scale;
  bo2.dkdvParams = dkdvParams;
  bo2.dqParams = dqParams;
  bo2.delta = VectorRef(*bdelta, DType::f32, int64_t(2 * nl));
  double flops = ops::attentionBackwardFlops(s, causal);

  if (o.timing.enabled()) {
    // Delta first (untimed: it reads O and dO once), then each main kernel
    // on the model by itself.
    ops::AttentionBackwardOptions only = bo2;
    only.runDkDv = only.runDq = false;
    Expected<ops::AttentionBackwardResult> pre =
        ops::attention_backward(tq, tk, tv, to, tdo, lse, tdq, tdk, tdv, only);
    if (!pre)
      return fail(toString(pre.takeError()));
    double seconds = 0;
    for (int part = 0; part < 2; ++part) {
      only.runDelta = false;
      only.runDkDv = part == 0;
      only.runDq = part == 1;
      outs() << (part == 0 ? "dK/dV kernel (fmha_bwd_dkdv):\n" : "dQ kernel (fmha_bwd_dq):\n");
      // Each kernel's timeline goes to OUT.dkdv.svg / OUT.dq.svg.
      Options partOptions = o;
      partOptions.timing = o.timing.forPart(part == 0 ? "dkdv" : "dq");
      Expected<std::unique_ptr<OpTiming>> timing = OpTiming::start(
          *device, partOptions,
          ops::attentionBackwardKernelFlops(
              part == 0 ? ops::AttentionBackwardKernel::DkDv : ops::AttentionBackwardKernel::Dq,
              s, causal));
      if (!timing)
        return fail(toString(timing.takeError()));
      Expected<ops::AttentionBackwardResult> r =
          ops::attention_backward(tq, tk, tv, to, tdo, lse, tdq, tdk, tdv, only);
      if (!r)
        return fail(toString(r.takeError()));
      Expected<double> t =
          (*timing)->printSeconds(part == 0 ? r->dkdv.launch : r->dq.launch);
      if (!t)
        return fail(toString(t.takeError()));
      seconds += *t;
    }
    outs() << "backward (dK/dV + dQ): " << format("%.3f", seconds * 1e3) << " ms, "
           << format("%.1f", flops / seconds / 1e12) << " TFLOPS (" << format("%.4g", flops)
           << " FLOPs: 5 products over the visible pairs)\n";
    if (o.timing.partialRun())
      return 0;
  }

  Expected<ops::AttentionBackwardResult> r =
      ops::attention_backward(tq, tk, tv, to, tdo, lse, tdq, tdk, tdv, bo2);
  if (!r)
    return fail(toString(r.takeError()));
  for (auto [what, l] : {std::pair{"delta", &r->delta}, {"dkdv", &r->dkdv}, {"dq", &r->dq}})
    outs() << what << ": grid " << l->grid.x << "x" << l->grid.y << "x" << l->grid.z
           << ", block " << l->block.x << " (" << join(l->params, " ") << ")\n";
  uint64_t waveInstructions = 0;
  for (const ops::AttentionBackwardLaunch *l : {&r->delta, &r->dkdv, &r->dq})
    waveInstructions += l->launch.waveInstructions.value_or(0);
  if (waveInstructions)
    outs() << "emulated: " << waveInstructions << " wave instructions"
           << (o.check ? "; check mode: clean" : "") << "\n";

  Expected<std::vector<uint16_t>> gq = bdq->toHost<uint16_t>(), gk = bdk->toHost<uint16_t>(),
                                  gv = bdv->toHost<uint16_t>();
  for (auto *g : {&gq, &gk, &gv})
    if (!*g)
      return fail(toString(g->takeError()));
  if (oBits.empty()) {
    Expected<std::vector<uint16_t>> ob = bo->toHost<uint16_t>();
    Expected<std::vector<float>> lb = blse->toHost<float>();
    if (!ob)
      return fail(toString(ob.takeError()));
    if (!lb)
      return fail(toString(lb.takeError()));
    oBits = std::move(*ob);
    lseValues = std::move(*lb);
  }

  if (!o.outputs.empty()) {
    if (std::error_code ec = sys::fs::create_directories(o.outputs))
      return fail("cannot create '" + o.outputs + "': " + ec.message());
    auto write = [&](StringRef name, std::vector<uint64_t> shape, const void *data,
                     size_t bytes, NpyType type) -> Error {
      NpyArray a;
      a.type = type;
      a.shape = std::move(shape);
      a.data.assign(static_cast<const uint8_t *>(data), static_cast<const uint8_t *>(data) + bytes);
      SmallString<256> p(o.outputs);
      sys::path::append(p, name + ".npy");
      if (Error e = writeNpy(p, a))
        return e;
      outs() << "wrote " << p << (type == NpyType::U16 ? " (bf16 stored as '<u2' bits)" : "")
             << "\n";
      return Error::success();
    };
    std::vector<uint64_t> qShape = {uint64_t(s.batch), uint64_t(s.seqQ), uint64_t(s.heads),
                                    uint64_t(s.headDim)},
                          kShape = {uint64_t(s.batch), uint64_t(s.seqKv), uint64_t(s.kvHeads),
                                    uint64_t(s.headDim)};
    struct Out {
      const char *name;
      const std::vector<uint64_t> *shape;
      const std::vector<uint16_t> *data;
    } outsList[] = {{"q", &qShape, &q},       {"k", &kShape, &k},       {"v", &kShape, &v},
                    {"o", &qShape, &oBits},   {"do", &qShape, &dO},     {"dq", &qShape, &*gq},
                    {"dk", &kShape, &*gk},    {"dv", &kShape, &*gv}};
    for (const Out &x : outsList)
      if (Error e = write(x.name, *x.shape, x.data->data(), x.data->size() * 2, half))
        return fail(toString(std::move(e)));
    if (Error e = write("lse", {uint64_t(s.batch), uint64_t(s.heads), uint64_t(s.seqQ)},
                        lseValues.data(), lseValues.size() * 4, NpyType::F32))
      return fail(toString(std::move(e)));
  }
  if (!o.verify)
    return 0;

  auto value = [&](uint16_t h) { return double(bf ? bf16ToFloat(h) : f16ToFloat(h)); };
  std::vector<double> qd(nq), kd(nk), vd(nk), dod(nq), rdq, rdk, rdv;
  for (uint64_t i = 0; i < nq; ++i) qd[i] = value(q[i]), dod[i] = value(dO[i]);
  for (uint64_t i = 0; i < nk; ++i) kd[i] = value(k[i]), vd[i] = value(v[i]);
  double scale = o.scale.value_or(1.0 / std::sqrt(double(s.headDim)));
  ops::attentionBackwardReference(s, qd, kd, vd, dod, causal, scale, rdq, rdk, rdv);
  // Errors relative to the reference tensor's largest magnitude (at least
  // 0.1): P and dS are rounded to the input type before their products, as
  // in every FlashAttention backward (bf16 about 5e-3, f16 about 6e-4).
  double tol = o.atol.value_or(bf ? 1.5e-2 : 2.5e-3);
  bool ok = true;
  outs() << "compare with the float64 host reference (error over the largest |reference|, "
            "tolerance "
         << format("%g", tol) << "):";
  for (auto [name, got, ref] : {std::tuple{"dq", &*gq, &rdq}, {"dk", &*gk, &rdk}, {"dv", &*gv, &rdv}}) {
    double largest = 0.1, worst = 0;
    for (double x : *ref)
      largest = std::max(largest, std::fabs(x));
    uint64_t bad = 0;
    for (size_t i = 0; i < got->size(); ++i) {
      double e = std::fabs(value((*got)[i]) - (*ref)[i]) / largest;
      if (std::isnan(e))
        e = std::numeric_limits<double>::infinity();
      bad += !(e <= tol);
      worst = std::max(worst, e);
    }
    outs() << " " << name << " " << format("%.5f", worst);
    if (bad)
      outs() << " (" << bad << " of " << got->size() << " elements differ)";
    ok &= !bad;
  }
  outs() << ": " << (ok ? "PASS" : "FAIL") << "\n";
  return ok ? 0 : 1;
}

} // namespace kcc::runkernel
