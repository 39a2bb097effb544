//===- QuantGemmOp.cpp - FP8 and int8 GEMMs (gemm_q8.mlir) ----------------===//
#include "kernels/gemm/QuantGemmOp.h"
#include "kernels/EmbeddedKernels.h"
#include "kernels/gemm/GemmOperands.h"
#include "kernels/OperandBuffers.h"
#include "runtime/Buffer.h"
#include "runtime/Jit.h"
#include "runtime/Kernel.h"
#include "runtime/Module.h"
#include "target/Error.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace kcc::ops {

/// The two kinds of 8-bit inputs gemm_q8.mlir takes.
enum class Quant { fp8, int8 };
/// What an op's errors name first.
StringRef componentOf(Quant q) { return q == Quant::fp8 ? "gemm_fp8" : "gemm_i8"; }
/// The K (and Bt's N) one block scale covers.
constexpr int64_t kScaleBlock = 128;
/// The largest M that takes the decode tile.
constexpr int64_t kDecodeRows = 64;
/// The LDS of a workgroup: two buffers of 128-deep one-byte K blocks of a
/// 128-row A and Bt tile (gemm_q8.mlir's 128x128 and decode tiles alike).
constexpr int64_t kLdsBytes = 64 * 1024;
/// The fewest K blocks a split share runs (512 of K, as gemm's kMinShareK).
constexpr int64_t kMinShareBlocks = 4;

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The bytes of K one DMA lane moves on `chip`: K and the operands' row
/// strides must be multiples (gfx950's 16-byte DMA; gfx942's 4-byte).
int64_t dmaUnit(Chip chip) { return chip == Chip::gfx950 ? 16 : 4; }

bool isOut(DType t) { return t == DType::bf16 || t == DType::f16 || t == DType::f32; }

/// The granularities a scale of `s`'s shape can mean for a matrix of
/// `rows` rows whose block scales are `blockRows` x `kBlocks`.
struct Readings {
  bool tensor = false, rows = false, blocks = false;
};
Readings readingsOf(const MatrixRef &s, int64_t rows, int64_t blockRows, int64_t kBlocks) {
  return {s.rows == 1 && s.cols == 1, s.rows == rows && s.cols == 1,
          s.rows == blockRows && s.cols == kBlocks};
}

std::string expectedShapes(StringRef who, StringRef rowName, StringRef blockName, int64_t rows,
                           int64_t blockRows, int64_t kBlocks) {
  return (who + " of " + Twine(rows) + " rows and K in " + Twine(kBlocks) +
          " blocks of 128 it must be 1x1 (per tensor), " + Twine(rows) + "x1 (" + rowName +
          ") or " + Twine(blockRows) + "x" + Twine(kBlocks) + " (" + blockName + ")")
      .str();
}

} // namespace

const char *scaleGranularityName(ScaleGranularity g) {
  switch (g) {
  case ScaleGranularity::tensor:
    return "per tensor";
  case ScaleGranularity::rows:
    return "per row";
  case ScaleGranularity::blocks:
    return "128-deep blocks";
  }
  return "?";
}

DType fp8DTypeOf(Chip chip) { return chip == Chip::gfx950 ? DType::e4m3fn : DType::e4m3fnuz; }

/// scaleGranularities with errors that name `component`.
static Expected<std::pair<ScaleGranularity, ScaleGranularity>>
granularitiesFor(StringRef component, const MatrixRef &aScale, const MatrixRef &bScale,
                 int64_t m, int64_t n, int64_t k) {
  StringRef kComponent = component;
  int64_t kb = ceilDiv(k, kScaleBlock), nb = ceilDiv(n, kScaleBlock);
  Readings ra = readingsOf(aScale, m, m, kb), rb = readingsOf(bScale, n, nb, kb);
  if (!ra.tensor && !ra.rows && !ra.blocks)
    return makeError(kComponent, "A's scale is " + matrixShapeText(aScale) + "; for " +
                                     expectedShapes("A", "per token", "1x128 blocks", m, m, kb));
  if (!rb.tensor && !rb.rows && !rb.blocks)
    return makeError(kComponent,
                     "Bt's scale is " + matrixShapeText(bScale) + "; for " +
                         expectedShapes("Bt", "per channel", "128x128 blocks", n, nb, kb));
  // Block scales where both read as blocks (a shape that also reads as per
  // tensor or per row then means the same values either way).
  if (ra.blocks && rb.blocks)
    return std::pair{ScaleGranularity::blocks, ScaleGranularity::blocks};
  auto along = [](const Readings &r) {
    return r.tensor ? std::optional(ScaleGranularity::tensor)
           : r.rows ? std::optional(ScaleGranularity::rows)
                    : std::nullopt;
  };
  std::optional<ScaleGranularity> ga = along(ra), gb = along(rb);
  if (!ga)
    return makeError(kComponent, "A's scale (" + matrixShapeText(aScale) +
                                     ") is over 1x128 blocks but Bt's (" +
                                     matrixShapeText(bScale) + ") is " +
                                     scaleGranularityName(*gb) +
                                     "; block scales need both operands' in blocks (Bt's " +
                                     Twine(nb) + "x" + Twine(kb) + ")");
  if (!gb)
    return makeError(kComponent, "Bt's scale (" + matrixShapeText(bScale) +
                                     ") is over 128x128 blocks but A's (" +
                                     matrixShapeText(aScale) + ") is " +
                                     scaleGranularityName(*ga) +
                                     "; block scales need both operands' in blocks (A's " +
                                     Twine(m) + "x" + Twine(kb) + ")");
  return std::pair{*ga, *gb};
}

Expected<std::pair<ScaleGranularity, ScaleGranularity>>
scaleGranularities(const MatrixRef &aScale, const MatrixRef &bScale, int64_t m, int64_t n,
                   int64_t k) {
  return granularitiesFor(componentOf(Quant::fp8), aScale, bScale, m, n, k);
}

std::vector<std::string> gemmFp8Params(Chip chip, DType out, ScaleGranularity aScale,
                                       ScaleGranularity bScale, std::optional<DType> bias,
                                       GemmSize size, const std::vector<std::string> &overrides) {
  auto num = [](StringRef key, int64_t v) { return ParamBinding{key.str(), v}; };
  auto type = [](StringRef key, StringRef t) { return ParamBinding{key.str(), t.str()}; };
  std::vector<ParamBinding> p = {
      type("DTYPE", dtypeKernelName(fp8DTypeOf(chip))), type("OUT", dtypeName(out)),
      num("ASCALE", int64_t(aScale)), num("BSCALE", int64_t(bScale)),
      num("HAS_BIAS", bias ? 1 : 0)};
  if (bias)
    p.push_back(type("BDTYPE", dtypeName(*bias)));
  // Rows of 128 one-byte elements (8 16-byte chunks) swizzled over all
  // their chunks; K in slices of 64: two of gfx942's 32-deep k_wide pairs,
  // one of gfx950's 32x32x64.
  if (size.m <= kDecodeRows)
    // Decode: a 128-row tile would multiply mostly rows past M; one row of
    // four 32x32 waves covers 128 columns of C per workgroup.
    p.insert(p.end(), {num("WM", 32), num("WN", 32), num("WGM", 1), num("WGN", 4)});
  else
    p.insert(p.end(), {num("WM", 64), num("WN", 64), num("WGM", 2), num("WGN", 2)});
  p.insert(p.end(), {num("KS", 64), num("SWZ", 8), num("WIDE", chip == Chip::gfx950 ? 1 : 0)});
  // Decode: its tiles fill a small part of the CUs' workgroup slots (16 x
  // 4608 x 7168: 36 tiles for 512 slots on gfx950), each running all of K
  // at the loop's memory latency; split K so that the tiles' shares fill
  // the slots, each at least kMinShareBlocks blocks deep (the partials'
  // store and the reduction are then small beside the share's loads), and
  // the reduction (gemm_reduce.mlir) adds the bias and converts to C's
  // dtype.
  KernelParams given = parseKernelParams(overrides);
  if (size.m <= kDecodeRows && !findParamBinding(given.bindings, "SPLITK")) {
    const ChipInfo &info = getChipInfo(chip);
    int64_t bn = paramInteger(given.bindings, "WN").value_or(32) *
                 paramInteger(given.bindings, "WGN").value_or(4);
    int64_t tiles = ceilDiv(size.m, 32) * ceilDiv(size.n, bn);
    int64_t slots = int64_t(info.computeUnits) * (info.ldsBytesPerCU / kLdsBytes);
    int64_t kBlocks = ceilDiv(size.k, kScaleBlock);
    int64_t splits = std::min(slots / std::max<int64_t>(tiles, 1), kBlocks / kMinShareBlocks);
    if (splits >= 2) {
      p.push_back(num("SPLITK", splits));
      eraseParamBinding(p, "OUT");
      eraseParamBinding(p, "HAS_BIAS");
      eraseParamBinding(p, "BDTYPE");
      p.insert(p.begin() + 1, type("OUT", "f32"));
      p.insert(p.begin() + 4, num("HAS_BIAS", 0));
    }
  }
  return kernelParamsWithOverrides(std::move(p), given);
}

int64_t gemmQuantSplits(const std::vector<std::string> &params) {
  return paramInteger(parseKernelParams(params).bindings, "SPLITK").value_or(1);
}

Dim3 gemmFp8Grid(const std::vector<std::string> &params, int64_t m, int64_t n) {
  std::vector<ParamBinding> p = parseKernelParams(params).bindings;
  int64_t bm = paramInteger(p, "WM").value_or(64) * paramInteger(p, "WGM").value_or(2);
  int64_t bn = paramInteger(p, "WN").value_or(64) * paramInteger(p, "WGN").value_or(2);
  return Dim3(uint32_t(ceilDiv(m, bm)), uint32_t(ceilDiv(n, bn)),
              uint32_t(paramInteger(p, "SPLITK").value_or(1)));
}

/// checkGemmFp8 / checkGemmInt8.
static Error checkQuant(Quant q, const MatrixRef &a, const MatrixRef &bt,
                        const MatrixRef &aScale, const MatrixRef &bScale, const MatrixRef &c,
                        const std::optional<VectorRef> &bias) {
  StringRef kComponent = componentOf(q);
  std::vector<NamedBuffer> buffers = {{"A", a.buffer},
                                      {"Bt", bt.buffer},
                                      {"A's scale", aScale.buffer},
                                      {"Bt's scale", bScale.buffer},
                                      {"C", c.buffer}};
  if (bias)
    buffers.push_back({"bias", bias->buffer});
  if (Error e = checkOperandBuffers(kComponent, buffers))
    return e;
  Device &device = a.buffer->device();

  Chip chip = device.chip();
  DType fp8 = fp8DTypeOf(chip);
  StringRef chipName = getChipInfo(chip).name;
  for (auto [name, m] : {std::pair<const char *, const MatrixRef *>{"A", &a}, {"Bt", &bt}}) {
    if (q == Quant::int8) {
      if (m->dtype != DType::i8)
        return makeError(kComponent, Twine(name) + " is " + dtypeName(m->dtype) +
                                         "; A and Bt must be i8");
      continue;
    }
    if (!isFp8(m->dtype))
      return makeError(kComponent, Twine(name) + " is " + dtypeName(m->dtype) +
                                       "; A and Bt must be FP8 e4m3 (" + dtypeName(fp8) +
                                       " on " + chipName + ")");
    if (m->dtype != fp8)
      return makeError(kComponent,
                       Twine(name) + " is " + dtypeName(m->dtype) + ", but " + chipName +
                           "'s matrix cores take " + dtypeName(fp8) +
                           " (e4m3fn: gfx950, OCP; e4m3fnuz: gfx942, FNUZ); convert the "
                           "codes or run on the other chip");
  }
  for (auto [name, m] : {std::pair<const char *, const MatrixRef *>{"A's scale", &aScale},
                         {"Bt's scale", &bScale}})
    if (m->dtype != DType::f32)
      return makeError(kComponent, Twine(name) + " is " + dtypeName(m->dtype) +
                                       "; scales must be f32");
  if (!isOut(c.dtype))
    return makeError(kComponent, "C is " + dtypeName(c.dtype) + "; C must be bf16, f16 or f32");
  if (bias && !isOut(bias->dtype))
    return makeError(kComponent, "bias is " + dtypeName(bias->dtype) +
                                     "; the bias must be bf16, f16 or f32");

  for (auto [name, m] : {std::pair<const char *, const MatrixRef *>{"A", &a},
                         {"Bt", &bt}, {"C", &c}})
    if (m->rows <= 0 || m->cols <= 0)
      return makeError(kComponent, name + Twine(" is ") + matrixShapeText(*m) +
                                       "; every dimension must be positive");
  if (a.cols != bt.cols)
    return makeError(kComponent, "A is " + matrixShapeText(a) + " but Bt is " +
                                     matrixShapeText(bt) + "; both need K columns");
  if (c.rows != a.rows || c.cols != bt.rows)
    return makeError(kComponent, "C is " + matrixShapeText(c) + "; expected " + Twine(a.rows) +
                                     "x" + Twine(bt.rows) + " (A's rows x Bt's rows)");
  for (auto [name, m] : {std::pair<const char *, const MatrixRef *>{"A", &a},
                         {"Bt", &bt}, {"C", &c}})
    if (Error e = checkMatrixOperand(kComponent, name, *m))
      return e;
  Expected<std::pair<ScaleGranularity, ScaleGranularity>> g =
      granularitiesFor(kComponent, aScale, bScale, a.rows, bt.rows, a.cols);
  if (!g)
    return g.takeError();
  // i8 sums are exact in i32 over all of K; scales that change along K
  // are the FP8 GEMM's.
  // (Where K is one block, block-shaped scales may also read per row.)
  auto alongK = [](const MatrixRef &sc, int64_t rows) {
    return sc.cols == 1 && (sc.rows == 1 || sc.rows == rows);
  };
  if (q == Quant::int8 && g->first == ScaleGranularity::blocks &&
      !(alongK(aScale, a.rows) && alongK(bScale, bt.rows)))
    return makeError(kComponent, "A's scale (" + matrixShapeText(aScale) + ") and Bt's (" +
                                     matrixShapeText(bScale) +
                                     ") are over 128-deep blocks; the int8 GEMM takes per-tensor "
                                     "(1x1) and per-row (Mx1, Nx1) scales");
  // The kernel reads a block scale matrix as packed rows.
  for (auto [name, m] : {std::pair<const char *, const MatrixRef *>{"A's scale", &aScale},
                         {"Bt's scale", &bScale}})
    if (m->stride() != m->cols)
      return makeError(kComponent, Twine(name) + " (" + matrixShapeText(*m) +
                                       ") has leading dimension " + Twine(m->stride()) +
                                       "; scales must be packed rows (leading dimension " +
                                       Twine(m->cols) + ")");
  for (auto [name, m] : {std::pair<const char *, const MatrixRef *>{"A's scale", &aScale},
                         {"Bt's scale", &bScale}})
    if (Error e = checkMatrixOperand(kComponent, name, *m))
      return e;
  if (bias) {
    if (bias->size != bt.rows)
      return makeError(kComponent, "bias has " + Twine(bias->size) +
                                       " elements; expected N = " + Twine(bt.rows));
    uint64_t bytes = uint64_t(bias->size) * dtypeSize(bias->dtype);
    if (bytes > bias->buffer->size())
      return makeError(kComponent, "bias (" + Twine(bias->size) + " " +
                                       dtypeName(bias->dtype) + ") needs " + Twine(bytes) +
                                       " bytes; its buffer has " + Twine(bias->buffer->size()));
  }
  return Error::success();
}

/// gemmFp8 / gemmInt8.
static Expected<LaunchResult> runQuant(Quant q, const MatrixRef &a, const MatrixRef &bt,
                                       const MatrixRef &aScale, const MatrixRef &bScale,
                                       const MatrixRef &c, const std::optional<VectorRef> &bias,
                                       const GemmOptions &options) {
  StringRef kComponent = componentOf(q);
  if (Error e = checkQuant(q, a, bt, aScale, bScale, c, bias))
    return std::move(e);
  Device &device = a.buffer->device();
  Chip chip = device.chip();
  Jit &jit = options.jit ? *options.jit : Jit::shared();
  auto g = cantFail(granularitiesFor(kComponent, aScale, bScale, a.rows, bt.rows, a.cols));
  // A K of one block reads per row where the shapes agree (the int8 GEMM's
  // only row granularity).
  if (q == Quant::int8 && g.first == ScaleGranularity::blocks)
    g = {aScale.rows == 1 ? ScaleGranularity::tensor : ScaleGranularity::rows,
         bScale.rows == 1 ? ScaleGranularity::tensor : ScaleGranularity::rows};
  std::optional<DType> biasType;
  if (bias)
    biasType = bias->dtype;
  GemmSize size{a.rows, bt.rows, a.cols};
  std::vector<std::string> params =
      q == Quant::fp8
          ? gemmFp8Params(chip, c.dtype, g.first, g.second, biasType, size, options.params)
          : gemmInt8Params(chip, c.dtype, g.first, g.second, biasType, size, options.params);
  std::vector<ParamBinding> bindings = parseKernelParams(params).bindings;
  // A wave's columns of C must lie in one 128-row block of Bt's scales.
  int64_t wn = paramInteger(bindings, "WN").value_or(64);
  if (g.first == ScaleGranularity::blocks && (wn <= 0 || kScaleBlock % wn != 0))
    return makeError(kComponent, "WN=" + Twine(wn) +
                                     " does not divide 128: with block scales a wave's "
                                     "columns of C must lie in one 128-row block of Bt's");
  // K and the row strides in whole DMA units; an operand that isn't is
  // packed (both where K isn't).
  int64_t unit = dmaUnit(chip);
  int64_t kp = ceilDiv(a.cols, unit) * unit;
  std::optional<PackedOperand> packedA, packedB;
  if (kp != a.cols || a.stride() % unit) {
    Expected<PackedOperand> p = packOperand(kComponent, "A", a, kp, jit, options.stream);
    if (!p)
      return p.takeError();
    packedA = std::move(*p);
  }
  if (kp != bt.cols || bt.stride() % unit) {
    Expected<PackedOperand> p = packOperand(kComponent, "Bt", bt, kp, jit, options.stream);
    if (!p)
      return p.takeError();
    packedB = std::move(*p);
  }
  MatrixRef ga = packedA ? packedA->ref() : a;
  MatrixRef gb = packedB ? packedB->ref() : bt;
  Expected<Module> module = compileEmbeddedKernel(device, jit, "gemm_q8", params);
  if (!module)
    return makeError(kComponent, "cannot compile the kernel: " + toString(module.takeError()));
  Expected<Kernel> kernel = module->kernel("gemm_q8");
  if (!kernel)
    return kernel.takeError();
  LaunchConfig config;
  config.grid = gemmFp8Grid(params, a.rows, bt.rows);
  config.block = Dim3(uint32_t(64 * paramInteger(bindings, "WGM").value_or(2) *
                               paramInteger(bindings, "WGN").value_or(2)));
  config.stream = options.stream;
  // Without a bias the kernel never reads the pointer; the slot still takes
  // a device address (A's).
  KernelArgValue biasArg = bias ? KernelArgValue(*bias->buffer) : KernelArgValue(*a.buffer);
  // The kernel's K is the packed one: the zero columns past K add nothing,
  // and its K blocks (and so the block scales' count) are the same.
  // With a split of K the kernel stores f32 partials [splits M, ldw] and
  // gemm_reduce sums them into C, adding the bias.
  int64_t splits = paramInteger(bindings, "SPLITK").value_or(1);
  int64_t ldw = gemmPartialsStride(bt.rows);
  std::optional<Buffer> partials;
  if (splits > 1) {
    uint64_t bytes = uint64_t(splits) * uint64_t(a.rows) * uint64_t(ldw) * 4;
    if (bytes > UINT32_MAX)
      return makeError(kComponent, "SPLITK=" + Twine(splits) + " needs " + Twine(bytes) +
                                       " bytes of partial sums; the kernel reaches at most "
                                       "4294967295 bytes of them");
    Expected<Buffer> w = Buffer::allocate(device, bytes);
    if (!w)
      return makeError(kComponent, "cannot allocate the " + Twine(bytes) +
                                       " bytes of split-K partial sums: " +
                                       toString(w.takeError()));
    partials = std::move(*w);
  }
  if (partials)
    biasArg = KernelArgValue(*a.buffer);
  std::vector<KernelArgValue> args = {*ga.buffer,          *gb.buffer,
                                      partials ? *partials : *c.buffer,
                                      *aScale.buffer,      *bScale.buffer,      biasArg,
                                      int32_t(a.rows),     int32_t(bt.rows),    int32_t(ga.cols),
                                      int32_t(ga.stride()), int32_t(gb.stride()),
                                      int32_t(partials ? ldw : c.stride())};
  Expected<LaunchResult> run = kernel->launch(config, args);
  if (!run || !partials)
    return run;
  Expected<LaunchResult> reduced = gemmReduce(
      {*partials, DType::f32, splits * a.rows, bt.rows, ldw}, splits, c, bias, options);
  if (!reduced)
    return reduced.takeError();
  return bothLaunches(*run, *reduced);
}

Error checkGemmFp8(const MatrixRef &a, const MatrixRef &bt, const MatrixRef &aScale,
                   const MatrixRef &bScale, const MatrixRef &c,
                   const std::optional<VectorRef> &bias) {
  return checkQuant(Quant::fp8, a, bt, aScale, bScale, c, bias);
}

Expected<LaunchResult> gemmFp8(const MatrixRef &a, const MatrixRef &bt, const MatrixRef &aScale,
                               const MatrixRef &bScale, const MatrixRef &c,
                               const std::optional<VectorRef> &bias, const GemmOptions &options) {
  return runQuant(Quant::fp8, a, bt, aScale, bScale, c, bias, options);
}

std::vector<std::string> gemmInt8Params(Chip chip, DType out, ScaleGranularity aScale,
                                        ScaleGranularity bScale, std::optional<DType> bias,
                                        GemmSize size,
                                        const std::vector<std::string> &overrides) {
  // The FP8 choice (overrides applied, the split's OUT and bias with them)
  // with i8 inputs and exact i32 sums; K in slices of 64 is two gfx950
  // 32x32x32 steps (four gfx942 32x32x16 ones).
  KernelParams chosen =
      parseKernelParams(gemmFp8Params(chip, out, aScale, bScale, bias, size, overrides));
  std::vector<ParamBinding> &p = chosen.bindings;
  bool dtypeGiven = findParamBinding(parseKernelParams(overrides).bindings, "DTYPE");
  for (ParamBinding &b : p)
    if (b.name == "DTYPE" && !dtypeGiven)
      b.value = std::string("i8");
  if (!findParamBinding(p, "ACC"))
    p.insert(p.begin() + 1, ParamBinding{"ACC", std::string("i32")});
  return kernelParamsWithOverrides(std::move(p), {{}, chosen.malformed});
}

Error checkGemmInt8(const MatrixRef &a, const MatrixRef &bt, const MatrixRef &aScale,
                    const MatrixRef &bScale, const MatrixRef &c,
                    const std::optional<VectorRef> &bias) {
  return checkQuant(Quant::int8, a, bt, aScale, bScale, c, bias);
}

Expected<LaunchResult> gemmInt8(const MatrixRef &a, const MatrixRef &bt, const MatrixRef &aScale,
                                const MatrixRef &bScale, const MatrixRef &c,
                                const std::optional<VectorRef> &bias, const GemmOptions &options) {
  return runQuant(Quant::int8, a, bt, aScale, bScale, c, bias, options);
}

} // namespace kcc::ops
