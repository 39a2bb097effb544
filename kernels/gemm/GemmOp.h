//===- GemmOp.h - kcc::ops::gemm, the host side of gemm.mlir ----*- C++ -*-===//
//
//   C[M, N] = A[M, K] * Bt[N, K]^T (+ bias[N]),  f32 accumulation
//
// A and Bt are bf16 or f16 (the same), C is bf16, f16 or f32, the bias has
// A's dtype. All are row-major with leading dimensions (row strides) of at
// least their row length. The kernel moves K in pairs of elements, 4 bytes
// at a time: when K is odd, or A's or Bt's leading dimension is, that
// operand (both when K is odd) is first copied into a packed buffer with an
// even row length, the padding column zero (kernels/gemm/gemm_pack.mlir).
// Every operand must be on one device. gemm() checks all of that with a
// message naming the operand, picks the kernel parameters for the device's
// chip, compiles through the JIT (cached) and launches.
//
// Split-K: when the blocks of C are too few to give every CU one, gemm()
// splits K over SPLITK workgroups per block (gemmParams says how many):
// each stores the f32 partial sum of its share of K into a workspace it
// allocates on the device, [SPLITK, M, N], and a second launch
// (kernels/gemm/gemm_reduce.mlir, gemmReduce) sums the partials, adds the
// bias and converts to C's dtype.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_GEMM_GEMMOP_H
#define KCC_KERNELS_GEMM_GEMMOP_H

#include "target/Target.h"
#include "runtime/Launch.h"
#include "runtime/MatrixRef.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace kcc {
class Jit;
namespace ops {

struct GemmOptions {
  /// The JIT to compile with; nullptr: Jit::shared().
  Jit *jit = nullptr;
  /// Overrides of the chosen tile parameters (WM=, WN=, BK=), for tuning.
  std::vector<std::string> params;
  /// HIP devices: the stream every launch of the op goes on (LaunchConfig).
  uint64_t stream = 0;
};

/// The problem size the tile choice looks at: C is m x n, A and Bt have k
/// columns (an odd k is packed to k + 1, which the choice accounts for).
struct GemmSize {
  int64_t m = 0, n = 0, k = 0;
};

/// The kernel parameters gemm() uses for these dtypes and this size on
/// `chip` (DTYPE, OUT, WM, WN, BK, KS, PAD, SWZ, WIDE, FETCH_ALWAYS,
/// HAS_BIAS; WGM, WGN, PINGPONG, WPS for the eight-wave tile; SPLITK),
/// overrides applied. The eight-wave 256x256 PINGPONG tile where its tiles
/// fill the CUs' rounds about as well as 128x128 ones (K at least 512;
/// gfx950: K a multiple of 8); else 128x128 workgroup tiles; gfx950: BK=32
/// (four workgroups per CU) when there are at least as many tiles as CUs or
/// K can be split, else BK=128, 16-byte DMA (and no branch around the
/// loop's second fetch) when K is a multiple of 8. gfx942: BK=32 with
/// 4-byte DMA. Decode (M <= 64): 32x128 tiles, one row of four 32x32 waves
/// (WGM=1, WGN=4), BK=128 (gfx942: 32). SPLITK (unless given): as many
/// splits of K as the CUs hold workgroups of the tile in one round (by its
/// LDS), so none when the tiles fill more than half of that, and at least
/// 512 of K per split; with a split, OUT=f32 and HAS_BIAS=0 (the kernel
/// stores partial sums; C's dtype and the bias are the reduction's).
/// Overrides apply before the split is chosen.
std::vector<std::string> gemmParams(Chip chip, DType in, DType out,
                                    bool hasBias, GemmSize size,
                                    const std::vector<std::string> &overrides = {});

/// The fraction of the workgroup slots a launch of `tiles` workgroups fills
/// over its rounds, `slots` of them running at once: what a tile choice
/// weighs its speed by (gemmParams, and the fused all-gather + GEMM's
/// workers).
double gemmRoundFill(int64_t tiles, int64_t slots);

/// The splits of K that `params` ask for (SPLITK; 1 when not split).
int64_t gemmSplits(const std::vector<std::string> &params);

/// Elements between the rows of a split GEMM's f32 partials for C of n
/// columns (a multiple of 4, so that gemm_reduce reads a lane's four with
/// one aligned load).
int64_t gemmPartialsStride(int64_t n);

/// Whether `params` (overrides included) make a kernel that runs at a K of
/// `kernelK` (after packing): WIDE=1 needs K a multiple of 8, PINGPONG=1 an
/// even number of waves. An error that says which, before compiling.
llvm::Error checkGemmParams(const std::vector<std::string> &params, int64_t kernelK);

/// The launch grid of the GEMM kernel compiled with `params` for C of
/// m x n: one workgroup per (WGM WM) x (WGN WN) block and split of K.
Dim3 gemmGrid(const std::vector<std::string> &params, int64_t m, int64_t n);

/// How gemm() launches the kernel compiled with `params` on `chip` whose
/// code object allocates `staticLdsBytes` for C of m x n: the grid, a block
/// of 64 WGM WGN work-items, and the dynamic LDS that caps the workgroups a
/// CU holds where more would only contend (gfx950's 128x128 tile at BK=32:
/// four).
LaunchConfig gemmLaunch(Chip chip, const std::vector<std::string> &params, int64_t m,
                        int64_t n, uint32_t staticLdsBytes);

/// Checks the operands (see above) without launching.
llvm::Error checkGemm(const MatrixRef &a, const MatrixRef &bt,
                      const MatrixRef &c, const std::optional<VectorRef> &bias);

/// Runs C = A * Bt^T (+ bias) on the operands' device and waits for it.
/// With a split of K the result covers both launches (times, instructions
/// and workgroups summed).
llvm::Expected<LaunchResult> gemm(const MatrixRef &a, const MatrixRef &bt,
                                  const MatrixRef &c,
                                  const std::optional<VectorRef> &bias = std::nullopt,
                                  const GemmOptions &options = {});

/// The second launch of a split-K gemm(), on its own (for benchmarks that
/// time it): C = the sum of the `splits` f32 partials (+ bias), converted
/// to C's dtype. `partials` is [splits C.rows, C.cols], slice s in rows
/// s C.rows.., its leading dimension a multiple of 4.
llvm::Expected<LaunchResult> gemmReduce(const MatrixRef &partials, int64_t splits,
                                        const MatrixRef &c,
                                        const std::optional<VectorRef> &bias = std::nullopt,
                                        const GemmOptions &options = {});

} // namespace ops
} // namespace kcc

#endif // KCC_KERNELS_GEMM_GEMMOP_H
