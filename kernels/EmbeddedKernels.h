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

/// The value bound to parameter `name` in `params` ("NAME=VALUE" strings;
/// the last binding wins, as with -D), if it is bound to an integer.
std::optional<int64_t> kernelParamValue(llvm::ArrayRef<std::string> params,
                                        llvm::StringRef name);

/// Module::compile of the embedded kernel `name`, registering the embedded
/// kernels first: what the ops use to load their kernels.
llvm::Expected<Module> compileEmbeddedKernel(Device &device, Jit &jit,
                                             llvm::StringRef name,
                                             llvm::ArrayRef<std::string> params);

} // namespace kcc

#endif // KCC_KERNELS_EMBEDDEDKERNELS_H
