//===- AllocateLds.cpp - Place LDS buffers and give them alias scopes -----===//
//
// kcc owns the LDS layout of a kernel (one array per kernel, buffers at fixed
// offsets) rather than leaving it to the backend, so that the offsets are
// known to the author and to the alias-scope metadata: each buffer gets its
// own scope and accesses to different buffers are known not to alias.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "dialects/Tile/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace kcc {
#define GEN_PASS_DEF_TILEALLOCATELDS
#include "passes/Passes.h.inc"
} // namespace kcc

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;

namespace {
struct TileAllocateLdsPass
    : public kcc::impl::TileAllocateLdsBase<TileAllocateLdsPass> {
  void runOnOperation() override;
};
} // namespace

/// LDS buffers start on 16-byte boundaries so that ds_read_b128 and the
/// 16-byte LDS DMA of gfx950 can reach any of them.
static constexpr int64_t kBufferAlignment = 16;

void TileAllocateLdsPass::runOnOperation() {
  ModuleOp module = getOperation();
  TargetAttr target = getModuleTarget(module);
  if (!target) {
    module.emitError("the module names no target chip; run tile-specialize "
                     "first");
    return signalPassFailure();
  }
  const ChipInfo &chipInfo = target.getInfo();
  int64_t limit = chipInfo.ldsBytesPerWorkgroup;
  bool failedAny = false;
  module.walk([&](func::FuncOp func) {
    int64_t offset = 0, scope = 0;
    SmallVector<std::pair<LdsAllocOp, int64_t>> placed;
    func.walk([&](LdsAllocOp alloc) {
      LdsType type = alloc.getResult().getType();
      if (!type.isResolved()) {
        alloc.emitOpError("has unbound parameters; run tile-specialize first");
        failedAny = true;
        return;
      }
      offset = llvm::alignTo(offset, kBufferAlignment);
      OpBuilder b(alloc);
      alloc.setOffsetAttr(b.getI64IntegerAttr(offset));
      alloc.setScopeAttr(b.getI64IntegerAttr(scope++));
      placed.push_back({alloc, type.getTotalBytes()});
      offset += type.getTotalBytes();
    });
    if (offset > limit) {
      InFlightDiagnostic diag = func.emitError("LDS buffers of kernel '")
                                << func.getSymName() << "' need " << offset
                                << " bytes; " << chipInfo.name
                                << " gives a workgroup " << limit;
      for (auto &[alloc, bytes] : placed)
        diag.attachNote(alloc.getLoc())
            << "'" << alloc.getName() << "' takes " << bytes << " bytes";
      failedAny = true;
      return;
    }
    func->setAttr("tile.lds_bytes",
                  OpBuilder(func).getI64IntegerAttr(offset));
  });
  if (failedAny)
    signalPassFailure();
}
