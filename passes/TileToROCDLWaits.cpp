//===- TileToROCDLWaits.cpp - Waits on the memory counters ----------------===//
//
// tile.wait and tile.wait_vmcnt: s_waitcnt on the counters that the memory
// ops raise (vmcnt: buffer loads and stores, LDS DMA; lgkmcnt: LDS reads
// and writes). The kernel says where it waits and for how many, so that a
// software pipeline waits only for the stage it is about to use.
//
//===----------------------------------------------------------------------===//
#include "passes/TileToROCDLPatterns.h"
#include "passes/TileToROCDLCommon.h"
#include "passes/ConstantFold.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <algorithm>

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;
using namespace kcc::lowering;

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

void kcc::populateTileWaitsToROCDLPatterns(LLVMTypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           Chip chip, const KernelFacts &facts) {
  patterns.add<WaitLowering, WaitVmcntLowering>(converter, chip, &facts);
}
