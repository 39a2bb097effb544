//===- AttentionTensor.h - [B, S, H, D] views of the attention ops -*- C++ -*-===//
//
// The tensors of the attention ops (forward, backward, ring) are views of
// device buffers: an element offset and element strides for batch, token
// and head, the head dimension contiguous. This header holds the view and
// what every op checks and does with one: its layout against the kernels'
// 32-bit offsets and the buffer's size, overlap between its elements, and
// the packed copy that a view whose rows are not 4-byte aligned goes
// through (kernels/attention/attn_copy.mlir).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_ATTENTION_ATTENTIONTENSOR_H
#define KCC_KERNELS_ATTENTION_ATTENTIONTENSOR_H

#include "runtime/Buffer.h"
#include "runtime/DType.h"
#include "runtime/KernelArg.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace kcc {
class Jit;
namespace ops {

/// A [batch, seq, heads, headDim] view of a device buffer. Strides and the
/// offset count elements; a stride of 0 means "packed" (headDim for heads,
/// heads * head stride for tokens, seq * token stride for batches), so that
/// {buffer, dtype, B, S, H, D} is a contiguous tensor.
struct AttentionTensorRef {
  const Buffer *buffer = nullptr;
  DType dtype = DType::bf16;
  int64_t batch = 0, seq = 0, heads = 0, headDim = 0;
  int64_t batchStride = 0, tokenStride = 0, headStride = 0;
  int64_t offset = 0;

  AttentionTensorRef() = default;
  AttentionTensorRef(const Buffer &buffer, DType dtype, int64_t batch, int64_t seq, int64_t heads,
                     int64_t headDim)
      : buffer(&buffer), dtype(dtype), batch(batch), seq(seq), heads(heads), headDim(headDim) {}
  /// The same view with explicit strides (elements).
  AttentionTensorRef withStrides(int64_t batchStride, int64_t tokenStride,
                                 int64_t headStride) const {
    AttentionTensorRef r = *this;
    r.batchStride = batchStride;
    r.tokenStride = tokenStride;
    r.headStride = headStride;
    return r;
  }
  AttentionTensorRef withOffset(int64_t elements) const {
    AttentionTensorRef r = *this;
    r.offset = elements;
    return r;
  }
  int64_t headStrideOrPacked() const { return headStride ? headStride : headDim; }
  int64_t tokenStrideOrPacked() const {
    return tokenStride ? tokenStride : heads * headStrideOrPacked();
  }
  int64_t batchStrideOrPacked() const {
    return batchStride ? batchStride : seq * tokenStrideOrPacked();
  }
};

/// "[2, 128, 8, 64]": the view's shape in the [B, S, H, D] order.
std::string tensorShapeText(const AttentionTensorRef &t);
/// "batch 8192, token 512, head 64": its strides, packed ones resolved.
std::string tensorStridesText(const AttentionTensorRef &t);
/// Byte range [first, last) the view touches within its buffer.
std::pair<uint64_t, uint64_t> tensorByteRange(const AttentionTensorRef &t);
/// The same buffer, offset and strides.
bool sameTensorView(const AttentionTensorRef &a, const AttentionTensorRef &b);
/// Strides, offset, 32-bit reach and buffer size of one view whose shape is
/// already checked; errors start with `component` and name the view.
llvm::Error checkTensorLayout(llvm::StringRef component, llvm::StringRef name,
                              const AttentionTensorRef &t);
/// True when two elements of the view share an address.
bool tensorOverlaps(const AttentionTensorRef &t);
/// Whether every row of D elements starts 4-byte aligned (even strides and
/// offset), as the kernels' 4-byte and wider accesses need.
bool tensorRowsAligned(const AttentionTensorRef &t);
/// The kernel's pointer argument for a view: the buffer itself when the view
/// starts there (so that the launch checks its device), else the address of
/// its first element.
KernelArgValue tensorPointerArg(const AttentionTensorRef &t);
/// A packed view of t's shape in a new buffer (kept alive by `storage`).
llvm::Expected<AttentionTensorRef> packedTensorLike(llvm::StringRef component,
                                                    const AttentionTensorRef &t,
                                                    std::optional<Buffer> &storage);
/// Copies `from` into the view `to` (same shape and dtype) on the device with
/// kernels/attention/attn_copy.mlir.
llvm::Error copyTensor(llvm::StringRef component, const AttentionTensorRef &from,
                       const AttentionTensorRef &to, Jit &jit, uint64_t stream);

} // namespace ops
} // namespace kcc

#endif // KCC_KERNELS_ATTENTION_ATTENTIONTENSOR_H
