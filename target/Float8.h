//===- Float8.h - Which chip has which FP8 format and FP8 MFMA -*- C++ -*-===//
//
// The two chips disagree on what "FP8" means. gfx942 (CDNA3) implements the
// FNUZ formats (e4m3 with bias 8, e5m2 with bias 16, no infinities, no
// negative zero, 0x80 the only NaN); gfx950 (CDNA4) the OCP ones (e4m3fn:
// bias 7, S.1111.111 is NaN, no infinity; e5m2: bias 15 with IEEE
// infinities and NaNs). The same instructions (v_cvt_pk_fp8_f32, the
// fp8/bf8 MFMAs) read and write the chip's own format, so a kernel typed in
// the other family's format would compute wrong numbers silently: the
// verifier refuses it, naming which chip has which. MLIR spells the four as
// f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3FN and f8E5M2; kcc uses those names.
//
// The MFMA shapes for 8-bit inputs are a table of their own: K is twice the
// 16-bit K of the same M x N (gfx942: 32x32x16, 16x16x32; gfx950 adds the
// f8f6f4 family's 32x32x64 and 16x16x128).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TARGET_FLOAT8_H
#define KCC_TARGET_FLOAT8_H

#include "target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace kcc {

enum class Fp8Format { E4M3FN, E5M2, E4M3FNUZ, E5M2FNUZ };

/// The MLIR spelling of the format's type: "f8E4M3FN", "f8E5M2FNUZ".
llvm::StringRef fp8FormatName(Fp8Format format);
/// The format MLIR spells `name`; std::nullopt for anything else.
std::optional<Fp8Format> parseFp8Format(llvm::StringRef name);

/// True for e5m2 (AMD's "bf8"), false for e4m3 ("fp8").
inline bool isE5M2(Fp8Format format) {
  return format == Fp8Format::E5M2 || format == Fp8Format::E5M2FNUZ;
}
/// True for the FNUZ formats (gfx942's), false for OCP's (gfx950's).
inline bool isFnuz(Fp8Format format) {
  return format == Fp8Format::E4M3FNUZ || format == Fp8Format::E5M2FNUZ;
}

/// The largest finite magnitude: 448 (e4m3fn), 240 (e4m3fnuz), 57344 (both
/// e5m2). Conversions that saturate clamp to it.
float fp8MaxFinite(Fp8Format format);

/// True when `chip`'s FP8 instructions read and write `format`.
bool chipHasFp8Format(Chip chip, Fp8Format format);
/// "f8E4M3FNUZ and f8E5M2FNUZ (FNUZ)": the formats of `chip`, for
/// diagnostics.
std::string fp8FormatsOf(Chip chip);

/// The MFMA shapes with 8-bit float inputs and f32 accumulation.
llvm::ArrayRef<MfmaShape> mfmaShapes8(Chip chip);
/// True when `chip` has an 8-bit-input MFMA of `shape` (k = 0: any K).
bool hasMfmaShape8(Chip chip, MfmaShape shape);
/// "32x32x16 and 16x16x32": the 8-bit shapes of `chip`.
std::string mfmaShapeList8(Chip chip);
/// True when some chip has an 8-bit-input MFMA of `shape` (k = 0: any K).
bool anyChipHasMfmaShape8(MfmaShape shape);
/// "32x32x16, 16x16x32 (gfx942, gfx950), 32x32x64, 16x16x128 (gfx950)".
std::string mfmaShapes8ByChip();

} // namespace kcc

#endif // KCC_TARGET_FLOAT8_H
