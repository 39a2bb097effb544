//===- HostMatrix.h - Operands of the kernel runners on the host -*- C++ -*-===//
//
// A matrix (or vector) in host memory in the dtype a kernel takes, as the
// runners of `kcc run NAME` make, read and write them: random normal values,
// .npy files in and out.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TOOLS_KCC_HOSTMATRIX_H
#define KCC_TOOLS_KCC_HOSTMATRIX_H

#include "runtime/DType.h"
#include "runtime/Npy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace kcc::runkernel {

/// One operand on the host: values as stored (16-bit bits, f32 or FP8
/// codes) plus the dtype they are in.
struct HostMatrix {
  DType dtype;
  int64_t rows = 0, cols = 0;
  std::vector<uint8_t> bytes;
  double at(size_t i) const {
    if (isFp8(dtype))
      return fp8ToFloat(dtype, bytes[i]);
    if (dtype == DType::i8)
      return double(int8_t(bytes[i]));
    if (dtype == DType::f32) {
      float f;
      std::memcpy(&f, &bytes[4 * i], 4);
      return f;
    }
    uint16_t h;
    std::memcpy(&h, &bytes[2 * i], 2);
    return dtype == DType::bf16 ? bf16ToFloat(h) : f16ToFloat(h);
  }
};

/// A .npy array as a matrix of `dtype`, which the array must already hold:
/// '<f4' for f32, '<f2' for f16, '<u2' for bf16 (its bits: NumPy has no
/// bfloat16). Any other pairing is refused with a message naming the input
/// (`name`, read from `path`), its dtype and the one expected: converting
/// would round an f32 file, or reinterpret f16 as bf16, behind the user's
/// back.
llvm::Expected<HostMatrix> fromNpy(const NpyArray &a, DType dtype, llvm::StringRef name,
                                   llvm::StringRef path);

/// `m` as a .npy array: 2-D, or 1-D (its columns) when `vector`; bf16 is
/// stored as '<u2' bits.
NpyArray toNpy(const HostMatrix &m, bool vector);

/// A rows x cols matrix of `dtype` (16-bit, f32 or FP8) with standard
/// normal values, rounded to it (FP8: to nearest, saturating); i8: 32 times
/// them, rounded and clamped to -128..127.
HostMatrix randomMatrix(DType dtype, int64_t rows, int64_t cols,
                        std::mt19937_64 &rng);

} // namespace kcc::runkernel

#endif // KCC_TOOLS_KCC_HOSTMATRIX_H
