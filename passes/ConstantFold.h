//===- ConstantFold.h - Values that parameters make constant ----*- C++ -*-===//
//
// After specialisation many values are computed from constants only (a tile
// size times two, a flag and-ed with a comparison of sizes). The passes ask
// for such a value without changing the IR: folding is done on the side, so
// tile-specialize's output stays the kernel as written and the lowering can
// demand constants without requiring a canonicalisation first.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_PASSES_CONSTANTFOLD_H
#define KCC_PASSES_CONSTANTFOLD_H

#include "mlir/IR/Value.h"

#include <optional>

namespace kcc {

/// The integer (or i1) value of `v` if it folds from constants; std::nullopt
/// otherwise.
std::optional<int64_t> foldToConstant(mlir::Value v);

} // namespace kcc

#endif // KCC_PASSES_CONSTANTFOLD_H
