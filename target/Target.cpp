//===- Target.cpp - Per-chip facts ----------------------------------------===//
//
// Sources: AMD CDNA3 ISA guide (MI300) and CDNA4 ISA guide (MI355X), the
// MI300X / MI355X data sheets, and LLVM's AMDGPUUsage (LDS sizes per target).
//
//===----------------------------------------------------------------------===//
#include "target/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"

namespace kcc {

static const MfmaShape kGfx942Shapes[] = {{32, 32, 8}, {16, 16, 16}};
static const MfmaShape kGfx950Shapes[] = {
    {32, 32, 8}, {16, 16, 16}, {32, 32, 16}, {16, 16, 32}};

static const ChipInfo kChips[] = {
    {Chip::gfx942, "gfx942", "MI300X", /*computeUnits=*/304,
     /*ldsBytesPerWorkgroup=*/64 * 1024, /*ldsBanks=*/32,
     /*vgprsPerSimdLane=*/512, /*maxWavesPerSimd=*/8, /*wavefrontSize=*/64,
     /*hasTransposingLdsRead=*/false, /*hasPermlaneSwap=*/false,
     /*hasWideLdsDma=*/false, kGfx942Shapes,
     /*ldsBytesPerCU=*/64 * 1024, /*simdsPerCU=*/4, /*vgprAllocGranule=*/8,
     /*barriersPerCU=*/16,
     llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX942},
    {Chip::gfx950, "gfx950", "MI355X", /*computeUnits=*/256,
     /*ldsBytesPerWorkgroup=*/160 * 1024, /*ldsBanks=*/64,
     /*vgprsPerSimdLane=*/512, /*maxWavesPerSimd=*/8, /*wavefrontSize=*/64,
     /*hasTransposingLdsRead=*/true, /*hasPermlaneSwap=*/true,
     /*hasWideLdsDma=*/true, kGfx950Shapes,
     /*ldsBytesPerCU=*/160 * 1024, /*simdsPerCU=*/4, /*vgprAllocGranule=*/8,
     /*barriersPerCU=*/16,
     llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX950},
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

bool hasMfmaShape(Chip chip, MfmaShape shape) {
  return llvm::is_contained(getChipInfo(chip).mfmaShapes16, shape);
}

} // namespace kcc
