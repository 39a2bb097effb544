//===- Ops.cpp - kcc.ops: attention and gemm on arrays --------------------===//
//
// The arrays' views become the ops' own views (AttentionTensorRef,
// MatrixRef) with the strides the caller's tensors have, so a strided view
// is handled exactly as the C++ op handles it; the op's checks run before
// anything is launched and their message becomes the ValueError.
//
//===----------------------------------------------------------------------===//

#include "python/bindings/Bindings.h"
#include "python/bindings/Tensors.h"

#include "kernels/attention/AttentionBackwardOp.h"
#include "kernels/attention/AttentionOp.h"
#include "kernels/gemm/QuantGemmOp.h"
#include "kernels/gemm/GemmOp.h"
#include "runtime/Device.h"

#include <pybind11/stl.h>

#include <array>
#include <chrono>

namespace kcc::python {

namespace {

void requireRank(const TensorView &v, size_t rank, const char *layout) {
  if (v.shape.size() != rank)
    throw py::value_error(v.name + " has " + std::to_string(v.shape.size()) +
                          " dimensions; expected " + std::to_string(rank) +
                          " " + layout);
}

void requireType(const TensorView &v, std::initializer_list<DType> allowed,
                 const char *what) {
  for (DType t : allowed)
    if (v.dtype == t)
      return;
  throw py::type_error(v.name + " has elements of type " + v.typeName +
                       "; " + what);
}

/// The stride of dimension `dim` as the ops take it: 0 ("packed") for a
/// dimension of extent 1, whose stride addresses nothing.
int64_t opStride(const TensorView &v, size_t dim) {
  if (v.shape[dim] == 1)
    return 0;
  if (v.strides[dim] == 0)
    throw py::value_error(v.name + ": dimension " + std::to_string(dim) +
                          " is broadcast (stride 0); the op needs real "
                          "memory there: pass a copy (.contiguous())");
  return v.strides[dim];
}

void requireUnitInnerStride(const TensorView &v, const char *dimName) {
  size_t last = v.shape.size() - 1;
  if (v.shape[last] > 1 && v.strides[last] != 1)
    throw py::value_error(v.name + ": the " + std::string(dimName) +
                          " dimension must be contiguous (stride 1); got "
                          "stride " +
                          std::to_string(v.strides[last]) +
                          ": pass a copy (.contiguous())");
}

/// A packed output the op writes whole (f32 LSE, bias-like vectors).
void requireContiguous(const TensorView &v) {
  if (!v.isContiguous())
    throw py::value_error(v.name + " must be contiguous (packed); pass a "
                                   "contiguous array");
}

ops::AttentionTensorRef attentionRef(const TensorView &v,
                                     const StagedTensor &s) {
  return ops::AttentionTensorRef(s.buffer(), *v.dtype, v.shape[0], v.shape[1],
                                 v.shape[2], v.shape[3])
      .withStrides(opStride(v, 0), opStride(v, 1), opStride(v, 2));
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

/// FP8 inputs come as their bits (uint8: NumPy has no FP8, and the
/// Python side views torch's float8 tensors as uint8) with `fp8Format`
/// naming the encoding; O is then bfloat16 or float16.
LaunchInfo attention(py::handle qArg, py::handle kArg, py::handle vArg,
                     py::handle oArg, py::handle lseArg, bool causal,
                     std::optional<double> scale, py::handle where,
                     std::vector<std::string> params, uint64_t stream,
                     std::optional<std::string> fp8Format,
                     std::optional<std::array<double, 3>> descale) {
  auto start = std::chrono::steady_clock::now();
  TensorView q = importTensor(qArg, "q"), k = importTensor(kArg, "k"),
             v = importTensor(vArg, "v"), o = importTensor(oArg, "out");
  std::optional<TensorView> lse;
  if (!lseArg.is_none())
    lse = importTensor(lseArg, "lse");
  std::optional<DType> fp8;
  if (fp8Format) {
    fp8 = parseDType(*fp8Format);
    if (!fp8 || !isFp8(*fp8))
      throw py::value_error("fp8_format='" + *fp8Format +
                            "'; kcc's FP8 formats are 'e4m3fn' (OCP, gfx950) and "
                            "'e4m3fnuz' (FNUZ, gfx942)");
  }
  for (TensorView *t : {&q, &k, &v}) {
    requireRank(*t, 4, "[B, S, H, D]");
    if (fp8) {
      if (t->typeName != "uint8")
        throw py::type_error(t->name + " has elements of type " + t->typeName +
                             "; FP8 attention takes torch.float8_e4m3fn / "
                             "float8_e4m3fnuz tensors or uint8 bits");
      t->dtype = *fp8;
    } else if (t->typeName == "uint8") {
      throw py::type_error(t->name + " holds uint8 values; FP8 bits need "
                           "fp8_format='e4m3fn' (gfx950) or 'e4m3fnuz' (gfx942)");
    } else {
      requireType(*t, {DType::bf16, DType::f16},
                  "attention takes bfloat16 or float16 (NumPy: uint16 bits of "
                  "bfloat16, or float16), or FP8");
    }
    requireUnitInnerStride(*t, "head (D)");
  }
  requireRank(o, 4, "[B, S, H, D]");
  requireType(o, {DType::bf16, DType::f16},
              fp8 ? "FP8 attention writes bfloat16 or float16"
                  : "attention takes bfloat16 or float16 (NumPy: uint16 bits of "
                    "bfloat16, or float16)");
  requireUnitInnerStride(o, "head (D)");
  if (descale && !fp8)
    throw py::value_error("descale applies to FP8 inputs (fp8_format or "
                          "torch.float8 tensors); q is " + q.typeName);
  if (lse) {
    requireRank(*lse, 3, "[B, H, S_q]");
    requireType(*lse, {DType::f32}, "the log-sum-exp is float32");
    requireContiguous(*lse);
  }
  if (o.readOnly)
    throw py::value_error("out is read-only");
  std::vector<const TensorView *> all = {&q, &k, &v, &o};
  if (lse)
    all.push_back(&*lse);
  Device &device = deviceFor(all, where);

  StagedTensor sq = take(StagedTensor::stage(device, q), ErrorKind::General);
  StagedTensor sk = take(StagedTensor::stage(device, k), ErrorKind::General);
  StagedTensor sv = take(StagedTensor::stage(device, v), ErrorKind::General);
  StagedTensor so =
      take(StagedTensor::stage(device, o, /*copyIn=*/false), ErrorKind::General);
  std::optional<StagedTensor> slse;
  if (lse)
    slse = take(StagedTensor::stage(device, *lse, false), ErrorKind::General);

  ops::AttentionOptions options;
  options.causal = causal;
  options.scale = scale;
  options.params = std::move(params);
  options.stream = stream;
  if (fp8)
    options.descale = descale ? ops::AttentionDescale{(*descale)[0], (*descale)[1],
                                                      (*descale)[2]}
                              : ops::AttentionDescale{};
  if (lse)
    options.lse = VectorRef(slse->buffer(), DType::f32, lse->elements());
  ops::AttentionTensorRef rq = attentionRef(q, sq), rk = attentionRef(k, sk),
                          rv = attentionRef(v, sv), ro = attentionRef(o, so);
  check(ops::checkAttention(rq, rk, rv, ro, options), ErrorKind::Value);

  ops::AttentionResult result;
  double opSeconds = 0;
  {
    py::gil_scoped_release release;
    auto opStart = std::chrono::steady_clock::now();
    result = take(ops::attention_forward(rq, rk, rv, ro, options),
                  ErrorKind::Launch);
    opSeconds = secondsSince(opStart);
    check(so.copyBack(), ErrorKind::Launch);
    if (slse)
      check(slse->copyBack(), ErrorKind::Launch);
  }
  LaunchInfo info = launchInfo(result.launch, device);
  info.opSeconds = opSeconds;
  info.path = ops::attentionPathName(result.path).str();
  info.params = result.params;
  info.grid = result.grid;
  info.block = result.block;
  info.callSeconds = secondsSince(start);
  return info;
}

/// dQ, dK, dV of attention from Q, K, V, O, dO and the forward's LSE
/// (ops::attention_backward): the gradients written into dq, dk, dv.
LaunchInfo attentionBackward(py::handle qArg, py::handle kArg, py::handle vArg,
                             py::handle oArg, py::handle doArg, py::handle lseArg,
                             py::handle dqArg, py::handle dkArg, py::handle dvArg,
                             bool causal, std::optional<double> scale, py::handle where,
                             uint64_t stream) {
  auto start = std::chrono::steady_clock::now();
  TensorView q = importTensor(qArg, "q"), k = importTensor(kArg, "k"),
             v = importTensor(vArg, "v"), o = importTensor(oArg, "out"),
             dO = importTensor(doArg, "grad_out"), lse = importTensor(lseArg, "lse"),
             dq = importTensor(dqArg, "grad_q"), dk = importTensor(dkArg, "grad_k"),
             dv = importTensor(dvArg, "grad_v");
  for (TensorView *t : {&q, &k, &v, &o, &dO, &dq, &dk, &dv}) {
    requireRank(*t, 4, "[B, S, H, D]");
    requireType(*t, {DType::bf16, DType::f16},
                "attention takes bfloat16 or float16 (NumPy: uint16 bits of "
                "bfloat16, or float16)");
    requireUnitInnerStride(*t, "head (D)");
  }
  requireRank(lse, 3, "[B, H, S_q]");
  requireType(lse, {DType::f32}, "the log-sum-exp is float32");
  requireContiguous(lse);
  for (TensorView *t : {&dq, &dk, &dv})
    if (t->readOnly)
      throw py::value_error(t->name + " is read-only");
  Device &device = deviceFor({&q, &k, &v, &o, &dO, &lse, &dq, &dk, &dv}, where);

  auto stage = [&](const TensorView &t, bool copyIn) {
    return take(StagedTensor::stage(device, t, copyIn), ErrorKind::General);
  };
  StagedTensor sq = stage(q, true), sk = stage(k, true), sv = stage(v, true),
               so = stage(o, true), sdo = stage(dO, true), slse = stage(lse, true),
               sdq = stage(dq, false), sdk = stage(dk, false), sdv = stage(dv, false);
  ops::AttentionBackwardOptions options;
  options.causal = causal;
  options.scale = scale;
  options.stream = stream;
  ops::AttentionTensorRef rq = attentionRef(q, sq), rk = attentionRef(k, sk),
                          rv = attentionRef(v, sv), ro = attentionRef(o, so),
                          rdo = attentionRef(dO, sdo), rdq = attentionRef(dq, sdq),
                          rdk = attentionRef(dk, sdk), rdv = attentionRef(dv, sdv);
  VectorRef rlse(slse.buffer(), DType::f32, lse.elements());
  check(ops::checkAttentionBackward(rq, rk, rv, ro, rdo, rlse, rdq, rdk, rdv, options),
        ErrorKind::Value);
  ops::AttentionBackwardResult result;
  double opSeconds = 0;
  {
    py::gil_scoped_release release;
    auto opStart = std::chrono::steady_clock::now();
    result = take(ops::attention_backward(rq, rk, rv, ro, rdo, rlse, rdq, rdk, rdv, options),
                  ErrorKind::Launch);
    opSeconds = secondsSince(opStart);
    for (StagedTensor *t : {&sdq, &sdk, &sdv})
      check(t->copyBack(), ErrorKind::Launch);
  }
  // The launch reported is the dK/dV kernel's (the longest of the three).
  LaunchInfo info = launchInfo(result.dkdv.launch, device);
  info.opSeconds = opSeconds;
  info.path = "backward";
  info.params = result.dkdv.params;
  info.grid = result.dkdv.grid;
  info.block = result.dkdv.block;
  info.callSeconds = secondsSince(start);
  return info;
}

MatrixRef matrixRef(const TensorView &v, const StagedTensor &s) {
  return MatrixRef(s.buffer(), *v.dtype, v.shape[0], v.shape[1],
                   opStride(v, 0));
}

LaunchInfo gemm(py::handle aArg, py::handle btArg, py::handle cArg,
                py::handle biasArg, py::handle where,
                std::vector<std::string> params, uint64_t stream) {
  auto start = std::chrono::steady_clock::now();
  TensorView a = importTensor(aArg, "a"), bt = importTensor(btArg, "b_t"),
             c = importTensor(cArg, "out");
  std::optional<TensorView> bias;
  if (!biasArg.is_none())
    bias = importTensor(biasArg, "bias");
  for (TensorView *t : {&a, &bt}) {
    requireRank(*t, 2, "[rows, K]");
    requireType(*t, {DType::bf16, DType::f16},
                "gemm takes bfloat16 or float16 inputs (NumPy: uint16 bits "
                "of bfloat16, or float16)");
    requireUnitInnerStride(*t, "K");
  }
  requireRank(c, 2, "[M, N]");
  requireType(c, {DType::bf16, DType::f16, DType::f32},
              "gemm writes bfloat16, float16 or float32");
  requireUnitInnerStride(c, "N");
  if (c.readOnly)
    throw py::value_error("out is read-only");
  if (bias) {
    requireRank(*bias, 1, "[N]");
    requireType(*bias, {DType::bf16, DType::f16}, "the bias has a's type");
    requireContiguous(*bias);
  }
  std::vector<const TensorView *> all = {&a, &bt, &c};
  if (bias)
    all.push_back(&*bias);
  Device &device = deviceFor(all, where);

  StagedTensor sa = take(StagedTensor::stage(device, a), ErrorKind::General);
  StagedTensor sb = take(StagedTensor::stage(device, bt), ErrorKind::General);
  StagedTensor sc =
      take(StagedTensor::stage(device, c, /*copyIn=*/false), ErrorKind::General);
  std::optional<StagedTensor> sbias;
  std::optional<VectorRef> rbias;
  if (bias) {
    sbias = take(StagedTensor::stage(device, *bias), ErrorKind::General);
    rbias = VectorRef(sbias->buffer(), *bias->dtype, bias->elements());
  }
  MatrixRef ra = matrixRef(a, sa), rb = matrixRef(bt, sb),
            rc = matrixRef(c, sc);
  check(ops::checkGemm(ra, rb, rc, rbias), ErrorKind::Value);

  ops::GemmOptions options;
  options.params = std::move(params);
  options.stream = stream;
  LaunchResult result;
  double opSeconds = 0;
  {
    py::gil_scoped_release release;
    auto opStart = std::chrono::steady_clock::now();
    result = take(ops::gemm(ra, rb, rc, rbias, options), ErrorKind::Launch);
    opSeconds = secondsSince(opStart);
    check(sc.copyBack(), ErrorKind::Launch);
  }
  LaunchInfo info = launchInfo(result, device);
  info.opSeconds = opSeconds;
  info.path = "gemm";
  info.callSeconds = secondsSince(start);
  return info;
}

/// The 8-bit GEMMs: FP8 (ops::gemmFp8) with a and b_t as uint8 bits (the
/// Python side views torch's float8 tensors as uint8) in the encoding
/// `fp8Format` names, or int8 (ops::gemmInt8) with fp8Format "i8"; the scales float32 [1, 1], [rows, 1] or block matrices (the
/// Python side gives vectors and scalars that shape).
LaunchInfo gemmFp8(py::handle aArg, py::handle btArg, py::handle saArg, py::handle sbArg,
                   py::handle cArg, py::handle biasArg, py::handle where,
                   std::vector<std::string> params, uint64_t stream, std::string fp8Format) {
  auto start = std::chrono::steady_clock::now();
  // "i8": the int8 GEMM on int8 arrays; else an FP8 encoding of uint8 bits.
  bool int8 = fp8Format == "i8";
  std::optional<DType> fp8 = parseDType(fp8Format);
  if (!fp8 || !(isFp8(*fp8) || int8))
    throw py::value_error("fp8_format='" + fp8Format +
                          "'; kcc's FP8 GEMM formats are 'e4m3fn' (OCP, gfx950) and "
                          "'e4m3fnuz' (FNUZ, gfx942)");
  TensorView a = importTensor(aArg, "a"), bt = importTensor(btArg, "b_t"),
             sa = importTensor(saArg, "a_scale"), sb = importTensor(sbArg, "b_scale"),
             c = importTensor(cArg, "out");
  std::optional<TensorView> bias;
  if (!biasArg.is_none())
    bias = importTensor(biasArg, "bias");
  for (TensorView *t : {&a, &bt}) {
    requireRank(*t, 2, "[rows, K]");
    if (int8 ? t->typeName != "int8" : t->typeName != "uint8")
      throw py::type_error(t->name + " has elements of type " + t->typeName +
                           (int8 ? "; the int8 GEMM takes int8 a and b_t"
                                 : "; the FP8 GEMM takes torch.float8_e4m3fn / "
                                   "float8_e4m3fnuz tensors or uint8 bits"));
    t->dtype = *fp8;
    requireUnitInnerStride(*t, "K");
  }
  for (TensorView *t : {&sa, &sb}) {
    requireRank(*t, 2, "[rows, K blocks]");
    requireType(*t, {DType::f32}, "scales are float32");
    requireContiguous(*t);
  }
  requireRank(c, 2, "[M, N]");
  requireType(c, {DType::bf16, DType::f16, DType::f32},
              "gemm writes bfloat16, float16 or float32");
  requireUnitInnerStride(c, "N");
  if (c.readOnly)
    throw py::value_error("out is read-only");
  if (bias) {
    requireRank(*bias, 1, "[N]");
    requireType(*bias, {DType::bf16, DType::f16, DType::f32},
                "the FP8 GEMM's bias is bfloat16, float16 or float32");
    requireContiguous(*bias);
  }
  std::vector<const TensorView *> all = {&a, &bt, &sa, &sb, &c};
  if (bias)
    all.push_back(&*bias);
  Device &device = deviceFor(all, where);

  StagedTensor ga = take(StagedTensor::stage(device, a), ErrorKind::General);
  StagedTensor gb = take(StagedTensor::stage(device, bt), ErrorKind::General);
  StagedTensor gsa = take(StagedTensor::stage(device, sa), ErrorKind::General);
  StagedTensor gsb = take(StagedTensor::stage(device, sb), ErrorKind::General);
  StagedTensor gc = take(StagedTensor::stage(device, c, /*copyIn=*/false), ErrorKind::General);
  std::optional<StagedTensor> gbias;
  std::optional<VectorRef> rbias;
  if (bias) {
    gbias = take(StagedTensor::stage(device, *bias), ErrorKind::General);
    rbias = VectorRef(gbias->buffer(), *bias->dtype, bias->elements());
  }
  MatrixRef ra = matrixRef(a, ga), rb = matrixRef(bt, gb), rsa = matrixRef(sa, gsa),
            rsb = matrixRef(sb, gsb), rc = matrixRef(c, gc);
  check(int8 ? ops::checkGemmInt8(ra, rb, rsa, rsb, rc, rbias)
             : ops::checkGemmFp8(ra, rb, rsa, rsb, rc, rbias),
        ErrorKind::Value);

  ops::GemmOptions options;
  options.params = std::move(params);
  options.stream = stream;
  LaunchResult result;
  double opSeconds = 0;
  {
    py::gil_scoped_release release;
    auto opStart = std::chrono::steady_clock::now();
    result = take(int8 ? ops::gemmInt8(ra, rb, rsa, rsb, rc, rbias, options)
                       : ops::gemmFp8(ra, rb, rsa, rsb, rc, rbias, options),
                  ErrorKind::Launch);
    opSeconds = secondsSince(opStart);
    check(gc.copyBack(), ErrorKind::Launch);
  }
  LaunchInfo info = launchInfo(result, device);
  info.opSeconds = opSeconds;
  info.path = int8 ? "gemm_i8" : "gemm_fp8";
  info.callSeconds = secondsSince(start);
  return info;
}

} // namespace

void bindOps(py::module_ &m) {
  m.def("_attention", &attention, py::arg("q"), py::arg("k"), py::arg("v"),
        py::arg("out"), py::arg("lse"), py::arg("causal"), py::arg("scale"),
        py::arg("device"), py::arg("params"), py::arg("stream") = 0,
        py::arg("fp8_format") = py::none(), py::arg("descale") = py::none());
  m.def("_attention_backward", &attentionBackward, py::arg("q"), py::arg("k"), py::arg("v"),
        py::arg("out"), py::arg("grad_out"), py::arg("lse"), py::arg("grad_q"),
        py::arg("grad_k"), py::arg("grad_v"), py::arg("causal"), py::arg("scale"),
        py::arg("device"), py::arg("stream") = 0);
  m.def("_gemm", &gemm, py::arg("a"), py::arg("b_t"), py::arg("out"),
        py::arg("bias"), py::arg("device"), py::arg("params"),
        py::arg("stream") = 0);
  m.def("_gemm_fp8", &gemmFp8, py::arg("a"), py::arg("b_t"), py::arg("a_scale"),
        py::arg("b_scale"), py::arg("out"), py::arg("bias"), py::arg("device"),
        py::arg("params"), py::arg("stream"), py::arg("fp8_format"));
}

} // namespace kcc::python
