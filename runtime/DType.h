//===- DType.h - Element types of device buffers ---------------*- C++ -*-===//
//
// The element types that kernels and op wrappers exchange with the host, and
// the host-side conversions to and from the 16-bit float formats (C++17 has
// no bfloat16, and _Float16 is a compiler extension the public headers avoid).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_DTYPE_H
#define KCC_RUNTIME_DTYPE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace kcc {

enum class DType { bf16, f16, f32, i32 };

/// Bytes per element.
unsigned dtypeSize(DType type);
/// "bf16", "f16", "f32", "i32".
llvm::StringRef dtypeName(DType type);
/// Parses the names above; std::nullopt for anything else.
std::optional<DType> parseDType(llvm::StringRef name);

/// Round to nearest even; NaN stays a (quiet) NaN.
uint16_t floatToBf16(float value);
float bf16ToFloat(uint16_t bits);
/// IEEE binary16, round to nearest even, overflow to infinity.
uint16_t floatToF16(float value);
float f16ToFloat(uint16_t bits);

} // namespace kcc

#endif // KCC_RUNTIME_DTYPE_H
