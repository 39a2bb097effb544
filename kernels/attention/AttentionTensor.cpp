//===- AttentionTensor.cpp - [B, S, H, D] views of the attention ops ------===//
//
// The checks every attention op makes on a view, each with a message that
// names the operand and the rule, and the packed copy for unaligned views.
//
//===----------------------------------------------------------------------===//
#include "kernels/attention/AttentionTensor.h"
#include "kernels/EmbeddedKernels.h"
#include "runtime/Jit.h"
#include "runtime/Kernel.h"
#include "runtime/Module.h"
#include "target/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>

using namespace llvm;

namespace kcc::ops {

/// "[2, 128, 8, 64]": a tensor's shape in the [B, S, H, D] order.
std::string tensorShapeText(const AttentionTensorRef &t) {
  return "[" + std::to_string(t.batch) + ", " + std::to_string(t.seq) + ", " +
         std::to_string(t.heads) + ", " + std::to_string(t.headDim) + "]";
}

std::string tensorStridesText(const AttentionTensorRef &t) {
  return "batch " + std::to_string(t.batchStrideOrPacked()) + ", token " +
         std::to_string(t.tokenStrideOrPacked()) + ", head " +
         std::to_string(t.headStrideOrPacked());
}

/// The element after the last one the view reaches, counted from the
/// buffer's start (strides are known to be non-negative here).
static uint64_t endElement(const AttentionTensorRef &t) {
  return uint64_t(t.offset) + uint64_t(t.batch - 1) * uint64_t(t.batchStrideOrPacked()) +
         uint64_t(t.seq - 1) * uint64_t(t.tokenStrideOrPacked()) +
         uint64_t(t.heads - 1) * uint64_t(t.headStrideOrPacked()) + uint64_t(t.headDim);
}

/// Byte range [first, last) a view touches within its buffer.
std::pair<uint64_t, uint64_t> tensorByteRange(const AttentionTensorRef &t) {
  unsigned size = dtypeSize(t.dtype);
  return {uint64_t(t.offset) * size, endElement(t) * size};
}

bool sameTensorView(const AttentionTensorRef &a, const AttentionTensorRef &b) {
  return a.buffer == b.buffer && a.offset == b.offset &&
         a.batchStrideOrPacked() == b.batchStrideOrPacked() &&
         a.tokenStrideOrPacked() == b.tokenStrideOrPacked() &&
         a.headStrideOrPacked() == b.headStrideOrPacked();
}

/// Strides, offset, 32-bit reach and buffer size of one tensor, its shape
/// already checked.
Error checkTensorLayout(StringRef component, StringRef name, const AttentionTensorRef &t) {
  struct Stride {
    const char *what;
    int64_t value;
  } strides[] = {{"batch", t.batchStride}, {"token", t.tokenStride}, {"head", t.headStride}};
  for (const Stride &s : strides)
    if (s.value < 0)
      return makeError(component, name + "'s " + s.what + " stride " + Twine(s.value) +
                                      " is negative; strides must be at least 0");
  if (t.offset < 0)
    return makeError(component, name + "'s offset " + Twine(t.offset) + " is negative");
  // Odd strides or offsets are fine: such an operand is copied into a
  // packed buffer first (attention_forward, kernels/attention/attn_copy.mlir).
  // The kernel computes element offsets (batch * stride + head * stride,
  // token * stride) in 32-bit signed integers.
  uint64_t end = endElement(t);
  for (const Stride &s : strides)
    if (s.value > INT32_MAX)
      return makeError(component, name + "'s " + s.what + " stride " + Twine(s.value) +
                                      " exceeds the kernel's 32-bit offsets (at most 2147483647)");
  if (end > uint64_t(INT32_MAX))
    return makeError(component, name + " (" + tensorShapeText(t) + ", " + tensorStridesText(t) +
                                    ", offset " + Twine(t.offset) + ") reaches element " +
                                    Twine(end - 1) +
                                    "; the kernel's 32-bit offsets reach at most 2147483647");
  uint64_t bytes = end * dtypeSize(t.dtype);
  if (bytes > t.buffer->size())
    return makeError(component, name + " (" + tensorShapeText(t) + ", " + tensorStridesText(t) +
                                    ", offset " + Twine(t.offset) + ", " + dtypeName(t.dtype) +
                                    ") needs " + Twine(bytes) + " bytes; its buffer has " +
                                    Twine(t.buffer->size()));
  return Error::success();
}

/// True when two elements of the view share an address: the dimensions
/// that have more than one index, ordered by stride, must each step past
/// everything the inner ones span.
bool tensorOverlaps(const AttentionTensorRef &t) {
  struct Dim {
    int64_t stride, count;
  };
  SmallVector<Dim, 4> dims = {{1, t.headDim}};
  if (t.heads > 1)
    dims.push_back({t.headStrideOrPacked(), t.heads});
  if (t.seq > 1)
    dims.push_back({t.tokenStrideOrPacked(), t.seq});
  if (t.batch > 1)
    dims.push_back({t.batchStrideOrPacked(), t.batch});
  llvm::sort(dims, [](const Dim &a, const Dim &b) { return a.stride < b.stride; });
  uint64_t span = 0; // elements the inner dimensions cover, minus one
  for (const Dim &d : dims) {
    if (uint64_t(d.stride) <= span)
      return true;
    span += uint64_t(d.stride) * uint64_t(d.count - 1);
  }
  return false;
}

/// Whether fmha_fwd can use the view in place: it reads and writes rows of D
/// elements with 4-byte (and wider) accesses - K and V by 4-byte LDS DMA -
/// so every row must start 4-byte aligned: even strides and offset.
bool tensorRowsAligned(const AttentionTensorRef &t) {
  return t.offset % 2 == 0 && t.batchStrideOrPacked() % 2 == 0 &&
         t.tokenStrideOrPacked() % 2 == 0 && t.headStrideOrPacked() % 2 == 0;
}

/// Copies the tensor `from` into the view `to` (same shape and dtype) with
/// kernels/attention/attn_copy.mlir.
Error copyTensor(StringRef component, const AttentionTensorRef &from, const AttentionTensorRef &to,
                 Jit &jit, uint64_t stream) {
  Device &device = from.buffer->device();
  Expected<Module> module = compileEmbeddedKernel(
      device, jit, "attn_copy",
      {"DTYPE=" + dtypeName(from.dtype).str(), "D=" + std::to_string(from.headDim)});
  if (!module)
    return makeError(component, "cannot compile the copy kernel: " + toString(module.takeError()));
  Expected<Kernel> kernel = module->kernel("attn_copy");
  if (!kernel)
    return kernel.takeError();
  LaunchConfig config;
  config.grid = Dim3(uint32_t((from.seq + 3) / 4), uint32_t(from.heads), uint32_t(from.batch));
  config.block = Dim3(64);
  config.stream = stream;
  auto i32 = [](int64_t x) { return int32_t(x); };
  std::vector<KernelArgValue> args = {tensorPointerArg(from),
                                      tensorPointerArg(to),
                                      i32(from.seq),
                                      i32(from.batchStrideOrPacked()),
                                      i32(from.tokenStrideOrPacked()),
                                      i32(from.headStrideOrPacked()),
                                      i32(to.batchStrideOrPacked()),
                                      i32(to.tokenStrideOrPacked()),
                                      i32(to.headStrideOrPacked())};
  Expected<LaunchResult> run = kernel->launch(config, args);
  if (!run)
    return run.takeError();
  return Error::success();
}

/// A packed buffer of t's shape, for an operand whose rows are not aligned.
Expected<AttentionTensorRef> packedTensorLike(StringRef component, const AttentionTensorRef &t,
                                              std::optional<Buffer> &storage) {
  uint64_t bytes = uint64_t(t.batch) * t.seq * t.heads * t.headDim * dtypeSize(t.dtype);
  Expected<Buffer> buffer = Buffer::allocate(t.buffer->device(), bytes);
  if (!buffer)
    return makeError(component, "cannot allocate a packed copy (" + Twine(bytes) +
                                    " bytes): " + toString(buffer.takeError()));
  storage.emplace(std::move(*buffer));
  return AttentionTensorRef(*storage, t.dtype, t.batch, t.seq, t.heads, t.headDim);
}

KernelArgValue tensorPointerArg(const AttentionTensorRef &t) {
  if (!t.offset)
    return KernelArgValue(*t.buffer);
  return KernelArgValue(
      DevicePointer{t.buffer->address() + uint64_t(t.offset) * dtypeSize(t.dtype)});
}

} // namespace kcc::ops
