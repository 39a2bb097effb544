//===- Occupancy.cpp - Waves and workgroups per CU ------------------------===//
//
// Sources: LLVM's AMDGPU GCNSubtarget (getOccupancyWithNumSGPRs for gfx9,
// the unified register file of gfx90a+ allocated in granules of 8), the CDNA3
// and CDNA4 ISA guides (4 SIMDs per CU, 8 waves per SIMD, 512 registers per
// lane shared by VGPRs and AGPRs) and AMDGPUUsage (LDS per CU).
//
//===----------------------------------------------------------------------===//
#include "target/Occupancy.h"
#include "target/CodeObject.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace kcc {

StringRef occupancyLimitName(OccupancyLimit limit) {
  switch (limit) {
  case OccupancyLimit::Hardware:
    return "hardware";
  case OccupancyLimit::Vgprs:
    return "vgprs";
  case OccupancyLimit::Sgprs:
    return "sgprs";
  case OccupancyLimit::Lds:
    return "lds";
  case OccupancyLimit::WorkgroupSize:
    return "workgroup-size";
  }
  return "hardware";
}

/// Waves per SIMD that `sgprs` scalar registers allow on GFX9-family chips
/// (800 SGPRs per SIMD, allocated in blocks); the same steps as LLVM's
/// GCNSubtarget::getOccupancyWithNumSGPRs for gfx8/gfx9.
static unsigned wavesForSgprs(unsigned sgprs) {
  if (sgprs <= 80)
    return 10;
  if (sgprs <= 88)
    return 9;
  if (sgprs <= 100)
    return 8;
  return 7;
}

/// Whole workgroups of `wavesPerGroup` waves that fit on one CU when each
/// SIMD has room for `regWaves` waves and each workgroup takes `ldsBytes`.
static unsigned groupsPerCu(const ChipInfo &info, unsigned regWaves,
                            unsigned wavesPerGroup, uint64_t ldsBytes) {
  uint64_t groups = uint64_t(regWaves) * info.simdsPerCU / wavesPerGroup;
  if (ldsBytes != 0)
    groups = std::min<uint64_t>(groups, info.ldsBytesPerCU / ldsBytes);
  // Workgroups of several waves each hold one of the CU's barriers; a
  // single-wave workgroup needs none (LLVM's getMaxWorkGroupsPerCU).
  if (wavesPerGroup > 1)
    groups = std::min<uint64_t>(groups, info.barriersPerCU);
  return unsigned(groups);
}

/// Waves on the busiest SIMD when a CU holds `groups` workgroups.
static unsigned busiestSimd(const ChipInfo &info, unsigned regWaves,
                            unsigned groups, unsigned wavesPerGroup) {
  return std::min<unsigned>(
      regWaves, divideCeil(groups * wavesPerGroup, info.simdsPerCU));
}

Occupancy computeOccupancy(Chip chip, const KernelResources &r) {
  const ChipInfo &info = getChipInfo(chip);
  const unsigned maxWaves = info.maxWavesPerSimd;
  const unsigned wavesPerGroup =
      divideCeil(std::max(r.workgroupSize, 1u), unsigned(info.wavefrontSize));

  unsigned allocated = alignTo(std::max(r.registers, 1u), info.vgprAllocGranule);
  unsigned vgprWaves =
      std::min<unsigned>(maxWaves, info.vgprsPerSimdLane / allocated);
  unsigned sgprWaves = std::min(maxWaves, wavesForSgprs(r.sgprs));
  unsigned regWaves = std::min(vgprWaves, sgprWaves);

  Occupancy result;
  result.workgroupsPerCu = groupsPerCu(info, regWaves, wavesPerGroup, r.ldsBytes);
  result.wavesPerSimd =
      busiestSimd(info, regWaves, result.workgroupsPerCu, wavesPerGroup);
  // Name the resource that alone would give the same occupancy. LDS wins a
  // tie: when LDS bounds occupancy the backend pads the VGPR allocation up to
  // what that occupancy leaves free, so the VGPRs then bind only on paper.
  auto wavesWith = [&](unsigned waves, uint64_t lds) {
    return busiestSimd(info, waves, groupsPerCu(info, waves, wavesPerGroup, lds),
                       wavesPerGroup);
  };
  if (result.wavesPerSimd >= maxWaves)
    result.limitedBy = OccupancyLimit::Hardware;
  else if (r.ldsBytes != 0 && wavesWith(maxWaves, r.ldsBytes) == result.wavesPerSimd)
    result.limitedBy = OccupancyLimit::Lds;
  else if (vgprWaves == result.wavesPerSimd)
    result.limitedBy = OccupancyLimit::Vgprs;
  else if (sgprWaves == result.wavesPerSimd)
    result.limitedBy = OccupancyLimit::Sgprs;
  else
    // Registers leave room for more waves than whole workgroups can use.
    result.limitedBy = OccupancyLimit::WorkgroupSize;
  return result;
}

KernelResources kernelResources(const KernelInfo &kernel, Chip chip,
                                unsigned workgroupSize,
                                uint64_t dynamicLdsBytes) {
  const ChipInfo &info = getChipInfo(chip);
  KernelResources r;
  // On gfx90a and later the descriptor's granulated count covers the whole
  // unified file; the metadata's counts bound it from below when a
  // descriptor was written by hand with a smaller field.
  unsigned granulated =
      (kernel.descriptor.granulatedWorkitemVgprCount + 1) * info.vgprAllocGranule;
  // `.vgpr_count` is the unified count on gfx90a+ as LLVM writes it; a
  // hand-written object may count only the arch VGPRs there.
  unsigned unified = kernel.vgprCount;
  if (kernel.agprCount)
    unified = std::max(unified, kernel.descriptor.accumOffset + kernel.agprCount);
  r.registers = std::max(granulated, unified);
  r.sgprs = kernel.sgprCount;
  r.ldsBytes = uint64_t(kernel.groupSegmentFixedSize) + dynamicLdsBytes;
  r.workgroupSize = workgroupSize;
  return r;
}

} // namespace kcc
