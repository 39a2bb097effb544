//===- TileDialect.cpp - The tile dialect ---------------------------------===//
#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
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

std::optional<kcc::Fp8Format> kcc::tile::fp8FormatOf(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return kcc::Fp8Format::E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return kcc::Fp8Format::E5M2;
  if (isa<Float8E4M3FNUZType>(type))
    return kcc::Fp8Format::E4M3FNUZ;
  if (isa<Float8E5M2FNUZType>(type))
    return kcc::Fp8Format::E5M2FNUZ;
  return std::nullopt;
}

StringRef kcc::tile::fp8TypeList() {
  return "f8E4M3FN, f8E5M2, f8E4M3FNUZ or f8E5M2FNUZ";
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

/// The element type that a value of type `type` holds in the tile dialect's
/// containers (tiles, LDS buffers, buffers, pointers), or `type` itself.
static Type heldElement(Type type) {
  if (auto t = dyn_cast<TileType>(type))
    return t.getElementType();
  if (auto t = dyn_cast<LdsType>(type))
    return t.getElementType();
  if (auto t = dyn_cast<BufferType>(type))
    return t.getElementType();
  if (auto t = dyn_cast<PtrType>(type))
    return t.getElementType();
  return type;
}

/// Every FP8 type in the module must be a format of its chip: gfx942's FP8
/// instructions read and write FNUZ, gfx950's OCP, and a kernel typed in
/// the other family would get wrong numbers, not an error. Checked once for
/// the whole module when it names its chip, at each op (or function
/// signature) that uses such a type.
static LogicalResult verifyFp8Formats(ModuleOp module, kcc::Chip chip) {
  auto check = [&](Type type, Operation *at) -> LogicalResult {
    std::optional<kcc::Fp8Format> f = fp8FormatOf(heldElement(type));
    if (!f || kcc::chipHasFp8Format(chip, *f))
      return success();
    kcc::Chip other = chip == kcc::Chip::gfx942 ? kcc::Chip::gfx950 : kcc::Chip::gfx942;
    return at->emitOpError("uses ")
           << kcc::fp8FormatName(*f) << ", an "
           << (kcc::isFnuz(*f) ? "FNUZ" : "OCP") << " FP8 format that "
           << kcc::getChipInfo(chip).name << " lacks: "
           << kcc::getChipInfo(chip).name << " has " << kcc::fp8FormatsOf(chip)
           << ", " << kcc::getChipInfo(other).name << " has "
           << kcc::fp8FormatsOf(other);
  };
  // Pre-order, so that the first use in the source is the one reported.
  WalkResult r = module.walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      for (Type t : func.getArgumentTypes())
        if (failed(check(t, op)))
          return WalkResult::interrupt();
    for (Type t : op->getResultTypes())
      if (failed(check(t, op)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(check(arg.getType(), op)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
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
    return verifyFp8Formats(cast<ModuleOp>(op),
                            cast<TargetAttr>(attr.getValue()).getChipKind());
  }
  if (name == kWavesPerSimdAttrName) {
    // An integer, or a parameter (@NAME) that specialisation replaces by one.
    auto n = dyn_cast<IntegerAttr>(attr.getValue());
    bool param = isa<FlatSymbolRefAttr>(attr.getValue());
    if (!op->hasAttr(kKernelAttrName) || (!param && (!n || n.getInt() < 1 || n.getInt() > 8)))
      return op->emitError("'") << name << "' must be an integer from 1 to 8 (or "
                                << "a parameter, @NAME) on a kernel (a function "
                                << "with 'tile.kernel')";
    return success();
  }
  if (name == "tile.chip")
    return op->emitError("'tile.chip' is now 'tile.target = #tile.target<")
           << attr.getValue() << ">'";
  return success();
}
