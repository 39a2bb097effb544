//===- ExpandSchedule.cpp - Expand scheduling constructs ------------------===//
//
// The dialect offers two compact scheduling constructs that kernel authors
// think in: a repeated interleaving pattern, and two wave groups staggered by
// a barrier phase. This pass rewrites them into the primitive ops that map
// one-to-one onto LLVM intrinsics and instructions.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace kcc {
#define GEN_PASS_DEF_TILEEXPANDSCHEDULE
#include "passes/Passes.h.inc"
} // namespace kcc

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;

namespace {
struct TileExpandSchedulePass
    : public kcc::impl::TileExpandScheduleBase<TileExpandSchedulePass> {
  void runOnOperation() override;
};
} // namespace

/// `tile.sched_interleave [P] x N` -> N copies of P's group barriers.
static void expandInterleave(SchedInterleaveOp op) {
  OpBuilder b(op);
  for (uint64_t r = 0; r < op.getRepeat(); ++r)
    for (Attribute group : op.getPattern())
      SchedGroupBarrierOp::create(b, op.getLoc(), cast<SchedGroupAttr>(group),
                                    op.getSyncId());
  op.erase();
}

/// A barrier executed only by the waves for which `cond` holds.
static void conditionalBarrier(OpBuilder &b, Location loc, Value cond) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder inner = ifOp.getThenBodyBuilder();
  auto barrier = BarrierOp::create(inner, loc);
  barrier.setUnfenced(true);
}

/// `tile.stagger %lagging { body }` -> lagging waves take one barrier before
/// the body, leading waves one after it.
static void expandStagger(StaggerOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value lagging = op.getLagging();
  conditionalBarrier(b, loc, lagging);
  Block &body = op.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  SmallVector<Value> results(yield.getValues());
  yield.erase();
  op->getBlock()->getOperations().splice(Block::iterator(op),
                                         body.getOperations());
  op.replaceAllUsesWith(results);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value leading = arith::XOrIOp::create(b, loc, lagging, one);
  conditionalBarrier(b, loc, leading);
  op.erase();
}

void TileExpandSchedulePass::runOnOperation() {
  SmallVector<SchedInterleaveOp> interleaves;
  SmallVector<StaggerOp> staggers;
  getOperation().walk([&](Operation *op) {
    if (auto i = dyn_cast<SchedInterleaveOp>(op))
      interleaves.push_back(i);
    else if (auto s = dyn_cast<StaggerOp>(op))
      staggers.push_back(s);
  });
  for (SchedInterleaveOp op : interleaves)
    expandInterleave(op);
  // Outer staggers first, so a nested one is expanded where it lands.
  for (StaggerOp op : staggers)
    expandStagger(op);
}
