//===- CodeGen.h - LLVM IR to AMDGPU machine code ---------------*- C++ -*-===//
//
// The LLVM half of the pipeline: the AMDGPU TargetMachine for a kcc chip, the
// O3 middle end for amdgcn, and the backend that turns a module into assembly
// text or a relocatable ELF object (which Link.h turns into a code object).
//
// Every function here fixes up the module for the chip first (target triple,
// data layout, code object v5 module flag), so callers may hand over a module
// straight from the MLIR translation. Problems come back as llvm::Error: an
// invalid module, a module for another target, and errors the backend reports
// through the LLVMContext (for example a kernel that needs more LDS than the
// chip has). What LLVM itself treats as fatal (report_fatal_error, such as an
// instruction selection failure on IR no front end should produce) still ends
// the process: LLVM offers no way to recover from it.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_COMPILER_CODEGEN_H
#define KCC_COMPILER_CODEGEN_H

#include "target/Target.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace kcc {

/// "amdgcn-amd-amdhsa": the triple of every module kcc compiles.
llvm::StringRef getAmdgpuTriple();

/// The code object version kcc emits (the value of the module flag
/// "amdhsa_code_object_version").
constexpr int kCodeObjectVersion = 500;

/// Registers the AMDGPU target, its MC layer and its disassembler with LLVM's
/// TargetRegistry. Runs once per process; safe to call from several threads.
void initializeAmdgpuTarget();

/// Creates the AMDGPU TargetMachine for `chip` (wave64, PIC, code generation at
/// `optLevel` 0-3). Initialises the AMDGPU target on first use; safe to call
/// from several threads. Each call returns a new machine, owned by the caller.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(Chip chip, unsigned optLevel = 3);

/// Sets the triple, data layout and code object version of `module` for
/// `chip`. Fails when the module names another target or another code object
/// version, since compiling it for amdgcn anyway would silently change it.
llvm::Error prepareModule(llvm::Module &module, Chip chip);

/// Verifies `module` and runs the new pass manager's default pipeline at
/// `optLevel` (0-3) with the AMDGPU target's own passes registered.
llvm::Error optimizeModule(llvm::Module &module, Chip chip,
                           unsigned optLevel = 3);

/// Runs the AMDGPU backend on `module` and returns the assembly text. The
/// backend's IR passes change the module they run on, so both emitters work on
/// a copy and leave `module` as it was: a caller may emit assembly and an
/// object from the same module.
llvm::Expected<std::string> emitAssembly(llvm::Module &module, Chip chip,
                                         unsigned optLevel = 3);

/// Runs the AMDGPU backend on a copy of `module` and returns a relocatable
/// ELF object.
llvm::Expected<llvm::SmallVector<char, 0>>
emitObject(llvm::Module &module, Chip chip, unsigned optLevel = 3);

} // namespace kcc

#endif // KCC_COMPILER_CODEGEN_H
