//===- McDisassembler.h - LLVM's AMDGPU decoder and printer for a chip -*- C++ -*-===//
//
// The one place kcc sets up LLVM's MC layer to read AMDGPU machine code: the
// emulator's decoder (runtime/emu/Decoder.cpp) and `kcc --stats`
// (compiler/Stats.cpp) both decode with it, so they cannot disagree about
// which instruction a word is or how it prints.
//
// LLVM's AMDGPU disassembler keeps per-call state in mutable members: one
// object decodes on one thread at a time. Callers own what create() returns
// and guard it themselves when they share it.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TARGET_MCDISASSEMBLER_H
#define KCC_TARGET_MCDISASSEMBLER_H

#include "target/Target.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace kcc {

struct McDisassembler {
  Chip chip = Chip::gfx942;
  std::unique_ptr<llvm::MCRegisterInfo> regInfo;
  std::unique_ptr<llvm::MCAsmInfo> asmInfo;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;
  std::unique_ptr<llvm::MCInstrInfo> instrInfo;
  std::unique_ptr<llvm::MCContext> context;
  std::unique_ptr<llvm::MCDisassembler> decoder;
  std::unique_ptr<llvm::MCInstPrinter> printer;

  /// The MC objects for `chip` (wave64). Errors say which part of LLVM's
  /// AMDGPU target is missing from the LLVM kcc runs with.
  static llvm::Expected<std::unique_ptr<McDisassembler>> create(Chip chip);
};

} // namespace kcc

#endif // KCC_TARGET_MCDISASSEMBLER_H
