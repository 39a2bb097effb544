//===- BuildIdentity.h - Which build of the compiler this is ----*- C++ -*-===//
//
// What names this kcc build for its compile cache and `kcc --version`: the
// version, the git revision (and whether tracked files differed from it)
// when built from a checkout, a SHA-256 of the sources that decide code
// generation, computed at build time by cmake/BuildIdentity.cmake, and the
// LLVM that generates the code. Any change to those gives another `id`, so
// code objects cached by one build are never served to another, while an
// unchanged rebuild keeps its id and its cache entries.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_COMPILER_BUILDIDENTITY_H
#define KCC_COMPILER_BUILDIDENTITY_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace kcc {

struct BuildIdentity {
  std::string version;     // kcc's own, "0.1.0"
  std::string gitRevision; // 40 hex digits; empty when not built from git
  bool gitDirty = false;   // tracked files differed from gitRevision
  std::string sourceHash;  // SHA-256 (hex) of target/ dialects/ passes/ ...
  /// The libLLVM loaded at run time (LLVMGetVersion): a distribution may
  /// update it under an installed kcc. And the one kcc was compiled with.
  std::string llvmVersion, llvmBuildVersion;
  /// SHA-256 (64 hex digits) over every field above: what cache keys and
  /// cache entries carry.
  std::string id;
};

/// This build's identity (computed once).
const BuildIdentity &buildIdentity();

/// One line for logs and cache keys' readers:
/// "kcc 0.1.0 (git 0123abcd4567+dirty, sources 89ab..., LLVM 22.1.8)".
llvm::StringRef kccVersion();

} // namespace kcc

#endif // KCC_COMPILER_BUILDIDENTITY_H
