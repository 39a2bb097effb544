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

#include <vector>

namespace kcc {

static const MfmaShape kGfx942Shapes8[] = {{32, 32, 16}, {16, 16, 32}};
static const MfmaShape kGfx950Shapes8[] = {
    {32, 32, 16}, {16, 16, 32}, {32, 32, 64}, {16, 16, 128}};

static const Chip kChips[] = {Chip::gfx942, Chip::gfx950};

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
  if (chip == Chip::gfx942)
    return kGfx942Shapes8;
  return kGfx950Shapes8;
}

static bool sameShape(MfmaShape have, MfmaShape want) {
  return have.m == want.m && have.n == want.n && (!want.k || have.k == want.k);
}

bool hasMfmaShape8(Chip chip, MfmaShape shape) {
  return llvm::any_of(mfmaShapes8(chip),
                      [&](const MfmaShape &s) { return sameShape(s, shape); });
}

static std::string shapeText(MfmaShape s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

std::string mfmaShapeList8(Chip chip) {
  llvm::ArrayRef<MfmaShape> shapes = mfmaShapes8(chip);
  std::string out;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i)
      out += i + 1 == shapes.size() ? " and " : ", ";
    out += shapeText(shapes[i]);
  }
  return out;
}

bool anyChipHasMfmaShape8(MfmaShape shape) {
  return llvm::any_of(kChips, [&](Chip c) { return hasMfmaShape8(c, shape); });
}

std::string mfmaShapes8ByChip() {
  // Each shape once, in the order the chips list them; a run of shapes that
  // the same chips have shares one "(chips)", as mfmaShapesByChip writes
  // the 16-bit ones.
  std::vector<MfmaShape> shapes;
  for (Chip c : kChips)
    for (const MfmaShape &s : mfmaShapes8(c))
      if (!llvm::is_contained(shapes, s))
        shapes.push_back(s);
  auto chipsOf = [](MfmaShape s) {
    std::string names;
    for (Chip c : kChips)
      if (llvm::is_contained(mfmaShapes8(c), s))
        names += (names.empty() ? "" : ", ") + getChipInfo(c).name.str();
    return names;
  };
  std::string out;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i)
      out += ", ";
    out += shapeText(shapes[i]);
    std::string chips = chipsOf(shapes[i]);
    if (i + 1 == shapes.size() || chipsOf(shapes[i + 1]) != chips)
      out += " (" + chips + ")";
  }
  return out;
}

} // namespace kcc
