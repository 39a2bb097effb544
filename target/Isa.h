//===- Isa.h - What an instruction's mnemonic says about it -----*- C++ -*-===//
//
// The facts kcc reads off a printed mnemonic, in one place for every part
// that looks at instructions (the compiler's --stats, the emulator's timing
// model, the benchmarks): which instructions are MFMAs, their shape, FLOPs
// and pass counts, and which run on the quarter-rate transcendental unit.
// Mnemonics are LLVM's (the ISA guides' names, with any _e32/_e64/_sdwa/_dpp
// suffix the printer keeps).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TARGET_ISA_H
#define KCC_TARGET_ISA_H

#include "target/Target.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace kcc {

/// The parts of an MFMA/SMFMAC mnemonic: v_mfma_<out>_<M>x<N>x<K><type>,
/// v_mfma_scale_<out>_... (gfx950's block-scaled f8f6f4 forms) or
/// v_smfmac_<out>_....
struct MfmaName {
  bool sparse = false; // v_smfmac_
  bool scaled = false; // v_mfma_scale_
  llvm::StringRef out; // f32, i32, f64
  llvm::StringRef type; // what follows the shape: "bf16", "_2b_f32", "f8f6f4"
  unsigned m = 0, n = 0, k = 0;
};

/// The parts of `mnemonic`, or std::nullopt when it is not an MFMA/SMFMAC
/// (v_mfma_ld_scale_b32, which only loads the scales of the scaled MFMA that
/// follows it and issues on the VALU, is not one).
std::optional<MfmaName> parseMfmaName(llvm::StringRef mnemonic);

/// True for an MFMA/SMFMAC, an instruction of the matrix cores.
inline bool isMfma(llvm::StringRef mnemonic) {
  return parseMfmaName(mnemonic).has_value();
}

/// MFMA passes of a mnemonic ("v_mfma_f32_32x32x8_bf16"), from the rules of
/// LLVM's SIDPGFX940FullSpeedModel (SISchedule.td), which gfx942 and gfx950
/// share. gfx950's f8f6f4 MFMAs take their operand formats from cbsz/blgp:
/// the name's shape gives the FP6/FP4 rate and `fp8Operand` (an A or B
/// operand in FP8/BF8) doubles it. Returns 0 for a mnemonic that is not an
/// MFMA/SMFMAC.
unsigned mfmaPasses(Chip chip, llvm::StringRef mnemonic, bool fp8Operand = false);

/// FLOPs of one MFMA/SMFMAC, 2 M N K from its mnemonic's shape; 0 for a
/// mnemonic that is not one.
uint64_t mfmaFlops(llvm::StringRef mnemonic);

/// The source text of the MFMA pass rules, for the timing model's printout.
llvm::StringRef mfmaPassSource();

/// True for an instruction of the quarter-rate transcendental unit: v_exp,
/// v_log, v_rcp, v_rsq, v_sqrt, v_sin, v_cos in their f32, f16, bf16 and
/// f64 forms (v_rcp_iflag_f32, v_exp_legacy_f32 and v_log_legacy_f32
/// included). These are the gfx9 instructions LLVM marks TRANS (SIInstrFlags,
/// VOP1Instructions.td; SISchedule.td WriteTrans32/WriteTrans64). Full-rate
/// look-alikes (v_ldexp, v_frexp_*) are not.
bool isTranscendental(llvm::StringRef mnemonic);

} // namespace kcc

#endif // KCC_TARGET_ISA_H
