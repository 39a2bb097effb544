//===- TileToROCDLLdsAlloc.cpp - LDS buffers in the kernel's array --------===//
//
// tile.lds_alloc names a buffer that AllocateLds placed at an offset of the
// kernel's one LDS array (an LLVM global in address space 3); lowered, it is
// that address. Which buffer an access touches is told to LLVM by the alias
// scopes of KernelFacts, not by the address.
//
//===----------------------------------------------------------------------===//
#include "passes/TileToROCDLPatterns.h"
#include "passes/TileToROCDLCommon.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;
using namespace kcc::lowering;

//===----------------------------------------------------------------------===//
// LDS allocation
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

} // namespace

//===----------------------------------------------------------------------===//
// Pattern registration
//===----------------------------------------------------------------------===//

void kcc::populateTileLdsAllocToROCDLPatterns(LLVMTypeConverter &converter,
                                              RewritePatternSet &patterns,
                                              Chip chip, const KernelFacts &facts) {
  patterns.add<LdsAllocLowering>(converter, chip, &facts);
}
