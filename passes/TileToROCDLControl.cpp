//===- TileToROCDLControl.cpp - Ids, clock, barriers, scheduling ----------===//
//
// The ops that ask where a work-item runs (program, wave and lane ids, the
// grid size), read the clock, synchronise the workgroup, or steer the
// backend's scheduler. None of them touches tile data: each becomes a ROCDL
// intrinsic or a short sequence of them.
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
    case 0: v = ROCDL::BlockIdXOp::create(rw, op.getLoc(), i32t); break;
    case 1: v = ROCDL::BlockIdYOp::create(rw, op.getLoc(), i32t); break;
    default: v = ROCDL::BlockIdZOp::create(rw, op.getLoc(), i32t); break;
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
    Value base = LLVM::CallIntrinsicOp::create(rw, 
                       loc, ptr4, rw.getStringAttr("llvm.amdgcn.implicitarg.ptr"),
                       ValueRange{})
                     .getResult(0);
    Value addr = LLVM::GEPOp::create(rw, loc, ptr4, rw.getI8Type(), base,
                                        ArrayRef<LLVM::GEPArg>{4 * (int32_t)op.getDim()});
    Value count = LLVM::LoadOp::create(rw, loc, rw.getI32Type(), addr, 4,
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
    rw.replaceOp(op, waveId(rw, op.getLoc()));
    return success();
  }
};

/// tile.lane_id -> v_mbcnt_lo/hi over all lanes: the lane's index in its wave.
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
// Clock
//===----------------------------------------------------------------------===//

namespace {

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

} // namespace

//===----------------------------------------------------------------------===//
// Barriers and scheduling
//===----------------------------------------------------------------------===//

namespace {

/// tile.barrier -> workgroup release fence, s_barrier, acquire fence.
struct BarrierLowering : public TilePattern<BarrierOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(BarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    if (!op.getUnfenced())
      LLVM::FenceOp::create(rw, loc, LLVM::AtomicOrdering::release, "workgroup");
    ROCDL::SBarrierOp::create(rw, loc);
    if (!op.getUnfenced())
      LLVM::FenceOp::create(rw, loc, LLVM::AtomicOrdering::acquire, "workgroup");
    rw.eraseOp(op);
    return success();
  }
};

/// tile.sched_barrier -> llvm.amdgcn.sched.barrier with the mask of what may
/// be scheduled across it.
struct SchedBarrierLowering : public TilePattern<SchedBarrierOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(SchedBarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<ROCDL::SchedBarrier>(op, op.getAllowed());
    return success();
  }
};

/// tile.sched_group_barrier -> llvm.amdgcn.sched.group.barrier (group kind,
/// count, sync id).
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

/// tile.setprio -> s_setprio.
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
// Pattern registration
//===----------------------------------------------------------------------===//

void kcc::populateTileControlToROCDLPatterns(LLVMTypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             Chip chip, const KernelFacts &facts) {
  patterns.add<ProgramIdLowering, NumProgramsLowering, WaveIdLowering,
               LaneIdLowering, MemtimeLowering, BarrierLowering,
               SchedBarrierLowering, SchedGroupBarrierLowering,
               SetPrioLowering>(converter, chip, &facts);
}
