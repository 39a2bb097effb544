//===- AgGemmOp.cpp - kcc::ops::all_gather_gemm, host side of ag_gemm.mlir ===//
#include "kernels/collective/AgGemmOp.h"
#include "target/Error.h"
#include "kernels/EmbeddedKernels.h"
#include "kernels/gemm/GemmOp.h"
#include "target/CodeObject.h"
#include "target/Occupancy.h"
#include "runtime/Jit.h"
#include "runtime/Kernel.h"
#include "runtime/Module.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <climits>

using namespace llvm;

namespace kcc::ops {

/// What this file's errors name first.
constexpr llvm::StringLiteral kComponent = "all_gather_gemm";
namespace {

std::string shapeText(const MatrixRef &m) {
  return std::to_string(m.rows) + "x" + std::to_string(m.cols);
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Workgroups of `kernel` that one CU holds at once (target/Occupancy.h).
unsigned groupsPerCu(const KernelInfo &k, Chip chip, unsigned wavesPerGroup) {
  Occupancy occ =
      computeOccupancy(chip, kernelResources(k, chip, wavesPerGroup * 64));
  return std::max(occ.workgroupsPerCu, 1u);
}

Expected<Kernel> compileKernel(Device &device, Jit &jit, StringRef file,
                               StringRef name,
                               const std::vector<std::string> &params) {
  Expected<Module> module = compileEmbeddedKernel(device, jit, file, params);
  if (!module)
    return makeError(kComponent, "cannot compile " + file + ": " + toString(module.takeError()));
  return module->kernel(name);
}

/// Checks one per-rank matrix: shape, dtype, device, size.
Error checkMatrix(StringRef name, unsigned rank, const MatrixRef &m,
                  Device &device, int64_t rows, int64_t cols,
                  ArrayRef<DType> dtypes) {
  std::string who = (name + " of rank " + Twine(rank)).str();
  if (!m.buffer)
    return makeError(kComponent, who + " has no buffer");
  if (&m.buffer->device() != &device)
    return makeError(kComponent, who + " is on " + m.buffer->device().spec() +
                 " but rank " + Twine(rank) + " is " + device.spec());
  if (!is_contained(dtypes, m.dtype))
    return makeError(kComponent, who + " is " + dtypeName(m.dtype) + "; expected " +
                 dtypeName(dtypes.front()) +
                 (dtypes.size() > 1 ? " (or bf16/f16/f32 for C)" : ""));
  if (m.rows != rows || m.cols != cols)
    return makeError(kComponent, who + " is " + shapeText(m) + "; expected " + Twine(rows) +
                 "x" + Twine(cols));
  if (m.stride() < m.cols)
    return makeError(kComponent, who + "'s leading dimension " + Twine(m.stride()) +
                 " is less than its " + Twine(m.cols) + " columns");
  if (m.stride() % 2 && name == "Bt")
    return makeError(kComponent, who + "'s leading dimension " + Twine(m.stride()) +
                 " is odd; its rows must start 4-byte aligned");
  uint64_t bytes = (uint64_t(m.rows - 1) * uint64_t(m.stride()) + uint64_t(m.cols)) *
                   dtypeSize(m.dtype);
  if (bytes > UINT32_MAX)
    return makeError(kComponent, who + " spans " + Twine(bytes) +
                 " bytes; the kernel reaches at most 4294967295 bytes of an operand");
  if (bytes > m.buffer->size())
    return makeError(kComponent, who + " needs " + Twine(bytes) + " bytes; its buffer has " +
                 Twine(m.buffer->size()));
  return Error::success();
}

/// The workers' tile of the parameters the kernel is compiled with: the
/// op's choice, or what an override (AllGatherGemmOptions::params) made of
/// it. The grid and block follow it; the workspace's m tiles and k groups
/// must stay, and the per-wave row counts must match the tile.
Error tilesOfParams(const std::vector<std::string> &p, const AgGemmTiles &chosen,
                    AgGemmTiles &t) {
  t = chosen;
  std::vector<ParamBinding> bindings = parseKernelParams(p).bindings;
  auto get = [&](StringRef key, int64_t fallback) {
    return paramInteger(bindings, key).value_or(fallback);
  };
  t.wm = get("WM", t.wm);
  t.wn = get("WN", t.wn);
  t.wgm = get("WGM", t.wgm);
  t.wgn = get("WGN", t.wgn);
  t.ppreg = get("PPREG", t.ppreg) != 0;
  if (get("BK", t.bk) != chosen.bk || get("KG", t.kg) != chosen.kg)
    return makeError(kComponent, "the parameters give BK=" + Twine(get("BK", t.bk)) +
                     " and KG=" + Twine(get("KG", t.kg)) + "; the workspace's k groups are KG=" +
                     Twine(chosen.kg) + " of BK=" + Twine(chosen.bk) + " blocks");
  if (t.wm <= 0 || t.wn <= 0 || t.wgm <= 0 || t.wgn <= 0 || t.bm() != chosen.bm())
    return makeError(kComponent, "the parameters give the workers " + Twine(t.wgm) + " x " +
                     Twine(t.wgn) + " waves of " + Twine(t.wm) + " x " + Twine(t.wn) +
                     "; the workspace's m tiles need WGM x WM = " + Twine(chosen.bm()) + " rows");
  if (t.waves() % 2)
    return makeError(kComponent, "the workers' " + Twine(t.waves()) +
                     " waves do not split into two PINGPONG groups; WGM x WGN must be even");
  if (get("STAGE_MN", 0) && !t.ppreg)
    return makeError(kComponent, "the m-contiguous staging (STAGE_MN=1) is transposed on its "
                     "way through the waves' registers; it needs PPREG=1");
  for (auto [key, rows] : {std::pair<StringRef, int64_t>{"FR", t.bm()},
                           {"RA", t.bm()}, {"RB", t.bn()}}) {
    int64_t want = rows / t.waves();
    if (get(key, want) != want)
      return makeError(kComponent, key + "=" + Twine(get(key, want)) + " does not match the "
                       "workers' tile: " + Twine(rows) + " rows over " + Twine(t.waves()) +
                       " waves is " + Twine(want));
  }
  return Error::success();
}

} // namespace

Expected<AgGemmTiles> allGatherGemmTiles(Chip chip, int64_t M, int64_t K,
                                         unsigned world) {
  if (world == 0)
    return makeError(kComponent, "a world of 0 ranks");
  if (M <= 0 || K <= 0)
    return makeError(kComponent, "M = " + Twine(M) + " and K = " + Twine(K) +
                 " must be positive");
  if (K % world)
    return makeError(kComponent, "K = " + Twine(K) + " is not divisible by the world size " +
                 Twine(world) + "; every rank holds K / world columns of A");
  int64_t kl = K / world;
  AgGemmTiles t;
  // A K block never straddles two shards (a flag guards one shard's
  // columns), so each shard holds whole K blocks: 32 on gfx942 (four
  // 32x32x8 MFMAs per stage), 64 on gfx950 when the shard allows (its
  // PINGPONG GEMM's block, filled by the 16-byte DMA; else the blocks go
  // through registers, as on gfx942).
  t.bk = chip == Chip::gfx950 && kl % 64 == 0 ? 64 : 32;
  t.ppreg = t.bk != 64;
  if (kl % t.bk)
    return makeError(kComponent, "K = " + Twine(K) + " over " + Twine(world) +
                 " ranks gives shards of " + Twine(kl) +
                 " columns, not a multiple of the K block " + Twine(t.bk) +
                 "; K must be a multiple of world x " + Twine(t.bk));
  // A k group is the unit a flag guards: the largest multiple of BK that
  // divides the shard and is at most 256 columns, so that workers start on a
  // group while the rest of a large shard is still in flight, and small
  // shards cost one flag each.
  t.kg = t.bk;
  for (int64_t g = t.bk; g <= std::min<int64_t>(kl, 256); g += t.bk)
    if (kl % g == 0)
      t.kg = g;
  if (int64_t(M) * K > INT32_MAX)
    return makeError(kComponent, "M x K = " + Twine(M * K) +
                 " elements exceed the kernel's 32-bit staging indices");
  t.mTiles = ceilDiv(M, t.bm());
  t.nkGroups = K / t.kg;
  return t;
}

// The workers' tiles are ops::gemm's PINGPONG tiles (GemmOp.cpp,
// pickPingpong), 256 rows either way so that the flags' m tiles do not
// depend on N. A worker has a CU to itself, and its tiles take rounds of
// the workers: gfx942's 256x128 tile (4 x 2 waves of 64 x 64), as fast as
// its 256x256 one at equal fill, takes it where it fills the rounds better
// (the first seed's N = 3584 with 266 workers: 7 rounds 96% full against 4
// rounds 84% full). gfx950's 256x128 tile does not pay in ops::gemm; it
// keeps 256x256 but where the blocks go through registers with BK = 64
// (its m-contiguous staging): 256x256's operands, accumulators and shares
// would exceed a wave's 256 registers (69 spilled).
Expected<AgGemmTiles> allGatherGemmLaunchTiles(Chip chip, int64_t M, int64_t N, int64_t K,
                                               unsigned world, unsigned computeUnits,
                                               const AllGatherGemmOptions &options) {
  Expected<AgGemmTiles> tiles = allGatherGemmTiles(chip, M, K, world);
  if (!tiles)
    return tiles.takeError();
  AgGemmTiles &t = *tiles;
  // The m-contiguous staging reaches LDS through registers, transposed.
  t.ppreg |= options.mContiguousStaging;
  unsigned fetchers =
      options.fetchers ? options.fetchers : allGatherGemmFetchers(computeUnits, t);
  unsigned workers = computeUnits > fetchers ? computeUnits - fetchers : 1;
  bool narrow = t.ppreg && t.bk == 64;
  if (chip == Chip::gfx942)
    narrow = gemmRoundFill(t.mTiles * ceilDiv(N, 128), workers) >
             gemmRoundFill(t.mTiles * ceilDiv(N, 256), workers);
  if (narrow) {
    t.wm = 64;
    t.wn = 64;
    t.wgm = 4;
    t.wgn = 2;
  }
  return t;
}

// Fetchers get an eighth of the slots (copying a block is cheap next to the
// GEMM over it), never more than there are fetch jobs. At the first seed's
// shape on 8 MI300X (ag_gemm_bench --estimate; one eight-wave workgroup a
// CU) 38 fetchers take 1.417 ms against 1.619 ms with a quarter (76): the
// workers' rounds, 7 instead of 8, decide it, and the links stay full as
// long as a remote read takes at most 1.4 us (one 2 KiB piece in flight a
// wave; an assumption, not a measurement).
unsigned allGatherGemmFetchers(unsigned resident, const AgGemmTiles &tiles) {
  int64_t jobs = tiles.mTiles * tiles.nkGroups;
  return unsigned(std::clamp<int64_t>(resident / 8, 1, std::max<int64_t>(1, jobs)));
}

Expected<AgGemmWorkspace> makeAllGatherGemmWorkspace(SymmetricHeap &heap,
                                                     DType dtype, int64_t M,
                                                     int64_t K) {
  if (dtype != DType::bf16 && dtype != DType::f16)
    return makeError(kComponent, "A is " + dtypeName(dtype) + "; A and Bt must be bf16 or f16");
  Expected<AgGemmTiles> tiles =
      allGatherGemmTiles(heap.device(heap.firstLocalRank()).chip(), M, K,
                         heap.world());
  if (!tiles)
    return tiles.takeError();
  AgGemmWorkspace ws;
  ws.dtype = dtype;
  ws.M = M;
  ws.K = K;
  ws.tiles = *tiles;
  Expected<SymmetricAllocation> staging =
      heap.allocate(uint64_t(M) * K * dtypeSize(dtype));
  if (!staging)
    return staging.takeError();
  Expected<SymmetricAllocation> flags =
      heap.allocate(uint64_t(tiles->mTiles) * tiles->nkGroups * 4);
  if (!flags)
    return flags.takeError();
  ws.staging = *staging;
  ws.flags = *flags;
  if (Error e = heap.fill(ws.flags, 0))
    return std::move(e);
  return ws;
}

std::vector<std::string> allGatherGemmParams(DType in, DType out, bool hasBias,
                                             const AgGemmTiles &t,
                                             const AllGatherGemmOptions &o) {
  auto num = [](StringRef key, int64_t v) { return ParamBinding{key.str(), v}; };
  auto type = [](StringRef key, DType d) { return ParamBinding{key.str(), dtypeName(d).str()}; };
  // Without PPREG, gfx950's 16-byte DMA. Rows of BK = 64 swizzled by 8
  // (ops::gemm's PINGPONG choice), rows of BK = 32 by 4 (at most one XOR
  // per 16-byte chunk of a row).
  std::vector<ParamBinding> p = {
      type("DTYPE", in),
      type("OUT", out),
      num("WM", t.wm), num("WN", t.wn), num("WGM", t.wgm), num("WGN", t.wgn),
      num("BK", t.bk), num("KG", t.kg), num("FR", t.bm() / t.waves()),
      num("RA", t.bm() / t.waves()), num("RB", t.bn() / t.waves()),
      num("PPREG", t.ppreg),
      num("WIDE", !t.ppreg),
      num("SWZ", t.bk * int64_t(dtypeSize(in)) / 16),
      num("WPS", 2),
      num("HAS_BIAS", hasBias),
      num("STAGE_MN", o.mContiguousStaging),
      num("RELEASE_BARRIER", o.releaseBarrier),
      num("RECORD", o.record)};
  return kernelParamsWithOverrides(std::move(p), parseKernelParams(o.params));
}

Error checkAllGatherGemm(const SymmetricHeap &heap, const ShardedMatrix &a,
                         ArrayRef<MatrixRef> bt, ArrayRef<MatrixRef> c,
                         ArrayRef<VectorRef> bias,
                         const AgGemmWorkspace &ws) {
  unsigned world = heap.world();
  if (!heap.allLocal())
    return makeError(kComponent, "the heap spans processes; all_gather_gemm launches on every "
                 "rank and needs all of them in this process");
  if (a.dtype != DType::bf16 && a.dtype != DType::f16)
    return makeError(kComponent, "A is " + dtypeName(a.dtype) + "; A and Bt must be bf16 or f16");
  if (bt.size() != world || c.size() != world)
    return makeError(kComponent, "got " + Twine(bt.size()) + " Bt and " + Twine(c.size()) +
                 " C matrices for " + Twine(world) + " ranks; one each per rank");
  if (!bias.empty() && bias.size() != world)
    return makeError(kComponent, "got " + Twine(bias.size()) + " biases for " + Twine(world) +
                 " ranks; one per rank, or none");
  Expected<AgGemmTiles> tiles =
      allGatherGemmTiles(heap.device(0).chip(), a.rows, a.cols, world);
  if (!tiles)
    return tiles.takeError();
  uint64_t shardBytes = uint64_t(a.rows) * (a.cols / world) * dtypeSize(a.dtype);
  if (a.alloc.bytes < shardBytes)
    return makeError(kComponent, "A's shards are " + Twine(a.rows) + "x" +
                 Twine(a.cols / world) + " " + dtypeName(a.dtype) + " (" +
                 Twine(shardBytes) + " bytes) but their allocation has " +
                 Twine(a.alloc.bytes));
  if (a.alloc.offset + a.alloc.bytes > heap.bytesPerRank())
    return makeError(kComponent, "A's allocation lies outside the heap");
  int64_t N = bt.empty() ? 0 : bt[0].rows;
  if (N <= 0)
    return makeError(kComponent, "N = " + Twine(N) + " must be positive");
  for (unsigned r = 0; r < world; ++r) {
    Device &d = heap.device(r);
    if (Error e = checkMatrix("Bt", r, bt[r], d, N, a.cols, {a.dtype}))
      return e;
    if (Error e = checkMatrix("C", r, c[r], d, a.rows, N,
                              {DType::f32, DType::bf16, DType::f16}))
      return e;
    if (c[r].dtype != c[0].dtype)
      return makeError(kComponent, "C of rank " + Twine(r) + " is " + dtypeName(c[r].dtype) +
                   " but C of rank 0 is " + dtypeName(c[0].dtype));
    if (!bias.empty()) {
      const VectorRef &b = bias[r];
      if (!b.buffer || &b.buffer->device() != &d)
        return makeError(kComponent, "bias of rank " + Twine(r) + " is not on rank " +
                     Twine(r) + "'s device " + d.spec());
      if (b.dtype != a.dtype)
        return makeError(kComponent, "bias of rank " + Twine(r) + " is " + dtypeName(b.dtype) +
                     "; it must have A's dtype (" + dtypeName(a.dtype) + ")");
      if (b.size != N)
        return makeError(kComponent, "bias of rank " + Twine(r) + " has " + Twine(b.size) +
                     " elements; expected N = " + Twine(N));
      if (uint64_t(b.size) * dtypeSize(b.dtype) > b.buffer->size())
        return makeError(kComponent, "bias of rank " + Twine(r) + " needs " +
                     Twine(uint64_t(b.size) * dtypeSize(b.dtype)) +
                     " bytes; its buffer has " + Twine(b.buffer->size()));
    }
  }
  // The workspace: laid out for the same k groups and at least this size.
  if (ws.dtype != a.dtype)
    return makeError(kComponent, "the workspace stages " + dtypeName(ws.dtype) + " but A is " +
                 dtypeName(a.dtype));
  uint64_t stagingBytes = uint64_t(a.rows) * a.cols * dtypeSize(a.dtype);
  if (ws.staging.bytes < stagingBytes)
    return makeError(kComponent, "the workspace's staging buffer has " +
                 Twine(ws.staging.bytes) + " bytes; M x K = " + Twine(a.rows) +
                 "x" + Twine(a.cols) + " needs " + Twine(stagingBytes));
  uint64_t flagBytes = uint64_t(tiles->mTiles) * tiles->nkGroups * 4;
  if (ws.flags.bytes < flagBytes)
    return makeError(kComponent, "the workspace has " + Twine(ws.flags.bytes / 4) +
                 " flags; " + Twine(tiles->mTiles) + " m tiles x " +
                 Twine(tiles->nkGroups) + " k groups need " + Twine(flagBytes / 4));
  if (ws.tiles.kg != tiles->kg || ws.tiles.bk != tiles->bk)
    return makeError(kComponent, "the workspace was made for k groups of " + Twine(ws.tiles.kg) +
                 " (K = " + Twine(ws.K) + "); this call's shape uses " +
                 Twine(tiles->kg) + "; make a workspace for it");
  return Error::success();
}

Expected<AllGatherGemmResult>
all_gather_gemm(SymmetricHeap &heap, const ShardedMatrix &a,
                ArrayRef<MatrixRef> bt, ArrayRef<MatrixRef> c,
                ArrayRef<VectorRef> bias, AgGemmWorkspace &ws,
                const AllGatherGemmOptions &options) {
  if (Error e = checkAllGatherGemm(heap, a, bt, c, bias, ws))
    return std::move(e);
  unsigned world = heap.world();
  Chip chip = heap.device(0).chip();
  int64_t N = bt[0].rows;
  unsigned cus = heap.computeUnits(0);
  Expected<AgGemmTiles> chosen =
      allGatherGemmLaunchTiles(chip, a.rows, N, a.cols, world, cus, options);
  if (!chosen)
    return chosen.takeError();
  AllGatherGemmResult result;
  result.params = allGatherGemmParams(a.dtype, c[0].dtype, !bias.empty(), *chosen, options);
  // The grid and block follow the parameters the kernel is compiled with
  // (an override may change the workers' tile).
  AgGemmTiles tiles;
  if (Error e = tilesOfParams(result.params, *chosen, tiles))
    return std::move(e);
  result.tiles = tiles;
  Jit &jit = options.jit ? *options.jit : Jit::shared();

  std::vector<Kernel> kernels;
  for (unsigned r = 0; r < world; ++r) {
    Expected<Kernel> k =
        compileKernel(heap.device(r), jit, "ag_gemm", "ag_gemm", result.params);
    if (!k)
      return k.takeError();
    kernels.push_back(std::move(*k));
  }

  // Persistent grid: every workgroup resident at once, so a worker spinning
  // on a flag never holds the slot its fetcher needs. Fetchers as
  // allGatherGemmFetchers says; workers the rest, never more than there are
  // output tiles.
  unsigned resident =
      cus * groupsPerCu(kernels[0].info(), chip, unsigned(tiles.waves()));
  if (resident < 2)
    return makeError(kComponent, "only " + Twine(resident) + " workgroup fits on the device "
                 "at once; the fused kernel needs a fetcher and a worker resident");
  int64_t outTiles = tiles.mTiles * ceilDiv(N, tiles.bn());
  unsigned fetchers =
      options.fetchers ? options.fetchers : allGatherGemmFetchers(resident, tiles);
  if (fetchers >= resident)
    return makeError(kComponent, Twine(fetchers) + " fetchers leave no room for a worker among " +
                 Twine(resident) + " resident workgroups");
  unsigned workers =
      unsigned(std::clamp<int64_t>(outTiles, 1, resident - fetchers));
  result.fetchers = fetchers;
  result.workers = workers;
  result.grid = fetchers + workers;

  // The epoch: flags of earlier calls hold smaller values. Before the
  // counter would pass INT32_MAX (the kernel compares signed), the flags are
  // cleared and counting restarts.
  if (ws.epoch == INT32_MAX) {
    if (Error e = heap.fill(ws.flags, 0))
      return std::move(e);
    ws.epoch = 0;
  }
  int32_t epoch = ws.epoch + 1;

  std::vector<Buffer> statBuffers;
  if (options.record)
    for (unsigned r = 0; r < world; ++r) {
      Expected<Buffer> b =
          Buffer::allocate(heap.device(r), uint64_t(result.grid) * kAgGemmStatWords * 4);
      if (!b)
        return b.takeError();
      if (Error e = b->fill(0))
        return std::move(e);
      statBuffers.push_back(std::move(*b));
    }

  std::vector<RankLaunch> launches(world);
  for (unsigned r = 0; r < world; ++r) {
    RankLaunch &l = launches[r];
    l.kernel = &kernels[r];
    l.config.grid = Dim3(result.grid);
    l.config.block = Dim3(uint32_t(64 * tiles.waves()));
    DevicePointer shard = heap.pointer(r, a.alloc);
    // Pointers the kernel does not read (no bias, no counters) still take a
    // valid device address: the shard's.
    KernelArgValue biasArg = bias.empty() ? KernelArgValue(shard)
                                          : KernelArgValue(*bias[r].buffer);
    KernelArgValue statArg = options.record ? KernelArgValue(statBuffers[r])
                                            : KernelArgValue(shard);
    l.args = {shard,
              heap.basesTable(r),
              *bt[r].buffer,
              *c[r].buffer,
              biasArg,
              heap.pointer(r, ws.staging),
              heap.pointer(r, ws.flags),
              statArg,
              int32_t(a.rows),
              int32_t(N),
              int32_t(a.cols),
              int32_t(bt[r].stride()),
              int32_t(c[r].stride()),
              int32_t(r),
              int32_t(world),
              int32_t(fetchers),
              int32_t(epoch)};
  }
  Expected<std::vector<LaunchResult>> launched =
      heap.launchAll(launches, options.launch);
  if (!launched)
    return launched.takeError();
  // Only a completed call advances the epoch: after a failed launch the
  // flags may hold `epoch` already, which the next call's epoch + 1 exceeds
  // anyway - advancing on success alone keeps the count of calls exact.
  ws.epoch = epoch;
  result.launches = std::move(*launched);
  for (const Buffer &b : statBuffers) {
    Expected<std::vector<int32_t>> v = b.toHost<int32_t>();
    if (!v)
      return v.takeError();
    std::vector<AgGemmWorkgroupStats> s(result.grid);
    for (unsigned g = 0; g < result.grid; ++g) {
      const int32_t *w = &(*v)[kAgGemmStatWords * g];
      s[g] = {w[0], w[1], w[2], w[3], uint32_t(w[4]), uint32_t(w[5]),
              uint32_t(w[6]), uint32_t(w[7])};
    }
    result.stats.push_back(std::move(s));
  }
  return result;
}

Expected<AllGatherThenGemmResult>
all_gather_then_gemm(SymmetricHeap &heap, const ShardedMatrix &a,
                     ArrayRef<MatrixRef> bt, ArrayRef<MatrixRef> c,
                     ArrayRef<VectorRef> bias, AgGemmWorkspace &ws,
                     const AllGatherGemmOptions &options) {
  if (Error e = checkAllGatherGemm(heap, a, bt, c, bias, ws))
    return std::move(e);
  unsigned world = heap.world();
  int64_t N = bt[0].rows;
  Jit &jit = options.jit ? *options.jit : Jit::shared();
  std::vector<std::string> copyParams = {"DTYPE=" + dtypeName(a.dtype).str()};
  // One launch of the GEMM kernel per rank, writing C: K is not split
  // (a split would need ops::gemm's partials and reduction).
  std::vector<std::string> gemmP = gemmParams(heap.device(0).chip(), a.dtype, c[0].dtype,
                                              !bias.empty(), {a.rows, N, a.cols}, {"SPLITK=1"});
  std::vector<Kernel> copies, gemms;
  for (unsigned r = 0; r < world; ++r) {
    Expected<Kernel> k = compileKernel(heap.device(r), jit, "ag_copy", "ag_copy",
                                       copyParams);
    if (!k)
      return k.takeError();
    copies.push_back(std::move(*k));
    Expected<Kernel> g = compileKernel(heap.device(r), jit, "gemm", "gemm", gemmP);
    if (!g)
      return g.takeError();
    gemms.push_back(std::move(*g));
  }
  AllGatherThenGemmResult result;
  std::vector<RankLaunch> gather(world), gemm(world);
  for (unsigned r = 0; r < world; ++r) {
    gather[r].kernel = &copies[r];
    gather[r].config.grid = Dim3(uint32_t(ceilDiv(a.rows, 128)), world);
    gather[r].config.block = Dim3(256);
    gather[r].args = {heap.pointer(r, a.alloc), heap.basesTable(r),
                      heap.pointer(r, ws.staging), int32_t(a.rows),
                      int32_t(a.cols), int32_t(r), int32_t(world)};
    // kernels/gemm with A = the gathered [M, K] matrix in the staging buffer.
    gemm[r].kernel = &gemms[r];
    gemm[r].config = gemmLaunch(heap.device(r).chip(), gemmP, a.rows, N,
                                gemms[r].info().groupSegmentFixedSize);
    KernelArgValue biasArg = bias.empty() ? KernelArgValue(*bt[r].buffer)
                                          : KernelArgValue(*bias[r].buffer);
    gemm[r].args = {heap.pointer(r, ws.staging), *bt[r].buffer, *c[r].buffer,
                    biasArg, int32_t(a.rows), int32_t(N), int32_t(a.cols),
                    int32_t(a.cols), int32_t(bt[r].stride()),
                    int32_t(c[r].stride())};
  }
  Expected<std::vector<LaunchResult>> g = heap.launchAll(gather, options.launch);
  if (!g)
    return g.takeError();
  result.gather = std::move(*g);
  Expected<std::vector<LaunchResult>> m = heap.launchAll(gemm, options.launch);
  if (!m)
    return m.takeError();
  result.gemm = std::move(*m);
  return result;
}

} // namespace kcc::ops
