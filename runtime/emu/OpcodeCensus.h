//===- OpcodeCensus.h - Every opcode of a chip, and whether it runs -*- C++ -*-===//
//
// `kcc emu-coverage --isa CHIP` answers "which instructions of this chip can
// the emulator not run?" for every opcode LLVM's AMDGPU disassembler decodes
// for the chip, not only those some kernel happened to use. The census asks
// LLVM itself which opcodes those are (see OpcodeCensus.cpp), so a newer LLVM
// that learns an instruction makes it appear here as missing until the
// emulator implements it.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_OPCODECENSUS_H
#define KCC_RUNTIME_EMU_OPCODECENSUS_H

#include "target/Target.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace kcc::emu {

enum class OpcodeStatus {
  Implemented,  // the emulator executes it
  GraphicsOnly, // image/sampler, export, interpolation, GDS/GWS: refused by design
  Missing,      // a compute instruction the emulator refuses
};

struct CensusEntry {
  std::string opcode;  // LLVM's name without its subtarget suffix: "v_add_f32_e64"
  std::string example; // one decoded instance: "v_add_f32_e64 v0, s0, s0"
  OpcodeStatus status = OpcodeStatus::Missing;
};

/// Every opcode LLVM's disassembler decodes for `chip`, sorted by name.
llvm::Expected<std::vector<CensusEntry>> opcodeCensus(Chip chip);

/// Whether an opcode (as CensusEntry::opcode spells it) belongs to a family
/// compute kernels cannot use.
bool isGraphicsOnlyOpcode(llvm::StringRef opcode);

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_OPCODECENSUS_H
