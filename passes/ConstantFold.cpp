//===- ConstantFold.cpp - Values that parameters make constant ------------===//
#include "passes/ConstantFold.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Operation.h"

#include <functional>

using namespace mlir;

std::optional<int64_t> kcc::foldToConstant(Value v) {
  std::function<Attribute(Value, int)> eval = [&](Value x, int depth) -> Attribute {
    Attribute constant;
    if (matchPattern(x, m_Constant(&constant)))
      return constant;
    Operation *def = x.getDefiningOp();
    if (!def || depth > 32)
      return {};
    SmallVector<Attribute> operands;
    for (Value operand : def->getOperands()) {
      Attribute a = eval(operand, depth + 1);
      if (!a)
        return {};
      operands.push_back(a);
    }
    SmallVector<OpFoldResult> folded;
    if (failed(def->fold(operands, folded)) || folded.size() != def->getNumResults())
      return {};
    OpFoldResult r = folded[cast<OpResult>(x).getResultNumber()];
    if (auto attr = dyn_cast<Attribute>(r))
      return attr;
    // An operand passed through (x + 0): evaluate that value instead.
    return eval(cast<Value>(r), depth + 1);
  };
  auto attr = dyn_cast_or_null<IntegerAttr>(eval(v, 0));
  if (!attr)
    return std::nullopt;
  if (attr.getType().isInteger(1))
    return attr.getValue().getBoolValue() ? 1 : 0;
  return attr.getValue().getSExtValue();
}
