//===- TileDialect.cpp - The tile dialect ---------------------------------===//
#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace kcc::tile;

#include "dialects/Tile/TileOpsDialect.cpp.inc"
#include "dialects/Tile/TileEnums.cpp.inc"

namespace {
/// Kernels may factor their steps into helper functions; every tile op may be
/// inlined into its caller (tile values are plain SSA values, LDS buffers are
/// passed by handle).
struct TileInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void TileDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/Tile/TileOps.cpp.inc"
      >();
  addInterfaces<TileInlinerInterface>();
}

int64_t kcc::tile::elementBytes(Type type) {
  if (type.isIntOrFloat())
    return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
  if (type.isIndex())
    return 8;
  return 0;
}

TargetAttr kcc::tile::getModuleTarget(Operation *op) {
  auto module = isa<ModuleOp>(op) ? cast<ModuleOp>(op)
                                  : op->getParentOfType<ModuleOp>();
  if (!module)
    return nullptr;
  return module->getAttrOfType<TargetAttr>(TileDialect::kTargetAttrName);
}

std::optional<llvm::StringRef> kcc::tile::getModuleChip(Operation *op) {
  if (TargetAttr target = getModuleTarget(op))
    return target.getChip();
  return std::nullopt;
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  // Discardable attributes of this dialect: a misspelt or retired one
  // (`tile.chip` became `tile.target`) would otherwise be ignored silently.
  StringRef name = attr.getName().getValue();
  if (name == kTargetAttrName) {
    if (!isa<ModuleOp>(op) || !isa<TargetAttr>(attr.getValue()))
      return op->emitError("'") << name << "' must be a #tile.target<\"CHIP\"> "
                                << "on the module";
    return success();
  }
  if (name == kWavesPerSimdAttrName) {
    auto n = dyn_cast<IntegerAttr>(attr.getValue());
    if (!op->hasAttr(kKernelAttrName) || !n || n.getInt() < 1 || n.getInt() > 8)
      return op->emitError("'") << name << "' must be an integer from 1 to 8 on a "
                                << "kernel (a function with 'tile.kernel')";
    return success();
  }
  if (name == "tile.chip")
    return op->emitError("'tile.chip' is now 'tile.target = #tile.target<")
           << attr.getValue() << ">'";
  return success();
}
