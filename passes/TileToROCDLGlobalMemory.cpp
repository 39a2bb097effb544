//===- TileToROCDLGlobalMemory.cpp - Tiles to and from global memory ------===//
//
// Buffer resources (V#s) and pointer offsets, and the loads and stores of
// tiles between registers and global memory through buffer instructions. A
// load or store computes one per-lane base from the layout's lane bit fields
// and adds per-register constants, so that the backend folds them into
// instruction offsets; masked elements use an out-of-range buffer offset,
// for which the hardware returns 0 and drops stores.
//
//===----------------------------------------------------------------------===//
#include "passes/TileToROCDLPatterns.h"
#include "passes/TileToROCDLAddressing.h"
#include "passes/TileToROCDLCommon.h"
#include "passes/ConstantFold.h"
#include "passes/OperandImage.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>
#include <tuple>

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;
using namespace kcc::lowering;

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

namespace {

/// Buffer descriptor word 3 for CDNA: a non-zero data format (ignored by the
/// raw buffer instructions but required to be non-zero), everything else 0.
constexpr int32_t kBufferFlags = (7 << 12) | (4 << 15);

/// The integer type that `bytes` bytes are moved as.
Type accessType(OpBuilder &b, int64_t bytes) {
  if (bytes % 4 == 0)
    return bytes == 4 ? (Type)b.getI32Type()
                      : VectorType::get({bytes / 4}, b.getI32Type());
  if (bytes == 2)
    return b.getI16Type();
  if (bytes == 1)
    return b.getI8Type();
  return VectorType::get({bytes / 2}, b.getI16Type());
}

/// tile.make_buffer -> a V# over num_elements * sizeof(element) bytes.
struct MakeBufferLowering : public TilePattern<MakeBufferOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(MakeBufferOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    int64_t esize = elementBytes(op.getType().getElementType());
    Value n = LLVM::ZExtOp::create(rw, loc, rw.getI64Type(), adaptor.getNumElements());
    Value bytes = LLVM::MulOp::create(rw, 
        loc, n, LLVM::ConstantOp::create(rw, loc, rw.getI64Type(), rw.getI64IntegerAttr(esize)));
    Value stride = LLVM::ConstantOp::create(rw, loc, rw.getI16Type(), rw.getI16IntegerAttr(0));
    auto rsrcType = LLVM::LLVMPointerType::get(rw.getContext(), 8);
    rw.replaceOpWithNewOp<ROCDL::MakeBufferRsrcOp>(op, rsrcType, adaptor.getPtr(),
                                                   stride, bytes,
                                                   i32(rw, loc, kBufferFlags));
    return success();
  }
};

/// tile.ptr_add -> getelementptr on the global pointer. The offset is
/// unsigned (zero-extended, not sign-extended, to the pointer's width): a
/// slice past 2^31 elements stays in front of the pointer, and a scalar
/// offset costs one 64-bit add, no sign extension.
struct PtrAddLowering : public TilePattern<PtrAddOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(PtrAddOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Type elt = typeConverter->convertType(op.getPtr().getType().getElementType());
    Value offset = adaptor.getOffset();
    if (offset.getType().getIntOrFloatBitWidth() < 64)
      offset = LLVM::ZExtOp::create(rw, op.getLoc(), rw.getI64Type(), offset);
    rw.replaceOpWithNewOp<LLVM::GEPOp>(op, adaptor.getPtr().getType(), elt,
                                       adaptor.getPtr(),
                                       ArrayRef<LLVM::GEPArg>{offset});
    return success();
  }
};

/// Byte offset of array element (origin.row + r, origin.col + c), or the
/// out-of-range offset when bounds are given and any of the columns
/// c .. lastCol of that row is outside them (with boundRows alone, when the
/// row is: the columns are known to be inside).
Value elementOffset(OpBuilder &b, Location loc, LaneOrigin origin, int64_t r,
                    int64_t c, Value stride, int64_t esize, Value boundRows,
                    Value boundCols, int64_t lastCol) {
  Value rr = add(b, loc, origin.row, i32(b, loc, r));
  Value cc = add(b, loc, origin.col, i32(b, loc, c));
  Value off = mul(b, loc, add(b, loc, mul(b, loc, rr, stride), cc),
                  i32(b, loc, esize));
  if (!boundRows)
    return off;
  Value inRows = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, rr, boundRows);
  if (!boundCols) // the columns are known to be inside
    return LLVM::SelectOp::create(b, loc, inRows, off, i32(b, loc, kOutOfRangeOffset));
  Value last = add(b, loc, origin.col, i32(b, loc, lastCol));
  Value inCols = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, last, boundCols);
  Value ok = LLVM::AndOp::create(b, loc, inRows, inCols);
  return LLVM::SelectOp::create(b, loc, ok, off, i32(b, loc, kOutOfRangeOffset));
}

/// tile.load -> buffer loads of up to 16 bytes per lane.
struct LoadLowering : public TilePattern<LoadOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    TileType type = op.getType();
    LayoutMap map = layoutOf(type);
    Type elt = typeConverter->convertType(type.getElementType());
    int64_t esize = elementBytes(type.getElementType());
    auto resultType = cast<VectorType>(typeConverter->convertType(type));
    MemoryView view{map, op.getTranspose()};
    LaneOrigin origin = laneOrigin(rw, loc, view, adaptor.getRow(), adaptor.getCol());
    Value zero = i32(rw, loc, 0);
    Value result = poison(rw, loc, resultType);
    bool bounded = adaptor.getBoundRows() != nullptr;
    for (auto [first, n] : accessRuns(view, esize)) {
      // With bounds the run's first element must be inside for the load;
      // elements past the column bound are zeroed below.
      Value off = elementOffset(rw, loc, origin, view.rowOfReg(first),
                                view.colOfReg(first), adaptor.getStride(), esize,
                                adaptor.getBoundRows(), adaptor.getBoundCols(),
                                view.colOfReg(first));
      Type raw = accessType(rw, n * esize);
      Value v = ROCDL::RawPtrBufferLoadOp::create(rw, loc, raw, adaptor.getBuffer(),
                                                     off, zero, zero, ArrayAttr(),
                                                     ArrayAttr(), ArrayAttr());
      Value elems = LLVM::BitcastOp::create(rw, loc, VectorType::get({n}, elt), v);
      for (int64_t k = 0; k < n; ++k) {
        Value e = extract(rw, loc, elems, k);
        if (bounded && k > 0) {
          Value c = add(rw, loc, origin.col, i32(rw, loc, view.colOfReg(first) + k));
          Value in = LLVM::ICmpOp::create(rw, loc, LLVM::ICmpPredicate::ult, c,
                                             adaptor.getBoundCols());
          Value z = LLVM::ZeroOp::create(rw, loc, elt);
          e = LLVM::SelectOp::create(rw, loc, in, e, z);
        }
        result = insert(rw, loc, result, e, first + k);
      }
    }
    rw.replaceOp(op, result);
    return success();
  }
};

/// How a store's runs pair up across the two halves of a lane-bit split so
/// that one cross-lane swap per dword doubles every run. It applies when
/// lane l | (1 << bit) holds, in memory, the n elements right after lane
/// l's (l with the bit clear) and the runs pair up by one array offset
/// (dr, dc): every run at (r, c) is a run's partner at (r + dr, c + dc) or
/// has one there. v_permlane{16,32}_swap(run, partner) trades the upper
/// lanes of the first operand with the lower lanes of the second: the lower
/// lane then holds [its run, the upper lane's run], contiguous at its
/// (r, c); the upper lane [the lower lane's partner, its own partner],
/// contiguous from the lower lane's origin + (r + dr, c + dc), which one
/// more swap (of the origins) hands it. This is how an MFMA
/// accumulator stored transposed (runs of 4 16-bit elements, lanes l and
/// l + 32 four rows apart in 32x32, l and l + 16 in 16x16) reaches 16-byte
/// stores, as AMD's hand-written GEMMs store theirs.
struct LaneHalfPairing {
  unsigned bit = 0;
  int64_t n = 0;
  int64_t dr = 0, dc = 0;
  SmallVector<std::pair<int64_t, int64_t>> pairs; // first registers of (run, partner)
};

std::optional<LaneHalfPairing>
pairAcrossLaneHalves(const MemoryView &view, ArrayRef<std::pair<int64_t, int64_t>> runs,
                     int64_t esize) {
  if (runs.size() < 2 || runs.size() % 2)
    return std::nullopt;
  int64_t n = runs.front().second;
  if (llvm::any_of(runs, [&](auto r) { return r.second != n; }) || (n * esize) % 4 ||
      2 * n * esize > kMaxAccessBytes)
    return std::nullopt;
  // The runs in array order.
  std::map<std::pair<int64_t, int64_t>, size_t> at;
  for (size_t k = 0; k < runs.size(); ++k)
    at[{view.rowOfReg(runs[k].first), view.colOfReg(runs[k].first)}] = k;
  if (at.size() != runs.size())
    return std::nullopt;
  for (unsigned bit : {5u, 4u}) {
    unsigned m = 1u << bit;
    bool lanesFit = true;
    for (unsigned l = 0; l < 64 && lanesFit; ++l)
      if (!(l & m))
        lanesFit = view.rowOfLane(l | m) == view.rowOfLane(l) &&
                   view.colOfLane(l | m) == view.colOfLane(l) + n;
    if (!lanesFit)
      continue;
    // The first run's partner is one of the others, the nearest first.
    auto first = at.begin()->first;
    for (auto it = std::next(at.begin()); it != at.end(); ++it) {
      LaneHalfPairing p{bit, n, it->first.first - first.first, it->first.second - first.second,
                        {}};
      SmallVector<bool> used(runs.size(), false);
      bool paired = true;
      for (auto &[pos, k] : at) {
        if (used[k])
          continue;
        auto partner = at.find({pos.first + p.dr, pos.second + p.dc});
        if (partner == at.end() || used[partner->second]) {
          paired = false;
          break;
        }
        used[k] = used[partner->second] = true;
        p.pairs.push_back({runs[k].first, runs[partner->second].first});
      }
      if (paired)
        return p;
    }
  }
  return std::nullopt;
}

/// The dwords of registers first .. first + n - 1 of a tile value.
SmallVector<Value> dwordsOf(OpBuilder &b, Location loc, Value tile, int64_t first,
                            int64_t n, int64_t esize) {
  int64_t words = n * esize / 4;
  Value v = LLVM::BitcastOp::create(b, loc, VectorType::get({words}, b.getI32Type()),
                                    slice(b, loc, tile, first, n));
  SmallVector<Value> out;
  for (int64_t k = 0; k < words; ++k)
    out.push_back(extract(b, loc, v, k));
  return out;
}

/// tile.store -> buffer stores; with bounds, one store per element so that
/// each is dropped or kept on its own, unless the columns are known to be
/// inside (constant first column and column bound): then only the rows are
/// checked and runs go whole. Where lanes of the two halves of a lane bit
/// hold neighbouring runs (see pairAcrossLaneHalves), chips with lane-half
/// swaps trade half the runs first and store twice as many bytes per
/// instruction.
struct StoreLowering : public TilePattern<StoreOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    TileType type = op.getValue().getType();
    LayoutMap map = layoutOf(type);
    int64_t esize = elementBytes(type.getElementType());
    MemoryView view{map, op.getTranspose()};
    LaneOrigin origin = laneOrigin(rw, loc, view, adaptor.getRow(), adaptor.getCol());
    Value zero = i32(rw, loc, 0);
    bool bounded = adaptor.getBoundRows() != nullptr;
    // Bounds whose column bound and first column are constants that put
    // every lane's columns inside leave only the rows to check, and a row's
    // runs are stored (and dropped) whole: the attention kernels' outputs,
    // whose columns are D of D.
    bool colsInside = false;
    if (bounded) {
      std::optional<int64_t> col = foldToConstant(op.getCol());
      std::optional<int64_t> bound = foldToConstant(op.getBoundCols());
      colsInside = col && bound && *col >= 0;
      for (unsigned l = 0; l < 64 && colsInside; ++l)
        for (int64_t i = 0; i < map.numRegs() && colsInside; ++i)
          colsInside = *col + view.colOfLane(l) + view.colOfReg(i) < *bound;
    }
    Value boundRows = adaptor.getBoundRows();
    Value boundCols = colsInside ? Value() : adaptor.getBoundCols();
    SmallVector<std::pair<int64_t, int64_t>> runs;
    if (bounded && !colsInside)
      for (int64_t i = 0; i < map.numRegs(); ++i)
        runs.push_back({i, 1});
    else
      runs = accessRuns(view, esize);
    std::optional<LaneHalfPairing> pairing;
    if ((!bounded || colsInside) && getChipInfo(chip).hasPermlaneSwap)
      pairing = pairAcrossLaneHalves(view, runs, esize);
    if (pairing) {
      Type i32t = rw.getI32Type();
      auto pairType = LLVM::LLVMStructType::getLiteral(rw.getContext(), {i32t, i32t});
      // v_permlane{16,32}_swap(a, b): the upper lanes of `a` (the bit set)
      // trade places with the lower lanes of `b`. In (a', b'), a lower lane
      // holds its own a and its partner's a; an upper lane its partner's b
      // and its own b.
      auto swapAcrossBit = [&](Value a, Value b) -> std::pair<Value, Value> {
        Value swapped =
            pairing->bit == 5
                ? (Value)ROCDL::Permlane32SwapOp::create(rw, loc, pairType, a, b, false, false)
                : (Value)ROCDL::Permlane16SwapOp::create(rw, loc, pairType, a, b, false, false);
        return {LLVM::ExtractValueOp::create(rw, loc, swapped, 0),
                LLVM::ExtractValueOp::create(rw, loc, swapped, 1)};
      };
      // The upper lanes store from the lower lane's origin + (dr, dc) (see
      // above), which a swap of the origins hands them: no lane arithmetic
      // that would have to live beside the kernel's own.
      LaneOrigin shifted = origin;
      if (pairing->dr)
        shifted.row =
            swapAcrossBit(origin.row, add(rw, loc, origin.row, i32(rw, loc, pairing->dr))).first;
      shifted.col =
          swapAcrossBit(origin.col, add(rw, loc, origin.col, i32(rw, loc, pairing->dc))).first;
      for (auto [run, partner] : pairing->pairs) {
        SmallVector<Value> runWords =
            dwordsOf(rw, loc, adaptor.getValue(), run, pairing->n, esize);
        SmallVector<Value> partnerWords =
            dwordsOf(rw, loc, adaptor.getValue(), partner, pairing->n, esize);
        size_t w = runWords.size();
        SmallVector<Value> words(2 * w);
        for (size_t k = 0; k < w; ++k)
          // The run's upper lanes take the lower lanes' partner, the
          // partner's lower lanes the upper lanes' run.
          std::tie(words[k], words[w + k]) = swapAcrossBit(runWords[k], partnerWords[k]);
        Value v = poison(rw, loc, VectorType::get({int64_t(words.size())}, i32t));
        for (size_t k = 0; k < words.size(); ++k)
          v = insert(rw, loc, v, words[k], int64_t(k));
        // Each lane's 2n elements lie in one row (the lower lane's run's,
        // or, in an upper lane, its partner's): the row bound keeps or drops
        // the store whole.
        Value off = elementOffset(rw, loc, shifted, view.rowOfReg(run), view.colOfReg(run),
                                  adaptor.getStride(), esize, boundRows, nullptr, 0);
        ROCDL::RawPtrBufferStoreOp::create(rw, loc, v, adaptor.getBuffer(), off, zero, zero,
                                           ArrayAttr(), ArrayAttr(), ArrayAttr());
      }
      rw.eraseOp(op);
      return success();
    }
    for (auto [first, n] : runs) {
      Value off = elementOffset(rw, loc, origin, view.rowOfReg(first),
                                view.colOfReg(first), adaptor.getStride(), esize,
                                boundRows, boundCols, view.colOfReg(first));
      Value elems = slice(rw, loc, adaptor.getValue(), first, n);
      if (n == 1)
        elems = extract(rw, loc, adaptor.getValue(), first);
      Type raw = accessType(rw, n * esize);
      Value v = LLVM::BitcastOp::create(rw, loc, raw, elems);
      ROCDL::RawPtrBufferStoreOp::create(rw, loc, v, adaptor.getBuffer(), off, zero,
                                            zero, ArrayAttr(), ArrayAttr(),
                                            ArrayAttr());
    }
    rw.eraseOp(op);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern registration
//===----------------------------------------------------------------------===//

void kcc::populateTileGlobalMemoryToROCDLPatterns(LLVMTypeConverter &converter,
                                                  RewritePatternSet &patterns,
                                                  Chip chip, const KernelFacts &facts) {
  patterns.add<MakeBufferLowering, PtrAddLowering, LoadLowering, StoreLowering>(
      converter, chip, &facts);
}
