//===- VopCommon.h - Source fetch and result write for VALU ops -*- C++ -*-===//
//
// The pieces every VOP1/VOP2/VOP3/VOPC handler shares: fetching a source as
// 64 lane values with DPP (src0 only), SDWA selects, op_sel and float
// modifiers applied, and writing a result with omod, clamp, SDWA destination
// selects and the EXEC mask (narrowed by DPP's row/bank masks and bound_ctrl).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_VOPCOMMON_H
#define KCC_RUNTIME_EMU_VOPCOMMON_H

#include "runtime/emu/Exec.h"

namespace kcc::emu {

/// Type of a VALU operand for modifiers and clamping.
enum class Ty : uint8_t { B32, F32, F16, F64, I16, U16 };

/// The write mask of a VALU instruction: EXEC, narrowed by DPP.
uint64_t dppWriteMask(Wave &w, const Inst &in, uint64_t exec);

/// Applies the DPP permutation of `in` to `src` (64 values) into `out`.
/// Lanes whose source is invalid get 0 (they are either written with 0 under
/// bound_ctrl, or not written at all, see dppWriteMask).
void dppPermute(Wave &w, const Inst &in, const uint32_t *src, uint32_t *out);

/// DPP of an instruction with a 64-bit operand, which gfx9 defines for
/// row_newbcast only (LLVM: "64 bit dpp only supports row_newbcast"):
/// row_newbcast:N (0x150 + N, the encoding gfx10 names row_share) reads
/// lane N of each 16-lane row. Sets `srcLane[l]` to lane l's source, or -1
/// when that lane has EXEC off (it reads 0), and `mask` to the lanes written
/// (EXEC, row_mask, bank_mask, and bound_ctrl for invalid sources). Any
/// other control faults the wave and returns false.
bool dpp64Lanes(Wave &w, const Inst &in, int *srcLane, uint64_t &mask);

/// Fetches 32-bit source `i` of a VALU instruction of operand type `ty` into
/// `buf` (or returns a register row when nothing applies).
const uint32_t *fetchSrc(Wave &w, const Inst &in, unsigned i, Ty ty,
                         uint32_t *buf);

/// Writes 32-bit results `r` of type `ty` to dst[0] with omod, clamp, SDWA
/// and the write mask. `r` may be modified.
void writeResult(Wave &w, const Inst &in, uint32_t *r, Ty ty, uint64_t mask);

/// True when the instruction uses a form or modifier that needs the general
/// path.
inline bool needsGeneralPath(const Inst &in) {
  return (in.form & (kFormDpp | kFormSdwa)) || in.clamp || in.omod ||
         ((in.src[0].mods | in.src[1].mods | in.src[2].mods) != 0);
}

float quietNaN(float x);
/// IEEE-mode min/max: a signalling NaN gives a quiet NaN, a quiet NaN gives
/// the other operand, -0 < +0.
float fmaxIeee(float a, float b);
float fminIeee(float a, float b);
double fmaxIeee64(double a, double b);
double fminIeee64(double a, double b);

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_VOPCOMMON_H
