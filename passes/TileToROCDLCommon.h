//===- TileToROCDLCommon.h - Shared parts of the ROCDL lowering -*- C++ -*-===//
//
// What several op families of the tile-to-ROCDL lowering use: the facts
// about each kernel gathered before the conversion (KernelFacts), the base of
// every pattern (TilePattern, which carries the chip and those facts), small
// builders of LLVM values, and the lane-layout helpers that turn a lane id
// into tile coordinates. Internal to passes/: included by the per-family
// pattern files (TileToROCDL<Family>.cpp) and the pass driver.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_PASSES_TILETOROCDLCOMMON_H
#define KCC_PASSES_TILETOROCDLCOMMON_H

#include "dialects/Tile/Layout.h"
#include "dialects/Tile/TileDialect.h"
#include "target/Target.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace kcc {

//===----------------------------------------------------------------------===//
// Kernel facts
//===----------------------------------------------------------------------===//

/// Alias scopes of an LDS access: its own buffer's scope, and no-alias with
/// every other buffer of the kernel.
struct LdsScopes {
  mlir::ArrayAttr scopes, noalias;
};

/// Facts about the kernels gathered before the conversion, while every op
/// still sits in its func.func (the conversion turns those into llvm.funcs
/// in whatever order it likes): LDS alias scopes, LDS array names, and the
/// workgroup size of the kernel around each op.
class KernelFacts {
public:
  void build(mlir::func::FuncOp func);

  LdsScopes lookup(mlir::Value lds) const;

  /// Work-items per workgroup of the kernel around `op` (64 if unknown).
  int64_t blockSizeOf(mlir::Operation *op) const;

  /// The LDS array symbol of the kernel that allocates `alloc`.
  llvm::StringRef ldsGlobalOf(mlir::Operation *alloc) const;

private:
  llvm::DenseMap<mlir::Operation *, mlir::LLVM::AliasScopeAttr> byAlloc;
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::LLVM::AliasScopeAttr>> all;
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> funcOf;
  llvm::DenseMap<mlir::Operation *, int64_t> blockSize;
  llvm::DenseMap<mlir::Operation *, std::string> ldsGlobal;
};

//===----------------------------------------------------------------------===//
// Pattern base
//===----------------------------------------------------------------------===//

/// The base of every tile-op lowering: an LLVM conversion pattern that also
/// knows the target chip and the facts about the kernels.
template <typename Op>
struct TilePattern : public mlir::ConvertOpToLLVMPattern<Op> {
  TilePattern(mlir::LLVMTypeConverter &converter, Chip chip, const KernelFacts *facts)
      : mlir::ConvertOpToLLVMPattern<Op>(converter), chip(chip), facts(facts) {}
  Chip chip;
  const KernelFacts *facts;
};

namespace lowering {

//===----------------------------------------------------------------------===//
// Value builders
//===----------------------------------------------------------------------===//

mlir::Value i32(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
mlir::Value add(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y);
mlir::Value mul(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y);
mlir::Value poison(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type);
mlir::Value extract(mlir::OpBuilder &b, mlir::Location loc, mlir::Value vec, int64_t i);
mlir::Value insert(mlir::OpBuilder &b, mlir::Location loc, mlir::Value vec,
                   mlir::Value v, int64_t i);

/// Elements [first, first + n) of `vec` as a vector<n>.
mlir::Value slice(mlir::OpBuilder &b, mlir::Location loc, mlir::Value vec,
                  int64_t first, int64_t n);

//===----------------------------------------------------------------------===//
// Lane layout
//===----------------------------------------------------------------------===//

/// The lane of this work-item in its wave (v_mbcnt), and the wave's index
/// in its workgroup (readfirstlane(workitem_id.x / 64): uniform, in an
/// SGPR). Both are computed where the builder stands: hoisting them to the
/// function's entry would let LLVM hoist every address computed from them
/// out of the loops, which in the attention kernel costs more registers
/// than it has.
mlir::Value laneId(mlir::OpBuilder &b, mlir::Location loc);
mlir::Value waveId(mlir::OpBuilder &b, mlir::Location loc);

/// sum over fields of ((lane >> shift) & mask) * scale.
mlir::Value laneCoordinate(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lane,
                           llvm::ArrayRef<tile::LaneBitField> fields);

/// The layout map of a tile type that the pass checked to be resolved.
tile::LayoutMap layoutOf(tile::TileType type);

//===----------------------------------------------------------------------===//
// Async copies
//===----------------------------------------------------------------------===//

/// The waves that share an async copy: its `waves` operand (a constant once
/// specialised) or the whole workgroup. The pass checks it before the
/// conversion; the memory patterns use it to split the stage.
std::optional<int64_t> copyWaves(tile::AsyncCopyOp op, int64_t blockSize);

} // namespace lowering
} // namespace kcc

#endif // KCC_PASSES_TILETOROCDLCOMMON_H
