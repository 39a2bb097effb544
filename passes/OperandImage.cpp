//===- OperandImage.cpp - LDS stored in the order a tile is read ----------===//
#include "passes/OperandImage.h"

#include "llvm/Support/MathExtras.h"

using namespace kcc;
using namespace llvm;
using namespace kcc::tile;
using namespace kcc::lowering;

SmallVector<std::pair<int64_t, int64_t>> lowering::accessRuns(const MemoryView &view,
                                                              int64_t esize) {
  SmallVector<std::pair<int64_t, int64_t>> runs;
  int64_t maxElems = std::max<int64_t>(1, kMaxAccessBytes / esize);
  for (int64_t i = 0; i < view.map.numRegs();) {
    int64_t n = std::min(view.contiguousRun(i), maxElems);
    while (n > 1 && (!llvm::isPowerOf2_64(n * esize) || ((n * esize) % 4 && n * esize != 2)))
      --n;
    runs.push_back({i, n});
    i += n;
  }
  return runs;
}

int64_t lowering::transposedElements(int64_t esize) {
  return esize == 2 ? 4 : esize == 1 ? 8 : 0;
}

bool lowering::fitsTransposingRead(const MemoryView &view, int64_t esize) {
  int64_t e = transposedElements(esize);
  if (!e || view.map.numRegs() % e != 0)
    return false;
  for (int64_t i = 0; i < view.map.numRegs(); ++i)
    if (view.contiguousRun(i) != 1)
      return false;
  for (unsigned j = 1; j < e; ++j)
    if (view.rowOfLane(j) != 0 || view.colOfLane(j) != (int64_t)j)
      return false;
  return true;
}

std::pair<unsigned, unsigned> lowering::transposedSource(unsigned s, int64_t e) {
  unsigned p = unsigned(16 / e);
  unsigned l0 = (s & 0x30) | ((s % p) * unsigned(e));
  unsigned u = (s / p) % unsigned(e);
  return {l0, u};
}

std::optional<OperandImage> OperandImage::get(LdsType lds, Chip chip, std::string *why) {
  TileType tile = lds.getOrderTile();
  auto fail = [&](const std::string &text) -> std::optional<OperandImage> {
    if (why)
      *why = text;
    return std::nullopt;
  };
  if (!tile)
    return fail("the buffer has no order");
  std::optional<LayoutMap> map = LayoutMap::get(tile, why);
  if (!map)
    return std::nullopt;
  OperandImage img(*map, lds.getOrderTranspose());
  img.esize = tile::elementBytes(lds.getElementType());
  MemoryView view = img.view();
  if (getChipInfo(chip).hasTransposingLdsRead && fitsTransposingRead(view, img.esize)) {
    int64_t e = transposedElements(img.esize);
    img.isTransposing = true;
    img.bytes = 8;
    img.regsPerAccess = e;
    for (int64_t t = 0; t < view.map.numRegs() / e; ++t)
      img.firstReg.push_back(e * t);
    return img;
  }
  // Plain reads: the tile's access runs (as any lds_load reads them), all
  // of one length.
  int64_t n = 0;
  for (auto [first, run] : accessRuns(view, img.esize)) {
    if (n && run != n)
      return fail("the tile's lanes read runs of different lengths from the array (" +
                  std::to_string(n) + " and " + std::to_string(run) + " elements)");
    n = run;
    img.firstReg.push_back(first);
  }
  img.regsPerAccess = n;
  img.bytes = n * img.esize;
  if (img.bytes % 4 != 0)
    return fail("a lane reads " + std::to_string(img.bytes) +
                " bytes per access; the order needs whole dwords");
  return img;
}

std::pair<int64_t, int64_t> OperandImage::elementAt(int64_t offset) const {
  MemoryView v = view();
  int64_t k = offset / (64 * bytes);
  unsigned lane = unsigned((offset % (64 * bytes)) / bytes);
  int64_t elem = (offset % bytes) / esize;
  if (isTransposing) {
    auto [l0, u] = transposedSource(lane, regsPerAccess);
    int64_t reg = firstReg[k] + u;
    return {v.rowOfLane(l0) + v.rowOfReg(reg), v.colOfLane(l0) + v.colOfReg(reg) + elem};
  }
  int64_t reg = firstReg[k] + elem;
  return {v.rowOfLane(lane) + v.rowOfReg(reg), v.colOfLane(lane) + v.colOfReg(reg)};
}

std::optional<llvm::SmallVector<LaneBitField>>
lowering::bitAdditiveFields(llvm::ArrayRef<int64_t> f) {
  size_t n = f.size();
  if (n == 0 || f[0] != 0)
    return std::nullopt;
  unsigned bits = 0;
  while ((size_t(1) << bits) < n)
    ++bits;
  llvm::SmallVector<int64_t> coef(bits, 0);
  for (unsigned b = 0; b < bits; ++b)
    coef[b] = f[size_t(1) << b];
  for (size_t i = 0; i < n; ++i) {
    int64_t sum = 0;
    for (unsigned b = 0; b < bits; ++b)
      if ((i >> b) & 1)
        sum += coef[b];
    if (sum != f[i])
      return std::nullopt;
  }
  // Runs of bits whose coefficients double make one field each.
  llvm::SmallVector<LaneBitField> fields;
  for (unsigned b = 0; b < bits;) {
    if (coef[b] == 0) {
      ++b;
      continue;
    }
    unsigned e = b + 1;
    while (e < bits && coef[e] == 2 * coef[e - 1])
      ++e;
    fields.push_back({b, (1u << (e - b)) - 1, coef[b]});
    b = e;
  }
  return fields;
}

std::optional<ImageCopyPlan> lowering::planImageCopy(const OperandImage &img, int64_t width,
                                                     int64_t lines, int64_t waves,
                                                     std::string *why) {
  auto fail = [&](const std::string &text) -> std::optional<ImageCopyPlan> {
    if (why)
      *why = text;
    return std::nullopt;
  };
  int64_t esize = img.elementBytes(), perLane = width / esize;
  int64_t lineBytes = 64 * width;
  ImageCopyPlan plan;
  plan.lineRow.resize(lines);
  plan.lineCol.resize(lines);
  llvm::SmallVector<int64_t> laneRow(64), laneCol(64);
  for (int64_t L = 0; L < lines; ++L)
    for (int64_t i = 0; i < 64; ++i) {
      int64_t at = L * lineBytes + i * width;
      auto [r, c] = img.elementAt(at);
      for (int64_t e = 1; e < perLane; ++e)
        if (img.elementAt(at + e * esize) != std::make_pair(r, c + e))
          return fail(" with " + std::to_string(width) + "-byte DMA lanes: the " +
                      std::to_string(width) + " bytes at LDS offset " + std::to_string(at) +
                      " are not adjacent in memory; use a narrower 'width'");
      if (i == 0) {
        plan.lineRow[L] = r;
        plan.lineCol[L] = c;
      }
      int64_t dr = r - plan.lineRow[L], dc = c - plan.lineCol[L];
      if (L == 0) {
        laneRow[i] = dr;
        laneCol[i] = dc;
      } else if (dr != laneRow[i] || dc != laneCol[i]) {
        return fail(": the lanes of DMA lines 0 and " + std::to_string(L) +
                    " fetch differently shaped parts of memory");
      }
    }
  auto rowFields = bitAdditiveFields(laneRow), colFields = bitAdditiveFields(laneCol);
  if (!rowFields || !colFields)
    return fail(": a DMA lane's place in memory is not a sum of strides of its lane bits");
  plan.laneRow = *rowFields;
  plan.laneCol = *colFields;
  plan.powerOfTwoWaves = llvm::isPowerOf2_64(uint64_t(waves));
  if (plan.powerOfTwoWaves) {
    llvm::SmallVector<int64_t> wr(waves), wc(waves);
    for (int64_t w = 0; w < waves; ++w) {
      wr[w] = plan.lineRow[w] - plan.lineRow[0];
      wc[w] = plan.lineCol[w] - plan.lineCol[0];
    }
    for (int64_t k = 0; k < lines / waves; ++k)
      for (int64_t w = 0; w < waves; ++w)
        if (plan.lineRow[k * waves + w] - plan.lineRow[k * waves] != wr[w] ||
            plan.lineCol[k * waves + w] - plan.lineCol[k * waves] != wc[w])
          return fail(": the waves' DMA lines do not repeat by a constant step");
    auto wrf = bitAdditiveFields(wr), wcf = bitAdditiveFields(wc);
    if (!wrf || !wcf)
      return fail(": the waves' first DMA lines are not a sum of strides of the wave's bits");
    plan.waveRow = *wrf;
    plan.waveCol = *wcf;
    return plan;
  }
  auto lrf = bitAdditiveFields(plan.lineRow), lcf = bitAdditiveFields(plan.lineCol);
  if (!lrf || !lcf)
    return fail(": a DMA line's place in memory is not a sum of strides of its index bits");
  plan.lineRowFields = *lrf;
  plan.lineColFields = *lcf;
  return plan;
}
