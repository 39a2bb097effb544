//===- EmbeddedKernels.h - The kernels of kernels/, in the library -*- C++ -*-===//
//
// Every kernels/<dir>/<name>.mlir is copied into the library at build time
// (kernels/CMakeLists.txt runs cmake/EmbedKernels.cmake), so the JIT compiles
// kernels by name without the source tree at hand.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_EMBEDDEDKERNELS_H
#define KCC_KERNELS_EMBEDDEDKERNELS_H

#include "runtime/Module.h"
#include "target/ParamBinding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kcc {

struct EmbeddedKernel {
  llvm::StringRef name;   // file name without .mlir: "gemm"
  llvm::StringRef path;   // path in the source tree: "kernels/gemm/gemm.mlir"
  llvm::StringRef source; // the text
};

llvm::ArrayRef<EmbeddedKernel> embeddedKernels();
std::optional<EmbeddedKernel> findEmbeddedKernel(llvm::StringRef name);
/// "gemm, ...": for "no kernel named" messages.
std::string embeddedKernelNameList();
/// Adds the embedded kernels to KernelCatalog::global(), so that the JIT
/// compiles them by name. Cheap after the first call; the ops call it before
/// they compile, the tools at start.
void registerEmbeddedKernels();

/// NAME=VALUE texts as the ops take them (their options' `params`, the
/// lists their choices return), parsed once where an op takes them: the ops
/// inspect the typed bindings (findParamBinding, paramInteger), never the
/// text. A text that does not parse binds nothing and stays in `malformed`
/// as written, so that compiling the kernel refuses it with the reason.
struct KernelParams {
  std::vector<ParamBinding> bindings;
  std::vector<std::string> malformed;
};
KernelParams parseKernelParams(llvm::ArrayRef<std::string> texts);

/// The list an op compiles with: its `choice` with each override in place
/// of the binding of its name (setParamBinding: last, as -D would put it),
/// in canonical spelling, and the overrides that do not parse after them.
std::vector<std::string> kernelParamsWithOverrides(std::vector<ParamBinding> choice,
                                                   const KernelParams &overrides);

/// Module::compile of the embedded kernel `name`, registering the embedded
/// kernels first: what the ops use to load their kernels.
llvm::Expected<Module> compileEmbeddedKernel(Device &device, Jit &jit,
                                             llvm::StringRef name,
                                             llvm::ArrayRef<std::string> params);

} // namespace kcc

#endif // KCC_KERNELS_EMBEDDEDKERNELS_H
