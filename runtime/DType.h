//===- DType.h - Element types of device buffers ---------------*- C++ -*-===//
//
// The element types that kernels and op wrappers exchange with the host, and
// the host-side conversions to and from the 16-bit float formats (C++17 has
// no bfloat16, and _Float16 is a compiler extension the public headers avoid).
// The two FP8 e4m3 encodings are one byte each and chip-specific: OCP's
// e4m3fn (gfx950; max 448, NaN 0x7f/0xff, -0) and the FNUZ e4m3fnuz of
// gfx942 (max 240, NaN only 0x80, no -0, exponent bias 8).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_DTYPE_H
#define KCC_RUNTIME_DTYPE_H

#include "target/Float16.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace kcc {

enum class DType { bf16, f16, f32, i32, e4m3fn, e4m3fnuz, i8 };

/// Bytes per element.
unsigned dtypeSize(DType type);
/// "bf16", "f16", "f32", "i32", "e4m3fn", "e4m3fnuz", "i8".
llvm::StringRef dtypeName(DType type);
/// Whether `type` is one of the FP8 encodings.
bool isFp8(DType type);
/// The tile dialect's element type of an FP8 dtype ("f8E4M3FN",
/// "f8E4M3FNUZ"), or dtypeName() for the others.
llvm::StringRef dtypeKernelName(DType type);
/// The value of an FP8 code (exact in float; NaN codes give NaN).
float fp8ToFloat(DType type, uint8_t bits);
/// `value` rounded to nearest even in the FP8 format, saturating to the
/// largest finite value (as the kernels' conversions do); NaN stays NaN.
uint8_t floatToFp8(DType type, float value);
/// Parses the names above; std::nullopt for anything else.
std::optional<DType> parseDType(llvm::StringRef name);

// floatToBf16, bf16ToFloat, floatToF16, f16ToFloat: target/Float16.h.

} // namespace kcc

#endif // KCC_RUNTIME_DTYPE_H
