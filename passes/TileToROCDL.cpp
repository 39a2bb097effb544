//===- TileToROCDL.cpp - Lower tile kernels to LLVM + ROCDL ---------------===//
//
// Each tile value becomes, in every lane, an LLVM vector of the elements that
// lane holds (LayoutMap gives the order). The conversion patterns live in one
// file per op family (TileToROCDL<Family>.cpp, declared in
// TileToROCDLPatterns.h); this file holds the type conversions and the pass:
// it checks that the input is ready to lower, gathers the facts the patterns
// need, lowers structured control flow, and runs the tile patterns together
// with the upstream arith, cf and func lowerings.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/ConstantFold.h"
#include "passes/OperandImage.h"
#include "passes/TileToROCDLCommon.h"
#include "passes/TileToROCDLPatterns.h"

#include "dialects/Tile/Layout.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kcc {
#define GEN_PASS_DEF_CONVERTTILETOROCDL
#include "passes/Passes.h.inc"
} // namespace kcc

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;
using namespace kcc::lowering;

//===----------------------------------------------------------------------===//
// Type and pattern registration
//===----------------------------------------------------------------------===//

void kcc::populateTileTypeConversions(LLVMTypeConverter &converter) {
  converter.addConversion([&converter](TileType type) -> std::optional<Type> {
    std::optional<LayoutMap> map = LayoutMap::get(type);
    if (!map)
      return std::nullopt;
    Type elt = converter.convertType(type.getElementType());
    return VectorType::get({map->numRegs()}, elt);
  });
  converter.addConversion([](BufferType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), 8);
  });
  converter.addConversion([](PtrType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), 1);
  });
  converter.addConversion([](LdsType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), 3);
  });
}

void kcc::populateTileToROCDLPatterns(LLVMTypeConverter &converter,
                                      RewritePatternSet &patterns, Chip chip,
                                      const KernelFacts &facts) {
  populateTileControlToROCDLPatterns(converter, patterns, chip, facts);
  populateTileGlobalMemoryToROCDLPatterns(converter, patterns, chip, facts);
  populateTileLdsAllocToROCDLPatterns(converter, patterns, chip, facts);
  populateTileAsyncCopyToROCDLPatterns(converter, patterns, chip, facts);
  populateTileLdsAccessToROCDLPatterns(converter, patterns, chip, facts);
  populateTileWaitsToROCDLPatterns(converter, patterns, chip, facts);
  populateTileMmaToROCDLPatterns(converter, patterns, chip, facts);
  populateTileElementwiseToROCDLPatterns(converter, patterns, chip, facts);
  populateTileCrossLaneToROCDLPatterns(converter, patterns, chip, facts);
  populateTilePeerToROCDLPatterns(converter, patterns, chip, facts);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

struct ConvertTileToROCDLPass
    : public kcc::impl::ConvertTileToROCDLBase<ConvertTileToROCDLPass> {
  using ConvertTileToROCDLBase::ConvertTileToROCDLBase;
  void runOnOperation() override;
};

/// What the conversion needs from its input: a chip, bound parameters,
/// expanded scheduling constructs, placed LDS buffers.
LogicalResult checkReady(ModuleOp module, std::optional<Chip> chip) {
  WalkResult r = module.walk([&](Operation *op) -> WalkResult {
    if (isa<ParamOp, ParamDeclOp, TypeParamDeclOp>(op))
      return op->emitOpError("is a compile-time parameter; run tile-specialize "
                             "before lowering"),
             WalkResult::interrupt();
    if (isa<SchedInterleaveOp, StaggerOp>(op))
      return op->emitOpError("must be expanded by tile-expand-schedule before "
                             "lowering"),
             WalkResult::interrupt();
    if (auto alloc = dyn_cast<LdsAllocOp>(op)) {
      auto func = op->getParentOfType<func::FuncOp>();
      if (!alloc.getOffset() || !func || !func->hasAttr("tile.lds_bytes"))
        return op->emitOpError("has no LDS placement; run tile-allocate-lds "
                               "before lowering"),
               WalkResult::interrupt();
    }
    if (auto wait = dyn_cast<WaitVmcntOp>(op)) {
      std::optional<int64_t> n = foldToConstant(wait.getCount());
      if (!n)
        return op->emitOpError("count must be a compile-time constant after "
                               "specialisation"),
               WalkResult::interrupt();
      if (*n < 0)
        return op->emitOpError("count must be non-negative, not ") << *n,
               WalkResult::interrupt();
    }
    if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
      // Each wave of the workgroup takes whole DMA lines of the stage.
      LdsType lds = copy.getLds().getType();
      auto func = op->getParentOfType<func::FuncOp>();
      auto block = func ? func->getAttrOfType<IntegerAttr>(TileDialect::kBlockSizeAttrName)
                        : IntegerAttr();
      std::optional<int64_t> waves = copyWaves(copy, block ? block.getInt() : 64);
      if (!waves)
        return op->emitOpError("'waves' must be a compile-time constant after "
                               "specialisation"),
               WalkResult::interrupt();
      if (*waves < 1)
        return op->emitOpError("'waves' must be at least 1, not ") << *waves,
               WalkResult::interrupt();
      if (lds.isResolved()) {
        int64_t line = 64 * copy.getWidth();
        int64_t lines = lds.getRows() * lds.getCols() * elementBytes(lds.getElementType()) / line;
        if (lines % *waves != 0)
          return op->emitOpError("the stage is ")
                     << lines << " DMA lines of " << line
                     << " bytes, which do not split evenly over the "
                        "workgroup's "
                     << *waves << " waves",
                 WalkResult::interrupt();
        // A buffer in a tile's reading order: every lane of every line must
        // fetch adjacent bytes, at strides the lowering can sum.
        if (lds.getOrderTile() && chip) {
          std::string why;
          std::optional<OperandImage> img = OperandImage::get(lds, *chip, &why);
          if (!img)
            return op->emitOpError("cannot fill a buffer stored in the order of its tile: ")
                       << why,
                   WalkResult::interrupt();
          if (!planImageCopy(*img, copy.getWidth(), lines, *waves, &why))
            return op->emitOpError("cannot fill a buffer stored in the order of its tile")
                       << why,
                   WalkResult::interrupt();
        }
      }
    }
    if (auto store = dyn_cast<LdsStoreOp>(op))
      if (TileType order = store.getLds().getType().getOrderTile())
        return op->emitOpError("stores into a buffer stored in the order of ")
                   << order << ", which only tile.async_copy fills",
               WalkResult::interrupt();
    if (auto load = dyn_cast<LdsLoadOp>(op))
      if (load.getLds().getType().getOrderTile() && chip) {
        std::string why;
        if (!OperandImage::get(load.getLds().getType(), *chip, &why))
          return op->emitOpError("cannot read the buffer in the order of its tile: ") << why,
                 WalkResult::interrupt();
      }
    for (Type t : op->getResultTypes())
      if (auto tile = dyn_cast<TileType>(t)) {
        std::string why;
        if (!LayoutMap::get(tile, &why))
          return op->emitOpError("cannot be lowered: ") << why,
                 WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

} // namespace

void ConvertTileToROCDLPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  // The chip comes from the module's #tile.target, set by tile-specialize
  // (the one place it travels); the pass has no chip option of its own.
  TargetAttr targetAttr = getModuleTarget(module);
  if (!targetAttr) {
    module.emitError("the module names no target chip (no tile.target); run "
                     "tile-specialize first");
    return signalPassFailure();
  }
  std::optional<Chip> target = targetAttr.getChipKind();
  if (failed(checkReady(module, target)))
    return signalPassFailure();

  // Alias scopes and the LDS array of every kernel, made before the
  // conversion while the tile ops still exist.
  KernelFacts facts;
  OpBuilder builder(ctx);
  for (auto func : module.getOps<func::FuncOp>()) {
    facts.build(func);
    auto bytes = func->getAttrOfType<IntegerAttr>("tile.lds_bytes");
    if (!bytes || bytes.getInt() == 0)
      continue;
    builder.setInsertionPointToStart(module.getBody());
    auto arrayType = LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.getInt());
    auto global = LLVM::GlobalOp::create(builder, 
        func.getLoc(), arrayType, /*isConstant=*/false, LLVM::Linkage::Internal,
        ("__kcc_lds." + func.getSymName()).str(), Attribute(), /*alignment=*/16,
        /*addrSpace=*/3);
    (void)global;
  }

  // Structured control flow first: it is type-agnostic and leaves blocks
  // whose arguments the main conversion then retypes.
  {
    RewritePatternSet patterns(ctx);
    populateSCFToControlFlowConversionPatterns(patterns);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<scf::SCFDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
  }

  // Kernel attributes that the ROCDL translation understands.
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func->hasAttr(TileDialect::kKernelAttrName))
      continue;
    func->setAttr(ROCDL::ROCDLDialect::getKernelFuncAttrName(), builder.getUnitAttr());
    int64_t block = facts.blockSizeOf(func.getOperation());
    func->setAttr(ROCDL::ROCDLDialect::getFlatWorkGroupSizeAttrName(),
                  builder.getStringAttr(std::to_string(block) + "," + std::to_string(block)));
    func->setAttr(ROCDL::ROCDLDialect::getReqdWorkGroupSizeAttrName(),
                  builder.getDenseI32ArrayAttr({(int32_t)block, 1, 1}));
    if (auto waves = func->getAttrOfType<IntegerAttr>(TileDialect::kWavesPerSimdAttrName))
      func->setAttr(ROCDL::ROCDLDialect::WavesPerEuAttrHelper::getNameStr(),
                    builder.getI32IntegerAttr(int32_t(waves.getInt())));
  }

  LowerToLLVMOptions options(ctx);
  options.overrideIndexBitwidth(32);
  LLVMTypeConverter converter(ctx, options);
  populateTileTypeConversions(converter);
  RewritePatternSet patterns(ctx);
  populateTileToROCDLPatterns(converter, patterns, *target, facts);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
  populateFuncToLLVMConversionPatterns(converter, patterns);

  LLVMConversionTarget target2(*ctx);
  target2.addLegalDialect<ROCDL::ROCDLDialect>();
  target2.addIllegalDialect<TileDialect, arith::ArithDialect, cf::ControlFlowDialect,
                            func::FuncDialect>();
  target2.addLegalOp<ModuleOp>();
  if (failed(applyFullConversion(module, target2, std::move(patterns))))
    return signalPassFailure();
}
