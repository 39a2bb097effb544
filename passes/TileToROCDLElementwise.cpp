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
/// A splatted factor (a tile-level scalar: the same in every lane) is
/// splatted again here, from a v_readfirstlane of the scalar: a splat of a
/// loop-invariant scalar would be hoisted out of the loop as one vector,
/// which the backend then holds in as many SGPRs as the lane has registers
/// (32 copies of attention's scale across its key loop); readfirstlane is
/// not hoisted, and the splat in the block is one SGPR pair. Here at the
/// use rather than in tile.splat's lowering: there CSE shares one splat
/// between attention's two steps an iteration, and its pair, live across
/// the first, spilled a VGPR in the FP8 kernel.
struct FmaLowering : public TilePattern<FmaOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(FmaOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value b = adaptor.getB();
    auto splat = op.getB().getDefiningOp<SplatOp>();
    auto vt = dyn_cast<VectorType>(b.getType());
    if (splat && vt && vt.getElementType().isF32() && splat.getValue().getType().isF32()) {
      Type i32t = rw.getI32Type();
      Value bits = LLVM::BitcastOp::create(rw, loc, i32t, splat.getValue());
      Value first = ROCDL::ReadfirstlaneOp::create(rw, loc, i32t, bits);
      Value scalar = LLVM::BitcastOp::create(rw, loc, rw.getF32Type(), first);
      Value one = insert(rw, loc, poison(rw, loc, vt), scalar, 0);
      SmallVector<int32_t> mask(vt.getNumElements(), 0);
      b = LLVM::ShuffleVectorOp::create(rw, loc, one, one, mask);
    }
    rw.replaceOpWithNewOp<LLVM::FMAOp>(op, adaptor.getA(), b, adaptor.getC());
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
/// round to nearest even; to and from FP8 (which LLVM IR has no type for:
/// the lane's vector holds i8) the packed conversion instructions, which
/// read and write the chip's own FP8 formats (the verifier made sure the
/// tile's format is one of them).
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
    } else if (std::optional<Fp8Format> f = fp8FormatOf(to)) {
      rw.replaceOp(op, toFp8(rw, op.getLoc(), in, *f, !op.getFastRounding()));
    } else if (std::optional<Fp8Format> f = fp8FormatOf(from)) {
      rw.replaceOp(op, fromFp8(rw, op.getLoc(), in, *f));
    } else if (op.getFastRounding() && !getChipInfo(chip).hasBf16Convert &&
               to.isBF16()) {
      // Round to nearest even in integer arithmetic: add 0x7fff plus the
      // lowest kept bit and keep the high half (v_bfe_u32 + v_add3_u32 per
      // element, v_perm_b32 per pair); without the NaN check (see the op:
      // numbers and the canonical quiet NaN convert exactly). With
      // `ties_any`, ties away from zero: add 0x8000 (one v_add_u32).
      Location loc = op.getLoc();
      auto vt = cast<VectorType>(in.getType());
      auto i32v = VectorType::get(vt.getShape(), rw.getI32Type());
      auto i16v = VectorType::get(vt.getShape(), rw.getI16Type());
      auto splat = [&](int64_t c) {
        return LLVM::ConstantOp::create(rw, 
            loc, i32v, DenseElementsAttr::get(i32v, rw.getI32IntegerAttr(int32_t(c)).getValue()));
      };
      Value bits = LLVM::BitcastOp::create(rw, loc, i32v, in);
      Value rounded;
      if (op.getTiesAny()) {
        rounded = LLVM::AddOp::create(rw, loc, bits, splat(0x8000));
      } else {
        Value lsb = LLVM::AndOp::create(rw, 
            loc, LLVM::LShrOp::create(rw, loc, bits, splat(16)), splat(1));
        rounded = LLVM::AddOp::create(rw, 
            loc, LLVM::AddOp::create(rw, loc, bits, splat(0x7fff)), lsb);
      }
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

private:
  /// f32 -> FP8, saturating: each pair of elements is clamped to the
  /// format's largest finite magnitude and packed by v_cvt_pk_fp8_f32 /
  /// v_cvt_pk_bf8_f32 (rounding to nearest even), two pairs per word. The
  /// instructions themselves saturate only when MODE.FP16_OVFL is set (a
  /// mode bit kcc does not set: it would change every f16 conversion too),
  /// else overflow to NaN or infinity, so the clamp comes first. Clamping
  /// before rounding gives what rounding then saturating gives: a value
  /// beyond the largest finite one rounds either to it or past it, and
  /// saturation makes both the largest finite one, which is what the
  /// clamped value converts to. A NaN passes the clamp by a select
  /// (minnum/maxnum would turn it into a number). Without `saturate`
  /// (fast_rounding) the clamp and the select are left out, for values the
  /// kernel knows to be in range: one conversion per pair and nothing else.
  Value toFp8(OpBuilder &b, Location loc, Value in, Fp8Format f, bool saturate) const {
    auto vt = cast<VectorType>(in.getType());
    int64_t n = vt.getNumElements();
    Type f32 = b.getF32Type(), i32t = b.getI32Type();
    Value x = saturate ? saturated(b, loc, in, f) : in;
    int64_t words = (n + 3) / 4;
    Value packed = poison(b, loc, VectorType::get({words}, i32t));
    Value zero = LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0.0f));
    auto elem = [&](int64_t i) { return i < n ? extract(b, loc, x, i) : zero; };
    for (int64_t w = 0; w < words; ++w) {
      Value word = LLVM::PoisonOp::create(b, loc, i32t);
      for (int64_t half = 0; half < 2 && 4 * w + 2 * half < n; ++half) {
        Value lo = elem(4 * w + 2 * half), hi = elem(4 * w + 2 * half + 1);
        bool high = half == 1;
        word = isE5M2(f) ? (Value)ROCDL::CvtPkBf8F32Op::create(b, loc, i32t, lo, hi, word, high)
                         : (Value)ROCDL::CvtPkFp8F32Op::create(b, loc, i32t, lo, hi, word, high);
      }
      packed = insert(b, loc, packed, word, w);
    }
    auto bytes = VectorType::get({4 * words}, b.getI8Type());
    Value all = LLVM::BitcastOp::create(b, loc, bytes, packed);
    return 4 * words == n ? all : slice(b, loc, all, 0, n);
  }

  /// Each element clamped to the format's largest finite magnitude, NaNs
  /// kept: v_med3_f32(x, -max, max) per element, as llvm.amdgcn.fmed3
  /// rather than minnum/maxnum, which LLVM would precede with a
  /// v_max_f32 x, x to quiet signalling NaNs that the select handles anyway.
  Value saturated(OpBuilder &b, Location loc, Value in, Fp8Format f) const {
    auto vt = cast<VectorType>(in.getType());
    int64_t n = vt.getNumElements();
    Type f32 = b.getF32Type();
    float max = fp8MaxFinite(f);
    Value lo = LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(-max));
    Value hi = LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(max));
    Value clamped = poison(b, loc, vt);
    for (int64_t i = 0; i < n; ++i) {
      Value med = LLVM::CallIntrinsicOp::create(b, loc, f32, b.getStringAttr("llvm.amdgcn.fmed3"),
                                                ValueRange{extract(b, loc, in, i), lo, hi})
                      .getResult(0);
      clamped = insert(b, loc, clamped, med, i);
    }
    Value isNan = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, in, in);
    return LLVM::SelectOp::create(b, loc, isNan, in, clamped);
  }

  /// FP8 -> f32, exact: the lane's bytes as words, each pair of bytes
  /// widened by one v_cvt_pk_f32_fp8 / _bf8 (word 0 or 1 of the source).
  Value fromFp8(OpBuilder &b, Location loc, Value in, Fp8Format f) const {
    auto vt = cast<VectorType>(in.getType());
    int64_t n = vt.getNumElements();
    int64_t words = (n + 3) / 4;
    Type i32t = b.getI32Type(), f32 = b.getF32Type();
    Value bytes = in;
    if (4 * words != n) {
      // Pad the bytes to whole words (the padding's results are dropped).
      SmallVector<int32_t> grow;
      for (int64_t i = 0; i < 4 * words; ++i)
        grow.push_back(i < n ? i : -1);
      bytes = LLVM::ShuffleVectorOp::create(b, loc, in, in, grow);
    }
    Value packed = LLVM::BitcastOp::create(b, loc, VectorType::get({words}, i32t), bytes);
    auto resultType = VectorType::get({n}, f32);
    Value result = poison(b, loc, resultType);
    auto pair = VectorType::get({2}, f32);
    for (int64_t w = 0; w < words; ++w) {
      Value word = extract(b, loc, packed, w);
      for (int64_t half = 0; half < 2 && 4 * w + 2 * half < n; ++half) {
        bool high = half == 1;
        Value two = isE5M2(f) ? (Value)ROCDL::CvtPkF32Bf8Op::create(b, loc, pair, word, high)
                              : (Value)ROCDL::CvtPkF32Fp8Op::create(b, loc, pair, word, high);
        for (int64_t k = 0; k < 2 && 4 * w + 2 * half + k < n; ++k)
          result = insert(b, loc, result, extract(b, loc, two, k), 4 * w + 2 * half + k);
      }
    }
    return result;
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

/// tile.undef -> poison of the lane's vector: no instructions.
struct UndefLowering : public TilePattern<UndefOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(UndefOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<LLVM::PoisonOp>(op, typeConverter->convertType(op.getType()));
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
               Log2Lowering, ConvertLowering, SplatLowering, UndefLowering, IotaLowering,
               CmpILowering, CmpFLowering,
               SelectLowering>(converter, chip, &facts);
}
