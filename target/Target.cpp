//===- Target.cpp - Per-chip facts ----------------------------------------===//
//
// Sources: AMD CDNA3 ISA guide (MI300) and CDNA4 ISA guide (MI355X), the
// MI300X / MI355X data sheets, and LLVM's AMDGPUUsage (LDS sizes per target).
// The data sheets give the CUs, the peak engine clock, the dense 16-bit MFMA
// peak and the HBM bandwidth: MI300X 304 CUs, 2100 MHz, 1307.4 TFLOPS bf16
// dense, 5.3 TB/s HBM3; MI355X 256 CUs, 2400 MHz, 2516.6 TFLOPS bf16 dense,
// 8 TB/s HBM3E. The CDNA3 and CDNA4 white papers give the CU's 4 SIMDs and
// the LDS banks (32 on CDNA3; CDNA4's 160 KB LDS with doubled read
// bandwidth: 64). Each peak is the product of the others: CUs x 4 SIMDs x
// the MFMA's FLOPs per cycle (32x32x8 bf16: 16384 in 8 passes of 4 cycles;
// gfx950's 32x32x16: 32768 in as many) x the clock. Both chips have a 256 MB
// Infinity Cache (CDNA3 and CDNA4 white papers); AMD's CDNA 3 launch material
// gives MI300X's its 17.2 TB/s peak, and no MI355X figure was found.
//
//===----------------------------------------------------------------------===//
#include "target/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"

#include <string>
#include <vector>

namespace kcc {

static const MfmaShape kGfx942Shapes[] = {{32, 32, 8}, {16, 16, 16}};
static const MfmaShape kGfx950Shapes[] = {
    {32, 32, 8}, {16, 16, 16}, {32, 32, 16}, {16, 16, 32}};

static const ChipInfo kChips[] = {
    {Chip::gfx942, "gfx942", "MI300X", /*computeUnits=*/304,
     /*ldsBytesPerWorkgroup=*/64 * 1024, /*ldsBanks=*/32,
     /*vgprsPerSimdLane=*/512, /*maxWavesPerSimd=*/8, /*wavefrontSize=*/64,
     /*hasTransposingLdsRead=*/false, /*hasPermlaneSwap=*/false,
     /*hasWideLdsDma=*/false, /*hasBf16Convert=*/false, kGfx942Shapes,
     /*ldsBytesPerCU=*/64 * 1024, /*simdsPerCU=*/4, /*vgprAllocGranule=*/8,
     /*barriersPerCU=*/16,
     llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX942, /*peakClockGHz=*/2.1,
     /*peakDense16Flops=*/1307.4e12, /*hbmBytesPerSecond=*/5.3e12,
     /*infinityCacheBytes=*/256e6, /*infinityCacheBytesPerSecond=*/17.2e12},
    {Chip::gfx950, "gfx950", "MI355X", /*computeUnits=*/256,
     /*ldsBytesPerWorkgroup=*/160 * 1024, /*ldsBanks=*/64,
     /*vgprsPerSimdLane=*/512, /*maxWavesPerSimd=*/8, /*wavefrontSize=*/64,
     /*hasTransposingLdsRead=*/true, /*hasPermlaneSwap=*/true,
     /*hasWideLdsDma=*/true, /*hasBf16Convert=*/true, kGfx950Shapes,
     /*ldsBytesPerCU=*/160 * 1024, /*simdsPerCU=*/4, /*vgprAllocGranule=*/8,
     /*barriersPerCU=*/16,
     llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX950, /*peakClockGHz=*/2.4,
     /*peakDense16Flops=*/2516.6e12, /*hbmBytesPerSecond=*/8.0e12,
     /*infinityCacheBytes=*/256e6, /*infinityCacheBytesPerSecond=*/0},
};

const ChipInfo &getChipInfo(Chip chip) {
  return chip == Chip::gfx942 ? kChips[0] : kChips[1];
}

std::optional<Chip> parseChip(llvm::StringRef name) {
  for (const ChipInfo &info : kChips)
    if (info.name == name)
      return info.chip;
  return std::nullopt;
}

std::optional<Chip> chipFromElfMach(unsigned elfMach) {
  for (const ChipInfo &info : kChips)
    if (info.elfMach == elfMach)
      return info.chip;
  return std::nullopt;
}

llvm::StringRef supportedChipList() { return "gfx942, gfx950"; }

// The 8-bit tables (CDNA3 ISA guide: V_MFMA_F32_32X32X16_FP8_FP8 and
// V_MFMA_I32_32X32X16_I8 with their 16x16 forms; CDNA4 ISA guide: those,
// plus V_MFMA_F32_32X32X64_F8F6F4 / 16X16X128 and V_MFMA_I32_32X32X32_I8 /
// 16X16X64). The 16-bit ones are ChipInfo::mfmaShapes16.
static const MfmaShape kGfx942Float8[] = {{32, 32, 16}, {16, 16, 32}};
static const MfmaShape kGfx950Float8[] = {
    {32, 32, 16}, {16, 16, 32}, {32, 32, 64}, {16, 16, 128}};
static const MfmaShape kGfx942Int8[] = {{32, 32, 16}, {16, 16, 32}};
static const MfmaShape kGfx950Int8[] = {
    {32, 32, 16}, {16, 16, 32}, {32, 32, 32}, {16, 16, 64}};

llvm::ArrayRef<MfmaShape> mfmaShapesOf(Chip chip, MfmaInputs inputs) {
  bool g942 = chip == Chip::gfx942;
  switch (inputs) {
  case MfmaInputs::float16:
    return getChipInfo(chip).mfmaShapes16;
  case MfmaInputs::float8:
    return g942 ? llvm::ArrayRef<MfmaShape>(kGfx942Float8) : kGfx950Float8;
  case MfmaInputs::int8:
    return g942 ? llvm::ArrayRef<MfmaShape>(kGfx942Int8) : kGfx950Int8;
  }
  return {};
}

static bool sameShape(MfmaShape have, MfmaShape want) {
  return have.m == want.m && have.n == want.n && (!want.k || have.k == want.k);
}

static std::string shapeText(MfmaShape s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

bool chipHasMfmaShape(Chip chip, MfmaInputs inputs, MfmaShape shape) {
  return llvm::any_of(mfmaShapesOf(chip, inputs),
                      [&](const MfmaShape &s) { return sameShape(s, shape); });
}

std::string mfmaShapeListOf(Chip chip, MfmaInputs inputs) {
  llvm::ArrayRef<MfmaShape> shapes = mfmaShapesOf(chip, inputs);
  std::string out;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i)
      out += i + 1 == shapes.size() ? " and " : ", ";
    out += shapeText(shapes[i]);
  }
  return out;
}

bool anyChipHasMfmaShapeOf(MfmaInputs inputs, MfmaShape shape) {
  return llvm::any_of(kChips, [&](const ChipInfo &c) {
    return chipHasMfmaShape(c.chip, inputs, shape);
  });
}

std::string mfmaShapesByChipOf(MfmaInputs inputs) {
  // Shapes in the order the chips list them, each with the chips having it;
  // a run of shapes that the same chips have shares one "(chips)".
  std::vector<MfmaShape> shapes;
  for (const ChipInfo &c : kChips)
    for (const MfmaShape &s : mfmaShapesOf(c.chip, inputs))
      if (!llvm::is_contained(shapes, s))
        shapes.push_back(s);
  auto chipsOf = [&](MfmaShape s) {
    std::string names;
    for (const ChipInfo &c : kChips)
      if (llvm::is_contained(mfmaShapesOf(c.chip, inputs), s))
        names += (names.empty() ? "" : ", ") + c.name.str();
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

bool hasMfmaShape(Chip chip, MfmaShape shape) {
  return llvm::is_contained(getChipInfo(chip).mfmaShapes16, shape);
}

std::string mfmaShapeList(Chip chip) { return mfmaShapeListOf(chip, MfmaInputs::float16); }

bool anyChipHasMfmaShape(MfmaShape shape) {
  return anyChipHasMfmaShapeOf(MfmaInputs::float16, shape);
}

std::string mfmaShapesByChip() { return mfmaShapesByChipOf(MfmaInputs::float16); }

} // namespace kcc
