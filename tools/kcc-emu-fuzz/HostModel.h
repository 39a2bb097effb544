//===- HostModel.h - The host's evaluation of a fuzz program ----*- C++ -*-===//
//
// The reference side of kcc-emu-fuzz: the program's segments compiled for
// the host CPU by LLVM's ORC JIT and called once per lane, and the
// cross-lane steps evaluated by a C++ model of each intrinsic written from
// the ISA's description (CDNA3 for gfx942, CDNA4 for gfx950) and LLVM's
// intrinsic documentation (IntrinsicsAMDGPU.td, AMDGPUUsage).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TOOLS_EMU_FUZZ_HOSTMODEL_H
#define KCC_TOOLS_EMU_FUZZ_HOSTMODEL_H

#include "Program.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace kcc::fuzz {

/// Initialises the host target for the JIT (once per process).
void initializeHostJit();

/// Runs `p` on the host from `inputs` (generateInputs' layout) and returns
/// every lane's slots after the last step, in the same layout.
llvm::Expected<std::vector<uint64_t>> evaluateOnHost(const Program &p,
                                                      const std::vector<uint64_t> &inputs);

/// Applies one cross-lane step to `state` (all lanes of the launch).
void applyCrossLane(const Program &p, const CrossLane &x, std::vector<uint64_t> &state);

} // namespace kcc::fuzz

#endif // KCC_TOOLS_EMU_FUZZ_HOSTMODEL_H
