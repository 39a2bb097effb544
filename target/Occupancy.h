//===- Occupancy.h - How many waves and workgroups a CU holds ---*- C++ -*-===//
//
// The one definition of occupancy in kcc. `kcc --stats` reports it, the
// emulator's scheduler holds that many workgroups per CU at once, the timing
// model replays that many, and the persistent kernels (all-gather + GEMM, the
// ring attention's step kernel) size their grids from it. Computing it in one
// place keeps them from disagreeing about what the hardware would do.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TARGET_OCCUPANCY_H
#define KCC_TARGET_OCCUPANCY_H

#include "target/Target.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace kcc {

struct KernelInfo;

/// What bounds a kernel's occupancy.
enum class OccupancyLimit { Hardware, Vgprs, Sgprs, Lds, WorkgroupSize };
llvm::StringRef occupancyLimitName(OccupancyLimit limit);

/// The resources one workgroup of a kernel holds while it is resident.
struct KernelResources {
  /// Registers per lane of the unified VGPR/AGPR file (arch VGPRs up to
  /// accum_offset, then the AGPRs); rounded up to the allocation granule here.
  unsigned registers = 0;
  unsigned sgprs = 0;
  /// LDS per workgroup: the static group segment plus any dynamic LDS.
  uint64_t ldsBytes = 0;
  /// Work-items per workgroup.
  unsigned workgroupSize = 64;
};

struct Occupancy {
  /// Waves of this kernel on the busiest SIMD of a full CU.
  unsigned wavesPerSimd = 0;
  /// Whole workgroups one CU holds at once; 0 when a single workgroup does
  /// not fit (too many waves for the registers it needs, or too much LDS).
  unsigned workgroupsPerCu = 0;
  OccupancyLimit limitedBy = OccupancyLimit::Hardware;
};

/// Occupancy of a kernel with `resources` on `chip`. A workgroup's waves all
/// live on one CU, spread over its SIMDs, so a CU holds whole workgroups: as
/// many as its wave slots, its LDS and the per-CU workgroup cap allow.
Occupancy computeOccupancy(Chip chip, const KernelResources &resources);

/// The resources of `kernel` (read from its code object) when launched with
/// workgroups of `workgroupSize` work-items and `dynamicLdsBytes` of LDS on
/// top of its static group segment. The register count is the larger of the
/// descriptor's granulated allocation and the metadata's counts, so that it
/// never undercounts what the hardware allocates.
KernelResources kernelResources(const KernelInfo &kernel, Chip chip,
                                unsigned workgroupSize,
                                uint64_t dynamicLdsBytes = 0);

} // namespace kcc

#endif // KCC_TARGET_OCCUPANCY_H
