//===- TileToROCDLCrossLane.cpp - Reductions and cross-lane ops -----------===//
//
// Ops whose result in a lane depends on other lanes, or on how lanes and
// registers map to elements: reductions along a tile dimension (within the
// lane, then across lanes with ds_swizzle, ds_bpermute or v_permlane32_swap),
// the wave-wide any, and the broadcast and relayout of register layouts.
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
// Reductions
//===----------------------------------------------------------------------===//

namespace {

/// tile.any -> OR of the lane's registers, then a ballot compared with 0
/// (a scalar compare: the result is wave-uniform).
struct AnyLowering : public TilePattern<AnyOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(AnyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    auto vt = cast<VectorType>(adaptor.getOperand().getType());
    Value lane = extract(rw, loc, adaptor.getOperand(), 0);
    for (int64_t i = 1; i < vt.getNumElements(); ++i)
      lane = LLVM::OrOp::create(rw, loc, lane, extract(rw, loc, adaptor.getOperand(), i));
    Value ballot = ROCDL::BallotOp::create(rw, loc, rw.getI64Type(), lane);
    Value zero = LLVM::ConstantOp::create(rw, loc, rw.getI64Type(), rw.getI64IntegerAttr(0));
    rw.replaceOpWithNewOp<LLVM::ICmpOp>(op, LLVM::ICmpPredicate::ne, ballot, zero);
    return success();
  }
};

/// tile.reduce_max / tile.reduce_sum: combine the registers of a lane that
/// hold the same kept coordinate, then exchange across the lane bits on which
/// the reduced coordinate depends: ds_swizzle (xor within 32 lanes) for bits
/// 0-4; for bit 5, v_permlane32_swap on gfx950 and ds_bpermute on gfx942.
template <typename ReduceOp>
struct ReduceLowering : public TilePattern<ReduceOp> {
  using TilePattern<ReduceOp>::TilePattern;

  Value combine(OpBuilder &b, Location loc, Value x, Value y) const {
    if constexpr (std::is_same_v<ReduceOp, ReduceMaxOp>)
      return LLVM::MaxNumOp::create(b, loc, x, y);
    else if (isa<FloatType>(x.getType()))
      return LLVM::FAddOp::create(b, loc, x, y);
    else
      return LLVM::AddOp::create(b, loc, x, y);
  }

  /// The value of `x` in lane (this lane ^ (1 << bit)).
  Value partner(OpBuilder &b, Location loc, Value x, unsigned bit, Value lane) const {
    Type t = x.getType();
    Type i32t = b.getI32Type();
    Value xi = t == i32t ? x : (Value)LLVM::BitcastOp::create(b, loc, i32t, x);
    Value yi;
    if (bit < 5) {
      // ds_swizzle bit mode: and_mask 0x1f, or_mask 0, xor_mask 1 << bit.
      int64_t offset = (int64_t(1) << bit) << 10 | 0x1f;
      yi = ROCDL::DsSwizzleOp::create(b, loc, i32t, xi, i32(b, loc, offset));
    } else {
      Value addr = mul(b, loc, LLVM::XOrOp::create(b, loc, lane, i32(b, loc, 32)),
                       i32(b, loc, 4));
      yi = ROCDL::DsBpermuteOp::create(b, loc, i32t, addr, xi);
    }
    return t == i32t ? yi : (Value)LLVM::BitcastOp::create(b, loc, t, yi);
  }

  LogicalResult matchAndRewrite(ReduceOp op, typename ReduceOp::Adaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    TileType inType = op.getOperand().getType(), outType = op.getType();
    LayoutMap in = layoutOf(inType), out = layoutOf(outType);
    int64_t dim = op.getDim();
    auto keptOf = [&](const LayoutMap &m, unsigned lane, int64_t i) {
      return dim == 1 ? m.row(lane, i) : m.col(lane, i);
    };
    auto reducedOf = [&](const LayoutMap &m, unsigned lane, int64_t i) {
      return dim == 1 ? m.col(lane, i) : m.row(lane, i);
    };
    // Lane bits to exchange across: flipping them keeps every register's
    // kept coordinate and changes the reduced one.
    SmallVector<unsigned> bits;
    for (unsigned b = 0; b < 6; ++b) {
      bool keeps = true, changes = false;
      for (unsigned l = 0; l < 64 && keeps; ++l)
        for (int64_t i = 0; i < in.numRegs(); ++i) {
          keeps &= keptOf(in, l, i) == keptOf(in, l ^ (1u << b), i);
          changes |= reducedOf(in, l, i) != reducedOf(in, l ^ (1u << b), i);
        }
      if (keeps && changes)
        bits.push_back(b);
    }
    Value lane = laneId(rw, loc);
    auto vt = cast<VectorType>(this->typeConverter->convertType(outType));
    Value result = poison(rw, loc, vt);
    for (int64_t j = 0; j < out.numRegs(); ++j) {
      SmallVector<Value> xs;
      for (int64_t i = 0; i < in.numRegs(); ++i)
        if (keptOf(in, 0, i) == keptOf(out, 0, j))
          xs.push_back(extract(rw, loc, adaptor.getOperand(), i));
      // An f32 sum goes register pair by register pair (v_pk_add_f32), in two
      // interleaved chains (a chain of dependent packed adds needs a wait
      // state between them), joined at the end and the pair's halves added:
      // 16 instructions for a 32-register column instead of 31. A balanced
      // tree measured slower (every value held until its level spilled).
      Value acc;
      bool packed = !std::is_same_v<ReduceOp, ReduceMaxOp> && xs.size() >= 4 &&
                    xs.size() % 2 == 0 && xs.front().getType().isF32();
      if (packed) {
        auto pairType = VectorType::get({2}, rw.getF32Type());
        Value accp[2];
        for (size_t k = 0; k < xs.size(); k += 2) {
          Value p = insert(rw, loc, poison(rw, loc, pairType), xs[k], 0);
          p = insert(rw, loc, p, xs[k + 1], 1);
          Value &a = accp[(k / 2) % 2];
          a = a ? (Value)LLVM::FAddOp::create(rw, loc, a, p) : p;
        }
        Value sum = accp[1] ? (Value)LLVM::FAddOp::create(rw, loc, accp[0], accp[1]) : accp[0];
        acc = combine(rw, loc, extract(rw, loc, sum, 0), extract(rw, loc, sum, 1));
      } else {
        for (Value x : xs)
          acc = acc ? combine(rw, loc, acc, x) : x;
      }
      for (unsigned b : bits) {
        if (b == 5 && getChipInfo(this->chip).hasPermlaneSwap) {
          // permlane32_swap(x, x) gives (x[l & 31], x[l | 32]) in every lane:
          // combining the pair is the reduction across the two halves.
          Type i32t = rw.getI32Type();
          Type t = acc.getType();
          Value xi = t == i32t ? acc : (Value)LLVM::BitcastOp::create(rw, loc, i32t, acc);
          auto pairType = LLVM::LLVMStructType::getLiteral(rw.getContext(), {i32t, i32t});
          Value pair = ROCDL::Permlane32SwapOp::create(rw, loc, pairType, xi, xi,
                                                          false, false);
          Value first = LLVM::ExtractValueOp::create(rw, loc, pair, 0);
          Value second = LLVM::ExtractValueOp::create(rw, loc, pair, 1);
          if (t != i32t) {
            first = LLVM::BitcastOp::create(rw, loc, t, first);
            second = LLVM::BitcastOp::create(rw, loc, t, second);
          }
          acc = combine(rw, loc, first, second);
          continue;
        }
        acc = combine(rw, loc, acc, partner(rw, loc, acc, b, lane));
      }
      result = insert(rw, loc, result, acc, j);
    }
    rw.replaceOp(op, result);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Layout changes
//===----------------------------------------------------------------------===//

namespace {

/// tile.broadcast: each register of the result copies the slice register of
/// its kept coordinate (same lane, no data movement).
struct BroadcastLowering : public TilePattern<BroadcastOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    TileType inType = op.getOperand().getType(), outType = op.getType();
    LayoutMap in = layoutOf(inType), out = layoutOf(outType);
    int64_t dim = cast<SliceLayoutAttr>(inType.getLayout()).getDim();
    SmallVector<int32_t> mask;
    for (int64_t i = 0; i < out.numRegs(); ++i) {
      int64_t kept = dim == 1 ? out.rowOfReg(i) : out.colOfReg(i);
      int64_t found = -1;
      for (int64_t j = 0; j < in.numRegs() && found < 0; ++j)
        if ((dim == 1 ? in.rowOfReg(j) : in.colOfReg(j)) == kept)
          found = j;
      if (found < 0)
        return op.emitOpError("slice does not cover row/column ") << kept;
      mask.push_back(found);
    }
    rw.replaceOpWithNewOp<LLVM::ShuffleVectorOp>(op, adaptor.getOperand(),
                                                 adaptor.getOperand(), mask);
    return success();
  }
};

/// tile.relayout -> the same vector: registers keep their values and only
/// their meaning changes.
struct RelayoutLowering : public TilePattern<RelayoutOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(RelayoutOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOp(op, adaptor.getOperand());
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern registration
//===----------------------------------------------------------------------===//

void kcc::populateTileCrossLaneToROCDLPatterns(LLVMTypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               Chip chip, const KernelFacts &facts) {
  patterns.add<AnyLowering, ReduceLowering<ReduceMaxOp>,
               ReduceLowering<ReduceSumOp>, BroadcastLowering,
               RelayoutLowering>(converter, chip, &facts);
}
