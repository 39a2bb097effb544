//===- AttentionOp.h - kcc::ops::attention_forward, host side of fmha_fwd -*- C++ -*-===//
//
//   O = softmax(scale * Q K^T [+ causal mask]) V,  f32 accumulation
//
// Q, O [B, S_q, H, D] and K, V [B, S_kv, H_kv, D], bf16 or f16 (all four the
// same), H a multiple of H_kv (MHA, GQA, MQA), D 64 or 128. Or FP8: Q, K, V
// in the chip's e4m3 (e4m3fn on gfx950, e4m3fnuz on gfx942) with per-tensor
// descale factors (the values are code x descale), O bf16 or f16; kernel
// fmha_fwd_fp8.mlir, which also quantises P to e4m3 for the P V product. Each tensor is a
// view of a device buffer: an element offset and element strides for batch,
// token and head; the head dimension is contiguous. Causal masking aligns
// the diagonal bottom-right: query i sees keys j <= i + (S_kv - S_q), so a
// query that sees no key (S_q > S_kv) gets O = 0 and LSE = -inf. The
// optional log-sum-exp output LSE [B, H, S_q] (f32, natural log, packed) is
// what merging partial results (split KV, ring attention) needs.
//
// attention_forward() checks every argument with a message naming it, picks
// the kernel variant (AttentionPath) for the device's chip and D, compiles
// through the JIT (cached) and launches; the result says which path ran. The
// kernel needs every row of D elements 4-byte aligned (even strides and
// offset): a view that is not is first copied into a packed buffer
// (kernels/attention/attn_copy.mlir), and an O like that is written packed
// and copied back.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_ATTENTION_ATTENTIONOP_H
#define KCC_KERNELS_ATTENTION_ATTENTIONOP_H

#include "kernels/attention/AttentionTensor.h"
#include "target/Target.h"
#include "runtime/Launch.h"
#include "runtime/MatrixRef.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace kcc {
class Jit;
namespace ops {

/// The kernel variant attention_forward() runs.
enum class AttentionPath {
  /// gfx950, D = 128: 8 waves in two staggered wave groups, V read with
  /// ds_read_b64_tr_b16, K and V by LDS DMA (any S_q, S_kv: partial tiles
  /// are masked).
  Gfx950Fast,
  /// gfx942 (D = 64 or 128): 32x32x8 MFMA, 32-key tiles, V transposed
  /// through registers into LDS (no transposing LDS read on gfx942).
  Gfx942,
  /// Everything else: gfx950 with D = 64 (4 waves, no stagger).
  Generic,
};
/// "gfx950-fast", "gfx942", "generic".
llvm::StringRef attentionPathName(AttentionPath path);

/// FP8 inputs' descale factors: Q's true values are its codes times `q`,
/// and so on; per tensor, positive and finite.
struct AttentionDescale {
  double q = 1, k = 1, v = 1;
};

struct AttentionOptions {
  bool causal = false;
  /// FP8 inputs only (an error with bf16/f16): the descale factors; none is
  /// 1, 1, 1.
  std::optional<AttentionDescale> descale;
  /// The softmax scale; default 1/sqrt(D). The kernel receives
  /// scale * log2(e) (its softmax runs on exp2).
  std::optional<double> scale;
  /// LSE [B, H, S_q], f32, packed; none: not computed.
  std::optional<VectorRef> lse;
  /// The JIT to compile with; nullptr: Jit::shared().
  Jit *jit = nullptr;
  /// Overrides of the chosen kernel parameters (NAME=VALUE), for tuning.
  std::vector<std::string> params;
  /// HIP devices: the stream every launch of the op goes on (LaunchConfig).
  uint64_t stream = 0;
};

/// What attention_forward() did.
struct AttentionResult {
  AttentionPath path = AttentionPath::Generic;
  /// The kernel parameters it compiled with (overrides applied).
  std::vector<std::string> params;
  /// The launch geometry: grid (query blocks, H, B) and block.
  Dim3 grid, block;
  LaunchResult launch;
};

/// The path attention_forward() takes on `chip` for head size `headDim`.
AttentionPath attentionPath(Chip chip, int64_t headDim);

/// The kernel of dtype `dtype`: "fmha_fwd_fp8" for FP8, else "fmha_fwd".
llvm::StringRef attentionKernelName(DType dtype);

/// The chip's FP8 e4m3 encoding: e4m3fn on gfx950, e4m3fnuz on gfx942.
DType attentionFp8DType(Chip chip);

/// The kernel parameters of that path (DTYPE, D, CAUSAL, PAIRS, LSE_OUT, BN,
/// BLOCK, STAGGER, V_TR, PAD, VR, VC, VROWS), overrides applied last. A
/// causal launch takes its query blocks in pairs (PAIRS), the longest loop
/// with the shortest, so that every workgroup does the same work. An
/// FP8 dtype gives fmha_fwd_fp8's, with a bf16 O.
std::vector<std::string>
attentionParams(Chip chip, DType dtype, int64_t headDim, bool causal, bool lse,
                const std::vector<std::string> &overrides = {});
/// fmha_fwd_fp8's parameters for inputs of `dtype` (FP8) and O of `outDtype`
/// (bf16, f16): attentionParams' plus ODTYPE and PLOG2.
std::vector<std::string>
attentionFp8Params(Chip chip, DType dtype, DType outDtype, int64_t headDim, bool causal,
                   bool lse, const std::vector<std::string> &overrides = {});

/// Whether the rows of a tile that move through registers (V without V_TR:
/// VROWS; K with K_REG: KROWS) cover its BN keys, VROWS (KROWS) rows for
/// each moving wave (the leading group of a stagger, else all): an override
/// that leaves some rows unmoved would give wrong results silently, so it
/// is an error that names the value to give.
llvm::Error checkAttentionTiling(const std::vector<std::string> &params);

/// The launch grid's x dimension for `seq` queries under kernel parameters
/// `params`: one workgroup per query block of BLOCK / 64 * 32 queries, or,
/// with PAIRS (causal), one per pair of blocks.
uint32_t attentionGridX(const std::vector<std::string> &params, int64_t seq);

/// Checks the operands (see above) without launching.
llvm::Error checkAttention(const AttentionTensorRef &q,
                           const AttentionTensorRef &k,
                           const AttentionTensorRef &v,
                           const AttentionTensorRef &o,
                           const AttentionOptions &options = {});

/// Runs attention on the operands' device and waits for it.
llvm::Expected<AttentionResult>
attention_forward(const AttentionTensorRef &q, const AttentionTensorRef &k,
                  const AttentionTensorRef &v, const AttentionTensorRef &o,
                  const AttentionOptions &options = {});

/// Shape of a reference computation.
struct AttentionShape {
  int64_t batch = 1, seqQ = 1, seqKv = 1, heads = 1, kvHeads = 1, headDim = 64;
};

/// The float64 reference on the host: q, k, v are packed [B, S, H, D]
/// values (already rounded to the kernel's input type); fills o (packed
/// [B, S_q, H, D]) and lse ([B, H, S_q], -inf where a query sees no key).
void attentionReference(const AttentionShape &shape, llvm::ArrayRef<double> q,
                        llvm::ArrayRef<double> k, llvm::ArrayRef<double> v,
                        bool causal, double scale, std::vector<double> &o,
                        std::vector<double> &lse);

/// Per element of O, how far fmha_fwd_fp8's result may be from
/// attentionReference's on the dequantised inputs (same arguments; `dtype`
/// the inputs' FP8 encoding, `outDtype` O's). Q, K and V enter the
/// reference exactly, so what remains is P's quantisation: e4m3 rounds P to
/// nearest with a relative error of at most 2^-4 (3 mantissa bits) while P
/// is normal, and an absolute 2^-10 below (half the subnormal step, P's
/// scale 2^PLOG2 included), u_j = max(2^-4 P_j, 2^-10) for P_j = e^(s_j - m).
/// O's error sum_j d_j P_j V_j / l (|d_j P_j| <= u_j) is bounded by
/// sum_j u_j |V_j| / l, and, the roundings being independent and uniform,
/// has a standard deviation of at most sqrt(sum_j u_j^2 V_j^2 / 3) / l: the
/// bound is the smaller of the worst case and eight standard deviations (the
/// largest of a few million errors stays below), plus
/// O's own rounding (2^-8 relative for bf16, 2^-10 for f16) and 1e-5 for
/// the f32 arithmetic.
void attentionFp8Tolerance(const AttentionShape &shape, llvm::ArrayRef<double> q,
                           llvm::ArrayRef<double> k, llvm::ArrayRef<double> v, bool causal,
                           double scale, DType outDtype, llvm::ArrayRef<double> refO,
                           std::vector<double> &tolerance);

} // namespace ops
} // namespace kcc

#endif // KCC_KERNELS_ATTENTION_ATTENTIONOP_H
