//===- AttentionOp.cpp - kcc::ops::attention_forward, host side of fmha_fwd ===//
//
// The kernel (kernels/attention/fmha_fwd.mlir) takes 32-bit sizes and
// strides, addresses each (batch, head) slice of Q, K, V and O through a
// buffer resource, and moves rows of K and V to LDS with 4-byte DMA; the
// checks below are exactly what those facts require, each with a message
// that names the operand and the rule.
//
//===----------------------------------------------------------------------===//
#include "kernels/attention/AttentionOp.h"
#include "kernels/OperandBuffers.h"
#include "target/Error.h"
#include "kernels/EmbeddedKernels.h"
#include "runtime/Jit.h"
#include "runtime/Kernel.h"
#include "runtime/Module.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

using namespace llvm;

namespace kcc::ops {

/// What this file's errors name first.
constexpr llvm::StringLiteral kComponent = "attention";
StringRef attentionPathName(AttentionPath path) {
  switch (path) {
  case AttentionPath::Gfx950Fast:
    return "gfx950-fast";
  case AttentionPath::Gfx942:
    return "gfx942";
  case AttentionPath::Generic:
    return "generic";
  }
  return "generic";
}

AttentionPath attentionPath(Chip chip, int64_t headDim) {
  if (chip == Chip::gfx942)
    return AttentionPath::Gfx942;
  return headDim == 128 ? AttentionPath::Gfx950Fast : AttentionPath::Generic;
}

StringRef attentionKernelName(DType dtype) {
  return isFp8(dtype) ? "fmha_fwd_fp8" : "fmha_fwd";
}

DType attentionFp8DType(Chip chip) {
  return chip == Chip::gfx942 ? DType::e4m3fnuz : DType::e4m3fn;
}

std::vector<std::string> attentionFp8Params(Chip chip, DType dtype, DType outDtype,
                                            int64_t headDim, bool causal, bool lse,
                                            const std::vector<std::string> &overrides) {
  auto p = [](const char *k, int64_t v) { return ParamBinding{k, v}; };
  auto type = [](const char *k, StringRef name) { return ParamBinding{k, name.str()}; };
  std::vector<ParamBinding> params = {type("DTYPE", dtypeKernelName(dtype)),
                                     type("ODTYPE", dtypeName(outDtype)), p("D", headDim),
                                     p("CAUSAL", causal), p("PAIRS", causal),
                                     p("LSE_OUT", lse)};
  // The bf16 kernel's structure per chip (attentionParams), with rows of
  // one-byte elements: K's rows (D bytes) are shorter than a 256-byte DMA
  // line, so they cannot be padded but are swizzled (16-byte chunk j of row
  // r at j XOR (r / G mod 8), G the rows per line of banks); so is V's on
  // gfx950 for ds_read_b64_tr_b8. Timing model, gfx950, S = 4096: the K
  // reads were 8-way and the V reads 4-way conflicted unswizzled, 1245 ->
  // 1901 TFLOPS with both swizzled by 8 (by 4: 1813); gfx942 (K only):
  // 16-way, 375 -> 841 TFLOPS. V^T's rows of 32 keys (gfx942) are padded by
  // 4 bytes (its operand reads are 4-byte pairs): the transposed stores of
  // V (2 rows of a column per lane) are then 2-way conflicted where a pad
  // of 8 left them 4-way (S = 16384, D = 128: 1253.1 -> 1309.4 TFLOPS; 16
  // measured 993.3). D = 64's rows hold
  // 4 chunks: swizzled by 4. Swizzled rows also take gfx950's 16-byte DMA
  // (WIDE: a quarter of the DMA instructions and their address arithmetic
  // in the issuing waves; 1901 -> 1962 TFLOPS at S = 4096).
  //  - P's scale 2^PLOG2 keeps the largest P the lazy rescale allows (2^8)
  //    below the format's maximum: 448 for e4m3fn, 240 for e4m3fnuz.
  int64_t swz = std::min<int64_t>(8, headDim / 16);
  std::vector<ParamBinding> shape;
  if (chip == Chip::gfx950)
    shape = {p("BN", 64), p("BLOCK", 512), p("STAGGER", 1), p("V_TR", 1),
             p("PAD", 0), p("VPAD", 0), p("VR", 64), p("VC", headDim),
             p("VROWS", 8), p("KSWZ", swz), p("VSWZ", swz), p("WIDE", 1)};
  else
    // gfx942: 64-key tiles (each leading wave moves 16 rows of V), so that
    // a cluster holds twice the MFMAs between the barriers; in 34 KiB of
    // LDS, no spills (timing model, S_q = 512, S_kv = 4096, against 32-key
    // tiles: D = 128 118.4 -> 115.2 us, causal 120.1 -> 117.8; D = 64 93.0
    // -> 82.0, causal 98.4 -> 85.0).
    shape = {p("BN", 64), p("BLOCK", 512), p("STAGGER", 1), p("V_TR", 0),
             p("PAD", 0), p("VPAD", 4), p("VR", headDim), p("VC", 64),
             p("VROWS", 16), p("KSWZ", swz), p("VSWZ", 0)};
  shape.push_back(p("PLOG2", dtype == DType::e4m3fnuz ? -1 : 0));
  // ROLES as in attentionParams: one key loop per wave group's role on
  // gfx950 (D = 128 4967.6 -> 4766.9 cycles per iteration, causal 5113.4
  // -> 4865.4; D = 64 4488.1 -> 4323.7); gfx942's V moves through the
  // leading group's registers, and its loops split measured far slower
  // (D = 128 3532.0 -> 4491.2).
  if (chip == Chip::gfx950)
    shape.push_back(p("ROLES", 1));
  // INTERIOR as in attentionParams (S_q = 512, S_kv = 4096, us): gfx950
  // D = 128 60.72 -> 58.43, causal 63.00 -> 54.94; gfx942 115.17 ->
  // 113.48, causal 117.75 -> 108.03; D = 64 causal 57.50 -> 53.88 and
  // 85.00 -> 79.92. D = 64 without a mask measured slower split (55.98 ->
  // 57.30, 81.97 -> 88.21): one loop there.
  if (headDim == 128 || causal)
    shape.push_back(p("INTERIOR", 1));
  params.insert(params.end(), shape.begin(), shape.end());
  return kernelParamsWithOverrides(std::move(params), parseKernelParams(overrides));
}

std::vector<std::string> attentionParams(Chip chip, DType dtype, int64_t headDim,
                                         bool causal, bool lse,
                                         const std::vector<std::string> &overrides) {
  if (isFp8(dtype))
    return attentionFp8Params(chip, dtype, DType::bf16, headDim, causal, lse, overrides);
  auto p = [](const char *k, int64_t v) { return ParamBinding{k, v}; };
  auto type = [](const char *k, StringRef name) { return ParamBinding{k, name.str()}; };
  std::vector<ParamBinding> params = {type("DTYPE", dtypeName(dtype)), p("D", headDim),
                                     p("CAUSAL", causal), p("PAIRS", causal),
                                     p("LSE_OUT", lse)};
  // gfx950 stores K and V in their MFMA operands' reading order (no bank
  // conflicts, no padding). gfx942's LDS row padding was chosen with the
  // timing model's bank-conflict report (kcc run ... --timing
  // --bank-conflicts); rows filled by DMA can only be padded when they hold
  // whole 256-byte DMA lines, i.e. for D = 128:
  //  - K: 256-byte rows all start in the same bank; 4 elements (8 bytes)
  //    spread the 32 banks. (K in the operand's order measured 0.93x: 672.7
  //    against 723.1 TFLOPS at S = 16384.)
  //  - V^T stored through registers: rows of 32 keys (64 bytes) padded by 4
  //    elements, for both the transposing stores and the reads.
  bool wideRows = headDim * 2 % 256 == 0;
  int64_t pad = wideRows ? 4 : 0;
  int64_t vpad = 4;
  std::vector<ParamBinding> shape;
  switch (attentionPath(chip, headDim)) {
  case AttentionPath::Gfx950Fast:
    // 8 waves (256 queries) in two wave groups half a tile apart: one group's
    // softmax hides under the other's MFMAs. 64-key tiles of K and V fill
    // LDS by 16-byte DMA, each stored in the order its MFMA operand reads
    // it (K_IMAGE, V_IMAGE: one contiguous 1 KiB line per read, no bank
    // conflicts, one DMA line per read); V is read transposed by
    // ds_read_b64_tr_b16. Timing model, S = 16384: 1416.0 TFLOPS with
    // padded rows and 4-byte DMA (inbounds), 1428.3 with the images (a
    // quarter of the DMA instructions, no M0 nops).
    shape = {p("BN", 64), p("BLOCK", 512), p("STAGGER", 1), p("V_TR", 1),
             p("PAD", 0), p("VPAD", 0), p("K_IMAGE", 1), p("V_IMAGE", 1),
             p("WIDE", 1), p("VR", 64), p("VC", headDim), p("VROWS", 8)};
    break;
  case AttentionPath::Generic:
    // D = 64: 8 waves in two staggered groups as for D = 128 (the timing
    // model: MFMA busy 27% against 20% for two 4-wave workgroups per CU, the
    // same waves per SIMD). Its 128-byte rows could not be padded under the
    // DMA's lines, so its K reads were bank-conflicted; stored in the
    // operands' reading order they are not (timing model, S = 16384: 778.2
    // -> 1053.7 TFLOPS; the padded-row copies inside the keys also spilled
    // 25 SGPRs holding their loop-invariant line offsets).
    shape = {p("BN", 64), p("BLOCK", 512), p("STAGGER", 1), p("V_TR", 1),
             p("PAD", 0), p("VPAD", 0), p("K_IMAGE", 1), p("V_IMAGE", 1),
             p("WIDE", 1), p("VR", 64), p("VC", headDim), p("VROWS", 8)};
    break;
  case AttentionPath::Gfx942:
    // 64 KiB of LDS: 32-key tiles, double-buffered, so one workgroup per CU
    // for D = 128 (35 KiB). It has 8 waves in two staggered groups, as on
    // gfx950, for two waves per SIMD; without a transposing LDS read, each
    // of the 4 leading waves stores 8 rows of V transposed as V^T [D, 32]
    // (timing model: 1.45x the 4-wave kernel's throughput). D = 64 too
    // (MFMA busy 34% against 22% for 4-wave workgroups).
    if (headDim == 128)
      shape = {p("BN", 32), p("BLOCK", 512), p("STAGGER", 1), p("V_TR", 0), p("PAD", pad),
               p("VPAD", vpad), p("VR", headDim), p("VC", 32), p("VROWS", 8)};
    else
      // K's 128-byte rows cannot be padded under the DMA's 256-byte lines
      // and are 16-way conflicted on 32 banks unpadded: the leading waves
      // move K through registers (K_REG, 8 rows each) into rows padded by 4
      // (timing model: 0.63x the cycles). On gfx950 the same measured
      // slower than the conflicted DMA, so it keeps the DMA.
      // 64-key tiles, as 34 KiB of LDS allow at this D (each leading wave
      // moves 16 rows of K and of V): a cluster holds 16 MFMAs between the
      // barriers instead of 8 (timing model, S_q = 512, S_kv = 4096:
      // 132.7 -> 120.0 us, causal 137.1 -> 127.7; D = 128's would need
      // 66 KiB).
      shape = {p("BN", 64), p("BLOCK", 512), p("STAGGER", 1), p("V_TR", 0), p("PAD", 4),
               p("VPAD", vpad), p("VR", headDim), p("VC", 64), p("VROWS", 16),
               p("K_REG", 1), p("KROWS", 16)};
    break;
  }
  // gfx950: the key loop once per wave group's role (ROLES), so that
  // neither loop branches on the role around its DMA and waits. Timing
  // model (kcc run attention --timing --steady-state=8, S_q = 512, S_kv =
  // 4096, cycles per iteration): D = 128 5525.9 -> 5302.5, causal 5797.1 ->
  // 5654.5; D = 64 4869.2 -> 4734.5, causal 5210.8 -> 4848.0. gfx942's
  // loops measured slower split (D = 128 5629.9 -> 5694.0, causal 5698.2
  // -> 6116.7): not taken there.
  if (chip == Chip::gfx950)
    shape.push_back(p("ROLES", 1));
  // INTERIOR: the key tiles no wave masks (causal: those below the
  // workgroup's diagonal) in a loop of their own, with no mask, fetch or
  // loop-end tests. Timing model (S_q = 512, S_kv = 4096, us): gfx950
  // D = 128 94.48 -> 94.43, causal 95.88 -> 88.26; D = 64 63.09 -> 61.37,
  // causal 64.34 -> 57.65; gfx942 D = 128 222.89 -> 216.24, causal 223.57
  // -> 203.06; D = 64 119.95 -> 119.03, causal 127.72 -> 111.46.
  shape.push_back(p("INTERIOR", 1));
  params.insert(params.end(), shape.begin(), shape.end());
  return kernelParamsWithOverrides(std::move(params), parseKernelParams(overrides));
}

Error checkAttentionTiling(const std::vector<std::string> &params) {
  std::vector<ParamBinding> bindings = parseKernelParams(params).bindings;
  auto value = [&](StringRef key, int64_t dflt) {
    return paramInteger(bindings, key).value_or(dflt);
  };
  // The kernels' defaults (fmha_fwd.mlir, fmha_fwd_fp8.mlir).
  int64_t bn = value("BN", 64), waves = value("BLOCK", 512) / 64;
  // Rows of a tile that go through registers are moved by the leading
  // group of a stagger (else by every wave), each wave its share: a share
  // that does not cover the tile would leave rows of LDS stale, and the
  // kernel has no way to tell.
  int64_t movers = value("STAGGER", 1) ? waves / 2 : waves;
  auto covers = [&](StringRef key, int64_t rows) -> Error {
    if (rows * movers == bn)
      return Error::success();
    return makeError(kComponent, key + "=" + Twine(rows) + " rows for each of the " +
                                     Twine(movers) + " waves that move a tile do not cover BN=" +
                                     Twine(bn) + " keys; give " + key + "=" +
                                     Twine(movers > 0 ? bn / movers : 0) +
                                     " (BN / the moving waves)");
  };
  if (!value("V_TR", 1))
    if (Error e = covers("VROWS", value("VROWS", 8)))
      return e;
  if (value("K_REG", 0))
    if (Error e = covers("KROWS", value("KROWS", 16)))
      return e;
  return Error::success();
}

uint32_t attentionGridX(const std::vector<std::string> &params, int64_t seq) {
  std::vector<ParamBinding> bindings = parseKernelParams(params).bindings;
  int64_t block = paramInteger(bindings, "BLOCK").value_or(256);
  int64_t queries = std::max<int64_t>(1, block / 64) * 32;
  int64_t blocks = (seq + queries - 1) / queries;
  if (paramInteger(bindings, "PAIRS").value_or(0))
    blocks = (blocks + 1) / 2;
  return uint32_t(blocks);
}

Error checkAttention(const AttentionTensorRef &q, const AttentionTensorRef &k,
                     const AttentionTensorRef &v, const AttentionTensorRef &o,
                     const AttentionOptions &options) {
  const std::pair<const char *, const AttentionTensorRef *> all[] = {
      {"Q", &q}, {"K", &k}, {"V", &v}, {"O", &o}};
  const std::optional<VectorRef> &lse = options.lse;
  std::vector<NamedBuffer> buffers;
  for (auto [name, t] : all)
    buffers.push_back({name, t->buffer});
  if (lse)
    buffers.push_back({"LSE", lse->buffer});
  if (Error e = checkOperandBuffers(kComponent, buffers))
    return e;
  Device &device = q.buffer->device();

  bool fp8 = isFp8(q.dtype);
  if (q.dtype != DType::bf16 && q.dtype != DType::f16 && !fp8)
    return makeError(kComponent, "Q is " + dtypeName(q.dtype) +
                                     "; Q, K, V must be bf16, f16 or the chip's FP8 e4m3 "
                                     "(e4m3fn on gfx950, e4m3fnuz on gfx942)");
  if (fp8 && q.dtype != attentionFp8DType(device.chip()))
    return makeError(kComponent,
                     "Q is " + dtypeName(q.dtype) + ", an FP8 encoding " +
                         getChipInfo(device.chip()).name + " lacks; " + getChipInfo(device.chip()).name +
                         " takes " + dtypeName(attentionFp8DType(device.chip())) +
                         (device.chip() == Chip::gfx942 ? " (FNUZ)" : " (OCP)"));
  for (auto [name, t] : ArrayRef(all).drop_front(1).take_front(2))
    if (t->dtype != q.dtype)
      return makeError(kComponent, Twine(name) + " is " + dtypeName(t->dtype) + " but Q is " +
                   dtypeName(q.dtype) +
                   (fp8 ? "; Q, K and V must have one dtype" : "; Q, K, V and O must have one dtype"));
  if (fp8 && o.dtype != DType::bf16 && o.dtype != DType::f16)
    return makeError(kComponent, "O is " + dtypeName(o.dtype) +
                                     "; with FP8 inputs O must be bf16 or f16");
  if (!fp8 && o.dtype != q.dtype)
    return makeError(kComponent, "O is " + dtypeName(o.dtype) + " but Q is " +
                                     dtypeName(q.dtype) + "; Q, K, V and O must have one dtype");
  if (options.descale && !fp8)
    return makeError(kComponent, "descale factors apply to FP8 inputs; Q is " +
                                     dtypeName(q.dtype));
  if (options.descale)
    for (auto [name, x] : {std::pair{"Q", options.descale->q}, {"K", options.descale->k},
                           {"V", options.descale->v}})
      if (!(std::isfinite(x) && x > 0)) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", x);
        return makeError(kComponent, Twine(name) + "'s descale factor " + text +
                                         " must be positive and finite");
      }
  if (lse && lse->dtype != DType::f32)
    return makeError(kComponent, "LSE is " + dtypeName(lse->dtype) + "; it must be f32");

  // Shapes, before strides and sizes: the message should name the root
  // cause.
  for (auto [name, t] : all)
    if (t->batch < 1 || t->seq < 1 || t->heads < 1 || t->headDim < 1)
      return makeError(kComponent, Twine(name) + " is " + tensorShapeText(*t) +
                   " ([B, S, H, D]); every dimension must be at least 1");
  if (q.headDim != 64 && q.headDim != 128)
    return makeError(kComponent, "head size D = " + Twine(q.headDim) +
                 " is not supported; the kernel has D = 64 and D = 128");
  if (k.batch != q.batch || k.headDim != q.headDim)
    return makeError(kComponent, "K is " + tensorShapeText(k) + " but Q is " + tensorShapeText(q) +
                 "; K needs Q's batch and head size");
  if (v.batch != k.batch || v.seq != k.seq || v.heads != k.heads ||
      v.headDim != k.headDim)
    return makeError(kComponent, "V is " + tensorShapeText(v) + " but K is " + tensorShapeText(k) +
                 "; V must have K's shape");
  if (o.batch != q.batch || o.seq != q.seq || o.heads != q.heads ||
      o.headDim != q.headDim)
    return makeError(kComponent, "O is " + tensorShapeText(o) + "; expected Q's shape " + tensorShapeText(q));
  if (q.heads % k.heads)
    return makeError(kComponent, "H = " + Twine(q.heads) + " query heads is not a multiple of H_kv = " +
                 Twine(k.heads) + " key/value heads");
  if (q.heads > 65535 || q.batch > 65535)
    return makeError(kComponent, "B = " + Twine(q.batch) + ", H = " + Twine(q.heads) +
                 ": the launch grid has B and H as dimensions of at most 65535");

  for (auto [name, t] : all)
    if (Error e = checkTensorLayout(kComponent, name, *t))
      return e;
  // FP8 rows move by 4-byte DMA and loads, and there is no packing copy of
  // one-byte elements: the views must keep every row 4-byte aligned.
  if (fp8)
    for (auto [name, t] : ArrayRef(all).take_front(3))
      if (t->offset % 4 || t->batchStrideOrPacked() % 4 || t->tokenStrideOrPacked() % 4 ||
          t->headStrideOrPacked() % 4)
        return makeError(kComponent, Twine(name) + "'s offset and strides (" +
                                         Twine(t->offset) + "; " + tensorStridesText(*t) +
                                         ") must be multiples of 4 for FP8 (4-byte aligned rows)");
  if (tensorOverlaps(o))
    return makeError(kComponent, "O's strides (" + tensorStridesText(o) +
                 ") make elements overlap; every output element needs its own "
                 "address");
  // Other workgroups still read K, V and the rest of Q while one writes its
  // part of O. O exactly on Q is safe: each wave reads its queries once,
  // before it writes the same rows.
  auto intersect = [](std::pair<uint64_t, uint64_t> a, std::pair<uint64_t, uint64_t> b) {
    return a.first < b.second && b.first < a.second;
  };
  for (auto [name, t] : ArrayRef(all).take_front(3)) {
    if (t->buffer != o.buffer || (t == &q && sameTensorView(q, o)))
      continue;
    if (intersect(tensorByteRange(*t), tensorByteRange(o)))
      return makeError(kComponent, "O overlaps " + Twine(name) +
                   " in their buffer; the kernel reads " + name +
                   " while it writes O (only O = Q, the same view, may share memory)");
  }
  if (lse) {
    uint64_t n = uint64_t(q.batch) * uint64_t(q.heads) * uint64_t(q.seq);
    if (uint64_t(lse->size) != n)
      return makeError(kComponent, "LSE has " + Twine(lse->size) + " elements; expected B * H * S_q = " +
                   Twine(n));
    if (n > uint64_t(INT32_MAX))
      return makeError(kComponent, "LSE has " + Twine(n) +
                   " elements; the kernel's 32-bit offsets reach at most 2147483647");
    if (n * 4 > lse->buffer->size())
      return makeError(kComponent, "LSE (" + Twine(n) + " f32) needs " + Twine(n * 4) +
                   " bytes; its buffer has " + Twine(lse->buffer->size()));
    for (auto [name, t] : all)
      if (t->buffer == lse->buffer && intersect(tensorByteRange(*t), {0, n * 4}))
        return makeError(kComponent, "LSE overlaps " + Twine(name) +
                     " in their buffer; it needs memory of its own");
  }
  if (options.scale && !(std::isfinite(*options.scale) && *options.scale > 0)) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", *options.scale);
    return makeError(kComponent, "scale = " + Twine(text) +
                 " must be positive and finite (the kernel's running maximum "
                 "assumes larger scores weigh more)");
  }
  return Error::success();
}

Expected<AttentionResult> attention_forward(const AttentionTensorRef &q,
                                            const AttentionTensorRef &k,
                                            const AttentionTensorRef &v,
                                            const AttentionTensorRef &o,
                                            const AttentionOptions &options) {
  if (Error e = checkAttention(q, k, v, o, options))
    return std::move(e);
  Device &device = q.buffer->device();
  AttentionResult result;
  result.path = attentionPath(device.chip(), q.headDim);
  bool fp8 = isFp8(q.dtype);
  result.params = fp8 ? attentionFp8Params(device.chip(), q.dtype, o.dtype, q.headDim,
                                           options.causal, options.lse.has_value(),
                                           options.params)
                      : attentionParams(device.chip(), q.dtype, q.headDim, options.causal,
                                        options.lse.has_value(), options.params);
  if (Error e = checkAttentionTiling(result.params))
    return std::move(e);
  Jit &jit = options.jit ? *options.jit : Jit::shared();
  StringRef kernelName = attentionKernelName(q.dtype);
  Expected<Module> module = compileEmbeddedKernel(device, jit, kernelName, result.params);
  if (!module)
    return createStringError(inconvertibleErrorCode(),
                             "attention: cannot compile the kernel: " +
                                 toString(module.takeError()));
  Expected<Kernel> kernel = module->kernel(kernelName);
  if (!kernel)
    return kernel.takeError();

  // Operands whose rows do not start 4-byte aligned (odd strides or offset)
  // are packed first; an O like that is written packed and copied back.
  std::optional<Buffer> qStore, kStore, vStore, oStore;
  AttentionTensorRef Q = q, K = k, V = v, O = o;
  for (auto [src, dst, store] :
       {std::tuple{&q, &Q, &qStore}, {&k, &K, &kStore}, {&v, &V, &vStore}}) {
    if (tensorRowsAligned(*src))
      continue;
    Expected<AttentionTensorRef> packed = packedTensorLike(kComponent, *src, *store);
    if (!packed)
      return packed.takeError();
    *dst = *packed;
    if (Error e = copyTensor(kComponent, *src, *dst, jit, options.stream))
      return std::move(e);
  }
  if (!tensorRowsAligned(o)) {
    Expected<AttentionTensorRef> packed = packedTensorLike(kComponent, o, oStore);
    if (!packed)
      return packed.takeError();
    O = *packed;
  }

  // A workgroup of BLOCK / 64 waves takes 32 queries per wave, for one head
  // of one batch.
  int64_t block =
      paramInteger(parseKernelParams(result.params).bindings, "BLOCK").value_or(256);
  if (block < 64 || block % 64)
    return makeError(kComponent, "BLOCK = " + Twine(block) + " is not a positive multiple of 64 (one wave)");
  result.grid = Dim3(attentionGridX(result.params, q.seq), uint32_t(q.heads),
                     uint32_t(q.batch));
  result.block = Dim3(uint32_t(block));
  LaunchConfig config;
  config.grid = result.grid;
  config.block = result.block;
  config.stream = options.stream;

  double scale = options.scale.value_or(1.0 / std::sqrt(double(q.headDim)));
  // The softmax runs on exp2: scores are scaled by scale * log2(e), and, for
  // FP8, by Q's and K's descale factors (the kernel's scores are sums of
  // products of codes).
  AttentionDescale descale = options.descale.value_or(AttentionDescale{});
  float kernelScale = float(scale * 1.4426950408889634 * (fp8 ? descale.q * descale.k : 1.0));
  // Without LSE the kernel never touches the pointer, but the slot still
  // takes a device address: Q's is a valid one.
  KernelArgValue lseArg =
      options.lse ? KernelArgValue(*options.lse->buffer) : tensorPointerArg(Q);
  auto i32 = [](int64_t x) { return int32_t(x); };
  std::vector<KernelArgValue> args = {
      tensorPointerArg(Q), tensorPointerArg(K), tensorPointerArg(V), tensorPointerArg(O), lseArg,
      i32(Q.seq), i32(K.seq), i32(Q.heads), i32(K.heads),
      i32(Q.batchStrideOrPacked()), i32(Q.tokenStrideOrPacked()), i32(Q.headStrideOrPacked()),
      i32(K.batchStrideOrPacked()), i32(K.tokenStrideOrPacked()), i32(K.headStrideOrPacked()),
      i32(V.batchStrideOrPacked()), i32(V.tokenStrideOrPacked()), i32(V.headStrideOrPacked()),
      i32(O.batchStrideOrPacked()), i32(O.tokenStrideOrPacked()), i32(O.headStrideOrPacked()),
      kernelScale};
  if (fp8)
    args.push_back(float(descale.v));
  Expected<LaunchResult> launched = kernel->launch(config, args);
  if (!launched)
    return launched.takeError();
  result.launch = *launched;
  if (oStore)
    if (Error e = copyTensor(kComponent, O, o, jit, options.stream))
      return std::move(e);
  return result;
}

/// Query i of head h in batch b: how many keys it sees (bottom-right
/// aligned diagonal when causal: keys up to i + (S_kv - S_q)), their
/// weights exp(s_j - max) in `w` and the row's maximum and sum of weights.
/// Shared by the reference and the FP8 tolerance, which must see the same P.
static int64_t softmaxRow(const AttentionShape &s, ArrayRef<double> q, ArrayRef<double> k,
                          bool causal, double scale, int64_t b, int64_t h, int64_t i,
                          std::vector<double> &w, double &mx, double &sum) {
  int64_t Sq = s.seqQ, Skv = s.seqKv, H = s.heads, Hkv = s.kvHeads, D = s.headDim;
  int64_t hk = h / (H / Hkv);
  int64_t visible = causal ? std::min(Skv, std::max<int64_t>(0, i + Skv - Sq + 1)) : Skv;
  const double *qi = &q[size_t(((b * Sq + i) * H + h) * D)];
  mx = -std::numeric_limits<double>::infinity();
  for (int64_t j = 0; j < visible; ++j) {
    const double *kj = &k[size_t(((b * Skv + j) * Hkv + hk) * D)];
    double dot = 0;
    for (int64_t e = 0; e < D; ++e)
      dot += qi[e] * kj[e];
    w[size_t(j)] = dot * scale;
    mx = std::max(mx, w[size_t(j)]);
  }
  sum = 0;
  for (int64_t j = 0; j < visible; ++j)
    sum += w[size_t(j)] = std::exp(w[size_t(j)] - mx);
  return visible;
}

void attentionReference(const AttentionShape &s, ArrayRef<double> q, ArrayRef<double> k,
                        ArrayRef<double> v, bool causal, double scale,
                        std::vector<double> &o, std::vector<double> &lse) {
  int64_t B = s.batch, Sq = s.seqQ, Skv = s.seqKv, H = s.heads, Hkv = s.kvHeads,
          D = s.headDim, group = H / Hkv;
  o.assign(size_t(B * Sq * H * D), 0.0);
  lse.assign(size_t(B * H * Sq), -std::numeric_limits<double>::infinity());
  std::vector<double> w(static_cast<size_t>(Skv));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      int64_t hk = h / group;
      for (int64_t i = 0; i < Sq; ++i) {
        double mx, sum;
        int64_t visible = softmaxRow(s, q, k, causal, scale, b, h, i, w, mx, sum);
        if (!visible)
          continue; // no key: O = 0, LSE = -inf
        double *oi = &o[size_t(((b * Sq + i) * H + h) * D)];
        for (int64_t j = 0; j < visible; ++j) {
          const double *vj = &v[size_t(((b * Skv + j) * Hkv + hk) * D)];
          double p = w[size_t(j)] / sum;
          for (int64_t e = 0; e < D; ++e)
            oi[e] += p * vj[e];
        }
        lse[size_t((b * H + h) * Sq + i)] = mx + std::log(sum);
      }
    }
}

void attentionFp8Tolerance(const AttentionShape &s, ArrayRef<double> q, ArrayRef<double> k,
                           ArrayRef<double> v, bool causal, double scale, DType outDtype,
                           ArrayRef<double> refO, std::vector<double> &tolerance) {
  int64_t B = s.batch, Sq = s.seqQ, Skv = s.seqKv, H = s.heads, Hkv = s.kvHeads,
          D = s.headDim, group = H / Hkv;
  const double rel = std::ldexp(1.0, -4), floorAbs = std::ldexp(1.0, -10);
  const double outRel = outDtype == DType::f16 ? std::ldexp(1.0, -10) : std::ldexp(1.0, -8);
  tolerance.assign(size_t(B * Sq * H * D), 1e-5);
  std::vector<double> p(static_cast<size_t>(Skv)), worst(static_cast<size_t>(D)),
      var(static_cast<size_t>(D));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      int64_t hk = h / group;
      for (int64_t i = 0; i < Sq; ++i) {
        double mx, l;
        int64_t visible = softmaxRow(s, q, k, causal, scale, b, h, i, p, mx, l);
        if (!visible)
          continue;
        std::fill(worst.begin(), worst.end(), 0.0);
        std::fill(var.begin(), var.end(), 0.0);
        for (int64_t j = 0; j < visible; ++j) {
          double u = std::max(rel * p[size_t(j)], floorAbs);
          const double *vj = &v[size_t(((b * Skv + j) * Hkv + hk) * D)];
          for (int64_t e = 0; e < D; ++e) {
            worst[size_t(e)] += u * std::fabs(vj[e]);
            var[size_t(e)] += u * u * vj[e] * vj[e] / 3;
          }
        }
        size_t at = size_t(((b * Sq + i) * H + h) * D);
        for (int64_t e = 0; e < D; ++e)
          tolerance[at + size_t(e)] +=
              std::min(worst[size_t(e)], 8 * std::sqrt(var[size_t(e)])) / l +
              outRel * std::fabs(refO[at + size_t(e)]);
      }
    }
}

} // namespace kcc::ops
