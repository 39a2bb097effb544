//===- OperandImage.h - LDS stored in the order a tile is read --*- C++ -*-===//
//
// An LDS buffer with `order = TILE` holds its elements in the order in which
// tile.lds_load reads TILE out of it: access k of lane l at byte
// (k * 64 + l) * B, B the bytes a lane reads per access. Each read is then
// one contiguous line of 64 B bytes, which no bank conflict can touch, at one
// address register and an immediate offset; and a DMA line of 64 lanes x 16
// bytes (gfx950's buffer_load_dwordx4 ... lds, which fills LDS contiguously)
// lands each lane's 16 bytes where the reads want them, the lane fetching
// whatever 16 bytes of memory that place holds.
//
// The lds_load lowering and the tile.async_copy lowering both ask this
// class where an element goes, so the two agree by construction.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_PASSES_OPERANDIMAGE_H
#define KCC_PASSES_OPERANDIMAGE_H

#include "dialects/Tile/Layout.h"
#include "dialects/Tile/TileDialect.h"
#include "target/Target.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <utility>

namespace kcc::lowering {

/// Bytes moved per memory instruction are at most 16 (dwordx4, b128).
constexpr int64_t kMaxAccessBytes = 16;

/// Runs of registers that one memory instruction can move: consecutive
/// columns of one array row, a power-of-two number of bytes up to 16 (or a
/// single element); a run of two bytes (two FP8 elements) moves as one
/// 16-bit access. (first register, registers) each.
llvm::SmallVector<std::pair<int64_t, int64_t>> accessRuns(const tile::MemoryView &view,
                                                          int64_t esize);

/// The elements one transposing LDS read hands each lane: 4 for 16-bit
/// elements (ds_read_b64_tr_b16), 8 for bytes (ds_read_b64_tr_b8); 0 for
/// other widths, which have none. Within each 16-lane group the lanes'
/// 8-byte reads form an E x 16 tile (row r = lanes (16/E) r .. (16/E) r +
/// 16/E - 1) of which lane c receives column c.
int64_t transposedElements(int64_t esize);

/// True when a transposing read can produce the tile's registers: 16- or
/// 8-bit elements, no two registers of a lane adjacent in LDS, a multiple
/// of E registers, and lanes Eq..Eq+E-1 of every group holding adjacent LDS
/// elements (the instruction hands lane Eq+j the j-th element that lane
/// (l & 0x30) | (r * 16/E) | q of its group read, as register r).
bool fitsTransposingRead(const tile::MemoryView &view, int64_t esize);

/// Where lane s's 8 bytes go in a transposing read of E elements a lane:
/// to lanes l0 .. l0 + E - 1 (l0 first), each receiving one element as its
/// register u of the read's E. Returns {l0, u}.
std::pair<unsigned, unsigned> transposedSource(unsigned s, int64_t e);

class OperandImage {
public:
  /// The image of `lds` (which has an order tile) on `chip`; std::nullopt
  /// with `why` set when its tile cannot be read that way.
  static std::optional<OperandImage> get(tile::LdsType lds, Chip chip, std::string *why);

  /// Bytes a lane reads per access, and the accesses of one read.
  int64_t accessBytes() const { return bytes; }
  int64_t accesses() const { return int64_t(firstReg.size()); }
  /// True when the reads are ds_read_b64_tr_* (gfx950).
  bool transposing() const { return isTransposing; }
  /// The first register access k fills (E * k for transposing reads).
  int64_t firstRegister(int64_t k) const { return firstReg[k]; }
  /// Registers access k fills.
  int64_t registersPerAccess() const { return regsPerAccess; }

  /// Array coordinates (row, col) of the element at byte `offset` of a
  /// stage.
  std::pair<int64_t, int64_t> elementAt(int64_t offset) const;
  int64_t elementBytes() const { return esize; }

private:
  OperandImage(tile::LayoutMap map, bool transpose) : map(std::move(map)), transpose(transpose) {}
  tile::MemoryView view() const { return {map, transpose}; }

  tile::LayoutMap map;
  bool transpose;
  bool isTransposing = false;
  int64_t esize = 0, bytes = 0, regsPerAccess = 0;
  llvm::SmallVector<int64_t> firstReg;
};

/// How tile.async_copy fills an image with `lines` DMA lines of 64 lanes x
/// `width` bytes, shared by `waves` waves (line k waves + w is wave w's
/// k-th): lane i of line L fetches array (lineRow[L] + r(i), lineCol[L] +
/// c(i)), r and c sums of per-bit strides (laneRow, laneCol); with a
/// power-of-two count of waves lineRow[k waves + w] = lineRow[k waves] +
/// wr(w) (waveRow, waveCol), else lineRow and lineCol are sums of per-bit
/// strides of L (lineRowFields, lineColFields).
struct ImageCopyPlan {
  llvm::SmallVector<int64_t> lineRow, lineCol;
  llvm::SmallVector<tile::LaneBitField> laneRow, laneCol;
  bool powerOfTwoWaves = false;
  llvm::SmallVector<tile::LaneBitField> waveRow, waveCol, lineRowFields, lineColFields;
};

/// The plan, or std::nullopt with `why` set (to finish "cannot fill a
/// buffer stored in the order of its tile") when a lane's `width` bytes are
/// not adjacent in memory or the lines' lanes are not sums of strides.
std::optional<ImageCopyPlan> planImageCopy(const OperandImage &image, int64_t width,
                                           int64_t lines, int64_t waves, std::string *why);

/// `f(i) = sum over the set bits b of i of coef[b]` as bit fields (runs of
/// bits whose coefficients double), when f is that for every i < n: the
/// form laneCoordinate emits. std::nullopt otherwise.
std::optional<llvm::SmallVector<tile::LaneBitField>>
bitAdditiveFields(llvm::ArrayRef<int64_t> f);

} // namespace kcc::lowering

#endif // KCC_PASSES_OPERANDIMAGE_H
