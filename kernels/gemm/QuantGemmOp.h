//===- QuantGemmOp.h - FP8 and int8 GEMMs (gemm_q8.mlir) --------*- C++ -*-===//
//
//   C[M, N] = (A sa)[M, K] (Bt sb)[N, K]^T (+ bias[N]),  f32 accumulation
//
// A and Bt hold the device's e4m3 codes: e4m3fnuz on gfx942, e4m3fn on
// gfx950 (DType; the other chip's encoding is refused, not converted). The
// scales are f32 matrices whose shapes say what they cover:
//   A's:  1x1 per tensor, Mx1 per token (row), M x ceil(K/128) 1x128 blocks;
//   Bt's: 1x1 per tensor, Nx1 per channel (row),
//         ceil(N/128) x ceil(K/128) 128x128 blocks.
// Per-tensor and per-row scales mix freely; block scales go with block
// scales (where a shape reads both ways, K or N at most 128, the readings
// agree). Block scales apply to each 128-deep block of K's sum, the others
// to the whole sum. C is bf16, f16 or f32; the bias, if any, bf16, f16 or
// f32. A and Bt are row-major with any leading dimension; where K or one
// isn't a whole number of the kernel's DMA units (16 bytes on gfx950, 4 on
// gfx942) the operand is first packed (GemmOperands.h), the zero columns
// adding nothing. Everything on one device. gemmFp8() checks all of that
// with a message naming the operand, picks the kernel parameters for the
// device's chip, compiles through the JIT (cached) and launches.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_GEMM_GEMMFP8OP_H
#define KCC_KERNELS_GEMM_GEMMFP8OP_H

#include "kernels/gemm/GemmOp.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace kcc::ops {

/// What a scale covers, by its shape.
enum class ScaleGranularity { tensor, rows, blocks };

/// "per tensor", "per row", "128-deep blocks".
const char *scaleGranularityName(ScaleGranularity g);

/// The FP8 e4m3 encoding of `chip`'s matrix cores: e4m3fnuz (gfx942),
/// e4m3fn (gfx950).
DType fp8DTypeOf(Chip chip);

/// The kernel parameters gemmFp8() uses on `chip` (DTYPE, OUT, ASCALE,
/// BSCALE, HAS_BIAS, BDTYPE, WM, WN, WGM, WGN, KS, SWZ, WIDE), overrides
/// applied: 128x128 workgroup tiles of four 64x64 waves; decode (M <= 64)
/// one row of four 32x32 waves (32x128), K split (SPLITK) so that the
/// tiles' shares fill the CUs' workgroup slots, at least 4 blocks of 128 a
/// share (then OUT=f32 and HAS_BIAS=0: the kernel stores partial sums, and
/// C's dtype and the bias are the reduction's, gemm_reduce.mlir); K in
/// slices of 64; gfx950's 16-byte DMA.
std::vector<std::string> gemmFp8Params(Chip chip, DType out, ScaleGranularity aScale,
                                       ScaleGranularity bScale, std::optional<DType> bias,
                                       GemmSize size,
                                       const std::vector<std::string> &overrides = {});

/// The granularities of A's and Bt's scales for A of m x k and Bt of n x k,
/// or the error naming the shapes they could have.
llvm::Expected<std::pair<ScaleGranularity, ScaleGranularity>>
scaleGranularities(const MatrixRef &aScale, const MatrixRef &bScale, int64_t m, int64_t n,
                   int64_t k);

/// Checks the operands (see above) without launching.
llvm::Error checkGemmFp8(const MatrixRef &a, const MatrixRef &bt, const MatrixRef &aScale,
                         const MatrixRef &bScale, const MatrixRef &c,
                         const std::optional<VectorRef> &bias);

/// The splits of K that `params` ask for (SPLITK; 1 when not split).
int64_t gemmQuantSplits(const std::vector<std::string> &params);

/// The launch grid of gemm_q8 compiled with `params` for C of m x n (z: the
/// splits of K).
Dim3 gemmFp8Grid(const std::vector<std::string> &params, int64_t m, int64_t n);

/// Runs C = (A sa)(Bt sb)^T (+ bias) on the operands' device and waits.
llvm::Expected<LaunchResult> gemmFp8(const MatrixRef &a, const MatrixRef &bt,
                                     const MatrixRef &aScale, const MatrixRef &bScale,
                                     const MatrixRef &c,
                                     const std::optional<VectorRef> &bias = std::nullopt,
                                     const GemmOptions &options = {});

//===----------------------------------------------------------------------===//
// int8: C = (A sa)(Bt sb)^T (+ bias) with A and Bt in i8 (both chips), the
// sums exact in i32 (gfx942: v_mfma_i32_32x32x16_i8, gfx950:
// v_mfma_i32_32x32x32_i8) until they are converted to f32 and scaled; the
// scales per tensor (1x1) or per row (Mx1 per token, Nx1 per channel),
// mixed freely. The rest as gemmFp8; errors name "gemm_i8".
//===----------------------------------------------------------------------===//

/// gemmFp8Params with DTYPE=i8 and ACC=i32.
std::vector<std::string> gemmInt8Params(Chip chip, DType out, ScaleGranularity aScale,
                                        ScaleGranularity bScale, std::optional<DType> bias,
                                        GemmSize size,
                                        const std::vector<std::string> &overrides = {});

/// Checks the int8 GEMM's operands without launching.
llvm::Error checkGemmInt8(const MatrixRef &a, const MatrixRef &bt, const MatrixRef &aScale,
                          const MatrixRef &bScale, const MatrixRef &c,
                          const std::optional<VectorRef> &bias);

/// Runs the int8 GEMM on the operands' device and waits.
llvm::Expected<LaunchResult> gemmInt8(const MatrixRef &a, const MatrixRef &bt,
                                      const MatrixRef &aScale, const MatrixRef &bScale,
                                      const MatrixRef &c,
                                      const std::optional<VectorRef> &bias = std::nullopt,
                                      const GemmOptions &options = {});

} // namespace kcc::ops

#endif // KCC_KERNELS_GEMM_GEMMFP8OP_H
