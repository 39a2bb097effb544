//===- GemmOperands.cpp - What the GEMM ops check and pack alike ----------===//
#include "kernels/gemm/GemmOperands.h"
#include "kernels/EmbeddedKernels.h"
#include "runtime/Kernel.h"
#include "runtime/Module.h"
#include "target/Error.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace kcc::ops {

std::string matrixShapeText(const MatrixRef &m) {
  return std::to_string(m.rows) + "x" + std::to_string(m.cols);
}

Error checkMatrixOperand(StringRef component, StringRef name, const MatrixRef &m) {
  if (m.rows <= 0 || m.cols <= 0)
    return makeError(component, name + " is " + matrixShapeText(m) +
                                    "; every dimension must be positive");
  int64_t ld = m.stride();
  if (ld < m.cols)
    return makeError(component, name + "'s leading dimension " + Twine(ld) +
                                    " is less than its " + Twine(m.cols) + " columns");
  if (m.rows > INT32_MAX || m.cols > INT32_MAX || ld > INT32_MAX)
    return makeError(component, name + " (" + matrixShapeText(m) + ", leading dimension " +
                                    Twine(ld) + ") exceeds the kernel's 32-bit size arguments");
  uint64_t bytes =
      (uint64_t(m.rows - 1) * uint64_t(ld) + uint64_t(m.cols)) * dtypeSize(m.dtype);
  // The kernels address each operand through a buffer resource, whose range
  // (num_records) is 32 bits.
  if (bytes > UINT32_MAX)
    return makeError(component, name + " spans " + Twine(bytes) +
                                    " bytes; the kernel reaches at most 4294967295 bytes of "
                                    "an operand");
  if (bytes > m.buffer->size())
    return makeError(component, name + " (" + matrixShapeText(m) + ", leading dimension " +
                                    Twine(ld) + ", " + dtypeName(m.dtype) + ") needs " +
                                    Twine(bytes) + " bytes; its buffer has " +
                                    Twine(m.buffer->size()));
  return Error::success();
}

Expected<PackedOperand> packOperand(StringRef component, StringRef name, const MatrixRef &m,
                                    int64_t cols, Jit &jit, uint64_t stream) {
  Device &device = m.buffer->device();
  Expected<Buffer> buffer =
      Buffer::allocate(device, uint64_t(m.rows) * uint64_t(cols) * dtypeSize(m.dtype));
  if (!buffer)
    return makeError(component, "cannot allocate the packed copy of " + name + ": " +
                                    toString(buffer.takeError()));
  Expected<Module> module = compileEmbeddedKernel(
      device, jit, "gemm_pack", {"DTYPE=" + dtypeKernelName(m.dtype).str()});
  if (!module)
    return makeError(component,
                     "cannot compile the packing kernel: " + toString(module.takeError()));
  Expected<Kernel> kernel = module->kernel("gemm_pack");
  if (!kernel)
    return kernel.takeError();
  LaunchConfig config;
  config.grid = Dim3(uint32_t((m.rows + 3) / 4));
  config.block = Dim3(64);
  config.stream = stream;
  std::vector<KernelArgValue> args = {*m.buffer,           *buffer,         int32_t(m.rows),
                                      int32_t(m.cols),     int32_t(m.stride()),
                                      int32_t(cols)};
  Expected<LaunchResult> run = kernel->launch(config, args);
  if (!run)
    return makeError(component, "packing " + name + ": " + toString(run.takeError()));
  return PackedOperand{std::move(*buffer), m.dtype, m.rows, cols};
}

LaunchResult bothLaunches(const LaunchResult &first, const LaunchResult &second) {
  LaunchResult both = first;
  if (both.deviceMilliseconds && second.deviceMilliseconds)
    *both.deviceMilliseconds += *second.deviceMilliseconds;
  if (both.waveInstructions && second.waveInstructions)
    *both.waveInstructions += *second.waveInstructions;
  both.workgroups += second.workgroups;
  both.hostSeconds += second.hostSeconds;
  return both;
}

} // namespace kcc::ops
