//===- Passes.h - kcc's tile passes and lowering ----------------*- C++ -*-===//
#ifndef KCC_PASSES_PASSES_H
#define KCC_PASSES_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include "target/ParamBinding.h"
#include "target/Target.h"

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace kcc {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

/// The specialization pass for `chip` and `params` as the compiler has them,
/// typed; the textual options (chip=..., params=NAME=VALUE,...) are for
/// pipelines written as text (kcc-opt).
std::unique_ptr<mlir::Pass> createTileSpecialize(Chip chip,
                                                 std::vector<ParamBinding> params);

/// Adds the tile type conversions (tile -> per-lane vector, buffer ->
/// ptr<8>, LDS -> ptr<3>, ptr -> ptr<1>) to `converter`.
void populateTileTypeConversions(mlir::LLVMTypeConverter &converter);

/// Facts about the kernels of a module that the patterns need (LDS alias
/// scopes and arrays, workgroup sizes), gathered before the conversion.
class KernelFacts;

/// One pattern per tile op, lowering it to LLVM + ROCDL for `chip`: every
/// family of TileToROCDLPatterns.h.
void populateTileToROCDLPatterns(mlir::LLVMTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns, Chip chip,
                                 const KernelFacts &facts);

} // namespace kcc

#endif // KCC_PASSES_PASSES_H
