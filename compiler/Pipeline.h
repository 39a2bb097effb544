//===- Pipeline.h - From tile-dialect source to a code object ---*- C++ -*-===//
//
// The compile flow of DESIGN.md as one library: every stage can be stopped
// at (for `kcc --emit=...` and the lit tests), and the whole flow runs
// in-process (for the JIT).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_COMPILER_PIPELINE_H
#define KCC_COMPILER_PIPELINE_H

#include "target/ParamBinding.h"
#include "target/Target.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kcc {

/// Where to stop: tile (after the tile passes), rocdl (LLVM + ROCDL dialect),
/// llvm (optimised LLVM IR), asm, obj (relocatable ELF), hsaco (code object).
enum class Stage { Tile, Rocdl, Llvm, Asm, Obj, Hsaco };

/// Parses "tile", "rocdl", ...; std::nullopt for anything else.
std::optional<Stage> parseStage(llvm::StringRef name);
llvm::StringRef stageList();

struct CompileOptions {
  Chip chip = Chip::gfx942;
  /// Parameter bindings, typed where they were written (-D, an op's
  /// choice): see target/ParamBinding.h.
  std::vector<ParamBinding> params;
  /// -v: each stage, as it ends, with its wall time ("kcc: tile passes
  /// 12.3 ms"); nullptr: silent.
  llvm::raw_ostream *progress = nullptr;
  /// -g: line tables from the kernel's .mlir (`.loc` in the assembly,
  /// .debug_line in objects), so a profiler or the ISA points at the source.
  bool lineTables = false;
  unsigned optLevel = 3;
  /// Writes every stage of the compile into this folder (made if missing),
  /// each file name after `dumpPrefix`: input.mlir, tile-passes/ (the module
  /// after each tile pass), tile.mlir, rocdl-passes/, rocdl.mlir, kernel.ll
  /// (optimised), kernel.s, kernel.o, kernel.hsaco and stats.json; up to the
  /// stage asked for. Empty: nothing is written.
  std::string dumpDirectory, dumpPrefix;
  /// Replaces the compile: this file becomes the result, an AMDGPU assembly
  /// file (.s: assembled and linked as kcc links its own objects) or a code
  /// object (.hsaco). Either must be for the chip. Empty: compile.
  std::string overrideFile;
};

/// A kernel's arguments as its source declares them (for the C launchers
/// `kcc --emit=launcher` writes: code-object metadata has sizes only).
struct KernelSignature {
  struct Argument {
    std::string name; // the source's %name without the %; "" if unknown
    std::string type; // as printed: "!tile.ptr<f32>", "index", "f32"
    bool isFloat = false;
  };
  std::string name;
  std::vector<Argument> arguments;
};

/// The kernels (func.func marked tile.kernel) of `source`, parsed only.
llvm::Expected<std::vector<KernelSignature>>
kernelSignatures(llvm::StringRef source, llvm::StringRef bufferName,
                 llvm::raw_ostream &diagnostics);

/// Compiles kernel source text (tile dialect) to `stage`. Textual stages are
/// returned as text, binary ones as bytes. Diagnostics (with file:line:col
/// of `bufferName`) go to `diagnostics`; the Error then says which stage
/// failed.
llvm::Expected<std::vector<uint8_t>>
compileKernelSource(llvm::StringRef source, llvm::StringRef bufferName,
                    const CompileOptions &options, Stage stage,
                    llvm::raw_ostream &diagnostics);

} // namespace kcc

#endif // KCC_COMPILER_PIPELINE_H
