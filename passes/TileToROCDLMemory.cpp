//===- TileToROCDLMemory.cpp - Global memory, LDS and waits ---------------===//
//
// Loads and stores of tiles between registers and global memory (buffer
// instructions through a V#) or LDS (ds_read/ds_write), the asynchronous
// global-to-LDS copy (buffer_load ... lds), and the s_waitcnt that waits for
// them. A memory op computes one per-lane base from the layout's lane bit
// fields and adds per-register constants, so that the backend folds them into
// instruction offsets; masked elements use an out-of-range buffer offset.
//
//===----------------------------------------------------------------------===//
#include "passes/TileToROCDLPatterns.h"
#include "passes/TileToROCDLCommon.h"
#include "passes/ConstantFold.h"
#include "passes/OperandImage.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include <functional>
#include <map>
#include <numeric>
#include <tuple>

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;
using namespace kcc::lowering;

//===----------------------------------------------------------------------===//
// Addressing helpers
//===----------------------------------------------------------------------===//

namespace {

/// A buffer offset that is out of range of every buffer kcc makes (their
/// sizes stay below 2 GiB), so the hardware returns 0 for loads and drops
/// stores: how masked elements are handled.
constexpr int64_t kOutOfRangeOffset = 0x80000000LL;
/// The largest value of a buffer instruction's offset field (12 bits).
constexpr int64_t kMaxBufferInstOffset = 4095;

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

/// Attaches the alias scopes of an LDS access to `op` (when it takes them).
void setScopes(Operation *op, const LdsScopes &s) {
  if (auto iface = dyn_cast<LLVM::AliasAnalysisOpInterface>(op)) {
    if (s.scopes)
      iface.setAliasScopes(s.scopes);
    if (s.noalias)
      iface.setNoAliasScopes(s.noalias);
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

namespace {

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

/// Per-lane array coordinates of register 0's element, minus its register
/// part: row + rowL(lane), col + colL(lane) in array terms.
struct LaneOrigin {
  Value row, col;
};

LaneOrigin laneOrigin(OpBuilder &b, Location loc, const MemoryView &view,
                      Value row, Value col) {
  Value lane = laneId(b, loc);
  return {add(b, loc, row, laneCoordinate(b, loc, lane, view.rowFields())),
          add(b, loc, col, laneCoordinate(b, loc, lane, view.colFields()))};
}

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
// LDS
//===----------------------------------------------------------------------===//

namespace {

/// tile.lds_alloc -> the address of the buffer in the kernel's LDS array.
struct LdsAllocLowering : public TilePattern<LdsAllocOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(LdsAllocOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    StringRef global = facts->ldsGlobalOf(op);
    if (!op.getOffset() || global.empty())
      return rw.notifyMatchFailure(op, "LDS buffer not placed");
    Location loc = op.getLoc();
    auto ptr3 = LLVM::LLVMPointerType::get(rw.getContext(), 3);
    Value base = LLVM::AddressOfOp::create(rw, loc, ptr3, global);
    Value p = LLVM::GEPOp::create(rw, loc, ptr3, rw.getI8Type(), base,
                                     ArrayRef<LLVM::GEPArg>{(int32_t)*op.getOffset()},
                                     LLVM::GEPNoWrapFlags::inbounds);
    rw.replaceOp(op, p);
    return success();
  }
};

/// The address of byte `byteOffset` (uniform or per-lane) in LDS.
Value ldsAddress(OpBuilder &b, Location loc, Value base, Value byteOffset) {
  auto ptr3 = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::GEPOp::create(b, loc, ptr3, b.getI8Type(), base,
                               ArrayRef<LLVM::GEPArg>{byteOffset},
                               LLVM::GEPNoWrapFlags::inbounds);
}

/// Bytes of one line of the chip's LDS banks (the swizzle's row group).
int64_t bankLineBytes(Chip chip) { return int64_t(getChipInfo(chip).ldsBanks) * 4; }

/// Where column `col` of row `row` of a swizzled LDS buffer is stored: its
/// 16-byte chunk XOR ((row / rowGroup) mod swizzle). XOR is its own
/// inverse, so this is also the column stored at `col`.
Value swizzledColumn(OpBuilder &b, Location loc, LdsType lds, int64_t bankLine, Value row,
                     Value col) {
  int64_t chunkElems = LdsType::kSwizzleChunkBytes / elementBytes(lds.getElementType());
  Value chunk = LLVM::LShrOp::create(b, loc, col, i32(b, loc, llvm::Log2_64(chunkElems)));
  Value within = LLVM::AndOp::create(b, loc, col, i32(b, loc, chunkElems - 1));
  if (int64_t group = lds.getSwizzleRowGroup(bankLine); group > 1)
    row = LLVM::LShrOp::create(b, loc, row, i32(b, loc, llvm::Log2_64(group)));
  Value rowMod = LLVM::AndOp::create(b, loc, row, i32(b, loc, lds.getSwizzle() - 1));
  Value moved = LLVM::XOrOp::create(b, loc, chunk, rowMod);
  return add(b, loc, mul(b, loc, moved, i32(b, loc, chunkElems)), within);
}

/// The byte offset within a stage of element (row, col) of `lds`. An access
/// of at most 16 bytes aligned to its size stays within one swizzle chunk,
/// so this is the address of all of it.
Value ldsElementBytes(OpBuilder &b, Location loc, LdsType lds, int64_t bankLine, Value row,
                      Value col) {
  if (lds.getSwizzle())
    col = swizzledColumn(b, loc, lds, bankLine, row, col);
  return mul(b, loc, add(b, loc, mul(b, loc, row, i32(b, loc, lds.getRowStride())), col),
             i32(b, loc, elementBytes(lds.getElementType())));
}

/// The shape of a tile.async_copy in DMA lines: 64 lanes x `width` bytes,
/// `perLane` elements a lane, `lines` of them to fill the LDS stage.
struct CopyLines {
  LdsType lds;
  int64_t esize, width, perLane, cols, lineBytes, lines;
  explicit CopyLines(AsyncCopyOp op)
      : lds(op.getLds().getType()), esize(elementBytes(lds.getElementType())),
        width(op.getWidth()), perLane(width / esize), cols(lds.getCols()),
        lineBytes(64 * width), lines(lds.getRows() * cols * esize / lineBytes) {}
};

/// How an inbounds copy's lines group around shared M0 writes (see
/// lowerInboundsLines): `size` lines a group, `period` lines apart.
struct InboundsGroups {
  int64_t period = 1, size = 1;
};

static InboundsGroups inboundsGroups(const CopyLines &shape, int64_t waves, Chip chip) {
  LdsType lds = shape.lds;
  int64_t rpl = 64 * shape.perLane / shape.cols;
  int64_t lineLds = rpl * lds.getRowStride() * shape.esize;
  int64_t swizzle = lds.getSwizzle();
  int64_t periodRows = swizzle ? swizzle * lds.getSwizzleRowGroup(bankLineBytes(chip)) : 1;
  InboundsGroups r;
  r.period = periodRows / std::gcd(periodRows, rpl);
  // The largest group whose last line is in reach of the offset field and
  // whose groups split evenly over the waves. Only unpadded rows: a line's
  // scalar offset, its rows' distance in memory less its distance in LDS,
  // must not go negative (the hardware adds it unsigned), which the
  // promise that the block's rows do not overlap (stride >= cols) gives
  // when LDS rows are no longer than the block's.
  for (int64_t c = 2;
       lds.getRowStride() == shape.cols && (c - 1) * r.period * lineLds <= kMaxBufferInstOffset;
       ++c)
    if (shape.lines % (r.period * c) == 0 && (shape.lines / c) % waves == 0)
      r.size = c;
  return r;
}

/// Groups a wave of an inbounds copy can hold invariant across a loop: each
/// holds its M0 value and scalar offset in SGPRs. More (attention's padded
/// K rows in 4-byte lines: eight a wave on gfx942; sixteen on gfx950, which
/// spilled 117 SGPRs before its K took the operand order) would spill them;
/// those copies compute the wave's part in place, and a loop around them
/// recomputes it (gfx942's kernel then spilled none and read 723.1 TFLOPS,
/// 2 SGPRs spilled with the limit at 8).
constexpr int64_t kMaxInvariantGroupsPerWave = 4;

/// An inbounds copy whose lines hold whole rows (rpl of them), as groups of
/// lines that share one M0 write: the instruction's offset field (12 bits)
/// adds to both the LDS and the global address, so lines up to 4 KiB past
/// the group's first one in LDS take it there, and the scalar offset of
/// each line subtracts it again from the global side. In a swizzled buffer
/// the lanes of two lines fetch the same columns only when the lines' rows
/// agree modulo the swizzle's period: a group's lines are P apart (the
/// lines in one period), and the groups go round the waves so that, when
/// the waves are a multiple of P, every line of a wave has the same
/// residue (one lane offset a wave). The lanes' offsets and the M0 values
/// depend on nothing that a loop around the copy changes; the block's row
/// and column go in the scalar offsets (a scalar add a line when they
/// change; none when the copy's buffer moves instead, as the GEMM's does).
static LogicalResult lowerInboundsLines(AsyncCopyOp op, AsyncCopyOp::Adaptor adaptor,
                                        const CopyLines &shape, ConversionPatternRewriter &rw,
                                        Value lane, Value wave, int64_t waves, Value stageBase,
                                        const LdsScopes &scopes, Chip chip) {
  Location loc = op.getLoc();
  LdsType lds = shape.lds;
  int64_t esize = shape.esize, width = shape.width, perLane = shape.perLane;
  int64_t cols = shape.cols, lines = shape.lines;
  int64_t rpl = 64 * perLane / cols;
  int64_t lineLds = rpl * lds.getRowStride() * esize;
  int64_t swizzle = lds.getSwizzle();
  InboundsGroups groups = inboundsGroups(shape, waves, chip);
  int64_t p = groups.period, g = groups.size;
  int64_t groupsPerWave = lines / g / waves;
  // With the waves a multiple of p, group k of a wave starts k waves g
  // lines after its first: each group's scalar offset is the previous one's
  // plus a step. Written as that chain (each link used twice, so LLVM
  // leaves it as it is), a loop around the copy recomputes it with one
  // scalar add a group instead of holding one invariant register a group.
  bool chained = waves % p == 0;
  Value groupStep;
  if (chained)
    groupStep = mul(rw, loc, mul(rw, loc, i32(rw, loc, waves * g * rpl), adaptor.getStride()),
                    i32(rw, loc, esize));
  Value prevGroup;

  Value esizeV = i32(rw, loc, esize);
  Value colsV = i32(rw, loc, cols);
  Value laneElem = mul(rw, loc, lane, i32(rw, loc, perLane));
  Value laneR = LLVM::UDivOp::create(rw, loc, laneElem, colsV);
  Value laneC = LLVM::URemOp::create(rw, loc, laneElem, colsV);
  Value colBytes = mul(rw, loc, adaptor.getCol(), esizeV);
  Value rowBytes = mul(rw, loc, adaptor.getStride(), esizeV);
  Value blockRows = mul(rw, loc, adaptor.getRow(), rowBytes);
  Value zero = i32(rw, loc, 0);
  // The lane's offset (its row within the line and its column), one per
  // residue class of the wave's groups: the same for all of them when the
  // waves are a multiple of p (group s's residue is then the wave's).
  llvm::SmallDenseMap<int64_t, Value> laneOffsets;
  for (int64_t k = 0; k < groupsPerWave; ++k) {
    // Group s = k waves + wave starts at line j0 = (s / p) p g + s mod p.
    Value s = add(rw, loc, i32(rw, loc, k * waves), wave);
    Value sres = p > 1 ? LLVM::URemOp::create(rw, loc, s, i32(rw, loc, p)) : zero;
    Value j0 = p > 1 ? add(rw, loc,
                           mul(rw, loc, LLVM::UDivOp::create(rw, loc, s, i32(rw, loc, p)),
                               i32(rw, loc, p * g)),
                           sres)
                     : mul(rw, loc, s, i32(rw, loc, g));
    int64_t cls = (waves % p == 0) ? (k * waves) % p : k;
    Value &voff = laneOffsets[cls];
    if (!voff) {
      Value c = laneC;
      if (swizzle) {
        Value ldsRow = add(rw, loc, mul(rw, loc, sres, i32(rw, loc, rpl)), laneR);
        c = swizzledColumn(rw, loc, lds, bankLineBytes(chip), ldsRow, laneC);
      }
      voff = mul(rw, loc, add(rw, loc, mul(rw, loc, laneR, adaptor.getStride()), c), esizeV);
    }
    Value groupGlobal;
    if (chained && prevGroup) {
      groupGlobal = add(rw, loc, prevGroup, groupStep);
    } else {
      Value firstRow = mul(rw, loc, j0, i32(rw, loc, rpl));
      groupGlobal =
          add(rw, loc, add(rw, loc, blockRows, mul(rw, loc, firstRow, rowBytes)), colBytes);
    }
    prevGroup = groupGlobal;
    Value dst = ldsAddress(rw, loc, stageBase, mul(rw, loc, j0, i32(rw, loc, lineLds)));
    for (int64_t i = 0; i < g; ++i) {
      int64_t imm = i * p * lineLds;
      // Line j0 + i p: rows i p rpl further on in memory, imm bytes in LDS.
      Value soff = add(rw, loc, groupGlobal,
                       LLVM::SubOp::create(rw, loc,
                                           mul(rw, loc, i32(rw, loc, i * p * rpl), rowBytes),
                                           i32(rw, loc, imm)));
      auto dma = ROCDL::RawPtrBufferLoadLdsOp::create(
          rw, loc, adaptor.getBuffer(), dst, i32(rw, loc, width), voff, soff,
          i32(rw, loc, imm), zero, ArrayAttr(), ArrayAttr(), ArrayAttr());
      setScopes(dma, scopes);
    }
  }
  rw.eraseOp(op);
  return success();
}

/// A copy into a buffer stored in a tile's reading order
/// (passes/OperandImage.h): line L (64 lanes x `width` bytes) fills LDS
/// bytes L * 64 width onwards, and its lane i fetches the `width` bytes of
/// memory that belong at L * 64 width + i width. When those sit at array
/// (R(L) + r(i), C(L) + c(i)), with r, c, R and C sums of per-bit strides
/// (checked here for every line and lane), the lane's part of the address
/// is one register for every line, and the line's part is scalar: the
/// scalar offset of an inbounds copy, an add to the lane's offset (with the
/// bounds test per lane) otherwise. The wave's lines are k waves + wave;
/// with a power-of-two count of waves, R(L) and C(L) split into the wave's
/// part and a constant per k, so a loop around the copy recomputes each
/// line's offset and M0 with a scalar add of an immediate.
static LogicalResult lowerImageCopy(AsyncCopyOp op, AsyncCopyOp::Adaptor adaptor,
                                    const CopyLines &shape, ConversionPatternRewriter &rw,
                                    int64_t waves, bool someWaves, Value stageBase,
                                    const LdsScopes &scopes, Chip chip) {
  Location loc = op.getLoc();
  LdsType lds = shape.lds;
  std::string why;
  std::optional<OperandImage> img = OperandImage::get(lds, chip, &why);
  std::optional<ImageCopyPlan> plan;
  if (img)
    plan = planImageCopy(*img, shape.width, shape.lines, waves, &why);
  if (!plan) // checked before the conversion (checkReady)
    return op.emitOpError("cannot fill a buffer stored in the order of its tile") << why;
  int64_t esize = shape.esize, width = shape.width, perLane = shape.perLane;
  int64_t lineBytes = shape.lineBytes, lines = shape.lines;

  // The lane's part: computed at the function's entry when inbounds (no
  // bounds to test per line), so that it is loop-invariant.
  Value lane;
  {
    OpBuilder::InsertionGuard guard(rw);
    if (op.getInbounds())
      if (auto fn = op->getParentOfType<FunctionOpInterface>())
        rw.setInsertionPointToStart(&fn->getRegion(0).front());
    lane = laneId(rw, loc);
  }
  Value wave = waveId(rw, loc);
  if (someWaves)
    wave = LLVM::URemOp::create(rw, loc, wave, i32(rw, loc, waves));
  Value esizeV = i32(rw, loc, esize);
  Value laneR = laneCoordinate(rw, loc, lane, plan->laneRow);
  Value laneC = laneCoordinate(rw, loc, lane, plan->laneCol);
  Value stride = adaptor.getStride();
  Value laneOff = mul(rw, loc, add(rw, loc, mul(rw, loc, laneR, stride), laneC), esizeV);
  Value zero = i32(rw, loc, 0);
  Value waveR, waveC;
  if (plan->powerOfTwoWaves) {
    waveR = laneCoordinate(rw, loc, wave, plan->waveRow);
    waveC = laneCoordinate(rw, loc, wave, plan->waveCol);
  }
  Value boundRows = adaptor.getBoundRows(), boundCols = adaptor.getBoundCols();
  // With a power-of-two count of waves, every line's offset is one base
  // (the block's origin and the wave's part, plus for a bounded copy the
  // lane's) and a loop-invariant step a line. The base is computed once and
  // used by every line, so LLVM cannot fold the lane's offset into each
  // line's step: that made the bounded copy's per-line lane offsets
  // loop-invariant VGPRs, one a line, which spilled in attention's loop.
  Value baseS, baseV, baseR, baseC;
  if (plan->powerOfTwoWaves) {
    // The block's row through v_readfirstlane (a no-op on the uniform row):
    // opaque to SCEV, so loop strength reduction does not turn each line's
    // offset into an induction variable of its own, which it starts outside
    // the loop (the same invariant register a line, by another route).
    Value row = ROCDL::ReadfirstlaneOp::create(rw, loc, rw.getI32Type(), adaptor.getRow());
    baseR = add(rw, loc, row, waveR);
    baseC = add(rw, loc, adaptor.getCol(), waveC);
    baseS = mul(rw, loc, add(rw, loc, mul(rw, loc, baseR, stride), baseC), esizeV);
    if (!op.getInbounds())
      baseV = add(rw, loc, baseS, laneOff);
  }
  for (int64_t k = 0; k < lines / waves; ++k) {
    // Line L = k waves + wave: with a power-of-two count of waves its
    // wave's part plus line k waves's own (constant), else from L's bits.
    Value L = add(rw, loc, wave, i32(rw, loc, k * waves));
    Value r0, c0, lineOff;
    if (plan->powerOfTwoWaves) {
      int64_t dr = plan->lineRow[k * waves], dc = plan->lineCol[k * waves];
      Value step = mul(rw, loc, add(rw, loc, mul(rw, loc, i32(rw, loc, dr), stride),
                                    i32(rw, loc, dc)),
                       esizeV);
      r0 = add(rw, loc, baseR, i32(rw, loc, dr));
      c0 = add(rw, loc, baseC, i32(rw, loc, dc));
      lineOff = add(rw, loc, op.getInbounds() ? baseS : baseV, step);
    } else {
      Value lineR = laneCoordinate(rw, loc, L, plan->lineRowFields);
      Value lineC = laneCoordinate(rw, loc, L, plan->lineColFields);
      r0 = add(rw, loc, adaptor.getRow(), lineR);
      c0 = add(rw, loc, adaptor.getCol(), lineC);
      lineOff = mul(rw, loc, add(rw, loc, mul(rw, loc, r0, stride), c0), esizeV);
      if (!op.getInbounds())
        lineOff = add(rw, loc, lineOff, laneOff);
    }
    Value dst = ldsAddress(rw, loc, stageBase, mul(rw, loc, L, i32(rw, loc, lineBytes)));
    Value voff, soff;
    if (op.getInbounds()) {
      voff = laneOff;
      soff = lineOff;
    } else {
      voff = lineOff;
      soff = zero;
      if (boundRows) {
        Value r = add(rw, loc, r0, laneR);
        Value lastC = add(rw, loc, add(rw, loc, c0, laneC), i32(rw, loc, perLane - 1));
        Value inR = LLVM::ICmpOp::create(rw, loc, LLVM::ICmpPredicate::ult, r, boundRows);
        Value inC = LLVM::ICmpOp::create(rw, loc, LLVM::ICmpPredicate::ult, lastC, boundCols);
        Value ok = LLVM::AndOp::create(rw, loc, inR, inC);
        voff = LLVM::SelectOp::create(rw, loc, ok, voff, i32(rw, loc, kOutOfRangeOffset));
      }
    }
    auto dma = ROCDL::RawPtrBufferLoadLdsOp::create(
        rw, loc, adaptor.getBuffer(), dst, i32(rw, loc, width), voff, soff, zero, zero,
        ArrayAttr(), ArrayAttr(), ArrayAttr());
    setScopes(dma, scopes);
  }
  rw.eraseOp(op);
  return success();
}

/// tile.async_copy -> buffer_load_dword ... lds. The workgroup's waves share
/// the stage: DMA line j (64 lanes x width bytes) is copied by wave
/// j mod waves. Lane l of line j fetches the `width` bytes at logical
/// element e = (j * 64 + l) * width / esize of the dense block, which land
/// at LDS offset (row(e) * rowStride + col(e)) * esize.
struct AsyncCopyLowering : public TilePattern<AsyncCopyOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(AsyncCopyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    CopyLines shape(op);
    LdsType lds = shape.lds;
    int64_t esize = shape.esize, width = shape.width, perLane = shape.perLane;
    int64_t cols = shape.cols, line = shape.lineBytes, lines = shape.lines;
    std::optional<int64_t> waves = copyWaves(op, facts->blockSizeOf(op));
    if (!waves)
      return op.emitOpError("'waves' must be a compile-time constant after "
                            "specialisation");
    if (lines % *waves != 0)
      return op.emitOpError("the stage is ")
             << lines << " DMA lines of " << line
             << " bytes, which do not split evenly over the workgroup's "
             << *waves << " waves";
    LdsScopes scopes = this->facts->lookup(op.getLds());
    if (lds.getOrderTile()) {
      Value stageBase = ldsAddress(
          rw, loc, adaptor.getLds(),
          mul(rw, loc, adaptor.getStage(), i32(rw, loc, lds.getStageBytes())));
      bool someWaves =
          op.getWaves() && *waves < std::max<int64_t>(1, facts->blockSizeOf(op) / 64);
      return lowerImageCopy(op, adaptor, shape, rw, *waves, someWaves, stageBase, scopes, chip);
    }
    // An inbounds copy's lane offsets depend on nothing but the lane, the
    // wave and the stride: computed from ids at the function's entry, they
    // are loop-invariant and LLVM computes them once, outside the loop
    // around the copy (readfirstlane is convergent and mbcnt not
    // speculatable, so ids computed in a loop's conditional block would keep
    // them there). Other copies keep their ids where they are: their
    // per-lane offsets change with every line anyway.
    Value lane, wave;
    bool wholeRows = (64 * perLane) % cols == 0;
    bool invariantWave =
        wholeRows && *waves > 0 &&
        lines / inboundsGroups(shape, *waves, chip).size / *waves <= kMaxInvariantGroupsPerWave;
    {
      OpBuilder::InsertionGuard guard(rw);
      if (op.getInbounds())
        if (auto fn = op->getParentOfType<FunctionOpInterface>())
          rw.setInsertionPointToStart(&fn->getRegion(0).front());
      lane = laneId(rw, loc);
      if (invariantWave)
        wave = waveId(rw, loc);
    }
    if (!wave)
      wave = waveId(rw, loc);
    // With `waves` naming every wave of the workgroup the copy is the
    // default one (and its code the same: no remainder).
    if (op.getWaves() && *waves < std::max<int64_t>(1, facts->blockSizeOf(op) / 64))
      wave = LLVM::URemOp::create(rw, loc, wave, i32(rw, loc, *waves));
    Value stageBase = ldsAddress(
        rw, loc, adaptor.getLds(),
        mul(rw, loc, adaptor.getStage(), i32(rw, loc, lds.getStageBytes())));
    Value zero = i32(rw, loc, 0);
    Value colsV = i32(rw, loc, cols);
    int64_t lineElems = 64 * perLane;
    int64_t perWave = lines / *waves;
    Value laneElem = mul(rw, loc, lane, i32(rw, loc, perLane));
    Value esizeV = i32(rw, loc, esize);
    Value boundRows = adaptor.getBoundRows(), boundCols = adaptor.getBoundCols();
    if (lineElems % cols == 0 && op.getInbounds())
      return lowerInboundsLines(op, adaptor, shape, rw, lane, wave, *waves, stageBase, scopes,
                                chip);
    if (lineElems % cols == 0) {
      // Lines hold whole rows (rpl of them), so a lane sits at the same
      // (row, col) of every line: its part of the address is computed once,
      // and line k of this wave starts waves * rpl rows after line k - 1.
      // The hardware's range check (which ignores the scalar offset) needs
      // each line's whole offset in the lane's VGPR: one vector add a line
      // (plus, with bounds, the lanes outside them selecting the
      // out-of-range offset).
      int64_t rpl = lineElems / cols;
      Value laneR = LLVM::UDivOp::create(rw, loc, laneElem, colsV);
      Value laneC = LLVM::URemOp::create(rw, loc, laneElem, colsV);
      Value waveRow = mul(rw, loc, wave, i32(rw, loc, rpl));
      Value rowsLeft;
      if (boundRows) {
        // Row r0 + laneR of the block is inside when r0 < bound - row - laneR
        // (signed: the block may start past the end).
        rowsLeft = LLVM::SubOp::create(rw, 
            loc, LLVM::SubOp::create(rw, loc, boundRows, adaptor.getRow()), laneR);
      }
      // The lane's byte offset from the line's first row, and (with bounds)
      // whether its columns are inside them. In a swizzled buffer the lane
      // fetches the column whose chunk lands at laneC in its LDS row; that
      // row advances waves * rpl per line, so the column depends only on
      // that step's residue mod (swizzle x row group): one per residue, all
      // computed here, outside any loop around the copy.
      int64_t swizzle = lds.getSwizzle();
      struct LanePart {
        Value offBytes, colsOk;
      };
      llvm::SmallDenseMap<int64_t, LanePart> laneParts;
      auto lanePart = [&](int64_t k) {
        int64_t period = swizzle * lds.getSwizzleRowGroup(bankLineBytes(chip));
        int64_t residue = swizzle ? (k * *waves * rpl) % period : 0;
        LanePart &p = laneParts[residue];
        if (!p.offBytes) {
          Value c = laneC;
          if (swizzle) {
            Value ldsRow = add(rw, loc, add(rw, loc, waveRow, laneR), i32(rw, loc, residue));
            c = swizzledColumn(rw, loc, lds, bankLineBytes(chip), ldsRow, laneC);
          }
          p.offBytes =
              mul(rw, loc, add(rw, loc, mul(rw, loc, laneR, adaptor.getStride()), c), esizeV);
          if (boundRows) {
            Value lastC = add(rw, loc, add(rw, loc, adaptor.getCol(), c), i32(rw, loc, perLane - 1));
            p.colsOk = LLVM::ICmpOp::create(rw, loc, LLVM::ICmpPredicate::ult, lastC, boundCols);
          }
        }
        return p;
      };
      Value firstRow = add(rw, loc, adaptor.getRow(), waveRow);
      Value cur = mul(rw, loc,
                      add(rw, loc, mul(rw, loc, firstRow, adaptor.getStride()), adaptor.getCol()),
                      esizeV);
      Value step = mul(rw, loc, mul(rw, loc, i32(rw, loc, *waves * rpl), adaptor.getStride()),
                       esizeV);
      int64_t ldsStep = *waves * rpl * lds.getRowStride() * esize;
      Value ldsCur = mul(rw, loc, waveRow, i32(rw, loc, lds.getRowStride() * esize));
      Value rowCur = waveRow;
      for (int64_t k = 0; k < perWave; ++k) {
        LanePart part = lanePart(k);
        Value voff = add(rw, loc, cur, part.offBytes);
        if (boundRows) {
          Value inR = LLVM::ICmpOp::create(rw, loc, LLVM::ICmpPredicate::slt, rowCur, rowsLeft);
          Value ok = LLVM::AndOp::create(rw, loc, inR, part.colsOk);
          voff = LLVM::SelectOp::create(rw, loc, ok, voff, i32(rw, loc, kOutOfRangeOffset));
        }
        Value dst = ldsAddress(rw, loc, stageBase, ldsCur);
        auto dma = ROCDL::RawPtrBufferLoadLdsOp::create(rw, 
            loc, adaptor.getBuffer(), dst, i32(rw, loc, width), voff, zero, zero,
            zero, ArrayAttr(), ArrayAttr(), ArrayAttr());
        setScopes(dma, scopes);
        if (k + 1 < perWave) {
          cur = add(rw, loc, cur, step);
          ldsCur = add(rw, loc, ldsCur, i32(rw, loc, ldsStep));
          rowCur = add(rw, loc, rowCur, i32(rw, loc, *waves * rpl));
        }
      }
      rw.eraseOp(op);
      return success();
    }
    // Otherwise (rows longer than a line, or lines that end mid-row) every
    // lane finds its element of each line by division.
    Value blockOrigin = mul(
        rw, loc, add(rw, loc, mul(rw, loc, adaptor.getRow(), adaptor.getStride()), adaptor.getCol()),
        esizeV);
    for (int64_t k = 0; k < perWave; ++k) {
      // Line j = k * waves + wave (uniform).
      Value j = add(rw, loc, i32(rw, loc, k * *waves), wave);
      Value lineElem = mul(rw, loc, j, i32(rw, loc, lineElems));
      Value r0 = LLVM::UDivOp::create(rw, loc, lineElem, colsV);
      Value c0 = LLVM::URemOp::create(rw, loc, lineElem, colsV);
      Value e = add(rw, loc, lineElem, laneElem);
      Value r = LLVM::UDivOp::create(rw, loc, e, colsV);
      Value c = LLVM::URemOp::create(rw, loc, e, colsV);
      if (lds.getSwizzle()) // the column whose chunk lands at c
        c = swizzledColumn(rw, loc, lds, bankLineBytes(chip), r, c);
      Value gr = add(rw, loc, adaptor.getRow(), r);
      Value gc = add(rw, loc, adaptor.getCol(), c);
      // Inbounds, the block's origin is the scalar offset (as above).
      Value off, soff = zero;
      if (op.getInbounds()) {
        off = mul(rw, loc, add(rw, loc, mul(rw, loc, r, adaptor.getStride()), c), esizeV);
        soff = blockOrigin;
      } else {
        off = mul(rw, loc, add(rw, loc, mul(rw, loc, gr, adaptor.getStride()), gc), esizeV);
      }
      if (boundRows) {
        Value inR = LLVM::ICmpOp::create(rw, loc, LLVM::ICmpPredicate::ult, gr, boundRows);
        Value lastC = add(rw, loc, gc, i32(rw, loc, perLane - 1));
        Value inC = LLVM::ICmpOp::create(rw, loc, LLVM::ICmpPredicate::ult, lastC, boundCols);
        Value ok = LLVM::AndOp::create(rw, loc, inR, inC);
        off = LLVM::SelectOp::create(rw, loc, ok, off, i32(rw, loc, kOutOfRangeOffset));
      }
      // The LDS address of the line (uniform: it goes to M0).
      Value ldsOff = mul(rw, loc,
                         add(rw, loc, mul(rw, loc, r0, i32(rw, loc, lds.getRowStride())), c0),
                         esizeV);
      Value dst = ldsAddress(rw, loc, stageBase, ldsOff);
      auto dma = ROCDL::RawPtrBufferLoadLdsOp::create(rw, 
          loc, adaptor.getBuffer(), dst, i32(rw, loc, width), off, soff, zero,
          zero, ArrayAttr(), ArrayAttr(), ArrayAttr());
      setScopes(dma, scopes);
    }
    rw.eraseOp(op);
    return success();
  }
};

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
// Waits
//===----------------------------------------------------------------------===//

namespace {

/// The s_waitcnt immediate of gfx9: vmcnt[3:0] in bits 3:0, vmcnt[5:4] in
/// bits 15:14, expcnt (not waited: 7) in 6:4, lgkmcnt in 11:8.
int64_t waitcntBits(int64_t vm, int64_t lgkm) {
  return (vm & 0xF) | ((vm >> 4) << 14) | (7 << 4) | (lgkm << 8);
}

/// tile.wait -> s_waitcnt with the gfx9 encoding: vmcnt[3:0] in bits 3:0 and
/// vmcnt[5:4] in bits 15:14, expcnt in 6:4, lgkmcnt in 11:8. Counters not
/// named are left at their maximum (not waited on).
struct WaitLowering : public TilePattern<WaitOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(WaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    int64_t vm = op.getVmcnt() ? *op.getVmcnt() : 63;
    int64_t lgkm = op.getLgkmcnt() ? *op.getLgkmcnt() : 15;
    rw.replaceOpWithNewOp<ROCDL::SWaitcntOp>(op, waitcntBits(vm, lgkm));
    return success();
  }
};

/// tile.wait_vmcnt -> s_waitcnt vmcnt(N) for the constant N the count folded
/// to (counts above the counter's 63 wait on nothing).
struct WaitVmcntLowering : public TilePattern<WaitVmcntOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(WaitVmcntOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    // checkReady made sure the count folds to a non-negative constant.
    int64_t vm = std::min<int64_t>(*foldToConstant(op.getCount()), 63);
    rw.replaceOpWithNewOp<ROCDL::SWaitcntOp>(op, waitcntBits(vm, 15));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern registration
//===----------------------------------------------------------------------===//

void kcc::populateTileMemoryToROCDLPatterns(LLVMTypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            Chip chip, const KernelFacts &facts) {
  patterns.add<MakeBufferLowering, PtrAddLowering, LoadLowering, StoreLowering,
               LdsAllocLowering, AsyncCopyLowering, LdsLoadLowering,
               LdsStoreLowering, WaitLowering,
               WaitVmcntLowering>(converter, chip, &facts);
}
