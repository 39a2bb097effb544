//===- DType.h - Element types of device buffers ---------------*- C++ -*-===//
//
// The element types that kernels and op wrappers exchange with the host, and
// the host-side conversions to and from the 16-bit float formats (C++17 has
// no bfloat16, and _Float16 is a compiler extension the public headers avoid).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_DTYPE_H
#define KCC_RUNTIME_DTYPE_H

#include "target/Float16.h"

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

// floatToBf16, bf16ToFloat, floatToF16, f16ToFloat: target/Float16.h.

} // namespace kcc

#endif // KCC_RUNTIME_DTYPE_H
