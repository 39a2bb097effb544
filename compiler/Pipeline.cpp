//===- Pipeline.cpp - From tile-dialect source to a code object -----------===//
#include "compiler/Pipeline.h"

#include "compiler/Assemble.h"
#include "compiler/CodeGen.h"
#include "compiler/Link.h"
#include "compiler/Stats.h"
#include "target/CodeObject.h"
#include "dialects/Tile/TileDialect.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
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
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
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

static llvm::Error stageError(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), what.str());
}

namespace {
/// CompileOptions::dumpDirectory: each stage's output as a file.
class StageDump {
public:
  explicit StageDump(const CompileOptions &options)
      : directory_(options.dumpDirectory), prefix_(options.dumpPrefix) {}
  bool enabled() const { return !directory_.empty(); }
  std::string path(llvm::StringRef name) const {
    llvm::SmallString<256> p(directory_);
    llvm::sys::path::append(p, prefix_ + name.str());
    return std::string(p);
  }
  llvm::Error write(llvm::StringRef name, llvm::StringRef bytes) const {
    if (!enabled())
      return llvm::Error::success();
    if (std::error_code ec = llvm::sys::fs::create_directories(directory_))
      return stageError("cannot create the dump folder " + directory_ + ": " +
                        ec.message());
    std::error_code ec;
    llvm::raw_fd_ostream os(path(name), ec);
    if (!ec) {
      os << bytes;
      os.close();
      ec = os.error();
    }
    if (ec)
      return stageError("cannot write " + path(name) + ": " + ec.message());
    return llvm::Error::success();
  }
  /// The module after each pass of `pm`, one file each under `folder`/.
  void printPasses(PassManager &pm, llvm::StringRef folder) const {
    if (enabled())
      pm.enableIRPrintingToFileTree(
          [](Pass *, Operation *) { return false; },
          [](Pass *, Operation *) { return true; },
          /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
          /*printAfterOnlyOnFailure=*/false, path(folder));
  }

private:
  std::string directory_, prefix_;
};

std::string printed(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

llvm::StringRef asText(llvm::ArrayRef<uint8_t> bytes) {
  return llvm::StringRef(reinterpret_cast<const char *>(bytes.data()),
                         bytes.size());
}

/// CompileOptions::overrideFile: the user's .s or .hsaco as the result,
/// checked to be a code object for the chip.
llvm::Expected<std::vector<uint8_t>> overrideResult(const CompileOptions &o) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(o.overrideFile);
  if (!file)
    return stageError("cannot read the override " + o.overrideFile + ": " +
                      file.getError().message());
  std::vector<uint8_t> bytes;
  llvm::StringRef name(o.overrideFile);
  if (name.ends_with(".s")) {
    llvm::Expected<llvm::SmallVector<char, 0>> object =
        assembleObject((*file)->getBuffer(), name, o.chip);
    if (!object)
      return object.takeError();
    llvm::Expected<std::vector<uint8_t>> linked = linkCodeObject(*object);
    if (!linked)
      return linked.takeError();
    bytes = std::move(*linked);
  } else if (name.ends_with(".hsaco")) {
    llvm::StringRef b = (*file)->getBuffer();
    bytes.assign(b.begin(), b.end());
  } else {
    return stageError("the override " + o.overrideFile +
                      " is neither assembly (.s) nor a code object (.hsaco)");
  }
  llvm::Expected<CodeObject> parsed = CodeObject::parse(bytes);
  if (!parsed)
    return stageError("the override " + o.overrideFile +
                      " is not a loadable code object: " +
                      llvm::toString(parsed.takeError()));
  if (!parsed->chip() || *parsed->chip() != o.chip)
    return stageError("the override " + o.overrideFile + " is for " +
                      parsed->machineName() + ", not " +
                      getChipInfo(o.chip).name);
  return bytes;
}
} // namespace

/// The dialects kernel sources use, and their translations to LLVM IR.
static DialectRegistry kernelDialects() {
  DialectRegistry registry;
  registry.insert<tile::TileDialect, arith::ArithDialect, func::FuncDialect,
                  scf::SCFDialect, cf::ControlFlowDialect, LLVM::LLVMDialect,
                  ROCDL::ROCDLDialect>();
  func::registerInlinerExtension(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
  return registry;
}

namespace {
/// Kernel source parsed into a module, with the context and the source
/// manager its diagnostics point into.
struct ParsedSource {
  // Kernels are compiled one per context and may be compiled from several
  // threads at once (the JIT): no context threading of our own.
  MLIRContext context{kernelDialects(), MLIRContext::Threading::DISABLED};
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> handler;
  OwningOpRef<ModuleOp> module;
};

llvm::Expected<std::unique_ptr<ParsedSource>>
parseSource(llvm::StringRef source, llvm::StringRef bufferName,
            llvm::raw_ostream &diagnostics) {
  auto p = std::make_unique<ParsedSource>();
  p->context.loadAllAvailableDialects();
  // Diagnostics point at the kernel source; a dump of the whole module after
  // each one would bury them.
  p->context.printOpOnDiagnostic(false);
  p->sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
  p->handler = std::make_unique<SourceMgrDiagnosticHandler>(
      p->sourceMgr, &p->context, diagnostics);
  p->module = parseSourceFile<ModuleOp>(p->sourceMgr, &p->context);
  if (!p->module)
    return stageError("could not parse " + bufferName.str());
  return std::move(p);
}
} // namespace

llvm::Expected<std::vector<KernelSignature>>
kernelSignatures(llvm::StringRef source, llvm::StringRef bufferName,
                 llvm::raw_ostream &diagnostics) {
  llvm::Expected<std::unique_ptr<ParsedSource>> parsed =
      parseSource(source, bufferName, diagnostics);
  if (!parsed)
    return parsed.takeError();
  OwningOpRef<ModuleOp> &module = (*parsed)->module;
  llvm::SmallVector<llvm::StringRef> lines;
  source.split(lines, '\n');
  std::vector<KernelSignature> kernels;
  module->walk([&](func::FuncOp f) {
    if (!f->hasAttr(tile::TileDialect::kKernelAttrName))
      return;
    KernelSignature k;
    k.name = f.getSymName().str();
    for (BlockArgument arg : f.getArguments()) {
      KernelSignature::Argument a;
      // The parser gives each argument the location of its %name.
      if (auto loc = dyn_cast<FileLineColLoc>(arg.getLoc()))
        if (loc.getLine() >= 1 && loc.getLine() <= lines.size()) {
          llvm::StringRef line = lines[loc.getLine() - 1];
          if (loc.getColumn() >= 1 && loc.getColumn() <= line.size()) {
            llvm::StringRef at = line.drop_front(loc.getColumn() - 1);
            if (at.consume_front("%"))
              a.name = at.take_while([](char c) {
                          return llvm::isAlnum(c) || c == '_' || c == '$' ||
                                 c == '.';
                        }).str();
          }
        }
      Type t = arg.getType();
      a.isFloat = isa<FloatType>(t);
      llvm::raw_string_ostream os(a.type);
      t.print(os);
      k.arguments.push_back(std::move(a));
    }
    kernels.push_back(std::move(k));
  });
  return kernels;
}

namespace {
/// -v: one line per stage as it ends, with the time since the last one.
class StageLog {
public:
  explicit StageLog(llvm::raw_ostream *os) : os_(os), last_(Clock::now()) {}
  void ended(llvm::StringRef stage) {
    if (!os_)
      return;
    Clock::time_point now = Clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    *os_ << llvm::formatv("kcc: {0,-26} {1,8:F1} ms\n", stage, ms);
    last_ = now;
  }

private:
  using Clock = std::chrono::steady_clock;
  llvm::raw_ostream *os_;
  Clock::time_point last_;
};
} // namespace

llvm::Expected<std::vector<uint8_t>>
compileKernelSource(llvm::StringRef source, llvm::StringRef bufferName,
                    const CompileOptions &options, Stage stage,
                    llvm::raw_ostream &diagnostics) {
  if (!options.overrideFile.empty()) {
    if (stage != Stage::Hsaco)
      return stageError("an override (" + options.overrideFile +
                        ") replaces the code object; it has no " +
                        "earlier stage to stop at");
    return overrideResult(options);
  }
  StageDump dump(options);
  StageLog log(options.progress);
  if (llvm::Error e = dump.write("input.mlir", source))
    return std::move(e);
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

  llvm::Expected<std::unique_ptr<ParsedSource>> parsed =
      parseSource(source, bufferName, diagnostics);
  if (!parsed)
    return parsed.takeError();
  MLIRContext &context = (*parsed)->context;
  OwningOpRef<ModuleOp> &module = (*parsed)->module;
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
  log.ended("parse and verify");

  // Tile passes.
  {
    PassManager pm(&context);
    pm.addPass(createTileSpecialize(options.chip, options.params));
    // Helper functions of a kernel are inlined and then dropped.
    pm.addPass(createInlinerPass());
    pm.addPass(createSymbolDCEPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createTileExpandSchedule());
    pm.addPass(createTileAllocateLds());
    dump.printPasses(pm, "tile-passes");
    if (failed(pm.run(*module)))
      return stageError("the tile passes failed");
  }
  log.ended("tile passes");
  if (stage == Stage::Tile || dump.enabled()) {
    std::string text = printed(*module);
    if (llvm::Error e = dump.write("tile.mlir", text))
      return std::move(e);
    if (stage == Stage::Tile)
      return bytesOf(text);
  }

  // Lowering to LLVM + ROCDL.
  {
    PassManager pm(&context);
    pm.addPass(createConvertTileToROCDL());
    pm.addPass(createReconcileUnrealizedCastsPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    // -g: a subprogram per kernel, so that the ops' file:line:col locations
    // become LLVM's line table.
    if (options.lineTables)
      pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass());
    dump.printPasses(pm, "rocdl-passes");
    if (failed(pm.run(*module)))
      return stageError("lowering to ROCDL failed");
  }
  log.ended("lowering to ROCDL");
  if (stage == Stage::Rocdl || dump.enabled()) {
    std::string text = printed(*module);
    if (llvm::Error e = dump.write("rocdl.mlir", text))
      return std::move(e);
    if (stage == Stage::Rocdl)
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
  if (llvm::Error err = optimizeModule(*llvmModule, options.chip, options.optLevel))
    return std::move(err);
  log.ended("LLVM IR, optimised (-O" + std::to_string(options.optLevel) + ")");
  if (stage == Stage::Llvm || dump.enabled()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvmModule->print(os, nullptr);
    if (llvm::Error e = dump.write("kernel.ll", text))
      return std::move(e);
    if (stage == Stage::Llvm)
      return bytesOf(text);
  }
  // Both emitters work on a copy of the module: a dump has assembly and
  // object from the one optimised module.
  if (stage == Stage::Asm || dump.enabled()) {
    llvm::Expected<std::string> asmText =
        emitAssembly(*llvmModule, options.chip, options.optLevel);
    if (!asmText)
      return asmText.takeError();
    log.ended("assembly");
    if (llvm::Error e = dump.write("kernel.s", *asmText))
      return std::move(e);
    if (stage == Stage::Asm)
      return bytesOf(*asmText);
  }
  llvm::Expected<llvm::SmallVector<char, 0>> object =
      emitObject(*llvmModule, options.chip, options.optLevel);
  if (!object)
    return object.takeError();
  log.ended("object (AMDGPU backend)");
  if (llvm::Error e = dump.write(
          "kernel.o", llvm::StringRef(object->data(), object->size())))
    return std::move(e);
  if (stage == Stage::Obj)
    return std::vector<uint8_t>(object->begin(), object->end());
  llvm::Expected<std::vector<uint8_t>> codeObject = linkCodeObject(*object);
  if (codeObject)
    log.ended("code object (lld)");
  if (!codeObject || !dump.enabled())
    return codeObject;
  if (llvm::Error e = dump.write("kernel.hsaco", asText(*codeObject)))
    return std::move(e);
  llvm::Expected<std::vector<KernelStats>> stats = computeStats(*codeObject);
  if (!stats)
    return stats.takeError();
  std::string json;
  llvm::raw_string_ostream os(json);
  printStatsJSON(os, *stats);
  if (llvm::Error e = dump.write("stats.json", json))
    return std::move(e);
  return codeObject;
}

} // namespace kcc
