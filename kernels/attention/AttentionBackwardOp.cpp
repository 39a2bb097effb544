//===- AttentionBackwardOp.cpp - kcc::ops::attention_backward -------------===//
//
// The host side of kernels/attention/fmha_bwd_{pre,dkdv,dq}.mlir: argument
// checks (the forward's rules, plus the gradients' own: outputs that share
// no memory with any input or each other), the parameters per chip, the
// Delta scratch buffer, the three launches, and the float64 reference.
//
//===----------------------------------------------------------------------===//
#include "kernels/attention/AttentionBackwardOp.h"
#include "kernels/OperandBuffers.h"
#include "kernels/EmbeddedKernels.h"
#include "runtime/Jit.h"
#include "runtime/Kernel.h"
#include "runtime/Module.h"
#include "target/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>

using namespace llvm;

namespace kcc::ops {

constexpr StringLiteral kComponent = "attention_backward";

namespace {

/// Query i sees keys j < visibleKeys(i) (bottom-right diagonal when causal).
int64_t visibleKeys(int64_t i, int64_t seqQ, int64_t seqKv, bool causal) {
  if (!causal)
    return seqKv;
  return std::min(seqKv, std::max<int64_t>(0, i + seqKv - seqQ + 1));
}

} // namespace

StringRef attentionBackwardKernelName(AttentionBackwardKernel kernel) {
  switch (kernel) {
  case AttentionBackwardKernel::Delta:
    return "fmha_bwd_pre";
  case AttentionBackwardKernel::DkDv:
    return "fmha_bwd_dkdv";
  case AttentionBackwardKernel::Dq:
    return "fmha_bwd_dq";
  }
  return "fmha_bwd_pre";
}

std::vector<std::string> attentionBackwardParams(AttentionBackwardKernel kernel, Chip chip,
                                                 DType dtype, int64_t headDim, bool causal,
                                                 const std::vector<std::string> &overrides) {
  auto p = [](const char *k, int64_t v) { return ParamBinding{k, v}; };
  bool is950 = chip == Chip::gfx950;
  std::vector<ParamBinding> params = {{"DTYPE", dtypeName(dtype).str()}, p("D", headDim)};
  // LDS row padding of the tiles both products read (plain 16-byte reads
  // and, on gfx950, transposing reads), chosen on the timing model (S=4096,
  // dK/dV / dQ TFLOPS): gfx950 D=128 24 elements (1312 / 1189; 8: 1152 /
  // 1116, 16: 1306 / 1181, 32: 1110 / 949), D=64 8 (944 / 1303; 16: 924 /
  // 1281); gfx942 4 (471 / 586; 0: 190 / 175, 8: 459 / 575). The rows must
  // stay 16-byte aligned (gfx950) or 8-byte (gfx942's ds_read2_b64).
  int64_t pad = is950 ? (headDim == 128 ? 24 : 8) : 4;
  switch (kernel) {
  case AttentionBackwardKernel::Delta:
    params.push_back(p("BLOCK", 256));
    break;
  case AttentionBackwardKernel::DkDv:
    // 4 waves of 32 keys; query tiles of Q and dO in LDS, read transposed
    // by ds_read_b64_tr_b16 on gfx950 and stored a second time transposed
    // on gfx942 (which has no transposing read). 64-query tiles on gfx950
    // halve the per-tile cost of the barriers, the LDS stores and the
    // prefetch's address arithmetic (timing model, S=4096: 1028 against
    // 925 TFLOPS); gfx942's 64 KiB of LDS holds the four 32-query tiles.
    params.insert(params.end(), {p("CAUSAL", causal), p("BM", is950 ? 64 : 32),
                                 p("BLOCK", 256), p("Q_TR", is950), p("PAD", pad),
                                 p("TPAD", 4), p("QROWS", is950 ? 16 : 8),
                                 p("LOAD_IF", is950)});
    break;
  case AttentionBackwardKernel::Dq:
    // 4 waves of 32 queries; 64-key tiles of K and V in LDS, K read
    // transposed on gfx950, stored transposed too on gfx942.
    params.insert(params.end(), {p("CAUSAL", causal), p("BN", 64), p("BLOCK", 256),
                                 p("K_TR", is950), p("PAD", pad), p("KTPAD", 4),
                                 p("KVROWS", 16)});
    break;
  }
  return kernelParamsWithOverrides(std::move(params), parseKernelParams(overrides));
}

Error checkAttentionBackward(const AttentionTensorRef &q, const AttentionTensorRef &k,
                             const AttentionTensorRef &v, const AttentionTensorRef &o,
                             const AttentionTensorRef &dO, const VectorRef &lse,
                             const AttentionTensorRef &dq, const AttentionTensorRef &dk,
                             const AttentionTensorRef &dv,
                             const AttentionBackwardOptions &options) {
  const std::pair<const char *, const AttentionTensorRef *> all[] = {
      {"Q", &q}, {"K", &k}, {"V", &v}, {"O", &o}, {"dO", &dO}, {"dQ", &dq}, {"dK", &dk}, {"dV", &dv}};
  constexpr size_t kInputs = 5;
  std::vector<NamedBuffer> buffers;
  for (auto [name, t] : all)
    buffers.push_back({name, t->buffer});
  buffers.push_back({"LSE", lse.buffer});
  if (Error e = checkOperandBuffers(kComponent, buffers))
    return e;

  if (q.dtype != DType::bf16 && q.dtype != DType::f16)
    return makeError(kComponent, "Q is " + dtypeName(q.dtype) +
                                     "; Q, K, V, O, dO and the gradients must be bf16 or f16");
  for (auto [name, t] : ArrayRef(all).drop_front())
    if (t->dtype != q.dtype)
      return makeError(kComponent, Twine(name) + " is " + dtypeName(t->dtype) + " but Q is " +
                                       dtypeName(q.dtype) + "; all tensors must have one dtype");
  if (lse.dtype != DType::f32)
    return makeError(kComponent, "LSE is " + dtypeName(lse.dtype) + "; it must be f32");

  for (auto [name, t] : all)
    if (t->batch < 1 || t->seq < 1 || t->heads < 1 || t->headDim < 1)
      return makeError(kComponent, Twine(name) + " is " + tensorShapeText(*t) +
                                       " ([B, S, H, D]); every dimension must be at least 1");
  if (q.headDim != 64 && q.headDim != 128)
    return makeError(kComponent, "head size D = " + Twine(q.headDim) +
                                     " is not supported; the kernels have D = 64 and D = 128");
  if (k.batch != q.batch || k.headDim != q.headDim)
    return makeError(kComponent, "K is " + tensorShapeText(k) + " but Q is " +
                                     tensorShapeText(q) + "; K needs Q's batch and head size");
  auto same = [](const AttentionTensorRef &a, const AttentionTensorRef &b) {
    return a.batch == b.batch && a.seq == b.seq && a.heads == b.heads && a.headDim == b.headDim;
  };
  for (auto [name, t] : {std::pair{"O", &o}, {"dO", &dO}, {"dQ", &dq}})
    if (!same(*t, q))
      return makeError(kComponent, Twine(name) + " is " + tensorShapeText(*t) +
                                       "; expected Q's shape " + tensorShapeText(q));
  for (auto [name, t] : {std::pair{"V", &v}, {"dK", &dk}, {"dV", &dv}})
    if (!same(*t, k))
      return makeError(kComponent, Twine(name) + " is " + tensorShapeText(*t) +
                                       "; expected K's shape " + tensorShapeText(k));
  if (q.heads % k.heads)
    return makeError(kComponent, "H = " + Twine(q.heads) +
                                     " query heads is not a multiple of H_kv = " + Twine(k.heads) +
                                     " key/value heads");
  if (q.heads > 65535 || q.batch > 65535)
    return makeError(kComponent, "B = " + Twine(q.batch) + ", H = " + Twine(q.heads) +
                                     ": the launch grids have B and H as dimensions of at "
                                     "most 65535");

  for (auto [name, t] : all)
    if (Error e = checkTensorLayout(kComponent, name, *t))
      return e;
  auto intersect = [](std::pair<uint64_t, uint64_t> a, std::pair<uint64_t, uint64_t> b) {
    return a.first < b.second && b.first < a.second;
  };
  // Each gradient is written while every input is still being read, and
  // the outputs are written by different kernels: no output may share
  // memory with any other operand, or within itself.
  for (size_t i = kInputs; i < std::size(all); ++i) {
    auto [name, t] = all[i];
    if (tensorOverlaps(*t))
      return makeError(kComponent, Twine(name) + "'s strides (" + tensorStridesText(*t) +
                                       ") make elements overlap; every output element needs "
                                       "its own address");
    for (size_t j = 0; j < std::size(all); ++j) {
      auto [other, u] = all[j];
      if (j == i || u->buffer != t->buffer || (j > i && j >= kInputs))
        continue;
      if (intersect(tensorByteRange(*t), tensorByteRange(*u)))
        return makeError(kComponent, Twine(name) + " overlaps " + other +
                                         " in their buffer; each gradient needs memory of "
                                         "its own");
    }
  }
  uint64_t n = uint64_t(q.batch) * uint64_t(q.heads) * uint64_t(q.seq);
  if (uint64_t(lse.size) != n)
    return makeError(kComponent, "LSE has " + Twine(lse.size) +
                                     " elements; expected B * H * S_q = " + Twine(n) +
                                     " (the forward's log-sum-exp)");
  if (n > uint64_t(INT32_MAX))
    return makeError(kComponent, "LSE has " + Twine(n) +
                                     " elements; the kernels' 32-bit offsets reach at most "
                                     "2147483647");
  if (n * 4 > lse.buffer->size())
    return makeError(kComponent, "LSE (" + Twine(n) + " f32) needs " + Twine(n * 4) +
                                     " bytes; its buffer has " + Twine(lse.buffer->size()));
  for (auto [name, t] : ArrayRef(all).drop_front(kInputs))
    if (t->buffer == lse.buffer && intersect(tensorByteRange(*t), {0, n * 4}))
      return makeError(kComponent, Twine(name) + " overlaps LSE in their buffer; each "
                                                 "gradient needs memory of its own");
  if (options.delta) {
    const VectorRef &d = *options.delta;
    if (Error e = checkOperandBuffers(kComponent, {{"Q", q.buffer}, {"Delta", d.buffer}}))
      return e;
    if (d.dtype != DType::f32 || uint64_t(d.size) != 2 * n || n * 8 > d.buffer->size())
      return makeError(kComponent, "Delta must be " + Twine(2 * n) +
                                       " f32 (B * H * 2 * S_q: bias and Delta per query) in a "
                                       "buffer of at least " +
                                       Twine(n * 8) + " bytes");
    if (d.buffer == lse.buffer)
      return makeError(kComponent, "Delta shares LSE's buffer; it needs memory of its own");
    for (auto [name, t] : all)
      if (t->buffer == d.buffer && intersect(tensorByteRange(*t), {0, n * 8}))
        return makeError(kComponent, "Delta overlaps " + Twine(name) +
                                         " in their buffer; it needs memory of its own");
  }
  if (options.scale && !(std::isfinite(*options.scale) && *options.scale > 0)) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", *options.scale);
    return makeError(kComponent, "scale = " + Twine(text) + " must be positive and finite");
  }
  return Error::success();
}

Expected<AttentionBackwardResult>
attention_backward(const AttentionTensorRef &q, const AttentionTensorRef &k,
                   const AttentionTensorRef &v, const AttentionTensorRef &o,
                   const AttentionTensorRef &dO, const VectorRef &lse,
                   const AttentionTensorRef &dq, const AttentionTensorRef &dk,
                   const AttentionTensorRef &dv, const AttentionBackwardOptions &options) {
  if (Error e = checkAttentionBackward(q, k, v, o, dO, lse, dq, dk, dv, options))
    return std::move(e);
  Device &device = q.buffer->device();
  Chip chip = device.chip();
  Jit &jit = options.jit ? *options.jit : Jit::shared();
  AttentionBackwardResult result;
  result.delta.params = attentionBackwardParams(AttentionBackwardKernel::Delta, chip, q.dtype,
                                                q.headDim, options.causal);
  result.dkdv.params = attentionBackwardParams(AttentionBackwardKernel::DkDv, chip, q.dtype,
                                               q.headDim, options.causal, options.dkdvParams);
  result.dq.params = attentionBackwardParams(AttentionBackwardKernel::Dq, chip, q.dtype,
                                             q.headDim, options.causal, options.dqParams);
  auto kernelOf = [&](AttentionBackwardKernel which,
                      const std::vector<std::string> &params) -> Expected<Kernel> {
    StringRef name = attentionBackwardKernelName(which);
    Expected<Module> module = compileEmbeddedKernel(device, jit, name, params);
    if (!module)
      return makeError(kComponent, "cannot compile " + name + ": " +
                                       toString(module.takeError()));
    return module->kernel(name);
  };
  Expected<Kernel> pre = kernelOf(AttentionBackwardKernel::Delta, result.delta.params);
  if (!pre)
    return pre.takeError();
  Expected<Kernel> dkdv = kernelOf(AttentionBackwardKernel::DkDv, result.dkdv.params);
  if (!dkdv)
    return dkdv.takeError();
  Expected<Kernel> dqk = kernelOf(AttentionBackwardKernel::Dq, result.dq.params);
  if (!dqk)
    return dqk.takeError();

  // Views whose rows are not 4-byte aligned go through packed copies: the
  // inputs copied in, the gradients written packed and copied out.
  std::optional<Buffer> stores[8];
  AttentionTensorRef Q = q, K = k, V = v, O = o, DO = dO, DQ = dq, DK = dk, DV = dv;
  const AttentionTensorRef *given[8] = {&q, &k, &v, &o, &dO, &dq, &dk, &dv};
  AttentionTensorRef *used[8] = {&Q, &K, &V, &O, &DO, &DQ, &DK, &DV};
  for (int i = 0; i < 8; ++i) {
    if (tensorRowsAligned(*given[i]))
      continue;
    Expected<AttentionTensorRef> packed = packedTensorLike(kComponent, *given[i], stores[i]);
    if (!packed)
      return packed.takeError();
    *used[i] = *packed;
    if (i < 5)
      if (Error e = copyTensor(kComponent, *given[i], *used[i], jit, options.stream))
        return std::move(e);
  }

  uint64_t rows = uint64_t(q.batch) * uint64_t(q.heads) * uint64_t(q.seq);
  std::optional<Buffer> deltaStore;
  if (!options.delta) {
    Expected<Buffer> b = Buffer::allocate(device, rows * 8);
    if (!b)
      return makeError(kComponent, "cannot allocate the per-query terms (" + Twine(rows * 8) +
                                       " bytes): " + toString(b.takeError()));
    deltaStore.emplace(std::move(*b));
  }
  const Buffer *delta = options.delta ? options.delta->buffer : &*deltaStore;

  auto i32 = [](int64_t x) { return int32_t(x); };
  auto strides = [&](const AttentionTensorRef &t) {
    return std::vector<KernelArgValue>{i32(t.batchStrideOrPacked()), i32(t.tokenStrideOrPacked()),
                                       i32(t.headStrideOrPacked())};
  };
  auto launch = [&](Kernel &kernel, AttentionBackwardLaunch &l,
                    std::vector<KernelArgValue> args) -> Error {
    LaunchConfig config;
    config.grid = l.grid;
    config.block = l.block;
    config.stream = options.stream;
    Expected<LaunchResult> r = kernel.launch(config, args);
    if (!r)
      return r.takeError();
    l.launch = *r;
    return Error::success();
  };
  auto blockOf = [&](const AttentionBackwardLaunch &l) -> Expected<int64_t> {
    int64_t block = paramInteger(parseKernelParams(l.params).bindings, "BLOCK").value_or(256);
    if (block < 64 || block % 64 || block > 1024)
      return makeError(kComponent, "BLOCK = " + Twine(block) +
                                       " is not a multiple of 64 (one wave) up to 1024");
    return block;
  };

  // Delta = rowsum(dO * O): 32 queries per wave.
  Expected<int64_t> preBlock = blockOf(result.delta);
  if (!preBlock)
    return preBlock.takeError();
  int64_t perWg = *preBlock / 64 * 32;
  result.delta.grid = Dim3(uint32_t((q.seq + perWg - 1) / perWg), uint32_t(q.heads),
                           uint32_t(q.batch));
  result.delta.block = Dim3(uint32_t(*preBlock));
  {
    std::vector<KernelArgValue> args = {tensorPointerArg(O), tensorPointerArg(DO),
                                        KernelArgValue(*lse.buffer), KernelArgValue(*delta),
                                        i32(q.seq), i32(q.heads)};
    for (const AttentionTensorRef *t : {&O, &DO})
      llvm::append_range(args, strides(*t));
    if (options.runDelta)
      if (Error e = launch(*pre, result.delta, std::move(args)))
      return std::move(e);
  }

  double scale = options.scale.value_or(1.0 / std::sqrt(double(q.headDim)));
  float c = float(scale * 1.4426950408889634); // the softmax runs on exp2
  float fscale = float(scale);

  // dK, dV: 32 keys per wave, per key/value head.
  Expected<int64_t> kvBlock = blockOf(result.dkdv);
  if (!kvBlock)
    return kvBlock.takeError();
  perWg = *kvBlock / 64 * 32;
  result.dkdv.grid = Dim3(uint32_t((k.seq + perWg - 1) / perWg), uint32_t(k.heads),
                          uint32_t(k.batch));
  result.dkdv.block = Dim3(uint32_t(*kvBlock));
  {
    std::vector<KernelArgValue> args = {
        tensorPointerArg(Q),  tensorPointerArg(K),  tensorPointerArg(V),
        tensorPointerArg(DO), tensorPointerArg(DK), tensorPointerArg(DV),
        KernelArgValue(*delta), i32(q.seq), i32(k.seq), i32(q.heads), i32(k.heads)};
    for (const AttentionTensorRef *t : {&Q, &K, &V, &DO, &DK, &DV})
      llvm::append_range(args, strides(*t));
    args.push_back(c);
    args.push_back(fscale);
    if (options.runDkDv)
      if (Error e = launch(*dkdv, result.dkdv, std::move(args)))
      return std::move(e);
  }

  // dQ: 32 queries per wave.
  Expected<int64_t> qBlock = blockOf(result.dq);
  if (!qBlock)
    return qBlock.takeError();
  perWg = *qBlock / 64 * 32;
  result.dq.grid = Dim3(uint32_t((q.seq + perWg - 1) / perWg), uint32_t(q.heads),
                        uint32_t(q.batch));
  result.dq.block = Dim3(uint32_t(*qBlock));
  {
    std::vector<KernelArgValue> args = {
        tensorPointerArg(Q),  tensorPointerArg(K),  tensorPointerArg(V),
        tensorPointerArg(DO), tensorPointerArg(DQ), KernelArgValue(*delta), i32(q.seq),
        i32(k.seq), i32(q.heads), i32(k.heads)};
    for (const AttentionTensorRef *t : {&Q, &K, &V, &DO, &DQ})
      llvm::append_range(args, strides(*t));
    args.push_back(c);
    args.push_back(fscale);
    if (options.runDq)
      if (Error e = launch(*dqk, result.dq, std::move(args)))
      return std::move(e);
  }

  bool ran[8] = {false, false, false, false, false, options.runDq, options.runDkDv,
                 options.runDkDv};
  for (int i = 5; i < 8; ++i)
    if (stores[i] && ran[i])
      if (Error e = copyTensor(kComponent, *used[i], *given[i], jit, options.stream))
        return std::move(e);
  return result;
}

void attentionBackwardReference(const AttentionShape &s, ArrayRef<double> q,
                                ArrayRef<double> k, ArrayRef<double> v, ArrayRef<double> dO,
                                bool causal, double scale, std::vector<double> &dq,
                                std::vector<double> &dk, std::vector<double> &dv) {
  int64_t B = s.batch, Sq = s.seqQ, Skv = s.seqKv, H = s.heads, Hkv = s.kvHeads,
          D = s.headDim, group = H / Hkv;
  dq.assign(size_t(B * Sq * H * D), 0.0);
  dk.assign(size_t(B * Skv * Hkv * D), 0.0);
  dv.assign(size_t(B * Skv * Hkv * D), 0.0);
  std::vector<double> p(static_cast<size_t>(Skv)), o(static_cast<size_t>(D));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      int64_t hk = h / group;
      auto kRow = [&](int64_t j) { return &k[size_t(((b * Skv + j) * Hkv + hk) * D)]; };
      auto vRow = [&](int64_t j) { return &v[size_t(((b * Skv + j) * Hkv + hk) * D)]; };
      for (int64_t i = 0; i < Sq; ++i) {
        size_t qi = size_t(((b * Sq + i) * H + h) * D);
        int64_t visible = visibleKeys(i, Sq, Skv, causal);
        if (!visible)
          continue; // no key: no gradient reaches Q, K or V through it
        double mx = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < visible; ++j) {
          double dot = 0;
          for (int64_t e = 0; e < D; ++e)
            dot += q[qi + size_t(e)] * kRow(j)[e];
          p[size_t(j)] = dot * scale;
          mx = std::max(mx, p[size_t(j)]);
        }
        double sum = 0;
        for (int64_t j = 0; j < visible; ++j)
          sum += (p[size_t(j)] = std::exp(p[size_t(j)] - mx));
        std::fill(o.begin(), o.end(), 0.0);
        for (int64_t j = 0; j < visible; ++j) {
          p[size_t(j)] /= sum;
          for (int64_t e = 0; e < D; ++e)
            o[size_t(e)] += p[size_t(j)] * vRow(j)[e];
        }
        double delta = 0;
        for (int64_t e = 0; e < D; ++e)
          delta += dO[qi + size_t(e)] * o[size_t(e)];
        for (int64_t j = 0; j < visible; ++j) {
          double x = 0;
          for (int64_t e = 0; e < D; ++e)
            x += dO[qi + size_t(e)] * vRow(j)[e];
          double ds = p[size_t(j)] * (x - delta);
          size_t kj = size_t(((b * Skv + j) * Hkv + hk) * D);
          for (int64_t e = 0; e < D; ++e) {
            dq[qi + size_t(e)] += scale * ds * kRow(j)[e];
            dk[kj + size_t(e)] += scale * ds * q[qi + size_t(e)];
            dv[kj + size_t(e)] += p[size_t(j)] * dO[qi + size_t(e)];
          }
        }
      }
    }
}

/// 2 B H D times the visible (query, key) pairs: one product's FLOPs.
static double productFlops(const AttentionShape &s, bool causal) {
  double pairs = 0;
  for (int64_t i = 0; i < s.seqQ; ++i)
    pairs += double(visibleKeys(i, s.seqQ, s.seqKv, causal));
  return 2.0 * double(s.batch) * double(s.heads) * double(s.headDim) * pairs;
}

double attentionBackwardFlops(const AttentionShape &s, bool causal) {
  return 5.0 * productFlops(s, causal);
}

double attentionBackwardKernelFlops(AttentionBackwardKernel kernel, const AttentionShape &s,
                                    bool causal) {
  switch (kernel) {
  case AttentionBackwardKernel::Delta:
    return 2.0 * double(s.batch) * double(s.heads) * double(s.seqQ) * double(s.headDim);
  case AttentionBackwardKernel::DkDv:
    return 4.0 * productFlops(s, causal);
  case AttentionBackwardKernel::Dq:
    return 3.0 * productFlops(s, causal);
  }
  return 0;
}

} // namespace kcc::ops
