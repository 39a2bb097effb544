//===- TileToROCDLAsyncCopy.cpp - Global-to-LDS DMA -----------------------===//
//
// tile.async_copy: a block of global memory into an LDS stage by the
// buffer_load ... lds instructions (LDS DMA), whose lanes each fetch 4
// bytes (on gfx950 up to 16) that land in LDS at M0 plus the lane's place
// in the line. How the lines split over the waves, which parts of each address
// are per lane (VGPRs), per line (scalar offset, M0) or constant (the
// offset field), and what a loop around the copy must recompute, decide
// the copy's cost; the comments on each case give the measurements.
//
//===----------------------------------------------------------------------===//
#include "passes/TileToROCDLPatterns.h"
#include "passes/TileToROCDLAddressing.h"
#include "passes/TileToROCDLCommon.h"
#include "passes/OperandImage.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include <numeric>

using namespace mlir;
using namespace kcc;
using namespace kcc::tile;
using namespace kcc::lowering;

//===----------------------------------------------------------------------===//
// Async copies
//===----------------------------------------------------------------------===//

namespace {

/// The largest value of a buffer instruction's offset field (12 bits).
constexpr int64_t kMaxBufferInstOffset = 4095;

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

} // namespace

//===----------------------------------------------------------------------===//
// Pattern registration
//===----------------------------------------------------------------------===//

void kcc::populateTileAsyncCopyToROCDLPatterns(LLVMTypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               Chip chip, const KernelFacts &facts) {
  patterns.add<AsyncCopyLowering>(converter, chip, &facts);
}
