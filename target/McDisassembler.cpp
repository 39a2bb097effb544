//===- McDisassembler.cpp - LLVM's AMDGPU decoder and printer for a chip --===//
#include "target/McDisassembler.h"

#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

// Only the parts of the AMDGPU target that read machine code: no codegen,
// so the floor does not pull in LLVM's code generator.
extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUDisassembler();
}

using namespace llvm;

namespace kcc {

Expected<std::unique_ptr<McDisassembler>> McDisassembler::create(Chip chip) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
  });
  Triple triple("amdgcn-amd-amdhsa");
  std::string lookupError;
  const Target *target = TargetRegistry::lookupTarget(triple, lookupError);
  StringRef cpu = getChipInfo(chip).name;
  if (!target)
    return createStringError(inconvertibleErrorCode(),
                             "the AMDGPU target is not available in this LLVM "
                             "build: " + lookupError);
  auto d = std::make_unique<McDisassembler>();
  d->chip = chip;
  d->regInfo.reset(target->createMCRegInfo(triple));
  MCTargetOptions options;
  if (d->regInfo)
    d->asmInfo.reset(target->createMCAsmInfo(*d->regInfo, triple, options));
  d->subtarget.reset(
      target->createMCSubtargetInfo(triple, cpu, "+wavefrontsize64"));
  d->instrInfo.reset(target->createMCInstrInfo());
  if (!d->regInfo || !d->asmInfo || !d->subtarget || !d->instrInfo)
    return createStringError(inconvertibleErrorCode(),
                             "LLVM's AMDGPU MC layer is incomplete for " + cpu);
  d->context = std::make_unique<MCContext>(triple, d->asmInfo.get(),
                                           d->regInfo.get(), d->subtarget.get());
  d->decoder.reset(target->createMCDisassembler(*d->subtarget, *d->context));
  d->printer.reset(target->createMCInstPrinter(
      triple, d->asmInfo->getAssemblerDialect(), *d->asmInfo, *d->instrInfo,
      *d->regInfo));
  if (!d->decoder || !d->printer)
    return createStringError(inconvertibleErrorCode(),
                             "LLVM has no AMDGPU disassembler or instruction "
                             "printer for " + cpu);
  return std::move(d);
}

} // namespace kcc
