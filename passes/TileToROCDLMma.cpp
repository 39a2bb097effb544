//===- TileToROCDLMma.cpp - Matrix multiply to MFMA -----------------------===//
//
// tile.mma on the MFMA units: the operands' MFMA layout names the
// instruction shape, and the op becomes one MFMA intrinsic per (m, n, k) block
// of the tiles, on slices of the lanes' register vectors.
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

/// The MFMA intrinsic for a shape and input type, as a generic op name plus
/// the operand vector type the intrinsic expects.
struct MfmaIntrinsic {
  StringRef name;
  Type operandType;
};

MfmaIntrinsic selectMfma(OpBuilder &b, MfmaLayoutAttr shape, Type input) {
  bool bf16 = input.isBF16();
  int64_t m = shape.getM(), k = shape.getK();
  Type i16 = b.getI16Type(), f16 = b.getF16Type(), bf = b.getBF16Type();
  if (m == 32 && k == 8)
    return bf16 ? MfmaIntrinsic{"rocdl.mfma.f32.32x32x8bf16.1k", VectorType::get({4}, i16)}
                : MfmaIntrinsic{"rocdl.mfma.f32.32x32x8f16", VectorType::get({4}, f16)};
  if (m == 16 && k == 16)
    return bf16 ? MfmaIntrinsic{"rocdl.mfma.f32.16x16x16bf16.1k", VectorType::get({4}, i16)}
                : MfmaIntrinsic{"rocdl.mfma.f32.16x16x16f16", VectorType::get({4}, f16)};
  if (m == 32 && k == 16)
    return bf16 ? MfmaIntrinsic{"rocdl.mfma.f32.32x32x16.bf16", VectorType::get({8}, bf)}
                : MfmaIntrinsic{"rocdl.mfma.f32.32x32x16.f16", VectorType::get({8}, f16)};
  return bf16 ? MfmaIntrinsic{"rocdl.mfma.f32.16x16x32.bf16", VectorType::get({8}, bf)}
              : MfmaIntrinsic{"rocdl.mfma.f32.16x16x32.f16", VectorType::get({8}, f16)};
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
    MfmaIntrinsic intr = selectMfma(rw, shape, a.getElementType());
    auto accType = VectorType::get({regsC}, rw.getF32Type());
    Value result = adaptor.getAcc();
    Value zero = i32(rw, loc, 0);
    for (int64_t mi = 0; mi < repM; ++mi)
      for (int64_t ni = 0; ni < repN; ++ni) {
        int64_t cFirst = (mi * repN + ni) * regsC;
        Value acc = slice(rw, loc, result, cFirst, regsC);
        for (int64_t ki = 0; ki < repK; ++ki) {
          Value av = slice(rw, loc, adaptor.getA(), (mi * repK + ki) * regsA, regsA);
          Value bv = slice(rw, loc, adaptor.getB(), (ki * repN + ni) * regsB, regsB);
          av = LLVM::BitcastOp::create(rw, loc, intr.operandType, av);
          bv = LLVM::BitcastOp::create(rw, loc, intr.operandType, bv);
          OperationState state(loc, intr.name);
          state.addOperands({av, bv, acc, zero, zero, zero});
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
