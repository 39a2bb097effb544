//===- Target.h - What kcc knows about each supported chip -----*- C++ -*-===//
//
// One table of facts per chip, read by the verifiers (which MFMA shapes and LDS
// instructions exist), the LDS allocator (how much LDS a workgroup may use), the
// code generator (the LLVM CPU name and features) and the emulator.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TARGET_TARGET_H
#define KCC_TARGET_TARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace kcc {

enum class Chip { gfx942, gfx950 };

/// An MFMA instruction shape M x N x K for 16-bit floating-point inputs with
/// f32 accumulation (bf16 and f16 exist for every shape listed here).
struct MfmaShape {
  int m, n, k;
  bool operator==(const MfmaShape &o) const {
    return m == o.m && n == o.n && k == o.k;
  }
};

struct ChipInfo {
  Chip chip;
  llvm::StringRef name;          // "gfx942"
  llvm::StringRef marketing;     // "MI300X"
  int computeUnits;              // CUs of the flagship part
  int ldsBytesPerWorkgroup;      // the most LDS one workgroup may allocate
  int ldsBanks;                  // 4-byte LDS banks
  int vgprsPerSimdLane;          // unified VGPR + AGPR file per lane
  int maxWavesPerSimd;           // occupancy cap
  int wavefrontSize;             // always 64 on CDNA
  bool hasTransposingLdsRead;    // ds_read_b64_tr_b16
  bool hasPermlaneSwap;          // v_permlane16_swap / v_permlane32_swap
  bool hasWideLdsDma;            // buffer_load_dwordx3/x4 ... lds
  bool hasBf16Convert;           // v_cvt_pk_bf16_f32 (rounds, keeps NaNs)
  llvm::ArrayRef<MfmaShape> mfmaShapes16; // bf16/f16 -> f32 shapes
  int ldsBytesPerCU;             // LDS shared by the workgroups of one CU
  int simdsPerCU;                // SIMDs a CU spreads its waves over
  int vgprAllocGranule;          // unified VGPR/AGPR allocation granule
  int barriersPerCU;             // workgroups of 2+ waves resident per CU
  unsigned elfMach;              // EF_AMDGPU_MACH_* in a code object's e_flags
  // The flagship part's data sheet (Target.cpp names it): the figures the
  // timing model, the ops' estimates and the benchmarks' peaks start from.
  double peakClockGHz;           // peak engine clock
  double peakDense16Flops;       // dense bf16/f16 MFMA FLOP/s at that clock
  double hbmBytesPerSecond;      // peak HBM bandwidth
  double infinityCacheBytes;     // the memory-side last-level cache
  double infinityCacheBytesPerSecond; // its peak bandwidth; 0: no figure
};

/// Facts for `chip`.
const ChipInfo &getChipInfo(Chip chip);

/// Parses "gfx942" / "gfx950"; anything else is std::nullopt.
std::optional<Chip> parseChip(llvm::StringRef name);

/// The chip whose EF_AMDGPU_MACH_* value is `elfMach` (the e_flags of a code
/// object masked with EF_AMDGPU_MACH); std::nullopt for other processors.
std::optional<Chip> chipFromElfMach(unsigned elfMach);

/// "gfx942, gfx950": for diagnostics that list what is supported.
llvm::StringRef supportedChipList();

/// The input families of the MFMAs, each with a shape table of its own:
/// 16-bit floats (bf16/f16 -> f32), 8-bit floats (FP8/BF8 -> f32) and 8-bit
/// integers (i8 -> i32).
enum class MfmaInputs { float16, float8, int8 };

/// The MFMA shapes of `inputs` on `chip`, in the table's order.
llvm::ArrayRef<MfmaShape> mfmaShapesOf(Chip chip, MfmaInputs inputs);
/// True when `chip` has an MFMA of `inputs` and `shape` (k = 0: any K).
bool chipHasMfmaShape(Chip chip, MfmaInputs inputs, MfmaShape shape);
/// "32x32x16 and 16x16x32": the shapes of `inputs` on `chip`.
std::string mfmaShapeListOf(Chip chip, MfmaInputs inputs);
/// True when some chip has an MFMA of `inputs` and `shape` (k = 0: any K).
bool anyChipHasMfmaShapeOf(MfmaInputs inputs, MfmaShape shape);
/// Every chip's shapes of `inputs`, each with the chips that have it:
/// "32x32x16, 16x16x32 (gfx942, gfx950), 32x32x32, 16x16x64 (gfx950)".
std::string mfmaShapesByChipOf(MfmaInputs inputs);

/// True when `chip` has an MFMA of `shape` for bf16/f16 inputs.
bool hasMfmaShape(Chip chip, MfmaShape shape);

/// "32x32x8, 16x16x16 and 32x32x16": the bf16/f16 shapes of `chip`, for
/// diagnostics that say what the chip has.
std::string mfmaShapeList(Chip chip);

/// True when some supported chip has an MFMA of `shape` for bf16/f16; a
/// shape with k = 0 matches any K.
bool anyChipHasMfmaShape(MfmaShape shape);
/// "32x32x8, 16x16x16 (gfx942, gfx950), 32x32x16, 16x16x32 (gfx950)": every
/// chip's bf16/f16 shapes, for diagnostics made before the chip is known.
std::string mfmaShapesByChip();

} // namespace kcc

#endif // KCC_TARGET_TARGET_H
