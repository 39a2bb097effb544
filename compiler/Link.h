//===- Link.h - Relocatable object to AMDGPU code object --------*- C++ -*-===//
//
// The last step of the pipeline: lld, run inside the process (a JIT must not
// depend on an ld.lld binary being installed), turns the relocatable object of
// CodeGen.h into a loadable code object v5 (.hsaco): a shared ELF with the
// kernels, their kernel descriptors and the AMDGPU metadata note.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_COMPILER_LINK_H
#define KCC_COMPILER_LINK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace kcc {

/// Links `relocatableObject` (an amdgcn ELF relocatable object) into a code
/// object with `ld.lld -shared`. lld keeps global state, so links are
/// serialised process-wide; lld's diagnostics come back in the Error.
llvm::Expected<std::vector<uint8_t>>
linkCodeObject(llvm::ArrayRef<char> relocatableObject);

} // namespace kcc

#endif // KCC_COMPILER_LINK_H
