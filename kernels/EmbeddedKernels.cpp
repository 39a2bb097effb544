//===- EmbeddedKernels.cpp - The kernels of kernels/, in the library ------===//
#include "kernels/EmbeddedKernels.h"

#include "llvm/ADT/STLExtras.h"

// kEmbeddedKernels, generated at build time.
#include "kernels/EmbeddedKernels.inc"

namespace kcc {

llvm::ArrayRef<EmbeddedKernel> embeddedKernels() { return kEmbeddedKernels; }

std::optional<EmbeddedKernel> findEmbeddedKernel(llvm::StringRef name) {
  for (const EmbeddedKernel &k : kEmbeddedKernels)
    if (k.name == name)
      return k;
  return std::nullopt;
}

std::string embeddedKernelNameList() {
  std::string out;
  for (const EmbeddedKernel &k : kEmbeddedKernels) {
    if (!out.empty())
      out += ", ";
    out += k.name.str();
  }
  return out;
}

} // namespace kcc
