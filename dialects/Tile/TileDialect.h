//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//
//
// Everything generated from the dialect's ODS: the dialect, enums, layout
// attributes, types and operations.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_DIALECTS_TILE_TILEDIALECT_H
#define KCC_DIALECTS_TILE_TILEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "target/Float8.h"
#include "target/Target.h"

#include "dialects/Tile/TileOpsDialect.h.inc"
#include "dialects/Tile/TileEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/TileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/TileTypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/Tile/TileOps.h.inc"

namespace kcc::tile {

/// Bytes of one element of a resolved element type (bf16 -> 2).
int64_t elementBytes(mlir::Type type);

/// The FP8 format of an element type (f8E4M3FN, f8E5M2, f8E4M3FNUZ,
/// f8E5M2FNUZ); std::nullopt for any other type.
std::optional<Fp8Format> fp8FormatOf(mlir::Type type);

/// "f8E4M3FN, f8E5M2, f8E4M3FNUZ or f8E5M2FNUZ": for diagnostics.
llvm::StringRef fp8TypeList();

/// The module's `tile.target` (null before tile-specialize set it).
TargetAttr getModuleTarget(mlir::Operation *op);
/// The name of the chip in the module's `tile.target`.
std::optional<llvm::StringRef> getModuleChip(mlir::Operation *op);

} // namespace kcc::tile

#endif // KCC_DIALECTS_TILE_TILEDIALECT_H
