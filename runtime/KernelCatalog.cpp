//===- KernelCatalog.cpp - Kernel sources the JIT knows by name -----------===//
#include "runtime/KernelCatalog.h"

#include "llvm/ADT/STLExtras.h"

namespace kcc {

KernelCatalog &KernelCatalog::global() {
  // Never destroyed: ops may compile from static destructors of users.
  static KernelCatalog *catalog = new KernelCatalog();
  return *catalog;
}

void KernelCatalog::add(llvm::ArrayRef<NamedKernelSource> sources) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const NamedKernelSource &s : sources)
    if (!llvm::any_of(sources_, [&](const NamedKernelSource &have) {
          return have.name == s.name;
        }))
      sources_.push_back(s);
}

std::optional<NamedKernelSource>
KernelCatalog::find(llvm::StringRef name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const NamedKernelSource &s : sources_)
    if (s.name == name)
      return s;
  return std::nullopt;
}

std::string KernelCatalog::nameList() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (sources_.empty())
    return "none (kcc::registerEmbeddedKernels() from kernels/EmbeddedKernels.h "
           "adds kcc's own)";
  std::string out;
  for (const NamedKernelSource &s : sources_) {
    if (!out.empty())
      out += ", ";
    out += s.name.str();
  }
  return out;
}

} // namespace kcc
