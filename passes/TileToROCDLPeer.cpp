//===- TileToROCDLPeer.cpp - Multi-GPU peer memory and flags --------------===//
//
// What kernels that span GPUs use: pointers into a peer's memory (through a
// table of base addresses), flags that one GPU stores and another polls with
// release/acquire ordering at a memory scope, and scoped fences.
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
  return LLVM::GEPOp::create(b, loc, ptr1, b.getI32Type(), flags,
                               ArrayRef<LLVM::GEPArg>{index});
}

/// Whether the flag word at `p`, loaded with acquire ordering at `scope`,
/// satisfies `predicate` against `value`: what tile.flag_wait polls and
/// tile.flag_test asks each lane.
Value flagSatisfied(OpBuilder &b, Location loc, Value p, FlagPredicate predicate,
                    Value value, MemoryScope scope) {
  Value v = LLVM::LoadOp::create(b, loc, b.getI32Type(), p, 4, /*isVolatile=*/false,
                                 /*isNonTemporal=*/false, /*isInvariant=*/false,
                                 /*isInvariantGroup=*/false, LLVM::AtomicOrdering::acquire,
                                 syncScope(scope));
  auto pred = predicate == FlagPredicate::eq ? LLVM::ICmpPredicate::eq
                                             : LLVM::ICmpPredicate::sge;
  return LLVM::ICmpOp::create(b, loc, pred, v, value);
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
      Value p = LLVM::GEPOp::create(rw, loc, ptr1, i64, adaptor.getBases(),
                                       ArrayRef<LLVM::GEPArg>{rank});
      return LLVM::LoadOp::create(rw, loc, i64, p, 8, /*isVolatile=*/false,
                                     /*isNonTemporal=*/false, /*isInvariant=*/true);
    };
    Value addr = LLVM::PtrToIntOp::create(rw, loc, i64, adaptor.getPtr());
    Value moved = LLVM::AddOp::create(rw, 
        loc, LLVM::SubOp::create(rw, loc, addr, base(adaptor.getFrom())),
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
    LLVM::StoreOp::create(rw, loc, adaptor.getValue(), p, 4, /*isVolatile=*/false,
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
    LLVM::BrOp::create(rw, loc, ValueRange{}, poll);

    rw.setInsertionPointToEnd(poll);
    Value p = flagAddress(rw, loc, adaptor.getFlags(), adaptor.getIndex());
    Value done = flagSatisfied(rw, loc, p, op.getPredicate(), adaptor.getValue(),
                               op.getScope());
    LLVM::CondBrOp::create(rw, loc, done, after, ValueRange{}, sleep, ValueRange{});

    rw.setInsertionPointToEnd(sleep);
    ROCDL::SSleepOp::create(rw, loc, 1);
    LLVM::BrOp::create(rw, loc, ValueRange{}, poll);

    rw.setInsertionPointToStart(after);
    rw.eraseOp(op);
    return success();
  }
};

/// tile.flag_test -> lane i's acquire load of word index + min(i, count -
/// 1), its compare, and a ballot of the lanes that passed against the
/// ballot of all active lanes: LLVM waits for the loads and invalidates
/// the wave's caches (buffer_inv) once, after them.
struct FlagTestLowering : public TilePattern<FlagTestOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(FlagTestOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Type i32 = rw.getI32Type(), i64 = rw.getI64Type();
    Value lane = laneId(rw, loc);
    // Indices lower to i32 (the converter's index width).
    Value count = adaptor.getCount();
    Value one = LLVM::ConstantOp::create(rw, loc, i32, 1);
    Value last = LLVM::SubOp::create(rw, loc, count, one);
    Value word = LLVM::UMinOp::create(rw, loc, lane, last);
    Value index = LLVM::AddOp::create(rw, loc, adaptor.getIndex(), word);
    Value p = flagAddress(rw, loc, adaptor.getFlags(), index);
    Value pass = flagSatisfied(rw, loc, p, op.getPredicate(), adaptor.getValue(),
                               op.getScope());
    Value passed = ROCDL::BallotOp::create(rw, loc, i64, pass);
    Value all = ROCDL::BallotOp::create(
        rw, loc, i64, LLVM::ConstantOp::create(rw, loc, rw.getI1Type(), 1));
    rw.replaceOpWithNewOp<LLVM::ICmpOp>(op, LLVM::ICmpPredicate::eq, passed, all);
    return success();
  }
};

/// tile.fence -> an acq_rel fence at the op's scope.
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
// Pattern registration
//===----------------------------------------------------------------------===//

void kcc::populateTilePeerToROCDLPatterns(LLVMTypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          Chip chip, const KernelFacts &facts) {
  patterns.add<PeerPtrLowering, FlagStoreLowering, FlagWaitLowering,
               FlagTestLowering, FenceLowering>(converter, chip, &facts);
}
