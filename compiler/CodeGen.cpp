//===- CodeGen.cpp - LLVM IR to AMDGPU machine code -----------------------===//
//
// Only the AMDGPU target is initialised: kcc never generates code for anything
// else, and initialising all targets would slow down every process start.
//
//===----------------------------------------------------------------------===//
#include "compiler/CodeGen.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <mutex>

using namespace llvm;

namespace kcc {

static constexpr const char kTriple[] = "amdgcn-amd-amdhsa";
static constexpr const char kCodeObjectFlag[] = "amdhsa_code_object_version";

StringRef getAmdgpuTriple() { return kTriple; }

//===----------------------------------------------------------------------===//
// Target setup
//===----------------------------------------------------------------------===//

/// Registers the AMDGPU target, MC layer, assembly printer/parser and
/// disassembler with the TargetRegistry exactly once per process. The
/// disassembler is registered here as well because Stats.cpp uses it.
void initializeAmdgpuTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
    LLVMInitializeAMDGPUDisassembler();
  });
}

static Expected<CodeGenOptLevel> toCodeGenOptLevel(unsigned optLevel) {
  if (std::optional<CodeGenOptLevel> level = CodeGenOpt::getLevel(optLevel))
    return *level;
  return createStringError(inconvertibleErrorCode(),
                           "optimisation level %u is not one of 0, 1, 2, 3",
                           optLevel);
}

Expected<std::unique_ptr<TargetMachine>> createTargetMachine(Chip chip,
                                                             unsigned optLevel) {
  initializeAmdgpuTarget();
  Expected<CodeGenOptLevel> level = toCodeGenOptLevel(optLevel);
  if (!level)
    return level.takeError();

  Triple triple(kTriple);
  std::string lookupError;
  const Target *target = TargetRegistry::lookupTarget(triple, lookupError);
  if (!target)
    return createStringError(inconvertibleErrorCode(),
                             "the AMDGPU target is not available in this "
                             "LLVM build: %s",
                             lookupError.c_str());

  const ChipInfo &info = getChipInfo(chip);
  // CDNA runs wave64 only; saying so explicitly keeps the backend from ever
  // picking wave32 code paths should the default for a CPU name change.
  std::string features = "+wavefrontsize64";
  TargetOptions options;
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      triple, info.name, features, options, Reloc::PIC_, std::nullopt,
      *level));
  if (!machine)
    return createStringError(inconvertibleErrorCode(),
                             "LLVM could not create an AMDGPU target machine "
                             "for %s",
                             info.name.str().c_str());
  return std::move(machine);
}

Error prepareModule(Module &module, Chip chip) {
  const Triple &current = module.getTargetTriple();
  if (!current.str().empty() && current.getArch() != Triple::amdgcn)
    return createStringError(inconvertibleErrorCode(),
                             "module '%s' targets '%s'; kcc compiles only "
                             "amdgcn modules (%s)",
                             module.getModuleIdentifier().c_str(),
                             current.str().c_str(), kTriple);

  if (Metadata *flag = module.getModuleFlag(kCodeObjectFlag)) {
    auto *value = mdconst::dyn_extract_or_null<ConstantInt>(flag);
    if (!value || value->getSExtValue() != kCodeObjectVersion)
      return createStringError(
          inconvertibleErrorCode(),
          "module '%s' asks for a code object version other than %d through "
          "the '%s' module flag; kcc emits only code object v5",
          module.getModuleIdentifier().c_str(), kCodeObjectVersion,
          kCodeObjectFlag);
  } else {
    // The backend reads the version from this flag; without it, it would
    // use its own default, which differs between LLVM releases.
    module.addModuleFlag(Module::Error, kCodeObjectFlag, kCodeObjectVersion);
  }

  Expected<std::unique_ptr<TargetMachine>> machine =
      createTargetMachine(chip, /*optLevel=*/0);
  if (!machine)
    return machine.takeError();
  module.setTargetTriple(Triple(kTriple));
  module.setDataLayout((*machine)->createDataLayout());
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

namespace {
/// While alive, collects the errors that passes report through the module's
/// LLVMContext. Without it, LLVMContext::diagnose prints an error and calls
/// exit(1), which a library must never do. Everything else (warnings, remarks)
/// still goes to the handler that was installed before.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(LLVMContext &context) : context(context) {
    auto handler = std::make_unique<Handler>(context.getDiagnosticHandler());
    captured = handler.get();
    context.setDiagnosticHandler(std::move(handler));
  }

  ~DiagnosticCapture() {
    // Hand the previous handler back; ours is destroyed with the unique_ptr.
    std::unique_ptr<DiagnosticHandler> ours = context.getDiagnosticHandler();
    context.setDiagnosticHandler(std::move(captured->previous));
  }

  /// The errors so far, as an llvm::Error mentioning `what` ("code
  /// generation for gfx942"), or success when there were none.
  Error takeError(StringRef what) {
    if (captured->errors.empty())
      return Error::success();
    std::string message = (what + " failed:\n" + captured->errors).str();
    captured->errors.clear();
    return createStringError(inconvertibleErrorCode(), message);
  }

private:
  struct Handler : DiagnosticHandler {
    explicit Handler(std::unique_ptr<DiagnosticHandler> previous)
        : previous(std::move(previous)) {}

    bool handleDiagnostics(const DiagnosticInfo &info) override {
      if (info.getSeverity() == DS_Error) {
        raw_string_ostream os(errors);
        DiagnosticPrinterRawOStream printer(os);
        os << "  error: ";
        info.print(printer);
        os << "\n";
        return true;
      }
      return previous && previous->handleDiagnostics(info);
    }
    bool isAnalysisRemarkEnabled(StringRef pass) const override {
      return previous && previous->isAnalysisRemarkEnabled(pass);
    }
    bool isMissedOptRemarkEnabled(StringRef pass) const override {
      return previous && previous->isMissedOptRemarkEnabled(pass);
    }
    bool isPassedOptRemarkEnabled(StringRef pass) const override {
      return previous && previous->isPassedOptRemarkEnabled(pass);
    }
    bool isAnyRemarkEnabled() const override {
      return previous && previous->isAnyRemarkEnabled();
    }

    std::unique_ptr<DiagnosticHandler> previous;
    std::string errors;
  };

  LLVMContext &context;
  Handler *captured;
};
} // namespace

static Error verify(Module &module, StringRef stage) {
  std::string message;
  raw_string_ostream os(message);
  if (verifyModule(module, &os))
    return createStringError(inconvertibleErrorCode(),
                             "invalid LLVM IR before %s of module '%s':\n%s",
                             stage.str().c_str(),
                             module.getModuleIdentifier().c_str(),
                             message.c_str());
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Middle end
//===----------------------------------------------------------------------===//

static OptimizationLevel toOptimizationLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return OptimizationLevel::O0;
  case 1:
    return OptimizationLevel::O1;
  case 2:
    return OptimizationLevel::O2;
  default:
    return OptimizationLevel::O3;
  }
}

Error optimizeModule(Module &module, Chip chip, unsigned optLevel) {
  if (optLevel > 3)
    return createStringError(inconvertibleErrorCode(),
                             "optimisation level %u is not one of 0, 1, 2, 3",
                             optLevel);
  if (Error err = prepareModule(module, chip))
    return err;
  // The pass pipeline assumes valid IR and may crash on anything else.
  if (Error err = verify(module, "optimisation"))
    return err;
  Expected<std::unique_ptr<TargetMachine>> machine =
      createTargetMachine(chip, optLevel);
  if (!machine)
    return machine.takeError();

  DiagnosticCapture diagnostics(module.getContext());
  {
    LoopAnalysisManager lam;
    FunctionAnalysisManager fam;
    CGSCCAnalysisManager cgam;
    ModuleAnalysisManager mam;
    // Passing the machine registers the AMDGPU passes and its alias and
    // target-transform analyses, which the O3 pipeline needs to do its job
    // (address-space inference, uniformity, unrolling thresholds).
    PassBuilder builder(machine->get());
    builder.registerModuleAnalyses(mam);
    builder.registerCGSCCAnalyses(cgam);
    builder.registerFunctionAnalyses(fam);
    builder.registerLoopAnalyses(lam);
    builder.crossRegisterProxies(lam, fam, cgam, mam);

    ModulePassManager passes =
        optLevel == 0
            ? builder.buildO0DefaultPipeline(OptimizationLevel::O0)
            : builder.buildPerModuleDefaultPipeline(
                  toOptimizationLevel(optLevel));
    passes.run(module, mam);
  }
  return diagnostics.takeError(
      ("optimisation for " + getChipInfo(chip).name).str());
}

//===----------------------------------------------------------------------===//
// Back end
//===----------------------------------------------------------------------===//

static Error runBackend(Module &module, Chip chip, unsigned optLevel,
                        CodeGenFileType fileType, raw_pwrite_stream &os) {
  if (Error err = prepareModule(module, chip))
    return err;
  if (Error err = verify(module, "code generation"))
    return err;
  Expected<std::unique_ptr<TargetMachine>> machine =
      createTargetMachine(chip, optLevel);
  if (!machine)
    return machine.takeError();

  std::unique_ptr<Module> copy = CloneModule(module);
  DiagnosticCapture diagnostics(module.getContext());
  legacy::PassManager passes;
  if ((*machine)->addPassesToEmitFile(passes, os, /*DwoOut=*/nullptr,
                                      fileType))
    return createStringError(inconvertibleErrorCode(),
                             "the AMDGPU backend cannot emit %s files",
                             fileType == CodeGenFileType::AssemblyFile
                                 ? "assembly"
                                 : "object");
  passes.run(*copy);
  return diagnostics.takeError(
      ("code generation for " + getChipInfo(chip).name).str());
}

Expected<std::string> emitAssembly(Module &module, Chip chip,
                                   unsigned optLevel) {
  SmallVector<char, 0> buffer;
  raw_svector_ostream os(buffer);
  if (Error err = runBackend(module, chip, optLevel,
                             CodeGenFileType::AssemblyFile, os))
    return std::move(err);
  return std::string(buffer.begin(), buffer.end());
}

Expected<SmallVector<char, 0>> emitObject(Module &module, Chip chip,
                                          unsigned optLevel) {
  SmallVector<char, 0> buffer;
  raw_svector_ostream os(buffer);
  if (Error err = runBackend(module, chip, optLevel,
                             CodeGenFileType::ObjectFile, os))
    return std::move(err);
  return std::move(buffer);
}

} // namespace kcc
