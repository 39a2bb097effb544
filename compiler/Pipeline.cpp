//===- Pipeline.cpp - From tile-dialect source to a code object -----------===//
#include "compiler/Pipeline.h"

#include "compiler/CodeGen.h"
#include "compiler/Link.h"
#include "dialects/Tile/TileDialect.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace kcc {

std::optional<Stage> parseStage(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Stage>>(name)
      .Case("tile", Stage::Tile)
      .Case("rocdl", Stage::Rocdl)
      .Case("llvm", Stage::Llvm)
      .Case("asm", Stage::Asm)
      .Case("obj", Stage::Obj)
      .Case("hsaco", Stage::Hsaco)
      .Default(std::nullopt);
}

llvm::StringRef stageList() { return "tile, rocdl, llvm, asm, obj, hsaco"; }

static std::vector<uint8_t> bytesOf(llvm::StringRef s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

static llvm::Error stageError(llvm::StringRef what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), what.str());
}

llvm::Expected<std::vector<uint8_t>>
compileKernelSource(llvm::StringRef source, llvm::StringRef bufferName,
                    const CompileOptions &options, Stage stage,
                    llvm::raw_ostream &diagnostics) {
  DialectRegistry registry;
  registry.insert<tile::TileDialect, arith::ArithDialect, func::FuncDialect,
                  scf::SCFDialect, cf::ControlFlowDialect, LLVM::LLVMDialect,
                  ROCDL::ROCDLDialect>();
  func::registerInlinerExtension(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
  // Kernels are compiled one per context and may be compiled from several
  // threads at once (the JIT): no context threading of our own.
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  // Diagnostics point at the kernel source; a dump of the whole module after
  // each one would bury them.
  context.printOpOnDiagnostic(false);

  // Input that is not MLIR at all gets told what kcc expected, rather than
  // the parser's complaint about its first character.
  llvm::StringRef name(bufferName);
  if (source.starts_with("\x7f" "ELF"))
    return stageError(bufferName.str() +
                      " is an ELF file (a code object?); kcc compiles tile-dialect "
                      "MLIR (.mlir). Run a code object with `kcc run " +
                      bufferName.str() + " --kernel NAME ...`");
  if (name.ends_with(".s") || name.ends_with(".S") || name.ends_with(".asm"))
    return stageError(bufferName.str() +
                      " looks like assembly; kcc compiles tile-dialect MLIR "
                      "(.mlir). Assemble AMDGPU assembly with llvm-mc and "
                      "ld.lld, then run it with `kcc run`");

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnostics);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return stageError("could not parse " + bufferName.str());
  // An empty or truncated file parses into an empty module; compiling it
  // would "succeed" with a code object that holds no kernel.
  bool hasKernel = false;
  module->walk([&](func::FuncOp f) {
    hasKernel |= f->hasAttr(tile::TileDialect::kKernelAttrName);
  });
  if (!hasKernel)
    return stageError(bufferName.str() +
                      " has no kernel (a func.func marked tile.kernel); is the "
                      "file empty or cut short?");

  // Tile passes.
  {
    PassManager pm(&context);
    TileSpecializeOptions specialize;
    specialize.chip = getChipInfo(options.chip).name.str();
    specialize.params.assign(options.params.begin(), options.params.end());
    pm.addPass(createTileSpecialize(specialize));
    // Helper functions of a kernel are inlined and then dropped.
    pm.addPass(createInlinerPass());
    pm.addPass(createSymbolDCEPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createTileExpandSchedule());
    pm.addPass(createTileAllocateLds());
    if (failed(pm.run(*module)))
      return stageError("the tile passes failed");
  }
  if (stage == Stage::Tile) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return bytesOf(text);
  }

  // Lowering to LLVM + ROCDL.
  {
    PassManager pm(&context);
    pm.addPass(createConvertTileToROCDL());
    pm.addPass(createReconcileUnrealizedCastsPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    if (failed(pm.run(*module)))
      return stageError("lowering to ROCDL failed");
  }
  if (stage == Stage::Rocdl) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return bytesOf(text);
  }

  // LLVM IR and the AMDGPU backend.
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext, "kcc");
  if (!llvmModule)
    return stageError("translation to LLVM IR failed");
  if (llvm::Error err = prepareModule(*llvmModule, options.chip))
    return std::move(err);
  if (stage == Stage::Llvm || stage == Stage::Asm)
    if (llvm::Error err = optimizeModule(*llvmModule, options.chip, options.optLevel))
      return std::move(err);
  if (stage == Stage::Llvm) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvmModule->print(os, nullptr);
    return bytesOf(text);
  }
  if (stage == Stage::Asm) {
    llvm::Expected<std::string> asmText =
        emitAssembly(*llvmModule, options.chip, options.optLevel);
    if (!asmText)
      return asmText.takeError();
    return bytesOf(*asmText);
  }
  if (llvm::Error err = optimizeModule(*llvmModule, options.chip, options.optLevel))
    return std::move(err);
  llvm::Expected<llvm::SmallVector<char, 0>> object =
      emitObject(*llvmModule, options.chip, options.optLevel);
  if (!object)
    return object.takeError();
  if (stage == Stage::Obj)
    return std::vector<uint8_t>(object->begin(), object->end());
  return linkCodeObject(*object);
}

} // namespace kcc
