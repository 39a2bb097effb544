//===- RunKernel.h - `kcc run NAME`: a kernel of kcc by name ----*- C++ -*-===//
//
//   kcc run gemm [--device hip:N|emu:gfx942|emu:gfx950] [-D NAME=VALUE]...
//       [--shape M=..,N=..,K=..] [--seed N] [--inputs a=A.npy,bt=BT.npy,bias=B.npy]
//       [--outputs DIR] [--reference c=REF.npy] [--atol X] [--rtol Y] [--verify]
//
// Compiles the named kernel through the JIT (or finds it in the cache),
// makes its inputs (random normal values from --seed, or .npy files), runs it
// through its op wrapper on the device, writes inputs and outputs as .npy
// files, compares the output with a reference .npy (--reference) or with a
// float64 host computation (--verify), and reports the time: HIP events on a
// GPU, instructions executed on the emulator.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TOOLS_KCC_RUNKERNEL_H
#define KCC_TOOLS_KCC_RUNKERNEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace kcc {

/// True when `word` names a kernel `kcc run` can run by name (and is not a
/// file: a code object called "gemm" in the current directory still wins).
bool isNamedKernel(llvm::StringRef word);

/// Runs `kcc run NAME ...`; `args` start with NAME. Returns the exit code:
/// 0 on success, 1 on errors or a failed comparison.
int runNamedKernel(llvm::ArrayRef<llvm::StringRef> args);

} // namespace kcc

#endif // KCC_TOOLS_KCC_RUNKERNEL_H
