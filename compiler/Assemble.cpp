//===- Assemble.cpp - AMDGPU assembly text to a relocatable object --------===//
#include "compiler/Assemble.h"
#include "compiler/CodeGen.h"
#include "target/Error.h"

#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace kcc {

Expected<SmallVector<char, 0>> assembleObject(StringRef text,
                                              StringRef bufferName, Chip chip) {
  initializeAmdgpuTarget();
  Triple triple(getAmdgpuTriple());
  std::string lookupError;
  const Target *target = TargetRegistry::lookupTarget(triple, lookupError);
  if (!target)
    return makeError("the AMDGPU target is not available: " + lookupError);
  StringRef cpu = getChipInfo(chip).name;
  MCTargetOptions options;
  std::unique_ptr<MCRegisterInfo> regInfo(target->createMCRegInfo(triple));
  std::unique_ptr<MCAsmInfo> asmInfo(
      regInfo ? target->createMCAsmInfo(*regInfo, triple, options) : nullptr);
  std::unique_ptr<MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, cpu, "+wavefrontsize64"));
  std::unique_ptr<MCInstrInfo> instrInfo(target->createMCInstrInfo());
  if (!regInfo || !asmInfo || !subtarget || !instrInfo)
    return makeError("LLVM's AMDGPU MC layer is incomplete for " + cpu);

  SourceMgr sources;
  sources.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(text, bufferName),
                             SMLoc());
  // The assembler's diagnostics, with their locations, for the Error.
  std::string diagnostics;
  raw_string_ostream diag(diagnostics);
  sources.setDiagHandler(
      [](const SMDiagnostic &d, void *os) {
        d.print(nullptr, *static_cast<raw_ostream *>(os), /*ShowColors=*/false);
      },
      &diag);

  MCContext context(triple, asmInfo.get(), regInfo.get(), subtarget.get(),
                    &sources, &options);
  std::unique_ptr<MCObjectFileInfo> fileInfo(
      target->createMCObjectFileInfo(context, /*PIC=*/true));
  context.setObjectFileInfo(fileInfo.get());

  SmallVector<char, 0> object;
  raw_svector_ostream out(object);
  std::unique_ptr<MCAsmBackend> backend(
      target->createMCAsmBackend(*subtarget, *regInfo, options));
  std::unique_ptr<MCCodeEmitter> emitter(
      target->createMCCodeEmitter(*instrInfo, context));
  if (!backend || !emitter)
    return makeError("LLVM has no AMDGPU assembler back end for " + cpu);
  std::unique_ptr<MCObjectWriter> writer = backend->createObjectWriter(out);
  std::unique_ptr<MCStreamer> streamer(target->createMCObjectStreamer(
      triple, context, std::move(backend), std::move(writer),
      std::move(emitter), *subtarget));
  std::unique_ptr<MCAsmParser> parser(
      createMCAsmParser(sources, context, *streamer, *asmInfo));
  std::unique_ptr<MCTargetAsmParser> targetParser(
      target->createMCAsmParser(*subtarget, *parser, *instrInfo, options));
  if (!targetParser)
    return makeError("LLVM has no AMDGPU assembly parser for " + cpu);
  parser->setTargetParser(*targetParser);
  bool failed = parser->Run(/*NoInitialTextSection=*/false);
  if (failed || context.hadError())
    return makeError("cannot assemble " + bufferName + " for " + cpu + ":\n" +
                     StringRef(diagnostics).rtrim());
  streamer->finish();
  return std::move(object);
}

} // namespace kcc
