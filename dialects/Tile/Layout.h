//===- Layout.h - Which lane holds which element of a tile -----*- C++ -*-===//
//
// A LayoutMap answers, for a tile type, the one question every lowering of a
// tile op asks: register i of lane l holds element (row, col) of the tile. All
// layouts of the dialect split that into a per-register constant and a
// per-lane part that is linear in the lane bits,
//
//   row(l, i) = rowOfReg[i] + rowOfLane(l),   col(l, i) = colOfReg[i] + colOfLane(l),
//
// so generated code computes the lane part once (a few shifts and masks of
// the lane id) and folds the register part into instruction offsets.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_DIALECTS_TILE_LAYOUT_H
#define KCC_DIALECTS_TILE_LAYOUT_H

#include "mlir/IR/Attributes.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace kcc::tile {

class TileType;

/// One run of lane bits whose weights double: contributes
/// ((lane >> shift) & mask) * scale to a lane coordinate.
struct LaneBitField {
  unsigned shift;
  unsigned mask;
  int64_t scale;
};

/// The 32-bit registers one lane of a wave can hold: 512 VGPRs and AGPRs
/// together (gfx942, gfx950), the bound on any register tile.
constexpr int64_t kMaxRegistersPerLane = 512;

class LayoutMap {
public:
  /// The map of a resolved tile type; std::nullopt (with `why` set) when the
  /// layout is unresolved or its shape does not divide the tile.
  static std::optional<LayoutMap> get(TileType type, std::string *why = nullptr);

  /// Rows and columns of one instance of the layout (before repetition).
  static std::optional<std::array<int64_t, 2>>
  instanceShape(mlir::Attribute layout, std::string *why = nullptr);

  int64_t numRegs() const { return regRow.size(); }
  int64_t rowOfReg(int64_t i) const { return regRow[i]; }
  int64_t colOfReg(int64_t i) const { return regCol[i]; }
  int64_t rowOfLane(unsigned lane) const { return laneRow[lane]; }
  int64_t colOfLane(unsigned lane) const { return laneCol[lane]; }
  int64_t row(unsigned lane, int64_t i) const { return regRow[i] + laneRow[lane]; }
  int64_t col(unsigned lane, int64_t i) const { return regCol[i] + laneCol[lane]; }

  /// The lane parts as bit fields, for code generation.
  llvm::ArrayRef<LaneBitField> rowLaneFields() const { return rowFields; }
  llvm::ArrayRef<LaneBitField> colLaneFields() const { return colFields; }

private:
  llvm::SmallVector<int64_t> regRow, regCol;
  std::array<int64_t, 64> laneRow{}, laneCol{};
  llvm::SmallVector<LaneBitField> rowFields, colFields;
};

/// Where the registers of a tile sit in a row-major array in memory (LDS or
/// global). The op's (row, col) index the array; with `transpose` the array
/// holds the transposed tile, so tile element (r, c) sits at array
/// (row + c, col + r). The verifiers and the lowering ask it the same
/// question: which registers of a lane are adjacent in memory.
struct MemoryView {
  const LayoutMap &map;
  bool transpose;

  int64_t rowOfReg(int64_t i) const {
    return transpose ? map.colOfReg(i) : map.rowOfReg(i);
  }
  int64_t colOfReg(int64_t i) const {
    return transpose ? map.rowOfReg(i) : map.colOfReg(i);
  }
  int64_t rowOfLane(unsigned l) const {
    return transpose ? map.colOfLane(l) : map.rowOfLane(l);
  }
  int64_t colOfLane(unsigned l) const {
    return transpose ? map.rowOfLane(l) : map.colOfLane(l);
  }
  llvm::ArrayRef<LaneBitField> rowFields() const {
    return transpose ? map.colLaneFields() : map.rowLaneFields();
  }
  llvm::ArrayRef<LaneBitField> colFields() const {
    return transpose ? map.rowLaneFields() : map.colLaneFields();
  }
  /// Registers from `i` on at consecutive addresses of one array row.
  int64_t contiguousRun(int64_t i) const {
    int64_t n = 1;
    while (i + n < map.numRegs() && rowOfReg(i + n) == rowOfReg(i) &&
           colOfReg(i + n) == colOfReg(i) + n)
      ++n;
    return n;
  }
};

} // namespace kcc::tile

#endif // KCC_DIALECTS_TILE_LAYOUT_H
