//===- GemmOp.cpp - kcc::ops::gemm, the host side of gemm.mlir ------------===//
#include "kernels/gemm/GemmOp.h"
#include "kernels/gemm/GemmOperands.h"
#include "kernels/OperandBuffers.h"
#include "target/Error.h"
#include "target/CodeObject.h"
#include "kernels/EmbeddedKernels.h"
#include "runtime/Buffer.h"
#include "runtime/Jit.h"
#include "runtime/Kernel.h"
#include "runtime/Module.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>

using namespace llvm;

namespace kcc::ops {

/// What this file's errors name first.
constexpr llvm::StringLiteral kComponent = "gemm";
/// The columns of a row of C one gemm_reduce.mlir workgroup sums.
constexpr int64_t kReduceCols = 256;
/// The largest M that takes the decode tile (gemmParams).
constexpr int64_t kDecodeRows = 64;
/// The least K a split-K share runs. Each split writes and reads back an
/// f32 partial per element of C, 8 bytes per 2 share-K FLOPs: at 512 that
/// is 1 byte per 128 FLOPs, which caches absorb; shorter shares would also
/// be mostly the loop's prologue and the store of the partials.
constexpr int64_t kMinShareK = 512;
namespace {

bool isIn(DType t) { return t == DType::bf16 || t == DType::f16; }

/// Whether gemm.mlir can read `m` in place: it moves K in pairs of elements
/// with 4-byte DMA, so K and the row stride must be even.
bool readableInPlace(const MatrixRef &m) {
  return m.cols % 2 == 0 && m.stride() % 2 == 0;
}

/// An eight-wave PINGPONG tile: its waves' blocks and grid, and its speed
/// where it and the 128x128 tile both fill every CU slot of their rounds,
/// relative to the 128x128 tile's.
struct PingpongTile {
  int64_t wm, wn, wgm, wgn;
  double speed;
  bool ppreg; // the blocks through registers (PPREG), not by LDS DMA
  int64_t bk; // K per block: 64 with gfx950's 16-byte DMA, 32 on gfx942
  int64_t rows() const { return wm * wgm; }
  int64_t cols() const { return wn * wgn; }
};

/// The chip's PINGPONG tiles, with their speeds as measured below
/// (pickPingpong).
std::vector<PingpongTile> pingpongTiles(Chip chip) {
  if (chip == Chip::gfx950)
    return {{128, 64, 2, 4, 1.009, false, 64}};
  return {{128, 64, 2, 4, 1.113, true, 32}, {64, 64, 4, 2, 1.112, true, 32}};
}

/// The PINGPONG tile ops::gemm takes, if one beats the 128x128 tile. Each
/// tile's time goes with the rounds its workgroups take, so a tile scores
/// the fraction of its rounds' CU slots it fills (the 128x128 tile's
/// workgroups four to a gfx950 CU, two to a gfx942 one; a PINGPONG
/// workgroup has a CU to itself) times its speed at equal fill, measured
/// with gemm_bench on the calibrated model: gfx950 256x256 at 8192^3
/// 1588.6 against 1574.3 TFLOPS (1.009; 1597.4 against 1560.5 before the
/// 128x128 tile's loop had its interior version; whole runs at 4096^3:
/// 1572.3 against 1561.2; its 256x128, 1560.7 then, does not
/// pay); gfx942 moves the blocks through registers (PPREG): at
/// 16384x8192x8192, both 96%
/// filled, 256x256 792.0 against 711.4 (1.113), and at 8192^3, 96% filled
/// by both, 256x128 791.4, 98.8% MFMA busy, against 711.4 (1.112; 256x256
/// fills only 84% there). By the DMA, eight lines to an M0 write since
/// the copies share it, the same tiles read 797.2 and 791.1 TFLOPS (1.34
/// and 2.13 other instructions per MFMA against PPREG's 1.91 and 3.22;
/// 773.3 and 734.8 with an M0 write a line), but their lines' scalar
/// offsets spill 50 and 23 SGPRs in the edge blocks' loop: PPREG stays,
/// with no spills, where the DMA gains under 1%. With far fewer tiles than
/// CUs the 128x128 tile's workgroups run faster than in the steady state
/// (gfx950 4096x1280x8192, 80 256x256 tiles for 256 CUs: 804.6 against
/// 499.2), so a PINGPONG tile needs tiles for three quarters of the CUs.
/// gfx950's PINGPONG takes the 16-byte DMA (K a multiple of 8); its
/// prologue is a whole block, so K below 512 keeps the smaller tile.
std::optional<PingpongTile> pickPingpong(Chip chip, GemmSize size, int64_t k) {
  bool is950 = chip == Chip::gfx950;
  int64_t cus = getChipInfo(chip).computeUnits;
  if (k < 512 || (is950 && k % 8 != 0))
    return std::nullopt;
  auto tilesOf = [&](int64_t rows, int64_t cols) {
    return ((size.m + rows - 1) / rows) * ((size.n + cols - 1) / cols);
  };
  int64_t perCu128 = is950 ? 4 : 2;
  double best = gemmRoundFill(tilesOf(128, 128), perCu128 * cus);
  std::optional<PingpongTile> pick;
  for (const PingpongTile &t : pingpongTiles(chip)) {
    int64_t tiles = tilesOf(t.rows(), t.cols());
    if (4 * tiles < 3 * cus)
      continue;
    double score = t.speed * gemmRoundFill(tiles, cus);
    if (score >= best) {
      best = score;
      pick = t;
    }
  }
  return pick;
}

/// The workgroup's block of C and its waves, from the kernel's parameters
/// (gemm.mlir's defaults where one is not given).
struct GemmBlock {
  int64_t bm, bn, waves;
  explicit GemmBlock(ArrayRef<ParamBinding> params) {
    int64_t wgm = paramInteger(params, "WGM").value_or(2);
    int64_t wgn = paramInteger(params, "WGN").value_or(2);
    bm = paramInteger(params, "WM").value_or(64) * wgm;
    bn = paramInteger(params, "WN").value_or(64) * wgn;
    waves = wgm * wgn;
  }
};


/// The workgroups of the tile in `p` that one CU holds at once, as its LDS
/// (two buffers of BM + BN rows of BK 16-bit elements) allows; gfx950's
/// 128x128 tile at BK=32 is held to four (gemmLaunch).
int64_t workgroupsPerCu(Chip chip, ArrayRef<ParamBinding> p) {
  GemmBlock block(p);
  int64_t bk = paramInteger(p, "BK").value_or(32), pad = paramInteger(p, "PAD").value_or(0);
  int64_t lds = 2 * (block.bm + block.bn) * (bk + pad) * 2;
  int64_t n = lds > 0 ? std::max<int64_t>(getChipInfo(chip).ldsBytesPerCU / lds, 1) : 1;
  if (chip == Chip::gfx950 && block.bm == 128 && block.bn == 128 && bk == 32)
    n = std::min<int64_t>(n, 4);
  return n;
}

/// Dense 16-bit MFMA FLOP/s of one CU and HBM bytes/s, from AMD's data
/// sheets (target/'s ChipInfo: the chip's peak over its CUs), and the share
/// of the peak a GEMM's loop sustains once the clock falls under the power
/// limit (the timing model's 8192^3: 1.55 of 2.4 GHz at 98% MFMA busy).
/// The split estimate weighs the main loop's time against the partials'
/// traffic with them; only their ratio matters. MI300X's partials go
/// through its 256 MB Infinity Cache at 17.2 TB/s peak (AMD's CDNA 3
/// launch material; ChipInfo) when all of them fit: the reduction launch
/// follows the GEMM at once, so they are read back before anything evicts
/// them. For MI355X's Infinity Cache no bandwidth figure was found that this
/// estimate could stand on: its partials are charged at HBM's rate.
struct SplitCosts {
  double flopsPerCu, hbmBytesPerSecond;
  double cacheBytes = 0, cacheBytesPerSecond = 0;
};
SplitCosts splitCosts(Chip chip) {
  const ChipInfo &ci = getChipInfo(chip);
  SplitCosts c{ci.peakDense16Flops / ci.computeUnits, ci.hbmBytesPerSecond};
  if (ci.infinityCacheBytesPerSecond > 0) {
    c.cacheBytes = ci.infinityCacheBytes;
    c.cacheBytesPerSecond = ci.infinityCacheBytesPerSecond;
  }
  return c;
}
constexpr double kSustainedShare = 0.6;

/// A tile as the split estimate sees it: its block of C, how many of its
/// workgroups a CU holds at once, and its speed relative to the 128x128
/// tile's where both fill their rounds (PingpongTile::speed; 1 for the
/// 128x128 tile itself).
struct SplitTile {
  int64_t bm, bn, perCu;
  double speed;
};

/// A number of splits and its estimated time (seconds; only comparisons
/// between estimates of one shape mean anything).
struct SplitPick {
  int64_t splits;
  double seconds;
};

/// How many workgroups should split the K blocks of each block of C, for
/// `tile` with K blocks of `bk`. The CUs hold `slots` workgroups at once; a
/// launch of w equal workgroups takes ceil(w / slots) rounds, so with s
/// splits the main loop takes ceil(tiles s / slots) rounds of a K / s
/// share. Each split also writes an f32 partial per element of C that the
/// reduction reads back (through the Infinity Cache where SplitCosts has
/// one and all the partials fit). The pick is the s whose estimated time is
/// least, 1 (no reduction launch) on a tie. Each share keeps at least
/// kMinShareK of K, and the partials stay within a 32-bit buffer range.
///
/// With `shortTail`, a last round that leaves the CUs fewer workgroups than
/// they hold takes that fraction of a round: the best case for a tile that
/// shares its CU (a workgroup alone would run perCu times as fast), which
/// pickSplitPingpong grants the 128x128 tile it weighs a PINGPONG tile
/// against.
SplitPick bestSplit(Chip chip, const SplitTile &tile, int64_t bk, GemmSize size,
                    bool shortTail = false) {
  int64_t tiles = ((size.m + tile.bm - 1) / tile.bm) * ((size.n + tile.bn - 1) / tile.bn);
  int64_t cus = getChipInfo(chip).computeUnits;
  // (No blocks at all: a size gemm() refuses, but gemmParams answers for
  // any. BK <= 0: an override the compiler refuses.)
  if (tiles <= 0 || bk <= 0)
    return {1, 0.0};
  int64_t k = size.k + size.k % 2;
  int64_t nk = (k + bk - 1) / bk;
  int64_t slots = cus * tile.perCu;
  int64_t most = std::min(k / kMinShareK, nk);
  uint64_t slice = uint64_t(size.m) * uint64_t(gemmPartialsStride(size.n)) * 4;
  most = std::min<int64_t>(most, int64_t(UINT32_MAX / std::max<uint64_t>(slice, 1)));
  SplitCosts c = splitCosts(chip);
  // One round: each CU runs perCu workgroups' whole-K products.
  double round = double(tile.perCu) * 2.0 * double(tile.bm) * double(tile.bn) * double(k) /
                 (c.flopsPerCu * kSustainedShare * tile.speed);
  auto cost = [&](int64_t s) {
    int64_t w = tiles * s;
    double rounds = double((w + slots - 1) / slots);
    if (shortTail && w % slots != 0)
      rounds = double(w / slots) +
               double(std::min((w % slots + cus - 1) / cus, tile.perCu)) / double(tile.perCu);
    double time = rounds * round / double(s);
    if (s == 1)
      return time;
    // The partials, written and read back.
    double bytes = 2.0 * double(size.m) * double(size.n) * 4.0 * double(s);
    bool cached = c.cacheBytes > 0 && double(slice) * double(s) <= c.cacheBytes;
    return time + bytes / (cached ? c.cacheBytesPerSecond : c.hbmBytesPerSecond);
  };
  SplitPick best{1, cost(1)};
  for (int64_t s = 2; s <= most; ++s)
    if (double t = cost(s); t < best.seconds)
      best = {s, t};
  return best;
}

/// The split for the tile in `p` (bestSplit). On the timing model
/// (gemm_bench --iterations 8), gfx942's eight-wave 128x128 tile: 4096 x
/// 1280 x 8192 (320 tiles, 608 slots) 1 split 402.9 TFLOPS, 3 583.7, 5
/// 634.6; 256 x 8192 x 28672 4 splits (as many as fill one round) 639.8,
/// 9 711.6. The model's reduction reads the partials from its L2 (about
/// 1 us a split at 4096 x 1280) where the estimate charges the Infinity
/// Cache (2.4 us) or, on gfx950, HBM (5.2 us): where the partials do not
/// stay in a cache the estimate is the hardware's, and it picks fewer
/// splits than the model would. A PINGPONG tile is split only where
/// gemmParams chose it split (pickSplitPingpong), with the split chosen with
/// it.
int64_t splitKFor(Chip chip, ArrayRef<ParamBinding> p, GemmSize size) {
  GemmBlock block(p);
  SplitTile tile{block.bm, block.bn, workgroupsPerCu(chip, p), 1.0};
  return bestSplit(chip, tile, paramInteger(p, "BK").value_or(32), size).splits;
}

/// Where no PINGPONG tile fills the CUs unsplit (pickPingpong), a split one
/// may: the PINGPONG tile and its split that bestSplit estimates fastest,
/// if that estimate is at least kSplitPingpongMargin below the estimate of
/// the 128x128 tile (`tile128`, its parameters as gemmParams chose them)
/// with its own best split. The margin keeps the pick where the estimates
/// are close and the model's measurements go both ways: gfx950's 256x256
/// replayed whole (--full) with 8 splits 1509.2 TFLOPS against the 128x128
/// tile's 1499.1 at 256 x 8192 x 28672 (estimates equal within 1%), 3
/// splits 1320.6 against 1345.4 at 4096 x 1280 x 8192 (estimate 1% lower).
/// On gfx942 the PINGPONG tiles win clearly (--full): at 4096 x 1280 x
/// 8192 the 256x256 with 7 splits (estimate 9% lower) 659.2 against the
/// 128x128 tile's 575.2 (3 splits, the pick before; the 256x128 with 5
/// splits 650.4); at 256 x 8192 x 28672 the 256x128 with 14 splits 762.1
/// against 704.1 (9 splits). The README lists every pick this changed in a
/// sweep of LLM shapes, with both figures.
constexpr double kSplitPingpongMargin = 0.95;
std::optional<std::pair<PingpongTile, int64_t>>
pickSplitPingpong(Chip chip, GemmSize size, ArrayRef<ParamBinding> tile128) {
  // gfx950's PINGPONG tile takes the 16-byte DMA (pickPingpong). Shares
  // shorter than kMinShareK are bestSplit's to refuse.
  int64_t k = size.k + size.k % 2;
  if (chip == Chip::gfx950 && k % 8 != 0)
    return std::nullopt;
  GemmBlock block(tile128);
  SplitTile small{block.bm, block.bn, workgroupsPerCu(chip, tile128), 1.0};
  double best = kSplitPingpongMargin *
                bestSplit(chip, small, paramInteger(tile128, "BK").value_or(32), size,
                          /*shortTail=*/true)
                    .seconds;
  std::optional<std::pair<PingpongTile, int64_t>> pick;
  for (const PingpongTile &t : pingpongTiles(chip)) {
    SplitPick s = bestSplit(chip, {t.rows(), t.cols(), 1, t.speed}, t.bk, size);
    if (s.splits > 1 && s.seconds < best) {
      best = s.seconds;
      pick = {t, s.splits};
    }
  }
  return pick;
}

} // namespace

std::vector<std::string> gemmParams(Chip chip, DType in, DType out, bool hasBias,
                                   GemmSize size, const std::vector<std::string> &overrides) {
  // Every choice below was measured on the calibrated timing model with
  // benchmarks/gemm_bench (README, "GEMM"). LDS rows are swizzled rather
  // than padded: a DMA line (64 lanes x 4 or 16 bytes) fills LDS
  // contiguously, so only a swizzle keeps the MFMA operand reads free of
  // bank conflicts for any row length.
  //
  // Large shapes take an eight-wave PINGPONG tile (pickPingpong), and
  // so do shapes whose PINGPONG tiles fill the CUs only when K is split,
  // where that is estimated clearly faster than the split 128x128 tile
  // (pickSplitPingpong); else, on gfx950, 128x128 workgroup tiles (64x64 per wave). With at least as
  // many tiles as CUs they take BK=32 (K slices of 16): 32 KiB of LDS each,
  // so four workgroups share a CU and one's waits hide under the others'
  // MFMAs (87% MFMA busy at 8192^3, 1559 TFLOPS; the 256x256 tile, whose
  // accumulators LLVM keeps moving between VGPRs and AGPRs, reached 63%,
  // 1270). With fewer tiles than CUs a CU holds one workgroup at most, and
  // BK=128 keeps its single wave per SIMD fed longer between barriers.
  // 16-byte DMA (WIDE) needs K a multiple of 8. gfx942's 64 KiB of LDS
  // take 128x128 with BK=32 and the 4-byte DMA, two workgroups a CU, in
  // eight waves of 32x64 (K slices of 32): the DMA's lines, each with its
  // M0 write, spread over twice the waves, and four waves a SIMD hide
  // each other's waits (on the model, split-K shapes: 4096x1280x8192
  // 554 -> 584 TFLOPS, 256x8192x28672 675 -> 712, 2048^3 whole 550 -> 568;
  // 68 -> 78% MFMA busy).
  //
  // Decode (M <= kDecodeRows): a 128-row tile would multiply mostly rows
  // past M. One row of four 32x32 waves, 32x128 per workgroup, computes a
  // quarter of the 128x128 tile's products for the same columns, and
  // split-K (splitKFor) gives the CUs enough of them. On the model (whole
  // replay, both with split-K) at N = K = 8192: M=1 20.5 against 9.9
  // TFLOPS (128x128, BK=32, 16 splits) on gfx950, 8.3 against 4.3 on
  // gfx942; M=33 407.8 against 316.8 and 190.1 against 140.0; M=64 788.2
  // against 607.4 and 442.4 against 269.9 (a 64x128 tile of 2 x 2 waves:
  // 722.6 and 453.1). BK=64 (16 and 8 splits) reads within 4% of BK=128.
  //
  // Split-K (splitKFor) fills the four BK=32 workgroups a gfx950 CU holds
  // (4096 x 1280 x 8192, 320 tiles: 3 splits, 1358 TFLOPS against 805
  // unsplit), so fewer tiles than CUs take BK=32 as well when K can be
  // split (at least 2 x kMinShareK; 256 x 8192 x 28672: 8 splits, 1505,
  // against 1178 with BK=128 and 2 splits); BK=128 where it cannot be (or
  // SPLITK=1 is given).
  bool is950 = chip == Chip::gfx950;
  bool decode = size.m <= kDecodeRows;
  // gemm() packs an odd K to K + 1 (see GemmOp.h): that is the K the
  // kernel reads.
  int64_t k = size.k + size.k % 2;
  KernelParams given = parseKernelParams(overrides);
  auto isGiven = [&](StringRef key) { return findParamBinding(given.bindings, key) != nullptr; };
  bool noSplit = paramInteger(given.bindings, "SPLITK").value_or(2) <= 1;
  bool splittable = !noSplit && k >= 2 * kMinShareK;
  auto num = [](StringRef key, int64_t v) { return ParamBinding{key.str(), v}; };
  auto type = [](StringRef key, DType d) { return ParamBinding{key.str(), dtypeName(d).str()}; };
  std::vector<ParamBinding> p = {type("DTYPE", in), type("OUT", out)};
  int64_t cus = getChipInfo(chip).computeUnits;
  int64_t tiles = ((size.m + 127) / 128) * ((size.n + 127) / 128);
  bool wide = is950 && k % 8 == 0;
  auto addPingpong = [&](const PingpongTile &t) {
    // Rows of BK 16-bit elements swizzled over all their 16-byte chunks.
    p.insert(p.end(), {num("WM", t.wm), num("WN", t.wn), num("WGM", t.wgm), num("WGN", t.wgn),
                       num("BK", t.bk), num("KS", t.bk), num("SWZ", t.bk * 2 / 16),
                       num("PINGPONG", 1), num("WPS", 2)});
    if (t.ppreg)
      p.push_back(num("PPREG", 1));
  };
  // The split a split PINGPONG pick was weighed with (pickSplitPingpong).
  std::optional<int64_t> pingpongSplit;
  // The 128x128 tile where K can be split or the tiles fill the CUs.
  std::vector<ParamBinding> tile128 =
      is950 ? std::vector<ParamBinding>{num("WM", 64), num("WN", 64), num("BK", 32),
                                        num("KS", 16), num("SWZ", 4)}
            : std::vector<ParamBinding>{num("WM", 32), num("WN", 64), num("WGM", 4),
                                        num("WGN", 2), num("BK", 32), num("KS", 32),
                                        num("SWZ", 4)};
  if (decode) {
    p.insert(p.end(), {num("WM", 32), num("WN", 32), num("WGM", 1), num("WGN", 4)});
    if (is950)
      p.insert(p.end(), {num("BK", 128), num("KS", 64), num("SWZ", 16)});
    else
      p.insert(p.end(), {num("BK", 32), num("KS", 16), num("SWZ", 4)});
  } else if (std::optional<PingpongTile> t = pickPingpong(chip, size, k)) {
    addPingpong(*t);
  } else if (std::optional<std::pair<PingpongTile, int64_t>> ts =
                 splittable ? pickSplitPingpong(chip, size, tile128) : std::nullopt) {
    addPingpong(ts->first);
    pingpongSplit = ts->second;
  } else if (!is950 || tiles >= cus || splittable) {
    p.insert(p.end(), tile128.begin(), tile128.end());
  } else {
    p.insert(p.end(), {num("WM", 64), num("WN", 64), num("BK", 128), num("KS", 64),
                       num("SWZ", 16)});
  }
  if (is950) {
    p.push_back(num("WIDE", wide));
    // With 16-byte DMA, no branch around the loop's second fetch
    // (gemm.mlir): 1511 -> 1559 TFLOPS at 8192^3 (gemm_bench --iterations
    // 48). The 4-byte DMA's lines would spill scalar registers.
    if (wide)
      p.push_back(num("FETCH_ALWAYS", 1));
  }
  p.push_back(num("PAD", 0));
  p.push_back(num("HAS_BIAS", hasBias));
  for (const ParamBinding &o : given.bindings)
    setParamBinding(p, o);
  // An override of BK alone keeps the swizzle within the new row (at most
  // one chunk XOR per 16-byte chunk of it; none below 2).
  if (!isGiven("SWZ")) {
    int64_t rowChunks = paramInteger(p, "BK").value_or(32) * int64_t(dtypeSize(in)) / 16;
    int64_t swz = std::min(paramInteger(p, "SWZ").value_or(0), rowChunks);
    setParamBinding(p, num("SWZ", swz >= 2 ? int64_t(llvm::bit_floor(uint64_t(swz))) : 0));
  }
  // The register path splits each buffer's rows over the 4 waves of the
  // 2 x 2 grid: it needs WM = WN, a multiple of 32 (RROWS a multiple of 8).
  // Other tilings fall back to the DMA into unpadded rows.
  if (paramInteger(p, "REG").value_or(0)) {
    int64_t wm = paramInteger(p, "WM").value_or(64), wn = paramInteger(p, "WN").value_or(64);
    bool grid2x2 =
        paramInteger(p, "WGM").value_or(2) == 2 && paramInteger(p, "WGN").value_or(2) == 2;
    if (wm != wn || wm % 32 != 0 || !grid2x2) {
      eraseParamBinding(p, "RROWS");
      setParamBinding(p, num("REG", 0));
      setParamBinding(p, num("PAD", 0));
    } else if (paramInteger(p, "RROWS") != wm / 4) {
      setParamBinding(p, num("RROWS", wm / 4));
    }
  }
  // PPREG belongs to the PINGPONG loop: an override of PINGPONG=0 takes
  // the choice's PPREG with it (one given explicitly stays, and is refused
  // by checkGemmParams).
  if (!isGiven("PPREG") && !paramInteger(p, "PINGPONG").value_or(0))
    for (StringRef key : {"PPREG", "RA", "RB"})
      eraseParamBinding(p, key);
  // PPREG moves each wave's share of a block, BM / waves rows of A and
  // BN / waves of Bt (gemm.mlir's RA, RB).
  if (paramInteger(p, "PPREG").value_or(0)) {
    GemmBlock block(p);
    for (auto [key, rows] : {std::pair<StringRef, int64_t>{"RA", block.bm},
                             std::pair<StringRef, int64_t>{"RB", block.bn}})
      setParamBinding(p, num(key, rows / std::max<int64_t>(1, block.waves)));
  }
  // Split-K, unless given: see splitKFor; a PINGPONG tile (after the
  // overrides) keeps the split it was picked with, none if it was picked
  // unsplit or given. With a split the kernel stores f32 partial sums,
  // which gemm_reduce.mlir sums, biases and converts.
  if (!isGiven("SPLITK")) {
    int64_t s = paramInteger(p, "PINGPONG").value_or(0) ? pingpongSplit.value_or(1)
                                                         : splitKFor(chip, p, size);
    if (s > 1)
      p.push_back(num("SPLITK", s));
  }
  if (paramInteger(p, "SPLITK").value_or(1) > 1) {
    eraseParamBinding(p, "OUT");
    eraseParamBinding(p, "HAS_BIAS");
    p.push_back(type("OUT", DType::f32));
    p.push_back(num("HAS_BIAS", 0));
  }
  // Malformed overrides (none bound above) go last, for the JIT to refuse.
  return kernelParamsWithOverrides(std::move(p), {{}, given.malformed});
}

double gemmRoundFill(int64_t tiles, int64_t slots) {
  int64_t rounds = (tiles + slots - 1) / slots;
  return double(tiles) / double(rounds * slots);
}

/// The splits of K that `params` bind (1: none).
static int64_t splitsOf(ArrayRef<ParamBinding> params) {
  return paramInteger(params, "SPLITK").value_or(1);
}

int64_t gemmSplits(const std::vector<std::string> &params) {
  return splitsOf(parseKernelParams(params).bindings);
}

int64_t gemmPartialsStride(int64_t n) { return (n + 3) / 4 * 4; }

/// checkGemmParams on the bindings.
static Error checkGemmBindings(ArrayRef<ParamBinding> params, int64_t kernelK) {
  if (paramInteger(params, "WIDE").value_or(0) && kernelK % 8 != 0)
    return makeError(kComponent, "WIDE=1 (16-byte DMA) needs K a multiple of 8; K is " +
                                     Twine(kernelK) + " (leave WIDE to the tile choice)");
  // PINGPONG splits the waves into two groups of one wave per SIMD each.
  GemmBlock block(params);
  bool pingpong = paramInteger(params, "PINGPONG").value_or(0);
  if (pingpong && (block.waves < 2 || block.waves % 2 != 0))
    return makeError(kComponent, "PINGPONG=1 splits the workgroup's waves into two groups: it "
                                 "needs an even number of waves, WGM x WGN = " +
                                     Twine(block.waves) + " (eight pair them on every SIMD)");
  // PPREG: each wave moves BM / waves rows of A and BN / waves of Bt, in
  // layouts of 16 rows.
  if (paramInteger(params, "PPREG").value_or(0)) {
    if (!pingpong)
      return makeError(kComponent, "PPREG=1 moves the blocks of the PINGPONG loop; it needs "
                                   "PINGPONG=1");
    int64_t bk = paramInteger(params, "BK").value_or(32);
    if (block.bm % (16 * block.waves) || block.bn % (16 * block.waves) || bk % 32)
      return makeError(kComponent, "PPREG=1 gives each of the " + Twine(block.waves) +
                                       " waves 16-row groups of the " + Twine(block.bm) + "x" +
                                       Twine(block.bn) + " block and 32-column groups of BK=" +
                                       Twine(bk) + ": BM and BN must be multiples of 16 x " +
                                       Twine(block.waves) + ", BK of 32");
  }
  int64_t splits = splitsOf(params);
  if (splits < 1)
    return makeError(kComponent, "SPLITK=" + Twine(splits) +
                                     " must be at least 1 (1: K is not split)");
  return Error::success();
}

Error checkGemmParams(const std::vector<std::string> &params, int64_t kernelK) {
  return checkGemmBindings(parseKernelParams(params).bindings, kernelK);
}

/// gemmGrid on the bindings.
static Dim3 gridOf(ArrayRef<ParamBinding> params, int64_t m, int64_t n) {
  GemmBlock block(params);
  return Dim3(uint32_t((m + block.bm - 1) / block.bm), uint32_t((n + block.bn - 1) / block.bn),
              uint32_t(splitsOf(params)));
}

Dim3 gemmGrid(const std::vector<std::string> &params, int64_t m, int64_t n) {
  return gridOf(parseKernelParams(params).bindings, m, n);
}

/// gemmLaunch on the bindings.
static LaunchConfig launchOf(Chip chip, ArrayRef<ParamBinding> params, int64_t m, int64_t n,
                             uint32_t staticLdsBytes) {
  GemmBlock block(params);
  LaunchConfig config;
  config.grid = gridOf(params, m, n);
  config.block = Dim3(uint32_t(64 * block.waves));
  // gfx950's 128x128 tile at BK=32 holds 32 KiB of LDS and 96 VGPRs, so
  // five workgroups would share a CU; the fifth adds L2 traffic and no
  // matrix throughput (8192^3 on the calibrated model: 1200 TFLOPS with
  // five, 1560 with four). Dynamic LDS up to a quarter of the CU's keeps
  // four; the code is the same (LLVM schedules it for the static LDS).
  bool tile128 = block.bm == 128 && block.bn == 128;
  if (chip == Chip::gfx950 && tile128 && paramInteger(params, "BK").value_or(32) == 32) {
    uint32_t quarter = uint32_t(getChipInfo(chip).ldsBytesPerCU / 4) / 512 * 512;
    if (staticLdsBytes < quarter)
      config.dynamicLdsBytes = quarter - staticLdsBytes;
  }
  return config;
}

LaunchConfig gemmLaunch(Chip chip, const std::vector<std::string> &params, int64_t m,
                        int64_t n, uint32_t staticLdsBytes) {
  return launchOf(chip, parseKernelParams(params).bindings, m, n, staticLdsBytes);
}

Error checkGemm(const MatrixRef &a, const MatrixRef &bt, const MatrixRef &c,
                const std::optional<VectorRef> &bias) {
  std::vector<NamedBuffer> buffers = {{"A", a.buffer}, {"Bt", bt.buffer}, {"C", c.buffer}};
  if (bias)
    buffers.push_back({"bias", bias->buffer});
  if (Error e = checkOperandBuffers(kComponent, buffers))
    return e;

  if (!isIn(a.dtype))
    return makeError(kComponent, "A is " + dtypeName(a.dtype) + "; A and Bt must be bf16 or f16");
  if (bt.dtype != a.dtype)
    return makeError(kComponent, "Bt is " + dtypeName(bt.dtype) + " but A is " +
                 dtypeName(a.dtype) + "; A and Bt must have the same dtype");
  if (c.dtype != DType::bf16 && c.dtype != DType::f16 && c.dtype != DType::f32)
    return makeError(kComponent, "C is " + dtypeName(c.dtype) + "; C must be bf16, f16 or f32");
  if (bias && bias->dtype != a.dtype)
    return makeError(kComponent, "bias is " + dtypeName(bias->dtype) + "; it must have A's dtype (" +
                 dtypeName(a.dtype) + ")");

  // Shapes before strides and sizes: an odd K is the root cause of an odd
  // packed leading dimension, and the message should say so.
  for (auto [name, m] : {std::pair<const char *, const MatrixRef *>{"A", &a},
                         {"Bt", &bt}, {"C", &c}})
    if (m->rows <= 0 || m->cols <= 0)
      return makeError(kComponent, name + Twine(" is ") + matrixShapeText(*m) +
                   "; every dimension must be positive");
  if (a.cols != bt.cols)
    return makeError(kComponent, "A is " + matrixShapeText(a) + " but Bt is " + matrixShapeText(bt) +
                 "; both need K columns");
  // An odd K or leading dimension is packed first (see gemm()).
  if (Error e = checkMatrixOperand(kComponent, "A", a))
    return e;
  if (Error e = checkMatrixOperand(kComponent, "Bt", bt))
    return e;
  if (c.rows != a.rows || c.cols != bt.rows)
    return makeError(kComponent, "C is " + matrixShapeText(c) + "; expected " + Twine(a.rows) + "x" +
                 Twine(bt.rows) + " (A's rows x Bt's rows)");
  if (Error e = checkMatrixOperand(kComponent, "C", c))
    return e;
  if (bias) {
    if (bias->size != bt.rows)
      return makeError(kComponent, "bias has " + Twine(bias->size) + " elements; expected N = " +
                   Twine(bt.rows));
    uint64_t bytes = uint64_t(bias->size) * dtypeSize(bias->dtype);
    if (bytes > bias->buffer->size())
      return makeError(kComponent, "bias (" + Twine(bias->size) + " " + dtypeName(bias->dtype) +
                   ") needs " + Twine(bytes) + " bytes; its buffer has " +
                   Twine(bias->buffer->size()));
  }
  return Error::success();
}

Expected<LaunchResult> gemm(const MatrixRef &a, const MatrixRef &bt,
                            const MatrixRef &c, const std::optional<VectorRef> &bias,
                            const GemmOptions &options) {
  if (Error e = checkGemm(a, bt, c, bias))
    return std::move(e);
  Device &device = a.buffer->device();
  Jit &jit = options.jit ? *options.jit : Jit::shared();
  std::vector<std::string> params =
      gemmParams(device.chip(), a.dtype, c.dtype, bias.has_value(),
                 {a.rows, bt.rows, a.cols}, options.params);
  // What the op inspects of its parameters, read once.
  std::vector<ParamBinding> bindings = parseKernelParams(params).bindings;
  int64_t kernelK = a.cols + a.cols % 2; // after packing (below)
  if (Error e = checkGemmBindings(bindings, kernelK))
    return std::move(e);
  int64_t splits = splitsOf(bindings);
  // The partial sums of a split: [splits M, ldw] f32, one buffer resource.
  int64_t ldw = gemmPartialsStride(bt.rows);
  uint64_t partialBytes = uint64_t(splits) * uint64_t(a.rows) * uint64_t(ldw) * 4;
  if (splits > 1 && partialBytes > UINT32_MAX)
    return makeError(kComponent, "SPLITK=" + Twine(splits) + " needs " + Twine(partialBytes) +
                                     " bytes of partial sums; the kernel reaches at most "
                                     "4294967295 bytes of them");
  // An odd K, or an odd leading dimension of A or Bt, is not what the
  // kernel's 4-byte DMA can read: such operands are packed first (both of
  // them when K is odd, the zero column adding nothing to the products).
  bool oddK = a.cols % 2 != 0;
  std::optional<PackedOperand> packedA, packedB;
  if (oddK || !readableInPlace(a)) {
    Expected<PackedOperand> p =
        packOperand(kComponent, "A", a, a.cols + a.cols % 2, jit, options.stream);
    if (!p)
      return p.takeError();
    packedA = std::move(*p);
  }
  if (oddK || !readableInPlace(bt)) {
    Expected<PackedOperand> p =
        packOperand(kComponent, "Bt", bt, bt.cols + bt.cols % 2, jit, options.stream);
    if (!p)
      return p.takeError();
    packedB = std::move(*p);
  }
  MatrixRef ga = packedA ? packedA->ref() : a;
  MatrixRef gb = packedB ? packedB->ref() : bt;
  Expected<Module> module = compileEmbeddedKernel(device, jit, "gemm", params);
  if (!module)
    return createStringError(inconvertibleErrorCode(),
                             "gemm: cannot compile the kernel: " +
                                 toString(module.takeError()));
  Expected<Kernel> kernel = module->kernel("gemm");
  if (!kernel)
    return kernel.takeError();

  LaunchConfig config = launchOf(device.chip(), bindings, a.rows, bt.rows,
                                 kernel->info().groupSegmentFixedSize);
  config.stream = options.stream;
  std::optional<Buffer> partials;
  if (splits > 1) {
    Expected<Buffer> w = Buffer::allocate(device, partialBytes);
    if (!w)
      return makeError(kComponent, "cannot allocate the " + Twine(partialBytes) +
                                       " bytes of split-K partial sums: " +
                                       toString(w.takeError()));
    partials = std::move(*w);
  }
  // Without a bias the kernel never reads the pointer, but the slot still
  // takes a device address: A's is a valid one. With a split the bias is
  // the reduction's.
  KernelArgValue biasArg = bias && !partials ? KernelArgValue(*bias->buffer)
                                             : KernelArgValue(*a.buffer);
  std::vector<KernelArgValue> args = {
      *ga.buffer,          *gb.buffer,          partials ? *partials : *c.buffer,
      biasArg,             int32_t(ga.rows),    int32_t(gb.rows),
      int32_t(ga.cols),    int32_t(ga.stride()), int32_t(gb.stride()),
      int32_t(partials ? ldw : c.stride())};
  Expected<LaunchResult> run = kernel->launch(config, args);
  if (!run || !partials)
    return run;
  Expected<LaunchResult> reduced =
      gemmReduce({*partials, DType::f32, splits * a.rows, bt.rows, ldw}, splits, c, bias, options);
  if (!reduced)
    return reduced.takeError();
  return bothLaunches(*run, *reduced);
}

Expected<LaunchResult> gemmReduce(const MatrixRef &partials, int64_t splits, const MatrixRef &c,
                                  const std::optional<VectorRef> &bias,
                                  const GemmOptions &options) {
  if (!partials.buffer || !c.buffer || (bias && !bias->buffer))
    return makeError(kComponent, "the split-K reduction needs the partials' and C's buffers"
                                 " (and the bias's, if any)");
  if (partials.dtype != DType::f32)
    return makeError(kComponent, "the split-K partials are " + dtypeName(partials.dtype) +
                                     "; they must be f32");
  if (splits < 1 || partials.rows != splits * c.rows || partials.cols != c.cols)
    return makeError(kComponent, "the split-K partials are " + matrixShapeText(partials) +
                                     "; expected " + Twine(splits) + " x " + Twine(c.rows) +
                                     " rows of " + Twine(c.cols) + " (SPLITK x C's shape)");
  if (partials.stride() % 4)
    return makeError(kComponent, "the split-K partials' leading dimension " +
                                     Twine(partials.stride()) +
                                     " is not a multiple of 4 (16-byte aligned rows)");
  if (Error e = checkMatrixOperand(kComponent, "the split-K partials", partials))
    return std::move(e);
  if (Error e = checkMatrixOperand(kComponent, "C", c))
    return std::move(e);
  if (bias && (bias->size != c.cols || !(isIn(bias->dtype) || bias->dtype == DType::f32)))
    return makeError(kComponent, "the split-K reduction's bias must be " + Twine(c.cols) +
                                     " bf16, f16 or f32 elements");
  Device &device = c.buffer->device();
  Jit &jit = options.jit ? *options.jit : Jit::shared();
  std::vector<std::string> params = {
      "DTYPE=" + (bias ? dtypeName(bias->dtype).str() : std::string("bf16")),
      "OUT=" + dtypeName(c.dtype).str(), std::string("HAS_BIAS=") + (bias ? "1" : "0"),
      "S=" + std::to_string(splits)};
  Expected<Module> module = compileEmbeddedKernel(device, jit, "gemm_reduce", params);
  if (!module)
    return makeError(kComponent, "cannot compile the split-K reduction: " +
                                     toString(module.takeError()));
  Expected<Kernel> kernel = module->kernel("gemm_reduce");
  if (!kernel)
    return kernel.takeError();
  LaunchConfig config;
  config.grid = Dim3(uint32_t(c.rows), uint32_t((c.cols + kReduceCols - 1) / kReduceCols));
  config.block = Dim3(64);
  config.stream = options.stream;
  KernelArgValue biasArg = bias ? KernelArgValue(*bias->buffer) : KernelArgValue(*c.buffer);
  std::vector<KernelArgValue> args = {*partials.buffer, *c.buffer,
                                      biasArg,          int32_t(c.rows),
                                      int32_t(c.cols),  int32_t(partials.stride()),
                                      int32_t(c.stride())};
  return kernel->launch(config, args);
}

} // namespace kcc::ops
