//===- Npy.h - NumPy .npy files for kernel inputs and outputs --*- C++ -*-===//
//
// The subset of the .npy format (NumPy's format.py, versions 1.0 and 2.0)
// that kernels exchange: little-endian '<f4', '<f2' and '<u2', and '|u1',
// C order, any number of dimensions. NumPy has no bfloat16 or FP8, so bf16
// data is stored as '<u2' and FP8 as '|u1' (the raw bits) and read back by
// whoever knows the kernel's dtype; ml_dtypes users can view such arrays
// with `.view(bfloat16)`, `.view(float8_e4m3fn)`.
// Fortran order, big-endian and other dtypes are rejected with an error
// naming what was found.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_NPY_H
#define KCC_RUNTIME_NPY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kcc {

/// The element type as NumPy writes it.
enum class NpyType { F32, F16, U16, U8, I8 };
llvm::StringRef npyDescr(NpyType type); // "<f4", "<f2", "<u2", "|u1", "|i1"
unsigned npyTypeSize(NpyType type);

struct NpyArray {
  NpyType type = NpyType::F32;
  std::vector<uint64_t> shape;
  std::vector<uint8_t> data; // C order, little-endian elements
  uint64_t elementCount() const;
};

/// Parses a whole .npy file.
llvm::Expected<NpyArray> parseNpy(llvm::ArrayRef<uint8_t> bytes);
/// Reads and parses; errors start with the path.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);
/// The file bytes (version 1.0 header, padded to 64 bytes as NumPy does).
std::vector<uint8_t> serializeNpy(const NpyArray &array);
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);

} // namespace kcc

#endif // KCC_RUNTIME_NPY_H
