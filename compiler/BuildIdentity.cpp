//===- BuildIdentity.cpp - Which build of the compiler this is ------------===//
#include "compiler/BuildIdentity.h"

// KCC_BUILD_VERSION, _GIT_REVISION, _GIT_DIRTY, _SOURCE_HASH: written by
// cmake/BuildIdentity.cmake into the build tree on every build.
#include "compiler/BuildIdentity.inc"

#include "llvm-c/Core.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/SHA256.h"

using namespace llvm;

namespace kcc {

static BuildIdentity computeIdentity() {
  BuildIdentity b;
  b.version = KCC_BUILD_VERSION;
  b.gitRevision = KCC_BUILD_GIT_REVISION;
  b.gitDirty = KCC_BUILD_GIT_DIRTY != 0;
  b.sourceHash = KCC_BUILD_SOURCE_HASH;
  unsigned major = 0, minor = 0, patch = 0;
  LLVMGetVersion(&major, &minor, &patch);
  b.llvmVersion = (Twine(major) + "." + Twine(minor) + "." + Twine(patch)).str();
  b.llvmBuildVersion = LLVM_VERSION_STRING;
  SHA256 hash;
  // Length-prefixed fields, as in computeCacheKey: no two identities can
  // concatenate to the same bytes.
  for (StringRef field : {StringRef("kcc-build-identity-v1"), StringRef(b.version),
                          StringRef(b.gitRevision), StringRef(b.gitDirty ? "dirty" : "clean"),
                          StringRef(b.sourceHash), StringRef(b.llvmVersion),
                          StringRef(b.llvmBuildVersion)}) {
    uint8_t len[8];
    support::endian::write64le(len, field.size());
    hash.update(ArrayRef<uint8_t>(len, 8));
    hash.update(field);
  }
  b.id = toHex(hash.final(), /*LowerCase=*/true);
  return b;
}

const BuildIdentity &buildIdentity() {
  static const BuildIdentity identity = computeIdentity();
  return identity;
}

StringRef kccVersion() {
  static const std::string line = [] {
    const BuildIdentity &b = buildIdentity();
    std::string git = b.gitRevision.empty()
                          ? std::string("not built from git")
                          : "git " + b.gitRevision.substr(0, 12) + (b.gitDirty ? "+dirty" : "");
    return "kcc " + b.version + " (" + git + ", sources " + b.sourceHash.substr(0, 12) +
           ", LLVM " + b.llvmVersion + ")";
  }();
  return line;
}

} // namespace kcc
