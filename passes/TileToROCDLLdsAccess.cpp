//===- TileToROCDLLdsAccess.cpp - Tiles to and from LDS -------------------===//
//
// tile.lds_load and tile.lds_store: a tile between registers and an LDS
// buffer by ds_read/ds_write of up to 16 bytes a lane, the transposing
// reads of gfx950 (ds_read_b64_tr_b16/b8) where each lane's registers run
// down an LDS column, and the reads of a buffer stored in a tile's reading
// order (passes/OperandImage.h). Every access carries its buffer's alias
// scopes, so that LLVM may reorder accesses to different buffers.
//
//===----------------------------------------------------------------------===//
#include "passes/TileToROCDLPatterns.h"
#include "passes/TileToROCDLAddressing.h"
#include "passes/TileToROCDLCommon.h"
#include "passes/ConstantFold.h"
#include "passes/OperandImage.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <functional>
#include <numeric>

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;
using namespace kcc::lowering;

//===----------------------------------------------------------------------===//
// LDS reads and writes
//===----------------------------------------------------------------------===//

namespace {

/// A number that `v` (an index of the tile dialect, before conversion) is
/// known to be a multiple of: the constant itself, a product's constant
/// factor, the gcd of a sum's; 1 when nothing is known.
int64_t knownMultiple(Value v, int depth = 0) {
  if (std::optional<int64_t> c = foldToConstant(v))
    return *c == 0 ? 0 : std::abs(*c);
  Operation *def = v.getDefiningOp();
  if (!def || depth > 8)
    return 1;
  if (auto m = dyn_cast<arith::MulIOp>(def)) {
    int64_t a = knownMultiple(m.getLhs(), depth + 1), c = knownMultiple(m.getRhs(), depth + 1);
    return (a == 0 || c == 0) ? 0 : a * c;
  }
  if (auto a = dyn_cast<arith::AddIOp>(def))
    return std::gcd(knownMultiple(a.getLhs(), depth + 1), knownMultiple(a.getRhs(), depth + 1));
  return 1;
}

/// The LDS addresses of a tile's access runs (accessRuns) in a lane. Plain
/// buffers: one lane base, stage base plus (row + rowL(lane)) * rowStride +
/// col + colL(lane) elements, and each run at a constant (immediate) offset
/// from it. Swizzled buffers: each run's address from its own array
/// coordinates (ldsElementBytes); none depends on a loop around the access,
/// so the backend computes them once, outside it. When the access's first
/// row is a known multiple of the swizzle's period (swizzle x row group
/// rows, `rowPeriodic`), the swizzle sees only the lane's rows: the first
/// row moves the base (a uniform add) and the lane addresses are those of a
/// read at row 0, shared by every wave (a wave's rows of a workgroup-wide
/// buffer would otherwise cost each read its own address registers).
class LdsRunAddresses {
public:
  LdsRunAddresses(OpBuilder &b, Location loc, const MemoryView &view, LdsType lds,
                  int64_t bankLine, Value ldsPtr, Value stage, Value row, Value col,
                  bool rowPeriodic = false)
      : b(b), loc(loc), view(view), lds(lds), bankLine(bankLine),
        esize(elementBytes(lds.getElementType())),
        origin(laneOrigin(b, loc, view, rowPeriodic && lds.getSwizzle() ? i32(b, loc, 0) : row,
                          col)) {
    stageBase = ldsAddress(b, loc, ldsPtr, mul(b, loc, stage, i32(b, loc, lds.getStageBytes())));
    if (rowPeriodic && lds.getSwizzle())
      stageBase = ldsAddress(b, loc, stageBase,
                             mul(b, loc, row, i32(b, loc, lds.getRowStride() * esize)));
    if (!lds.getSwizzle())
      laneBase = ldsAddress(b, loc, stageBase,
                            ldsElementBytes(b, loc, lds, bankLine, origin.row, origin.col));
  }

  /// The address of the run that starts at register `first`.
  Value operator()(int64_t first) const {
    int64_t r = view.rowOfReg(first), c = view.colOfReg(first);
    if (!lds.getSwizzle())
      return ldsAddress(b, loc, laneBase, i32(b, loc, (r * lds.getRowStride() + c) * esize));
    return ldsAddress(b, loc, stageBase,
                      ldsElementBytes(b, loc, lds, bankLine,
                                      add(b, loc, origin.row, i32(b, loc, r)),
                                      add(b, loc, origin.col, i32(b, loc, c))));
  }

private:
  OpBuilder &b;
  Location loc;
  const MemoryView &view;
  LdsType lds;
  int64_t bankLine;
  int64_t esize;
  LaneOrigin origin;
  Value stageBase, laneBase;
};

/// tile.lds_load -> ds_read_b16..b128, or on gfx950 ds_read_b64_tr_b16
/// (16-bit elements) or ds_read_b64_tr_b8 (bytes) when each lane's
/// registers run down an LDS column.
struct LdsLoadLowering : public TilePattern<LdsLoadOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(LdsLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    TileType type = op.getType();
    LdsType lds = op.getLds().getType();
    LayoutMap map = layoutOf(type);
    MemoryView view{map, op.getTranspose()};
    Type elt = typeConverter->convertType(type.getElementType());
    int64_t esize = elementBytes(type.getElementType());
    auto resultType = cast<VectorType>(typeConverter->convertType(type));
    LdsScopes scopes = this->facts->lookup(op.getLds());
    if (lds.getOrderTile())
      return lowerImage(op, adaptor, rw, lds, resultType, scopes);
    if (getChipInfo(chip).hasTransposingLdsRead && fitsTransposingRead(view, esize))
      return lowerTransposing(op, adaptor, rw, view, lds, resultType, scopes);
    int64_t bankLine = bankLineBytes(chip);
    int64_t period = lds.getSwizzle() * lds.getSwizzleRowGroup(bankLine);
    int64_t rowMultiple = knownMultiple(op.getRow());
    LdsRunAddresses runAddress(rw, loc, view, lds, bankLine, adaptor.getLds(), adaptor.getStage(),
                               adaptor.getRow(), adaptor.getCol(),
                               period > 0 && rowMultiple % period == 0);
    Value result = poison(rw, loc, resultType);
    for (auto [first, n] : accessRuns(view, esize)) {
      Value p = runAddress(first);
      auto vt = VectorType::get({n}, elt);
      auto load = LLVM::LoadOp::create(rw, loc, vt, p, /*alignment=*/n * esize);
      setScopes(load, scopes);
      for (int64_t k = 0; k < n; ++k)
        result = insert(rw, loc, result, extract(rw, loc, load, k), first + k);
    }
    rw.replaceOp(op, result);
    return success();
  }

  /// A buffer stored in the tile's reading order (passes/OperandImage.h):
  /// access k of lane l at (k * 64 + l) * B, one address register for all
  /// of them and the access in the offset field.
  LogicalResult lowerImage(LdsLoadOp op, OpAdaptor adaptor, ConversionPatternRewriter &rw,
                           LdsType lds, VectorType resultType,
                           const LdsScopes &scopes) const {
    Location loc = op.getLoc();
    std::string why;
    std::optional<OperandImage> img = OperandImage::get(lds, chip, &why);
    if (!img)
      return op.emitOpError("cannot read the buffer in the order of its tile: ") << why;
    int64_t bytes = img->accessBytes(), n = img->registersPerAccess();
    Value stageBase = ldsAddress(
        rw, loc, adaptor.getLds(),
        mul(rw, loc, adaptor.getStage(), i32(rw, loc, lds.getStageBytes())));
    Value base = ldsAddress(rw, loc, stageBase, mul(rw, loc, laneId(rw, loc), i32(rw, loc, bytes)));
    Value result = poison(rw, loc, resultType);
    Type elt = resultType.getElementType();
    int64_t esize = elementBytes(lds.getElementType());
    for (int64_t k = 0; k < img->accesses(); ++k) {
      Value p = ldsAddress(rw, loc, base, i32(rw, loc, k * 64 * bytes));
      auto vt = VectorType::get({n}, elt);
      Value elems;
      if (img->transposing() && esize == 2) {
        auto read = ROCDL::ds_read_tr16_b64::create(rw, loc, vt, p);
        setScopes(read, scopes);
        elems = read;
      } else if (img->transposing()) {
        auto read = ROCDL::ds_read_tr8_b64::create(
            rw, loc, VectorType::get({2}, rw.getI32Type()), p);
        setScopes(read, scopes);
        elems = LLVM::BitcastOp::create(rw, loc, vt, read);
      } else {
        auto load = LLVM::LoadOp::create(rw, loc, vt, p, /*alignment=*/bytes);
        setScopes(load, scopes);
        elems = load;
      }
      for (int64_t j = 0; j < n; ++j)
        result = insert(rw, loc, result, extract(rw, loc, elems, j), img->firstRegister(k) + j);
    }
    rw.replaceOp(op, result);
    return success();
  }

  /// Registers Et..Et+E-1 (E = transposedElements) come from one
  /// transposing read in which lane s points at the E adjacent elements that
  /// lanes l0 = (s & 0x30) | ((s % P) * E) + 0..E-1 want as register
  /// Et + ((s / P) % E), P = 16 / E the lanes of a tile row (tr_b16: E = 4,
  /// P = 4; tr_b8: E = 8, P = 2).
  LogicalResult lowerTransposing(LdsLoadOp op, OpAdaptor adaptor,
                                 ConversionPatternRewriter &rw,
                                 const MemoryView &view, LdsType lds,
                                 VectorType resultType,
                                 const LdsScopes &scopes) const {
    Location loc = op.getLoc();
    int64_t esize = elementBytes(lds.getElementType());
    int64_t e = transposedElements(esize), p = 16 / e;
    int64_t stride = lds.getRowStride();
    Value s = laneId(rw, loc);
    Value l0 = LLVM::OrOp::create(rw, 
        loc, LLVM::AndOp::create(rw, loc, s, i32(rw, loc, 0x30)),
        LLVM::ShlOp::create(rw, loc, LLVM::AndOp::create(rw, loc, s, i32(rw, loc, p - 1)),
                               i32(rw, loc, llvm::Log2_64(e))));
    Value u = LLVM::AndOp::create(rw, 
        loc, LLVM::LShrOp::create(rw, loc, s, i32(rw, loc, llvm::Log2_64(p))),
        i32(rw, loc, e - 1));
    // Array coordinates of lane l0's register 0.
    Value row = add(rw, loc, adaptor.getRow(),
                    laneCoordinate(rw, loc, l0, view.rowFields()));
    Value col = add(rw, loc, adaptor.getCol(),
                    laneCoordinate(rw, loc, l0, view.colFields()));
    Value stageBase = ldsAddress(
        rw, loc, adaptor.getLds(),
        mul(rw, loc, adaptor.getStage(), i32(rw, loc, lds.getStageBytes())));
    Value result = poison(rw, loc, resultType);
    Type elt = resultType.getElementType();
    auto block = VectorType::get({e}, elt);
    int64_t groups = view.map.numRegs() / e;
    auto regOffset = [&](int64_t r) {
      return (view.rowOfReg(r) * stride + view.colOfReg(r)) * esize;
    };
    // Register Et + u's value of `of`, chosen per lane among E constants.
    auto laneChoice = [&](auto of) {
      Value v = i32(rw, loc, of(0));
      for (int64_t k = 1; k < e; ++k) {
        Value isK = LLVM::ICmpOp::create(rw, loc, LLVM::ICmpPredicate::eq, u, i32(rw, loc, k));
        v = LLVM::SelectOp::create(rw, loc, isK, i32(rw, loc, of(k)), v);
      }
      return v;
    };
    std::function<Value(int64_t)> readAddress;
    if (lds.getSwizzle()) {
      readAddress = [&](int64_t t) {
        Value r = add(rw, loc, row, laneChoice([&](int64_t k) { return view.rowOfReg(e * t + k); }));
        Value c = add(rw, loc, col, laneChoice([&](int64_t k) { return view.colOfReg(e * t + k); }));
        return ldsAddress(rw, loc, stageBase,
                          ldsElementBytes(rw, loc, lds, bankLineBytes(chip), r, c));
      };
    } else {
      Value base = ldsAddress(rw, loc, stageBase,
                              ldsElementBytes(rw, loc, lds, bankLineBytes(chip), row, col));
      bool sameSpacing = true;
      for (int64_t t = 1; t < groups && sameSpacing; ++t)
        for (int64_t k = 1; k < e; ++k)
          if (regOffset(e * t + k) - regOffset(e * t) != regOffset(k) - regOffset(0))
            sameSpacing = false;
      if (sameSpacing)
        base = ldsAddress(rw, loc, base,
                          laneChoice([&](int64_t k) { return regOffset(k) - regOffset(0); }));
      readAddress = [&, base, sameSpacing](int64_t t) {
        Value off = sameSpacing ? i32(rw, loc, regOffset(e * t))
                                : laneChoice([&](int64_t k) { return regOffset(e * t + k); });
        return ldsAddress(rw, loc, base, off);
      };
    }
    for (int64_t t = 0; t < groups; ++t) {
      Value elems;
      if (esize == 2) {
        auto read = ROCDL::ds_read_tr16_b64::create(rw, loc, block, readAddress(t));
        setScopes(read, scopes);
        elems = read;
      } else {
        // LLVM types the byte form's result as two words.
        auto read = ROCDL::ds_read_tr8_b64::create(
            rw, loc, VectorType::get({2}, rw.getI32Type()), readAddress(t));
        setScopes(read, scopes);
        elems = LLVM::BitcastOp::create(rw, loc, block, read);
      }
      for (int64_t k = 0; k < e; ++k)
        result = insert(rw, loc, result, extract(rw, loc, elems, k), e * t + k);
    }
    rw.replaceOp(op, result);
    return success();
  }
};

/// tile.lds_store -> ds_write_b16..b128.
struct LdsStoreLowering : public TilePattern<LdsStoreOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(LdsStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    TileType type = op.getValue().getType();
    LdsType lds = op.getLds().getType();
    // (checkReady refused a store into a buffer in a tile's order: checked
    // there rather than by the verifier, as a function that stores into
    // such a buffer on another parameter's path is dead only by now.)
    LayoutMap map = layoutOf(type);
    MemoryView view{map, op.getTranspose()};
    int64_t esize = elementBytes(type.getElementType());
    LdsScopes scopes = this->facts->lookup(op.getLds());
    LdsRunAddresses runAddress(rw, loc, view, lds, bankLineBytes(chip), adaptor.getLds(),
                               adaptor.getStage(), adaptor.getRow(), adaptor.getCol());
    for (auto [first, n] : accessRuns(view, esize)) {
      Value p = runAddress(first);
      Value v = n == 1 ? extract(rw, loc, adaptor.getValue(), first)
                       : slice(rw, loc, adaptor.getValue(), first, n);
      auto store = LLVM::StoreOp::create(rw, loc, v, p, /*alignment=*/n * esize);
      setScopes(store, scopes);
    }
    rw.eraseOp(op);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern registration
//===----------------------------------------------------------------------===//

void kcc::populateTileLdsAccessToROCDLPatterns(LLVMTypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               Chip chip, const KernelFacts &facts) {
  patterns.add<LdsLoadLowering, LdsStoreLowering>(converter, chip, &facts);
}
