//===- TileToROCDLAddressing.cpp - Addressing of memory ops ---------------===//
//
// The helpers of TileToROCDLAddressing.h.
//
//===----------------------------------------------------------------------===//
#include "passes/TileToROCDLAddressing.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;

namespace kcc::lowering {

LaneOrigin laneOrigin(OpBuilder &b, Location loc, const MemoryView &view,
                      Value row, Value col) {
  Value lane = laneId(b, loc);
  return {add(b, loc, row, laneCoordinate(b, loc, lane, view.rowFields())),
          add(b, loc, col, laneCoordinate(b, loc, lane, view.colFields()))};
}

void setScopes(Operation *op, const LdsScopes &s) {
  if (auto iface = dyn_cast<LLVM::AliasAnalysisOpInterface>(op)) {
    if (s.scopes)
      iface.setAliasScopes(s.scopes);
    if (s.noalias)
      iface.setNoAliasScopes(s.noalias);
  }
}

Value ldsAddress(OpBuilder &b, Location loc, Value base, Value byteOffset) {
  auto ptr3 = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::GEPOp::create(b, loc, ptr3, b.getI8Type(), base,
                               ArrayRef<LLVM::GEPArg>{byteOffset},
                               LLVM::GEPNoWrapFlags::inbounds);
}

int64_t bankLineBytes(Chip chip) { return int64_t(getChipInfo(chip).ldsBanks) * 4; }

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

Value ldsElementBytes(OpBuilder &b, Location loc, LdsType lds, int64_t bankLine, Value row,
                      Value col) {
  if (lds.getSwizzle())
    col = swizzledColumn(b, loc, lds, bankLine, row, col);
  return mul(b, loc, add(b, loc, mul(b, loc, row, i32(b, loc, lds.getRowStride())), col),
             i32(b, loc, elementBytes(lds.getElementType())));
}

} // namespace kcc::lowering
