//===- Float8.cpp - FP8 formats and FP8 MFMA shapes per chip --------------===//
//
// Sources: AMD CDNA3 ISA guide (gfx942: the FNUZ FP8/BF8 of
// V_CVT_PK_FP8_F32 and V_MFMA_F32_32X32X16_FP8_FP8), CDNA4 ISA guide (gfx950:
// OCP FP8/BF8, V_MFMA_F32_32X32X64_F8F6F4 and V_MFMA_F32_16X16X128_F8F6F4
// beside the CDNA3 FP8 MFMAs), and the OCP 8-bit floating point
// specification (OFP8) for the largest finite values.
//
//===----------------------------------------------------------------------===//
#include "target/Float8.h"

#include "llvm/ADT/STLExtras.h"

namespace kcc {

llvm::StringRef fp8FormatName(Fp8Format format) {
  switch (format) {
  case Fp8Format::E4M3FN: return "f8E4M3FN";
  case Fp8Format::E5M2: return "f8E5M2";
  case Fp8Format::E4M3FNUZ: return "f8E4M3FNUZ";
  case Fp8Format::E5M2FNUZ: return "f8E5M2FNUZ";
  }
  return "?";
}

std::optional<Fp8Format> parseFp8Format(llvm::StringRef name) {
  for (Fp8Format f : {Fp8Format::E4M3FN, Fp8Format::E5M2, Fp8Format::E4M3FNUZ,
                      Fp8Format::E5M2FNUZ})
    if (fp8FormatName(f) == name)
      return f;
  return std::nullopt;
}

float fp8MaxFinite(Fp8Format format) {
  switch (format) {
  case Fp8Format::E4M3FN: return 448.0f;   // S.1111.110: 1.75 * 2^8
  case Fp8Format::E4M3FNUZ: return 240.0f; // S.1111.111: 1.875 * 2^7
  case Fp8Format::E5M2:                    // S.11110.11: 1.75 * 2^15
  case Fp8Format::E5M2FNUZ: return 57344.0f; // S.11111.11: 1.75 * 2^15
  }
  return 0.0f;
}

bool chipHasFp8Format(Chip chip, Fp8Format format) {
  return isFnuz(format) == (chip == Chip::gfx942);
}

std::string fp8FormatsOf(Chip chip) {
  return chip == Chip::gfx942 ? "f8E4M3FNUZ and f8E5M2FNUZ (FNUZ)"
                              : "f8E4M3FN and f8E5M2 (OCP)";
}

llvm::ArrayRef<MfmaShape> mfmaShapes8(Chip chip) {
  return mfmaShapesOf(chip, MfmaInputs::float8);
}

bool hasMfmaShape8(Chip chip, MfmaShape shape) {
  return chipHasMfmaShape(chip, MfmaInputs::float8, shape);
}

std::string mfmaShapeList8(Chip chip) { return mfmaShapeListOf(chip, MfmaInputs::float8); }

bool anyChipHasMfmaShape8(MfmaShape shape) {
  return anyChipHasMfmaShapeOf(MfmaInputs::float8, shape);
}

std::string mfmaShapes8ByChip() { return mfmaShapesByChipOf(MfmaInputs::float8); }

} // namespace kcc
