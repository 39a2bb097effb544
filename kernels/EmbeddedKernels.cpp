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

KernelParams parseKernelParams(llvm::ArrayRef<std::string> texts) {
  KernelParams out;
  for (const std::string &text : texts) {
    llvm::Expected<ParamBinding> b = ParamBinding::parse(text);
    if (b) {
      out.bindings.push_back(std::move(*b));
    } else {
      llvm::consumeError(b.takeError()); // the JIT says why when it compiles
      out.malformed.push_back(text);
    }
  }
  return out;
}

std::vector<std::string> kernelParamsWithOverrides(std::vector<ParamBinding> choice,
                                                   const KernelParams &overrides) {
  for (const ParamBinding &o : overrides.bindings)
    setParamBinding(choice, o);
  std::vector<std::string> out = paramBindingTexts(choice);
  out.insert(out.end(), overrides.malformed.begin(), overrides.malformed.end());
  return out;
}

} // namespace kcc
