//===- Layout.cpp - Lane/register maps of tile layouts --------------------===//
//
// The MFMA operand layouts follow the CDNA3/CDNA4 ISA guides ("Matrix fused
// multiply-add" sections) for wave64 MFMAs with 16-bit inputs:
//   a   (M x K): lane l, register i -> (l % M, (l / M) * KL + i),   KL = M*K/64
//   b   (K x N): lane l, register i -> ((l / N) * KL + i, l % N),   KL = K*N/64
//   acc (M x N): lane l, register i -> ((i / 4) * 4 * (64 / N) + (l / N) * 4 + i % 4, l % N)
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/Layout.h"
#include "dialects/Tile/TileDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace kcc::tile;

namespace {
/// Coordinates of register i of lane l within one instance of a layout.
struct Instance {
  int64_t rows = 0, cols = 0, regs = 0;
  // [lane][reg] -> (row, col), filled for all 64 lanes.
  llvm::SmallVector<std::array<int64_t, 2>> coords;
  std::array<int64_t, 2> &at(unsigned lane, int64_t reg) {
    return coords[lane * regs + reg];
  }
};
} // namespace

static std::optional<Instance> buildInstance(mlir::Attribute layout,
                                             std::string *why);

static std::optional<Instance> buildMfma(MfmaLayoutAttr mfma, std::string *why) {
  if (!mfma.isResolved()) {
    if (why)
      *why = "the MFMA shape is not resolved yet (run tile-specialize)";
    return std::nullopt;
  }
  int64_t m = mfma.getM(), n = mfma.getN(), k = mfma.getK();
  Instance inst;
  switch (mfma.getOperand()) {
  case MfmaOperand::a:
    inst.rows = m, inst.cols = k, inst.regs = m * k / 64;
    break;
  case MfmaOperand::b:
    inst.rows = k, inst.cols = n, inst.regs = k * n / 64;
    break;
  case MfmaOperand::acc:
    inst.rows = m, inst.cols = n, inst.regs = m * n / 64;
    break;
  }
  inst.coords.resize(64 * inst.regs);
  // K index of register i in lane l: consecutive per lane, or in the order
  // of an accumulator's rows (groups of 4 rows, 64 / N lane groups apart).
  auto kIndex = [&](unsigned l, int64_t i, int64_t width) -> int64_t {
    if (mfma.getKFromAcc())
      return (i / 4) * 4 * (64 / width) + (l / width) * 4 + i % 4;
    return (l / width) * inst.regs + i;
  };
  for (unsigned l = 0; l < 64; ++l)
    for (int64_t i = 0; i < inst.regs; ++i) {
      switch (mfma.getOperand()) {
      case MfmaOperand::a:
        inst.at(l, i) = {l % m, kIndex(l, i, m)};
        break;
      case MfmaOperand::b:
        inst.at(l, i) = {kIndex(l, i, n), l % n};
        break;
      case MfmaOperand::acc:
        inst.at(l, i) = {(i / 4) * 4 * (64 / n) + (l / n) * 4 + i % 4, l % n};
        break;
      }
    }
  return inst;
}

static std::optional<Instance> buildBlocked(BlockedLayoutAttr blocked) {
  auto per = blocked.getPerLane();
  auto lanes = blocked.getLanes();
  Instance inst;
  inst.rows = per[0] * lanes[0];
  inst.cols = per[1] * lanes[1];
  inst.regs = per[0] * per[1];
  inst.coords.resize(64 * inst.regs);
  for (unsigned l = 0; l < 64; ++l)
    for (int64_t i = 0; i < inst.regs; ++i)
      inst.at(l, i) = {(l / lanes[1]) * per[0] + i / per[1],
                       (l % lanes[1]) * per[1] + i % per[1]};
  return inst;
}

/// Registers of a slice: the distinct kept coordinates among the parent's
/// registers (the same set in every lane, up to the lane part).
static std::optional<Instance> buildSlice(SliceLayoutAttr slice,
                                          std::string *why) {
  std::optional<Instance> parent = buildInstance(slice.getParent(), why);
  if (!parent)
    return std::nullopt;
  int64_t dim = slice.getDim();
  int64_t kept = dim == 1 ? 0 : 1;
  llvm::SmallVector<int64_t> keptOfReg;
  for (int64_t i = 0; i < parent->regs; ++i) {
    int64_t c = parent->at(0, i)[kept];
    if (!llvm::is_contained(keptOfReg, c))
      keptOfReg.push_back(c);
  }
  Instance inst;
  inst.rows = dim == 1 ? parent->rows : 1;
  inst.cols = dim == 1 ? 1 : parent->cols;
  inst.regs = keptOfReg.size();
  inst.coords.resize(64 * inst.regs);
  for (unsigned l = 0; l < 64; ++l) {
    int64_t lanePart = parent->at(l, 0)[kept] - parent->at(0, 0)[kept];
    for (int64_t j = 0; j < inst.regs; ++j) {
      int64_t c = keptOfReg[j] + lanePart;
      inst.at(l, j) = dim == 1 ? std::array<int64_t, 2>{c, 0}
                               : std::array<int64_t, 2>{0, c};
    }
  }
  return inst;
}

static std::optional<Instance> buildInstance(mlir::Attribute layout,
                                             std::string *why) {
  if (auto mfma = llvm::dyn_cast<MfmaLayoutAttr>(layout))
    return buildMfma(mfma, why);
  if (auto blocked = llvm::dyn_cast<BlockedLayoutAttr>(layout))
    return buildBlocked(blocked);
  if (auto slice = llvm::dyn_cast<SliceLayoutAttr>(layout))
    return buildSlice(slice, why);
  if (why)
    *why = "not a tile layout attribute";
  return std::nullopt;
}

std::optional<std::array<int64_t, 2>>
LayoutMap::instanceShape(mlir::Attribute layout, std::string *why) {
  std::optional<Instance> inst = buildInstance(layout, why);
  if (!inst)
    return std::nullopt;
  return std::array<int64_t, 2>{inst->rows, inst->cols};
}

/// Splits a lane coordinate function into runs of bits with doubling weights;
/// fails if it is not linear in the lane bits.
static bool splitLinear(const std::array<int64_t, 64> &f,
                        llvm::SmallVectorImpl<LaneBitField> &fields) {
  int64_t weight[6];
  for (unsigned b = 0; b < 6; ++b)
    weight[b] = f[1u << b] - f[0];
  for (unsigned l = 0; l < 64; ++l) {
    int64_t v = f[0];
    for (unsigned b = 0; b < 6; ++b)
      if (l & (1u << b))
        v += weight[b];
    if (v != f[l])
      return false;
  }
  for (unsigned b = 0; b < 6;) {
    if (weight[b] == 0) {
      ++b;
      continue;
    }
    unsigned len = 1;
    while (b + len < 6 && weight[b + len] == weight[b] << len)
      ++len;
    fields.push_back({b, (1u << len) - 1, weight[b]});
    b += len;
  }
  return true;
}

std::optional<LayoutMap> LayoutMap::get(TileType type, std::string *why) {
  if (!type.isResolved()) {
    if (why)
      *why = "the tile type has unbound parameters";
    return std::nullopt;
  }
  std::optional<Instance> inst = buildInstance(type.getLayout(), why);
  if (!inst)
    return std::nullopt;
  int64_t rows = type.getRows(), cols = type.getCols();
  if (rows % inst->rows || cols % inst->cols) {
    if (why)
      *why = "tile shape " + std::to_string(rows) + "x" + std::to_string(cols) +
             " is not a multiple of the layout's " + std::to_string(inst->rows) +
             "x" + std::to_string(inst->cols);
    return std::nullopt;
  }
  int64_t repRows = rows / inst->rows, repCols = cols / inst->cols;
  // A register tile lives in the registers of a lane: at most 512 of 32 bits
  // (VGPRs and AGPRs together). Bigger tiles are refused here, before their
  // register map is built (a 2^40-row tile would otherwise exhaust memory).
  int64_t bytes = std::max<int64_t>(1, elementBytes(type.getElementType()));
  int64_t maxElems = kMaxRegistersPerLane * 4 / bytes;
  if (repRows > maxElems || repCols > maxElems ||
      repRows * repCols > maxElems / std::max<int64_t>(1, inst->regs)) {
    if (why)
      *why = "tile " + std::to_string(rows) + "x" + std::to_string(cols) +
             " needs more than the " + std::to_string(maxElems) +
             " elements per lane that fit a lane's " +
             std::to_string(kMaxRegistersPerLane) +
             " registers (VGPRs and AGPRs)";
    return std::nullopt;
  }
  // k_wide: groups of `pack` instances along K interleave, a lane's K of
  // the group contiguous (TileAttrs.td).
  int64_t pack = 1;
  bool kAlongCols = false;
  if (auto mfma = llvm::dyn_cast<MfmaLayoutAttr>(type.getLayout());
      mfma && mfma.getKWide()) {
    kAlongCols = mfma.getOperand() == MfmaOperand::a;
    int64_t laneBytes = inst->regs * bytes;
    int64_t repK = kAlongCols ? repCols : repRows;
    pack = std::max<int64_t>(1, 16 / laneBytes);
    while (repK % pack)
      pack /= 2;
  }
  // The register part of the K coordinate of register part `reg` of an
  // instance, for repetition `rep` along K (the lane part scales by pack).
  int64_t kExtent = kAlongCols ? inst->cols : inst->rows;
  int64_t kl = inst->regs; // K values a lane holds in one instance
  auto packedK = [&](int64_t rep, int64_t reg) {
    return (rep / pack) * kExtent * pack + (rep % pack) * kl + reg;
  };
  LayoutMap map;
  std::array<int64_t, 2> origin = inst->at(0, 0);
  for (int64_t rr = 0; rr < repRows; ++rr)
    for (int64_t rc = 0; rc < repCols; ++rc)
      for (int64_t i = 0; i < inst->regs; ++i) {
        // Register part: the coordinate in lane 0, less lane 0's offset.
        int64_t r = rr * inst->rows + inst->at(0, i)[0];
        int64_t c = rc * inst->cols + inst->at(0, i)[1];
        if (pack > 1 && kAlongCols)
          c = packedK(rc, inst->at(0, i)[1]);
        else if (pack > 1)
          r = packedK(rr, inst->at(0, i)[0]);
        map.regRow.push_back(r);
        map.regCol.push_back(c);
      }
  for (unsigned l = 0; l < 64; ++l) {
    map.laneRow[l] = inst->at(l, 0)[0] - origin[0];
    map.laneCol[l] = inst->at(l, 0)[1] - origin[1];
    for (int64_t i = 0; i < inst->regs; ++i)
      if (inst->at(l, i)[0] != inst->at(0, i)[0] + map.laneRow[l] ||
          inst->at(l, i)[1] != inst->at(0, i)[1] + map.laneCol[l]) {
        if (why)
          *why = "layout is not separable into register and lane parts";
        return std::nullopt;
      }
    // k_wide: a lane group's K run is `pack` instances long.
    if (pack > 1 && kAlongCols)
      map.laneCol[l] *= pack;
    else if (pack > 1)
      map.laneRow[l] *= pack;
  }
  if (!splitLinear(map.laneRow, map.rowFields) ||
      !splitLinear(map.laneCol, map.colFields)) {
    if (why)
      *why = "layout is not linear in the lane bits";
    return std::nullopt;
  }
  return map;
}
