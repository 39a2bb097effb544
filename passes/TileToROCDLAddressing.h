//===- TileToROCDLAddressing.h - Addressing of memory ops -------*- C++ -*-===//
//
// What the memory families of the tile-to-ROCDL lowering (global memory,
// async copies, LDS reads and writes) share about where a lane's elements
// are: its origin in the array, the offset that masks an element out of a
// buffer access, and how an LDS buffer is laid out (stages, row stride,
// swizzle) and scoped. One home, so that a copy into LDS and a read out of
// it cannot disagree about where an element lives. Internal to passes/:
// included by TileToROCDL{GlobalMemory,AsyncCopy,LdsAccess}.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_PASSES_TILETOROCDLADDRESSING_H
#define KCC_PASSES_TILETOROCDLADDRESSING_H

#include "passes/TileToROCDLCommon.h"

#include <cstdint>

namespace kcc::lowering {

/// A buffer offset that is out of range of every buffer kcc makes (their
/// sizes stay below 2 GiB), so the hardware returns 0 for loads and drops
/// stores: how masked elements are handled.
constexpr int64_t kOutOfRangeOffset = 0x80000000LL;

/// Per-lane array coordinates of register 0's element, minus its register
/// part: row + rowL(lane), col + colL(lane) in array terms.
struct LaneOrigin {
  mlir::Value row, col;
};

/// The lane's origin for an access of `view` at array (row, col).
LaneOrigin laneOrigin(mlir::OpBuilder &b, mlir::Location loc, const tile::MemoryView &view,
                      mlir::Value row, mlir::Value col);

/// Attaches the alias scopes of an LDS access to `op` (when it takes them).
void setScopes(mlir::Operation *op, const LdsScopes &s);

/// The address of byte `byteOffset` (uniform or per-lane) in LDS.
mlir::Value ldsAddress(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                       mlir::Value byteOffset);

/// Bytes of one line of the chip's LDS banks (the swizzle's row group).
int64_t bankLineBytes(Chip chip);

/// Where column `col` of row `row` of a swizzled LDS buffer is stored: its
/// 16-byte chunk XOR ((row / rowGroup) mod swizzle). XOR is its own
/// inverse, so this is also the column stored at `col`.
mlir::Value swizzledColumn(mlir::OpBuilder &b, mlir::Location loc, tile::LdsType lds,
                           int64_t bankLine, mlir::Value row, mlir::Value col);

/// The byte offset within a stage of element (row, col) of `lds`. An access
/// of at most 16 bytes aligned to its size stays within one swizzle chunk,
/// so this is the address of all of it.
mlir::Value ldsElementBytes(mlir::OpBuilder &b, mlir::Location loc, tile::LdsType lds,
                            int64_t bankLine, mlir::Value row, mlir::Value col);

} // namespace kcc::lowering

#endif // KCC_PASSES_TILETOROCDLADDRESSING_H
