//===- LaunchTrace.h - Watching a launch instruction by instruction -*- C++ -*-===//
//
// What a caller of the runtime may observe of a running launch without
// knowing which device runs it: each instruction a wave issues, with the
// global memory it touched. The ring attention's step record uses it to split
// the persistent kernel's instructions by ring step. The emulator implements
// it (runtime/SymmetricHeap.cpp adapts its Observer); a GPU cannot watch
// single instructions, so a HIP launch given a trace is refused with an
// error that says so, and callers ask Device::supportsLaunchTrace() first.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_LAUNCHTRACE_H
#define KCC_RUNTIME_LAUNCHTRACE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace kcc {

/// One instruction a wave issued.
struct TracedInstruction {
  unsigned launch = 0;    // index of the launch among those run together
  uint64_t workgroup = 0; // linear workgroup index within its launch
  uint32_t wave = 0;      // unique id of the wave within the run
  uint64_t pc = 0;        // the instruction's address in device memory
};

/// One lane's access to global memory.
struct TracedAccess {
  uint64_t address = 0;
  bool write = false; // stores and atomics
};

class LaunchTrace {
public:
  virtual ~LaunchTrace();
  /// After a wave issued an instruction; `global` lists the global memory
  /// accesses of its lanes.
  virtual void instruction(const TracedInstruction &inst,
                           llvm::ArrayRef<TracedAccess> global) = 0;
};

} // namespace kcc

#endif // KCC_RUNTIME_LAUNCHTRACE_H
