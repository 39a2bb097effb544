//===- AttentionBackwardOp.h - kcc::ops::attention_backward -----*- C++ -*-===//
//
//   dV = P^T dO,  dP = dO V^T,  dS = P * (dP - Delta),  Delta = rowsum(dO * O),
//   dQ = scale * dS K,  dK = scale * dS^T Q,  P = exp(scale * Q K^T - LSE)
//
// The gradients of attention_forward() (AttentionOp.h) from its inputs, its
// output O and its log-sum-exp LSE. Q, O, dO, dQ [B, S_q, H, D]; K, V, dK,
// dV [B, S_kv, H_kv, D]; bf16 or f16 (all the same), D 64 or 128, H a
// multiple of H_kv (the dK and dV of a key/value head sum over the query
// heads of its group); LSE [B, H, S_q] f32 packed, as the forward writes it.
// Causal masking aligns the diagonal bottom-right, as in the forward.
//
// Three kernels run in order (kernels/attention/fmha_bwd_*.mlir): Delta
// and the exponent bias -LSE log2(e) per query into a scratch buffer, then dK and dV (one workgroup per block of keys,
// walking the queries), then dQ (one per block of queries, walking the
// keys). dQ is its own pass rather than summed by atomics from the dK/dV
// kernel: see fmha_bwd_dq.mlir for why.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_ATTENTION_ATTENTIONBACKWARDOP_H
#define KCC_KERNELS_ATTENTION_ATTENTIONBACKWARDOP_H

#include "kernels/attention/AttentionOp.h"
#include "kernels/attention/AttentionTensor.h"
#include "runtime/Launch.h"
#include "runtime/MatrixRef.h"
#include "target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace kcc {
class Jit;
namespace ops {

/// The three kernels of the backward pass.
enum class AttentionBackwardKernel { Delta, DkDv, Dq };
/// "fmha_bwd_pre", "fmha_bwd_dkdv", "fmha_bwd_dq": the kernel's name.
llvm::StringRef attentionBackwardKernelName(AttentionBackwardKernel kernel);

struct AttentionBackwardOptions {
  bool causal = false;
  /// The softmax scale of the forward; default 1/sqrt(D).
  std::optional<double> scale;
  /// The JIT to compile with; nullptr: Jit::shared().
  Jit *jit = nullptr;
  /// Overrides of the chosen parameters (NAME=VALUE) of the dK/dV and the
  /// dQ kernel, for tuning.
  std::vector<std::string> dkdvParams, dqParams;
  /// HIP devices: the stream every launch of the op goes on.
  uint64_t stream = 0;
  /// The per-query terms [B, H, 2, S_q] f32 (packed; the exponent bias
  /// -LSE log2(e) and Delta, see fmha_bwd_pre.mlir): the caller's scratch,
  /// which a run without the Delta kernel reads as an earlier run left it;
  /// none: the op allocates one per call.
  std::optional<VectorRef> delta;
  /// The kernels to run, in launch order; all three by default. A timing
  /// harness runs Delta once into its own `delta` and then times dK/dV and
  /// dQ one launch at a time.
  bool runDelta = true, runDkDv = true, runDq = true;
};

/// One kernel's launch within attention_backward().
struct AttentionBackwardLaunch {
  std::vector<std::string> params;
  Dim3 grid, block;
  LaunchResult launch;
};

/// What attention_backward() did: Delta, dK/dV and dQ, in launch order.
struct AttentionBackwardResult {
  AttentionBackwardLaunch delta, dkdv, dq;
};

/// The parameters of one backward kernel on `chip`, overrides applied last.
std::vector<std::string>
attentionBackwardParams(AttentionBackwardKernel kernel, Chip chip, DType dtype,
                        int64_t headDim, bool causal,
                        const std::vector<std::string> &overrides = {});

/// Checks the operands (see above) without launching.
llvm::Error checkAttentionBackward(
    const AttentionTensorRef &q, const AttentionTensorRef &k, const AttentionTensorRef &v,
    const AttentionTensorRef &o, const AttentionTensorRef &dO, const VectorRef &lse,
    const AttentionTensorRef &dq, const AttentionTensorRef &dk,
    const AttentionTensorRef &dv, const AttentionBackwardOptions &options = {});

/// Computes dQ, dK and dV on the operands' device and waits for them.
llvm::Expected<AttentionBackwardResult>
attention_backward(const AttentionTensorRef &q, const AttentionTensorRef &k,
                   const AttentionTensorRef &v, const AttentionTensorRef &o,
                   const AttentionTensorRef &dO, const VectorRef &lse,
                   const AttentionTensorRef &dq, const AttentionTensorRef &dk,
                   const AttentionTensorRef &dv, const AttentionBackwardOptions &options = {});

/// The float64 reference on the host, from the inputs alone (P, O and Delta
/// recomputed exactly): q, k, v, dO packed [B, S, H, D] values already
/// rounded to the kernel's input type; fills dq (packed like q), dk and dv
/// (packed like k).
void attentionBackwardReference(const AttentionShape &shape, llvm::ArrayRef<double> q,
                                llvm::ArrayRef<double> k, llvm::ArrayRef<double> v,
                                llvm::ArrayRef<double> dO, bool causal, double scale,
                                std::vector<double> &dq, std::vector<double> &dk,
                                std::vector<double> &dv);

/// Multiply-adds of the backward's five products (S, dP, dV, dK, dQ) over
/// the visible (query, key) pairs, times two: the FLOPs a benchmark counts
/// (the dQ pass's recomputation of S and dP not included, as for
/// hand-written kernels).
double attentionBackwardFlops(const AttentionShape &shape, bool causal);
/// The FLOPs one kernel does by the same count: dK/dV four products (S, dP,
/// dV, dK), dQ three (S and dP again, dQ), Delta 2 B H S_q D.
double attentionBackwardKernelFlops(AttentionBackwardKernel kernel, const AttentionShape &shape,
                                    bool causal);

} // namespace ops
} // namespace kcc

#endif // KCC_KERNELS_ATTENTION_ATTENTIONBACKWARDOP_H
