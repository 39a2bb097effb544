//===- kcc-opt.cpp - mlir-opt with the tile dialect and kcc's passes ------===//
//
// Runs any of kcc's passes alone on textual IR, so lit tests can stop the
// pipeline anywhere.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/TileDialect.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

/// kcc's passes in pipeline order, then the upstream ones kcc-opt registers
/// because kcc's pipeline runs them.
static const char *const kKccPasses[] = {"tile-specialize", "tile-expand-schedule",
                                         "tile-allocate-lds", "convert-tile-to-rocdl"};
static const char *const kUpstreamPasses[] = {"inline", "symbol-dce", "canonicalize", "cse"};

/// `kcc-opt --help`: kcc's passes first, each with the summary its
/// registration carries, instead of mlir-opt's few hundred generic options
/// (still there under --help-all).
static void printHelp() {
  llvm::outs() << "OVERVIEW: kcc-opt runs kcc's passes (and the upstream ones its pipeline\n"
                  "uses) on textual MLIR, as mlir-opt does, for lit tests and debugging\n\n"
                  "USAGE: kcc-opt [FILE.mlir] --PASS[=\"OPTIONS\"]... [-o FILE]\n"
                  "  e.g. kcc-opt kernels/gemm/gemm.mlir "
                  "--tile-specialize=\"chip=gfx950 params=WM=32\"\n\n"
                  "KCC PASSES (pipeline order):\n";
  auto list = [](llvm::ArrayRef<const char *> names) {
    for (const char *name : names)
      if (const mlir::PassInfo *info = mlir::PassInfo::lookup(name))
        llvm::outs() << llvm::format("  --%-24s %s\n", name,
                                     info->getPassDescription().str().c_str());
  };
  list(kKccPasses);
  llvm::outs() << "\nUPSTREAM PASSES kcc's pipeline runs:\n";
  list(kUpstreamPasses);
  llvm::outs() << "\nCOMMON OPTIONS:\n"
                  "  -o FILE                    output (default stdout)\n"
                  "  --split-input-file         run on each `// -----` chunk\n"
                  "  --verify-diagnostics       check expected-error comments\n"
                  "  --mlir-print-ir-after-all  print the module after each pass\n"
                  "  --help-all                 every option of mlir-opt and LLVM\n";
}

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::func::registerInlinerExtension(registry);
  registry.insert<kcc::tile::TileDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::scf::SCFDialect,
                  mlir::cf::ControlFlowDialect, mlir::LLVM::LLVMDialect,
                  mlir::ROCDL::ROCDLDialect>();
  kcc::registerKccPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerInlinerPass();
  mlir::registerSymbolDCEPass();
  std::vector<char *> args(argv, argv + argc);
  for (char *&a : args) {
    llvm::StringRef arg(a);
    if (arg == "--help" || arg == "-help" || arg == "-h") {
      printHelp();
      return 0;
    }
    // --help-all: mlir-opt's own, complete list.
    if (arg == "--help-all")
      a = const_cast<char *>("--help");
  }
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      int(args.size()), args.data(), "kcc optimizer driver\n", registry));
}
