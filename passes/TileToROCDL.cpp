//===- TileToROCDL.cpp - Lower tile kernels to LLVM + ROCDL ---------------===//
//
// Each tile value becomes, in every lane, an LLVM vector of the elements that
// lane holds (LayoutMap gives the order). Memory operations compute one
// per-lane base from the layout's lane bit fields and add per-register
// constants, so the backend folds them into instruction offsets. One
// conversion pattern per op; populateTileToROCDLPatterns collects them and
// ConvertTileToROCDLPass runs them together with the upstream arith, cf and
// func lowerings.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/ConstantFold.h"

#include "dialects/Tile/Layout.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kcc {
#define GEN_PASS_DEF_CONVERTTILETOROCDL
#include "passes/Passes.h.inc"
} // namespace kcc

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {

/// A buffer offset that is out of range of every buffer kcc makes (their
/// sizes stay below 2 GiB), so the hardware returns 0 for loads and drops
/// stores: how masked elements are handled.
constexpr int64_t kOutOfRangeOffset = 0x80000000LL;

/// Buffer descriptor word 3 for CDNA: a non-zero data format (ignored by the
/// raw buffer instructions but required to be non-zero), everything else 0.
constexpr int32_t kBufferFlags = (7 << 12) | (4 << 15);

Value i32(OpBuilder &b, Location loc, int64_t v) {
  return b.create<LLVM::ConstantOp>(loc, b.getI32Type(), b.getI32IntegerAttr(v));
}

Value add(OpBuilder &b, Location loc, Value x, Value y) {
  return b.create<LLVM::AddOp>(loc, x, y);
}

Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  return b.create<LLVM::MulOp>(loc, x, y);
}

/// The lane of this work-item in its wave (v_mbcnt).
Value laneId(OpBuilder &b, Location loc) {
  Value minusOne = i32(b, loc, -1);
  Value lo = b.create<ROCDL::MbcntLoOp>(loc, b.getI32Type(), minusOne,
                                        i32(b, loc, 0), ArrayAttr(), ArrayAttr());
  return b.create<ROCDL::MbcntHiOp>(loc, b.getI32Type(), minusOne, lo,
                                    ArrayAttr(), ArrayAttr());
}

/// sum over fields of ((lane >> shift) & mask) * scale.
Value laneCoordinate(OpBuilder &b, Location loc, Value lane,
                     ArrayRef<LaneBitField> fields) {
  Value acc = i32(b, loc, 0);
  for (const LaneBitField &f : fields) {
    Value v = f.shift ? (Value)b.create<LLVM::LShrOp>(loc, lane, i32(b, loc, f.shift))
                      : lane;
    v = b.create<LLVM::AndOp>(loc, v, i32(b, loc, f.mask));
    if (f.scale != 1)
      v = mul(b, loc, v, i32(b, loc, f.scale));
    acc = add(b, loc, acc, v);
  }
  return acc;
}

/// The layout map of a tile type that the pass checked to be resolved.
LayoutMap layoutOf(TileType type) {
  std::optional<LayoutMap> map = LayoutMap::get(type);
  assert(map && "tile types are checked before the conversion runs");
  return *map;
}

Value poison(OpBuilder &b, Location loc, Type type) {
  return b.create<LLVM::PoisonOp>(loc, type);
}

Value extract(OpBuilder &b, Location loc, Value vec, int64_t i) {
  return b.create<LLVM::ExtractElementOp>(loc, vec, i32(b, loc, i));
}

Value insert(OpBuilder &b, Location loc, Value vec, Value v, int64_t i) {
  return b.create<LLVM::InsertElementOp>(loc, vec, v, i32(b, loc, i));
}

/// Elements [first, first + n) of `vec` as a vector<n>.
Value slice(OpBuilder &b, Location loc, Value vec, int64_t first, int64_t n) {
  SmallVector<int32_t> mask;
  for (int64_t i = 0; i < n; ++i)
    mask.push_back(first + i);
  return b.create<LLVM::ShuffleVectorOp>(loc, vec, vec, mask);
}

/// Bytes moved per memory instruction are at most 16 (dwordx4, b128).
constexpr int64_t kMaxAccessBytes = 16;

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

/// Runs of registers that one memory instruction can move: consecutive
/// columns of one array row, a power-of-two number of bytes up to 16 (or a
/// single element).
SmallVector<std::pair<int64_t, int64_t>> accessRuns(const MemoryView &view,
                                                    int64_t esize) {
  SmallVector<std::pair<int64_t, int64_t>> runs;
  int64_t maxElems = std::max<int64_t>(1, kMaxAccessBytes / esize);
  for (int64_t i = 0; i < view.map.numRegs();) {
    int64_t n = std::min(view.contiguousRun(i), maxElems);
    while (n > 1 && (!llvm::isPowerOf2_64(n * esize) || (n * esize) % 4))
      --n;
    runs.push_back({i, n});
    i += n;
  }
  return runs;
}

/// The waves that share an async copy: its `waves` operand (a constant once
/// specialised) or the whole workgroup.
std::optional<int64_t> copyWaves(AsyncCopyOp op, int64_t blockSize) {
  if (!op.getWaves())
    return std::max<int64_t>(1, blockSize / 64);
  return foldToConstant(op.getWaves());
}

/// Alias scopes of an LDS access: its own buffer's scope, and no-alias with
/// every other buffer of the kernel.
struct LdsScopes {
  ArrayAttr scopes, noalias;
};

} // namespace

namespace kcc {
/// Facts about the kernels gathered before the conversion, while every op
/// still sits in its func.func (the conversion turns those into llvm.funcs
/// in whatever order it likes): LDS alias scopes, LDS array names, and the
/// workgroup size of the kernel around each op.
class KernelFacts {
public:
  void build(func::FuncOp func) {
    MLIRContext *ctx = func.getContext();
    auto domain = LLVM::AliasScopeDomainAttr::get(
        ctx, StringAttr::get(ctx, ("kcc LDS of " + func.getSymName()).str()));
    auto blockAttr = func->getAttrOfType<IntegerAttr>(TileDialect::kBlockSizeAttrName);
    int64_t block = blockAttr ? blockAttr.getInt() : 64;
    std::string global = ("__kcc_lds." + func.getSymName()).str();
    func.walk([&](Operation *op) {
      blockSize[op] = block;
      if (auto alloc = dyn_cast<LdsAllocOp>(op)) {
        auto scope = LLVM::AliasScopeAttr::get(domain, alloc.getNameAttr());
        byAlloc[op] = scope;
        all[func.getOperation()].push_back(scope);
        funcOf[op] = func.getOperation();
        ldsGlobal[op] = global;
      }
    });
  }

  LdsScopes lookup(Value lds) const {
    auto alloc = lds.getDefiningOp<LdsAllocOp>();
    if (!alloc)
      return {};
    auto it = byAlloc.find(alloc.getOperation());
    if (it == byAlloc.end())
      return {};
    MLIRContext *ctx = alloc.getContext();
    SmallVector<Attribute> others;
    for (LLVM::AliasScopeAttr s : all.lookup(funcOf.lookup(alloc.getOperation())))
      if (s != it->second)
        others.push_back(s);
    return {ArrayAttr::get(ctx, {it->second}),
            others.empty() ? ArrayAttr() : ArrayAttr::get(ctx, others)};
  }

  /// Work-items per workgroup of the kernel around `op` (64 if unknown).
  int64_t blockSizeOf(Operation *op) const {
    auto it = blockSize.find(op);
    return it == blockSize.end() ? 64 : it->second;
  }

  /// The LDS array symbol of the kernel that allocates `alloc`.
  StringRef ldsGlobalOf(Operation *alloc) const {
    auto it = ldsGlobal.find(alloc);
    return it == ldsGlobal.end() ? StringRef() : StringRef(it->second);
  }

private:
  llvm::DenseMap<Operation *, LLVM::AliasScopeAttr> byAlloc;
  llvm::DenseMap<Operation *, SmallVector<LLVM::AliasScopeAttr>> all;
  llvm::DenseMap<Operation *, Operation *> funcOf;
  llvm::DenseMap<Operation *, int64_t> blockSize;
  llvm::DenseMap<Operation *, std::string> ldsGlobal;
};

} // namespace kcc

namespace {

void setScopes(Operation *op, const LdsScopes &s) {
  if (auto iface = dyn_cast<LLVM::AliasAnalysisOpInterface>(op)) {
    if (s.scopes)
      iface.setAliasScopes(s.scopes);
    if (s.noalias)
      iface.setNoAliasScopes(s.noalias);
  }
}

template <typename Op>
struct TilePattern : public ConvertOpToLLVMPattern<Op> {
  TilePattern(LLVMTypeConverter &converter, Chip chip, const KernelFacts *facts)
      : ConvertOpToLLVMPattern<Op>(converter), chip(chip), facts(facts) {}
  Chip chip;
  const KernelFacts *facts;
};

} // namespace

//===----------------------------------------------------------------------===//
// Ids
//===----------------------------------------------------------------------===//

namespace {

/// tile.program_id -> the workgroup id SGPR.
struct ProgramIdLowering : public TilePattern<ProgramIdOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(ProgramIdOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    Type i32t = rw.getI32Type();
    Value v;
    switch (op.getDim()) {
    case 0: v = rw.create<ROCDL::BlockIdXOp>(op.getLoc(), i32t); break;
    case 1: v = rw.create<ROCDL::BlockIdYOp>(op.getLoc(), i32t); break;
    default: v = rw.create<ROCDL::BlockIdZOp>(op.getLoc(), i32t); break;
    }
    rw.replaceOp(op, v);
    return success();
  }
};

/// tile.num_programs -> hidden_block_count_{x,y,z}, the first three words of
/// the code object v5 implicit kernel arguments.
struct NumProgramsLowering : public TilePattern<NumProgramsOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(NumProgramsOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    auto ptr4 = LLVM::LLVMPointerType::get(rw.getContext(), 4);
    Value base = rw.create<LLVM::CallIntrinsicOp>(
                       loc, ptr4, rw.getStringAttr("llvm.amdgcn.implicitarg.ptr"),
                       ValueRange{})
                     .getResult(0);
    Value addr = rw.create<LLVM::GEPOp>(loc, ptr4, rw.getI8Type(), base,
                                        ArrayRef<LLVM::GEPArg>{4 * (int32_t)op.getDim()});
    Value count = rw.create<LLVM::LoadOp>(loc, rw.getI32Type(), addr, 4,
                                          /*isVolatile=*/false,
                                          /*isNonTemporal=*/false,
                                          /*isInvariant=*/true);
    rw.replaceOp(op, count);
    return success();
  }
};

/// tile.wave_id -> readfirstlane(workitem_id.x / 64): uniform, in an SGPR.
struct WaveIdLowering : public TilePattern<WaveIdOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(WaveIdOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value tid = rw.create<ROCDL::ThreadIdXOp>(loc, rw.getI32Type());
    Value wave = rw.create<LLVM::LShrOp>(loc, tid, i32(rw, loc, 6));
    rw.replaceOpWithNewOp<ROCDL::ReadfirstlaneOp>(op, rw.getI32Type(), wave);
    return success();
  }
};

struct LaneIdLowering : public TilePattern<LaneIdOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(LaneIdOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOp(op, laneId(rw, op.getLoc()));
    return success();
  }
};

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
    Value n = rw.create<LLVM::ZExtOp>(loc, rw.getI64Type(), adaptor.getNumElements());
    Value bytes = rw.create<LLVM::MulOp>(
        loc, n, rw.create<LLVM::ConstantOp>(loc, rw.getI64Type(), rw.getI64IntegerAttr(esize)));
    Value stride = rw.create<LLVM::ConstantOp>(loc, rw.getI16Type(), rw.getI16IntegerAttr(0));
    auto rsrcType = LLVM::LLVMPointerType::get(rw.getContext(), 8);
    rw.replaceOpWithNewOp<ROCDL::MakeBufferRsrcOp>(op, rsrcType, adaptor.getPtr(),
                                                   stride, bytes,
                                                   i32(rw, loc, kBufferFlags));
    return success();
  }
};

/// tile.ptr_add -> getelementptr on the global pointer.
struct PtrAddLowering : public TilePattern<PtrAddOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(PtrAddOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Type elt = typeConverter->convertType(op.getPtr().getType().getElementType());
    rw.replaceOpWithNewOp<LLVM::GEPOp>(op, adaptor.getPtr().getType(), elt,
                                       adaptor.getPtr(),
                                       ArrayRef<LLVM::GEPArg>{adaptor.getOffset()});
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
/// c .. lastCol of that row is outside them.
Value elementOffset(OpBuilder &b, Location loc, LaneOrigin origin, int64_t r,
                    int64_t c, Value stride, int64_t esize, Value boundRows,
                    Value boundCols, int64_t lastCol) {
  Value rr = add(b, loc, origin.row, i32(b, loc, r));
  Value cc = add(b, loc, origin.col, i32(b, loc, c));
  Value off = mul(b, loc, add(b, loc, mul(b, loc, rr, stride), cc),
                  i32(b, loc, esize));
  if (!boundRows)
    return off;
  Value inRows = b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ult, rr, boundRows);
  Value last = add(b, loc, origin.col, i32(b, loc, lastCol));
  Value inCols = b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ult, last, boundCols);
  Value ok = b.create<LLVM::AndOp>(loc, inRows, inCols);
  return b.create<LLVM::SelectOp>(loc, ok, off, i32(b, loc, kOutOfRangeOffset));
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
      Value v = rw.create<ROCDL::RawPtrBufferLoadOp>(loc, raw, adaptor.getBuffer(),
                                                     off, zero, zero, ArrayAttr(),
                                                     ArrayAttr(), ArrayAttr());
      Value elems = rw.create<LLVM::BitcastOp>(loc, VectorType::get({n}, elt), v);
      for (int64_t k = 0; k < n; ++k) {
        Value e = extract(rw, loc, elems, k);
        if (bounded && k > 0) {
          Value c = add(rw, loc, origin.col, i32(rw, loc, view.colOfReg(first) + k));
          Value in = rw.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ult, c,
                                             adaptor.getBoundCols());
          Value z = rw.create<LLVM::ZeroOp>(loc, elt);
          e = rw.create<LLVM::SelectOp>(loc, in, e, z);
        }
        result = insert(rw, loc, result, e, first + k);
      }
    }
    rw.replaceOp(op, result);
    return success();
  }
};

/// tile.store -> buffer stores; with bounds, one store per element so that
/// each is dropped or kept on its own.
struct StoreLowering : public TilePattern<StoreOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    TileType type = op.getValue().getType();
    LayoutMap map = layoutOf(type);
    Type elt = typeConverter->convertType(type.getElementType());
    int64_t esize = elementBytes(type.getElementType());
    MemoryView view{map, op.getTranspose()};
    LaneOrigin origin = laneOrigin(rw, loc, view, adaptor.getRow(), adaptor.getCol());
    Value zero = i32(rw, loc, 0);
    bool bounded = adaptor.getBoundRows() != nullptr;
    SmallVector<std::pair<int64_t, int64_t>> runs;
    if (bounded)
      for (int64_t i = 0; i < map.numRegs(); ++i)
        runs.push_back({i, 1});
    else
      runs = accessRuns(view, esize);
    for (auto [first, n] : runs) {
      Value off = elementOffset(rw, loc, origin, view.rowOfReg(first),
                                view.colOfReg(first), adaptor.getStride(), esize,
                                adaptor.getBoundRows(), adaptor.getBoundCols(),
                                view.colOfReg(first));
      Value elems = slice(rw, loc, adaptor.getValue(), first, n);
      if (n == 1)
        elems = extract(rw, loc, adaptor.getValue(), first);
      Type raw = accessType(rw, n * esize);
      Value v = rw.create<LLVM::BitcastOp>(loc, raw, elems);
      rw.create<ROCDL::RawPtrBufferStoreOp>(loc, v, adaptor.getBuffer(), off, zero,
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
    Value base = rw.create<LLVM::AddressOfOp>(loc, ptr3, global);
    Value p = rw.create<LLVM::GEPOp>(loc, ptr3, rw.getI8Type(), base,
                                     ArrayRef<LLVM::GEPArg>{(int32_t)*op.getOffset()},
                                     LLVM::GEPNoWrapFlags::inbounds);
    rw.replaceOp(op, p);
    return success();
  }
};

/// The address of byte `byteOffset` (uniform or per-lane) in LDS.
Value ldsAddress(OpBuilder &b, Location loc, Value base, Value byteOffset) {
  auto ptr3 = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return b.create<LLVM::GEPOp>(loc, ptr3, b.getI8Type(), base,
                               ArrayRef<LLVM::GEPArg>{byteOffset},
                               LLVM::GEPNoWrapFlags::inbounds);
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
    LdsType lds = op.getLds().getType();
    int64_t esize = elementBytes(lds.getElementType());
    int64_t width = op.getWidth();
    int64_t perLane = width / esize;
    int64_t cols = lds.getCols();
    int64_t line = 64 * width;
    int64_t lines = lds.getRows() * cols * esize / line;
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
    Value lane = laneId(rw, loc);
    Value tid = rw.create<ROCDL::ThreadIdXOp>(loc, rw.getI32Type());
    Value wave = rw.create<ROCDL::ReadfirstlaneOp>(
        loc, rw.getI32Type(), rw.create<LLVM::LShrOp>(loc, tid, i32(rw, loc, 6)));
    if (op.getWaves())
      wave = rw.create<LLVM::URemOp>(loc, wave, i32(rw, loc, *waves));
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
    if (lineElems % cols == 0) {
      // Lines hold whole rows (rpl of them), so a lane sits at the same
      // (row, col) of every line: its part of the address is computed once,
      // and line k of this wave starts waves * rpl rows after line k - 1.
      // Per line that is one scalar add and one vector add (plus the row
      // bound check when bounds are given).
      int64_t rpl = lineElems / cols;
      Value laneR = rw.create<LLVM::UDivOp>(loc, laneElem, colsV);
      Value laneC = rw.create<LLVM::URemOp>(loc, laneElem, colsV);
      Value laneOffBytes =
          mul(rw, loc, add(rw, loc, mul(rw, loc, laneR, adaptor.getStride()), laneC), esizeV);
      Value waveRow = mul(rw, loc, wave, i32(rw, loc, rpl));
      Value firstRow = add(rw, loc, adaptor.getRow(), waveRow);
      Value cur = mul(rw, loc,
                      add(rw, loc, mul(rw, loc, firstRow, adaptor.getStride()), adaptor.getCol()),
                      esizeV);
      Value step = mul(rw, loc, mul(rw, loc, i32(rw, loc, *waves * rpl), adaptor.getStride()),
                       esizeV);
      Value rowsLeft, colsOk;
      if (boundRows) {
        // Row r0 + laneR of the block is inside when r0 < bound - row - laneR
        // (signed: the block may start past the end); the columns of a
        // lane are the same in every line.
        rowsLeft = rw.create<LLVM::SubOp>(
            loc, rw.create<LLVM::SubOp>(loc, boundRows, adaptor.getRow()), laneR);
        Value lastC = add(rw, loc, add(rw, loc, adaptor.getCol(), laneC), i32(rw, loc, perLane - 1));
        colsOk = rw.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ult, lastC, boundCols);
      }
      int64_t ldsStep = *waves * rpl * lds.getRowStride() * esize;
      Value ldsCur = mul(rw, loc, waveRow, i32(rw, loc, lds.getRowStride() * esize));
      Value rowCur = waveRow;
      for (int64_t k = 0; k < perWave; ++k) {
        Value off = add(rw, loc, cur, laneOffBytes);
        if (boundRows) {
          Value inR = rw.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::slt, rowCur, rowsLeft);
          Value ok = rw.create<LLVM::AndOp>(loc, inR, colsOk);
          off = rw.create<LLVM::SelectOp>(loc, ok, off, i32(rw, loc, kOutOfRangeOffset));
        }
        Value dst = ldsAddress(rw, loc, stageBase, ldsCur);
        auto dma = rw.create<ROCDL::RawPtrBufferLoadLdsOp>(
            loc, adaptor.getBuffer(), dst, i32(rw, loc, width), off, zero, zero,
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
    for (int64_t k = 0; k < perWave; ++k) {
      // Line j = k * waves + wave (uniform).
      Value j = add(rw, loc, i32(rw, loc, k * *waves), wave);
      Value lineElem = mul(rw, loc, j, i32(rw, loc, lineElems));
      Value r0 = rw.create<LLVM::UDivOp>(loc, lineElem, colsV);
      Value c0 = rw.create<LLVM::URemOp>(loc, lineElem, colsV);
      Value e = add(rw, loc, lineElem, laneElem);
      Value r = rw.create<LLVM::UDivOp>(loc, e, colsV);
      Value c = rw.create<LLVM::URemOp>(loc, e, colsV);
      Value gr = add(rw, loc, adaptor.getRow(), r);
      Value gc = add(rw, loc, adaptor.getCol(), c);
      Value off = mul(rw, loc, add(rw, loc, mul(rw, loc, gr, adaptor.getStride()), gc), esizeV);
      if (boundRows) {
        Value inR = rw.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ult, gr, boundRows);
        Value lastC = add(rw, loc, gc, i32(rw, loc, perLane - 1));
        Value inC = rw.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ult, lastC, boundCols);
        Value ok = rw.create<LLVM::AndOp>(loc, inR, inC);
        off = rw.create<LLVM::SelectOp>(loc, ok, off, i32(rw, loc, kOutOfRangeOffset));
      }
      // The LDS address of the line (uniform: it goes to M0).
      Value ldsOff = mul(rw, loc,
                         add(rw, loc, mul(rw, loc, r0, i32(rw, loc, lds.getRowStride())), c0),
                         esizeV);
      Value dst = ldsAddress(rw, loc, stageBase, ldsOff);
      auto dma = rw.create<ROCDL::RawPtrBufferLoadLdsOp>(
          loc, adaptor.getBuffer(), dst, i32(rw, loc, width), off, zero, zero,
          zero, ArrayAttr(), ArrayAttr(), ArrayAttr());
      setScopes(dma, scopes);
    }
    rw.eraseOp(op);
    return success();
  }
};

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

/// The LDS address of (lane part of) register 0 of a tile: stage base plus
/// (row + rowL(lane)) * rowStride + col + colL(lane) elements.
Value ldsLaneBase(OpBuilder &b, Location loc, const MemoryView &view, LdsType lds,
                  Value ldsPtr, Value stage, Value row, Value col) {
  int64_t esize = elementBytes(lds.getElementType());
  LaneOrigin o = laneOrigin(b, loc, view, row, col);
  Value elem = add(b, loc, mul(b, loc, o.row, i32(b, loc, lds.getRowStride())), o.col);
  Value bytes = add(b, loc, mul(b, loc, stage, i32(b, loc, lds.getStageBytes())),
                    mul(b, loc, elem, i32(b, loc, esize)));
  return ldsAddress(b, loc, ldsPtr, bytes);
}

/// True when ds_read_b64_tr_b16 can produce the tile's registers: 16-bit
/// elements, no two registers of a lane adjacent in LDS, a multiple of four
/// registers, and lanes 4q..4q+3 of every group holding adjacent LDS
/// elements (the instruction hands lane 4q+j the j-th element that lane
/// (l & 0x30) | (i << 2) | q of its group read).
bool fitsTransposingRead(const MemoryView &view, int64_t esize) {
  if (esize != 2 || view.map.numRegs() % 4 != 0)
    return false;
  for (int64_t i = 0; i < view.map.numRegs(); ++i)
    if (view.contiguousRun(i) != 1)
      return false;
  for (unsigned j = 1; j < 4; ++j)
    if (view.rowOfLane(j) != 0 || view.colOfLane(j) != (int64_t)j)
      return false;
  return true;
}

/// tile.lds_load -> ds_read_b16..b128, or ds_read_b64_tr_b16 on gfx950 when
/// each lane's registers run down an LDS column.
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
    if (chip == Chip::gfx950 && fitsTransposingRead(view, esize))
      return lowerTransposing(op, adaptor, rw, view, lds, resultType, scopes);
    Value base = ldsLaneBase(rw, loc, view, lds, adaptor.getLds(), adaptor.getStage(),
                             adaptor.getRow(), adaptor.getCol());
    Value result = poison(rw, loc, resultType);
    for (auto [first, n] : accessRuns(view, esize)) {
      int64_t off = (view.rowOfReg(first) * lds.getRowStride() + view.colOfReg(first)) * esize;
      Value p = ldsAddress(rw, loc, base, i32(rw, loc, off));
      auto vt = VectorType::get({n}, elt);
      auto load = rw.create<LLVM::LoadOp>(loc, vt, p, /*alignment=*/n * esize);
      setScopes(load, scopes);
      for (int64_t k = 0; k < n; ++k)
        result = insert(rw, loc, result, extract(rw, loc, load, k), first + k);
    }
    rw.replaceOp(op, result);
    return success();
  }

  /// Registers 4t..4t+3 come from one ds_read_b64_tr_b16 in which lane s
  /// points at the four adjacent elements that lanes
  /// l0 = (s & 0x30) | ((s & 3) << 2) + 0..3 want as register 4t + ((s >> 2) & 3).
  LogicalResult lowerTransposing(LdsLoadOp op, OpAdaptor adaptor,
                                 ConversionPatternRewriter &rw,
                                 const MemoryView &view, LdsType lds,
                                 VectorType resultType,
                                 const LdsScopes &scopes) const {
    Location loc = op.getLoc();
    int64_t esize = 2;
    int64_t stride = lds.getRowStride();
    Value s = laneId(rw, loc);
    Value l0 = rw.create<LLVM::OrOp>(
        loc, rw.create<LLVM::AndOp>(loc, s, i32(rw, loc, 0x30)),
        rw.create<LLVM::ShlOp>(loc, rw.create<LLVM::AndOp>(loc, s, i32(rw, loc, 3)),
                               i32(rw, loc, 2)));
    Value u = rw.create<LLVM::AndOp>(
        loc, rw.create<LLVM::LShrOp>(loc, s, i32(rw, loc, 2)), i32(rw, loc, 3));
    // Array coordinates of lane l0's register 0, then its LDS byte address.
    Value row = add(rw, loc, adaptor.getRow(),
                    laneCoordinate(rw, loc, l0, view.rowFields()));
    Value col = add(rw, loc, adaptor.getCol(),
                    laneCoordinate(rw, loc, l0, view.colFields()));
    Value elem = add(rw, loc, mul(rw, loc, row, i32(rw, loc, stride)), col);
    Value bytes = add(rw, loc, mul(rw, loc, adaptor.getStage(), i32(rw, loc, lds.getStageBytes())),
                      mul(rw, loc, elem, i32(rw, loc, esize)));
    Value base = ldsAddress(rw, loc, adaptor.getLds(), bytes);
    Value result = poison(rw, loc, resultType);
    Type elt = resultType.getElementType();
    auto quad = VectorType::get({4}, elt);
    int64_t groups = view.map.numRegs() / 4;
    auto regOffset = [&](int64_t r) {
      return (view.rowOfReg(r) * stride + view.colOfReg(r)) * esize;
    };
    // Register 4t + u's offset, chosen per lane among four constants.
    auto laneChoice = [&](auto offsetOf) {
      Value off = i32(rw, loc, offsetOf(0));
      for (int64_t k = 1; k < 4; ++k) {
        Value isK = rw.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq, u, i32(rw, loc, k));
        off = rw.create<LLVM::SelectOp>(loc, isK, i32(rw, loc, offsetOf(k)), off);
      }
      return off;
    };
    // When register 4t + k lies the same distance from register 4t in every
    // group t (as for MFMA operands), that distance is chosen once per lane
    // and folded into the base: each read's own offset is then an immediate
    // of the instruction, instead of one address register per read held
    // live across the loop.
    bool sameSpacing = true;
    for (int64_t t = 1; t < groups && sameSpacing; ++t)
      for (int64_t k = 1; k < 4; ++k)
        if (regOffset(4 * t + k) - regOffset(4 * t) != regOffset(k) - regOffset(0))
          sameSpacing = false;
    if (sameSpacing)
      base = ldsAddress(rw, loc, base,
                        laneChoice([&](int64_t k) { return regOffset(k) - regOffset(0); }));
    for (int64_t t = 0; t < groups; ++t) {
      Value off = sameSpacing
                      ? i32(rw, loc, regOffset(4 * t))
                      : laneChoice([&](int64_t k) { return regOffset(4 * t + k); });
      Value p = ldsAddress(rw, loc, base, off);
      auto read = rw.create<ROCDL::ds_read_tr16_b64>(loc, quad, p);
      setScopes(read, scopes);
      for (int64_t k = 0; k < 4; ++k)
        result = insert(rw, loc, result, extract(rw, loc, read, k), 4 * t + k);
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
    LayoutMap map = layoutOf(type);
    MemoryView view{map, op.getTranspose()};
    int64_t esize = elementBytes(type.getElementType());
    LdsScopes scopes = this->facts->lookup(op.getLds());
    Value base = ldsLaneBase(rw, loc, view, lds, adaptor.getLds(), adaptor.getStage(),
                             adaptor.getRow(), adaptor.getCol());
    for (auto [first, n] : accessRuns(view, esize)) {
      int64_t off = (view.rowOfReg(first) * lds.getRowStride() + view.colOfReg(first)) * esize;
      Value p = ldsAddress(rw, loc, base, i32(rw, loc, off));
      Value v = n == 1 ? extract(rw, loc, adaptor.getValue(), first)
                       : slice(rw, loc, adaptor.getValue(), first, n);
      auto store = rw.create<LLVM::StoreOp>(loc, v, p, /*alignment=*/n * esize);
      setScopes(store, scopes);
    }
    rw.eraseOp(op);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Compute
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
          av = rw.create<LLVM::BitcastOp>(loc, intr.operandType, av);
          bv = rw.create<LLVM::BitcastOp>(loc, intr.operandType, bv);
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
          widened = rw.create<LLVM::ShuffleVectorOp>(loc, acc, acc, grow);
        }
        result = rw.create<LLVM::ShuffleVectorOp>(loc, result, widened, mask);
      }
    rw.replaceOp(op, result);
    return success();
  }
};

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

/// A scalar f32 intrinsic applied to every register of a lane's vector (the
/// AMDGPU transcendental intrinsics take no vectors).
Value mapF32Intrinsic(OpBuilder &b, Location loc, Value vec, StringRef name) {
  auto vt = cast<VectorType>(vec.getType());
  Value result = poison(b, loc, vt);
  for (int64_t i = 0; i < vt.getNumElements(); ++i) {
    Value x = extract(b, loc, vec, i);
    Value y = b.create<LLVM::CallIntrinsicOp>(loc, b.getF32Type(), b.getStringAttr(name),
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
      lane = rw.create<LLVM::OrOp>(loc, lane, extract(rw, loc, adaptor.getOperand(), i));
    Value ballot = rw.create<ROCDL::BallotOp>(loc, rw.getI64Type(), lane);
    Value zero = rw.create<LLVM::ConstantOp>(loc, rw.getI64Type(), rw.getI64IntegerAttr(0));
    rw.replaceOpWithNewOp<LLVM::ICmpOp>(op, LLVM::ICmpPredicate::ne, ballot, zero);
    return success();
  }
};

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
    } else if (op.getFastRounding() && chip == Chip::gfx942 && to.isBF16()) {
      // Round to nearest even in integer arithmetic: add 0x7fff plus the
      // lowest kept bit and keep the high half (v_bfe_u32 + v_add3_u32 per
      // element, v_perm_b32 per pair); without the NaN check (see the op:
      // numbers and the canonical quiet NaN convert exactly).
      Location loc = op.getLoc();
      auto vt = cast<VectorType>(in.getType());
      auto i32v = VectorType::get(vt.getShape(), rw.getI32Type());
      auto i16v = VectorType::get(vt.getShape(), rw.getI16Type());
      auto splat = [&](int64_t c) {
        return rw.create<LLVM::ConstantOp>(
            loc, i32v, DenseElementsAttr::get(i32v, rw.getI32IntegerAttr(int32_t(c)).getValue()));
      };
      Value bits = rw.create<LLVM::BitcastOp>(loc, i32v, in);
      Value lsb = rw.create<LLVM::AndOp>(
          loc, rw.create<LLVM::LShrOp>(loc, bits, splat(16)), splat(1));
      Value rounded = rw.create<LLVM::AddOp>(
          loc, rw.create<LLVM::AddOp>(loc, bits, splat(0x7fff)), lsb);
      Value high = rw.create<LLVM::TruncOp>(
          loc, i16v, rw.create<LLVM::LShrOp>(loc, rounded, splat(16)));
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
    Value constants = rw.create<LLVM::ConstantOp>(
        loc, vt, DenseElementsAttr::get(vt, ArrayRef<int32_t>(regs)));
    Value one = insert(rw, loc, poison(rw, loc, vt), lane, 0);
    Value splat = rw.create<LLVM::ShuffleVectorOp>(
        loc, one, one, SmallVector<int32_t>(map.numRegs(), 0));
    rw.replaceOpWithNewOp<LLVM::AddOp>(op, splat, constants);
    return success();
  }
};

struct CmpILowering : public TilePattern<CmpIOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(CmpIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    auto pred = static_cast<LLVM::ICmpPredicate>(op.getPredicate());
    rw.replaceOpWithNewOp<LLVM::ICmpOp>(op, pred, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

struct CmpFLowering : public TilePattern<CmpFOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(CmpFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    auto pred = static_cast<LLVM::FCmpPredicate>(op.getPredicate());
    rw.replaceOpWithNewOp<LLVM::FCmpOp>(op, pred, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

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

/// tile.reduce_max / tile.reduce_sum: combine the registers of a lane that
/// hold the same kept coordinate, then exchange across the lane bits on which
/// the reduced coordinate depends: ds_swizzle (xor within 32 lanes) for bits
/// 0-4; for bit 5, v_permlane32_swap on gfx950 and ds_bpermute on gfx942.
template <typename ReduceOp>
struct ReduceLowering : public TilePattern<ReduceOp> {
  using TilePattern<ReduceOp>::TilePattern;

  Value combine(OpBuilder &b, Location loc, Value x, Value y) const {
    if constexpr (std::is_same_v<ReduceOp, ReduceMaxOp>)
      return b.create<LLVM::MaxNumOp>(loc, x, y);
    else if (isa<FloatType>(x.getType()))
      return b.create<LLVM::FAddOp>(loc, x, y);
    else
      return b.create<LLVM::AddOp>(loc, x, y);
  }

  /// The value of `x` in lane (this lane ^ (1 << bit)).
  Value partner(OpBuilder &b, Location loc, Value x, unsigned bit, Value lane) const {
    Type t = x.getType();
    Type i32t = b.getI32Type();
    Value xi = t == i32t ? x : (Value)b.create<LLVM::BitcastOp>(loc, i32t, x);
    Value yi;
    if (bit < 5) {
      // ds_swizzle bit mode: and_mask 0x1f, or_mask 0, xor_mask 1 << bit.
      int64_t offset = (int64_t(1) << bit) << 10 | 0x1f;
      yi = b.create<ROCDL::DsSwizzleOp>(loc, i32t, xi, i32(b, loc, offset));
    } else {
      Value addr = mul(b, loc, b.create<LLVM::XOrOp>(loc, lane, i32(b, loc, 32)),
                       i32(b, loc, 4));
      yi = b.create<ROCDL::DsBpermuteOp>(loc, i32t, addr, xi);
    }
    return t == i32t ? yi : (Value)b.create<LLVM::BitcastOp>(loc, t, yi);
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
      Value acc;
      for (int64_t i = 0; i < in.numRegs(); ++i) {
        if (keptOf(in, 0, i) != keptOf(out, 0, j))
          continue;
        Value x = extract(rw, loc, adaptor.getOperand(), i);
        acc = acc ? combine(rw, loc, acc, x) : x;
      }
      for (unsigned b : bits) {
        if (b == 5 && this->chip == Chip::gfx950) {
          // permlane32_swap(x, x) gives (x[l & 31], x[l | 32]) in every lane:
          // combining the pair is the reduction across the two halves.
          Type i32t = rw.getI32Type();
          Type t = acc.getType();
          Value xi = t == i32t ? acc : (Value)rw.create<LLVM::BitcastOp>(loc, i32t, acc);
          auto pairType = LLVM::LLVMStructType::getLiteral(rw.getContext(), {i32t, i32t});
          Value pair = rw.create<ROCDL::Permlane32SwapOp>(loc, pairType, xi, xi,
                                                          false, false);
          Value first = rw.create<LLVM::ExtractValueOp>(loc, pair, 0);
          Value second = rw.create<LLVM::ExtractValueOp>(loc, pair, 1);
          if (t != i32t) {
            first = rw.create<LLVM::BitcastOp>(loc, t, first);
            second = rw.create<LLVM::BitcastOp>(loc, t, second);
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
// Synchronisation and scheduling
//===----------------------------------------------------------------------===//

namespace {

/// tile.barrier -> workgroup release fence, s_barrier, acquire fence.
struct BarrierLowering : public TilePattern<BarrierOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(BarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    if (!op.getUnfenced())
      rw.create<LLVM::FenceOp>(loc, LLVM::AtomicOrdering::release, "workgroup");
    rw.create<ROCDL::SBarrierOp>(loc);
    if (!op.getUnfenced())
      rw.create<LLVM::FenceOp>(loc, LLVM::AtomicOrdering::acquire, "workgroup");
    rw.eraseOp(op);
    return success();
  }
};

struct SchedBarrierLowering : public TilePattern<SchedBarrierOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(SchedBarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<ROCDL::SchedBarrier>(op, op.getAllowed());
    return success();
  }
};

struct SchedGroupBarrierLowering : public TilePattern<SchedGroupBarrierOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(SchedGroupBarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    SchedGroupAttr g = op.getGroup();
    rw.replaceOpWithNewOp<ROCDL::SchedGroupBarrier>(
        op, static_cast<int32_t>(g.getKind()), g.getCount(), op.getSyncId());
    return success();
  }
};

struct SetPrioLowering : public TilePattern<SetPrioOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(SetPrioOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<ROCDL::SetPrioOp>(op, op.getPriority());
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Multi-GPU: peer memory and flags
//===----------------------------------------------------------------------===//

namespace {

/// LLVM's name for a scope ("" is the whole system).
StringRef syncScope(MemoryScope scope) {
  switch (scope) {
  case MemoryScope::workgroup:
    return "workgroup";
  case MemoryScope::agent:
    return "agent";
  case MemoryScope::system:
    return "";
  }
  return "";
}

/// The address of element `index` of a global i32 array.
Value flagAddress(OpBuilder &b, Location loc, Value flags, Value index) {
  auto ptr1 = LLVM::LLVMPointerType::get(b.getContext(), 1);
  return b.create<LLVM::GEPOp>(loc, ptr1, b.getI32Type(), flags,
                               ArrayRef<LLVM::GEPArg>{index});
}

/// tile.peer_ptr -> ptr - bases[from] + bases[to], the bases read once
/// (uniform loads).
struct PeerPtrLowering : public TilePattern<PeerPtrOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(PeerPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    auto ptr1 = LLVM::LLVMPointerType::get(rw.getContext(), 1);
    Type i64 = rw.getI64Type();
    auto base = [&](Value rank) -> Value {
      Value p = rw.create<LLVM::GEPOp>(loc, ptr1, i64, adaptor.getBases(),
                                       ArrayRef<LLVM::GEPArg>{rank});
      return rw.create<LLVM::LoadOp>(loc, i64, p, 8, /*isVolatile=*/false,
                                     /*isNonTemporal=*/false, /*isInvariant=*/true);
    };
    Value addr = rw.create<LLVM::PtrToIntOp>(loc, i64, adaptor.getPtr());
    Value moved = rw.create<LLVM::AddOp>(
        loc, rw.create<LLVM::SubOp>(loc, addr, base(adaptor.getFrom())),
        base(adaptor.getTo()));
    rw.replaceOpWithNewOp<LLVM::IntToPtrOp>(op, ptr1, moved);
    return success();
  }
};

/// tile.flag_store -> an atomic store with release ordering at the scope
/// (LLVM emits the write-back and waits the memory model asks for).
struct FlagStoreLowering : public TilePattern<FlagStoreOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(FlagStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value p = flagAddress(rw, loc, adaptor.getFlags(), adaptor.getIndex());
    rw.create<LLVM::StoreOp>(loc, adaptor.getValue(), p, 4, /*isVolatile=*/false,
                             /*isNonTemporal=*/false, /*isInvariantGroup=*/false,
                             LLVM::AtomicOrdering::release, syncScope(op.getScope()));
    rw.eraseOp(op);
    return success();
  }
};

/// tile.flag_wait -> a polling loop: acquire load, compare, s_sleep 1 and
/// retry until satisfied.
struct FlagWaitLowering : public TilePattern<FlagWaitOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(FlagWaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Block *before = rw.getInsertionBlock();
    Block *after = rw.splitBlock(before, rw.getInsertionPoint());
    Block *poll = rw.createBlock(after);
    Block *sleep = rw.createBlock(after);
    rw.setInsertionPointToEnd(before);
    rw.create<LLVM::BrOp>(loc, ValueRange{}, poll);

    rw.setInsertionPointToEnd(poll);
    Value p = flagAddress(rw, loc, adaptor.getFlags(), adaptor.getIndex());
    Value v = rw.create<LLVM::LoadOp>(loc, rw.getI32Type(), p, 4, /*isVolatile=*/false,
                                      /*isNonTemporal=*/false, /*isInvariant=*/false,
                                      /*isInvariantGroup=*/false,
                                      LLVM::AtomicOrdering::acquire,
                                      syncScope(op.getScope()));
    auto pred = op.getPredicate() == FlagPredicate::eq ? LLVM::ICmpPredicate::eq
                                                       : LLVM::ICmpPredicate::sge;
    Value done = rw.create<LLVM::ICmpOp>(loc, pred, v, adaptor.getValue());
    rw.create<LLVM::CondBrOp>(loc, done, after, ValueRange{}, sleep, ValueRange{});

    rw.setInsertionPointToEnd(sleep);
    rw.create<ROCDL::SSleepOp>(loc, 1);
    rw.create<LLVM::BrOp>(loc, ValueRange{}, poll);

    rw.setInsertionPointToStart(after);
    rw.eraseOp(op);
    return success();
  }
};

/// tile.memtime -> llvm.amdgcn.s.memtime (s_memtime, an SGPR pair).
struct MemtimeLowering : public TilePattern<MemtimeOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(MemtimeOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, rw.getI64Type(), rw.getStringAttr("llvm.amdgcn.s.memtime"), ValueRange{});
    return success();
  }
};

struct FenceLowering : public TilePattern<FenceOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(FenceOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<LLVM::FenceOp>(op, LLVM::AtomicOrdering::acq_rel,
                                         syncScope(op.getScope()));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern and type registration
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

static void populatePatterns(LLVMTypeConverter &converter,
                             RewritePatternSet &patterns, Chip chip,
                             const KernelFacts *facts) {
  patterns.add<ProgramIdLowering, NumProgramsLowering, WaveIdLowering,
               LaneIdLowering, MakeBufferLowering, LoadLowering, StoreLowering,
               LdsAllocLowering, AsyncCopyLowering, WaitLowering,
               LdsLoadLowering, LdsStoreLowering, MmaLowering, Exp2Lowering,
               ConvertLowering, Log2Lowering, FmaLowering, AnyLowering, SplatLowering, IotaLowering, CmpILowering,
               SelectLowering, ReduceLowering<ReduceMaxOp>,
               ReduceLowering<ReduceSumOp>, BroadcastLowering, RelayoutLowering,
               BarrierLowering, SchedBarrierLowering, SchedGroupBarrierLowering,
               SetPrioLowering, BinaryLowering<AddFOp, LLVM::FAddOp>,
               BinaryLowering<SubFOp, LLVM::FSubOp>,
               BinaryLowering<MulFOp, LLVM::FMulOp>,
               BinaryLowering<MaxFOp, LLVM::MaxNumOp>,
               BinaryLowering<MinFOp, LLVM::MinNumOp>,
               BinaryLowering<DivFOp, LLVM::FDivOp>, CmpFLowering, PtrAddLowering,
               WaitVmcntLowering, PeerPtrLowering, FlagStoreLowering,
               FlagWaitLowering, FenceLowering, MemtimeLowering,
               BinaryLowering<AddIOp, LLVM::AddOp>,
               BinaryLowering<SubIOp, LLVM::SubOp>>(converter, chip, facts);
}

void kcc::populateTileToROCDLPatterns(LLVMTypeConverter &converter,
                                      RewritePatternSet &patterns, Chip chip,
                                      const KernelFacts &facts) {
  populatePatterns(converter, patterns, chip, &facts);
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
LogicalResult checkReady(ModuleOp module) {
  WalkResult r = module.walk([](Operation *op) -> WalkResult {
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
      }
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
  std::string chipName = chip;
  if (chipName.empty())
    if (std::optional<StringRef> c = getModuleChip(module))
      chipName = c->str();
  std::optional<Chip> target = parseChip(chipName);
  if (!target) {
    module.emitError("no supported target chip (got '")
        << chipName << "'); supported: " << supportedChipList();
    return signalPassFailure();
  }
  if (failed(checkReady(module)))
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
    auto global = builder.create<LLVM::GlobalOp>(
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
  }

  LowerToLLVMOptions options(ctx);
  options.overrideIndexBitwidth(32);
  LLVMTypeConverter converter(ctx, options);
  populateTileTypeConversions(converter);
  RewritePatternSet patterns(ctx);
  populatePatterns(converter, patterns, *target, &facts);
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
