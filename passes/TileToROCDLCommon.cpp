//===- TileToROCDLCommon.cpp - Shared pieces of the ROCDL lowering --------===//
//
// The kernel facts gathered before the conversion, the value builders and
// the lane-layout helpers that several op families of the lowering use (see
// TileToROCDLCommon.h).
//
//===----------------------------------------------------------------------===//
#include "passes/TileToROCDLCommon.h"
#include "passes/ConstantFold.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;

//===----------------------------------------------------------------------===//
// Kernel facts
//===----------------------------------------------------------------------===//

void KernelFacts::build(func::FuncOp func) {
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

LdsScopes KernelFacts::lookup(Value lds) const {
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

int64_t KernelFacts::blockSizeOf(Operation *op) const {
  auto it = blockSize.find(op);
  return it == blockSize.end() ? 64 : it->second;
}

StringRef KernelFacts::ldsGlobalOf(Operation *alloc) const {
  auto it = ldsGlobal.find(alloc);
  return it == ldsGlobal.end() ? StringRef() : StringRef(it->second);
}

//===----------------------------------------------------------------------===//
// Value builders
//===----------------------------------------------------------------------===//

Value lowering::i32(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(v));
}

Value lowering::add(OpBuilder &b, Location loc, Value x, Value y) {
  return LLVM::AddOp::create(b, loc, x, y);
}

Value lowering::mul(OpBuilder &b, Location loc, Value x, Value y) {
  return LLVM::MulOp::create(b, loc, x, y);
}

Value lowering::poison(OpBuilder &b, Location loc, Type type) {
  return LLVM::PoisonOp::create(b, loc, type);
}

Value lowering::extract(OpBuilder &b, Location loc, Value vec, int64_t i) {
  return LLVM::ExtractElementOp::create(b, loc, vec, i32(b, loc, i));
}

Value lowering::insert(OpBuilder &b, Location loc, Value vec, Value v, int64_t i) {
  return LLVM::InsertElementOp::create(b, loc, vec, v, i32(b, loc, i));
}

/// Elements [first, first + n) of `vec` as a vector<n>.
Value lowering::slice(OpBuilder &b, Location loc, Value vec, int64_t first, int64_t n) {
  SmallVector<int32_t> mask;
  for (int64_t i = 0; i < n; ++i)
    mask.push_back(first + i);
  return LLVM::ShuffleVectorOp::create(b, loc, vec, vec, mask);
}

//===----------------------------------------------------------------------===//
// Lane layout
//===----------------------------------------------------------------------===//

Value lowering::laneId(OpBuilder &b, Location loc) {
  Value minusOne = i32(b, loc, -1);
  Value lo = ROCDL::MbcntLoOp::create(b, loc, b.getI32Type(), minusOne,
                                        i32(b, loc, 0), ArrayAttr(), ArrayAttr());
  return ROCDL::MbcntHiOp::create(b, loc, b.getI32Type(), minusOne, lo,
                                    ArrayAttr(), ArrayAttr());
}

Value lowering::waveId(OpBuilder &b, Location loc) {
  Value tid = ROCDL::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value wave = LLVM::LShrOp::create(b, loc, tid, i32(b, loc, 6));
  return ROCDL::ReadfirstlaneOp::create(b, loc, b.getI32Type(), wave);
}

/// sum over fields of ((lane >> shift) & mask) * scale.
Value lowering::laneCoordinate(OpBuilder &b, Location loc, Value lane,
                               ArrayRef<LaneBitField> fields) {
  Value acc = i32(b, loc, 0);
  for (const LaneBitField &f : fields) {
    Value v = f.shift ? (Value)LLVM::LShrOp::create(b, loc, lane, i32(b, loc, f.shift))
                      : lane;
    v = LLVM::AndOp::create(b, loc, v, i32(b, loc, f.mask));
    if (f.scale != 1)
      v = mul(b, loc, v, i32(b, loc, f.scale));
    acc = add(b, loc, acc, v);
  }
  return acc;
}

/// The layout map of a tile type that the pass checked to be resolved.
LayoutMap lowering::layoutOf(TileType type) {
  std::optional<LayoutMap> map = LayoutMap::get(type);
  assert(map && "tile types are checked before the conversion runs");
  return *map;
}

//===----------------------------------------------------------------------===//
// Async copies
//===----------------------------------------------------------------------===//

/// The waves that share an async copy: its `waves` operand (a constant once
/// specialised) or the whole workgroup.
std::optional<int64_t> lowering::copyWaves(AsyncCopyOp op, int64_t blockSize) {
  if (!op.getWaves())
    return std::max<int64_t>(1, blockSize / 64);
  return foldToConstant(op.getWaves());
}

