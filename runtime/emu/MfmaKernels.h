//===- MfmaKernels.h - MFMA block products on the host's vectors -*- C++ -*-===//
//
// The arithmetic of one MFMA block, C += A x B, on the widest vectors the
// host has: AVX-512 or AVX2 when the processor says so at run time, else
// what the compiler makes of portable code. Every path sums each C element's
// products in order of k with the same roundings, so results do not depend
// on the host (the file is built with -ffp-contract=off: a product that is
// rounded stays rounded).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_MFMAKERNELS_H
#define KCC_RUNTIME_EMU_MFMAKERNELS_H

#include <cstdint>

namespace kcc::emu {

/// How a product meets the accumulator.
enum class MfmaSum : uint8_t {
  /// c + a * b, the product rounded to f32 first: for 16- and 8-bit inputs
  /// the product is exact (short of underflow), so this is the hardware's
  /// single rounding.
  MulAdd,
  /// fma(a, b, c): f32 and xf32 inputs.
  Fma,
};

/// C[i][j] (m x n, row-major) += At[k][i] * B[k][j] for k = 0 .. K-1 in
/// order; At is A stored k-major (K x m), B is K x n. NaN operands: each
/// step yields B's NaN, else A's, else C's, quieted (what this emulator has
/// always produced); a NaN that arises (inf x 0, inf - inf) is the host's
/// default NaN. `nanInputs` says whether A, B or C holds a NaN: only then
/// does the block take the loop that chooses among NaNs one by one.
void mfmaBlockF32(const float *At, const float *B, float *C, int m, int n,
                  int K, MfmaSum sum, bool nanInputs);
/// The same in 32-bit integers, wrapping.
void mfmaBlockI32(const int32_t *At, const int32_t *B, int32_t *C, int m,
                  int n, int K);

/// The paths of mfmaBlockF32, which tests hold to the same bits.
enum class MfmaVectors : uint8_t { Portable, Avx2, Avx512 };
/// Whether this host runs path `v` (Portable always).
bool mfmaHostRuns(MfmaVectors v);
/// mfmaBlockF32 on path `v`, which the host must run.
void mfmaBlockF32On(MfmaVectors v, const float *At, const float *B, float *C,
                    int m, int n, int K, MfmaSum sum, bool nanInputs);

/// The vector instructions the block products use on this host: "avx512",
/// "avx2" or "portable" (for emu_bench's report).
const char *mfmaHostVectors();

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_MFMAKERNELS_H
