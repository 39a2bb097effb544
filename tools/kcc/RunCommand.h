//===- RunCommand.h - `kcc run`: run a code object on a device -*- C++ -*-===//
//
//   kcc run CODE_OBJECT --kernel NAME --device emu:gfx942|emu:gfx950
//       --grid X[,Y,Z] --block X[,Y,Z] [--lds-bytes N] [--cus N]
//       --arg in=FILE | out=FILE:BYTES | inout=FILE | i32=V | u32=V | i64=V |
//             f32=V ...
//
// Arguments are given in the kernel's order and checked against the code
// object's metadata before anything runs. Buffers are device allocations
// filled from (and written back to) raw binary files.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TOOLS_KCC_RUNCOMMAND_H
#define KCC_TOOLS_KCC_RUNCOMMAND_H

#include "llvm/ADT/ArrayRef.h"

namespace kcc {

/// Runs `kcc run`. `args` are the words after "kcc" (a leading "run" is
/// skipped). Returns the process exit code: 0 on success, 1 on any error
/// (reported as one line on stderr).
int runCommand(llvm::ArrayRef<const char *> args);

/// Runs `kcc emu-coverage FILE.hsaco [--mcpu=CHIP]` (CoverageCommand.cpp):
/// the opcodes of every kernel, their counts and whether the emulator
/// implements them. Returns 1 when one is missing.
int emuCoverageCommand(llvm::ArrayRef<const char *> args);

} // namespace kcc

#endif // KCC_TOOLS_KCC_RUNCOMMAND_H
