//===- AgGemmOp.h - kcc::ops::all_gather_gemm, host side of ag_gemm.mlir -*- C++ -*-===//
//
//   C_r[M, N] = concat_k(A_0, ..., A_{world-1})[M, K] * Bt_r[N, K]^T (+ bias_r)
//
// on every rank r of a symmetric heap, where A_p [M, K / world] (row-major,
// row stride K / world) is rank p's shard, held at one symmetric allocation.
// Bt, C and bias are ordinary per-rank buffers on the rank's device (as in
// kcc::ops::gemm: Bt [N, K] row-major, C [M, N] bf16/f16/f32).
//
// all_gather_gemm() runs the fused kernel (kernels/collective/ag_gemm.mlir)
// on all ranks at once: fetcher workgroups stage the shards in this rank's
// heap and release per-(m tile, k group) flags, GEMM workgroups acquire
// them and compute as the tiles arrive. The workspace (staging buffer +
// flags, in the heap, and the epoch counter on the host) comes from
// makeAllGatherGemmWorkspace() - the preamble - and serves any number of
// calls of a shape it fits without being cleared.
//
// all_gather_then_gemm() is the baseline: an all-gather by copy kernels
// (kernels/collective/ag_copy.mlir) into the workspace's staging buffer,
// then kernels/gemm/gemm.mlir over it.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_COLLECTIVE_AGGEMMOP_H
#define KCC_KERNELS_COLLECTIVE_AGGEMMOP_H

#include "target/Target.h"
#include "runtime/DType.h"
#include "runtime/Launch.h"
#include "runtime/MatrixRef.h"
#include "runtime/SymmetricHeap.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kcc {
class Jit;
namespace ops {

/// The shards of A: rank p's A_p [rows, cols / world] at `alloc` on rank p.
struct ShardedMatrix {
  SymmetricAllocation alloc;
  DType dtype = DType::bf16;
  int64_t rows = 0; // M
  int64_t cols = 0; // K, the gathered width
};

/// Tile sizes and the k grouping of a shape (what the workspace is laid out
/// for). The workers' PINGPONG tile: WGM x WGN waves (eight) of WM x WN, BM
/// = WGM WM rows per m tile (the flags' unit along M) and BN = WGN WN
/// columns; BK per K block, KG columns per flag. ppreg: the blocks reach
/// LDS through the waves' registers (gfx942, and any chip with the
/// m-contiguous staging); else by 16-byte DMA (gfx950).
struct AgGemmTiles {
  int64_t wm = 128, wn = 64, wgm = 2, wgn = 4, bk = 32, kg = 64;
  bool ppreg = true;
  int64_t mTiles = 0, nkGroups = 0;
  int64_t bm() const { return wm * wgm; }
  int64_t bn() const { return wn * wgn; }
  int64_t waves() const { return wgm * wgn; }
};

/// The tiles all_gather_gemm lays its workspace out for, M x K over
/// `world` ranks on `chip` (256-row m tiles); fails when K does not split
/// into world shards of whole K blocks.
llvm::Expected<AgGemmTiles> allGatherGemmTiles(Chip chip, int64_t M, int64_t K,
                                               unsigned world);

/// How many of the persistent grid's `resident` workgroups all_gather_gemm
/// makes fetchers when not told (an eighth, at least 1, at most one per
/// fetch job of `tiles`; AgGemmOp.cpp says why).
unsigned allGatherGemmFetchers(unsigned resident, const AgGemmTiles &tiles);

/// Staging buffer + ready flags in the heap; the epoch lives here.
struct AgGemmWorkspace {
  SymmetricAllocation staging; // M x K elements of dtype, per rank
  SymmetricAllocation flags;   // mTiles x nkGroups i32, per rank
  DType dtype = DType::bf16;
  int64_t M = 0, K = 0;
  AgGemmTiles tiles;
  /// The value the last call's fetchers stored in the flags; the next call
  /// stores epoch + 1 and its workers wait for flag >= epoch + 1, so flags
  /// are never cleared between calls.
  int32_t epoch = 0;
};

/// The preamble: allocates the workspace for M x K shards of `dtype` in
/// `heap` and zeroes its flags.
llvm::Expected<AgGemmWorkspace>
makeAllGatherGemmWorkspace(SymmetricHeap &heap, DType dtype, int64_t M,
                           int64_t K);

struct AllGatherGemmOptions {
  Jit *jit = nullptr; // nullptr: Jit::shared()
  /// Staging layout: false k-contiguous ([M, K]), true m-contiguous ([K, M]).
  bool mContiguousStaging = false;
  /// Record per-workgroup counters (AllGatherGemmResult::stats).
  bool record = false;
  /// Fetcher workgroups per rank; 0: chosen from the shape.
  unsigned fetchers = 0;
  /// false builds the broken variant without the barrier before the flag
  /// release (for the tests that must catch it). Never for real use.
  bool releaseBarrier = true;
  /// Check mode, observer (emulated devices).
  RankLaunchOptions launch;
  /// Parameter overrides (NAME=VALUE) for tuning.
  std::vector<std::string> params;
};

/// The tiles all_gather_gemm launches with for C of N columns on a device
/// of `computeUnits` CUs: allGatherGemmTiles', the blocks through registers
/// for the m-contiguous staging, and the workers' columns (gfx942: 256 or
/// 128, whichever fills the rounds of the workers a grid of one eight-wave
/// workgroup per CU leaves beside the fetchers better; AgGemmOp.cpp says
/// why).
llvm::Expected<AgGemmTiles> allGatherGemmLaunchTiles(Chip chip, int64_t M, int64_t N,
                                                     int64_t K, unsigned world,
                                                     unsigned computeUnits,
                                                     const AllGatherGemmOptions &options);

/// One workgroup's counters (RECORD): role 1 fetcher / 2 worker, jobs (fetch
/// jobs / output tiles), flags (released / acquired), K blocks (copied /
/// multiplied).
struct AgGemmWorkgroupStats {
  int32_t role = 0, jobs = 0, flags = 0, blocks = 0;
  /// s_memtime ticks: the whole role, fetching, waiting on flags, computing
  /// (fetchers only fetch; for workers compute = total - wait).
  uint32_t ticksTotal = 0, ticksFetch = 0, ticksWait = 0, ticksCompute = 0;
};

/// i32 words per workgroup in the RECORD buffer.
constexpr unsigned kAgGemmStatWords = 8;

struct AllGatherGemmResult {
  std::vector<LaunchResult> launches; // per rank
  unsigned grid = 0, fetchers = 0, workers = 0;
  /// The tiles the launch took (allGatherGemmLaunchTiles', as the
  /// parameters, overrides included, make them).
  AgGemmTiles tiles;
  std::vector<std::string> params;
  /// Per rank, per workgroup (with options.record).
  std::vector<std::vector<AgGemmWorkgroupStats>> stats;
};

/// The kernel parameters of the fused kernel for these dtypes and tiles
/// (allGatherGemmLaunchTiles': the m-contiguous staging takes the blocks
/// through registers, tiles.ppreg), overrides applied.
std::vector<std::string> allGatherGemmParams(DType in, DType out, bool hasBias,
                                             const AgGemmTiles &tiles,
                                             const AllGatherGemmOptions &options);

/// Checks every operand and the workspace without launching.
llvm::Error checkAllGatherGemm(const SymmetricHeap &heap, const ShardedMatrix &a,
                               llvm::ArrayRef<MatrixRef> bt,
                               llvm::ArrayRef<MatrixRef> c,
                               llvm::ArrayRef<VectorRef> bias,
                               const AgGemmWorkspace &workspace);

/// The fused all-gather + GEMM on every rank of `heap` (bt, c and bias: one
/// per rank; bias empty for none). Waits for all ranks.
llvm::Expected<AllGatherGemmResult>
all_gather_gemm(SymmetricHeap &heap, const ShardedMatrix &a,
                llvm::ArrayRef<MatrixRef> bt, llvm::ArrayRef<MatrixRef> c,
                llvm::ArrayRef<VectorRef> bias, AgGemmWorkspace &workspace,
                const AllGatherGemmOptions &options = {});

struct AllGatherThenGemmResult {
  std::vector<LaunchResult> gather, gemm; // per rank
};

/// The baseline: all-gather by copy kernels into the workspace's staging
/// buffer ([M, K]), then kernels/gemm on each rank.
llvm::Expected<AllGatherThenGemmResult>
all_gather_then_gemm(SymmetricHeap &heap, const ShardedMatrix &a,
                     llvm::ArrayRef<MatrixRef> bt, llvm::ArrayRef<MatrixRef> c,
                     llvm::ArrayRef<VectorRef> bias, AgGemmWorkspace &workspace,
                     const AllGatherGemmOptions &options = {});

} // namespace ops
} // namespace kcc

#endif // KCC_KERNELS_COLLECTIVE_AGGEMMOP_H
