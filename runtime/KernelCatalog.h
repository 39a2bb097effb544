//===- KernelCatalog.h - Kernel sources the JIT knows by name ---*- C++ -*-===//
//
// `Jit::compile("gemm", ...)` looks the name up here. The runtime does not
// know which kernels exist: the kernels library (kernels/EmbeddedKernels.h)
// adds the ones of kernels/, embedded at build time, with
// registerEmbeddedKernels(), which its ops call before they compile and the
// tools call at start. A program may add its own kernels the same way. Keeping
// the list here, filled from above, is what lets the runtime stand below the
// kernels in DESIGN.md's flow.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_KERNELCATALOG_H
#define KCC_RUNTIME_KERNELCATALOG_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kcc {

/// One kernel source: its name ("gemm"), where it came from (for
/// diagnostics: "kernels/gemm/gemm.mlir") and its text, which must outlive
/// the catalog (embedded sources are static data).
struct NamedKernelSource {
  llvm::StringRef name;
  llvm::StringRef path;
  llvm::StringRef source;
};

class KernelCatalog {
public:
  /// The catalog the process-wide JIT reads.
  static KernelCatalog &global();

  /// Adds `sources`; a name already present keeps its first source.
  void add(llvm::ArrayRef<NamedKernelSource> sources);
  std::optional<NamedKernelSource> find(llvm::StringRef name) const;
  /// "attention, gemm, ...": for "no kernel named" messages; says how to
  /// register the built-in kernels when none are.
  std::string nameList() const;

private:
  mutable std::mutex mutex_;
  std::vector<NamedKernelSource> sources_;
};

} // namespace kcc

#endif // KCC_RUNTIME_KERNELCATALOG_H
