//===- TileToROCDLElementwise.cpp - Per-element ops to LLVM ---------------===//
//
// Ops that work on each element where it sits: every lane computes on its own
// register vector, so they map onto LLVM's vector ops (or a scalar intrinsic
// per register where AMDGPU has no vector form), with no data crossing lanes.
//
//===----------------------------------------------------------------------===//
#include "passes/TileToROCDLPatterns.h"
#include "passes/TileToROCDLCommon.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;
using namespace kcc::lowering;

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

namespace {

/// Elementwise binary ops map onto LLVM's vector ops.
template <typename TileOp, typename LLVMOp>
struct BinaryLowering : public TilePattern<TileOp> {
  using TilePattern<TileOp>::TilePattern;
  LogicalResult matchAndRewrite(TileOp op, typename TileOp::Adaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<LLVMOp>(op, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

/// tile.fma -> llvm.fma on the lane's vector (v_fma_f32 / v_pk_fma_f32).
struct FmaLowering : public TilePattern<FmaOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(FmaOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<LLVM::FMAOp>(op, adaptor.getA(), adaptor.getB(), adaptor.getC());
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Math functions
//===----------------------------------------------------------------------===//

namespace {

/// A scalar f32 intrinsic applied to every register of a lane's vector (the
/// AMDGPU transcendental intrinsics take no vectors).
Value mapF32Intrinsic(OpBuilder &b, Location loc, Value vec, StringRef name) {
  auto vt = cast<VectorType>(vec.getType());
  Value result = poison(b, loc, vt);
  for (int64_t i = 0; i < vt.getNumElements(); ++i) {
    Value x = extract(b, loc, vec, i);
    Value y = LLVM::CallIntrinsicOp::create(b, loc, b.getF32Type(), b.getStringAttr(name),
                                              ValueRange{x})
                  .getResult(0);
    result = insert(b, loc, result, y, i);
  }
  return result;
}

/// tile.exp2 -> v_exp_f32 per element (llvm.amdgcn.exp2: no denormal
/// range fix-up, which softmax does not need).
struct Exp2Lowering : public TilePattern<Exp2Op> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(Exp2Op op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOp(op, mapF32Intrinsic(rw, op.getLoc(), adaptor.getOperand(),
                                     "llvm.amdgcn.exp2"));
    return success();
  }
};

/// tile.log2 -> v_log_f32 per element (llvm.amdgcn.log: no denormal fix-up).
struct Log2Lowering : public TilePattern<Log2Op> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(Log2Op op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOp(op, mapF32Intrinsic(rw, op.getLoc(), adaptor.getOperand(),
                                     "llvm.amdgcn.log"));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

namespace {

/// tile.convert -> sitofp, fptrunc or fpext on the lane's vector (nothing when
/// the types match); to bf16 with fast rounding on a chip without a bf16
/// conversion instruction (ChipInfo::hasBf16Convert: gfx942), an integer
/// round to nearest even.
struct ConvertLowering : public TilePattern<ConvertOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ConvertOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Type from = op.getOperand().getType().getElementType();
    Type to = op.getType().getElementType();
    Type resultType = typeConverter->convertType(op.getType());
    Value in = adaptor.getOperand();
    if (from == to) {
      rw.replaceOp(op, in);
    } else if (op.getFastRounding() && !getChipInfo(chip).hasBf16Convert &&
               to.isBF16()) {
      // Round to nearest even in integer arithmetic: add 0x7fff plus the
      // lowest kept bit and keep the high half (v_bfe_u32 + v_add3_u32 per
      // element, v_perm_b32 per pair); without the NaN check (see the op:
      // numbers and the canonical quiet NaN convert exactly).
      Location loc = op.getLoc();
      auto vt = cast<VectorType>(in.getType());
      auto i32v = VectorType::get(vt.getShape(), rw.getI32Type());
      auto i16v = VectorType::get(vt.getShape(), rw.getI16Type());
      auto splat = [&](int64_t c) {
        return LLVM::ConstantOp::create(rw, 
            loc, i32v, DenseElementsAttr::get(i32v, rw.getI32IntegerAttr(int32_t(c)).getValue()));
      };
      Value bits = LLVM::BitcastOp::create(rw, loc, i32v, in);
      Value lsb = LLVM::AndOp::create(rw, 
          loc, LLVM::LShrOp::create(rw, loc, bits, splat(16)), splat(1));
      Value rounded = LLVM::AddOp::create(rw, 
          loc, LLVM::AddOp::create(rw, loc, bits, splat(0x7fff)), lsb);
      Value high = LLVM::TruncOp::create(rw, 
          loc, i16v, LLVM::LShrOp::create(rw, loc, rounded, splat(16)));
      rw.replaceOpWithNewOp<LLVM::BitcastOp>(op, resultType, high);
    } else if (from.isSignlessInteger(32))
      rw.replaceOpWithNewOp<LLVM::SIToFPOp>(op, resultType, in);
    else if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
      rw.replaceOpWithNewOp<LLVM::FPTruncOp>(op, resultType, in);
    else
      rw.replaceOpWithNewOp<LLVM::FPExtOp>(op, resultType, in);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Constructors
//===----------------------------------------------------------------------===//

namespace {

/// tile.splat -> the scalar inserted once and shuffled into every register.
struct SplatLowering : public TilePattern<SplatOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    auto vt = cast<VectorType>(typeConverter->convertType(op.getType()));
    Value one = insert(rw, loc, poison(rw, loc, vt), adaptor.getValue(), 0);
    SmallVector<int32_t> mask(vt.getNumElements(), 0);
    rw.replaceOpWithNewOp<LLVM::ShuffleVectorOp>(op, one, one, mask);
    return success();
  }
};

/// tile.iota -> lane coordinate + per-register constant.
struct IotaLowering : public TilePattern<IotaOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(IotaOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    LayoutMap map = layoutOf(op.getType());
    bool rows = op.getDim() == 0;
    Value lane = laneCoordinate(rw, loc, laneId(rw, loc),
                                rows ? map.rowLaneFields() : map.colLaneFields());
    auto vt = VectorType::get({map.numRegs()}, rw.getI32Type());
    SmallVector<int32_t> regs;
    for (int64_t i = 0; i < map.numRegs(); ++i)
      regs.push_back(rows ? map.rowOfReg(i) : map.colOfReg(i));
    Value constants = LLVM::ConstantOp::create(rw, 
        loc, vt, DenseElementsAttr::get(vt, ArrayRef<int32_t>(regs)));
    Value one = insert(rw, loc, poison(rw, loc, vt), lane, 0);
    Value splat = LLVM::ShuffleVectorOp::create(rw, 
        loc, one, one, SmallVector<int32_t>(map.numRegs(), 0));
    rw.replaceOpWithNewOp<LLVM::AddOp>(op, splat, constants);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Comparisons and select
//===----------------------------------------------------------------------===//

namespace {

/// tile.cmpi -> llvm.icmp on the lane's vector (the predicate enums share
/// LLVM's numbering).
struct CmpILowering : public TilePattern<CmpIOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(CmpIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    auto pred = static_cast<LLVM::ICmpPredicate>(op.getPredicate());
    rw.replaceOpWithNewOp<LLVM::ICmpOp>(op, pred, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

/// tile.cmpf -> llvm.fcmp on the lane's vector (the predicate enums share
/// LLVM's numbering).
struct CmpFLowering : public TilePattern<CmpFOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(CmpFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    auto pred = static_cast<LLVM::FCmpPredicate>(op.getPredicate());
    rw.replaceOpWithNewOp<LLVM::FCmpOp>(op, pred, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

/// tile.select -> llvm.select on the lane's vectors.
struct SelectLowering : public TilePattern<SelectOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(SelectOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<LLVM::SelectOp>(op, adaptor.getCondition(),
                                          adaptor.getTrueValue(),
                                          adaptor.getFalseValue());
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern registration
//===----------------------------------------------------------------------===//

void kcc::populateTileElementwiseToROCDLPatterns(LLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns,
                                                 Chip chip, const KernelFacts &facts) {
  patterns.add<BinaryLowering<AddFOp, LLVM::FAddOp>,
               BinaryLowering<SubFOp, LLVM::FSubOp>,
               BinaryLowering<MulFOp, LLVM::FMulOp>,
               BinaryLowering<MaxFOp, LLVM::MaxNumOp>,
               BinaryLowering<MinFOp, LLVM::MinNumOp>,
               BinaryLowering<DivFOp, LLVM::FDivOp>,
               BinaryLowering<AddIOp, LLVM::AddOp>,
               BinaryLowering<SubIOp, LLVM::SubOp>, FmaLowering, Exp2Lowering,
               Log2Lowering, ConvertLowering, SplatLowering, IotaLowering,
               CmpILowering, CmpFLowering,
               SelectLowering>(converter, chip, &facts);
}
