//===- Assemble.h - AMDGPU assembly text to a relocatable object -*- C++ -*-===//
//
// What `llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=CHIP -filetype=obj` does, in
// process: the JIT's ISA override (KCC_OVERRIDE_DIR) assembles a user's
// hand-edited kernel.s with it and links the object as the compiler's own.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_COMPILER_ASSEMBLE_H
#define KCC_COMPILER_ASSEMBLE_H

#include "target/Target.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace kcc {

/// Assembles `text` for `chip` (wave64) into a relocatable ELF object.
/// Assembler errors come back in the Error as `bufferName:line:col: ...`.
llvm::Expected<llvm::SmallVector<char, 0>>
assembleObject(llvm::StringRef text, llvm::StringRef bufferName, Chip chip);

} // namespace kcc

#endif // KCC_COMPILER_ASSEMBLE_H
