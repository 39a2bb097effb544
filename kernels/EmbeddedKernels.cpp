//===- EmbeddedKernels.cpp - The kernels of kernels/, in the library ------===//
#include "kernels/EmbeddedKernels.h"

#include "runtime/KernelCatalog.h"

#include "llvm/ADT/STLExtras.h"

#include <mutex>

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

void registerEmbeddedKernels() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<NamedKernelSource> sources;
    for (const EmbeddedKernel &k : kEmbeddedKernels)
      sources.push_back({k.name, k.path, k.source});
    KernelCatalog::global().add(sources);
  });
}

llvm::Expected<Module> compileEmbeddedKernel(Device &device, Jit &jit,
                                             llvm::StringRef name,
                                             llvm::ArrayRef<std::string> params) {
  registerEmbeddedKernels();
  return Module::compile(device, jit, name, params);
}

std::optional<int64_t> kernelParamValue(llvm::ArrayRef<std::string> params,
                                        llvm::StringRef name) {
  std::optional<int64_t> v;
  for (const std::string &p : params) {
    auto [key, value] = llvm::StringRef(p).split('=');
    int64_t n;
    if (key.trim() == name && !value.trim().getAsInteger(10, n))
      v = n; // the last binding wins, as -D does
  }
  return v;
}

} // namespace kcc
