//===- Launcher.h - The C launcher of a code object ------------*- C++ -*-===//
//
// `kcc FILE.mlir --mcpu=CHIP --emit=launcher -o DIR/NAME` writes NAME.h and
// NAME.c: the code object embedded as bytes, and one typed C function per
// kernel, NAME_<kernel>_launch(device, stream, grid, block, <arguments>),
// with the kernel's own argument names and C types (pointers as kcc_devptr,
// values as int32_t/int64_t/float/double: the metadata's sizes, the source's
// float types). They are built on kcc_c.h (libkcc_c, the runtime without the
// compiler): a C program links them with `-lkcc_c` and nothing of MLIR or
// LLVM's compiler.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_COMPILER_LAUNCHER_H
#define KCC_COMPILER_LAUNCHER_H

#include "compiler/Pipeline.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace kcc {

struct LauncherFiles {
  std::string header; // NAME.h
  std::string source; // NAME.c
};

/// The launcher called `name` (a C identifier) of `codeObject`, whose
/// kernels `signatures` describes (kernelSignatures() of its source);
/// `origin` says in a comment where it came from.
llvm::Expected<LauncherFiles>
writeLauncher(llvm::StringRef name, llvm::ArrayRef<uint8_t> codeObject,
              llvm::ArrayRef<KernelSignature> signatures,
              llvm::StringRef origin);

/// `text` as a C identifier: other characters become '_', a leading digit
/// gets a '_' before it.
std::string cIdentifier(llvm::StringRef text);

} // namespace kcc

#endif // KCC_COMPILER_LAUNCHER_H
