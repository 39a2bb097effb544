//===- TileToROCDLMma.cpp - Matrix multiply to MFMA -----------------------===//
//
// tile.mma on the MFMA units: the operands' MFMA layout names the
// instruction shape, and the op becomes one MFMA intrinsic per (m, n, k) block
// of the tiles, on slices of the lanes' register vectors. The layouts count
// elements, whatever their width, so an FP8 operand's slice is the same
// slice of twice as many (one-byte) elements, bitcast to the intrinsic's
// integer operands.
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
// MFMA
//===----------------------------------------------------------------------===//

namespace {

/// The MFMA intrinsic for a shape and input types, as a generic op name, the
/// operand vector types the intrinsic expects for a and b, and the control
/// operands that follow the accumulator.
struct MfmaIntrinsic {
  StringRef name;
  Type operandTypeA, operandTypeB;
  SmallVector<int32_t, 6> controls = {0, 0, 0}; // cbsz, abid, blgp
};

/// "fp8" or "bf8", AMD's names for e4m3 and e5m2 in the MFMA mnemonics.
StringRef amdFp8Name(Fp8Format f) { return isE5M2(f) ? "bf8" : "fp8"; }

/// The format selector of an f8f6f4 MFMA operand (cbsz for a, blgp for b):
/// 0 is e4m3, 1 e5m2 (the chip's OCP formats; 2..4 are FP6/FP4).
int32_t f8f6f4Format(Fp8Format f) { return isE5M2(f) ? 1 : 0; }

MfmaIntrinsic selectFp8Mfma(OpBuilder &b, MfmaLayoutAttr shape, Fp8Format fa,
                            Fp8Format fb) {
  int64_t m = shape.getM(), k = shape.getK();
  MLIRContext *ctx = b.getContext();
  if (m * k / 64 == 32) {
    // gfx950's f8f6f4 family: 32 values (8 VGPRs) per lane, the formats in
    // the cbsz/blgp immediates. LLVM has only the block-scaled intrinsic; with
    // both scale operands 0 it selects the unscaled instruction (what the
    // MLIR AMDGPU dialect emits too). Its controls: cbsz, blgp, then
    // op_sel and scale of a, op_sel and scale of b.
    Type v8i32 = VectorType::get({8}, b.getI32Type());
    StringRef name = m == 32 ? "rocdl.mfma.scale.f32.32x32x64.f8f6f4"
                             : "rocdl.mfma.scale.f32.16x16x128.f8f6f4";
    return {name, v8i32, v8i32, {f8f6f4Format(fa), f8f6f4Format(fb), 0, 0, 0, 0}};
  }
  // 32x32x16 and 16x16x32 (gfx942 and gfx950): 8 values (an i64) per lane,
  // the formats in the name.
  std::string name = ("rocdl.mfma.f32." + Twine(m) + "x" + Twine(m) + "x" + Twine(k) +
                      "." + amdFp8Name(fa) + "." + amdFp8Name(fb))
                         .str();
  Type i64 = b.getI64Type();
  return {StringAttr::get(ctx, name).getValue(), i64, i64};
}

/// i8 x i8 -> i32: 32x32x16 and 16x16x32 take 8 values (an i64) a lane
/// (both chips), gfx950's 32x32x32 and 16x16x64 16 (4 x i32).
MfmaIntrinsic selectInt8Mfma(OpBuilder &b, MfmaLayoutAttr shape) {
  int64_t m = shape.getM(), k = shape.getK();
  Type i64 = b.getI64Type(), v4i32 = VectorType::get({4}, b.getI32Type());
  if (m == 32 && k == 16)
    return {"rocdl.mfma.i32.32x32x16.i8", i64, i64};
  if (m == 16 && k == 32)
    return {"rocdl.mfma.i32.16x16x32.i8", i64, i64};
  if (m == 32)
    return {"rocdl.mfma.i32.32x32x32.i8", v4i32, v4i32};
  return {"rocdl.mfma.i32.16x16x64.i8", v4i32, v4i32};
}

MfmaIntrinsic selectMfma(OpBuilder &b, MfmaLayoutAttr shape, Type inputA,
                         Type inputB) {
  std::optional<Fp8Format> fa = fp8FormatOf(inputA), fb = fp8FormatOf(inputB);
  if (fa && fb)
    return selectFp8Mfma(b, shape, *fa, *fb);
  if (inputA.isSignlessInteger(8))
    return selectInt8Mfma(b, shape);
  bool bf16 = inputA.isBF16();
  int64_t m = shape.getM(), k = shape.getK();
  Type i16 = b.getI16Type(), f16 = b.getF16Type(), bf = b.getBF16Type();
  auto same = [](StringRef name, Type t) { return MfmaIntrinsic{name, t, t}; };
  if (m == 32 && k == 8)
    return bf16 ? same("rocdl.mfma.f32.32x32x8bf16.1k", VectorType::get({4}, i16))
                : same("rocdl.mfma.f32.32x32x8f16", VectorType::get({4}, f16));
  if (m == 16 && k == 16)
    return bf16 ? same("rocdl.mfma.f32.16x16x16bf16.1k", VectorType::get({4}, i16))
                : same("rocdl.mfma.f32.16x16x16f16", VectorType::get({4}, f16));
  if (m == 32 && k == 16)
    return bf16 ? same("rocdl.mfma.f32.32x32x16.bf16", VectorType::get({8}, bf))
                : same("rocdl.mfma.f32.32x32x16.f16", VectorType::get({8}, f16));
  return bf16 ? same("rocdl.mfma.f32.16x16x32.bf16", VectorType::get({8}, bf))
              : same("rocdl.mfma.f32.16x16x32.f16", VectorType::get({8}, f16));
}

/// tile.mma -> one MFMA per (m, n, k) block, k innermost so that the
/// accumulator chains stay in place.
struct MmaLowering : public TilePattern<MmaOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(MmaOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    TileType a = op.getA().getType(), c = op.getAcc().getType();
    auto shape = cast<MfmaLayoutAttr>(a.getLayout());
    int64_t m = shape.getM(), n = shape.getN(), k = shape.getK();
    int64_t regsA = m * k / 64, regsB = k * n / 64, regsC = m * n / 64;
    int64_t repM = c.getRows() / m, repN = c.getCols() / n, repK = a.getCols() / k;
    MfmaIntrinsic intr = selectMfma(rw, shape, a.getElementType(),
                                    op.getB().getType().getElementType());
    // f32 accumulators, or i32 for i8 inputs.
    auto accType = VectorType::get({regsC}, c.getElementType());
    Value result = adaptor.getAcc();
    SmallVector<Value, 6> controls;
    for (int32_t ctl : intr.controls)
      controls.push_back(i32(rw, loc, ctl));
    for (int64_t mi = 0; mi < repM; ++mi)
      for (int64_t ni = 0; ni < repN; ++ni) {
        int64_t cFirst = (mi * repN + ni) * regsC;
        Value acc = slice(rw, loc, result, cFirst, regsC);
        for (int64_t ki = 0; ki < repK; ++ki) {
          Value av = slice(rw, loc, adaptor.getA(), (mi * repK + ki) * regsA, regsA);
          Value bv = slice(rw, loc, adaptor.getB(), (ki * repN + ni) * regsB, regsB);
          av = LLVM::BitcastOp::create(rw, loc, intr.operandTypeA, av);
          bv = LLVM::BitcastOp::create(rw, loc, intr.operandTypeB, bv);
          OperationState state(loc, intr.name);
          state.addOperands({av, bv, acc});
          state.addOperands(controls);
          state.addTypes(accType);
          acc = rw.create(state)->getResult(0);
        }
        // Put the block back (a shuffle of the two vectors).
        SmallVector<int32_t> mask;
        int64_t total = c.getRows() * c.getCols() / 64;
        for (int64_t i = 0; i < total; ++i)
          mask.push_back(i >= cFirst && i < cFirst + regsC ? total + (i - cFirst) : i);
        Value widened = acc;
        if (regsC != total) {
          SmallVector<int32_t> grow;
          for (int64_t i = 0; i < total; ++i)
            grow.push_back(i < regsC ? i : -1);
          widened = LLVM::ShuffleVectorOp::create(rw, loc, acc, acc, grow);
        }
        result = LLVM::ShuffleVectorOp::create(rw, loc, result, widened, mask);
      }
    rw.replaceOp(op, result);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern registration
//===----------------------------------------------------------------------===//

void kcc::populateTileMmaToROCDLPatterns(LLVMTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         Chip chip, const KernelFacts &facts) {
  patterns.add<MmaLowering>(converter, chip, &facts);
}
